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
  preferenceSources,
  setPreference,
  showPreference,
  unsetPreference,
  type PreferenceKey,
  type Preferences,
} from '../../config/prefs.js';
import { delimiter } from 'node:path';
import type { ProfileOrigin } from '../../config/profiles.js';
import { PROFILE_KEYS } from '../../config/store.js';
import { profilesMatter } from '../../domain/profiles.js';
import { UsageError } from '../../errors.js';
import { accessibleFor, colorLevelFor } from '../../ui/io.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import type { Context } from '../../context.js';
import { jsonOption, printJson, type JsonFlag } from '../../ui/output.js';
import { splitCommand } from '../../ui/pager.js';
import { getWebhook, setWebhook, unsetWebhook, WEBHOOK_HELP, WEBHOOK_KEY, webhookShown } from './webhook.js';

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
  showOrigin?: boolean;
}

/** The settings, one a line, for the help. */
function settingsHelp(): string {
  const width = Math.max(...PREFERENCE_KEYS.map((k) => k.length));
  const lines = PREFERENCE_KEYS.map(
    (k) => `  ${k.padEnd(width)}  ${PREFERENCES[k].values ? `${PREFERENCES[k].values!.join(' | ')}: ` : ''}${PREFERENCES[k].about}`,
  );
  lines.push(`  ${WEBHOOK_KEY.padEnd(width)}  ${WEBHOOK_HELP}`);
  return `\nSettings:\n${lines.join('\n')}\n\nExamples:\n  checkin config set editor "code --wait"\n  checkin config set pager ""\n  checkin config set team Platform\n  checkin config set git_repos ~/src/api:~/src/web\n  checkin config set accessible true\n  checkin config get color\n  checkin config list --json\n  checkin config list --show-origin\n  checkin config set webhook - < webhook-url.txt`;
}

export function configCommand(ctx: Context): CommandUnknownOpts {
  const get = new Command('get')
    .description('Print a setting (nothing when it is not set)')
    .argument('<key>', [...PREFERENCE_KEYS, WEBHOOK_KEY].join(', '))
    .option('--json', 'print the value as JSON (null when not set)')
    .action((key, opts) => runGet(ctx, { ...opts, key }));
  const set = new Command('set')
    .description('Change a setting')
    .argument('<key>', [...PREFERENCE_KEYS, WEBHOOK_KEY].join(', '))
    .argument('<value>', 'its new value')
    .action((key, value) => runSet(ctx, { key, value }));
  const list = new Command('list')
    .description('Print the settings that are set, one key=value a line')
    .addOption(jsonOption(PREFERENCE_KEYS, 'print every setting as JSON (null when not set)'))
    .option('--show-origin', "say where each value comes from (a folder's .checkin.json, the profile, config.json, the environment), the profile in use first")
    .action((opts) => runList(ctx, opts));
  const unset = new Command('unset')
    .description('Go back to the default for a setting')
    .argument('<key>', [...PREFERENCE_KEYS, WEBHOOK_KEY].join(', '))
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
  if (opts.key === WEBHOOK_KEY) return getWebhook(ctx, opts.json);
  const key = preferenceKey(opts.key);
  const value = preferences(ctx.config())[key];
  if (opts.json) return printJson(ctx.io, value ?? null);
  if (value === undefined) ctx.io.err(`${key} is not set\n`);
  else ctx.io.out(`${showPreference(value)}\n`);
}

export async function runSet(ctx: Context, opts: SetOptions): Promise<void> {
  if (opts.key === WEBHOOK_KEY) return setWebhook(ctx, opts.value);
  const key = preferenceKey(opts.key);
  const value = parsePreference(key, opts.value);
  // A pager is started without a shell: its words must split (see ui/pager.ts).
  if (key === 'pager' && typeof value === 'string') splitCommand(value);
  // A setting of a profile config.json does not hold yet makes it.
  ctx.config().acceptUnknownProfile();
  await setPreference(ctx.config(), key, value);
  sayWhose(ctx, key, 'set');
}

export async function runUnset(ctx: Context, name: string): Promise<void> {
  if (name === WEBHOOK_KEY) return unsetWebhook(ctx);
  const key = preferenceKey(name);
  await unsetPreference(ctx.config(), key);
  sayWhose(ctx, key, 'unset');
}

/** A setting of the account (team, git_repos…) is the profile's: which one is said when there are several, and a folder's file that still wins. */
function sayWhose(ctx: Context, key: PreferenceKey, done: 'set' | 'unset'): void {
  if (!PROFILE_KEYS.includes(key)) return;
  const cfg = ctx.config();
  if (profilesMatter(cfg)) ctx.io.err(`${key} is ${done} for the profile ${cfg.profile.name}.\n`);
  const dir = cfg.directory();
  if (dir && (dir as unknown as Record<string, unknown>)[key] !== undefined)
    ctx.io.err(`Note: ${sanitizeLine(dir.file)} sets ${key}, which wins in that folder and below.\n`);
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
  if (opts.showOrigin) {
    if (opts.json) throw new UsageError('--show-origin is for reading: without --json');
    return listOrigins(ctx);
  }
  if (opts.json) return printJson(ctx.io, Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, set[k] ?? null])), opts.json);
  const lines = PREFERENCE_KEYS.filter((k) => set[k] !== undefined).map((k) => `${k}=${showPreference(set[k]!)}\n`);
  const webhook = webhookShown(ctx);
  if (webhook) lines.push(`${WEBHOOK_KEY}=${webhook.shown}\n`);
  if (lines.length === 0) ctx.io.err('No settings are set (checkin config --help lists them).\n');
  ctx.io.out(lines.join(''));
}

/**
 * `config list --show-origin`, as git's: where each value in force comes from, a tab, key=value.
 * The profile in use first; an environment variable that wins now over the file's value is shown
 * in its place.
 */
function listOrigins(ctx: Context): void {
  const cfg = ctx.config();
  const p = cfg.profile;
  const rows: Array<[string, string, string]> = [[PROFILE_ORIGIN[p.origin](p.file ?? ''), 'profile', p.name]];
  const env = fromEnvironment(ctx.env);
  const sources = new Map(preferenceSources(cfg).map((s) => [s.key, s]));
  for (const key of PREFERENCE_KEYS) {
    const e = env[key];
    const s = sources.get(key);
    if (e) rows.push([`env:${e.name}`, key, showPreference(e.value)]);
    else if (s) rows.push([`file:${s.file}${s.origin === 'profile' ? ` (profile ${s.profile})` : ''}`, key, showPreference(s.value)]);
  }
  ctx.io.out(rows.map(([origin, key, value]) => `${sanitizeLine(origin)}\t${key}=${sanitizeLine(value)}\n`).join(''));
}

const PROFILE_ORIGIN: Record<ProfileOrigin, (file: string) => string> = {
  flag: () => '--profile',
  env: () => 'env:CHECKIN_PROFILE',
  directory: (file) => `file:${file}`,
  config: (file) => `file:${file}`,
  default: () => 'default',
};

/**
 * The environment variables that win over a setting now, with the value they give it: as each is
 * read where that thing is decided (config/prefs.ts lists where; colour and the accessible mode
 * are asked of ui/io.ts's own readers).
 */
function fromEnvironment(env: NodeJS.ProcessEnv): Partial<Record<PreferenceKey, { name: string; value: string | string[] }>> {
  const out: Partial<Record<PreferenceKey, { name: string; value: string | string[] }>> = {};
  const editor = env.CHECKIN_EDITOR?.trim();
  if (editor) out.editor = { name: 'CHECKIN_EDITOR', value: editor };
  if (env.CHECKIN_PAGER !== undefined) out.pager = { name: 'CHECKIN_PAGER', value: env.CHECKIN_PAGER };
  if (env.CHECKIN_GIT_REPOS !== undefined)
    out.git_repos = { name: 'CHECKIN_GIT_REPOS', value: env.CHECKIN_GIT_REPOS.split(delimiter).filter((d) => d.trim() !== '') };
  const color = 'NO_COLOR' in env && env.NO_COLOR !== '' ? 'NO_COLOR' : env.FORCE_COLOR !== undefined ? 'FORCE_COLOR' : undefined;
  if (color) out.color = { name: color, value: colorLevelFor(env, false) === 0 ? 'never' : 'always' };
  if (env.CHECKIN_NO_PROMPT) out.prompt = { name: 'CHECKIN_NO_PROMPT', value: 'disabled' };
  if (env.CHECKIN_ACCESSIBLE?.trim()) out.accessible = { name: 'CHECKIN_ACCESSIBLE', value: String(accessibleFor(env, undefined)) };
  return out;
}
