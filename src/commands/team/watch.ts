// `checkin team --watch`: today's wall of my teams, kept up to date on a terminal. The service is
// polled with conditional requests (a 304 leaves the wall as it is: only its footer's time moves),
// at the interval asked for or slower when the RateLimit headers say the person's budget is low;
// a failed refresh is shown in the footer over the last good wall. Every wait goes through
// ctx.sleep with a signal, and the screen is given back on every way out: q, Ctrl-C, a signal
// (through io.onStop), an error. In the accessible mode (io.accessible) nothing is redrawn: the
// wall is written once as lines, and then each change as new lines under it (ui/wall.ts
// wallAsLines, wallChanges); a check that changed nothing says so only when `r` asked for it.

import { getTeam, pollCheckIns, pollGoals } from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import { itemsOf, nextPoll, type Pace, type Polled } from '../../api/poll.js';
import type { Headers } from '../../api/transport.js';
import type { CheckIn, Goal, Team } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { today } from '../../domain/days.js';
import { makeColors } from '../../ui/color.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { sentences } from '../../ui/wrap.js';
import { openKeys, openLiveScreen, type ScreenEvents } from '../../ui/screen.js';
import { unicodeLocale, wallAsLines, wallChanges, wallFooter, wallLines, wallScreen, type WallData, type WallStatus, type WallView } from '../../ui/wall.js';
import { teamDays } from '../../core/member-states.js';
import { teamIdsOf } from '../../domain/team-day.js';
import { blockerHistory } from '../../domain/blocker-history.js';
import type { BlockerRun } from '../../core/blockers.js';
import { WATCH_INTERVAL_S } from './interval.js';

export interface WatchOptions {
  team?: string[];
  interval?: number;
  json?: unknown;
  date?: string;
}

/** `r` refreshes at once, but never sooner than this after the last refresh. */
const MIN_GAP_MS = 2000;
/** After failures in a row, the interval is doubled up to this many times. */
const MAX_BACKOFF = 8;

/** Keys typed (several may come at once); an escape sequence (an arrow…) is no key of the wall's. */
const typed = (keys: string, wanted: RegExp) => !keys.startsWith('\x1b') && wanted.test(keys);

export async function runWatch(ctx: Context, opts: WatchOptions): Promise<void> {
  if (!ctx.io.stdoutIsTTY || !ctx.io.stdinIsTTY) {
    throw new UsageError('--watch draws a live screen and needs a terminal; for a pipe or a script, run `checkin team` (or `checkin team --json`)');
  }
  if (opts.json) throw new UsageError('--watch draws a screen, --json prints once: give one of them');
  if (opts.date !== undefined) throw new UsageError("--watch shows today's check-ins: leave out --date");
  const intervalS = opts.interval ?? WATCH_INTERVAL_S;
  const intervalMs = intervalS * 1000;

  const teamIds = await teamIdsOf(ctx, opts.team);
  if (teamIds.length === 0) {
    ctx.io.err('You are in no team.\n');
    return;
  }
  const api = await ctx.api();
  let teams: Team[] = [];
  let date = '';
  let checkIns: Polled<CheckIn> | undefined;
  let goals: Polled<Goal> | undefined;
  let lastHeaders: Headers | undefined;
  let cost = 2;
  /** The blocked check-ins counted so far today: their words then, and their run. */
  const counted = new Map<string, { words: string | null | undefined; run: BlockerRun | undefined }>();

  /** One refresh: true when what the wall shows changed. */
  const refresh = async (): Promise<boolean> => {
    const day = await today(ctx);
    // A new day: who is in the teams is asked again, and the check-ins of the new date. Nothing is
    // kept of a refresh that failed half-way: the wall stays as it was.
    const newDay = day !== date;
    const people = newDay ? await Promise.all(teamIds.map((id) => getTeam(api, id))) : teams;
    const a = await pollCheckIns(api, { since: day, until: day, team_ids: teamIds }, newDay ? undefined : checkIns);
    const b = await pollGoals(api, { team_ids: teamIds }, goals);
    // How long each blocker has stood: asked (one list) only for a blocked check-in not counted yet, or whose words changed.
    const blocked = itemsOf(a.list).filter((x) => x.date === day && x.blocked);
    const fresh = blocked.filter((x) => newDay || counted.get(x.id)?.words !== x.blockers);
    const found = fresh.length > 0 ? await blockerHistory(ctx, day, fresh) : new Map<string, BlockerRun>();
    if (newDay) counted.clear();
    // Every one asked about is counted, with a run or without one (words with no countable blocker):
    // it is not asked about again until its words change.
    for (const x of fresh) counted.set(x.id, { words: x.blockers, run: found.get(x.id) });
    [teams, date, checkIns, goals] = [people, day, a.list, b.list];
    const headers = [...a.headers, ...b.headers];
    // The history request counts toward the pace too when one was sent.
    cost = headers.length + (fresh.length > 0 ? 1 : 0);
    lastHeaders = headers.at(-1);
    return newDay || a.changed || b.changed;
  };

  // The first refresh before the screen opens: a refusal (a token, a team) ends the command as any other would.
  await refresh();
  const c = await makeColors(ctx.io.colorLevel);
  const unicode = unicodeLocale(ctx.env);
  const plain = ctx.io.accessible;
  const view = (): WallView => ({ c, rich: true, width: screen ? screen.size().columns : ctx.io.columns, now: ctx.now(), unicode });
  const profile = ctx.config().profileToName();
  const data = (): WallData => ({
    date,
    ...(profile !== undefined && { profile }),
    teams: teamDays(teams, itemsOf(checkIns!), date, new Map([...counted].flatMap(([id, x]) => (x.run ? [[id, x.run] as const] : [])))),
    goals: itemsOf(goals!),
  });

  const quit = new AbortController();
  let wake = new AbortController();
  let asked = false;
  let resized = false;
  const events: ScreenEvents = {
    key(keys) {
      if (typed(keys, /[qQ\x03]/)) {
        quit.abort();
        wake.abort();
      } else if (typed(keys, /[rR]/)) {
        asked = true;
        wake.abort();
      }
    },
    resize() {
      resized = true;
      wake.abort();
    },
  };
  // Lines need no screen: only the keys are read.
  const screen = plain ? undefined : openLiveScreen(ctx.io, events);
  const keys = plain ? openKeys(ctx.io, events) : undefined;
  // While the wall has the screen, a line for stderr (a retry notice, a warning) would scroll it:
  // such lines are held, and written once the screen is given back. Written as lines, the wall
  // lets them through as they come.
  const err = ctx.io.err;
  const held: string[] = [];
  if (screen) ctx.io.err = (text: string) => void held.push(text);
  const giveBack = () => {
    screen?.restore();
    keys?.restore();
    if (ctx.io.err === err) return;
    ctx.io.err = err;
    for (const text of held.splice(0)) err.call(ctx.io, text);
  };
  // A signal (SIGTERM, SIGHUP, an outside SIGINT) ends the process: the screen is given back first.
  ctx.io.onStop(() => {
    giveBack();
    return undefined;
  });
  const quitting = new Promise<'quit'>((resolve) => quit.signal.addEventListener('abort', () => resolve('quit'), { once: true }));

  try {
    let lastAt = ctx.now();
    let pace: Pace = nextPoll(lastHeaders, intervalMs, cost);
    const status: WallStatus = { updatedAt: lastAt, checkedAt: lastAt, nextAt: new Date(lastAt.getTime() + pace.delayMs), slowed: pace.slowed, intervalS };
    let failures = 0;
    const shows = screen ? onScreen(screen, view, data, status) : asLines(ctx, data, status);
    shows.wall(false);

    while (!quit.signal.aborted) {
      const dueAt = asked ? lastAt.getTime() + Math.max(MIN_GAP_MS, pace.slowed ? pace.delayMs : 0) : status.nextAt.getTime();
      const wait = dueAt - ctx.now().getTime();
      if (wait > 0) await ctx.sleep(wait, wake.signal);
      if (quit.signal.aborted) break;
      if (wake.signal.aborted) {
        wake = new AbortController();
        if (resized) {
          resized = false;
          shows.resized();
        }
        if (!asked || ctx.now().getTime() < dueAt) continue;
      }
      // Never before it is due, however the wait ended (a sleep may end early).
      if (ctx.now().getTime() < dueAt) continue;
      const askedNow = asked;
      asked = false;
      // Quitting does not wait for an answer still on its way (closing the client ends it).
      const outcome = await Promise.race([
        refresh().then(
          (changed) => ({ changed }),
          (error: unknown) => ({ error }),
        ),
        quitting,
      ]);
      if (outcome === 'quit') break;
      lastAt = ctx.now();
      if ('error' in outcome) {
        failures++;
        const e = outcome.error;
        // An API error without its request (always the same few on this screen): its status and what the service said.
        const message = e instanceof ApiError ? e.message.replace(`${e.method} ${e.path}: `, '') : e instanceof Error ? e.message : String(e);
        status.failure = { at: lastAt, message: sanitizeLine(message) };
        // Tried again later each time (up to MAX_BACKOFF intervals); `r` still tries at once.
        const budget = nextPoll(lastHeaders, intervalMs, cost);
        pace = { delayMs: Math.max(budget.delayMs, intervalMs * Math.min(2 ** failures, MAX_BACKOFF)), slowed: budget.slowed };
      } else {
        failures = 0;
        delete status.failure;
        status.checkedAt = lastAt;
        if (outcome.changed) status.updatedAt = lastAt;
        pace = nextPoll(lastHeaders, intervalMs, cost);
        status.nextAt = new Date(lastAt.getTime() + pace.delayMs);
        status.slowed = pace.slowed;
        // A 304 changes nothing on the wall: only the footer says it was checked.
        if (outcome.changed) shows.wall(askedNow);
        else shows.checked(askedNow);
        continue;
      }
      status.nextAt = new Date(lastAt.getTime() + pace.delayMs);
      status.slowed = false;
      shows.checked(askedNow);
    }
  } finally {
    giveBack();
  }
}

/** How the wall is shown: what each moment of the loop writes. */
interface Shows {
  /** The wall's data changed (or it is the first time); `asked`: `r` asked for this refresh. */
  wall(asked: boolean): void;
  /** A refresh that changed nothing, or failed (status.failure says). */
  checked(asked: boolean): void;
  resized(): void;
}

/** On the alternate screen: the whole frame redrawn when the wall changes, else the footer's row alone. */
function onScreen(screen: ReturnType<typeof openLiveScreen>, view: () => WallView, data: () => WallData, status: WallStatus): Shows {
  const drawAll = () => {
    const v = view();
    screen.draw(wallScreen(v, wallLines(v, data()), wallFooter(v, status), screen.size().rows));
  };
  return {
    wall: drawAll,
    checked: () => screen.drawRow(screen.size().rows, wallFooter(view(), status)),
    resized: drawAll,
  };
}

const time = (d: Date) => d.toTimeString().slice(0, 8);

/**
 * As lines (the accessible mode): the wall once, then what changed, each a new line; a failed
 * refresh said once (and again when the reason changes), the recovery, the pace slowed or back;
 * a refresh that changed nothing said only when `r` asked for it. Nothing is ever redrawn.
 */
function asLines(ctx: Context, data: () => WallData, status: WallStatus): Shows {
  // Cut at word edges to the terminal's width: a row a screen reader reads is never cut mid-word.
  const say = (line: string) => ctx.io.out(sentences(`${line}\n`, ctx.io));
  let shown: WallData | undefined;
  let failed: string | undefined;
  // Slowed from the start (a budget other commands spent) is said under the wall too.
  let slowed = false;
  const pace = () => {
    if (status.failure || status.slowed === slowed) return;
    slowed = status.slowed;
    say(slowed ? `Refreshing less often, next at ${time(status.nextAt)}: the rate budget is low.` : `Refreshing every ${status.intervalS} s again.`);
  };
  const recovered = () => {
    if (failed === undefined) return;
    failed = undefined;
    say(`Refreshed again at ${time(status.checkedAt)}.`);
  };
  return {
    wall(asked) {
      recovered();
      const now = data();
      if (!shown || shown.date !== now.date) {
        const head = shown ? `A new day, ${now.date}: the wall at ${time(status.updatedAt)}.` : `The wall at ${time(status.updatedAt)}.`;
        say(`${head} Refreshed every ${status.intervalS} s; what changes is written below. Keys: q quits, r refreshes now.`);
        for (const line of wallAsLines(now)) say(line);
      } else {
        const changes = wallChanges(shown, now);
        if (changes.length > 0) {
          say(`Changed at ${time(status.updatedAt)}:`);
          for (const line of changes) say(`  ${line}`);
        } else if (asked) say(`Checked at ${time(status.checkedAt)}: nothing changed.`);
      }
      shown = now;
      pace();
    },
    checked(asked) {
      const f = status.failure;
      if (f) {
        if (f.message !== failed || asked)
          say(
            `Refresh failed at ${time(f.at)}: ${f.message}. Still showing the wall of ${time(status.updatedAt)}; next try at ${time(status.nextAt)} (r tries now).`,
          );
        failed = f.message;
        return;
      }
      recovered();
      if (asked) say(`Checked at ${time(status.checkedAt)}: nothing changed.`);
      pace();
    },
    resized() {},
  };
}
