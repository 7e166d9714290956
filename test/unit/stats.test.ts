// The rules of `checkin stats` (core/stats.ts) over constructed histories: the calendar's states,
// streaks across gaps, absences and unscheduled days, zone edges at midnight, a pending today,
// weeks, a team's counts and the open blockers with how long each has stood.
import { describe, expect, it } from 'vitest';
import type { CheckIn } from '../../src/api/types.js';
import { dateKeyAtOffset } from '../../src/core/datekey.js';
import { openBlockers, personCalendar, streaks, tally, teamCalendar, weeks, windowStart, type PersonDay } from '../../src/core/stats.js';

const ADA = { id: 'a', name: 'Ada' };
const LINUS = { id: 'l', name: 'Linus' };

function ci(date: string, more: Partial<CheckIn> = {}): CheckIn {
  return {
    id: `${more.person?.id ?? 'a'}-${date}`,
    date,
    person: ADA,
    previous: null,
    intentions: null,
    blockers: null,
    mood: 'focused',
    blocked: false,
    absent: false,
    completed_at: `${date}T09:00:00Z`,
    url: null,
    ...more,
  } as CheckIn;
}
const missed = (date: string, more: Partial<CheckIn> = {}) => ci(date, { completed_at: null, mood: null, ...more });

/** A person in UTC whose today is `today`. */
const utc = (today: string): PersonDay => ({ today, dateOf: (iso) => iso.slice(0, 10) });
/** A person at a fixed offset (minutes) at the instant `now`. */
const zoned = (now: string, minutes: number): PersonDay => ({
  today: dateKeyAtOffset(new Date(now), [[0, minutes]]),
  dateOf: (iso) => dateKeyAtOffset(new Date(iso), [[0, minutes]]),
});

describe('the calendar', () => {
  it('gives every day of the range one state: filled, late, missed, absent, pending, none', () => {
    const list = [
      ci('2026-11-16'),
      ci('2026-11-17', { completed_at: '2026-11-18T08:00:00Z' }),
      missed('2026-11-18'),
      missed('2026-11-19', { absent: true }),
      missed('2026-11-21'),
    ];
    const cells = personCalendar(list, { since: '2026-11-16', until: '2026-11-22' }, utc('2026-11-21'));
    expect(cells.map((c) => [c.date, c.state, c.late])).toEqual([
      ['2026-11-16', 'filled', false],
      ['2026-11-17', 'filled', true],
      ['2026-11-18', 'missed', false],
      ['2026-11-19', 'absent', false],
      ['2026-11-20', 'nothing-scheduled', false],
      ['2026-11-21', 'pending', false],
      ['2026-11-22', 'nothing-scheduled', false],
    ]);
  });

  it('reads "on the day" in the person\'s zone: 23:30 in Los Angeles is the same day, 00:30 in London the next', () => {
    // 2026-11-17T07:30Z is 23:30 on the 16th at UTC-8.
    const la = personCalendar(
      [ci('2026-11-16', { completed_at: '2026-11-17T07:30:00Z' })],
      { since: '2026-11-16', until: '2026-11-16' },
      zoned('2026-11-20T00:00:00Z', -480),
    );
    expect(la[0]).toMatchObject({ state: 'filled', late: false });
    const london = personCalendar(
      [ci('2026-11-16', { completed_at: '2026-11-17T00:30:00Z' })],
      { since: '2026-11-16', until: '2026-11-16' },
      zoned('2026-11-20T00:00:00Z', 0),
    );
    expect(london[0]).toMatchObject({ state: 'filled', late: true });
  });

  it("a day not over in the person's zone is pending, not missed: 07:30 UTC is still yesterday in Los Angeles", () => {
    const now = '2026-11-17T07:30:00Z';
    const la = personCalendar([missed('2026-11-16')], { since: '2026-11-16', until: '2026-11-16' }, zoned(now, -480));
    expect(la[0]!.state).toBe('pending');
    const tokyo = personCalendar([missed('2026-11-16')], { since: '2026-11-16', until: '2026-11-16' }, zoned(now, 540));
    expect(tokyo[0]!.state).toBe('missed');
  });

  it('marks blocked only a filled day with a real blocker ("none" is none), and keeps moods as given, null as a gap', () => {
    const cells = personCalendar(
      [ci('2026-11-16', { blockers: 'Waiting on review', blocked: true, mood: 'stressed' }), ci('2026-11-17', { blockers: 'none', blocked: true, mood: null })],
      { since: '2026-11-16', until: '2026-11-17' },
      utc('2026-11-20'),
    );
    expect(cells.map((c) => [c.blocked, c.mood])).toEqual([
      [true, 'stressed'],
      [false, null],
    ]);
  });
});

describe('streaks', () => {
  const range = { since: '2026-11-02', until: '2026-11-22' };
  it('days with nothing scheduled and absences neither count nor break a run; a missed day breaks it', () => {
    const list = [
      ci('2026-11-02'),
      ci('2026-11-03'),
      missed('2026-11-04'),
      ci('2026-11-05'),
      ci('2026-11-06'),
      /* 7, 8: weekend, nothing scheduled */ ci('2026-11-09'),
      missed('2026-11-10', { absent: true }),
      ci('2026-11-11'),
      ci('2026-11-12', { completed_at: '2026-11-13T10:00:00Z' }),
      /* 13–17 away: no check-ins */ ci('2026-11-18'),
      missed('2026-11-19'),
      ci('2026-11-20'),
    ];
    const s = streaks(personCalendar(list, range, utc('2026-11-22')));
    expect(s).toEqual({ current: 1, current_since: '2026-11-20', longest: 6, longest_since: '2026-11-05', at_least: false });
  });

  it("today still pending does not break the run; once its day is over in the person's zone, it does", () => {
    const list = [ci('2026-11-18'), ci('2026-11-19'), missed('2026-11-20')];
    const r = { since: '2026-11-18', until: '2026-11-20' };
    // 06:00 UTC on the 21st is still the 20th in Los Angeles: pending.
    expect(streaks(personCalendar(list, r, zoned('2026-11-21T06:00:00Z', -480)))).toMatchObject({ current: 2, current_since: '2026-11-18', at_least: true });
    // 09:00 UTC on the 21st is the 21st in London: the 20th was missed.
    expect(streaks(personCalendar(list, r, zoned('2026-11-21T09:00:00Z', 0)))).toMatchObject({ current: 0, current_since: null, longest: 2, at_least: false });
  });

  it('says a run that reaches the first day looked at may be longer; nothing scheduled at all is 0', () => {
    expect(streaks(personCalendar([ci('2026-11-02'), ci('2026-11-03')], range, utc('2026-11-22')))).toMatchObject({ current: 2, longest: 2, at_least: true });
    expect(streaks(personCalendar([], range, utc('2026-11-22')))).toEqual({
      current: 0,
      current_since: null,
      longest: 0,
      longest_since: null,
      at_least: false,
    });
  });
});

describe("weeks, a team's days and the open blockers", () => {
  it('tallies each week Monday to Sunday: scheduled, filled, late, missed, absent, blocked, the mood mix with gaps', () => {
    const cells = personCalendar(
      [
        ci('2026-11-16', { mood: 'tired' }),
        ci('2026-11-17', { mood: 'focused' }),
        ci('2026-11-18', { mood: 'focused', blockers: 'x', blocked: true }),
        ci('2026-11-19', { mood: null, completed_at: '2026-11-21T09:00:00Z' }),
        missed('2026-11-20'),
        missed('2026-11-23', { absent: true }),
      ],
      { since: '2026-11-16', until: '2026-11-23' },
      utc('2026-11-24'),
    );
    const w = weeks(cells);
    expect(w.map((x) => x.week)).toEqual(['2026-11-16', '2026-11-23']);
    expect(w[0]).toEqual({
      week: '2026-11-16',
      scheduled: 5,
      filled: 4,
      late: 1,
      missed: 1,
      pending: 0,
      absent: 0,
      blocked: 1,
      moods: [
        { mood: 'focused', count: 2 },
        { mood: 'tired', count: 1 },
      ],
      no_mood: 1,
    });
    expect(w[1]).toMatchObject({ scheduled: 0, absent: 1 });
  });

  it("counts a team's day over its people without naming them", () => {
    const r = { since: '2026-11-19', until: '2026-11-20' };
    const ada = personCalendar([ci('2026-11-19'), ci('2026-11-20', { mood: 'happy' })], r, utc('2026-11-21'));
    const linus = personCalendar(
      [ci('2026-11-19', { person: LINUS, blockers: 'Waiting', blocked: true, mood: 'stressed' }), missed('2026-11-20', { person: LINUS })],
      r,
      utc('2026-11-21'),
    );
    const team = teamCalendar([ada, linus], r);
    expect(team.map((d) => [d.date, d.scheduled, d.filled, d.missed, d.blocked])).toEqual([
      ['2026-11-19', 2, 2, 0, 1],
      ['2026-11-20', 2, 1, 1, 0],
    ]);
    expect(JSON.stringify(team)).not.toMatch(/Linus|Ada/);
    expect(tally([...ada, ...linus]).moods).toEqual([
      { mood: 'focused', count: 1 },
      { mood: 'happy', count: 1 },
      { mood: 'stressed', count: 1 },
    ]);
  });

  it("an open blocker is a person's newest filled check-in when blocked, with how long it has stood (absences skipped, a later empty day leaves it open)", () => {
    const words = '- Waiting on @ada to review the webhook retry change';
    const list = [
      ci('2026-11-16', { person: LINUS, blockers: words, blocked: true }),
      missed('2026-11-17', { person: LINUS, absent: true }),
      ci('2026-11-18', { person: LINUS, blockers: words, blocked: true }),
      ci('2026-11-19', { person: LINUS, blockers: words, blocked: true }),
      missed('2026-11-20', { person: LINUS }),
      ci('2026-11-18', { blockers: 'Old thing', blocked: true }),
      ci('2026-11-19'),
    ];
    expect(openBlockers(list)).toEqual([
      { person: LINUS, blockers: words, date: '2026-11-19', run: { days: 3, since: '2026-11-16', at_least: true }, check_in_id: 'l-2026-11-19' },
    ]);
  });

  it("a window of N weeks starts on the Monday N-1 weeks before this week's", () => {
    expect(windowStart('2026-11-26', 1)).toBe('2026-11-23');
    expect(windowStart('2026-11-26', 12)).toBe('2026-09-07');
  });
});

describe("a report's streak window (domain/stats.ts streakWindow)", () => {
  it('is the twelve weeks `checkin stats` shows, ending with the period, or the whole period when longer', async () => {
    const { streakWindow } = await import('../../src/domain/stats.js');
    expect(streakWindow({ since: '2026-11-19', until: '2026-11-20' })).toEqual({ since: '2026-08-31', weeks: 12 });
    expect(streakWindow({ since: '2026-11-16', until: '2026-11-22' }, 6)).toEqual({ since: '2026-08-31', weeks: 12 });
    // Half a year: the period's own weeks (from the Monday of its first).
    expect(streakWindow({ since: '2026-05-20', until: '2026-11-20' })).toEqual({ since: '2026-05-18', weeks: 27 });
  });

  it('for many people, only the weeks before the period that 20 pages hold (the report says how many)', async () => {
    const { streakWindow, STREAK_PAGES } = await import('../../src/domain/stats.js');
    expect(STREAK_PAGES).toBe(20);
    // 30 a day: 210 a week, so 4 weeks (840 check-ins, 17 pages) before this one.
    expect(streakWindow({ since: '2026-11-16', until: '2026-11-22' }, 30)).toEqual({ since: '2026-10-19', weeks: 5 });
    // 200 a day: not one week more than the period.
    expect(streakWindow({ since: '2026-11-16', until: '2026-11-22' }, 200)).toEqual({ since: '2026-11-16', weeks: 1 });
    expect(streakWindow({ since: '2026-11-09', until: '2026-11-22' }, 200)).toEqual({ since: '2026-11-09', weeks: 2 });
  });
});
