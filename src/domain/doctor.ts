// `checkin doctor`'s checks: what can silently stop checkin from working, each found as ok, a
// warning or a problem, with the fix in words (what to run in the face's: DoctorInput `words`).
// Read-only: nothing is written (not even the cache), and at most one request goes out (GET /me,
// which says whether the token is accepted, whether the service speaks API v2, and — in its
// RateLimit headers — how much of the rate budget is left).
// Every child process and the request has a time limit. No value is secret in what comes back: the
// token is never in it (only its prefix), paths under the home folder are written with ~, an API
// URL loses any user name, password and query, and no e-mail address or registration's
// environment is ever read into a message.
import { statSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { ApiClient, checkTransport } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { hintText } from '../errors.js';
import { parseRateLimit, parseRateLimitPolicy } from '../api/paginate.js';
import type { Headers } from '../api/transport.js';
import { PERSON } from '../api/types.js';
import { expectShape } from '../api/validate.js';
import { fsReason, privateFileWords } from '../config/files.js';
import { buildKind } from '../config/installation.js';
import { home } from '../config/paths.js';
import { keychainAccount } from '../config/store.js';
import { profileOrigin } from '../config/profiles.js';
import type { AdviceWords, Context } from '../context.js';
import { cachedMe } from './account.js';
import { USER_AGENT, VERSION } from '../version.js';
import { waitingDrafts } from './drafts-waiting.js';
import { hooksCheck } from './doctor-hooks.js';
import { notifierCheck } from './doctor-notify.js';
import {
  modeOf,
  probeKeychain,
  readdirOrEmpty,
  readRegistrations,
  scheduledEnvironment,
  statOrUndefined,
  writable,
  type ProbeResult,
} from '../system/probes.js';
import { findProgram, type Host } from '../system/programs.js';
import { installedReminders, lastReminderRun, MECHANISM_NAME, notifierName, type Installed } from '../system/reminder.js';
import { carriedProfile, formatAt, formatDays, scheduledToken, type TimeOfDay } from '../system/schedule.js';
import { notifyUnit } from './doctor-notify-unit.js';
import { scheduledRunToken } from './scheduled-run.js';
import { agentName, olderThan, skillPlaces, type SkillPlace } from '../system/skill.js';
import { webhookCheck } from './doctor-webhook.js';

export type CheckStatus = 'ok' | 'warning' | 'problem';

/** The checks, by their stable ids (what `--json` and scripts key on), in the order they are shown. */
export const CHECK_IDS = [
  'token',
  'service',
  'keychain',
  'config-folder',
  'state-folder',
  'cache-folder',
  'time-zone',
  'reminder',
  'notifier',
  'notify-unit',
  'mcp',
  'skill',
  'hooks',
  'node',
  'outbox',
  'webhook',
] as const;
/** `profile` is shown first, and only where the profile in use is worth naming (config/profiles.ts profileToName): a person with one profile sees the checks they saw before profiles. */
export type CheckId = (typeof CHECK_IDS)[number] | 'profile';

export interface Check {
  id: CheckId;
  status: CheckStatus;
  /** What was found, in one line. */
  message: string;
  /** What to do about it, in words (null when nothing needs doing). */
  fix: string | null;
}

export interface DoctorInput {
  /** The machine: programs found on PATH and run with a time limit (the reminder's schedulers, notifier). */
  host: Host;
  /** The folder it runs in (an agent's project files: .mcp.json, .vscode/mcp.json; a project's skill). */
  cwd: string;
  /** How long the one request, and each child, may take (ms). */
  timeoutMs?: number;
  /** What to run, in the face's words (the fixes name commands: the CLI's `CLI_ADVICE`). */
  words: AdviceWords;
  /** Show a test notice through the notifier (`checkin doctor --notify-test`). */
  notifyTest?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;

const ok = (id: CheckId, message: string): Check => ({ id, status: 'ok', message, fix: null });
const warning = (id: CheckId, message: string, fix: string | null): Check => ({ id, status: 'warning', message, fix });
const problem = (id: CheckId, message: string, fix: string | null): Check => ({ id, status: 'problem', message, fix });

/** Every check, in CHECK_IDS's order. */
export async function diagnose(ctx: Context, input: DoctorInput): Promise<Check[]> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tilde = tildeOf(ctx.env);
  // The keychain first, in children with a time limit: the token is read from it in this process
  // only once a child has read it there (a keychain that hangs would hold this one without limit).
  const w = input.words;
  const { check: keychainCheck, opensScheduled } = await keychain(ctx, timeoutMs, w);
  const service = await tokenAndService(ctx, timeoutMs, tilde, keychainCheck.status !== 'problem', w);
  const checks: Check[] = [
    ...profileCheck(ctx, w),
    service.token,
    service.service,
    keychainCheck,
    ...folders(ctx, tilde),
    await timeZone(ctx, service.zone),
    await reminder(ctx, input.host, tilde, w, opensScheduled),
    { id: 'notifier', ...(await notifierCheck(input.host, input.notifyTest)) },
    await notifyUnit(ctx, input.host, w, opensScheduled),
    mcp(ctx, input.cwd, tilde, w),
    skill(ctx, input.cwd, tilde, w),
    hooksCheck(ctx, input.cwd, tilde, w),
    node(tilde),
    outbox(ctx, w),
    await webhookCheck(ctx, timeoutMs, w),
  ];
  return checks;
}

/** The profile in use and where it was chosen, when it is worth naming; a warning when config.json holds no such profile (and no variable gives a token). */
function profileCheck(ctx: Context, w: AdviceWords): Check[] {
  const cfg = ctx.config();
  const name = cfg.profileToName();
  if (name === undefined) return [];
  const known = cfg.profileNames();
  const from = `${name} (from ${profileOrigin(cfg.profile)}); config.json holds ${known.length === 0 ? 'none' : known.join(', ')}`;
  if (known.includes(name) || ctx.env.CHECKIN_TOKEN || ctx.env.STEADY_TOKEN) return [{ id: 'profile', status: 'ok', message: from, fix: null }];
  return [{ id: 'profile', status: 'warning', message: `${from}: no profile ${name} yet`, fix: `Run \`${w.asProfile(w.login(), name)}\` to make it.` }];
}

/** Whether any check found a problem (what the exit code says). */
export const anyProblem = (checks: readonly Check[]) => checks.some((c) => c.status === 'problem');

// ---- redaction ----------------------------------------------------------------------------------

/** Paths under the home folder written from ~ (a user name in a path says who, and no more is needed). */
function tildeOf(env: NodeJS.ProcessEnv): (path: string) => string {
  const h = home(env).replace(/\/+$/, '');
  return (path) => (h && (path === h || path.startsWith(`${h}/`)) ? `~${path.slice(h.length)}` : path);
}

/** A token as gh shows one: its kind's prefix (steady_pat_), never a character of the secret. */
export function redactToken(token: string): string {
  // Only a kind's prefix (steady_pat_), which says what the token is and nothing of it; any other start may be secret.
  const prefix = /^[a-z]{1,12}_pat_/.exec(token)?.[0];
  return `${prefix && prefix.length < token.length ? prefix : ''}****`;
}

/** An API URL without a user name, password, query or fragment. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`.replace(/\/+$/, '');
  } catch {
    return '(not a valid URL)';
  }
}

// ---- the token and the service (the one request) ---------------------------------------------------

interface ServiceChecks {
  token: Check;
  service: Check;
  /** The profile's time zone, from the answer (or the cached profile when there was none). */
  zone?: string | undefined;
}

async function tokenAndService(
  ctx: Context,
  timeoutMs: number,
  tilde: (p: string) => string,
  keychainAnswers: boolean,
  w: AdviceWords,
): Promise<ServiceChecks> {
  const cfg = ctx.config();
  const url = cfg.apiUrl().value;
  const shownUrl = redactUrl(url);
  let token;
  try {
    // A profile's stored token goes only to its own service: not asked with it elsewhere.
    const foreign = cfg.foreignService();
    if (foreign) {
      return {
        token: problem(
          'token',
          `the profile ${foreign.profile}'s token is for ${redactUrl(foreign.own)}, and CHECKIN_API_URL names another service: it is not sent there`,
          `Unset CHECKIN_API_URL to use the profile; for ${shownUrl}, \`${w.asProfile(`${w.login('api-url')} ${shownUrl}`, '<name>')}\`, or set CHECKIN_TOKEN beside CHECKIN_API_URL.`,
        ),
        service: warning('service', `${shownUrl} not asked: the stored token is not sent there`, null),
      };
    }
    const stored = cfg.read();
    if (!ctx.env.CHECKIN_TOKEN && !ctx.env.STEADY_TOKEN && !stored.token && stored.token_store === 'keychain' && !keychainAnswers) {
      return {
        token: problem('token', 'kept in the keychain, which cannot give it (see keychain)', `Run \`${w.login()}\` again, or set CHECKIN_TOKEN.`),
        service: warning('service', `${shownUrl} not asked: there is no token to ask with`, null),
      };
    }
    token = cfg.token();
  } catch (err) {
    return {
      token: problem('token', `cannot be read: ${fsReason(err)}`, `Run \`${w.login()}\` again, or set CHECKIN_TOKEN.`),
      service: warning('service', `${shownUrl} not asked: there is no token to ask with`, null),
    };
  }
  if (!token) {
    return {
      token: problem('token', 'none: not logged in', `Run \`${w.login()}\` (or set CHECKIN_TOKEN; STEADY_TOKEN is read too).`),
      service: warning('service', `${shownUrl} not asked: there is no token to ask with`, `Log in first; then \`${w.doctor()}\` asks the service.`),
    };
  }
  const from = token.name ?? (token.where === 'keychain' ? 'the keychain' : tilde(cfg.file));
  const shown = `${redactToken(token.value)} (from ${from})`;
  const cachedZone = () => {
    try {
      return cachedMe(ctx, token.value)?.time_zone ?? undefined;
    } catch {
      return undefined;
    }
  };
  if (token.value === '' || !/^[\t\x20-\x7e\x80-\xff]*$/.test(token.value)) {
    return {
      token: problem(
        'token',
        `${shown} cannot be sent: it is empty or holds a character HTTP headers cannot carry`,
        `Copy the token again, exactly as the service shows it, and run \`${w.login()}\`.`,
      ),
      service: warning('service', `${shownUrl} not asked: the token cannot be sent`, null),
    };
  }
  try {
    checkTransport(url);
  } catch (err) {
    return {
      token: warning('token', `${shown} not checked: the API URL is refused`, null),
      service: problem('service', (err as Error).message, `Set CHECKIN_API_URL (or \`${w.login('api-url')}\`) to an https:// URL ending in /api/v2.`),
    };
  }
  // One try, no retries: doctor sends one request and says what came back.
  const client = new ApiClient({
    baseUrl: url,
    token: token.value,
    env: ctx.env,
    userAgent: USER_AGENT,
    maxTries: 1,
    timeoutMs,
    maxRetryAfterS: 0,
    sleep: async () => undefined,
    now: () => ctx.now().getTime(),
  });
  const started = Date.now();
  let answer: Awaited<ReturnType<ApiClient['raw']>>;
  try {
    answer = await client.raw({ method: 'GET', url: client.urlFor('me') });
  } catch (err) {
    const why =
      err instanceof ApiError
        ? err.kind === 'timeout'
          ? `no answer within ${timeoutMs / 1000} s`
          : err.message.replace(/^GET \S+: /, '') || err.kind
        : fsReason(err);
    return {
      token: warning('token', `${shown} not checked: the service could not be reached`, null),
      service: problem(
        'service',
        `${shownUrl} cannot be reached: ${why}`,
        // Nothing listening on this machine: the client's own advice (start the sandbox) is the fix.
        err instanceof ApiError && why.startsWith('nothing is listening at') && err.suggestion
          ? hintText(err.suggestion)
          : `Check the network (and HTTPS_PROXY / NO_PROXY), and that CHECKIN_API_URL names the service; \`${w.traced()}\` shows the exchange.`,
      ),
      zone: cachedZone(),
    };
  } finally {
    await client.close();
  }
  const ms = Date.now() - started;
  const budget = rateBudget(answer.headers);
  const { status } = answer;
  if (status === 401 || status === 403) {
    const said = status === 401 ? 'rejected (401: missing, wrong, expired or revoked)' : 'refused (403)';
    return {
      token: problem('token', `${shown} ${said}`, `Make a new token (Steady: My integrations) and run \`${w.login()}\`.`),
      service:
        budget.status === 'ok'
          ? ok('service', `${shownUrl} reachable (answered in ${ms} ms); ${budget.text}`)
          : { ...budget.check, message: `${shownUrl} reachable (answered in ${ms} ms); ${budget.text}` },
      zone: cachedZone(),
    };
  }
  if (answer.error) {
    const fix =
      status === 404
        ? 'Set CHECKIN_API_URL to the API v2 base, e.g. https://service.steady.space/api/v2.'
        : status >= 500 || status === 429
          ? 'Try again later; the service is failing or busy.'
          : null;
    return {
      token: warning('token', `${shown} not checked: the service answered ${status}`, null),
      service: problem('service', `${shownUrl}: GET /me answered ${status}${status === 404 ? ': no API v2 there' : ''}; ${budget.text}`, fix),
      zone: cachedZone(),
    };
  }
  let person;
  try {
    person = expectShape(JSON.parse(answer.text) as unknown, PERSON, 'GET', 'me', 'the answer');
  } catch (err) {
    return {
      token: warning('token', `${shown} not checked: the answer was not a person`, null),
      service: problem(
        'service',
        `${shownUrl} answered GET /me, but not as API v2 does (${(err as Error).message.split('\n')[0]})`,
        'Set CHECKIN_API_URL to the API v2 base, e.g. https://service.steady.space/api/v2.',
      ),
    };
  }
  const who = person.username ? `@${person.username}` : person.name ? person.name : 'its person';
  const tokenCheck = ok('token', `${shown} accepted for ${who} (its scope, Read or Read + write, the service does not show)`);
  const serviceMessage = `${shownUrl} speaks API v2 (GET /me in ${ms} ms); ${budget.text}`;
  return {
    token: tokenCheck,
    service: budget.status === 'ok' ? ok('service', serviceMessage) : { ...budget.check, message: serviceMessage },
    zone: person.time_zone ?? undefined,
  };
}

/** What the RateLimit headers say is left of each window. */
function rateBudget(headers: Headers): { status: 'ok' | 'warning'; text: string; check: Check } {
  const windows = parseRateLimit(headers['ratelimit']);
  const policy = parseRateLimitPolicy(headers['ratelimit-policy']);
  if (windows.length === 0) {
    const text = 'no RateLimit headers came with it, so checkin cannot pace itself';
    return {
      status: 'warning',
      text,
      check: warning('service', text, 'If a proxy stands between you and the service, have it pass the RateLimit and RateLimit-Policy headers on.'),
    };
  }
  const parts = windows.map((w) => {
    const quota = policy.get(w.name)?.quota;
    return {
      text: `${w.name} ${w.remaining}${quota !== undefined ? `/${quota}` : ''} left`,
      low: quota !== undefined ? w.remaining < quota * 0.1 : w.remaining === 0,
      reset: w.reset,
      name: w.name,
    };
  });
  const text = `rate budget: ${parts.map((p) => p.text).join(', ')}`;
  const low = parts.find((p) => p.low);
  if (low)
    return {
      status: 'warning',
      text,
      check: warning(
        'service',
        text,
        `Almost all of the ${low.name} window is spent (something is sending many requests: a watch, a script?); it resets in ${low.reset} s.`,
      ),
    };
  return { status: 'ok', text, check: ok('service', text) };
}

// ---- the keychain ------------------------------------------------------------------------------

/**
 * The keychain check, and (when the token is kept there and both look-ups were made) whether it gave
 * the token to a scheduled run's environment: what the reminder's and the notices' checks then say.
 */
async function keychain(ctx: Context, timeoutMs: number, w: AdviceWords): Promise<{ check: Check; opensScheduled?: boolean }> {
  const cfg = ctx.config();
  let stored;
  try {
    stored = cfg.read();
  } catch (err) {
    return only(warning('keychain', `not checked: the settings cannot be read (${fsReason(err)})`, null));
  }
  // Where a scheduled run finds the token (system/schedule.ts, as the reminder's check and an install say): the keychain is looked into only when it is there.
  const at = scheduledToken(ctx, 'a scheduled run').where;
  if (at === 'file') {
    const before = cfg.token()?.name; // a variable of this shell's, used here before the file (the keychain is not asked)
    return only(
      ok(
        'keychain',
        `not used: the token is kept in the settings file (${privateFileWords()}), which a scheduled run reads too${before ? ` (${before} is used before it here)` : ''}`,
      ),
    );
  }
  if (at === 'nowhere') return only(ok('keychain', 'not used: no token is stored'));
  if (at !== 'keychain') return only(ok('keychain', `not used: the token comes from ${at} (a scheduled run does not have it: see the reminder)`));
  const store = cfg.secrets();
  if (typeof store === 'string')
    return only(
      problem(
        'keychain',
        `your token is kept in the keychain, but ${store}`,
        `Run \`${w.login('insecure-storage')}\` to keep it in the settings file (${privateFileWords()}) instead.`,
      ),
    );
  let modulePath: string;
  try {
    // The single binary carries the module (config/installation.ts) and is its own probe.
    modulePath =
      buildKind() === 'binary'
        ? 'binary'
        : process
            .getBuiltinModule('node:module')
            .createRequire(import.meta.url)
            .resolve('@napi-rs/keyring');
  } catch {
    return only(
      problem(
        'keychain',
        'your token is kept in the keychain, but the keychain module is not installed',
        `Reinstall checkin, or run \`${w.login('insecure-storage')}\`.`,
      ),
    );
  }
  const account = keychainAccount(stored)!;
  const url = cfg.apiUrl();
  const [here, scheduled] = await Promise.all([
    probeKeychain(modulePath, account, ctx.env, timeoutMs),
    probeKeychain(modulePath, account, scheduledEnvironment(ctx.env, url.name === 'CHECKIN_API_URL' ? url.value : undefined, carriedProfile(cfg)), timeoutMs),
  ]);
  return { check: keychainVerdict(store.name, here, scheduled, w), opensScheduled: 'found' in scheduled && scheduled.found };
}

/** The keychain check alone (the token is not kept there, or it could not be asked). */
const only = (check: Check): { check: Check } => ({ check });

/** What the two look-ups (this session's, a scheduled run's) say together. */
export function keychainVerdict(name: string, here: ProbeResult, scheduled: ProbeResult, w: AdviceWords): Check {
  const said = (r: ProbeResult) => ('error' in r ? `cannot be opened (${r.error})` : r.found ? 'holds the token' : 'has no token for this service');
  if (!('found' in here && here.found))
    return problem(
      'keychain',
      `${name} ${said(here)} from this session`,
      `Run \`${w.login()}\` again (or \`${w.login('insecure-storage')}\` to keep the token in the settings file).`,
    );
  if (!('found' in scheduled && scheduled.found)) {
    return warning(
      'keychain',
      `${name} holds the token from this session, but ${said(scheduled)} from a scheduled run's environment`,
      `For the reminder, run \`${w.login('insecure-storage')}\`: the token is then kept in the settings file (${privateFileWords()}), which a scheduled run can read.`,
    );
  }
  return ok('keychain', `${name} holds the token, from this session and from a scheduled run's environment`);
}

// ---- the folders ---------------------------------------------------------------------------------

const PRIVATE_FILES = ['config.json', 'cache.json', 'state.json', 'remind-last-run.json'];

function folders(ctx: Context, tilde: (p: string) => string): Check[] {
  const { paths } = ctx.config();
  return (
    [
      ['config-folder', 'settings', paths.config],
      ['state-folder', 'drafts and state', paths.state],
      ['cache-folder', 'cache', paths.cache],
    ] as const
  ).map(([id, what, dir]) => folderCheck(id, what, dir, tilde));
}

export function folderCheck(id: CheckId, what: string, dir: string, tilde: (p: string) => string): Check {
  const shown = tilde(dir);
  const uid = process.getuid?.();
  let st: Stats | undefined;
  try {
    st = statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      return problem(id, `${shown} (${what}) cannot be looked at: ${fsReason(err)}`, `Check the folders above ${shown}.`);
  }
  if (!st) {
    // Not made yet: whether it can be, from the nearest thing that is there.
    let up = dirname(dir);
    for (let i = 0; i < 64; i++) {
      const there = statOrUndefined(up);
      if (there) {
        if (!there.isDirectory())
          return problem(
            id,
            `${shown} (${what}) cannot be made: ${tilde(up)} is a file, not a folder`,
            `Move ${tilde(up)} away (or set CHECKIN_CONFIG_DIR to another folder).`,
          );
        if (!writable(up))
          return problem(
            id,
            `${shown} (${what}) cannot be made: ${tilde(up)} is not writable`,
            `Make ${tilde(up)} writable, or set CHECKIN_CONFIG_DIR to a folder that is.`,
          );
        return ok(id, `${shown} (${what}) is not made yet; it will be (0700) when first needed`);
      }
      if (dirname(up) === up) break;
      up = dirname(up);
    }
    return problem(id, `${shown} (${what}) cannot be made: no folder above it is there`, 'Set HOME, or CHECKIN_CONFIG_DIR, to a folder that exists.');
  }
  if (!st.isDirectory())
    return problem(id, `${shown} (${what}) is a file, not a folder`, `Move it away (mv ${shown} ${shown}.old); checkin makes the folder again.`);
  if (uid !== undefined && st.uid !== uid)
    return problem(id, `${shown} (${what}) belongs to another user (uid ${st.uid})`, `Give it back to yourself: chown -R $(id -u) ${shown}.`);
  if (!writable(dir)) return problem(id, `${shown} (${what}) is not writable (mode ${modeOf(st)})`, `chmod 700 ${shown}`);
  const loose: string[] = [];
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) loose.push(`the folder is mode ${modeOf(st)}`);
  for (const name of readdirOrEmpty(dir).filter((n) => PRIVATE_FILES.includes(n))) {
    const f = statOrUndefined(join(dir, name));
    if (f && process.platform !== 'win32' && (f.mode & 0o077) !== 0) loose.push(`${name} is mode ${modeOf(f)}`);
    else if (f && uid !== undefined && f.uid !== uid) loose.push(`${name} belongs to uid ${f.uid}`);
  }
  if (loose.length > 0)
    return warning(
      id,
      `${shown} (${what}) is writable, but not private: ${loose.join(', ')}`,
      `chmod 700 ${shown}; chmod 600 the files in it (they may hold the token and drafts).`,
    );
  // On Windows the mode is made up (Node reads no ACL), so privacy is not claimed there: the folder's ACL says it.
  if (process.platform === 'win32') return ok(id, `${shown} (${what}) is writable (${privateFileWords()})`);
  return ok(id, `${shown} (${what}) is writable and private (${modeOf(st)})`);
}

// ---- the time zone -------------------------------------------------------------------------------

async function timeZone(ctx: Context, profileZone: string | undefined): Promise<Check> {
  const machine = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!profileZone)
    return warning(
      'time-zone',
      `not compared: the profile could not be read (this machine: ${machine})`,
      'Fix the token or the service above; then doctor compares them.',
    );
  const { ianaZone } = await import('../core/zone.js');
  const { tzOffset } = await import('@date-fns/tz');
  const iana = ianaZone(profileZone);
  if (!iana)
    return warning(
      'time-zone',
      `the profile's zone "${profileZone}" is not one checkin knows; days are counted in this machine's (${machine})`,
      'Set your time zone in your Steady profile.',
    );
  const now = ctx.now();
  // Now and half a year on: a zone with summer time and one without agree for only part of the year.
  const instants = [now, new Date(now.getTime() + 182 * 86_400_000)];
  const offsets = (zone: string) => instants.map((at) => tzOffset(zone, at));
  const [p, m] = [offsets(iana), offsets(machine)];
  const utc = (min: number) =>
    `UTC${min < 0 ? '-' : '+'}${String(Math.floor(Math.abs(min) / 60)).padStart(2, '0')}:${String(Math.abs(min) % 60).padStart(2, '0')}`;
  const names = iana === profileZone ? iana : `${profileZone} = ${iana}`;
  if (p[0] !== m[0])
    return warning(
      'time-zone',
      `your profile's zone (${names}, ${utc(p[0]!)}) is not this machine's (${machine}, ${utc(m[0]!)}): "today" is your profile's day, the reminder fires in the machine's time`,
      'Set the zone in your Steady profile, or TZ for checkin (e.g. TZ=' + iana + ').',
    );
  if (p[1] !== m[1])
    return warning(
      'time-zone',
      `your profile's zone (${names}) and this machine's (${machine}) agree now but not all year (summer time)`,
      `Set TZ=${iana} for checkin, or the zone in your Steady profile.`,
    );
  return ok('time-zone', `your profile's zone (${names}) matches this machine's (${machine}, ${utc(m[0]!)})`);
}

// ---- the reminder ----------------------------------------------------------------------------------

/** The last instant before `now` at which a schedule fired. */
function previousFire(at: TimeOfDay, days: number[], now: Date): Date | undefined {
  for (let i = 0; i <= 7; i++) {
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - i, at.hour, at.minute, 0, 0);
    if (d.getTime() <= now.getTime() && days.includes(d.getDay())) return d;
  }
  return undefined;
}

async function reminder(ctx: Context, host: Host, tilde: (p: string) => string, w: AdviceWords, keychainOpens: boolean | undefined): Promise<Check> {
  let found: Installed[];
  try {
    found = await installedReminders(host, undefined);
  } catch (err) {
    return warning('reminder', `could not be looked for: ${(err as Error).message}`, null);
  }
  if (found.length === 0) return ok('reminder', `not installed (\`${w.remind('install')}\` sets one up)`);
  const r = found[0]!;
  const when = r.schedule ? ` at ${formatAt(r.schedule.at)} on ${formatDays(r.schedule.days)}` : '';
  const what = `${MECHANISM_NAME[r.mechanism]}${when}${found.length > 1 ? ` (and ${found.length - 1} more)` : ''}`;
  const notes: string[] = [];
  let status: CheckStatus = 'ok';
  let fix: string | null = null;
  const worse = (s: CheckStatus, f: string | null) => {
    if (s === 'problem' || (s === 'warning' && status === 'ok')) {
      status = s;
      fix = f;
    }
  };
  if (r.enabled === false) {
    notes.push('not enabled');
    worse('problem', `Run \`${w.remind('install')}\` again in a session with a systemd user manager.`);
  }
  const last = lastReminderRun(ctx.config().paths.state);
  if (last === 'damaged') {
    notes.push(`its last run's record (${tilde(join(ctx.config().paths.state, 'remind-last-run.json'))}) cannot be read`);
    worse('warning', 'The next run writes it anew.');
  } else if (!last) notes.push('no run recorded yet');
  else {
    const day = last.at.slice(0, 16).replace('T', ' ');
    const said = {
      notified: 'showed a notification',
      printed: 'printed its line (no notification)',
      quiet: 'had nothing to remind of',
      failed: `failed: ${last.detail ?? 'no reason recorded'}`,
    }[last.outcome];
    notes.push(`last run ${day} UTC ${said}`);
    if (last.outcome === 'failed')
      worse('problem', `Fix what the run said (the token, the service, the keychain: see above), then \`${w.remind('run')}\` tries it now.`);
    const expected = r.schedule && previousFire(r.schedule.at, r.schedule.days, ctx.now());
    if (expected && Date.parse(last.at) < expected.getTime() - 3_600_000) {
      notes.push(`none since, though it was due ${expected.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
      worse('warning', `The scheduler is not running it: \`${w.remind('status')}\` shows it; \`${w.remind('install')}\` again.`);
    }
  }
  if (!host.find(notifierName(host))) {
    notes.push(`no ${notifierName(host)} here, so it prints a line instead of a notification`);
    worse('warning', host.platform === 'linux' ? 'Install notify-send (Debian, Ubuntu: libnotify-bin).' : `Make ${notifierName(host)} available.`);
  } else if (r.mechanism === 'crontab' && r.line !== undefined && !r.line.includes('DBUS_SESSION_BUS_ADDRESS=')) {
    // cron starts the run without the desktop's session bus, which notify-send shows notifications through.
    notes.push('cron gives it no session bus, so it cannot show a notification (it prints a line, which cron mails)');
    worse('warning', `Run \`${w.remind('install')}\` again from your desktop session: the line then carries its bus address.`);
  }
  const unstored = scheduledRunToken(ctx, w, r.mechanism, keychainOpens);
  if (unstored) {
    notes.push(unstored.note);
    worse(unstored.status, unstored.fix);
  }
  return { id: 'reminder', status, message: `${what}: ${notes.join('; ')}`, fix };
}

// ---- MCP registrations -------------------------------------------------------------------------------

function mcp(ctx: Context, cwd: string, tilde: (p: string) => string, w: AdviceWords): Check {
  const { found, unreadable } = readRegistrations(ctx.env, cwd);
  const where = found.map((r) => `${r.agent} (${tilde(r.file)})`).join(', ');
  const leaked = found.filter((r) => r.tokenInFile);
  if (leaked.length > 0)
    return problem(
      'mcp',
      `the token is written into ${leaked.map((r) => tilde(r.file)).join(', ')}`,
      'Take CHECKIN_TOKEN out of the registration (the server reads the stored token), then make a new token: that one may have been shared.',
    );
  const unstartable = found.filter((r) =>
    isAbsolute(r.command) ? !statOrUndefined(r.command)?.isFile() : r.command !== '' && !findProgram(r.command, ctx.env),
  );
  if (unstartable.length > 0) {
    const r = unstartable[0]!;
    return warning(
      'mcp',
      `registered in ${where}, but ${tilde(r.file)} starts "${basename(r.command)}", which is not ${isAbsolute(r.command) ? 'there' : 'on PATH here'}`,
      `Give the full path of checkin in ${tilde(r.file)} (\`command -v checkin\`), or \`${w.mcpConfig(r.agent === 'Claude Code' ? 'claude' : r.agent === 'VS Code' ? 'vscode' : r.agent.toLowerCase())}\` for a fresh entry.`,
    );
  }
  if (unreadable.length > 0)
    return warning(
      'mcp',
      `${unreadable.map(tilde).join(', ')} cannot be read${found.length ? `; registered in ${where}` : ''}`,
      'Fix or remove the file: the agent cannot read it either.',
    );
  if (found.length === 0) return ok('mcp', `not registered with Claude Code, Codex, VS Code or Cursor (\`${w.mcpConfig('claude')}\` shows how)`);
  return ok('mcp', `registered in ${where}`);
}

// ---- the skill ----------------------------------------------------------------------------------------

function skill(ctx: Context, cwd: string, tilde: (p: string) => string, w: AdviceWords): Check {
  let places: SkillPlace[];
  try {
    places = skillPlaces(ctx.env, cwd).filter((p) => p.state.kind !== 'missing');
  } catch (err) {
    return warning('skill', `not checked: ${(err as Error).message}`, null);
  }
  const label = (p: SkillPlace) => `${agentName(p.agent)} (${p.scope}, ${tilde(p.file)})`;
  if (places.length === 0) return ok('skill', `not installed for any agent (\`${w.skillInstall()}\` adds it)`);
  const old = places.filter(
    (p) => (p.state.kind === 'other' && p.state.older) || (p.state.kind === 'changed' && p.state.version !== undefined && olderThan(p.state.version, VERSION)),
  );
  const unreadable = places.filter((p) => p.state.kind === 'unreadable');
  if (old.length > 0) {
    const p = old[0]!;
    const v = p.state.kind === 'other' || p.state.kind === 'changed' ? p.state.version : '?';
    return warning(
      'skill',
      `${label(p)} is checkin ${v}'s; this checkin is ${VERSION}${old.length > 1 ? ` (and ${old.length - 1} more older copies)` : ''}`,
      `${w.skillInstall({ agent: p.agent, scope: p.scope, force: p.state.kind === 'changed' })}${p.state.kind === 'changed' ? ' (it has changes of its own)' : ''}`,
    );
  }
  if (unreadable.length > 0) return warning('skill', `${label(unreadable[0]!)} cannot be read`, `Remove it, then \`${w.skillInstall()}\`.`);
  const say = (p: SkillPlace) =>
    `${label(p)}: ${p.state.kind === 'current' ? 'written by this checkin' : p.state.kind === 'other' ? `written by checkin ${p.state.version}` : 'changed by you'}`;
  return ok('skill', places.map(say).join('; '));
}

// ---- Node ----------------------------------------------------------------------------------------------

function node(tilde: (p: string) => string): Check {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major < 22 || (major === 22 && minor < 13))
    return problem('node', `Node ${process.version}: checkin needs 22.13 or later`, 'Install a current Node (22 or 24 LTS).');
  const cacheable = major > 22 || (major === 22 && minor >= 1);
  // The single binary starts from its start-up snapshot: no compile cache to look for.
  if (buildKind() === 'binary') return ok('node', `Node ${process.version} inside the single binary, started from its start-up snapshot`);
  if (!cacheable) return ok('node', `Node ${process.version} (no compile cache before Node 22.1: start-up is a little slower)`);
  const dir = (process.getBuiltinModule('node:module') as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
  if (!dir)
    return warning(
      'node',
      `Node ${process.version}, compile cache off: the cache folder is not yours alone (or checkin was not started through bin/checkin.js)`,
      'chmod 700 ~/.cache/checkin (and the folders in it), so that only you can write there.',
    );
  return ok('node', `Node ${process.version}, compile cache on (${tilde(dir)})`);
}

// ---- the outbox ----------------------------------------------------------------------------------------

function outbox(ctx: Context, w: AdviceWords): Check {
  let drafts;
  try {
    drafts = waitingDrafts(ctx);
  } catch (err) {
    return problem('outbox', `cannot be read: ${fsReason(err)}`, 'Fix the state folder (above); drafts kept there are waiting.');
  }
  // Drafts kept for another service or person wait too (`checkin drafts` lists them all).
  let elsewhere = 0;
  try {
    elsewhere = ctx.drafts().list().length - drafts.length;
  } catch {
    // counted above: the same folder
  }
  const others = elsewhere > 0 ? `${elsewhere} kept for another service or person` : '';
  if (drafts.length === 0) {
    return others
      ? warning(
          'outbox',
          `no drafts waiting for this account; ${others}`,
          `\`${w.list()}\` lists them; \`${w.send('<id>')}\` sends one here once you say yes, \`${w.drop('<id>')}\` drops it.`,
        )
      : ok('outbox', 'no drafts waiting');
  }
  const sending = drafts.filter((d) => d.sending === 'being-sent').length;
  const maybe = drafts.filter((d) => d.sending === 'maybe-sent').length;
  const oldest = drafts[0]!.created_at.slice(0, 10);
  const parts = [
    `${drafts.length} draft${drafts.length === 1 ? '' : 's'} waiting (the oldest from ${oldest})`,
    ...(sending ? [`${sending} being sent now`] : []),
    ...(maybe ? [`${maybe} may have reached the service`] : []),
    ...(others ? [others] : []),
  ];
  return warning('outbox', parts.join(', '), `\`${w.list()}\` lists them; \`${w.send('<id>')}\` sends one, \`${w.drop('<id>')}\` drops it.`);
}
