// `checkin team --watch` driven in-process on a fake clock against the sandbox (its rate limits
// on, its clock the same): ten simulated minutes of polling, counted in the sandbox's request log
// and in the frames drawn. The budget is never exceeded, a 304 redraws nothing (only the footer's
// row), a change redraws the wall once, and a budget spent by other commands slows the wall down.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { nextPoll, RESERVED_SHARE } from '../../src/api/poll.js';
import { createContext } from '../../src/context.js';
import { run } from '../../src/main.js';
import { DEFAULT_WINDOWS } from '../../src/sandbox/ratelimit.js';
import { FRAME_START } from '../../src/ui/screen.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { bufferIO } from '../helpers/io.js';
import { cursorSequences } from '../helpers/terminal.js';

const times: number[] = [];
const w = useWorld({ rateLimit: DEFAULT_WINDOWS, onRequest: () => times.push(w.clock.now().getTime()) });
const TEN_MINUTES = 10 * 60_000;
const ROWS = 40;

interface Watch {
  code: number;
  /** Everything written to the terminal, raw. */
  raw: string;
  stderr: string;
  /** Each stderr write, and whether the alternate screen had been left by then. */
  errs: Array<{ text: string; afterScreen: boolean }>;
  frames: number;
  /** What went through io.out: the accessible mode's lines. */
  lines: string;
}

/**
 * Runs `checkin team --watch …` on a 100 × 40 terminal until the fake clock has moved `forMs`, then
 * presses q; `at` runs once the clock has passed each of its times (in ms from the start), given the
 * terminal's streams.
 */
async function watch(
  args: string[],
  forMs: number,
  at: Array<[number, (io: ReturnType<typeof bufferIO>) => Promise<void>]> = [],
  columns = 100,
  accessible = false,
): Promise<Watch> {
  const io = bufferIO({ tty: true, columns, accessible });
  Object.assign(io.stdout, { columns, rows: ROWS });
  let raw = '';
  io.stdout.on('data', (d: Buffer) => (raw += d.toString()));
  const errs: Watch['errs'] = [];
  const err = io.err.bind(io);
  io.err = (text: string) => {
    errs.push({ text, afterScreen: raw.includes('\x1b[?1049l') });
    err(text);
  };
  const t0 = w.clock.now().getTime();
  const pending = [...at];
  const ctx = createContext({
    io,
    env: w.env,
    now: w.clock.now,
    sleep: async (ms) => {
      await w.clock.sleep(ms);
      const elapsed = w.clock.now().getTime() - t0;
      while (pending.length && pending[0]![0] <= elapsed) await pending.shift()![1](io);
      if (elapsed >= forMs) (io.stdin as PassThrough).write('q');
    },
    secrets: () => 'no keychain in the tests',
  });
  const code = await run(['team', '--watch', ...args], ctx);
  return { code, raw, stderr: io.stderrText(), errs, frames: raw.split(FRAME_START).length - 1, lines: io.stdoutText() };
}

/** The most requests the log shows within any `seconds` window. */
function busiest(seconds: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= seconds * 1000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

async function fill(intentions: string): Promise<void> {
  const res = await fetch(`${w.sb.url}/check-ins/${TODAY}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${w.sb.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ intentions }),
  });
  expect(res.status).toBe(200);
}

/** The polls of the day's check-ins (not the one look at the days before of a blocked person: see the last test). */
const isHistory = (r: { query: string }) => decodeURIComponent(r.query).includes('people_ids[]');
const polls = () => w.sb.requests.filter((r) => r.path.endsWith('/check-ins') && !isHistory(r));
const footerRows = (raw: string) => raw.split(`\x1b[${ROWS};1H`).length - 1;

describe('team --watch: polling on a fake clock', () => {
  it('ten minutes at the default interval: within budget, every poll conditional, a 304 redraws nothing, a change redraws once', async () => {
    times.length = 0;
    const r = await watch([], TEN_MINUTES, [[5 * 60_000, () => fill('Pair on the wall with Grace')]]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(w.sb.requests.filter((q) => q.status === 429)).toEqual([]);
    // Every 30 s from 0 until q at ten minutes: 20 polls of check-ins and goals each.
    expect(polls()).toHaveLength(20);
    // After the first, every poll sends the ETag it was given; all are 304 but the one after the change.
    const later = w.sb.requests.filter((q) => /\/(check-ins|goals)$/.test(q.path) && !isHistory(q)).slice(2);
    expect(later.every((q) => typeof q.headers['if-none-match'] === 'string')).toBe(true);
    expect(later.filter((q) => q.status === 200).map((q) => q.path)).toEqual(['/api/v2/check-ins']);
    expect(later.filter((q) => q.status === 304)).toHaveLength(later.length - 1);
    // One frame at the start and one for the change: the 18 other polls (all 304) moved only the footer.
    expect(r.frames).toBe(2);
    expect(footerRows(r.raw) - r.frames).toBe(18); // the footer's row alone (a frame addresses it too)
    expect(r.raw).toContain('Pair on the wall with Grace');
    expect(busiest(10)).toBeLessThanOrEqual(30);
    expect(times.length).toBeLessThanOrEqual(DEFAULT_WINDOWS[1]!.limit * (1 - RESERVED_SHARE));
    // The screen is given back at the end.
    expect(r.raw.endsWith('\x1b[?25h\x1b[?1049l')).toBe(true);
  });

  it('ten minutes at the shortest interval: slowed by the headers to leave the reserved share, never a 429', async () => {
    times.length = 0;
    const r = await watch(['--interval', '10'], TEN_MINUTES);
    expect(r.code).toBe(0);
    expect(w.sb.requests.filter((q) => q.status === 429)).toEqual([]);
    // 500 a half hour, 40 % kept for other commands, 2 requests a poll: one poll every 12.1 s at most.
    const at = polls().map((_, i) => i);
    expect(at.length).toBeGreaterThan(40);
    expect(at.length).toBeLessThanOrEqual(Math.floor(TEN_MINUTES / 12_000) + 1);
    expect(r.raw).toContain('slowed: rate budget low');
    expect(busiest(10)).toBeLessThanOrEqual(30);
    expect(busiest(1800)).toBeLessThanOrEqual(DEFAULT_WINDOWS[1]!.limit * (1 - RESERVED_SHARE));
  });

  it("a budget other commands have spent: the wall waits for the window's reset instead of taking the rest", async () => {
    times.length = 0;
    // 330 requests of the person's other commands in the first two minutes (30 each 10 s).
    for (let i = 0; i < 11; i++) {
      await Promise.all(Array.from({ length: 30 }, () => fetch(`${w.sb.url}/me`, { headers: { authorization: `Bearer ${w.sb.token}` } })));
      await w.clock.sleep(10_000);
    }
    const spent = times.length;
    const r = await watch(['--interval', '10'], TEN_MINUTES);
    expect(r.code).toBe(0);
    expect(w.sb.requests.filter((q) => q.status === 429)).toEqual([]);
    // The first refresh (me, two teams, check-ins, the days before of the one blocked, goals), then nothing until the half hour resets.
    expect(times.length - spent).toBe(6);
    expect(r.raw).toContain('slowed: rate budget low');
    expect(r.frames).toBe(1);
  });

  it('a failed refresh is said in the footer over the last good wall, tried again later, and cleared by the next good one', async () => {
    const r = await watch([], 4 * 60_000, [
      [60_000, async () => w.sb.inject({ method: 'GET', path: '/check-ins', status: 500, body: '{"error":"internal","message":"Database on fire"}' })],
    ]);
    expect(r.code).toBe(0);
    const checks = polls().map((q) => q.status);
    // The poll at one minute failed; the next came two intervals later, then every 30 s again.
    expect(checks).toEqual([200, 304, 500, 304, 304, 304, 304]);
    expect(r.frames).toBe(1);
    const footers = r.raw
      .split(`\x1b[${ROWS};1H\x1b[2K`)
      .slice(1)
      .map((f) => f.replace(/\x1b\[[?0-9;]*[A-Za-z][\s\S]*$/, ''));
    expect(footers[2]).toBe('refresh failed 09:31:00 (showing 09:30:00): 500 Internal Server Error: Database on fire');
    expect(footers[3]).toMatch(/^updated 09:30:00 · checked 09:32:00 · next 09:32:30/);
  });

  it('a retry notice waits until the screen is given back: nothing is written over the wall', async () => {
    // A 503 once: the client says it retries, and does.
    const r = await watch([], 3 * 60_000, [
      [60_000, async () => w.sb.inject({ method: 'GET', path: '/check-ins', status: 503, body: '{"error":"unavailable","message":"Back soon"}' })],
    ]);
    expect(r.code).toBe(0);
    expect(polls().map((q) => q.status)).toContain(503);
    expect(r.errs.filter((x) => /retrying in/.test(x.text)).length).toBeGreaterThan(0);
    expect(r.errs.filter((x) => !x.afterScreen)).toEqual([]);
  });

  it("past midnight: the next day's check-ins, and who is in the teams asked again", async () => {
    // A whole day of hourly polls: midnight passes in whatever zone the person's day is in.
    const r = await watch(['--interval', '3600'], 24 * 3600_000);
    expect(r.code).toBe(0);
    const teamGets = w.sb.requests.filter((q) => /\/teams\/[^/]+$/.test(q.path)).length;
    // Two teams, asked for on the first day and again on the second.
    expect(teamGets).toBe(4);
    const days = polls().map((q) => q.params.find(([k]) => k === 'since')![1]);
    const first = days.indexOf('2026-11-23');
    expect(first).toBeGreaterThan(0);
    expect(days).toEqual([...Array<string>(first).fill(TODAY), ...Array<string>(days.length - first).fill('2026-11-23')]);
    expect(r.frames).toBe(2);
    expect(r.raw.split(FRAME_START)[2]).toContain('2026-11-23');
  });

  it('a resize redraws the wall at the new width, by the width rule', async () => {
    // 120 columns, then 60 after the first wait; a minute on, nothing has changed: the last frame
    // drawn is the resized one.
    const resize = async (io: ReturnType<typeof bufferIO>) => {
      Object.assign(io.stdout, { columns: 60 });
      io.stdout.emit('resize');
    };
    const r = await watch([], 60_000, [[1, resize]], 120);
    expect(r.code).toBe(0);
    expect(r.frames).toBe(2);
    const frame = r.raw.split(FRAME_START).at(-1)!;
    const rows = frame.split(/\x1b\[\d+;1H/).map((l) => l.replace(/\x1b\[[?0-9;]*[A-Za-z]/g, ''));
    expect(rows.some((l) => l.includes('PERSON'))).toBe(true);
    for (const l of rows) expect([...l].length, l).toBeLessThanOrEqual(60);
  });
});

describe('team --watch in the accessible mode: the wall as lines, on a fake clock', () => {
  it('ten minutes: the wall written once, the one change as new lines, the 304s silent; the same polls as the screen; no screen, no cursor movement', async () => {
    const r = await watch([], TEN_MINUTES, [[5 * 60_000, () => fill('Pair on the wall with Grace')]], 160, true);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(polls()).toHaveLength(20);
    // Nothing was written past io.out: no alternate screen, no frame, no footer row.
    expect(r.raw).toBe('');
    expect(cursorSequences(r.lines)).toEqual([]);
    const lines = r.lines.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'The wall at 09:30:00. Refreshed every 30 s; what changes is written below. Keys: q quits, r refreshes now.',
      'Team Platform, 2026-11-22: 1 blocked, 2 pending, 1 filled',
      '  Linus Torvalds: blocked 3 days, mood stressed, intends: Write up the retry numbers, blocked by: Waiting on @ada to review the webhook retry change',
    ]);
    expect(r.lines).not.toContain('PERSON');
    // After the wall, the one change and nothing else (sent without team_ids, it is shared with both of Ada's teams, as the spec says).
    expect(r.lines.slice(r.lines.indexOf('Changed at '))).toBe(
      'Changed at 09:35:00:\n  Platform: Ada Lovelace: filled, intends: Pair on the wall with Grace (was pending)\n  Mobile: Ada Lovelace: filled, intends: Pair on the wall with Grace (was nothing scheduled)\n',
    );
  });

  it('refreshes slowed by a low budget are said in a line, once; nothing at each poll', async () => {
    // 330 requests of the person's other commands in the first two minutes (30 each 10 s), as above.
    for (let i = 0; i < 11; i++) {
      await Promise.all(Array.from({ length: 30 }, () => fetch(`${w.sb.url}/me`, { headers: { authorization: `Bearer ${w.sb.token}` } })));
      await w.clock.sleep(10_000);
    }
    const r = await watch(['--interval', '10'], TEN_MINUTES, [], 160, true);
    expect(r.code).toBe(0);
    expect(w.sb.requests.filter((q) => q.status === 429)).toEqual([]);
    const after = r.lines
      .slice(r.lines.indexOf('Goals'))
      .split('\n')
      .slice(1)
      .filter((l) => !l.startsWith('  '));
    expect(after).toEqual([expect.stringMatching(/^Refreshing less often, next at \d\d:\d\d:\d\d: the rate budget is low\.$/), '']);
  });

  it('a failed refresh is said once, and so is the recovery', async () => {
    const r = await watch(
      [],
      4 * 60_000,
      [[60_000, async () => w.sb.inject({ method: 'GET', path: '/check-ins', status: 500, body: '{"error":"internal","message":"Database on fire"}' })]],
      160,
      true,
    );
    expect(r.code).toBe(0);
    expect(polls().map((q) => q.status)).toEqual([200, 304, 500, 304, 304, 304, 304]);
    const after = r.lines
      .slice(r.lines.indexOf('Goals'))
      .split('\n')
      .slice(1)
      .filter((l) => !l.startsWith('  '));
    expect(after).toEqual([
      'Refresh failed at 09:31:00: 500 Internal Server Error: Database on fire. Still showing the wall of 09:30:00; next try at 09:32:00 (r tries now).',
      'Refreshed again at 09:32:00.',
      '',
    ]);
  });
});

describe('nextPoll: the pace the RateLimit headers allow', () => {
  const h = (burst: [number, number], sustained: [number, number]) => ({
    ratelimit: `"burst";r=${burst[0]};t=${burst[1]}, "sustained";r=${sustained[0]};t=${sustained[1]}`,
    'ratelimit-policy': '"burst";q=30;w=10, "sustained";q=500;w=1800',
  });
  it('the interval while there is room, later as the budget runs low, the reset when nothing is spare', () => {
    expect(nextPoll(h([28, 10], [498, 1800]), 30_000, 2)).toEqual({ delayMs: 30_000, slowed: false });
    // 300 - 200 kept = 100 spare, 50 polls over 1500 s: one every 30 s.
    expect(nextPoll(h([28, 10], [300, 1500]), 30_000, 2)).toEqual({ delayMs: 30_000, slowed: false });
    expect(nextPoll(h([28, 10], [250, 1500]), 30_000, 2)).toEqual({ delayMs: 60_000, slowed: true });
    expect(nextPoll(h([28, 10], [201, 1500]), 30_000, 2)).toEqual({ delayMs: 1_501_000, slowed: true });
    // 500 a half hour at 2 a poll every 10 s is 360: more than the 300 left beyond the reserve.
    expect(nextPoll(h([28, 10], [498, 1800]), 10_000, 2)).toEqual({ delayMs: 12_081, slowed: true });
    // The burst window: 13 - 12 kept is no room for a poll of 2 before it resets.
    expect(nextPoll(h([16, 9], [498, 600]), 5_000, 2)).toEqual({ delayMs: 5_000, slowed: false });
    expect(nextPoll(h([13, 9], [498, 600]), 5_000, 2)).toEqual({ delayMs: 10_000, slowed: true });
    expect(nextPoll(undefined, 30_000, 2)).toEqual({ delayMs: 30_000, slowed: false });
  });
});

describe('team --watch: flags', () => {
  it('--interval goes with --watch, from 10 s; --watch takes neither --json nor --date; nothing is asked of the service', async () => {
    expect(await w.cli(['team', '--interval', '30'])).toEqual({ code: 2, stdout: '', stderr: 'error: --interval goes with --watch\n' });
    expect(await w.cli(['team', '--watch', '--interval', '5'], { tty: true })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--interval must be from 10 to 3600'),
    });
    expect(await w.cli(['team', '--watch', '--json'], { tty: true })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --watch draws a screen, --json prints once: give one of them\n',
    });
    expect(await w.cli(['team', '--watch', '--date', 'yesterday'], { tty: true })).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: --watch shows today's check-ins: leave out --date\n",
    });
    expect(await w.cli(['team', '--watch'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --watch draws a live screen and needs a terminal; for a pipe or a script, run `checkin team` (or `checkin team --json`)\n',
    });
    expect(w.sent()).toEqual([]);
  });
});

describe("the context's own sleep", () => {
  it('ends at once when its signal is aborted, and close() releases a wait left behind', async () => {
    const ctx = createContext({ io: bufferIO(), env: {} });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const stop = new AbortController();
    const waited = ctx.sleep(3_600_000, stop.signal);
    expect(timers()).toBe(before + 1);
    stop.abort();
    await waited;
    expect(timers()).toBe(before);
    void ctx.sleep(3_600_000); // a retry's wait nobody will resume
    expect(timers()).toBe(before + 1);
    await ctx.close();
    expect(timers()).toBe(before);
  });
});

describe('team --watch: a blocker that repeats', () => {
  it('the wall says "⚠ blocked 3 days"; the days before are asked once, not at every poll', async () => {
    times.length = 0;
    const r = await watch([], 5 * 60_000);
    expect(r.code).toBe(0);
    expect(r.raw).toContain('⚠ blocked 3 days');
    expect(w.sb.requests.filter(isHistory).map((q) => decodeURIComponent(q.query))).toEqual([
      `people_ids[]=${w.id('linus')}&since=2026-11-16&until=2026-11-21&page=1&per_page=50`,
    ]);
    expect(polls().length).toBeGreaterThan(5);
  });
});
