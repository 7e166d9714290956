// Following pages: 50 a page (the service's maximum), several at once within the budget the
// RateLimit headers announce, handed over in order as they arrive, until a page comes back
// short; de-duplicated by id, bounded in pages.

import type { Headers } from './transport.js';
import type { Query } from './url.js';
import { MAX_PER_PAGE } from './types.js';
import { arrayOf, type Shape } from './validate.js';
import { ApiError } from './errors.js';

/** What the pager needs of a client: ApiClient hands one over as `api.pages`; tests pass their own. */
export interface PageSource {
  /** GET `path` with `query` (retried like any GET), its answer checked against `shape`; failures are ApiErrors. */
  /** `bytes`: the size of the answer's body, counted against a walk's MAX_LIST_BYTES. */
  get<T>(path: string, query: Query, shape: Shape<T>): Promise<{ headers: Headers; data: T; bytes?: number }>;
  /** Throws (an ApiError saying when to try again) when `seconds` is longer than the client waits. */
  refuseLongWait(seconds: number, path: string, why: string): void;
  sleep(ms: number): Promise<void>;
  /** The clock pauses are measured on, in ms. */
  now(): number;
  /** Told of what a person should know but that does not stop the list (one line). */
  warn(message: string): void;
}

/** Remaining requests and seconds to reset of each window in `RateLimit: "burst";r=27;t=8, …`. */
export function parseRateLimit(header: string | string[] | undefined): Array<{ name: string; remaining: number; reset: number }> {
  const text = Array.isArray(header) ? header.join(', ') : (header ?? '');
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
  const text = Array.isArray(header) ? header.join(', ') : (header ?? '');
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
/** The most a walk reads, its pages' bodies together: past it, the walk fails (a service that floods would exhaust memory). */
export const MAX_LIST_BYTES = 64 * 1024 * 1024;

/** Every item of a list (see walkAll), collected: for the short lists (people, teams, goals…). */
export async function fetchAll<T extends { id: string }>(api: PageSource, path: string, shape: Shape<T>, query: Query, opts: PageOptions = {}): Promise<T[]> {
  const out: T[] = [];
  await walkAll(api, path, shape, query, (items) => out.push(...items), opts);
  return out;
}

export interface WalkOptions {
  /** Told when the walk pauses to stay under the rate limit (how long, in ms). */
  onPause?: (ms: number) => void;
  /** Requests in flight at most (default 8). */
  maxInFlight?: number;
  maxPages?: number;
  /** The most the pages' bodies may come to, in bytes (default MAX_LIST_BYTES). */
  maxBytes?: number;
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
function allowance(headers: Headers, sentAt: number, at: number, opened: Map<string, number>): Budget | undefined {
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
 * The rate budget of one run of requests: `sent` may grow up to `bound`, the lowest any answer
 * since the last pause allows (answer n saying r left allows n + r - 1 in all: the requests sent
 * after it count as spent). Unknown (no header yet, or just after a pause): one at a time.
 */
export class RateBudget {
  private sent = 0;
  private epoch = 0;
  private bound: number | undefined;
  private resumeAt = 0;
  private readonly opened = new Map<string, number>();

  constructor(
    private readonly api: PageSource,
    private readonly maxInFlight = 8,
  ) {}

  /** How many more may go out now, with `inFlight` out. */
  room(inFlight: number): number {
    return this.bound === undefined ? (inFlight === 0 ? 1 : 0) : Math.min(this.maxInFlight - inFlight, this.bound - this.sent);
  }

  /** Sends one request through the budget (learning from its answer's headers). */
  send<R extends { headers: Headers }>(request: () => Promise<R>): Promise<R> {
    const seq = ++this.sent;
    const ep = this.epoch;
    const sentAt = this.api.now();
    return request().then((res) => {
      const b = allowance(res.headers, sentAt, this.api.now(), this.opened);
      if (b && ep === this.epoch) {
        this.bound = Math.min(this.bound ?? Infinity, seq + b.left);
        this.resumeAt = Math.max(this.resumeAt, b.resumeAt);
      }
      return res;
    });
  }

  /** Nothing out and no room: waits for the window to reset (it may have while answers came in). */
  async pause(path: string, onPause?: (ms: number) => void): Promise<void> {
    const ms = Math.max(0, this.resumeAt - this.api.now());
    if (ms > 0) {
      this.api.refuseLongWait(Math.ceil(ms / 1000), path, 'the rate limit');
      onPause?.(ms);
      await this.api.sleep(ms);
    }
    // A new window: one request to learn its budget; answers from before say nothing of it.
    this.epoch++;
    this.bound = undefined;
    this.resumeAt = 0;
  }
}

/**
 * Independent GETs (the comments of many check-ins…), as many at once as the budget allows (at
 * most 8), pausing like walkAll when it is spent; results in the order of `paths`.
 */
export async function getInParallel<T>(
  api: PageSource,
  paths: Array<{ path: string; query?: Query; shape: Shape<T> }>,
  opts: Pick<WalkOptions, 'onPause'> = {},
): Promise<T[]> {
  const budget = new RateBudget(api);
  const out: T[] = new Array<T>(paths.length);
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let next = 0;
  while ((next < paths.length || inFlight.size > 0) && failure === undefined) {
    const room = budget.room(inFlight.size);
    if (room > 0 && next < paths.length) {
      for (let i = 0; i < room && next < paths.length; i++) {
        const n = next++;
        const { path, query, shape } = paths[n]!;
        const p: Promise<void> = budget
          .send(() => api.get(path, query ?? {}, shape))
          .then(
            (res) => void (out[n] = res.data),
            (err: unknown) => void (failure ??= err),
          )
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      continue;
    }
    if (inFlight.size > 0) await Promise.race(inFlight);
    else await budget.pause(paths[next]!.path, opts.onPause);
  }
  await Promise.allSettled(inFlight);
  if (failure !== undefined) throw failure;
  return out;
}

/**
 * Every page of a list, up to `maxInFlight` requests at once within the budget the RateLimit
 * headers announce (never a 429 in normal use), each page's new items handed to `onItems` in
 * page order as soon as it and the pages before it are in — nothing is held but the ids seen.
 * Stops at a short page, at a full page that brings nothing new, or after MAX_PAGES.
 */
export async function walkAll<T extends { id: string }>(
  api: PageSource,
  path: string,
  shape: Shape<T>,
  query: Query,
  onItems: (items: T[]) => void,
  opts: WalkOptions = {},
): Promise<number> {
  const list = arrayOf(shape);
  const maxPages = opts.maxPages ?? MAX_PAGES;
  const maxBytes = opts.maxBytes ?? MAX_LIST_BYTES;
  let bytes = 0;
  const seen = new Set<string>();
  const done = new Map<number, T[]>();
  const inFlight = new Map<number, Promise<void>>();
  let next = 1;
  let emitted = 0;
  let count = 0;
  let last: number | undefined;
  let stopped = false;
  const budget = new RateBudget(api, opts.maxInFlight ?? 8);
  let shortAt = Infinity;
  let failure: unknown;

  const fetchPage = (page: number) => {
    const p = budget
      .send(() => api.get(path, { ...query, page, per_page: MAX_PER_PAGE }, list))
      .then(
        (res) => {
          bytes += res.bytes ?? 0;
          if (bytes > maxBytes) {
            failure ??= new ApiError({
              kind: 'invalid-response',
              method: 'GET',
              path,
              status: 200,
              detail: `its pages came to more than ${+(maxBytes / 1048576).toFixed(1)} MiB by page ${page}; checkin stopped reading`,
              suggestion: 'Ask for less (a narrower query), or check CHECKIN_API_URL: it should point at the check-in service.',
            });
            return;
          }
          const items = res.data;
          done.set(page, items);
          // A short page is the last: nothing after it is asked for (the few already out are let be).
          if (items.length < MAX_PER_PAGE) shortAt = Math.min(shortAt, page);
        },
        (err: unknown) => {
          failure ??= err;
        },
      );
    inFlight.set(
      page,
      p.finally(() => inFlight.delete(page)),
    );
  };

  const emit = () => {
    while (last === undefined) {
      const page = emitted + 1;
      const got = done.get(page);
      if (!got) return;
      done.delete(page);
      emitted = page;
      const fresh = got.filter((item) => !seen.has(item.id) && seen.add(item.id));
      count += fresh.length;
      if (fresh.length > 0) onItems(fresh);
      if (got.length < MAX_PER_PAGE) last = page;
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
    const room = budget.room(inFlight.size);
    if (room > 0 && !stopped && next <= shortAt) {
      for (let i = 0; i < room && next <= shortAt; i++) {
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
    await budget.pause(path, opts.onPause);
  }
  await Promise.allSettled(inFlight.values());
  if (failure) throw failure;
  emit();
  if (stopped && last === undefined) api.warn(`stopped after ${maxPages} pages of ${path} (${count} items); the service kept sending more`);
  return count;
}
