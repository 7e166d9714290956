// Shell completion (bash, zsh, fish, PowerShell): `checkin completion <shell>` prints the script;
// on Tab the shell runs `checkin complete …`, which answers from the command definitions (the tree
// commander holds, walked by engine.ts) and the local cache — never a network request.
// Loaded only for those two commands and --help: normal runs do not pay for it.
//
// Team names, @usernames and goal ids come from the service, so no shell ever evaluates what
// `checkin complete` prints: no eval, no `compgen -W`, no Invoke-Expression. bash is handed replies
// already quoted for its command line (worked out here from the line and COMP_WORDBREAKS); zsh's
// compadd and fish quote the plain values they are handed; the PowerShell script puts a value in
// single quotes itself. A name that cannot be shown or typed as itself — a newline, a tab, another
// control character, an escape sequence, a bidi or zero-width character — is not offered.
import { Argument, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { MOODS, MOOD_NAMES } from '../../api/types.js';
import { PREFERENCE_KEYS, PREFERENCES } from '../../config/prefs.js';
import type { Context } from '../../context.js';
import { cachedEntry, cachedTeamNames, DAY_WORDS } from '../../domain/candidates.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { completionsFor, completionTree, type Complete } from './engine.js';

/** What the cache holds for this service (domain/candidates.ts: no request, no keychain). */
const cached = cachedEntry;

export interface Candidate {
  value: string;
  description: string;
}

/**
 * Whether a value can be offered: it must be shown and put on a command line as itself, so
 * nothing that the terminal would act on or hide (escapes, controls, bidi and zero-width
 * characters) and no newline or tab, which would also break the one-candidate-a-line answer.
 */
export function offerable(value: string): boolean {
  return value !== '' && sanitizeLine(value) === value;
}

// ---------------------------------------------------------------------------------------------
// bash: the line as typed, split and unquoted here (nothing is expanded or run), and each reply
// quoted for the place readline puts it.

type Quote = '' | "'" | '"' | "$'";

const ANSI_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** One escape of a $'…' string, `at` just after its backslash: the text and how many characters it used. */
function ansiEscape(s: string, at: number): [string, number] {
  const c = s[at]!;
  if (c in ANSI_ESCAPES) return [ANSI_ESCAPES[c]!, 1];
  const hex = (max: number) => /^[0-9a-fA-F]+/.exec(s.slice(at + 1, at + 1 + max))?.[0];
  if (c === 'x' || c === 'u' || c === 'U') {
    const digits = hex(c === 'x' ? 2 : c === 'u' ? 4 : 8);
    const code = digits ? parseInt(digits, 16) : NaN;
    return digits && code <= 0x10ffff ? [String.fromCodePoint(code), 1 + digits.length] : [`\\${c}`, 1];
  }
  const octal = /^[0-7]{1,3}/.exec(s.slice(at, at + 3))?.[0];
  if (octal) return [String.fromCharCode(parseInt(octal, 8) & 0xff), octal.length];
  if (c === 'c' && at + 1 < s.length) return [String.fromCharCode(s.charCodeAt(at + 1) & 0x1f), 2];
  return [`\\${c}`, 1];
}

export interface ShellLine {
  /** The words before the one being completed, unquoted. */
  words: string[];
  /** The word being completed: as typed, and unquoted. */
  current: { raw: string; value: string };
  /** The quote still open at the end of the line ('' when none). */
  open: Quote;
}

/**
 * Splits a bash command line the way bash would read its words — quotes, backslashes, $'…' — without
 * expanding anything: `$(…)`, backticks and variables stay text.
 */
export function splitShellLine(line: string): ShellLine {
  const words: string[] = [];
  let value = '';
  let inWord = false;
  let start = 0;
  let quote: Quote = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    const next = line[i + 1];
    if (quote === "'") {
      if (c === "'") quote = '';
      else value += c;
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
        if (next !== '\n') value += next;
        i++;
      } else value += c;
      i++;
    } else if (quote === "$'") {
      if (c === "'") {
        quote = '';
        i++;
      } else if (c === '\\' && next !== undefined) {
        const [text, used] = ansiEscape(line, i + 1);
        value += text;
        i += 1 + used;
      } else {
        value += c;
        i++;
      }
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(value);
      value = '';
      inWord = false;
      i++;
    } else {
      if (!inWord) {
        inWord = true;
        start = i;
      }
      if (c === '\\') {
        if (next !== undefined && next !== '\n') value += next;
        i += 2;
      } else if (c === "'" || c === '"') {
        quote = c;
        i++;
      } else if (c === '$' && (next === "'" || next === '"')) {
        quote = next === "'" ? "$'" : '"';
        i += 2;
      } else {
        value += c;
        i++;
      }
    }
  }
  return { words, current: inWord ? { raw: line.slice(start), value } : { raw: '', value: '' }, open: quote };
}

/** Index just past the quoted string that starts at `from` (after its opening quote); past the end if it never closes. */
function skipQuoted(s: string, from: number, quote: "'" | '"', backslashes: boolean): number {
  let i = from;
  while (i < s.length && s[i] !== quote) i += backslashes && s[i] === '\\' && i + 1 < s.length ? 2 : 1;
  return i < s.length ? i + 1 : s.length + 1;
}

/** bash's char_is_quoted: whether s[at] is inside quotes or after a backslash. */
function quotedAt(s: string, at: number): boolean {
  let i = 0;
  while (i <= at) {
    const c = s[i];
    if (c === '\\') {
      if (i + 1 === at) return true;
      i += 2;
    } else if (c === '$' && s[i + 1] === "'" && i + 2 < s.length) {
      i = skipQuoted(s, i + 2, "'", true);
      if (i > at) return true;
    } else if (c === "'" || c === '"') {
      i = skipQuoted(s, i + 1, c, c === '"');
      if (i > at) return true;
    } else i++;
  }
  return false;
}

/**
 * Where in the word being completed (as typed) readline's text starts — the part a reply replaces —
 * and the quote it is inside: after an unclosed quote, or else after the last unquoted character of
 * COMP_WORDBREAKS (readline keeps a `$` or `@` break in the text: its "special prefixes").
 */
export function replacedFrom(raw: string, wordBreaks: string): { index: number; quote: "'" | '"' | '' } {
  let quote: "'" | '"' | '' = '';
  let open = -1;
  let pass = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (pass) pass = false;
    else if (quote !== "'" && c === '\\') pass = true;
    else if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') {
      quote = c;
      open = i;
    }
  }
  if (quote) return { index: open + 1, quote };
  for (let i = raw.length - 1; i >= 0; i--) {
    const c = raw[i]!;
    if (wordBreaks.includes(c) && !quotedAt(raw, i)) return { index: '$@'.includes(c) ? i : i + 1, quote: '' };
  }
  return { index: 0, quote: '' };
}

/** `text` written so that bash reads it back as itself, in the quote the cursor is in. */
export function quoteForBash(text: string, quote: "'" | '"' | ''): string {
  // readline closes the quote after a single match, unless the reply already ends in that quote
  // character: then the reply closes it itself.
  const closed = (reply: string) => (quote && reply.endsWith(quote) ? reply + quote : reply);
  if (quote === "'") return closed(text.replace(/'/g, `'\\''`));
  // In double quotes a backslash keeps `!` from history expansion but stays in the word: `!` goes outside.
  if (quote === '"') return closed(text.replace(/[\\"$`]/g, '\\$&').replace(/!/g, '"\\!"'));
  // Outside quotes: a backslash before everything but letters, digits, non-ASCII and -_./:=@%+,
  return text.replace(/[^\w\u0080-\u{10ffff}\-./:=@%+,]/gu, '\\$&');
}

/**
 * The replies for bash's COMPREPLY: each a candidate for the word at the cursor, written for
 * the part of it that readline replaces. `line` is the command line up to the cursor.
 */
export function bashReplies(line: string, wordBreaks: string, candidatesFor: (words: string[]) => Candidate[]): string[] {
  const { words, current, open } = splitShellLine(line);
  // In $'…' a backslash-quote does not close the string, but readline thinks it does: no guessing.
  if (open === "$'") return [];
  // Leading NAME=value words, then the command; the rest are its arguments.
  let command = 0;
  while (command < words.length && /^[A-Za-z_]\w*=/.test(words[command]!)) command++;
  if (command >= words.length) return [];
  const { index, quote } = replacedFrom(current.raw, wordBreaks);
  const kept = splitShellLine(current.raw.slice(0, index)).current.value;
  // `--team=Pl`: the candidates are the values, the word is the flag and the value.
  const flag = /^-[^=]*=/.exec(current.value)?.[0] ?? '';
  const replies = new Set<string>();
  for (const { value } of candidatesFor([...words.slice(command + 1), current.value])) {
    const word = flag + value;
    if (word.startsWith(kept) && word.startsWith(current.value)) replies.add(quoteForBash(word.slice(kept.length), quote));
  }
  return [...replies];
}

// ---------------------------------------------------------------------------------------------
// The scripts. Each one only ever passes checkin's answer on as data.

const BASH = `# checkin completion for bash (with or without the bash-completion package).
# Put this in ~/.bashrc:  source <(checkin completion bash)
# checkin prints the replies one a line, already quoted for the command line: they are only put
# into COMPREPLY, never evaluated (no eval, no compgen -W on them).
_checkin_completion() {
  local reply
  COMPREPLY=()
  while IFS= read -r reply; do
    COMPREPLY+=("$reply")
  done < <(command checkin complete --shell bash -- "\${COMP_LINE:0:COMP_POINT}" "$COMP_WORDBREAKS" 2>/dev/null)
}
complete -F _checkin_completion checkin
`;

const ZSH = `#compdef checkin
# checkin completion for zsh. In ~/.zshrc, after compinit:  source <(checkin completion zsh)
# (or save it as _checkin in a folder on $fpath before compinit runs).
# Each line checkin prints is one candidate, handed to compadd as data (an array); zsh quotes it
# as it goes on the command line. Nothing checkin prints is evaluated.
_checkin() {
  local -a before values shown
  local line value description current=\${(Q)PREFIX}
  before=("\${(@Q)words[2,CURRENT-1]}")
  [[ $PREFIX == -*=* ]] && compset -P 1 '*='
  for line in "\${(@f)$(command checkin complete -- "\${before[@]}" "$current" 2>/dev/null)}"; do
    [[ $line == *$'\\t'* ]] || continue
    value=\${line%%$'\\t'*}
    description=\${line#*$'\\t'}
    values+=("$value")
    shown+=("$value\${description:+  -- $description}")
  done
  (( \${#values} )) && compadd -l -d shown -a values
}

if [[ \${funcstack[1]-} == _checkin ]]; then
  _checkin "$@"
elif (( \${+functions[compdef]} )); then
  compdef _checkin checkin
else
  print -ru2 -- "checkin: zsh completion needs compinit: put 'autoload -Uz compinit && compinit' in ~/.zshrc before the line that loads checkin's completion"
fi
`;

const FISH = `# checkin completion for fish. Save it:  checkin completion fish > ~/.config/fish/completions/checkin.fish
# Each line checkin prints is one candidate (value, tab, description); fish escapes it as it goes
# on the command line. Nothing checkin prints is evaluated.
function __checkin_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct | string unescape)
    # --team=Pl: fish matches the whole word, so the values come with the flag.
    set -l flag (string match -r -- '^-[^=]*=' "$current")
    for line in (command checkin complete -- $words[2..-1] "$current" 2>/dev/null)
        string match -q -r -- '^[^\\t]+\\t' "$line"; and printf '%s%s\\n' "$flag" "$line"
    end
end
complete -c checkin -e
complete -c checkin -f -a '(__checkin_complete)'
`;

const POWERSHELL = `# checkin completion for PowerShell. Add it to your profile:  checkin completion powershell >> $PROFILE
# The words go to checkin in an environment variable, never through a command line that cmd.exe
# or Invoke-Expression would read; each line checkin prints becomes one CompletionResult, in single
# quotes when it holds anything PowerShell would act on. Nothing checkin prints is evaluated.
Register-ArgumentCompleter -Native -CommandName checkin -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $quotes = "'" + [char]0x2018 + [char]0x2019 + [char]0x201A + [char]0x201B
    $words = [System.Collections.Generic.List[string]]::new()
    foreach ($element in @($commandAst.CommandElements | Select-Object -Skip 1)) {
        if ($element.Extent.EndOffset -ge $cursorPosition) { break }
        if ($element -is [System.Management.Automation.Language.StringConstantExpressionAst]) { $words.Add($element.Value) }
        else { $words.Add($element.Extent.Text) }
    }
    $current = "$wordToComplete"
    if ($current.Length -gt 0 -and $quotes.Contains([string]$current[0])) {
        $current = ($current.Substring(1) -replace "[$quotes]$", '') -replace "([$quotes])[$quotes]", '$1'
    } elseif ($current.Length -gt 0 -and $current[0] -eq '"') {
        $current = $current.Substring(1) -replace '"$', ''
    }
    $words.Add($current)
    $encoding = [Console]::OutputEncoding
    try {
        $env:CHECKIN_COMPLETE_WORDS = $words -join "\`n"
        [Console]::OutputEncoding = [System.Text.Encoding]::UTF8
        $lines = @(& checkin complete --shell powershell 2>$null)
    } finally {
        [Console]::OutputEncoding = $encoding
        Remove-Item Env:CHECKIN_COMPLETE_WORDS -ErrorAction SilentlyContinue
    }
    foreach ($line in $lines) {
        $tab = "$line".IndexOf("\`t")
        if ($tab -lt 0) { continue }
        $value = $line.Substring(0, $tab)
        $description = $line.Substring($tab + 1)
        if ($value -cmatch '^(--?[A-Za-z0-9][A-Za-z0-9-]*|[A-Za-z0-9_][A-Za-z0-9_./:+=-]*)$') { $text = $value }
        else { $text = "'" + ($value -replace "[$quotes]", '$0$0') + "'" }
        if (-not $description) { $description = $value }
        [System.Management.Automation.CompletionResult]::new($text, $value, 'ParameterValue', $description)
    }
}
`;

export const SCRIPTS: Record<string, string> = { bash: BASH, zsh: ZSH, fish: FISH, powershell: POWERSHELL };

const INSTALL = `
Install the completion in your shell:
  bash        echo 'source <(checkin completion bash)' >> ~/.bashrc
  zsh         echo 'source <(checkin completion zsh)' >> ~/.zshrc   (after compinit)
  fish        checkin completion fish > ~/.config/fish/completions/checkin.fish
  PowerShell  checkin completion powershell >> $PROFILE

Tab completes commands, subcommands and flags, moods, day words, and --person/--team names and
goal ids from what checkin has cached (run \`checkin list --person …\` or \`checkin goals\` once):
a Tab never sends a request.`;

export function addCompletion(ctx: Context, program: CommandUnknownOpts): void {
  // `checkin completion <shell>` prints the script; `checkin complete` (hidden) answers a Tab.
  program
    .command('completion')
    .description('Generate shell completion scripts')
    .addArgument(new Argument('<shell>', 'Shell type for completion script').choices(['zsh', 'bash', 'fish', 'powershell']))
    .addHelpText('after', INSTALL)
    .action((shell: string) => ctx.io.out(SCRIPTS[shell]!));
  const complete = program.command('complete', { hidden: true }).description('Generate completion suggestions').usage('-- [args...]').argument('[args...]');
  const completion = completionTree(program);

  /** What a Tab offers for `words` (the last one is the word being completed): offerable values, matching it. */
  const candidatesFor = (words: string[]): Candidate[] => {
    const { typed, found } = completionsFor(completion, words);
    const prefix = /^-[^=]*=/.test(typed) ? typed.slice(typed.indexOf('=') + 1) : typed;
    const seen = new Set<string>();
    return found
      .filter((c) => offerable(c.value) && c.value.startsWith(prefix) && !seen.has(c.value) && seen.add(c.value))
      .map((c) => ({ value: c.value, description: sanitizeLine(c.description ?? '') }));
  };
  complete
    .option('--shell <shell>', 'bash: the line up to the cursor and COMP_WORDBREAKS; powershell: the words in CHECKIN_COMPLETE_WORDS')
    .action((args: string[], opts: { shell?: string }) => {
      if (opts.shell === 'bash') {
        const replies = bashReplies(args[0] ?? '', args[1] ?? '', candidatesFor);
        ctx.io.out(replies.map((r) => `${r}\n`).join(''));
        return;
      }
      const words = opts.shell === 'powershell' ? (ctx.env.CHECKIN_COMPLETE_WORDS ?? '').split('\n') : args;
      // value<TAB>description a line, then the directive line scripts saved from earlier versions expect.
      ctx.io.out(
        candidatesFor(words)
          .map((c) => `${c.value}\t${c.description}\n`)
          .join('') + ':4\n',
      );
    });

  const days = (complete: Complete) => DAY_WORDS.forEach(([w, d]) => complete(w, d));
  const moods = (complete: Complete) => {
    complete('none', 'no mood');
    for (const m of MOOD_NAMES) complete(m, MOODS[m]);
  };
  const people = (complete: Complete) => {
    complete('me', 'you');
    for (const p of cached(ctx).directory?.people ?? []) if (p.username) complete(`@${p.username}`, p.name);
  };
  const teams = (complete: Complete) => {
    for (const name of cachedTeamNames(cached(ctx))) complete(name, 'team');
  };
  const goals = (complete: Complete) => {
    for (const g of cached(ctx).goals ?? []) complete(g.id, g.title);
  };

  const on = (path: string, option: string, handler: (complete: Complete) => void) => {
    const o = completion.commands.get(path)?.options.get(option);
    if (o) o.handler = handler;
  };
  const arg = (path: string, name: string, handler: (complete: Complete) => void) => {
    const a = completion.commands.get(path)?.arguments.get(name);
    if (a) a.handler = handler;
  };
  // Every option that names a person or a team, on whichever command takes it (a command added
  // later with --person or --team completes names without a line here).
  for (const c of completion.commands.values()) {
    for (const o of c.options.values()) {
      if (o.isBoolean) continue;
      if (['person', 'owner', 'contributor'].includes(o.value)) o.handler = people;
      else if (o.value === 'team') o.handler = teams;
    }
  }
  for (const path of ['today', 'checkin']) on(path, 'mood', moods);
  arg('checkin', 'key', (complete) => {
    days(complete);
    complete('last', 'my most recent check-in before today');
  });
  for (const path of ['comments', 'reactions']) arg(path, 'key', days);
  // Whose check-in, after its key (`checkin checkin today @grace`): read from the arguments rather
  // than declared (commands/checkin/checkin.ts), so it is added to the tree here.
  for (const path of ['checkin', 'comments', 'reactions'])
    completion.commands.get(path)?.arguments.set('person', { name: 'person', variadic: false, handler: people });
  for (const path of ['list', 'activity']) {
    on(path, 'since', days);
    on(path, 'until', days);
  }
  on('team', 'date', days);
  on('api', 'method', (complete) => ['GET', 'POST', 'PATCH', 'DELETE'].forEach((m) => complete(m, 'HTTP method')));
  on('remind install', 'days', (complete) =>
    [
      ['mon-fri', 'Monday to Friday'],
      ['daily', 'every day'],
      ['mon,wed,fri', 'Monday, Wednesday and Friday'],
    ].forEach(([v, d]) => complete(v!, d!)),
  );
  on('team', 'interval', (complete) => ['15', '30', '60', '300'].forEach((s) => complete(s, 'seconds between refreshes')));
  for (const path of ['goal update', 'goal update create', 'goal update list', 'goal updates', 'goal edit']) arg(path, 'goal-id', goals);
  for (const path of ['goal create', 'goal edit']) on(path, 'parent', goals);
  on('mcp', 'print-config', (complete) => ['claude', 'codex', 'vscode', 'cursor'].forEach((a) => complete(a, `setup for ${a}`)));
  // Profile names, from config.json: the program's --profile (after any command too) and `auth switch`'s.
  const profiles = (complete: Complete) => {
    const cfg = ctx.config();
    for (const name of cfg.profileNames()) complete(name, cfg.read(name).api_url ?? 'profile');
  };
  const profileOption = completion.options.get('profile');
  if (profileOption) profileOption.handler = profiles;
  arg('auth switch', 'name', profiles);
  for (const path of ['config get', 'config set', 'config unset'])
    arg(path, 'key', (complete) => PREFERENCE_KEYS.forEach((k) => complete(k, PREFERENCES[k].values?.join(', ') ?? 'setting')));
}
