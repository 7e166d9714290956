// Date keys (YYYY-MM-DD) in the local time zone, and calendar arithmetic on them.
// Pure: no IO, no clock of its own — callers pass the instant they mean by "now".

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

const KEY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** The local calendar date of an instant (TZ respected; never the UTC date). */
export function localDateKey(at: Date): string {
  return `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Whether `key` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isDateKey(key: string): boolean {
  const m = KEY_RE.exec(key);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

function toUtc(key: string): Date {
  const m = KEY_RE.exec(key);
  if (!m || !isDateKey(key)) throw new RangeError(`not a date: ${key}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

function fromUtc(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Calendar arithmetic: `key` moved by `days` (negative goes back). */
export function addDays(key: string, days: number): string {
  const d = toUtc(key);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(key: string): number {
  return toUtc(key).getUTCDay();
}

/** Every key from `from` to `to` inclusive, newest first. Empty when from > to. */
export function keysNewestFirst(from: string, to: string): string[] {
  const out: string[] = [];
  for (let k = to; k >= from; k = addDays(k, -1)) out.push(k);
  return out;
}
