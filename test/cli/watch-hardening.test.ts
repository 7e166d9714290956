// `checkin team --watch` against a RateLimit header that lies (a proxy adding a reset ~3000 years
// away): the reset is taken as at most the window's length, a sleep of any length never ends early
// (setTimeout fires after 1 ms above 2^31 - 1 ms), and a wait that ends early never polls before
// it is due. Driven in-process on a fake clock against the sandbox (test/cli/team-watch-poll.test.ts).
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_RESET_S, nextPoll } from '../../src/api/poll.js';
import { createContext, MAX_TIMER_MS } from '../../src/context.js';
import { run } from '../../src/main.js';
import { DEFAULT_WINDOWS } from '../../src/sandbox/ratelimit.js';
import { useWorld } from '../helpers/harness.js';
import { bufferIO } from '../helpers/io.js';

const w = useWorld({ rateLimit: DEFAULT_WINDOWS });
const TEN_MINUTES = 10 * 60_000;
const LIE = '"burst";r=0;t=99999999999';

/** A goals answer (an empty list, as the service's) whose RateLimit header says the window resets in ~3000 years. */
const lyingGoals = (policy?: string) => ({
  method: 'GET',
  path: '/goals',
  status: 200,
  headers: { 'content-type': 'application/json', ratelimit: LIE, ...(policy !== undefined && { 'ratelimit-policy': policy }) },
  body: '[]',
});

/**
 * Runs `checkin team --watch` until the fake clock has moved `forMs` (or after 2,000 waits, so that
 * a loop that polls without waiting still ends), then presses q. `advance` is how far one wait of
 * `ms` moves the clock: all of it by default.
 */
async function watch(forMs: number, advance: (ms: number) => number = (ms) => ms) {
  const io = bufferIO({ tty: true, columns: 100 });
  Object.assign(io.stdout, { columns: 100, rows: 40 });
  const t0 = w.clock.now().getTime();
  let waits = 0;
  const ctx = createContext({
    io,
    env: w.env,
    now: w.clock.now,
    sleep: async (ms) => {
      await w.clock.sleep(advance(ms));
      waits++;
      if (w.clock.now().getTime() - t0 >= forMs || waits >= 2000) (io.stdin as PassThrough).write('q');
    },
    secrets: () => 'no keychain in the tests',
  });
  const code = await run(['team', '--watch'], ctx);
  return { code, stderr: io.stderrText(), waits };
}

/** The polls of the day's check-ins (not the one look at the days before of the demo's blocked Linus). */
const polls = () => w.sb.requests.filter((r) => r.path.endsWith('/check-ins') && !decodeURIComponent(r.query).includes('people_ids[]'));

describe('team --watch when the RateLimit header lies', () => {
  it('without a policy: the reset is taken as an hour at most; the first refresh, then nothing for ten minutes', async () => {
    w.sb.inject(...Array.from({ length: 50 }, () => lyingGoals()));
    // setTimeout's way with a wait it cannot hold: after 1 ms (what the watch's sleep did).
    const r = await watch(TEN_MINUTES, (ms) => (ms > MAX_TIMER_MS ? 1 : ms));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // The first refresh: me, the two teams, check-ins, the days before of the one blocked, goals (the one that lied).
    expect(w.sent()).toHaveLength(6);
    expect(polls()).toHaveLength(1);
    expect(w.clock.slept).toEqual([(MAX_RESET_S + 1) * 1000]);
  });

  it('with a policy: the reset is taken as the window at most (10 s), so the wall polls at its interval', async () => {
    w.sb.inject(...Array.from({ length: 50 }, () => lyingGoals('"burst";q=30;w=10, "sustained";q=500;w=1800')));
    const r = await watch(TEN_MINUTES, (ms) => (ms > MAX_TIMER_MS ? 1 : ms));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // Every 30 s from 0 until q at ten minutes, as with an honest header: 20 polls of check-ins and goals each.
    expect(polls()).toHaveLength(20);
    expect(w.sent()).toHaveLength(6 + 2 * 19); // the first refresh asked the days before of the one blocked too
    expect(w.sb.requests.filter((q) => q.status === 429)).toEqual([]);
  });

  it('a wait that ends early is waited again: no poll before it is due', async () => {
    // Each wait moves the clock 7 s at most (a timer that fired early, a wake-up with nothing to do).
    const r = await watch(TEN_MINUTES, (ms) => Math.min(ms, 7_000));
    expect(r.code).toBe(0);
    // Every 30 s from 0 until q at ten minutes, as when each wait is whole.
    expect(polls()).toHaveLength(20);
    // Each 30 s is waited out in 5 waits (7 + 7 + 7 + 7 + 2 s).
    expect(w.clock.slept).toEqual(Array.from({ length: 20 }, () => [7_000, 7_000, 7_000, 7_000, 2_000]).flat());
    expect(r.waits).toBe(100);
  });
});

describe('nextPoll never believes a reset beyond the window', () => {
  it('the policy window, else MAX_RESET_S; an honest reset is as it was', () => {
    expect(nextPoll({ ratelimit: LIE }, 30_000, 2)).toEqual({ delayMs: (MAX_RESET_S + 1) * 1000, slowed: true });
    expect(nextPoll({ ratelimit: LIE, 'ratelimit-policy': '"burst";q=30;w=10' }, 30_000, 2)).toEqual({ delayMs: 30_000, slowed: false });
    expect(nextPoll({ ratelimit: '"sustained";r=0;t=99999999999', 'ratelimit-policy': '"sustained";q=500;w=1800' }, 30_000, 2)).toEqual({
      delayMs: 1_801_000,
      slowed: true,
    });
    expect(nextPoll({ ratelimit: '"sustained";r=0;t=1200', 'ratelimit-policy': '"sustained";q=500;w=1800' }, 30_000, 2)).toEqual({
      delayMs: 1_201_000,
      slowed: true,
    });
  });
});

describe("the context's own sleep, longer than one timer can hold", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the whole time, in timers of at most 2^31 - 1 ms, with no TimeoutOverflowWarning; abort and close() still end it', async () => {
    vi.useFakeTimers();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const set = vi.spyOn(globalThis, 'setTimeout');
    try {
      const ctx = createContext({ io: bufferIO(), env: {} });
      let ended = false;
      const long = MAX_TIMER_MS * 2 + 5_000;
      void ctx.sleep(long).then(() => (ended = true));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(long - 1_001);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(ended).toBe(true);
      expect(set.mock.calls.map((c) => c[1])).toEqual([MAX_TIMER_MS, MAX_TIMER_MS, 5_000]);

      // The wall's old wait (~3000 years): not over a day later, and ended at once by its signal.
      const stop = new AbortController();
      let stopped = false;
      void ctx.sleep(99_999_999_999_000, stop.signal).then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(86_400_000);
      expect(stopped).toBe(false);
      stop.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(true);
      expect(vi.getTimerCount()).toBe(0);

      // close() releases a long wait between its timers too.
      void ctx.sleep(long);
      await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1);
      expect(vi.getTimerCount()).toBe(1);
      await ctx.close();
      expect(vi.getTimerCount()).toBe(0);
      expect(set.mock.calls.every((c) => (c[1] ?? 0) <= MAX_TIMER_MS)).toBe(true);
      await Promise.resolve();
      expect(warnings).toEqual([]);
    } finally {
      // Restored and forgotten: a spy's own mockRestore leaves it on vitest's list, which restores it
      // again when the file ends (vitest 4.1) — to the fake clock's setTimeout it wrapped, which then
      // never fires for the next file in the same process (git-guest's deadline hung, --no-isolate).
      vi.restoreAllMocks();
      process.off('warning', onWarning);
    }
  });
});
