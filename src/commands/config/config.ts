// `checkin config get|set|list|unset`: the preferences (config/prefs.ts) — editor, pager, team,
// git_repos, color, prompt, accessible. Kept in config.json (mode 0600); the token is not one of them and is
// never shown here (`checkin auth token` prints it).
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import {
  PREFERENCE_KEYS,
  PREFERENCES,
  parsePreference,
  preferenceKey,
  preferences,
  setPreference,
  showPreference,
  unsetPreference,
  type Preferences,
} from '../../config/prefs.js';
import type { Context } from '../../context.js';
import { jsonOption, printJson, type JsonFlag } from '../../ui/output.js';
import { splitCommand } from '../../ui/pager.js';

export interface GetOptions {
  key: string;
  json?: boolean;
}
export interface SetOptions {
  key: string;
  value: string;
}
export interface ListOptions {
  json?: JsonFlag;
}

/** The settings, one a line, for the help. */
function settingsHelp(): string {
  const width = Math.max(...PREFERENCE_KEYS.map((k) => k.length));
  const lines = PREFERENCE_KEYS.map(
    (k) => `  ${k.padEnd(width)}  ${PREFERENCES[k].values ? `${PREFERENCES[k].values!.join(' | ')}: ` : ''}${PREFERENCES[k].about}`,
  );
  return `\nSettings:\n${lines.join('\n')}\n\nExamples:\n  checkin config set editor "code --wait"\n  checkin config set pager ""\n  checkin config set team Platform\n  checkin config set git_repos ~/src/api:~/src/web\n  checkin config set accessible true\n  checkin config get color\n  checkin config list --json`;
}

export function configCommand(ctx: Context): CommandUnknownOpts {
  const get = new Command('get')
    .description('Print a setting (nothing when it is not set)')
    .argument('<key>', PREFERENCE_KEYS.join(', '))
    .option('--json', 'print the value as JSON (null when not set)')
    .action((key, opts) => runGet(ctx, { ...opts, key }));
  const set = new Command('set')
    .description('Change a setting')
    .argument('<key>', PREFERENCE_KEYS.join(', '))
    .argument('<value>', 'its new value')
    .action((key, value) => runSet(ctx, { key, value }));
  const list = new Command('list')
    .description('Print the settings that are set, one key=value a line')
    .addOption(jsonOption(PREFERENCE_KEYS, 'print every setting as JSON (null when not set)'))
    .action((opts) => runList(ctx, opts));
  const unset = new Command('unset')
    .description('Go back to the default for a setting')
    .argument('<key>', PREFERENCE_KEYS.join(', '))
    .action((key) => runUnset(ctx, key));
  return new Command('config')
    .description('Your preferences: editor, pager, default team, git repositories, colour, prompts, accessible mode')
    .addCommand(get)
    .addCommand(set)
    .addCommand(list)
    .addCommand(unset)
    .addHelpText('after', settingsHelp());
}

export async function runGet(ctx: Context, opts: GetOptions): Promise<void> {
  const key = preferenceKey(opts.key);
  const value = preferences(ctx.config())[key];
  if (opts.json) return printJson(ctx.io, value ?? null);
  if (value === undefined) ctx.io.err(`${key} is not set\n`);
  else ctx.io.out(`${showPreference(value)}\n`);
}

export async function runSet(ctx: Context, opts: SetOptions): Promise<void> {
  const key = preferenceKey(opts.key);
  const value = parsePreference(key, opts.value);
  // A pager is started without a shell: its words must split (see ui/pager.ts).
  if (key === 'pager' && typeof value === 'string') splitCommand(value);
  await setPreference(ctx.config(), key, value);
}

export async function runUnset(ctx: Context, name: string): Promise<void> {
  await unsetPreference(ctx.config(), preferenceKey(name));
}

export async function runList(ctx: Context, opts: ListOptions): Promise<void> {
  const cfg = ctx.config();
  const stored = cfg.read() as Record<string, unknown>;
  const set: Preferences = preferences(cfg);
  // A value edited into the file by hand that the setting does not take is not used: say so.
  for (const key of PREFERENCE_KEYS) {
    if (stored[key] !== undefined && set[key] === undefined)
      ctx.io.err(`warning: ${key} in ${cfg.file} is not a value it takes, so it is not used; checkin config set ${key} … replaces it\n`);
  }
  if (opts.json) return printJson(ctx.io, Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, set[k] ?? null])), opts.json);
  const lines = PREFERENCE_KEYS.filter((k) => set[k] !== undefined).map((k) => `${k}=${showPreference(set[k]!)}\n`);
  if (lines.length === 0) ctx.io.err('No settings are set (checkin config --help lists them).\n');
  ctx.io.out(lines.join(''));
}
