// The person's day: TZ, else the zone on their profile (Rails or IANA), else the machine's; and
// the day words. In-process against the sandbox, on a fake clock, with TZ unset for checkin.
import { describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../src/core/datekey.js';
import { parseDay, parseKey, parseRangeDay } from '../../src/core/keys.js';
import { otherSandbox } from '../helpers/harness.js';

// 02:30 UTC on Sunday 22 November: still Saturday 21 November in New York.
const EARLY = new Date('2026-11-22T02:30:00Z');

describe("today is the person's day", () => {
  it('TZ unset: the profile zone (a Rails name) decides the date key; an explicit TZ wins', async () => {
    const w = await otherSandbox({}, EARLY);
    try {
      const grace = { CHECKIN_TOKEN: 'sandbox_pat_grace', TZ: undefined };
      const r = await w.cli(['today', '-i', 'from New York', '--json'], { env: grace });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(w.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/me', 'PATCH /api/v2/check-ins/2026-11-21']);
      w.sb.requests.length = 0;
      // The zone came with `me`, which is cached: the next run sends one request.
      expect((await w.cli(['today', '-i', 'again', '--json'], { env: grace })).code).toBe(0);
      expect(w.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['PATCH /api/v2/check-ins/2026-11-21']);
      w.sb.requests.length = 0;
      expect((await w.cli(['today', '-i', 'utc', '--json'], { env: { ...grace, TZ: 'UTC' } })).code).toBe(0);
      expect(w.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['PATCH /api/v2/check-ins/2026-11-22']);
      const me = await w.cli(['me'], { env: grace });
      expect(me.stdout).toContain(
        "time zone: Eastern Time (US & Canada)\ntoday: 2026-11-21 (in your profile's zone, Eastern Time (US & Canada) (America/New_York))\n",
      );
    } finally {
      await w.sb.close();
    }
  });

  it('an IANA profile zone works as well; a name that maps to nothing falls back to the machine with one warning', async () => {
    const w = await otherSandbox({}, EARLY);
    try {
      const grace = w.sb.service.data.people.find((p) => p.username === 'grace')!;
      grace.time_zone = 'America/Los_Angeles';
      const env = { CHECKIN_TOKEN: 'sandbox_pat_grace', TZ: undefined };
      expect((await w.cli(['status', '--json'], { env })).stdout).toContain('"date": "2026-11-21"');
      grace.time_zone = 'Atlantis Standard Time';
      const r = await w.cli(['status', '--json'], { env: { ...env, CHECKIN_CONFIG_DIR: `${w.env.CHECKIN_CONFIG_DIR}-2` } });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('warning: your profile\'s time zone "Atlantis Standard Time" is not one checkin knows; using this machine\'s zone (UTC)\n');
      expect(JSON.parse(r.stdout).date).toBe('2026-11-22');
    } finally {
      await w.sb.close();
    }
  });
});

describe('day words', () => {
  const SUNDAY = '2026-11-22';
  const MONDAY = '2026-11-23';
  it('tomorrow, last <weekday>, workday', () => {
    expect(parseDay('tomorrow', SUNDAY)).toBe('2026-11-23');
    expect(parseDay('last friday', SUNDAY)).toBe('2026-11-20');
    expect(parseDay('last-fri', SUNDAY)).toBe('2026-11-20');
    expect(parseDay('LAST  Friday', SUNDAY)).toBe('2026-11-20');
    expect(parseDay('friday', SUNDAY)).toBe('2026-11-20');
    expect(parseDay('workday', MONDAY)).toBe('2026-11-20'); // Monday → Friday
    expect(parseDay('workday', SUNDAY)).toBe('2026-11-20');
    expect(parseDay('workday', '2026-11-25')).toBe('2026-11-24');
    expect(parseKey('tomorrow', SUNDAY)).toEqual({ kind: 'date', date: '2026-11-23' });
    expect(parseKey('last', SUNDAY)).toEqual({ kind: 'last' });
    expect(() => parseKey('last fryday', SUNDAY)).toThrow(/^Unknown key "last fryday"/);
    expect(() => parseKey('next friday', SUNDAY)).toThrow(/^Unknown key/);
  });

  it('a bare weekday name: before today as a key, on or before today in a range ("last": before today in both)', () => {
    expect(parseRangeDay('monday', MONDAY, '--since')).toBe(MONDAY);
    expect(parseRangeDay('Mon', MONDAY, '--since')).toBe(MONDAY);
    expect(parseRangeDay('sunday', SUNDAY, '--since')).toBe(SUNDAY);
    expect(parseRangeDay('monday', SUNDAY, '--since')).toBe('2026-11-16');
    expect(parseRangeDay('last monday', MONDAY, '--since')).toBe('2026-11-16');
    expect(parseRangeDay('last-sun', SUNDAY, '--since')).toBe('2026-11-15');
    expect(parseKey('monday', MONDAY)).toEqual({ kind: 'date', date: '2026-11-16' });
    expect(parseKey('sunday', SUNDAY)).toEqual({ kind: 'date', date: '2026-11-15' });
  });

  // On the real clock (the dated passes run it on a Sunday, a Monday, …): the expectations come from the calendar.
  it('list --since monday is this week on any day, a Monday included (a key: views.test.ts)', async () => {
    const now = new Date();
    const w = await otherSandbox({}, now);
    try {
      const today = now.toISOString().slice(0, 10); // checkin runs with TZ=UTC (cleanEnv)
      const back = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
      const sinceMonday = (now.getUTCDay() + 6) % 7; // 0 on a Monday
      const list = async (since: string) => {
        w.sb.requests.length = 0;
        expect(await w.cli(['list', '--since', since, '--json'])).toMatchObject({ code: 0, stderr: '' });
        return new URLSearchParams(w.sb.requests.find((q) => q.path === '/api/v2/check-ins')?.query).get('since');
      };
      expect(await list('monday')).toBe(back(sinceMonday));
      expect(await list('last monday')).toBe(back(sinceMonday || 7));
      const todayName = WEEKDAYS[now.getUTCDay()]!;
      expect(await list(todayName)).toBe(today);
      expect(await list(`last ${todayName}`)).toBe(back(7));
    } finally {
      await w.sb.close();
    }
  });

  it("checkin checkin tomorrow fills in tomorrow's check-in (generated in advance)", async () => {
    const w = await otherSandbox({});
    try {
      const r = await w.cli(['checkin', 'tomorrow', '-i', 'Before my day off', '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ date: '2026-11-23', intentions: 'Before my day off' });
    } finally {
      await w.sb.close();
    }
  });
});

describe('the cached zone table', () => {
  it('gives the same date as ICU for every 3 hours of a year, across DST, for Rails and IANA names', async () => {
    const { zoneTable } = await import('../../src/core/zone.js');
    const { dateKeyAtOffset } = await import('../../src/core/datekey.js');
    const { TZDate } = await import('@date-fns/tz');
    const { format } = await import('date-fns/format');
    // The oracle: ICU's calendar date of the instant in the zone.
    const dateKeyIn = (at: Date, zone: string) => format(new TZDate(at.getTime(), zone), 'yyyy-MM-dd');
    const start = new Date('2026-01-01T00:00:00Z');
    for (const name of ['Eastern Time (US & Canada)', 'London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham']) {
      const table = zoneTable(name, start)!;
      expect(table.offsets.length, name).toBeGreaterThanOrEqual(1);
      for (let t = start.getTime(); t < table.until - 86_400_000; t += 3 * 3_600_000) {
        const at = new Date(t);
        if (dateKeyAtOffset(at, table.offsets) !== dateKeyIn(at, table.iana)) throw new Error(`${name} at ${at.toISOString()}`);
      }
    }
    expect(zoneTable('Atlantis Standard Time', start)).toBeUndefined();
  });
});
