// What an agent's hooks (`checkin hook session-start|stop|post-commit`) remind of, computed only from
// what checkin keeps on this machine: never a request. Today's state from the last look (the copy
// `checkin status`, the reminder or a send left in cache.json), the drafts kept in the outbox (read,
// never written), and my commits in the folder the agent works in since this machine last saw the
// service take a check-in or an activity of mine (hooks.json: hook-marks.ts).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CHECK_IN } from '../api/types.js';
import { Outbox } from '../config/outbox-files.js';
import type { Context } from '../context.js';
import { memberState } from '../core/member-states.js';
import { cachedAccount } from './account.js';
import { todayGuess } from './days.js';
import { waitingDrafts } from './drafts-waiting.js';
import { readMarks, writeMarks } from './hook-marks.js';
import { runGitSync } from '../system/git.js';

/** What the hooks read with: the settings (and the profile they choose), the environment, the clock. */
export type HookContext = Pick<Context, 'config' | 'env' | 'now' | 'profile'>;

/** What there is to do, as the hooks know it without asking the service. */
export interface HookReminder {
  /** Today's date key (the cached profile zone, else TZ or this machine's). */
  date: string;
  /** Today's check-in is pending as last seen (and no send of it was seen since). */
  pending: boolean;
  /** Drafts of this account kept in the outbox, not being sent. */
  drafts: number;
  /** My commits in the folder since `since`. */
  commits: number;
  /** Since when commits count: my last report seen here, else the start of today. */
  since: string;
}

/** How long each git command of a hook may take: a hook runs in an agent's every session. */
const HOOK_GIT_MS = 1500;
/** The most commits counted (and said: "200+"). */
export const MAX_COMMITS = 200;
/** Sessions whose last reminder is remembered (the Stop hook says each one once a session). */
const MAX_SESSIONS = 50;

/** My commits in `dir` since `since`: author = that repository's user.email. 0 when git, the repository or the email is missing. */
function commitsSince(ctx: HookContext, dir: string, since: string): number {
  // Outside a repository git is not started at all (a hook runs in every session, often elsewhere).
  if (!insideRepository(dir)) return 0;
  // One after the other, waited for: nothing else is to do meanwhile, and no stream is set up (system/git.ts).
  const git = (args: string[]) => runGitSync(dir, args, { env: ctx.env, timeoutMs: HOOK_GIT_MS, maxBytes: 64 * 1024 });
  const email = git(['config', 'user.email']);
  const mine = email.ok ? email.out.trim().toLowerCase() : '';
  if (mine === '') return 0;
  const log = git(['log', `--since=${since}`, '--no-merges', `-n${MAX_COMMITS}`, '--format=%ae%x09%cI']);
  if (!log.ok) return 0;
  const after = Date.parse(since);
  return log.out.split('\n').filter((line) => {
    const [author, at] = line.split('\t');
    // git's --since reads the committer date; the author's own time decides here too.
    return author?.toLowerCase() === mine && at !== undefined && Date.parse(at) > after;
  }).length;
}

/**
 * Whether `dir` is in a git repository (a `.git` here or above): a look at the disk, no process.
 * Whether its HEAD moved since the mark is git's to say, not the files' times: those are the file
 * system's clock (a network one's, or the real one under a faked clock), the mark is this process's.
 */
function insideRepository(dir: string): boolean {
  for (let at = resolve(dir), up = dirname(at); ; at = up, up = dirname(at)) {
    if (existsSync(join(at, '.git'))) return true;
    if (up === at) return false;
  }
}

/** The later of two instants (ISO), either possibly missing or no time at all. */
function later(a: string | undefined, b: string | undefined): string | undefined {
  const [x, y] = [a === undefined ? NaN : Date.parse(a), b === undefined ? NaN : Date.parse(b)];
  if (Number.isNaN(x)) return Number.isNaN(y) ? undefined : new Date(y).toISOString();
  if (Number.isNaN(y)) return new Date(x).toISOString();
  return new Date(Math.max(x, y)).toISOString();
}

/**
 * The account as cached (a profile whose token is only in the keychain too: by the entry's alias),
 * the keychain never asked: a hook reads only what is kept in files. Every file the settings store
 * reads for the hooks is read here (the settings, a folder's .checkin.json, the cache), and only
 * once a run: what it warns of, it warns of now (the hooks' own bundle, commands/hook/fast.ts,
 * leaves such a run to the CLI).
 */
export function hookAccount(ctx: HookContext): ReturnType<typeof cachedAccount> {
  try {
    ctx.config().skipKeychain();
    return cachedAccount(ctx);
  } catch {
    return undefined;
  }
}

/**
 * What there is to do, from what this machine keeps: no request, nothing written. Each part that
 * cannot be read (no token, a damaged cache, no outbox, no git) counts as nothing to say.
 */
export function hookReminder(ctx: HookContext, cwd: string): HookReminder {
  const account = hookAccount(ctx);
  // Today and its start in the cached profile zone (else TZ or this machine's).
  const { day: date, start } = todayGuess(ctx, () => account?.entry.me);
  const startOfDay = start.toISOString();
  let pending = false;
  let since: string | undefined;
  if (account) {
    try {
      const mark = readMarks(ctx).accounts?.[account.key];
      // The copy status (or the reminder) saw last: cache.json's `today`.
      const copy = account.entry.today;
      const seen = copy?.key === date && CHECK_IN(copy.check_in, 'the copy') === undefined ? copy.check_in : undefined;
      pending = seen !== undefined && memberState(seen) === 'pending' && mark?.sent !== date;
      const completed = seen?.completed_at ?? undefined;
      since = later(typeof mark?.reported_at === 'string' ? mark.reported_at : undefined, typeof completed === 'string' ? completed : undefined);
    } catch {
      // a cache or a mark that cannot be read: nothing said of it
    }
  }
  since = later(since, startOfDay) ?? startOfDay;
  const drafts = keptDrafts(ctx);
  let commits = 0;
  try {
    commits = commitsSince(ctx, cwd, since);
  } catch {
    // git's answer that cannot be read: no commits said
  }
  return { date, pending, drafts, commits, since };
}

/**
 * Drafts of this account in the outbox, not being sent; the outbox is opened only when its database
 * is there (a hook never makes one), and read-only: a damaged one is not set aside, nothing is said.
 */
function keptDrafts(ctx: HookContext): number {
  try {
    const dir = ctx.config().draftsDir;
    if (!existsSync(join(dir, 'outbox.db'))) return 0;
    const outbox = new Outbox(dir, () => undefined, { readOnly: 'a hook only reads' });
    const reading = Object.assign(Object.create(ctx) as HookContext, { drafts: () => outbox });
    return waitingDrafts(reading).filter((d) => d.here && d.sending === 'waiting').length;
  } catch {
    return 0;
  }
}

/** The kinds of reminder `r` holds: what the Stop hook says once a session. */
export function reminderKinds(r: HookReminder): string[] {
  return [...(r.pending ? ['pending'] : []), ...(r.commits > 0 ? ['commits'] : []), ...(r.drafts > 0 ? ['drafts'] : [])];
}

/**
 * Whether the Stop hook of `session` should hold the agent back for `kinds`: only when one of them
 * was not said yet in that session (a count that grew is the same reminder), and only when that is
 * now remembered (a mark that cannot be written would hold it back at every stop).
 */
export function holdOnce(ctx: HookContext, session: string, kinds: string[]): 'hold' | 'said' | 'unremembered' {
  try {
    const marks = readMarks(ctx);
    const sessions = typeof marks.sessions === 'object' && marks.sessions !== null ? marks.sessions : {};
    const said = Array.isArray(sessions[session]?.kinds) ? sessions[session].kinds : [];
    if (kinds.every((k) => said.includes(k))) return 'said';
    const kept = Object.entries(sessions)
      .filter(([id]) => id !== session)
      .sort((a, b) => (String(a[1]?.at) < String(b[1]?.at) ? 1 : -1))
      .slice(0, MAX_SESSIONS - 1);
    const mark = { kinds: [...new Set([...said, ...kinds])], at: ctx.now().toISOString() };
    return writeMarks(ctx, { ...marks, sessions: Object.fromEntries([...kept, [session, mark]]) }) ? 'hold' : 'unremembered';
  } catch {
    return 'unremembered';
  }
}
