// `checkin stats` against the sandbox's demo data on the fake clock (Sun 22 Nov 2026, 09:30 UTC):
// the exact picture at 80 columns, the same figures in --json, the exact requests (fresh config and
// `me` cached: the rows of docs/topics/speed.md), and what is refused before any request.
import { describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();

const ADA_80 = `Ada Lovelace · 12 weeks, Mon 31 Aug – Sun 22 Nov 2026

      Sep     Oct     Nov
Mon ● ● ◐ ✗ ● · ● ● ● ● ● ●
Tue ● ● ● ● ● · ◐ ● ● ● ● ●
Wed ● ● ● ● ● · ● ● ● ◐ ● ●
Thu ◐ ● ● ● ● · ✗ ● ● ● ● ●
Fri ✗ ● ● ◐ ● · ● ● ● ● · ●
Sat ● ● ● ● ● · ● ◐ ● ● · ●
Sun ● ● ● ● · ● ● ● ✗ ● ✗ ◌
● filled on the day  ◐ filled later  ✗ missed  ~ absent  ◌ pending (today)
· nothing scheduled

Streak: 6 scheduled days filled in a row (since Mon 16 Nov); the longest 16
  (from Sat 5 Sep)
Filled 69 of 75 scheduled days (6 later), missed 5, 1 pending, blocked 1 day

Mood, a letter a day (blank: no mood that day)
31 Aug  h co hf  happy 2, calm 1, confident 1, 1 more
 7 Sep  con fco  calm 2, confident 2, focused 1, 1 more
14 Sep  nhfco t  calm 1, confident 1, focused 1, 3 more
21 Sep   fwttsf  focused 2, tired 2, stressed 1, 1 more
28 Sep   ttsfw   tired 2, focused 1, stressed 1, 1 more
 5 Oct        e  excited 1
12 Oct  ch  ech  calm 2, happy 2, excited 1
19 Oct  fuec fu  focused 2, thoughtful 2, calm 1, 1 more
26 Oct  echfue   excited 2, calm 1, focused 1, 2 more
 2 Nov  hfuechh  happy 3, calm 1, excited 1, 2 more
 9 Nov  cnot     calm 1, confident 1, nerdy 1, 1 more
16 Nov  efhcno   calm 1, confident 1, excited 1, 3 more
c calm  f focused  h happy  e excited  o confident  t tired  n nerdy
u thoughtful  s stressed  w worried

Blocked days a week
31 Aug  ████ 1
 7 Sep  0
14 Sep  0
21 Sep  0
28 Sep  0
 5 Oct  0
12 Oct  0
19 Oct  0
26 Oct  0
 2 Nov  0
 9 Nov  0
16 Nov  0

Open blockers: none
`;

describe('checkin stats', () => {
  it("draws the demo person's twelve weeks exactly; GET /me and two pages on a fresh config, the two pages once me is cached", async () => {
    const r = await w.cli(['stats'], { tty: true, columns: 80 });
    expect(r).toMatchObject({ code: 0, stderr: '', stdout: ADA_80 });
    const ada = w.id('ada');
    const pages = [1, 2].map((p) => `GET /api/v2/check-ins?since=2026-08-31&until=2026-11-22&people_ids[]=${ada}&page=${p}&per_page=50`);
    expect(w.sent()).toEqual(['GET /api/v2/me', ...pages]);
    w.forget();
    await w.cli(['stats'], { tty: true, columns: 80 });
    expect(w.sent()).toEqual(pages);
  });

  it("--json gives the figures drawn: the calendar's symbols counted, the streak, the weeks' blocked days", async () => {
    const s = JSON.parse((await w.cli(['stats', '--json'])).stdout);
    const count = (sym: string) => [...ADA_80.split('\n').slice(3, 10).join('')].filter((ch) => ch === sym).length;
    const days = s.days as Array<{ state: string; late: boolean }>;
    expect(count('●')).toBe(days.filter((d) => d.state === 'filled' && !d.late).length);
    expect(count('◐')).toBe(s.totals.late);
    expect(count('✗')).toBe(s.totals.missed);
    expect(count('◌')).toBe(s.totals.pending);
    expect(count('·')).toBe(days.filter((d) => d.state === 'nothing-scheduled').length);
    expect(s.streak).toEqual({ current: 6, current_since: '2026-11-16', longest: 16, longest_since: '2026-09-05', at_least: false });
    expect(s.weeks.map((x: { blocked: number }) => x.blocked)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(s.totals).toMatchObject({ scheduled: 75, filled: 69, late: 6, missed: 5, pending: 1, blocked: 1 });
  });

  it('--team: the team as a whole; the directory on a fresh config, then only the pages (no page past the end)', async () => {
    await w.cli(['me']);
    w.forget();
    const r = await w.cli(['stats', '--team', 'Mobile', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    const mobile = s.teams[0].id;
    const pages = [1, 2, 3, 4].map((p) => `GET /api/v2/check-ins?since=2026-08-31&until=2026-11-22&team_ids[]=${mobile}&page=${p}&per_page=50`);
    expect(w.sent()).toEqual(['GET /api/v2/people?page=1&per_page=50', 'GET /api/v2/teams?page=1&per_page=50', ...pages]);
    // The long blocker of the history: Margaret's, two and a half weeks in September, resolved.
    expect(s.weeks.map((x: { blocked: number }) => x.blocked)).toEqual([1, 0, 5, 5, 3, 0, 0, 0, 0, 0, 0, 0]);
    expect(s.open_blockers).toEqual([]);
    expect(JSON.stringify(s.days)).not.toMatch(/Margaret|Alan|Ada/);
    w.forget();
    await w.cli(['stats', '--team', 'Mobile']);
    expect(w.sent()).toEqual(pages);
  });

  it('without a UTF-8 locale (LANG=C) the symbols and bars are ASCII, one per state as before', async () => {
    const r = await w.cli(['stats'], { tty: true, columns: 80, env: { LANG: 'C' } });
    const ascii: Record<string, string> = { '●': '#', '◐': '+', '✗': 'x', '~': '~', '◌': '?', '·': '.' };
    const rows = (text: string) => text.split('\n').slice(3, 10);
    expect(rows(r.stdout)).toEqual(rows(ADA_80).map((l) => l.replace(/[●◐✗~◌·]/g, (ch) => ascii[ch]!)));
    expect(r.stdout).toContain('31 Aug  #### 1\n');
    expect(r.stdout).toContain('# filled on the day  + filled later  x missed  ~ absent  ? pending (today)');
  });

  it("reads another person's days in their profile's zone, summer time in summer: 07:30 UTC on 11 Sep is the next day in Los Angeles (PDT), so late", async () => {
    const linus = w.id('linus');
    const data = w.sb.service.data;
    data.check_ins = data.check_ins.filter((c) => !(c.person_id === linus && c.date === '2026-09-10'));
    const stamp = '2026-09-11T07:30:00Z';
    data.check_ins.push({
      id: '',
      person_id: linus,
      date: '2026-09-10',
      previous: null,
      intentions: '- x',
      blockers: null,
      mood: 'calm',
      previous_completed: null,
      team_ids: null,
      completed_at: stamp,
      updated_at: stamp,
    });
    const s = JSON.parse((await w.cli(['stats', '--person', '@linus', '--json', 'zone,days'])).stdout);
    expect(s.zone).toBe('America/Los_Angeles');
    expect(s.days.find((d: { date: string }) => d.date === '2026-09-10')).toEqual({
      date: '2026-09-10',
      state: 'filled',
      late: true,
      blocked: false,
      mood: 'calm',
    });
  });

  it('a range that starts in another year says that year too (53 weeks: drawn and in the sentences)', async () => {
    const drawn = await w.cli(['stats', '--weeks', '53'], { tty: true, columns: 80 });
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(drawn.stdout.split('\n')[0]).toMatch(/^Ada Lovelace · 53 weeks, Mon 17 Nov 2025 – Sun 22 Nov 2026/);
    const said = await w.cli(['stats', '--weeks', '53', '--team', 'Mobile'], { tty: true, columns: 80, accessible: true });
    expect(said.code, said.stderr).toBe(0);
    // (At 80 columns the sentence continues on the next line, broken between words.)
    expect(said.stdout.split('\n').slice(0, 2).join(' ')).toContain(', 53 weeks from Mon 17 Nov 2025 to Sun 22 Nov 2026.');
    const twelve = await w.cli(['stats'], { tty: true, columns: 80, accessible: true });
    expect(twelve.stdout.split('\n')[0]).toBe('Ada Lovelace, 12 weeks from Mon 31 Aug to Sun 22 Nov 2026.');
  });

  it("a team's mood mix says a week with nothing scheduled as that, not as 'no mood chosen' (as its sentence says it)", async () => {
    const r = await w.cli(['stats', '--team', 'Mobile', '--weeks', '53'], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const mix = r.stdout.split('\n\n').find((block) => block.startsWith('Mood mix a week'))!;
    expect(mix.split('\n')[1]).toBe('17 Nov  nothing scheduled');
    expect(mix).not.toContain('no mood chosen');
    const said = await w.cli(['stats', '--team', 'Mobile', '--weeks', '53'], { tty: true, columns: 80, accessible: true });
    expect(said.stdout).toContain('Week of 17 Nov: nothing scheduled.');
  });

  it('refuses --person with --team, and more than 53 weeks, before any request', async () => {
    expect(await w.cli(['stats', '--person', 'me', '--team', 'Mobile'])).toMatchObject({
      code: 2,
      stderr: 'error: Give --person or --team, not both: a team is shown as a whole, never person by person\n',
    });
    expect((await w.cli(['stats', '--weeks', '54'])).code).toBe(2);
    expect(w.sent().filter((r) => !r.endsWith('/me'))).toEqual([]);
  });
});
