// The figures of `checkin stats` and of the report's numbers: a calendar of scheduled days, streaks,
// mood over time, blocked days per week and the open blockers with how long each has stood. Pure:
// no IO, no clock — the caller says what "today" is and how an instant becomes a date in the
// person's zone. Every face (the terminal's pictures, the accessible sentences, --json, the HTML
// page, the report's Markdown and CSV) reads these same figures.
//
// The states are the one vocabulary's (core/member-states.ts: filled, pending, absent, nothing
// scheduled; blocked is a
// mark on a filled day here, as a calendar draws it), with the two a calendar needs besides: a
// check-in whose day is over without being filled is `missed`, and one the service marked absent is
// `absent`. A day with no check-in at all is `nothing-scheduled` (no team meets, or an absence known in
// advance: the service generates nothing for either).
import type { CheckIn } from '../api/types.js';
import { blockerItems, longestRun, type BlockerRun } from './blockers.js';
import { addDays } from './datekey.js';
import { weekStart } from './keys.js';
import type { MemberState } from './member-states.js';

/** A day of the calendar: the team day's states (blocked is `blocked: true` on a filled day), `missed` and `absent`. */
export type DayState = Exclude<MemberState, 'blocked'> | 'missed' | 'absent';
/** Every state a calendar cell can have, in the legend's order. */
export const DAY_STATES: readonly DayState[] = ['filled', 'missed', 'absent', 'pending', 'nothing-scheduled'];

export interface DayCell {
  date: string;
  state: DayState;
  /** Filled in after its day was over (in the person's zone). */
  late: boolean;
  /** Filled in with a blocker. */
  blocked: boolean;
  /** The mood chosen; null when none was (a gap, never a value). */
  mood: string | null;
}

/** How one person's instants become dates, and what today is there. */
export interface PersonDay {
  /** Today's date in the person's zone. */
  today: string;
  /** The date of an ISO instant in the person's zone. */
  dateOf: (iso: string) => string;
}

/** Blocked: not marked unblocked by the service, and words that are a blocker (not "none"; core/blockers.ts). */
export const isBlockedCheckIn = (c: CheckIn): boolean => c.blocked !== false && blockerItems(c.blockers).length > 0;

/**
 * The state of one person's check-in: filled (late when completed after its day in the person's
 * zone), absent, pending while its day is not over in the person's zone (today, or a day generated
 * in advance), missed once it is.
 */
export function cellOf(c: CheckIn, day: PersonDay): DayCell {
  if (c.absent === true) return { date: c.date, state: 'absent', late: false, blocked: false, mood: null };
  if (c.completed_at) {
    return { date: c.date, state: 'filled', late: day.dateOf(c.completed_at) > c.date, blocked: isBlockedCheckIn(c), mood: c.mood ?? null };
  }
  return { date: c.date, state: c.date >= day.today ? 'pending' : 'missed', late: false, blocked: false, mood: null };
}

/** One person's days from `since` to `until`, every date once (no check-in: `nothing-scheduled`), oldest first. */
export function personCalendar(checkIns: CheckIn[], range: { since: string; until: string }, day: PersonDay): DayCell[] {
  const byDate = new Map<string, CheckIn>();
  for (const c of checkIns) if (c.date >= range.since && c.date <= range.until) byDate.set(c.date, c);
  const cells: DayCell[] = [];
  for (let d = range.since; d <= range.until; d = addDays(d, 1)) {
    const c = byDate.get(d);
    cells.push(c ? cellOf(c, day) : { date: d, state: 'nothing-scheduled', late: false, blocked: false, mood: null });
  }
  return cells;
}

export interface Streaks {
  /** Scheduled days filled in a row, ending with the last day that is over (today pending does not end it). */
  current: number;
  /** The first day of the current run (null when it is 0). */
  current_since: string | null;
  /** The longest such run in the days looked at. */
  longest: number;
  longest_since: string | null;
  /** The current run reaches the first day looked at: it may be longer. */
  at_least: boolean;
}

/**
 * Streaks over a calendar (oldest first): a run is scheduled days filled (on the day or later).
 * Days with nothing scheduled and absences neither count nor break it; a missed day breaks it; a
 * pending day (today, not over yet in the person's zone) neither counts nor breaks it.
 */
export function streaks(cells: DayCell[]): Streaks {
  let run = 0;
  let runSince: string | null = null;
  let longest = 0;
  let longestSince: string | null = null;
  let broken = false;
  for (const cell of cells) {
    if (cell.state === 'filled') {
      if (run === 0) runSince = cell.date;
      run++;
      if (run > longest) {
        longest = run;
        longestSince = runSince;
      }
    } else if (cell.state === 'missed') {
      run = 0;
      runSince = null;
      broken = true;
    }
  }
  return { current: run, current_since: run > 0 ? runSince : null, longest, longest_since: longestSince, at_least: run > 0 && !broken };
}

/** Counts of a set of days, as a week's or a day's line says them. */
export interface Tally {
  /** Days a check-in was scheduled (filled, missed or pending; absences are not). */
  scheduled: number;
  filled: number;
  /** Of the filled, how many after their day. */
  late: number;
  missed: number;
  pending: number;
  absent: number;
  /** Filled with a blocker. */
  blocked: number;
  /** Each mood chosen and how often, the most frequent first (then by name). */
  moods: Array<{ mood: string; count: number }>;
  /** Filled days without a mood. */
  no_mood: number;
}

export function tally(cells: DayCell[]): Tally {
  const t: Tally = { scheduled: 0, filled: 0, late: 0, missed: 0, pending: 0, absent: 0, blocked: 0, moods: [], no_mood: 0 };
  const moods = new Map<string, number>();
  for (const c of cells) {
    if (c.state === 'filled' || c.state === 'missed' || c.state === 'pending') t.scheduled++;
    if (c.state === 'filled') {
      t.filled++;
      if (c.late) t.late++;
      if (c.blocked) t.blocked++;
      if (c.mood) moods.set(c.mood, (moods.get(c.mood) ?? 0) + 1);
      else t.no_mood++;
    }
    if (c.state === 'missed') t.missed++;
    if (c.state === 'pending') t.pending++;
    if (c.state === 'absent') t.absent++;
  }
  t.moods = [...moods].map(([mood, count]) => ({ mood, count })).sort((a, b) => b.count - a.count || (a.mood < b.mood ? -1 : 1));
  return t;
}

export interface WeekTally extends Tally {
  /** Monday of the week. */
  week: string;
}

/** The days grouped by week (Monday to Sunday), oldest first. `cells` may hold several people's days. */
export function weeks(cells: DayCell[]): WeekTally[] {
  const byWeek = new Map<string, DayCell[]>();
  for (const c of cells) {
    const w = weekStart(c.date);
    byWeek.set(w, [...(byWeek.get(w) ?? []), c]);
  }
  return [...byWeek.keys()].sort().map((week) => ({ week, ...tally(byWeek.get(week)!) }));
}

/** A team's day: how many were scheduled and filled, and the rest (never who). */
export interface TeamDayTally extends Tally {
  date: string;
}

/** Several people's calendars as one count a day (oldest first); the people are not named in it. */
export function teamCalendar(calendars: DayCell[][], range: { since: string; until: string }): TeamDayTally[] {
  const out: TeamDayTally[] = [];
  const byDate = new Map<string, DayCell[]>();
  for (const cal of calendars) for (const c of cal) byDate.set(c.date, [...(byDate.get(c.date) ?? []), c]);
  for (let d = range.since; d <= range.until; d = addDays(d, 1)) out.push({ date: d, ...tally(byDate.get(d) ?? []) });
  return out;
}

/** An open blocker: the newest filled check-in of a person, when blocked, and how long its longest blocker has stood. */
export interface OpenBlocker {
  person: { id: string; name: string } | null;
  blockers: string;
  date: string;
  run: BlockerRun;
  check_in_id: string;
}

/**
 * Each person's open blocker: their newest filled check-in (a later one not filled yet leaves it
 * standing), when it is blocked, with its run counted back through the same check-ins
 * (core/blockers.ts: missed days end it, absences are skipped). Longest-standing first.
 */
export function openBlockers(checkIns: CheckIn[]): OpenBlocker[] {
  const byPerson = new Map<string, CheckIn[]>();
  for (const c of checkIns) {
    const id = c.person?.id ?? '';
    byPerson.set(id, [...(byPerson.get(id) ?? []), c]);
  }
  const out: OpenBlocker[] = [];
  for (const list of byPerson.values()) {
    const newest = list.filter((c) => c.completed_at && c.absent !== true).sort((a, b) => (a.date < b.date ? 1 : -1))[0];
    if (!newest || !isBlockedCheckIn(newest)) continue;
    const run = longestRun(newest, list);
    if (!run) continue;
    out.push({
      person: newest.person ? { id: newest.person.id, name: newest.person.name } : null,
      blockers: newest.blockers ?? '',
      date: newest.date,
      run,
      check_in_id: newest.id,
    });
  }
  return out.sort((a, b) => b.run.days - a.run.days || (a.run.since < b.run.since ? -1 : 1));
}

/** The first `weeks` Mondays ending with the week of `today`: where a calendar of that many weeks starts. */
export function windowStart(today: string, count: number): string {
  return addDays(weekStart(today), -7 * (count - 1));
}

/** The run of scheduled days filled in a row through each day (by date), as streaks() counts it. */
export function runsThrough(cells: DayCell[]): Map<string, number> {
  const out = new Map<string, number>();
  let run = 0;
  for (const cell of cells) {
    if (cell.state === 'filled') run++;
    else if (cell.state === 'missed') run = 0;
    out.set(cell.date, run);
  }
  return out;
}

/** What `checkin stats` shows (domain/stats.ts gathers it): the window and its figures. */
interface StatsCommon {
  since: string;
  until: string;
  /** Today in the zone of the one asking. */
  today: string;
  weeks_count: number;
  totals: Tally;
  weeks: WeekTally[];
  open_blockers: OpenBlocker[];
}

export interface PersonStats extends StatsCommon {
  kind: 'person';
  person: { id: string; name: string };
  /** The zone the person's days are read in (their profile's; null: this run's own). */
  zone: string | null;
  streak: Streaks;
  days: DayCell[];
}

export interface TeamStats extends StatsCommon {
  kind: 'team';
  teams: Array<{ id: string; name: string }>;
  /** People with a check-in in the window (never named with their counts). */
  people: number;
  days: TeamDayTally[];
}

export type Stats = PersonStats | TeamStats;
