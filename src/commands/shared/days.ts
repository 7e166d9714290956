// Days as users name them, relative to today in the local zone.
import type { Context } from '../../context.js';
import { localDateKey } from '../../core/datekey.js';
import { parseRangeDay } from '../../core/keys.js';

export function today(ctx: Context): string {
  return localDateKey(ctx.now());
}

/** A --since/--until/--date value as a date key, or undefined when the flag was not given. */
export function rangeDay(ctx: Context, value: string | undefined, flag: string): string | undefined {
  return value === undefined ? undefined : parseRangeDay(value, today(ctx), flag);
}
