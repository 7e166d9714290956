// The demo's older history: fourteen weeks before the demo's last two (demo.ts writes those), so
// `checkin stats` and `report --format html` have something true to draw — a week's holiday and
// a few days off (absences known in advance: no check-in is generated), sick days marked absent
// after the check-ins were made, missed days, days filled in the next morning, moods that swing
// with a crunch and back, and a blocker that stood for two and a half weeks before it was
// resolved. Every day of it is strictly before the demo's two weeks (so before today), and every
// stamp is on its day or the morning after: nothing is stamped after now.
import type { Mood } from '../api/types.js';
import { addDays, weekdayOf } from '../core/datekey.js';
import { noAnswers, type CheckInRecord, type SandboxData } from './data.js';
import { checkInId, isoSeconds, stableUuid } from './ids.js';
import { SandboxService } from './service.js';

/** Days of history before the demo's own window of `RECENT_DAYS` (today excluded). */
export const HISTORY_DAYS = 98;
/** The demo's own recent window (demo.ts): history ends the day before it starts. */
export const RECENT_DAYS = 14;

/** Margaret's blocker in the history: the App Store review, standing from day 70 to day 53 before today. */
export const LONG_BLOCKER = '- Waiting on the **App Store review** of 4.2 (rejected twice for the login screen)';
const LONG_BLOCKER_DAYS = { from: 70, to: 53 };

const INTENTIONS = [
  '- Write the migration for `invoices.currency`',
  '- Review the billing webhooks PR',
  '- Profile the search endpoint',
  '- Triage the crash reports',
  '- Update the on-call runbook',
  '- Pair on the flaky `checkout` test',
  '- Draft the rate limiter design',
  '- Ship the onboarding email tweaks',
];

/** Moods by phase: a settled start, a crunch (weeks 9–6 before today), and a calmer end. */
const PHASES: Array<{ from: number; moods: Mood[] }> = [
  { from: HISTORY_DAYS + RECENT_DAYS, moods: ['happy', 'focused', 'calm', 'confident', 'nerdy'] },
  { from: 63, moods: ['tired', 'stressed', 'focused', 'worried', 'tired'] },
  { from: 42, moods: ['calm', 'happy', 'focused', 'thoughtful', 'excited'] },
];

const at = (date: string, time: string) => isoSeconds(new Date(`${date}T${time}`));

/**
 * Adds the history to the demo's data (which holds its people, teams and recent absences): moves
 * `start_date` back, adds the absences, and the check-ins filled in, late, missed or marked absent.
 */
export function addHistory(data: SandboxData, today: string, now: Date): void {
  const first = addDays(today, -(HISTORY_DAYS + RECENT_DAYS));
  const lastOld = addDays(today, -(RECENT_DAYS + 1));
  data.start_date = first < data.start_date ? first : data.start_date;
  const id = (username: string) => stableUuid(`person:${username}`);
  const away = (username: string, fromDaysAgo: number, toDaysAgo: number) => ({
    person_id: id(username),
    from: addDays(today, -fromDaysAgo),
    to: addDays(today, -toDaysAgo),
  });
  // A week's holiday (Ada), a long weekend (Grace), a few days off (Alan).
  data.absences.push(away('ada', 49, 43), away('grace', 84, 81), away('alan', 30, 28));
  const service = new SandboxService(data, () => now, '');
  data.people.forEach((p, pi) => {
    let n = 0;
    for (let day = HISTORY_DAYS + RECENT_DAYS; day > RECENT_DAYS; day--) {
      const date = addDays(today, -day);
      if (date > lastOld || !service.exists(p.id, date)) continue;
      n++;
      const base = { id: checkInId(p.id, date), person_id: p.id, date, ...noAnswers() };
      // Linus was off sick for two days after the check-ins were made: they stay, marked absent.
      if (p.username === 'linus' && (day === 75 || day === 74)) {
        data.check_ins.push({ ...base, completed_at: null, updated_at: at(date, '07:00:00'), absent: true });
        continue;
      }
      // A missed day now and then (Alan more often in the crunch); never while Margaret's blocker stands.
      const blockedDay = p.username === 'margaret' && day <= LONG_BLOCKER_DAYS.from && day >= LONG_BLOCKER_DAYS.to;
      if (!blockedDay && ((n * 7 + pi * 3) % 17 === 0 || (p.username === 'alan' && day < 63 && day > 42 && n % 5 === 0))) continue;
      const phase = PHASES.filter((ph) => day <= ph.from).pop()!;
      const mood: Mood | null = blockedDay ? (day > 60 ? 'annoyed' : 'stressed') : (n + pi) % 9 === 4 ? null : phase.moods[(n + pi) % phase.moods.length]!;
      // Now and then filled in the next morning (never later than the day after, still long before today).
      const late = (n + pi * 5) % 11 === 0;
      const stamp = late
        ? at(addDays(date, 1), '08:20:00')
        : at(date, `${String(9 + (pi % 3)).padStart(2, '0')}:${String(5 + ((n * 7) % 50)).padStart(2, '0')}:00`);
      const rec: CheckInRecord = {
        ...base,
        previous: INTENTIONS[(n + pi + 3) % INTENTIONS.length]!,
        intentions: INTENTIONS[(n + pi) % INTENTIONS.length]!,
        blockers: blockedDay ? LONG_BLOCKER : p.username === 'ada' && weekdayOf(date) === 3 && day > 80 ? '- Waiting on the staging database refresh' : null,
        mood,
        previous_completed: (n + pi) % 5 !== 0,
        completed_at: stamp,
        updated_at: stamp,
      };
      data.check_ins.push(rec);
    }
  });
}
