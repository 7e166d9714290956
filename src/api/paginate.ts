// Following pages: 50 a page (the service's maximum), until a page comes back short, staying
// under the rate limit by reading the RateLimit header, and de-duplicating by id.

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

export interface PageOptions {
  /** Told when the walk pauses to stay under the rate limit. */
  onPause?: (seconds: number) => void;
  /** At most this many pages (default MAX_PAGES). */
  maxPages?: number;
}

/** More pages than this is not a list any account has: the walk stops and says so. */
export const MAX_PAGES = 2000;

/**
 * Every page of a list, 50 at a time, each item checked by `check`. Stops at a short page, at a
 * full page that brings nothing new (a service that ignores `page`), or after MAX_PAGES.
 */
export async function fetchAll<T extends { id: string }>(api: ApiClient, path: string, check: Check, query: Query, opts: PageOptions = {}): Promise<T[]> {
  const seen = new Set<string>();
  const out: T[] = [];
  const list = arrayOf(check);
  for (let page = 1; ; page++) {
    const max = opts.maxPages ?? MAX_PAGES;
    if (page > max) {
      api.warn(`stopped after ${max} pages of ${path} (${out.length} items); the service kept sending more`);
      break;
    }
    const res = await api.request<unknown>('GET', path, { query: { ...query, page, per_page: MAX_PER_PAGE } });
    const items = api.shaped<T[]>(res.data, list, 'GET', path);
    let fresh = 0;
    for (const item of items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
      fresh++;
    }
    if (items.length < MAX_PER_PAGE) break;
    if (fresh === 0) {
      api.warn(`page ${page} of ${path} repeated earlier pages; stopped there (${out.length} items)`);
      break;
    }
    // Keep one request of every window in hand; otherwise wait for the window to reset.
    const tight = parseRateLimit(res.headers['ratelimit']).filter((w) => w.remaining <= 1);
    if (tight.length > 0) {
      const seconds = Math.max(...tight.map((w) => w.reset));
      api.checkWait(seconds, 'GET', path, 'the rate limit');
      opts.onPause?.(seconds);
      await api.sleep(seconds * 1000);
    }
  }
  return out;
}
