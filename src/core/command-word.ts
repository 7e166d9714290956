// The command a command line names: its first word that is neither an option nor the value of a
// global option that takes one (`checkin --profile work today` runs `today`). Read before the
// command line is parsed, to load only that command (program.ts) and to keep the update notice
// quiet after some (domain/update-notice.ts).

/** The global options that take a value, in both spellings commander reads (`--profile work`, `--profile=work`). */
const VALUE_OPTIONS = new Set(['--profile']);

export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}
