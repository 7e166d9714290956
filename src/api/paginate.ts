// Following pages: 50 a page (the service's maximum), several at once within the budget the
// RateLimit headers announce, handed over in order as they arrive, until a page comes back
// short; de-duplicated by id, bounded in pages.

import type { ApiClient, Query } from './client.js';
import { MAX_PER_PAGE } from './types.js';
import { arrayOf, type Check } from './validate.js';

/** Remaining requests and seconds to reset of each window in `RateLimit: "burst";r=27;t=8, …`. */
export function parseRateLimit(header: string | string[] | undefined): Array<{ name: string; remaining: number; reset: number }> {
  const text = Array.isArray(header) ? header.join(', ') : header ?? '';
  const out: Array<{ name: string; remaining: number; reset: number }> = [];
  for (const part of text.split(',')) {
    const name = /"([^"]+)"/.exec(part)?.[1] ?? '';
    const r = /;\s*r=(\d+)/.exec(part)?.[1];
    const t = /;\s*t=(\d+)/.exec(part)?.[1];
    if (r !== undefined && t !== undefined) out.push({ name, remaining: Number(r), reset: Number(t) });
  }
  return out;
}

/** Each window's size from `RateLimit-Policy: "burst";q=30;w=10, …`: q requests per w seconds. */
export function parseRateLimitPolicy(header: string | string[] | undefined): Map<string, { quota: number; seconds: number }> {
  const text = Array.isArray(header) ? header.join(', ') : header ?? '';
  const out = new Map<string, { quota: number; seconds: number }>();
  for (const part of text.split(',')) {
    const name = /"([^"]+)"/.exec(part)?.[1] ?? '';
    const q = /;\s*q=(\d+)/.exec(part)?.[1];
    const w = /;\s*w=(\d+)/.exec(part)?.[1];
    if (q !== undefined && w !== undefined) out.set(name, { quota: Number(q), seconds: Number(w) });
  }
  return out;
}

export type PageOptions = WalkOptions;

/** More pages than this is not a list any account has: the walk stops and says so. */
export const MAX_PAGES = 2000;

/** Every item of a list (see walkAll), collected: for the short lists (people, teams, goals…). */
export async function fetchAll<T extends { id: string }>(api: ApiClient, path: string, check: Check, query: Query, opts: PageOptions = {}): Promise<T[]> {
  const out: T[] = [];
  await walkAll<T>(api, path, check, query, (items) => out.push(...items), opts);
  return out;
}

export interface WalkOptions {
  /** Told when the walk pauses to stay under the rate limit (how long, in ms). */
  onPause?: (ms: number) => void;
  /** Requests in flight at most (default 8). */
  maxInFlight?: number;
  maxPages?: number;
}

interface Budget {
  /** Requests that may still be sent after this one before a window runs out (one of every window kept in hand). */
  left: number;
  /** When the windows that ran out reset, on api.now(); 0 when none has. */
  resumeAt: number;
}

/**
 * The budget an answer announces. `t` is whole seconds (rounded up), so a window known to have been
 * opened by one of ours resets, at the latest, its `w` seconds after that answer came back: the
 * pause ends to the millisecond the headers allow, never before the reset.
 */
function allowance(headers: Record<string, string | string[] | undefined>, sentAt: number, at: number, opened: Map<string, number>): Budget | undefined {
  const windows = parseRateLimit(headers['ratelimit']);
  if (windows.length === 0) return undefined;
  const policy = parseRateLimitPolicy(headers['ratelimit-policy']);
  let resumeAt = 0;
  for (const w of windows) {
    const size = policy.get(w.name);
    if (size && w.remaining === size.quota - 1) opened.set(w.name, at); // this request opened the window
    if (w.remaining > 1) continue;
    // The service read its clock between sentAt and at; the window resets within (t - 1, t] s of it.
    let reset = at + w.reset * 1000;
    const start = opened.get(w.name);
    if (size && start !== undefined && start + size.seconds * 1000 >= sentAt + (w.reset - 1) * 1000) reset = Math.min(reset, start + size.seconds * 1000);
    resumeAt = Math.max(resumeAt, reset);
  }
  return { left: Math.min(...windows.map((w) => w.remaining)) - 1, resumeAt };
}

/**
 * Every page of a list, up to `maxInFlight` requests at once within the budget the RateLimit
 * headers announce (never a 429 in normal use), each page's new items handed to `onItems` in
 * page order as soon as it and the pages before it are in — nothing is held but the ids seen.
 * Stops at a short page, at a full page that brings nothing new, or after MAX_PAGES.
 */
export async function walkAll<T extends { id: string }>(api: ApiClient, path: string, check: Check, query: Query, onItems: (items: T[]) => void, opts: WalkOptions = {}): Promise<number> {
  const list = arrayOf(check);
  const maxPages = opts.maxPages ?? MAX_PAGES;
  const seen = new Set<string>();
  const done = new Map<number, { items: T[]; headers: Record<string, string | string[] | undefined> }>();
  const inFlight = new Map<number, Promise<void>>();
  let next = 1;
  let emitted = 0;
  let count = 0;
  let last: number | undefined;
  let stopped = false;
  // The budget: `sent` may grow up to `bound`, the lowest any answer since the last pause allows
  // (answer n saying r left allows n + r - 1 in all: the requests sent after it count as
  // spent). Unknown (no header yet, or just after a pause): one request at a time.
  let sent = 0;
  let epoch = 0;
  let bound: number | undefined;
  let resumeAt = 0;
  const opened = new Map<string, number>();
  let failure: unknown;

  const fetchPage = (page: number) => {
    const seq = ++sent;
    const ep = epoch;
    const sentAt = api.now();
    const p = api.request<unknown>('GET', path, { query: { ...query, page, per_page: MAX_PER_PAGE } }).then(
      (res) => {
        done.set(page, { items: api.shaped<T[]>(res.data, list, 'GET', path), headers: res.headers });
        const b = allowance(res.headers, sentAt, api.now(), opened);
        if (b && ep === epoch) {
          bound = Math.min(bound ?? Infinity, seq + b.left);
          resumeAt = Math.max(resumeAt, b.resumeAt);
        }
      },
      (err: unknown) => {
        failure ??= err;
      },
    );
    inFlight.set(page, p.finally(() => inFlight.delete(page)));
  };

  const emit = () => {
    while (last === undefined) {
      const page = emitted + 1;
      const got = done.get(page);
      if (!got) return;
      done.delete(page);
      emitted = page;
      const fresh = got.items.filter((item) => !seen.has(item.id) && seen.add(item.id));
      count += fresh.length;
      if (fresh.length > 0) onItems(fresh);
      if (got.items.length < MAX_PER_PAGE) last = page;
      else if (fresh.length === 0) {
        api.warn(`page ${page} of ${path} repeated earlier pages; stopped there (${count} items)`);
        last = page;
      }
    }
  };

  fetchPage(next++);
  while (inFlight.size > 0 || (last === undefined && !stopped)) {
    if (failure) break;
    emit();
    if (last !== undefined) break;
    const room = bound === undefined ? (inFlight.size === 0 ? 1 : 0) : Math.min((opts.maxInFlight ?? 8) - inFlight.size, bound - sent);
    if (room > 0 && !stopped) {
      for (let i = 0; i < room; i++) {
        if (next > maxPages) {
          stopped = true;
          break;
        }
        fetchPage(next++);
      }
      continue;
    }
    if (inFlight.size > 0) {
      await Promise.race(inFlight.values());
      continue;
    }
    if (stopped) break;
    // Nothing out, no budget left: wait for the window to reset (it may have while answers came in).
    const ms = Math.max(0, resumeAt - api.now());
    if (ms > 0) {
      api.checkWait(Math.ceil(ms / 1000), 'GET', path, 'the rate limit');
      opts.onPause?.(ms);
      await api.sleep(ms);
    }
    // A new window: one request to learn its budget; answers from before say nothing of it.
    epoch++;
    bound = undefined;
    resumeAt = 0;
  }
  await Promise.allSettled(inFlight.values());
  if (failure) throw failure;
  emit();
  if (stopped && last === undefined) api.warn(`stopped after ${maxPages} pages of ${path} (${count} items); the service kept sending more`);
  return count;
}
