// The demo's older history (src/sandbox/history.ts): strictly before today and never stamped after
// now, whatever the hour (midnight's edges included), and holding what every picture of `checkin
// stats` needs to show something true: absences, days off, missed and late days, moods that swing,
// a blocker that stood for weeks.
import { describe, expect, it } from 'vitest';
import { addDays, localDateKey } from '../../src/core/datekey.js';
import { demoData } from '../../src/sandbox/demo.js';
import { HISTORY_DAYS, LONG_BLOCKER, RECENT_DAYS } from '../../src/sandbox/history.js';
import { stableUuid } from '../../src/sandbox/ids.js';

describe('the demo history', () => {
  for (const at of ['2026-11-22T09:30:00Z', '2026-11-22T00:00:01Z', '2026-11-21T23:59:59Z', '2026-03-29T01:30:00Z']) {
    it(`at ${at}: every day before today, every stamp at or before now`, () => {
      const now = new Date(at);
      const today = localDateKey(now);
      const data = demoData(now);
      expect(data.start_date).toBe(addDays(today, -(HISTORY_DAYS + RECENT_DAYS)));
      const old = data.check_ins.filter((c) => c.date < addDays(today, -RECENT_DAYS));
      expect(old.length).toBeGreaterThan(300);
      for (const c of data.check_ins) {
        if (c.date >= today) continue;
        expect(c.date < today).toBe(true);
      }
      for (const c of old) {
        if (c.completed_at) expect(Date.parse(c.completed_at)).toBeLessThanOrEqual(now.getTime());
        expect(Date.parse(c.updated_at)).toBeLessThanOrEqual(now.getTime());
      }
      for (const a of data.absences) expect(a.from <= a.to).toBe(true);
    });
  }

  it('holds absences, sick days, missed and late days, mood swings and a long blocker', () => {
    const now = new Date('2026-11-22T09:30:00Z');
    const today = localDateKey(now);
    const data = demoData(now);
    const old = data.check_ins.filter((c) => c.date < addDays(today, -RECENT_DAYS));
    // A week's holiday known in advance: no check-in generated for those days.
    const ada = stableUuid('person:ada');
    expect(data.absences.some((a) => a.person_id === ada && a.to > a.from)).toBe(true);
    expect(old.filter((c) => c.absent)).toHaveLength(2);
    expect(old.filter((c) => c.completed_at && c.completed_at.slice(0, 10) > c.date).length).toBeGreaterThan(10);
    const blocked = old
      .filter((c) => c.blockers === LONG_BLOCKER)
      .map((c) => c.date)
      .sort();
    expect(blocked.length).toBeGreaterThanOrEqual(12);
    const moods = (from: number, to: number) => new Set(old.filter((c) => c.date >= addDays(today, -from) && c.date <= addDays(today, -to)).map((c) => c.mood));
    expect(moods(62, 43)).toContain('stressed');
    expect(moods(100, 70)).not.toContain('stressed');
  });
});
