// Dates as people read them ("Sun 22 Nov"), in English as the rest of checkin: two short tables,
// not date-fns' format and its locale data (~2 ms to load, on the way to the first question).
import { getDay } from 'date-fns/getDay';
import { checked } from './datekey.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Sun 22 Nov": a date key as a person reads it. */
export function shortDay(key: string): string {
  const date = checked(key);
  return `${DAYS[getDay(date)]} ${date.getDate()} ${MONTHS[date.getMonth()]}`;
}

/** "Mon": the day of the week of a date key (within a week, it names the day). */
export function weekdayWord(key: string): string {
  return DAYS[getDay(checked(key))]!;
}

/** "Mon 31 Aug – Sun 22 Nov 2026"; the first day's year too when it is another ("Mon 17 Nov 2025 – …"). */
export function span(since: string, until: string, between: string): string {
  const year = (key: string) => key.slice(0, 4);
  return `${shortDay(since)}${year(since) === year(until) ? '' : ` ${year(since)}`} ${between} ${shortDay(until)} ${year(until)}`;
}
