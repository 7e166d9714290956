// Polling a list the way a wall does: each page asked for again with the ETag of its last answer
// (a 304 leaves the page as it was, with nothing to parse), and the next poll paced on the
// RateLimit headers, so that a poller never takes the share of the person's budget their other
// commands need (docs/api.md § Limits: 30 / 10 s and 500 / 30 min, every command of theirs together).

import type { ApiClient } from './client.js';
import { parseRateLimit, parseRateLimitPolicy } from './paginate.js';
import type { Headers } from './transport.js';
import { MAX_PER_PAGE } from './types.js';
import type { Query } from './url.js';
import { arrayOf, type Shape } from './validate.js';

/** A list as last polled: each page's items and the ETag it came with. */
export interface Polled<T> {
  pages: Array<{ items: T[]; etag?: string }>;
}

export interface PollResult<T> {
  /** False when every page answered 304 (the list is the one handed in). */
  changed: boolean;
  list: Polled<T>;
  /** Every answer's headers, in the order the requests went (their count is the poll's cost). */
  headers: Headers[];
}

/** Pages stop here: more is not a list a wall shows. */
export const MAX_POLLED_PAGES = 20;

/** Every item of a polled list, each id once (several teams can list one check-in twice). */
export function itemsOf<T extends { id: string }>(list: Polled<T>): T[] {
  const seen = new Set<string>();
  return list.pages.flatMap((p) => p.items).filter((item) => !seen.has(item.id) && seen.add(item.id));
}

/**
 * Pages 1, 2… of a list, one after another until a short page, each sent with the ETag of the same
 * page last time (`last`): unchanged when every page answered 304 and there are as many as before.
 */
export async function pollList<T extends { id: string }>(
  api: ApiClient,
  path: string,
  shape: Shape<T>,
  query: Query,
  last: Polled<T> | undefined,
): Promise<PollResult<T>> {
  const list = arrayOf(shape);
  const pages: Polled<T>['pages'] = [];
  const headers: Headers[] = [];
  let changed = last === undefined;
  for (let page = 1; page <= MAX_POLLED_PAGES; page++) {
    const before = last?.pages[page - 1];
    const r = await api.getConditional(path, list, { ...query, page, per_page: MAX_PER_PAGE }, before?.etag);
    headers.push(r.headers);
    if (r.unchanged && before) pages.push(before);
    else if (r.unchanged) throw new Error(`GET ${path} answered 304 to a request without an ETag`);
    else {
      changed = true;
      pages.push({ items: r.data, ...(r.etag !== undefined && { etag: r.etag }) });
    }
    if (pages[page - 1]!.items.length < MAX_PER_PAGE) break;
  }
  if (last && last.pages.length !== pages.length) changed = true;
  return { changed, list: { pages }, headers };
}

/** The share of each window a poller leaves to the person's other commands. */
export const RESERVED_SHARE = 0.4;

export interface Pace {
  /** When to poll next, from the last poll. */
  delayMs: number;
  /** Later than the interval asked for: the budget is low. */
  slowed: boolean;
}

/**
 * The furthest off a window's reset is believed: a header saying later is wrong (a proxy's, a bug),
 * and a window is never longer than its policy says (nor than this without one).
 */
export const MAX_RESET_S = 3600;

/**
 * When to poll next: after `intervalMs`, or later when polling that often (`cost` requests a poll)
 * would, before a window resets, spend what the RateLimit headers of the last answer say is left
 * beyond the reserved share. A window with nothing to spare is waited out (its reset and a second,
 * as `t` is rounded). Without the headers: the interval. The reset is taken as at most the window's
 * length (RateLimit-Policy's w) and MAX_RESET_S, so a lying header slows polling, never stops it.
 */
export function nextPoll(headers: Headers | undefined, intervalMs: number, cost: number): Pace {
  const policy = parseRateLimitPolicy(headers?.['ratelimit-policy']);
  let delayMs = intervalMs;
  for (const w of parseRateLimit(headers?.['ratelimit'])) {
    const window = policy.get(w.name);
    const quota = window?.quota;
    const spare = w.remaining - (quota === undefined ? 0 : Math.ceil(quota * RESERVED_SHARE));
    const polls = Math.floor(spare / Math.max(1, cost));
    const resetMs = Math.min(w.reset, window?.seconds ?? MAX_RESET_S, MAX_RESET_S) * 1000;
    delayMs = Math.max(delayMs, polls < 1 ? resetMs + 1000 : Math.ceil(resetMs / polls));
  }
  return { delayMs, slowed: delayMs > intervalMs };
}
