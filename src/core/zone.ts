// Time zones as the service writes them: Rails names ("Eastern Time (US & Canada)", "London")
// or IANA names ("America/New_York"). Pure: no IO.
import { TZDate } from '@date-fns/tz';
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

/** The calendar date (YYYY-MM-DD) of an instant in an IANA zone. */
export function dateKeyIn(at: Date, zone: string): string {
  return format(new TZDate(at.getTime(), zone), 'yyyy-MM-dd');
}
