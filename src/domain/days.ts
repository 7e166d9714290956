// The person's day: "today" and the day words are dates in the person's own zone — an explicit
// TZ in the environment, else the zone on their profile (time_zone of GET /me, cached with me;
// Rails or IANA names), else the machine's. The profile zone's offsets are cached with `me` for
// a year, so a run computes today without waking ICU's time-zone data (~20 ms).
import { ApiError } from '../api/errors.js';
import type { CachedMe } from '../config/store.js';
import type { Context } from '../context.js';
import { dateKeyAtOffset, localDateKey, startOfDayAtOffset } from '../core/datekey.js';
import { UsageError } from '../errors.js';
import { shortDay } from '../core/dayname.js';
import { parseRangeDay, parseRangeEnd } from '../core/keys.js';
import { cachedMe, me, rememberZone } from './account.js';

export interface DayZone {
  /** The IANA zone "today" is computed in; undefined for the machine's own. */
  zone: string | undefined;
  /** How it was chosen, as a person reads it. */
  source: string;
  offsets?: Array<[number, number]>;
}

const resolved = new WeakMap<Context, Promise<DayZone>>();

function machine(ctx: Context): string {
  return ctx.env.TZ ? `TZ=${ctx.env.TZ}` : "this machine's zone";
}

const profileSource = (name: string, iana: string) => `your profile's zone, ${name}${iana !== name ? ` (${iana})` : ''}`;

/** Which zone "today" is in, without a request: from TZ or the cached profile (for --help). */
export function cachedDayZone(ctx: Context): DayZone {
  if (ctx.env.TZ) return { zone: undefined, source: machine(ctx) };
  const cached = cachedMe(ctx);
  if (cached?.zone && cached.zone.name === cached.time_zone) return { zone: cached.zone.iana, source: profileSource(cached.zone.name, cached.zone.iana) };
  return cached?.time_zone ? { zone: undefined, source: `your profile's zone, ${cached.time_zone}` } : { zone: undefined, source: machine(ctx) };
}

async function fromProfile(ctx: Context, person: CachedMe): Promise<DayZone> {
  const name = person.time_zone;
  if (!name) return { zone: undefined, source: machine(ctx) };
  const now = ctx.now().getTime();
  let table = person.zone;
  if (!table || table.name !== name || now < table.from || now >= table.until) {
    const { zoneTable } = await import('../core/zone.js');
    table = zoneTable(name, ctx.now());
    if (!table) {
      ctx.io.err(
        `warning: your profile's time zone "${name}" is not one checkin knows; using ${machine(ctx)} (${Intl.DateTimeFormat().resolvedOptions().timeZone})\n`,
      );
      return { zone: undefined, source: machine(ctx) };
    }
    await rememberZone(ctx, person, table);
  }
  return { zone: table.iana, source: profileSource(name, table.iana), offsets: table.offsets };
}

/** The zone of "today" for this run (profile read once, from the cache when it holds it). */
export function dayZone(ctx: Context): Promise<DayZone> {
  let z = resolved.get(ctx);
  if (!z) {
    z = (async () => {
      if (ctx.env.TZ) return { zone: undefined, source: machine(ctx) };
      let person: CachedMe;
      try {
        person = await me(ctx);
      } catch (err) {
        // No profile to read (a failing service): the request that follows says what is wrong.
        if (err instanceof ApiError) return { zone: undefined, source: machine(ctx) };
        throw err;
      }
      return fromProfile(ctx, person);
    })();
    resolved.set(ctx, z);
  }
  return z;
}

/**
 * Today as far as this run knows without a request: in the cached profile zone, else TZ or this
 * machine's. What is typed is kept under it before the first request; `today` has the last word.
 */
export function todayWithoutRequest(ctx: Context): string {
  return todayGuess(ctx).day;
}

/** Today without a request, and whether it is only the machine's guess (no TZ, no cached profile zone). */
export function todayGuess(
  ctx: Pick<Context, 'now' | 'env' | 'config'>,
  person: () => CachedMe | undefined = () => cachedMe(ctx),
): { day: string; guessed: boolean; start: Date } {
  const now = ctx.now();
  const local = (day: string) => ({ day, start: new Date(`${day}T00:00:00`) });
  if (ctx.env.TZ) return { ...local(localDateKey(now)), guessed: false };
  try {
    const zone = person()?.zone;
    if (zone && now.getTime() >= zone.from && now.getTime() < zone.until) {
      const day = dateKeyAtOffset(now, zone.offsets);
      return { day, start: startOfDayAtOffset(day, zone.offsets), guessed: false };
    }
  } catch {
    // no config to read: the machine's date
  }
  return { ...local(localDateKey(now)), guessed: true };
}

export async function today(ctx: Context): Promise<string> {
  const { offsets } = await dayZone(ctx);
  return offsets ? dateKeyAtOffset(ctx.now(), offsets) : localDateKey(ctx.now());
}

/**
 * The first moment of `date` in the zone `today` reads it in (the profile's, else TZ or this
 * machine's), as an ISO instant: what "since the start of today" means to the person.
 */
export async function startOfDay(ctx: Context, date: string): Promise<string> {
  const { offsets } = await dayZone(ctx);
  const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');
  if (!offsets) return iso(new Date(`${date}T00:00:00`).getTime());
  const offsetAt = (t: number) => {
    let o = offsets[0]?.[1] ?? 0;
    for (const [from, minutes] of offsets) if (from <= t) o = minutes;
    return o;
  };
  // Midnight as UTC, moved by the zone's offset then (asked again at the moment found: a change of offset that night).
  const utc = Date.parse(`${date}T00:00:00Z`);
  return iso(utc - offsetAt(utc - offsetAt(utc) * 60_000) * 60_000);
}

/** A --since/--until/--date value as a date key, or undefined when the flag was not given. */
export async function rangeDay(ctx: Context, value: string | undefined, flag: string): Promise<string | undefined> {
  return value === undefined ? undefined : parseRangeDay(value, await today(ctx), flag);
}

/**
 * A range's ends (day words or dates) as date keys, the first not after the last. `names` are the
 * words the asking face uses for the two ends (`--since`/`--until` at the terminal, `since`/`until`
 * for an agent), so that an error speaks the asker's language.
 */
export async function dayRange(
  ctx: Context,
  range: { since?: string; until?: string },
  names: { since: string; until: string },
): Promise<{ since?: string; until?: string }> {
  const since = await rangeDay(ctx, range.since, names.since);
  // A weekday name as the end counts from the start: "--since monday --until friday" is one week.
  const until =
    range.until === undefined
      ? undefined
      : since
        ? parseRangeEnd(range.until, await today(ctx), names.until, since)
        : await rangeDay(ctx, range.until, names.until);
  if (since && until && since > until) {
    // Backwards: said as understood, each end as a day and, when a word was given, which word.
    const said = (key: string, given: string | undefined) => `${key} (${shortDay(key)}${given && given.trim() !== key ? `, from "${given.trim()}"` : ''})`;
    const words = range.since !== undefined && /^\s*(last[ -])?[a-z]+\s*$/i.test(range.since) && !/^\s*(today|yesterday|tomorrow)\s*$/i.test(range.since);
    const message = `${names.since} ${said(since, range.since)} is after ${names.until} ${said(until, range.until)}`;
    throw words
      ? new UsageError(
          message,
          'A weekday name in a range is the most recent one on or before today ("last monday": before today); give dates (YYYY-MM-DD) to be exact.',
        )
      : new UsageError(message);
  }
  return { ...(since && { since }), ...(until && { until }) };
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
