// Dates as people read them ("Sun 22 Nov"): date-fns' format, with its locale data — kept out
// of the entry chunk, loaded where a day is shown to a person.
import { format } from 'date-fns/format';
import { checked } from './datekey.js';

/** "Sun 22 Nov": a date key as a person reads it. */
export function shortDay(key: string): string {
  return format(checked(key), 'EEE d MMM');
}
