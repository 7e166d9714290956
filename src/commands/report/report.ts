// `checkin report`: a period on one page — per person and day what they did, intend and are
// blocked by, mood and whether it was done, with a summary line and their goal updates.
// Requests: the check-ins of the period (every page, paced like list --all), the goals of the same
// people or teams (one list) and each goal's newest updates (one each, overlapped).
import { Command, Option } from '@commander-js/extra-typings';
import { allGoals, newestUpdatesOf } from '../../api/endpoints.js';
import type { CheckIn, Ref } from '../../api/types.js';
import type { Context } from '../../context.js';
import { addDays, isDateKey } from '../../core/datekey.js';
import { weekStart } from '../../core/keys.js';
import { UsageError } from '../../errors.js';
import { shortDay } from '../../core/dayname.js';
import { directoryPeople, resolvePeople, resolveTeams } from '../../domain/account.js';
import { dayRange, today } from '../../domain/days.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkinPaths } from '../../config/paths.js';
import { openBlockers, personCalendar, runsThrough, streaks, tally, teamCalendar, weeks } from '../../core/stats.js';
import { membersPerDay, ownDays, personDays, streakWindow, walkDays } from '../../domain/stats.js';
import { openInBrowser } from '../../ui/browser.js';
import { printJson } from '../../ui/output.js';
import type { PersonFigures } from '../../ui/report-html.js';
import { markdownAtTerminal, reportCsv, reportMarkdown, type ReportModel, type ReportPerson } from '../../ui/report-formats.js';
import { reportHtml } from '../../ui/report-html.js';
import { once, pauseNotice, resumeCommand, whoOptions, type Run, type WhoOptions } from '../flags.js';
import { resumeEach, whenLabel } from '../../domain/outbox.js';
import {
  CHAT_NAMES,
  lastPost,
  dropRepeatedPosts,
  postKept,
  postToWebhook,
  somethingNew,
  TEXT_LIMIT,
  webhookBody,
  webhookHere,
  type ChatService,
  type Webhook,
} from '../../domain/webhook.js';
import { digestBlocks, digestText, weekDigest, type Dialect, type Digest } from '../../ui/report-slack.js';
import { sayPosted } from '../../ui/success.js';

export interface ReportOptions extends WhoOptions {
  since?: string;
  until?: string;
  week?: boolean;
  lastWeek?: boolean;
  format?: 'md' | 'csv' | 'json' | 'html' | 'slack' | 'slack-blocks';
  open?: boolean;
  /** slack, slack-blocks, --post: name who is blocked (and keep @mentions in the blockers). */
  names?: boolean;
  /** Post to a chat webhook: the URL, or true for the profile's (`checkin config set webhook -`). */
  post?: string | boolean;
  /** With --post: only when the period holds something newer than the last post to that webhook. */
  ifNew?: boolean;
  /** With --post: send the posts kept from refused attempts, nothing else. */
  resume?: boolean;
}

export function reportCommand(ctx: Context, run: Run<ReportOptions> = runReport) {
  return whoOptions(new Command('report'))
    .description(
      "The check-ins of a period on one page: Markdown for a 1:1, CSV for a spreadsheet, JSON, a page with charts, or the team's digest for a chat (and posted to its webhook)",
    )
    .option('--since <day>', 'from this day (default: Monday of this week, today on a Monday)')
    .option('--until <day>', 'up to this day, inclusive (default: today); a weekday name is the first on or after --since')
    .option('--week', 'this week, Monday to Sunday')
    .option('--last-week', 'last week, Monday to Sunday')
    .addOption(
      new Option(
        '--format <format>',
        "md, csv, json, html (one page with charts, no script), slack (the team's digest in Slack's mrkdwn: counts, no ranking of people, open blockers without names) or slack-blocks (the same as Slack Block Kit JSON)",
      )
        .choices(['md', 'csv', 'json', 'html', 'slack', 'slack-blocks'] as const)
        .default('md' as const),
    )
    .option('--open', "with --format html: write the page into checkin's cache folder (the newest 10 are kept) and open it in your browser")
    .option('--names', 'with slack, slack-blocks or --post: name who is blocked, and keep @mentions in the blockers (left out by default)')
    .addOption(
      new Option(
        '--post [url]',
        "post the digest to a chat's incoming webhook (Slack, Discord or Mattermost, known by its host and path; https, or http to this machine): the URL, else CHECKIN_WEBHOOK, else the profile's (`checkin config set webhook -`). One POST; a refused post is kept as a draft",
      ).argParser(once('--post', (url) => url, { secret: true })),
    )
    .option('--if-new', 'with --post: post only when the period holds a check-in filled or changed, or a goal update, after the last post to that webhook')
    .option(
      '--resume',
      'with --post: send the posts kept from refused attempts (to that webhook), nothing else; one the chat refused for its words (a 400, 413 or 422) is left, said with its `checkin drafts send <id>`',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  checkin report --person me\n  checkin report --last-week --format csv > week.csv\n  checkin report --team Platform --since monday --until friday\n  checkin report --team Platform --last-week --format html > week.html\n  checkin report --team Platform --last-week --format slack\n  checkin config set webhook - < webhook-url.txt\n  checkin report --team Platform --last-week --post --if-new',
    )
    .action((opts) => run(ctx, opts));
}

/** Mood names, most frequent first (then by name). */
function moodCounts(list: CheckIn[]): Array<{ mood: string; count: number }> {
  const counts = new Map<string, number>();
  for (const c of list) if (c.completed_at && c.mood) counts.set(c.mood, (counts.get(c.mood) ?? 0) + 1);
  // Every mood of the period, the most frequent first: a cut list read as a whole one (a tie hid a mood).
  return [...counts].map(([mood, count]) => ({ mood, count })).sort((a, b) => b.count - a.count || (a.mood < b.mood ? -1 : 1));
}

export async function runReport(ctx: Context, opts: ReportOptions): Promise<void> {
  if (opts.open && opts.format !== 'html') throw new UsageError('--open is for --format html');
  const chat = opts.format === 'slack' || opts.format === 'slack-blocks';
  const posting = opts.post !== undefined && opts.post !== false;
  if (opts.names && !chat && !posting) throw new UsageError('--names is for --format slack, slack-blocks or --post');
  if ((opts.ifNew || opts.resume) && !posting) throw new UsageError(`${opts.ifNew ? '--if-new' : '--resume'} is for --post`);
  if (posting && opts.format !== 'md' && !chat)
    throw new UsageError(`--post sends the team's digest: --format slack (the default there) or slack-blocks, not ${opts.format}`);
  if (opts.open && posting) throw new UsageError('--open is for --format html, not --post');
  // The webhook first: a missing or wrong one costs no request.
  const hook = posting ? webhookHere(ctx, typeof opts.post === 'string' ? opts.post : undefined) : undefined;
  // Typed at a terminal, the URL (a secret) is now in the shell's history and was in `ps`: said once, with the way that keeps it out.
  if (hook?.where === 'flag' && ctx.io.stdinIsTTY && ctx.advice)
    ctx.io.err(
      `note: a webhook URL on the command line stays in your shell's history; \`${ctx.advice.setSetting('webhook', '-')}\` keeps it for this profile (read from standard input), then \`checkin report --post\` posts there.\n`,
    );
  if (hook && opts.format === 'slack-blocks' && hook.service !== 'slack')
    throw new UsageError(`Block Kit is Slack's; ${CHAT_NAMES[hook.service]} takes --format slack (sent as its Markdown)`);
  if (hook && opts.resume) return resumePosts(ctx, hook);
  if (opts.week && opts.lastWeek) throw new UsageError('Give --week or --last-week, not both');
  if ((opts.week || opts.lastWeek) && (opts.since !== undefined || opts.until !== undefined))
    throw new UsageError(`${opts.week ? '--week' : '--last-week'} is the whole period; leave out --since and --until`);
  const now = await today(ctx);
  const monday = addDays(weekStart(now), opts.lastWeek ? -7 : 0);
  const range =
    opts.week || opts.lastWeek
      ? { since: monday, until: addDays(monday, 6) }
      : await dayRange(ctx, { since: opts.since ?? monday, until: opts.until ?? 'today' }, { since: '--since', until: '--until' });
  const since = range.since!;
  const until = range.until!;
  const people_ids = await resolvePeople(ctx, opts.person);
  const team_ids = await resolveTeams(ctx, opts.team);
  const api = await ctx.api();
  // The streaks are counted over the weeks `checkin stats` looks at (domain/stats.ts streakWindow;
  // fewer for many people), so a run that began before the period counts whole: one walk over them
  // all, the period's pages first (newest first), bounded by how many check-ins a day there can be —
  // the people named, else the teams' members (everyone, without a team) in the directory. Without
  // a directory (it failed: asked once, taken as empty), every page until a short one, and
  // everyone's days in this run's zone.
  const directory =
    people_ids.length > 0
      ? undefined
      : await directoryPeople(ctx).then(
          (d) => d.people,
          () => [],
        );
  const perDay = directory ? membersPerDay(directory, team_ids) : people_ids.length * Math.max(1, team_ids.length);
  const window = streakWindow({ since, until }, perDay);
  // The directory may be older than a team's newest member: its count bounds the walk only where the
  // weeks before the period leave the period's own pages their room many times over.
  const bounded = directory && window.since >= weekStart(since) ? undefined : perDay;
  const byPerson = new Map<string, { person: Ref; all: CheckIn[] }>();
  const onPause = pauseNotice(ctx);
  const [, goals] = await Promise.all([
    walkDays(
      ctx,
      { since: window.since, until },
      { people_ids, team_ids },
      bounded,
      (items) => {
        for (const c of items) {
          if (!c.person || (people_ids.length > 0 && !people_ids.includes(c.person.id))) continue;
          const entry = byPerson.get(c.person.id) ?? { person: c.person, all: [] };
          entry.all.push(c);
          byPerson.set(c.person.id, entry);
        }
      },
      { onPause },
    ),
    allGoals(api, { people_ids, team_ids }),
  ]);
  const updates = (
    await newestUpdatesOf(
      api,
      goals.map((g) => g.id),
      { onPause },
    )
  )
    .flat()
    .filter((u) => u.created_at.slice(0, 10) >= since && u.created_at.slice(0, 10) <= until);

  const own = await ownDays(ctx, window.since);
  const figures = new Map<string, PersonFigures>();
  const people: ReportPerson[] = [];
  // Only the people with a check-in in the period (the weeks before are for their streaks alone).
  const inPeriod = [...byPerson.values()].filter((e) => e.all.some((c) => c.date >= since));
  for (const { person, all } of inPeriod.sort((a, b) => (a.person.name < b.person.name ? -1 : a.person.name > b.person.name ? 1 : 0))) {
    all.sort((a, b) => (a.date < b.date ? -1 : 1));
    const sorted = all.filter((c) => c.date >= since);
    // The figures of core/stats.ts in the person's zone (as `checkin stats` reads it): the period's
    // calendar, and the streaks and each day's run over the whole window.
    const day = await personDays(ctx, person.id, window.since, own, directory);
    const cells = personCalendar(sorted, { since, until }, day);
    const counted = personCalendar(all, { since: window.since, until }, day);
    const streak = streaks(counted);
    const count = tally(cells);
    // Each day's state as the calendar has it (a date the service wrote wrongly is in no calendar: said from the check-in alone).
    const cellState = new Map(cells.map((c) => [c.date, c.state]));
    const through = runsThrough(counted);
    figures.set(person.id, { cells, weeks: weeks(cells), streak, open: openBlockers(all) });
    people.push({
      person,
      runs: new Map(sorted.map((c) => [c.id, through.get(c.date) ?? 0])),
      // A date the service wrote wrongly is shown as it came (sanitised by the view), not a crash.
      days: sorted.map((checkIn) => ({
        label: isDateKey(checkIn.date) ? shortDay(checkIn.date) : checkIn.date,
        checkIn,
        state: cellState.get(checkIn.date) ?? (checkIn.absent === true ? 'absent' : checkIn.completed_at ? 'filled' : 'pending'),
      })),
      updates: updates.filter((u) => u.person?.id === person.id).sort((a, b) => (a.created_at < b.created_at ? -1 : 1)),
      // The counts are `checkin stats`' (core/stats.ts tally): an absence is not a scheduled day.
      summary: {
        scheduled: count.scheduled,
        done: count.filled,
        late: count.late,
        absent: count.absent,
        blocked: count.blocked,
        moods: moodCounts(sorted),
        streak: { ...streak, since: window.since, weeks: window.weeks },
      },
    });
  }
  const model: ReportModel = { since, until, title: `${shortDay(since)} – ${shortDay(until)} ${until.slice(0, 4)}`, people };
  if (chat || hook) {
    const digest = weekDigest(
      model,
      [...figures.values()].flatMap((f) => f.open),
      { names: Boolean(opts.names) },
    );
    if (hook)
      return postDigest(ctx, hook, digest, { since, until, newest: newestWord(people), blocks: opts.format === 'slack-blocks', ifNew: Boolean(opts.ifNew) });
    ctx.io.page();
    return opts.format === 'slack' ? ctx.io.out(digestText(digest, 'mrkdwn')) : printJson(ctx.io, digestBlocks(digest));
  }
  ctx.io.page();
  if (opts.format === 'json') {
    return printJson(ctx.io, {
      since,
      until,
      people: people.map((p) => ({ person: p.person, summary: p.summary, goal_updates: p.updates, check_ins: p.days.map((d) => d.checkIn) })),
    });
  }
  if (opts.format === 'html') {
    const calendars = [...figures.values()].map((f) => f.cells);
    const page = reportHtml(model, figures, { days: teamCalendar(calendars, { since, until }), weeks: weeks(calendars.flat()) });
    if (!opts.open) return ctx.io.out(page);
    const file = await writeReportFile(ctx, page, since, until);
    return openInBrowser(ctx.io, ctx.env, pathToFileURL(file).href);
  }
  if (opts.format === 'csv') return ctx.io.out(reportCsv(model));
  const md = reportMarkdown(model);
  ctx.io.out(ctx.io.stdoutIsTTY ? markdownAtTerminal(md, ctx.io.columns) : md);
}

/** The period's newest word: the latest moment a check-in in it was filled or changed, or a goal update made or changed ("" when it holds none). */
function newestWord(people: ReportPerson[]): string {
  let newest = '';
  let at = -Infinity;
  const see = (v: unknown) => {
    const t = typeof v === 'string' ? Date.parse(v) : NaN;
    if (!Number.isNaN(t) && t > at) [at, newest] = [t, new Date(t).toISOString()];
  };
  for (const p of people) {
    for (const d of p.days) if (d.checkIn.completed_at) [d.checkIn.completed_at, d.checkIn.updated_at].forEach(see);
    for (const u of p.updates) [u.created_at, (u as { updated_at?: unknown }).updated_at].forEach(see);
  }
  return newest;
}

/** --post: the digest in the chat's own shape, one POST (kept as a draft until the chat accepts it); with --if-new, only when the period holds a newer word than the last post's. */
async function postDigest(
  ctx: Context,
  hook: Webhook,
  digest: Digest,
  period: { since: string; until: string; newest: string; blocks: boolean; ifNew: boolean },
): Promise<void> {
  const { since, until, newest } = period;
  if (period.ifNew) {
    const last = lastPost(ctx, hook);
    if (!somethingNew(newest, last)) {
      const why = newest === '' ? 'nothing was checked in or updated in the period' : `nothing new since the last post, ${whenLabel(last!.posted_at)}`;
      ctx.io.err(`Not posted to ${hook.label} (--if-new): ${why}.\n`);
      return;
    }
  }
  const body =
    hook.service === 'slack' && period.blocks
      ? webhookBody('slack', '', digestBlocks(digest))
      : webhookBody(hook.service, digestText(digest, DIALECT[hook.service], TEXT_LIMIT[hook.service]));
  await sayPosted(ctx.io, ctx.now(), await postToWebhook(ctx, hook, body, {}, { since, until, newest }));
}

/** How each chat reads the digest's text. */
const DIALECT: Record<ChatService, Dialect> = { slack: 'mrkdwn', discord: 'discord', mattermost: 'markdown' };

/** --post --resume: each post kept for this webhook, oldest first, sent once; each said as it goes. */
async function resumePosts(ctx: Context, hook: Webhook): Promise<void> {
  const given = hook.where === 'flag' ? hook.url : undefined;
  dropRepeatedPosts(ctx, hook);
  const target = { kind: 'webhook-post' as const, hook: hook.hook, ...(given !== undefined && { given: true as const }) };
  await resumeEach(ctx, target, `a post to ${hook.label}`, ctx.advice?.resume(target) ?? resumeCommand(target), async (entry, keeping) => {
    const posted = await postKept(ctx, entry, keeping, given);
    await sayPosted(ctx.io, ctx.now(), posted);
    return posted;
  });
}

/** How many pages `--open` keeps in the cache folder's reports/: the newest; each run removes the older ones. */
export const KEPT_REPORTS = 10;

/**
 * The page for --open: a new 0600 file in checkin's cache folder (reports/, 0700), named by the
 * period and the time; then only the newest KEPT_REPORTS pages are kept there (the one just written
 * always), so the folder does not grow run after run.
 */
async function writeReportFile(ctx: Context, page: string, since: string, until: string): Promise<string> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const dir = join(checkinPaths(ctx.env).cache, 'reports');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stem = `report-${since}-${until}-${ctx.now().getTime()}`;
  let file = '';
  // Two runs in the same millisecond: the next free name (a few tries at most).
  for (let n = 0; !file; n++) {
    const name = join(dir, `${stem}${n ? `-${n}` : ''}.html`);
    try {
      await writeFile(name, page, { mode: 0o600, flag: 'wx' });
      file = name;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 20) throw err;
    }
  }
  await pruneReports(dir, file);
  ctx.io.err(`The page is ${file} (the newest ${KEPT_REPORTS} are kept there)\n`);
  return file;
}

/** Removes all but the newest KEPT_REPORTS pages (regular files named report-….html; nothing else) of `dir`; `keep` stays. Best effort, bounded. */
async function pruneReports(dir: string, keep: string): Promise<void> {
  const { lstat, opendir, unlink } = await import('node:fs/promises');
  const pages: Array<{ path: string; at: number }> = [];
  try {
    const folder = await opendir(dir);
    let read = 0;
    for await (const entry of folder) {
      // A folder stuffed with other files is not read to its end.
      if (++read > 1000) break;
      if (!/^report-.*\.html$/.test(entry.name)) continue;
      const path = join(dir, entry.name);
      if (path === keep) continue;
      const info = await lstat(path).catch(() => undefined);
      if (info?.isFile()) pages.push({ path, at: info.mtimeMs });
    }
  } catch {
    return;
  }
  pages.sort((a, b) => b.at - a.at || (a.path < b.path ? 1 : -1));
  for (const old of pages.slice(KEPT_REPORTS - 1)) await unlink(old.path).catch(() => undefined);
}
