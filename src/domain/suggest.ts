// What happened since my last check-in, as Markdown bullets for *previous*: my activities on the
// service (merged PRs, Jira moves, `checkin log`) and my commits in local git repositories.
//
// Requests: one (GET /activities for me, from a week before the day; what came before my last
// check-in is left out here), sent alongside the check-in's own. git runs (as a careful guest:
// git.ts) started with the requests, in each repository at once: the current one by default, or
// those CHECKIN_GIT_REPOS names (separated like PATH) or config.json's "git_repos" list; author =
// that repository's user.email; CHECKIN_GIT_REPOS= (empty) runs none. A folder that is missing
// or not a repository, git failing or taking too long, or no git at all: skipped with a note.

import { allActivities, listCheckIns } from '../api/endpoints.js';
import { DATE_KEY_RE, type Activity, type CheckIn } from '../api/types.js';
import { inHome } from '../config/paths.js';
import { preferences } from '../config/prefs.js';
import type { Context } from '../context.js';
import { previousPrefill } from '../core/checkin-answers.js';
import { addDays, isDateKey, localDateKey } from '../core/datekey.js';
import { me } from './account.js';
import { fetchOrNull, type Target } from './target.js';
import { GIT_MAX_BYTES, GIT_TIMEOUT_MS, runGit } from '../system/git.js';
import { sanitizeLine } from '../ui/sanitize.js';

/** My latest check-ins before `date` (what "previous" is suggested from). */
export async function earlierCheckIns(ctx: Context, date: string): Promise<CheckIn[]> {
  const { id } = await me(ctx);
  return listCheckIns(await ctx.api(), { people_ids: [id], until: addDays(date, -1), per_page: 10 });
}

/** What "previous" starts from, and where it came from: this check-in's own answer, or the intentions of my latest earlier one. */
export async function previousSuggestion(
  ctx: Context,
  current: CheckIn,
  fetched?: Promise<CheckIn[] | undefined>,
): Promise<{ text: string | null; from?: string }> {
  if (current.previous) return { text: current.previous };
  const earlier = (await fetched) ?? (await earlierCheckIns(ctx, current.date));
  const text = previousPrefill(current, earlier);
  const source = earlier.find((c) => c.intentions === text);
  return { text, ...(source && { from: source.date }) };
}

export async function earlierPrefill(ctx: Context, current: CheckIn): Promise<string | null> {
  return (await previousSuggestion(ctx, current)).text;
}

/** The most of each source that becomes a bullet (a busy week is still one screen). */
const MAX_EACH = 30;
/** A commit's subject is cut to this many characters (by git itself, so a huge one costs nothing). */
const MAX_SUBJECT = 200;

export interface WorkSince {
  bullets: string[];
  /** The same bullets by where they came from, newest first in each: "Your activity", "Commits in billing-api". */
  groups: Array<{ title: string; bullets: string[] }>;
  /** Why a source was left out ("~/src/x is not a git repository: skipped"). */
  notes: string[];
}

/** The moment my last filled-in check-in before `day` was completed (or that day's start), else a week before. */
export function lastCheckInAt(day: string, earlier: CheckIn[]): string {
  const last = earlier.find((c) => c.completed_at && c.date < day && !Number.isNaN(Date.parse(c.completed_at)));
  return last ? new Date(Date.parse(last.completed_at!)).toISOString() : `${addDays(day, -7)}T00:00:00.000Z`;
}

/** My activities from a week before `day` on (one request; start it early, filter later). */
export async function recentActivities(ctx: Context, day: string): Promise<Activity[]> {
  const person = await me(ctx);
  return allActivities(await ctx.api(), { people_ids: [person.id], since: `${addDays(day, -7)}T00:00:00Z` });
}

function activityBullet(a: Activity): string {
  const title = sanitizeLine(a.title || a.description || a.kind).trim();
  const label = a.group ? ` (${sanitizeLine(a.group)})` : '';
  return a.url && /^https?:\/\//.test(a.url) ? `- [${title}](${sanitizeLine(a.url)})${label}` : `- ${title}${label}`;
}

export function gitRepos(ctx: Context): string[] {
  const home = (dir: string) => inHome(ctx.env, dir);
  const fromEnv = ctx.env.CHECKIN_GIT_REPOS;
  if (fromEnv !== undefined)
    return fromEnv
      .split(process.platform === 'win32' ? ';' : ':')
      .filter(Boolean)
      .map(home);
  // The git_repos setting, as `checkin config` checked it (a hand-edited value it refuses is not used).
  const fromConfig = preferences(ctx.config()).git_repos;
  if (fromConfig !== undefined) return fromConfig.map(home);
  return [process.cwd()];
}

interface Commit {
  at: string;
  subject: string;
  bullet: string;
}

/** Text compared as words: case, runs of spaces and the ends do not count. */
const sameWords = (text: string) => sanitizeLine(text).trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * My commits of the week before `day` in one repository, newest first (filtered to "since my last
 * check-in" later: git starts before the check-ins have answered); or a note why there are none.
 */
async function commitsIn(ctx: Context, dir: string, day: string): Promise<{ commits: Commit[]; name?: string; note?: string; noGit?: boolean }> {
  const git = (args: string[]) => runGit(dir, args, { env: ctx.env });
  const [email, log] = await Promise.all([
    git(['config', 'user.email']),
    git([
      'log',
      `--since=${addDays(day, -7)}T00:00:00Z`,
      '--no-merges',
      '--no-ext-diff',
      '--no-textconv',
      `-n${MAX_EACH * 4}`,
      `--format=%ae%x09%cI%x09%<(${MAX_SUBJECT},trunc)%s`,
    ]),
  ]);
  if (!log.ok) {
    if (log.why === 'no-git') return { commits: [], noGit: true };
    if (log.why === 'timeout') return { commits: [], note: `git log took longer than ${GIT_TIMEOUT_MS / 1000} s in ${dir}; skipped` };
    if (/cannot change to|No such file/i.test(log.stderr)) return { commits: [], note: `${dir}: no such folder; skipped` };
    if (/not a git repository/i.test(log.stderr)) return { commits: [], note: `${dir} is not a git repository; skipped` };
    if (/does not have any commits/i.test(log.stderr)) return { commits: [] };
    if (/dubious ownership/i.test(log.stderr)) return { commits: [], note: `${dir} belongs to another user, so git will not read it; skipped` };
    const said = sanitizeLine(log.stderr.trim().split('\n')[0] ?? '');
    return { commits: [], note: `git log failed in ${dir}: ${said || `exit status ${log.code ?? 'unknown'}`}; skipped` };
  }
  if (!email.ok || !email.out.trim()) return { commits: [], note: `${dir}: git has no user.email, so your commits are not known; skipped` };
  const mine = email.out.trim().toLowerCase();
  const rows = log.out
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([author, at, subject]) => author?.toLowerCase() === mine && at && Number.isFinite(Date.parse(at)) && subject?.trim());
  const more = log.cut ? `git log in ${dir} said more than ${GIT_MAX_BYTES / 1024} KB: the newest commits that fit are kept` : undefined;
  if (rows.length === 0) return { commits: [], ...(more && { note: more }) };
  // The repository's name (the folder may be inside it): asked only when there is something to name.
  const top = await git(['rev-parse', '--show-toplevel']);
  const name = sanitizeLine((top.ok ? top.out.trim() : dir).split(/[\\/]/).filter(Boolean).at(-1) ?? dir);
  return {
    name,
    commits: rows.map(([, at, subject]) => ({ at: new Date(at!).toISOString(), subject: subject!, bullet: `- ${sanitizeLine(subject!).trim()} (${name})` })),
    ...(more && { note: more }),
  };
}

/** My commits in every repository, started early (with the requests): see commitsIn. */
export function recentCommits(ctx: Context, day: string): Promise<Array<Awaited<ReturnType<typeof commitsIn>>>> {
  const dirs = gitRepos(ctx);
  if (dirs.length === 0) return Promise.resolve([]);
  // Once the requests being made now are on the wire: starting a process is CPU work that would hold them back.
  return new Promise((resolve) => setImmediate(resolve)).then(() => Promise.all(dirs.map((dir) => commitsIn(ctx, dir, day))));
}

/** What happened since my last check-in before `current`: activities and commits (both started early). */
export async function workSince(
  ctx: Context,
  current: CheckIn,
  earlier: CheckIn[],
  activities: Promise<Activity[]>,
  commits: ReturnType<typeof recentCommits>,
): Promise<WorkSince> {
  // (A date the service wrote wrongly counts as today: a suggestion, not a crash.)
  const since = lastCheckInAt(isDateKey(current.date) ? current.date : localDateKey(ctx.now()), earlier);
  const person = await me(ctx);
  const notes: string[] = [];
  const [acts, repos] = await Promise.all([
    activities.catch((err: unknown) => {
      notes.push(`your activities could not be read (${sanitizeLine((err as Error).message)}); left out`);
      return [] as Activity[];
    }),
    commits,
  ]);
  const recent = acts
    .filter((a) => Date.parse(a.recorded_at) > Date.parse(since) && (!a.person || a.person.id === person.id))
    .sort((a, b) => (a.recorded_at < b.recorded_at ? 1 : -1))
    .slice(0, MAX_EACH);
  const bullets = recent.map(activityBullet);
  const groups = bullets.length > 0 ? [{ title: 'Your activity', bullets: [...bullets] }] : [];
  if (repos.some((r) => r.noGit)) notes.push('git is not installed: commits are left out');
  // A commit also logged as an activity (the README's post-commit recipe) is said once, as the activity.
  const logged = new Set(recent.flatMap((a) => [a.title, a.description].filter((t): t is string => typeof t === 'string').map(sameWords)));
  for (const r of repos) {
    const mine = r.commits
      .filter((c) => Date.parse(c.at) > Date.parse(since) && !logged.has(sameWords(c.subject)))
      .slice(0, MAX_EACH)
      .map((c) => c.bullet);
    bullets.push(...mine);
    if (mine.length > 0) groups.push({ title: `Commits in ${r.name ?? 'git'}`, bullets: mine });
    if (r.note) notes.push(r.note);
  }
  return { bullets: [...new Set(bullets)], groups, notes };
}

/** The suggestion for *previous*: the last intentions' lines, then what happened since (no repeats). */
export function combine(intentions: string | null, work: WorkSince): string | null {
  const lines = (intentions ?? '').split('\n').filter((l) => l.trim() !== '');
  const seen = new Set(lines.map((l) => l.trim()));
  const all = [...lines, ...work.bullets.filter((b) => !seen.has(b.trim()))];
  return all.length > 0 ? all.join('\n') : null;
}

export interface Suggestion {
  /** The check-in it is for. */
  current: CheckIn;
  /** The suggestion for *previous*, or null when there is nothing to suggest. */
  text: string | null;
  /** My latest earlier check-in with intentions (where the suggestion starts), if any. */
  last: CheckIn | undefined;
  work: WorkSince;
}

/**
 * The suggestion for *previous* of a check-in, with where each line came from; null when the
 * service has no check-in there. Prints nothing (the notes are in `work.notes`). For a date, the
 * check-in, the earlier ones, the activities and the commits are asked for at once.
 */
export async function suggestionFor(ctx: Context, target: Target): Promise<Suggestion | null> {
  const day = DATE_KEY_RE.test(target.key) ? target.key : undefined;
  const early = day ? { earlier: earlierCheckIns(ctx, day), activities: recentActivities(ctx, day), commits: recentCommits(ctx, day) } : undefined;
  early?.earlier.catch(() => undefined);
  early?.activities.catch(() => undefined);
  const current = await fetchOrNull(ctx, target);
  if (!current) return null;
  // A check-in named by UUID: its own date (or today, when the service wrote no date).
  const when = day ?? (isDateKey(current.date) ? current.date : localDateKey(ctx.now()));
  const activities = early?.activities ?? recentActivities(ctx, when);
  const before = await (early?.earlier ?? earlierCheckIns(ctx, when));
  const work = await workSince(ctx, current, before, activities, early?.commits ?? recentCommits(ctx, when));
  const last = before.find((c) => c.intentions && c.intentions.trim() !== '');
  return { current, text: combine(last?.intentions ?? null, work), last, work };
}
