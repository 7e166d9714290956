// What a scheduled run of checkin needs, shared by `checkin cron` (which prints a crontab line)
// and `checkin remind` (which installs a timer, an agent, a task or that line): the time and days
// asked for, the CLI's own absolute paths, and the environment that finds its config and service
// (a scheduler starts commands with an almost empty one).
import { realpathSync } from 'node:fs';
import { buildKind } from '../config/installation.js';
import { pathVariables } from '../config/paths.js';
import { DEFAULT_PROFILE } from '../config/profiles.js';
import { keychainAccount, type ConfigStore } from '../config/store.js';
import { foreignServiceError, type Context } from '../context.js';
import { UsageError } from '../errors.js';

export interface TimeOfDay {
  hour: number;
  minute: number;
}

/** "10:00", "9:30" → {hour, minute}; anything else is a usage error naming --at. */
export function parseAt(at: string): TimeOfDay {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(at);
  if (!m) throw new UsageError(`--at must be a time written HH:MM, got "${at}"`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** "09:30": the time as status and messages show it. */
export function formatAt(t: TimeOfDay): string {
  return `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
}

export const DAY_ABBR = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** Whether a cron day-of-week field is one `checkin cron` accepts (numbers, steps, or day names). */
export function isCronDays(days: string): boolean {
  return /^[\d,*/-]+$/.test(days) || /^(mon|tue|wed|thu|fri|sat|sun)([-,](mon|tue|wed|thu|fri|sat|sun))*$/i.test(days);
}

/**
 * The weekdays (0 = Sunday … 6 = Saturday, sorted) of a --days value: day names or cron's numbers
 * (0 and 7 are Sunday), single or as ranges, joined by commas ("mon-fri", "1-5", "mon,wed,fri",
 * "sat-mon"); "*" or "daily" is every day.
 */
export function parseDays(days: string): number[] {
  const bad = () => new UsageError(`--days must be days such as mon-fri, mon,wed,fri or 1-5, got "${days}"`);
  const text = days.trim().toLowerCase();
  if (text === '*' || text === 'daily') return [0, 1, 2, 3, 4, 5, 6];
  const one = (s: string): number => {
    const name = DAY_ABBR.indexOf(s as (typeof DAY_ABBR)[number]);
    if (name >= 0) return name;
    if (/^[0-7]$/.test(s)) return Number(s) % 7;
    throw bad();
  };
  const set = new Set<number>();
  for (const part of text.split(',')) {
    const range = part.split('-');
    if (range.length === 1) set.add(one(range[0]!));
    else if (range.length === 2) {
      const from = one(range[0]!);
      const to = range[1] === '7' ? 7 : one(range[1]!);
      // A range that wraps (sat-mon) goes on through Sunday.
      const end = to < from ? to + 7 : to;
      for (let d = from; d <= end; d++) set.add(d % 7);
    } else throw bad();
  }
  return [...set].sort((a, b) => a - b);
}

/** The days as people read them: "Mon–Fri", "Mon, Wed, Fri", "every day". */
export function formatDays(days: number[]): string {
  if (days.length === 7) return 'every day';
  const name = (d: number) => DAY_ABBR[d]![0]!.toUpperCase() + DAY_ABBR[d]!.slice(1);
  // One run of days (wrapping through the weekend: Sat–Mon) is written as a range, from its first day.
  const first = days.find((d) => !days.includes((d + 6) % 7));
  const run = first !== undefined && days.every((_, i) => days.includes((first + i) % 7));
  if (run && days.length > 2) return `${name(first)}–${name((first + days.length - 1) % 7)}`;
  // Monday first, as a working week reads.
  return [...days]
    .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
    .map(name)
    .join(', ');
}

/**
 * The CLI as a scheduler runs it: this Node and the script it runs, as absolute real paths; the
 * single executable alone (no script) when that is what runs.
 */
export function cliPaths(): { node: string; script?: string } {
  if (buildKind() === 'binary') return { node: process.execPath };
  const script = process.argv[1] ?? 'checkin';
  let real = script;
  try {
    real = realpathSync(script);
  } catch {
    // keep the path as given
  }
  return { node: process.execPath, script: real };
}

/**
 * What a scheduled run needs in its environment to find the same config and service as this
 * one: the config folder, HOME, the API URL when it comes from the environment, the profile when
 * this run's is not the one a run finds by itself, and the zone.
 */
export function runEnvironment(ctx: Context): Record<string, string> {
  const cfg = ctx.config();
  // The folders of config, cache and state as this shell names them (each value quoted where it is written).
  const env: Record<string, string> = pathVariables(ctx.env);
  if (ctx.env.HOME) env.HOME = ctx.env.HOME;
  const url = cfg.apiUrl();
  // A scheduled run would be refused each time: the stored token goes only to its own service.
  const foreign = cfg.foreignService();
  if (foreign) throw foreignServiceError(cfg, foreign);
  if (url.name === 'CHECKIN_API_URL') env.CHECKIN_API_URL = url.value;
  const profile = carriedProfile(cfg);
  if (profile !== undefined) env.CHECKIN_PROFILE = profile;
  if (ctx.env.TZ) env.TZ = ctx.env.TZ;
  return env;
}

/** The variables a scheduled run may be handed on its command line (`--env NAME=VALUE`): those runEnvironment() carries, and PATH. */
export const RUN_VARIABLES: ReadonlySet<string> = new Set([
  'CHECKIN_CONFIG_DIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'HOME',
  'CHECKIN_API_URL',
  'CHECKIN_PROFILE',
  'TZ',
  'PATH',
]);

/**
 * The environment as a run's words, `--env NAME=VALUE` each: what a Task Scheduler task (which has
 * no environment of its own) hands `remind run` and `notify`, who take it back with takeRunEnvironment().
 */
export const runEnvArgs = (env: Record<string, string>): string[] => Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);

/** Sets in `env` each `NAME=VALUE` of `--env` (before anything reads it); a name not in RUN_VARIABLES is refused. */
export function takeRunEnvironment(env: NodeJS.ProcessEnv, pairs: string[] | undefined): void {
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    if (eq < 1 || !RUN_VARIABLES.has(name)) throw new UsageError(`--env takes NAME=VALUE with NAME one of ${[...RUN_VARIABLES].join(', ')}, got "${pair}"`);
    env[name] = pair.slice(eq + 1);
  }
}

/**
 * The profile a scheduled run must be told: the one this run uses when a flag, CHECKIN_PROFILE or
 * the folder's .checkin.json named it (a scheduled run has none of them: it starts in the home
 * folder) and it is not the default a run finds by itself. A person with one profile gets none.
 */
export function carriedProfile(cfg: ConfigStore): string | undefined {
  const { name, origin } = cfg.profile;
  if (origin === 'config' || origin === 'default') return undefined;
  return name === (cfg.readFile().profile ?? DEFAULT_PROFILE) ? undefined : name;
}

/** Where a scheduled run (the reminder, the notices, a cron line) finds the token, and whether it can read it there. */
export interface ScheduledToken {
  /** The settings file; the keychain; only this shell's environment (the variable's name: a scheduled run has none of it); or nowhere. */
  where: 'file' | 'keychain' | 'CHECKIN_TOKEN' | 'STEADY_TOKEN' | 'nowhere';
  /** Whether a scheduled run reads it there: the keychain only where the scheduler's session can open it ('maybe' until it was asked from a scheduled run's environment). */
  readable: 'yes' | 'maybe' | 'no';
  /** Why it may not, said after "the token" ("is in the keychain, which cron often cannot open"); undefined when it reads it. */
  why?: string;
}

/**
 * The one answer, for an install's warning (`tokenWarning`) and doctor's checks of the reminder and
 * the notices (domain/scheduled-run.ts) alike: where the token a scheduled run uses is (a token in the
 * settings file is used there, whatever this shell has) and whether that run can read it. `runner`
 * names what runs it ("cron"); `keychainOpens`: whether the keychain gave the token to a child with a
 * scheduled run's environment (doctor asks it: system/probes.ts), unknown at an install.
 */
export function scheduledToken(ctx: Pick<Context, 'config'>, runner: string, keychainOpens?: boolean): ScheduledToken {
  const cfg = ctx.config();
  const stored = cfg.read();
  if (stored.token) return { where: 'file', readable: 'yes' };
  if (keychainAccount(stored)) {
    if (keychainOpens === true) return { where: 'keychain', readable: 'yes' };
    if (keychainOpens === false)
      return { where: 'keychain', readable: 'no', why: `is in the keychain, which did not give it to a scheduled run's environment` };
    return { where: 'keychain', readable: 'maybe', why: `is in the keychain, which ${runner} often cannot open` };
  }
  // Neither stored: only this shell's variable, if any (the keychain is not asked: none is named).
  const name = cfg.token()?.name;
  if (name === 'CHECKIN_TOKEN' || name === 'STEADY_TOKEN') return { where: name, readable: 'no', why: `comes from ${name}, which ${runner} does not have` };
  return { where: 'nowhere', readable: 'no', why: `is not stored, so ${runner} has none to use` };
}

/** What makes the token one a scheduled run reads (after "run"), `login` being the face's words for a login that keeps it in the settings file. */
export const storedForScheduled = (login: string): string => `\`${login}\` so that the token is kept in the settings file, which a scheduled run can read`;

/** One comment line when a scheduled run started by `scheduler` may not read the token (`scheduledToken`); else undefined. */
export function tokenWarning(ctx: Pick<Context, 'config' | 'advice'>, scheduler = 'cron'): string | undefined {
  const { why } = scheduledToken(ctx, scheduler);
  if (why === undefined) return undefined;
  return `# Your token ${why}: run ${storedForScheduled(ctx.advice?.login('insecure-storage') ?? 'checkin login --insecure-storage')}.\n`;
}

/**
 * Refuses a value a scheduler cannot carry: a line break ends a crontab line (what follows would
 * be an entry of its own, run as the user), and no unit file, plist or task takes one safely
 * either. `what` names where the value came from; the value is shown escaped.
 */
export function noControls(what: string, value: string): void {
  if (!/[\x00-\x1f\x7f-\x9f]/.test(value)) return;
  const shown = JSON.stringify(value).replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  throw new UsageError(
    `${what} holds a line break or another control character, which a scheduler cannot carry: ${shown}`,
    'Take the control character out of it and run the command again.',
  );
}

/** Every variable and path a scheduled run is given, each refused by name when it holds a control character. */
export function schedulable(env: Record<string, string>, node: string, script: string | undefined): void {
  for (const [name, value] of Object.entries(env)) noControls(name, value);
  noControls(script === undefined ? "checkin's path" : "Node's path", node);
  if (script !== undefined) noControls("checkin's script path", script);
}

/** The program and the words before a command's own: node and the script, or the single executable alone. */
export const program = (node: string, script: string | undefined): string[] => (script === undefined ? [node] : [node, script]);

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** In a crontab line, % ends the command (the rest becomes its stdin): every % is written \%. */
export function cronEscape(command: string): string {
  return command.replace(/%/g, '\\%');
}

/** `VAR=value … node script args…` for sh, every word quoted as it needs. */
export function shellCommand(env: Record<string, string>, argv: string[]): string {
  // A line break would end the crontab line the command goes on: refused here too, whoever calls.
  for (const [name, value] of Object.entries(env)) noControls(name, value);
  for (const word of argv) noControls('A word of the command', word);
  const vars = Object.entries(env)
    .map(([k, v]) => `${k}=${shellQuote(v)} `)
    .join('');
  return vars + argv.map(shellQuote).join(' ');
}

/** The five time fields of a crontab line (before its command). */
export function cronTime(at: TimeOfDay, days: string): string {
  return `${at.minute} ${at.hour} * * ${days}`;
}
