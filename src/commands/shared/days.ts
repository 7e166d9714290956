// The person's day: "today" and the day words are dates in the person's own zone — an explicit
// TZ in the environment, else the zone on their profile (time_zone of GET /me, cached with me;
// Rails or IANA names), else the machine's.
import { ApiError } from '../../api/errors.js';
import type { Context } from '../../context.js';
import { localDateKey } from '../../core/datekey.js';
import { parseRangeDay } from '../../core/keys.js';
import { dateKeyIn, ianaZone } from '../../core/zone.js';
import { me } from './account.js';

export interface DayZone {
  /** The IANA zone "today" is computed in; undefined for the machine's own. */
  zone: string | undefined;
  /** How it was chosen, as a person reads it. */
  source: string;
}

const resolved = new WeakMap<Context, Promise<DayZone>>();

function machine(ctx: Context): string {
  return ctx.env.TZ ? `TZ=${ctx.env.TZ}` : `this machine's zone (${Intl.DateTimeFormat().resolvedOptions().timeZone})`;
}

/** Which zone "today" is in, without a request: from TZ or the cached profile (for --help). */
export function cachedDayZone(ctx: Context): DayZone {
  if (ctx.env.TZ) return { zone: undefined, source: machine(ctx) };
  const cfg = ctx.config();
  const token = cfg.token()?.value;
  const cached = token ? cfg.cached(cfg.apiUrl().value, token, 'me') : undefined;
  return fromProfile(ctx, cached?.time_zone ?? undefined, false);
}

function fromProfile(ctx: Context, name: string | undefined, warn: boolean): DayZone {
  if (!name) return { zone: undefined, source: machine(ctx) };
  const zone = ianaZone(name);
  if (zone) return { zone, source: `your profile's zone, ${name}${zone !== name ? ` (${zone})` : ''}` };
  if (warn) ctx.io.err(`warning: your profile's time zone "${name}" is not one checkin knows; using ${machine(ctx)}\n`);
  return { zone: undefined, source: machine(ctx) };
}

/** The zone of "today" for this run (profile read once, from the cache when it holds it). */
export function dayZone(ctx: Context): Promise<DayZone> {
  let z = resolved.get(ctx);
  if (!z) {
    z = (async () => {
      if (ctx.env.TZ) return { zone: undefined, source: machine(ctx) };
      let profile: string | undefined;
      try {
        profile = (await me(ctx)).time_zone ?? undefined;
      } catch (err) {
        // No profile to read (a failing service): the request that follows says what is wrong.
        if (!(err instanceof ApiError)) throw err;
      }
      return fromProfile(ctx, profile, true);
    })();
    resolved.set(ctx, z);
  }
  return z;
}

export async function today(ctx: Context): Promise<string> {
  const { zone } = await dayZone(ctx);
  return zone ? dateKeyIn(ctx.now(), zone) : localDateKey(ctx.now());
}

/** A --since/--until/--date value as a date key, or undefined when the flag was not given. */
export async function rangeDay(ctx: Context, value: string | undefined, flag: string): Promise<string | undefined> {
  return value === undefined ? undefined : parseRangeDay(value, await today(ctx), flag);
}

/** For --help: which zone "today" is in (from TZ or the cached profile; never a request). */
export function zoneHelp(ctx: Context): string {
  let source: string;
  try {
    source = cachedDayZone(ctx).source;
  } catch {
    source = machine(ctx);
  }
  return `\n"Today" is the date in ${source}: TZ wins, else your profile's zone, else this machine's.`;
}
