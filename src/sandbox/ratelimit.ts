// Rate limits as the real service applies them (docs/api.md § Limits): per person (every token of theirs
// together; a caller without a valid token by its address), a "burst" and a "sustained" fixed
// window. Every response carries RateLimit and RateLimit-Policy headers.

export interface Window {
  name: string;
  limit: number;
  seconds: number;
}

export const DEFAULT_WINDOWS: Window[] = [
  { name: 'burst', limit: 30, seconds: 10 },
  { name: 'sustained', limit: 500, seconds: 1800 },
];

export interface Verdict {
  allowed: boolean;
  /** Seconds until a request may be made again (when refused). */
  retryAfter: number;
  headers: Record<string, string>;
}

/** Past this many callers, those whose windows have all ended are dropped. */
const MAX_CALLERS = 10_000;

interface Counter {
  start: number;
  used: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter[]>();

  constructor(
    private readonly windows: Window[] = DEFAULT_WINDOWS,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): Verdict {
    const t = this.now();
    // Callers come and go (addresses): those whose every window has ended are forgotten, so the
    // table stays bounded by the callers of the last longest window.
    if (this.counters.size >= MAX_CALLERS) {
      for (const [k, cs] of this.counters) {
        if (cs.every((c, i) => t - c.start >= this.windows[i]!.seconds * 1000)) this.counters.delete(k);
      }
    }
    let counters = this.counters.get(key);
    if (!counters) {
      counters = this.windows.map(() => ({ start: t, used: 0 }));
      this.counters.set(key, counters);
    }
    counters.forEach((c, i) => {
      if (t - c.start >= this.windows[i]!.seconds * 1000) {
        c.start = t;
        c.used = 0;
      }
    });
    const resetIn = (i: number) => Math.max(1, Math.ceil((counters[i]!.start + this.windows[i]!.seconds * 1000 - t) / 1000));
    const full = counters.flatMap((c, i) => (c.used >= this.windows[i]!.limit ? [i] : []));
    if (full.length === 0) counters.forEach((c) => c.used++);
    const headers = {
      RateLimit: this.windows.map((w, i) => `"${w.name}";r=${Math.max(0, w.limit - counters[i]!.used)};t=${resetIn(i)}`).join(', '),
      'RateLimit-Policy': this.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', '),
    };
    return { allowed: full.length === 0, retryAfter: Math.max(0, ...full.map(resetIn)), headers };
  }
}
