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
  /** Told when the walk pauses to stay under the rate limit. */
  onPause?: (seconds: number) => void;
  /** Requests in flight at most (default 8). */
  maxInFlight?: number;
  maxPages?: number;
}

/** The requests still allowed now, keeping one of every window in hand; undefined when no header says. */
function allowance(headers: Record<string, string | string[] | undefined>): { left: number; reset: number } | undefined {
  const windows = parseRateLimit(headers['ratelimit']);
  if (windows.length === 0) return undefined;
  const tight = windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return { left: tight.remaining - 1, reset: Math.max(...windows.filter((w) => w.remaining <= 1).map((w) => w.reset), 0) };
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
  let budget: { left: number; reset: number } | undefined = { left: 0, reset: 0 }; // page 1 goes alone: it tells the budget
  let failure: unknown;

  const fetchPage = (page: number) => {
    const p = api.request<unknown>('GET', path, { query: { ...query, page, per_page: MAX_PER_PAGE } }).then(
      (res) => {
        done.set(page, { items: api.shaped<T[]>(res.data, list, 'GET', path), headers: res.headers });
        const b = allowance(res.headers);
        // The newest answer knows best; requests still out may not be counted in it yet.
        budget = b && { left: b.left - (inFlight.size - 1), reset: b.reset };
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
    const room = Math.min(opts.maxInFlight ?? 8, budget === undefined ? 1 : budget.left) - inFlight.size;
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
    // Nothing out, no budget left: wait for the window to reset.
    const seconds = budget?.reset ?? 1;
    api.checkWait(seconds, 'GET', path, 'the rate limit');
    opts.onPause?.(seconds);
    await api.sleep(seconds * 1000);
    budget = undefined; // one request to learn the new budget
  }
  await Promise.allSettled(inFlight.values());
  if (failure) throw failure;
  emit();
  if (stopped && last === undefined) api.warn(`stopped after ${maxPages} pages of ${path} (${count} items); the service kept sending more`);
  return count;
}
