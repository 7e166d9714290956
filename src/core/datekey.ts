// Date keys (YYYY-MM-DD) in the local time zone, and calendar arithmetic on them.
// Pure: no IO, no clock of its own — callers pass the instant they mean by "now". The arithmetic
// is date-fns', imported function by function; a key is written here (date-fns' lightFormat parsed
// its pattern at every call: ~2 M instructions of an agent's hook, which says one date).

import { addDays as addDaysFns } from 'date-fns/addDays';
import { getDay } from 'date-fns/getDay';

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

const KEY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** YYYY-MM-DD of a year, a month (1–12) and a day. */
const keyOf = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** The local calendar date of an instant (TZ respected; never the UTC date). An invalid date is a RangeError. */
export function localDateKey(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new RangeError('Invalid time value');
  return keyOf(at.getFullYear(), at.getMonth() + 1, at.getDate());
}

/** The calendar date of an instant in a zone given as its offsets ([from ms, minutes], oldest first); no ICU needed. */
export function dateKeyAtOffset(at: Date, offsets: ReadonlyArray<readonly [number, number]>): string {
  let offset = offsets[0]?.[1] ?? 0;
  for (const [from, minutes] of offsets) if (from <= at.getTime()) offset = minutes;
  const shifted = new Date(at.getTime() + offset * 60_000);
  return keyOf(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate());
}

/** The instant the day `key` begins at the offsets' zone (the offset in force at that midnight). */
export function startOfDayAtOffset(key: string, offsets: ReadonlyArray<readonly [number, number]>): Date {
  const wall = Date.parse(`${key}T00:00:00Z`);
  const offsetAt = (t: number) => {
    let offset = offsets[0]?.[1] ?? 0;
    for (const [from, minutes] of offsets) if (from <= t) offset = minutes;
    return offset;
  };
  // Twice: the offset at the guessed instant decides the instant.
  const guess = wall - offsetAt(wall) * 60_000;
  return new Date(wall - offsetAt(guess) * 60_000);
}

/** Whether `key` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isDateKey(key: string): boolean {
  const m = KEY_RE.exec(key);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = toDate(key);
  return dt.getFullYear() === y && dt.getMonth() === mo - 1 && dt.getDate() === d;
}

/** Midday of the key's date in the local zone: far from any DST change, so day arithmetic is exact. */
function toDate(key: string): Date {
  const m = KEY_RE.exec(key);
  if (!m) throw new RangeError(`not a date: ${key}`);
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
}

export function checked(key: string): Date {
  if (!isDateKey(key)) throw new RangeError(`not a date: ${key}`);
  return toDate(key);
}

/** Calendar arithmetic: `key` moved by `days` (negative goes back). */
export function addDays(key: string, days: number): string {
  return localDateKey(addDaysFns(checked(key), days));
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(key: string): number {
  return getDay(checked(key));
}

/** Every key from `from` to `to` inclusive, newest first. Empty when from > to. */
export function keysNewestFirst(from: string, to: string): string[] {
  const out: string[] = [];
  for (let k = to; k >= from; k = addDays(k, -1)) out.push(k);
  return out;
}
