// The keys users give for a day or a check-in: a UUID, YYYY-MM-DD, today, yesterday, a weekday
// name or `last`. Pure: `today` is passed in. A weekday name has one meaning per use, said here
// only: as a check-in's key, the most recent such day before today (PRODUCT.md's key); as a day of
// a range or a team's day (--since, --until, --date and the agent's since, until and day), the most
// recent on or before today, so `--since monday` is this week's on a Monday too, as `report` counts
// weeks (weekStart). With "last" in front it is before today in both.

import { UUID_RE } from '../api/types.js';
import { addDays, isDateKey, weekdayOf, WEEKDAYS } from './datekey.js';
import { UsageError } from '../errors.js';
import { isIdPrefix } from './short-ids.js';

export type Key = { kind: 'uuid'; id: string } | { kind: 'date'; date: string } | { kind: 'last' } | { kind: 'prefix'; prefix: string };

const SHORT_DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** A weekday name (monday… or mon…) as 0 (Sunday) to 6, else -1. */
function weekdayNamed(name: string): number {
  const day = WEEKDAYS.indexOf(name as (typeof WEEKDAYS)[number]);
  return day === -1 ? SHORT_DAYS.indexOf(name) : day;
}

/**
 * A day as people say it: YYYY-MM-DD, today, yesterday, tomorrow, a weekday name (mon… or
 * monday…: the most recent such day before today, or on or before it when `bareName` is
 * 'on-or-before'), the same with "last" in front ("last friday", "last-fri": always before today),
 * or "workday" (the most recent Monday–Friday before today: Friday on a Monday).
 */
export function parseDay(input: string, today: string, bareName: 'before' | 'on-or-before' = 'before'): string | undefined {
  const v = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    if (!isDateKey(v)) throw new UsageError(`"${input}" is not a date in the calendar`);
    return v;
  }
  if (v === 'today') return today;
  if (v === 'yesterday') return addDays(today, -1);
  if (v === 'tomorrow') return addDays(today, 1);
  if (v === 'workday' || v === 'last workday' || v === 'last-workday') {
    let d = addDays(today, -1);
    while (weekdayOf(d) === 0 || weekdayOf(d) === 6) d = addDays(d, -1);
    return d;
  }
  const name = v.replace(/^last[ -]/, '');
  const day = weekdayNamed(name);
  if (day === -1) return undefined;
  // Today when it is that day and a bare name may be today; else a week ago.
  const back = (weekdayOf(today) - day + 7) % 7 || (bareName === 'on-or-before' && name === v ? 0 : 7);
  return addDays(today, -back);
}

const KEY_HELP = 'a check-in UUID, YYYY-MM-DD, today, yesterday, tomorrow, a weekday name (monday…, "last friday"), workday or last';

export function parseKey(input: string, today: string): Key {
  const v = input.trim();
  if (UUID_RE.test(v)) return { kind: 'uuid', id: v.toLowerCase() };
  // The start of one (a short id, as `checkin list` shows it): a day word is never hex.
  if (!/^\d{4}-/.test(v) && isIdPrefix(v)) return { kind: 'prefix', prefix: v.toLowerCase() };
  // Something shaped like a UUID (hex groups and dashes) but not one: say so, not "unknown key".
  if (/^[0-9a-z]{6,}(-[0-9a-z]+){2,}$/i.test(v)) throw new UsageError(`"${input}" is not a valid UUID`);
  if (v.toLowerCase() === 'last') return { kind: 'last' };
  const day = parseDay(v, today);
  if (day) return { kind: 'date', date: day };
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(v) || /^\d+[/.]\d+/.test(v)) throw new UsageError(`"${input}" is not a date written YYYY-MM-DD`);
  throw new UsageError(`Unknown key "${input}": give ${KEY_HELP}`);
}

/**
 * A --since/--until/--date value: a day (YYYY-MM-DD or a key word, a bare weekday name on or
 * before today); `last` and UUIDs make no sense there.
 */
export function parseRangeDay(input: string, today: string, flag: string): string {
  const day = parseDay(input, today, 'on-or-before');
  if (!day) throw new UsageError(`${flag} takes YYYY-MM-DD, today, yesterday, tomorrow, a weekday name or workday; got "${input}"`);
  return day;
}

/**
 * The end of a range that starts on `from`: a bare weekday name ("friday", not "last friday") is
 * the first such day on or after `from` — `--since monday --until friday` is that week, on any day
 * of it; everything else as parseRangeDay.
 */
export function parseRangeEnd(input: string, today: string, flag: string, from: string): string {
  const day = weekdayNamed(input.trim().toLowerCase());
  if (day === -1) return parseRangeDay(input, today, flag);
  return addDays(from, (day - weekdayOf(from) + 7) % 7);
}

/** Monday of the week `day` is in (weeks run Monday to Sunday). */
export function weekStart(day: string): string {
  return addDays(day, -((weekdayOf(day) + 6) % 7));
}
