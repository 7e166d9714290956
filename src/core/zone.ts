// Time zones as the service writes them: Rails names ("Eastern Time (US & Canada)", "London")
// or IANA names ("America/New_York"). Pure: no IO. Loaded only when a zone table is (re)built:
// ICU's time-zone data costs ~20 ms to wake, so a run uses the cached table instead (datekey.ts).
import { TZDate, tzOffset, tzScan } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { from as railsToIana } from 'rails-timezone';

/** The IANA name of a Rails or IANA zone name, or undefined when it names no zone. */
export function ianaZone(name: string): string | undefined {
  const mapped = railsToIana(name.trim());
  if (mapped) return mapped;
  try {
    // A valid IANA name formats a date; anything else does not.
    format(new TZDate(0, name.trim()), 'yyyy');
    return name.trim();
  } catch {
    return undefined;
  }
}

/** A zone's UTC offsets over a year from `at`: what "today" there needs, without ICU. */
export interface ZoneTable {
  /** The name as the profile gives it. */
  name: string;
  iana: string;
  from: number;
  until: number;
  /** [from this instant (ms), the offset in minutes], oldest first. */
  offsets: Array<[number, number]>;
}

export function zoneTable(name: string, at: Date, days = 366): ZoneTable | undefined {
  const iana = ianaZone(name);
  if (!iana) return undefined;
  const from = at.getTime() - 86_400_000;
  const until = at.getTime() + days * 86_400_000;
  const changes = tzScan(iana, { start: new Date(from), end: new Date(until) });
  return { name, iana, from, until, offsets: [[from, tzOffset(iana, new Date(from))], ...changes.map((c): [number, number] => [c.date.getTime(), c.offset])] };
}

/** The instant a wall-clock time (`HH:MM:SS`) on `date` is in a zone (Rails or IANA name); undefined for an unknown zone. */
export function instantInZone(date: string, time: string, zone: string): Date | undefined {
  const iana = ianaZone(zone);
  if (!iana) return undefined;
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi, s] = time.split(':').map(Number) as [number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, s ?? 0, iana).getTime());
}
