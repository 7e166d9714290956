// `checkin report`: the period on one page, asserted exactly on the sandbox's fixed demo data
// (the fake clock stands on Sun 22 Nov 2026).
import MarkdownIt from 'markdown-it';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import type { Mood } from '../../src/api/types.js';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();
const period = ['--since', '2026-11-19', '--until', '2026-11-20'];

const MARKDOWN = `# Check-ins, Thu 19 Nov – Fri 20 Nov 2026

## Ada Lovelace

2 of 2 days checked in · 0 days blocked · streak 5 days (longest 16 in 12 weeks) · moods: 😌 calm ×1, 🤓 nerdy ×1 · 1 goal update

- Goal update “Invoices endpoint in review” on Ship the v2 billing API (2026-11-19): 35%, At risk

### Thu 19 Nov — 😌 calm

Did what was intended: yes

**Previous:**

- Finish the *rate limiter* design doc
- Demo the new dashboard to the support team
- Pair with @linus on the flaky \`checkout\` test

**Intentions:**

- Clean up feature flags older than 90 days
- Finish the *rate limiter* design doc

### Fri 20 Nov — 🤓 nerdy

Did what was intended: yes

**Previous:**

- Clean up feature flags older than 90 days
- Finish the *rate limiter* design doc

**Intentions:**

- Ship the onboarding email tweaks
- Clean up feature flags older than 90 days
- Finish the *rate limiter* design doc
`;

const CSV = `date,person,done,state,mood,did_what_was_intended,blocked,previous,intentions,blockers,streak,filled_days,blocked_days
2026-11-19,Ada Lovelace,yes,filled,calm,yes,no,"'- Finish the *rate limiter* design doc
- Demo the new dashboard to the support team
- Pair with @linus on the flaky \`checkout\` test","'- Clean up feature flags older than 90 days
- Finish the *rate limiter* design doc",,4,1,0
2026-11-20,Ada Lovelace,yes,filled,nerdy,yes,no,"'- Clean up feature flags older than 90 days
- Finish the *rate limiter* design doc","'- Ship the onboarding email tweaks
- Clean up feature flags older than 90 days
- Finish the *rate limiter* design doc",,5,2,0
`;

describe('checkin report', () => {
  it('Markdown (the default) for one person: summary line, goal updates, each day; four requests once me is known', async () => {
    await w.cli(['me']);
    w.forget();
    const r = await w.cli(['report', '--person', 'me', ...period]);
    expect(r).toMatchObject({ code: 0, stderr: '', stdout: MARKDOWN });
    const ada = w.id('ada');
    const billing = w.sb.service.data.goals.find((g) => g.owner_id === ada)!.id;
    // One walk over the twelve weeks the streak is counted in (the period's days come first, newest
    // first): at most 84 check-ins, so two pages and none past the end; then the goals.
    expect([...w.sent()].sort()).toEqual([
      `GET /api/v2/check-ins?since=2026-08-31&until=2026-11-20&people_ids[]=${ada}&page=1&per_page=50`,
      `GET /api/v2/check-ins?since=2026-08-31&until=2026-11-20&people_ids[]=${ada}&page=2&per_page=50`,
      `GET /api/v2/goals/${billing}/goal-updates?per_page=50`,
      `GET /api/v2/goals?people_ids[]=${ada}&page=1&per_page=50`,
    ]);
  });

  it('the streak is not cut at the period: a run that began before it counts whole, as `checkin stats` counts it (each person in their zone)', async () => {
    // Ada's run began Mon 16 Nov (she missed Sun 15): through Thu 19 – Fri 20 it is 5 days, not 2.
    const two = JSON.parse((await w.cli(['report', '--person', 'me', ...period, '--format', 'json'])).stdout);
    expect(two.people[0].summary.streak).toEqual({
      current: 5,
      current_since: '2026-11-16',
      longest: 16,
      longest_since: '2026-09-05',
      at_least: false,
      since: '2026-08-31',
      weeks: 12,
    });
    // This week (to today, Sun 22 Nov) for the whole Platform team: each person's streak is the one
    // `checkin stats --person` gives them today, over the same twelve weeks.
    const week = JSON.parse((await w.cli(['report', '--team', 'Platform', '--week', '--format', 'json'])).stdout);
    expect(week.people.length).toBeGreaterThan(2);
    for (const p of week.people as Array<{ person: { id: string; name: string }; summary: { streak: Record<string, unknown> } }>) {
      const stats = JSON.parse((await w.cli(['stats', '--person', p.person.id, '--json', 'streak,since'])).stdout);
      expect(stats.since).toBe(p.summary.streak.since);
      expect({ ...p.summary.streak, since: undefined, weeks: undefined }, p.person.name).toEqual({ ...stats.streak, since: undefined, weeks: undefined });
    }
    // Some run crosses the period's first day (else this test would show nothing).
    expect(week.people.some((p: { summary: { streak: { current_since: string | null } } }) => (p.summary.streak.current_since ?? '9') < '2026-11-16')).toBe(
      true,
    );
    // The Markdown says over how many weeks the longest was counted.
    expect((await w.cli(['report', '--person', 'me', ...period])).stdout).toContain(' · streak 5 days (longest 16 in 12 weeks) · ');
  });

  it("a team's report asks for the directory once (the members bound the walk: no page past the end), then only the pages and the goals", async () => {
    await w.cli(['me']);
    w.forget();
    await w.cli(['report', '--team', 'Platform', '--last-week']);
    const first = w.sent();
    const walk = first.filter((r) => r.startsWith('GET /api/v2/check-ins'));
    const platform = w.sb.service.data.teams.find((t) => t.name === 'Platform')!;
    const held = w.sb.service.data.check_ins.filter((c) => platform.people_ids.includes(c.person_id) && c.date >= '2026-08-24' && c.date <= '2026-11-15');
    // Twelve weeks ending with last week; the pages there are, and one short page to see the end.
    expect(walk).toHaveLength(Math.floor(held.length / 50) + 1);
    expect(first.filter((r) => !r.startsWith('GET /api/v2/check-ins') && !r.includes('/goal'))).toEqual([
      'GET /api/v2/people?page=1&per_page=50',
      'GET /api/v2/teams?page=1&per_page=50',
    ]);
    expect(walk).toEqual(walk.map((_, i) => `GET /api/v2/check-ins?since=2026-08-24&until=2026-11-15&team_ids[]=${platform.id}&page=${i + 1}&per_page=50`));
    w.forget();
    await w.cli(['report', '--team', 'Platform', '--last-week']);
    expect(w.sent().filter((r) => r.includes('/people') || r.includes('/teams'))).toEqual([]);
    expect(w.sent().filter((r) => r.startsWith('GET /api/v2/check-ins'))).toEqual(walk);
  });

  it('everyone, with no directory to be had: the report still comes, every page asked for until a short one', async () => {
    await w.cli(['me']);
    w.forget();
    // GET /people fails (a 500 is not tried again): the walk is not bounded, and nobody's zone is read.
    w.sb.inject({ method: 'GET', path: '/people', status: 500, headers: { 'content-type': 'application/json' }, body: '{}' });
    const r = await w.cli(['report', '--week', '--format', 'json']);
    expect(r.code).toBe(0);
    const people = w.sb.requests.filter((q) => q.path === '/api/v2/people');
    expect(people.length).toBeGreaterThan(0);
    expect(people.every((q) => q.status === 500)).toBe(true);
    const held = w.sb.service.data.check_ins.filter((c) => c.date >= '2026-08-31' && c.date <= '2026-11-22').length;
    const walk = w.sent().filter((q) => q.startsWith('GET /api/v2/check-ins'));
    expect(walk).toEqual(walk.map((_, i) => `GET /api/v2/check-ins?since=2026-08-31&until=2026-11-22&page=${i + 1}&per_page=50`));
    expect(walk.length).toBeGreaterThanOrEqual(Math.floor(held / 50) + 1);
    expect(JSON.parse(r.stdout).people.find((p: { person: { name: string } }) => p.person.name === 'Ada Lovelace').summary.streak).toMatchObject({
      current: 6,
      longest: 16,
    });
  });

  it('at a terminal, the Markdown is wrapped at word edges to its width (a bullet continues under its text); piped, it is as written', async () => {
    const data = w.sb.service.data;
    const day = data.check_ins.find((c) => c.person_id === w.id('ada') && c.date === '2026-11-19')!;
    day.intentions = '- A long intention that goes on past forty columns for sure\n\n```\nkeep   this  code line exactly as it is written here\n```';
    const piped = await w.cli(['report', '--person', 'me', ...period]);
    const shown = await w.cli(['report', '--person', 'me', ...period], { tty: true, columns: 40 });
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\n');
    const { displayWidth } = await import('../../src/ui/width.js');
    // Wider only where the code block is, or a word alone is wider than the terminal.
    expect(lines.filter((l) => displayWidth(l) > 40 && !l.startsWith('keep ') && l.trim().includes(' '))).toEqual([]);
    expect(shown.stdout.split(/\s+/)).toEqual(piped.stdout.split(/\s+/));
    expect(lines).toContain('keep   this  code line exactly as it is written here');
    expect(shown.stdout).toContain('- A long intention that goes on past\n  forty columns for sure\n');
    expect(piped.stdout).toContain('- A long intention that goes on past forty columns for sure\n');
  });

  it('CSV: quoted where needed, formulas defused, one row per check-in', async () => {
    const r = await w.cli(['report', '--person', 'me', ...period, '--format', 'csv']);
    expect(r).toMatchObject({ code: 0, stderr: '', stdout: CSV });
  });

  it("an absence is not a scheduled day: Linus's week says `absent` for Tue 17 Nov in Markdown, CSV and HTML, and counts as `checkin stats` does", async () => {
    const week = ['--person', '@linus', '--week'];
    const md = (await w.cli(['report', ...week])).stdout.split('\n');
    expect(md[4]).toBe(
      '6 of 6 days checked in · absent 1 day · 3 days blocked · streak 22 days (longest 23 in 12 weeks) · moods: 🤯 stressed ×3, 🤓 nerdy ×1, 🤔 thoughtful ×1, 😴 tired ×1 · no goal updates',
    );
    expect(md.filter((l) => l.startsWith('### '))).toEqual([
      '### Mon 16 Nov — 🤓 nerdy',
      '### Tue 17 Nov — absent',
      '### Wed 18 Nov — 😴 tired',
      '### Thu 19 Nov — 🤔 thoughtful',
      '### Fri 20 Nov — 🤯 stressed · blocked',
      '### Sat 21 Nov — 🤯 stressed · blocked',
      '### Sun 22 Nov — 🤯 stressed · blocked',
    ]);
    const csv = (await w.cli(['report', ...week, '--format', 'csv'])).stdout.split('\n');
    expect(csv[0]).toBe('date,person,done,state,mood,did_what_was_intended,blocked,previous,intentions,blockers,streak,filled_days,blocked_days');
    expect(csv.filter((l) => l.startsWith('2026-11-17'))).toEqual(['2026-11-17,Linus Torvalds,no,absent,,,no,,,,17,1,0']);
    const html = (await w.cli(['report', ...week, '--format', 'html'])).stdout;
    expect(html).toContain('<p class="summary">6 of 6 days checked in · absent 1 day · 3 days blocked · ');
    expect(html).toContain('<h3>Tue 17 Nov — absent</h3>');
    // The same counts as `checkin stats` over the same week.
    const json = JSON.parse((await w.cli(['report', ...week, '--format', 'json'])).stdout);
    expect(json.people[0].summary).toMatchObject({ scheduled: 6, done: 6, absent: 1, blocked: 3 });
    const stats = (await w.cli(['stats', '--person', '@linus', '--weeks', '1'])).stdout;
    expect(stats).toContain('Filled 6 of 6 scheduled days');
    expect(stats).toContain('absent 1 day');
  });

  it('a team: one section per person by name, blocked days counted, formulas kept as text; --format json', async () => {
    const { call } = await import('../helpers/http.js');
    await call(w.sb.url, 'PATCH', '/check-ins/2026-11-20', { token: 'sandbox_pat_grace', body: { blockers: '=HYPERLINK("http://evil","x")' } });
    const md = await w.cli(['report', '--team', 'Platform', ...period]);
    expect(md.code).toBe(0);
    const sections = md.stdout.split('\n').filter((l) => l.startsWith('## '));
    expect(sections).toEqual([...sections].sort());
    expect(sections).toContain('## Grace Hopper');
    const grace = md.stdout.slice(md.stdout.indexOf('## Grace Hopper'));
    // Blocked on the 20th now (and on the 19th already, in the demo data).
    expect(grace.split('\n')[2]).toMatch(/^2 of 2 days checked in · 2 days blocked · /);
    expect(grace).toContain('**Blockers:** =HYPERLINK("http://evil","x")');
    const csv = await w.cli(['report', '--team', 'Platform', ...period, '--format', 'csv']);
    // A spreadsheet would run it as a formula: kept as text.
    expect(csv.stdout).toContain(`,"'=HYPERLINK(""http://evil"",""x"")",2,2,2\n`);
    const json = JSON.parse((await w.cli(['report', '--team', 'Platform', ...period, '--format', 'json'])).stdout);
    expect(json).toMatchObject({ since: '2026-11-19', until: '2026-11-20' });
    const g = json.people.find((p: { person: { name: string } }) => p.person.name === 'Grace Hopper');
    expect(g.summary).toMatchObject({ scheduled: 2, done: 2, blocked: 2 });
    expect(g.check_ins.map((c: { date: string }) => c.date)).toEqual(['2026-11-19', '2026-11-20']);
  });

  it('the weekly example works on every day of the week: --since "last monday" --until friday is one week, Monday to Friday; --week and --last-week', async () => {
    // The clock stands on Sun 22 Nov; each step is a day on (Mon 23 … Sun 29 Nov).
    const seen: string[] = [];
    for (let day = 0; day < 7; day++) {
      await w.clock.sleep(24 * 3600 * 1000);
      const r = await w.cli(['report', '--since', 'last monday', '--until', 'friday', '--format', 'json']);
      expect(r.code).toBe(0);
      const { since, until } = JSON.parse(r.stdout) as { since: string; until: string };
      seen.push(`${since}..${until}`);
    }
    // On a Monday "last monday" is a week ago (that week); from Tuesday on, this week.
    expect(seen).toEqual(['2026-11-16..2026-11-20', ...Array(6).fill('2026-11-23..2026-11-27')]);
    const week = JSON.parse((await w.cli(['report', '--week', '--format', 'json'])).stdout) as { since: string; until: string };
    const last = JSON.parse((await w.cli(['report', '--last-week', '--format', 'json'])).stdout) as { since: string; until: string };
    expect([week.since, week.until, last.since, last.until]).toEqual(['2026-11-23', '2026-11-29', '2026-11-16', '2026-11-22']);
    expect(await w.cli(['report', '--week', '--since', 'monday'])).toMatchObject({
      code: 2,
      stderr: 'error: --week is the whole period; leave out --since and --until\n',
    });
  });

  it('Markdown: hostile names, titles and moods render as text in real renderers — no element or link of theirs; answers stay Markdown', async () => {
    const HOSTILE = '<img src=x onerror=alert(1)> [x](javascript:alert(1)) # | a | www.evil.example';
    const data = w.sb.service.data;
    const ada = data.people.find((p) => p.username === 'ada')!;
    ada.name = `Ada ${HOSTILE}`;
    const goal = data.goals.find((g) => g.owner_id === ada.id)!;
    goal.title = `Goal ${HOSTILE}`;
    const update = data.goal_updates.find((u) => u.goal_id === goal.id && u.title === 'Invoices endpoint in review')!;
    update.title = `Update ${HOSTILE}`;
    // A mood the service may add (views show an unknown one as it is).
    const day = data.check_ins.find((c) => c.person_id === ada.id && c.date === '2026-11-19')!;
    day.mood = `<b>calm</b> [m](http://evil.example)` as Mood;
    day.previous = '- Shipped **the** [docs](https://docs.example)';
    const r = await w.cli(['report', '--person', 'me', ...period]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const escaped = '&lt;img src\\=x onerror\\=alert\\(1\\)&gt; \\[x\\]\\(javascript\\:alert\\(1\\)\\) \\# \\| a \\| www\\.evil\\.example';
    expect(r.stdout.split('\n').filter((l) => /^(##|- Goal|2 of)/.test(l))).toEqual([
      `## Ada ${escaped}`,
      '2 of 2 days checked in · 0 days blocked · streak 5 days (longest 16 in 12 weeks) · moods: &lt;b&gt;calm&lt;/b&gt; \\[m\\]\\(http\\://evil\\.example\\) ×1, 🤓 nerdy ×1 · 1 goal update',
      `- Goal update “Update ${escaped}” on Goal ${escaped} (2026-11-19): 35%, At risk`,
      '### Thu 19 Nov — &lt;b&gt;calm&lt;/b&gt; \\[m\\]\\(http\\://evil\\.example\\)',
      '### Fri 20 Nov — 🤓 nerdy',
    ]);
    const renderers: Array<[string, string]> = [
      ['markdown-it', new MarkdownIt({ html: true, linkify: true }).render(r.stdout)],
      ['marked', marked.parse(r.stdout, { async: false, gfm: true })],
    ];
    for (const [name, html] of renderers) {
      // The report's own structure and the answer's Markdown: nothing else.
      const tags = new Set([...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => m[1]));
      expect([...tags].sort(), name).toEqual(['a', 'em', 'h1', 'h2', 'h3', 'li', 'p', 'strong', 'ul']);
      // The one link is the one the person wrote in their answer.
      expect(
        [...html.matchAll(/<a [^>]*>/g)].map((m) => m[0]),
        name,
      ).toEqual(['<a href="https://docs.example">']);
      expect(html, name).not.toMatch(/<img|<b>|<table|href="(javascript|http:\/\/(www\.)?evil)/);
      expect(html, name).toContain(`<h2>Ada &lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1)) # | a | www.evil.example</h2>`);
    }
  });

  it('refuses a period that ends before it starts, and an unknown format, before any request', async () => {
    expect(await w.cli(['report', '--since', '2026-11-20', '--until', '2026-11-19'])).toMatchObject({
      code: 2,
      stderr: 'error: --since 2026-11-20 (Fri 20 Nov) is after --until 2026-11-19 (Thu 19 Nov)\n',
    });
    // Backwards with words: what each was understood as, and why.
    expect(await w.cli(['report', '--since', 'today', '--until', 'yesterday'])).toMatchObject({
      code: 2,
      stderr: 'error: --since 2026-11-22 (Sun 22 Nov, from "today") is after --until 2026-11-21 (Sat 21 Nov, from "yesterday")\n',
    });
    // A weekday name as the start: which one it was taken as, and how to be exact.
    expect(await w.cli(['report', '--since', 'saturday', '--until', '2026-11-20'])).toMatchObject({
      code: 2,
      stderr:
        'error: --since 2026-11-21 (Sat 21 Nov, from "saturday") is after --until 2026-11-20 (Fri 20 Nov)\nA weekday name in a range is the most recent one on or before today ("last monday": before today); give dates (YYYY-MM-DD) to be exact.\n',
    });
    expect((await w.cli(['report', '--format', 'xlsx'])).code).toBe(2);
    expect(w.sent().filter((r) => !r.endsWith('/me'))).toEqual([]);
  });
});
