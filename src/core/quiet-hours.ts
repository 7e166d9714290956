// Quiet hours ("19:00-08:00"): read once, here, for both the run that keeps quiet (domain/notices.ts)
// and the schedule that leaves them out (system/notify-units.ts).
import { UsageError } from '../errors.js';

/** Minutes of the day from (included) and until (not included); across midnight when from > until. `text` as written back: "19:00-08:00". */
export interface QuietHours {
  from: number;
  until: number;
  text: string;
}

/** "19:00-08:00" (past midnight allowed) or "12:00-13:00"; a refusal names the flag. */
export function parseQuietHours(value: string, flag = '--quiet-hours'): QuietHours {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)-([01]?\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  if (!m) throw new UsageError(`${flag} must be two times written HH:MM-HH:MM (as 19:00-08:00), got "${value}"`);
  const from = Number(m[1]) * 60 + Number(m[2]);
  const until = Number(m[3]) * 60 + Number(m[4]);
  if (from === until) throw new UsageError(`${flag} must start and end at different times, got "${value}"`);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { from, until, text: `${pad(Math.floor(from / 60))}:${pad(from % 60)}-${pad(Math.floor(until / 60))}:${pad(until % 60)}` };
}

/** Whether a minute of the day is within the quiet hours. */
export function inQuietHours(q: QuietHours | undefined, minute: number): boolean {
  if (!q) return false;
  return q.from < q.until ? minute >= q.from && minute < q.until : minute >= q.from || minute < q.until;
}
