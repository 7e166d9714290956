// The pager on its own (a stand-in client, the unit layer): pages go out several at once within
// the announced budget, come back in any order, and are handed over in page order.
import { describe, expect, it } from 'vitest';
import { walkAll, type PageSource } from '../../src/api/paginate.js';
import { object, str, type Shape } from '../../src/api/validate.js';

/**
 * A client whose pages answer after page-dependent delays (later pages first), with a RateLimit
 * header (and RateLimit-Policy when given), on a clock that each answer moves by `latencyMs`.
 */
function fakeClient(total: number, remaining: (sent: number) => number, opts: { t?: number; policy?: string; latencyMs?: number } = {}) {
  let sent = 0;
  let clock = 0;
  let inFlight = 0;
  const seen = { maxInFlight: 0, inFlightAt: [] as number[], pages: [] as number[], slept: [] as number[] };
  const api: PageSource = {
    get: async <T>(_p: string, query: { readonly [name: string]: unknown }, shape: Shape<T>) => {
      const page = query.page as number;
      sent++;
      inFlight++;
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
      seen.inFlightAt.push(inFlight);
      seen.pages.push(page);
      const r = remaining(sent);
      await new Promise((res) => setImmediate(res));
      for (let i = 0; i < 20 - page; i++) await new Promise((res) => setImmediate(res)); // earlier pages answer later
      inFlight--;
      clock += opts.latencyMs ?? 0;
      const from = (page - 1) * 50;
      const items = Array.from({ length: Math.max(0, Math.min(50, total - from)) }, (_, i) => ({ id: `c${from + i}` }));
      expect(shape(items, 'the answer')).toBeUndefined();
      return { data: items as T, headers: { ratelimit: `"burst";r=${r};t=${opts.t ?? 2}`, ...(opts.policy && { 'ratelimit-policy': opts.policy }) } };
    },
    warn: () => undefined,
    refuseLongWait: () => undefined,
    sleep: async (ms: number) => {
      seen.slept.push(ms);
      clock += ms;
    },
    now: () => clock,
  };
  return { api, seen };
}

describe('walkAll', () => {
  it('keeps up to 8 pages in flight when the budget allows, and hands them over in order', async () => {
    const { api, seen } = fakeClient(620, () => 29);
    const got: string[] = [];
    const n = await walkAll<{ id: string }>(api, 'check-ins', object({ id: str }), {}, (items) => got.push(...items.map((i) => i.id)));
    expect(n).toBe(620);
    expect(got).toEqual(Array.from({ length: 620 }, (_, i) => `c${i}`));
    expect(seen.maxInFlight).toBe(8);
    expect(seen.pages.slice(0, 13).sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(seen.slept).toEqual([]);
  });

  it('never asks for more than the budget announces, and pauses when it is spent', async () => {
    // The service says 3 requests are left, then 2, 1 (one is kept in hand), then a fresh window.
    const { api, seen } = fakeClient(260, (sent) => (sent <= 3 ? 4 - sent : 30));
    const got: string[] = [];
    await walkAll<{ id: string }>(api, 'check-ins', object({ id: str }), {}, (items) => got.push(...items.map((i) => i.id)), { onPause: () => undefined });
    expect(got).toHaveLength(260);
    // While the window had 3, 2, 1 left: never more than 2 out at once, then a pause of the
    // window's reset, then (30 left) the full 8.
    expect(Math.max(...seen.inFlightAt.slice(0, 3))).toBeLessThanOrEqual(2);
    expect(seen.slept).toEqual([2000]);
    expect(seen.maxInFlight).toBeLessThanOrEqual(8);
  });

  it('pauses to the millisecond: a window one of its requests opened resets w seconds after that answer, not at the rounded-up t', async () => {
    // 5 a window of 10 s; every answer says t=10 (whole seconds, rounded up) and takes 40 ms.
    const remaining = (sent: number) => (sent <= 4 ? 5 - sent : 30);
    const withPolicy = fakeClient(260, remaining, { t: 10, latencyMs: 40, policy: '"burst";q=5;w=10' });
    await walkAll<{ id: string }>(withPolicy.api, 'check-ins', object({ id: str }), {}, () => undefined, { onPause: () => undefined });
    // Page 1 opened the window (r=4) and came back at 40 ms; 4 answers in, the clock reads 160 ms:
    // the window resets by 10,040 ms, so the pause is 9,880 ms.
    expect(withPolicy.seen.slept).toEqual([9880]);
    // Without the policy only t is known: 10 s from the answer that said r=1 (page 4's, which came
    // back before pages 3 and 2, at 80 ms).
    const withoutPolicy = fakeClient(260, remaining, { t: 10, latencyMs: 40 });
    await walkAll<{ id: string }>(withoutPolicy.api, 'check-ins', object({ id: str }), {}, () => undefined, { onPause: () => undefined });
    expect(withoutPolicy.seen.slept).toEqual([9920]);
  });
});
