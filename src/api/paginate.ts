// Following pages: 50 a page (the service's maximum), until a page comes back short, staying
// under the rate limit by reading the RateLimit header, and de-duplicating by id.

import type { ApiClient, Query } from './client.js';
import { MAX_PER_PAGE } from './types.js';

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
}

export async function fetchAll<T extends { id: string }>(api: ApiClient, path: string, query: Query, opts: PageOptions = {}): Promise<T[]> {
  const seen = new Set<string>();
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await api.request<T[]>('GET', path, { query: { ...query, page, per_page: MAX_PER_PAGE } });
    const items = Array.isArray(res.data) ? res.data : [];
    for (const item of items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
    if (items.length < MAX_PER_PAGE) break;
    // Keep one request of every window in hand; otherwise wait for the window to reset.
    const tight = parseRateLimit(res.headers['ratelimit']).filter((w) => w.remaining <= 1);
    if (tight.length > 0) {
      const seconds = Math.max(...tight.map((w) => w.reset));
      opts.onPause?.(seconds);
      await api.sleep(seconds * 1000);
    }
  }
  return out;
}
