// `checkin stats` in a real pseudo-terminal, 80 columns (and 40), against the sandbox's demo data
// (fourteen weeks of history: src/sandbox/history.ts): what is drawn, read back from the screen,
// is the same figures `stats --json` gives — each calendar row rebuilt from the JSON's days —
// and the requests are exactly one walk of the window's pages. The accessible mode: the same
// figures as sentences, and no cursor movement in the raw bytes; NO_COLOR: the symbols alone.
import { describe, expect, it } from 'vitest';
import { shortDay } from '../../src/core/dayname.js';
import { addDays } from '../../src/core/datekey.js';
import type { DayCell, TeamDayTally, WeekTally } from '../../src/core/stats.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { describeRequest } from '../helpers/harness.js';
import { runCli } from '../helpers/cli.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { cursorSequences, Screen } from '../helpers/terminal.js';
import { displayWidth } from '../../src/ui/width.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

const SYMBOL: Record<string, string> = { filled: '●', late: '◐', missed: '✗', absent: '~', pending: '◌', 'nothing-scheduled': '·' };
const ROWS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

async function json(args: string[]): Promise<any> {
  const r = await runCli([...args, '--json'], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

async function screen(args: string[], cols: number, extra: NodeJS.ProcessEnv = {}): Promise<Screen> {
  const s = new Screen(args, { ...env, ...extra }, { cols, rows: 60 });
  expect(await s.exit()).toEqual({ code: 0, signal: 0 });
  return s;
}

/** The calendar's seven rows as the JSON says they are: the last `shown` weeks, `draw` a day. */
function rows(since: string, until: string, shown: number, draw: (date: string) => string, width: number): string[] {
  const mondays: string[] = [];
  for (let m = since; m <= until; m = addDays(m, 7)) mondays.push(m);
  return ROWS.map((label, row) =>
    `${label} ${mondays
      .slice(-shown)
      .map((m) => (addDays(m, row) > until ? ' '.repeat(width) : draw(addDays(m, row))))
      .join('')}`.trimEnd(),
  );
}

const personCell = (d: DayCell) => `${SYMBOL[d.state === 'filled' && d.late ? 'late' : d.state]} `;
const teamCell = (d: TeamDayTally) => (d.scheduled === 0 ? '·  ' : `${d.filled}${d.filled < d.scheduled ? '-' : ''}`.padEnd(3));

describe('checkin stats on an 80-column terminal', () => {
  it('draws the calendar, streak and totals of the JSON figures, every line within 80 columns; one walk of two pages', async () => {
    const figures = await json(['stats']);
    sb.requests.length = 0;
    const s = await screen(['stats'], 80);
    const lines = s.text().split('\n');
    const byDate = new Map<string, DayCell>(figures.days.map((d: DayCell) => [d.date, d]));
    expect(figures.weeks_count).toBe(12);
    expect(lines[0]).toBe(`Ada Lovelace · 12 weeks, ${shortDay(figures.since)} – ${shortDay(figures.until)} ${figures.until.slice(0, 4)}`);
    const cal = lines.findIndex((l) => l.startsWith('Mon '));
    expect(lines.slice(cal, cal + 7)).toEqual(rows(figures.since, figures.until, 12, (d) => personCell(byDate.get(d)!), 2));
    expect(lines.slice(cal + 7, cal + 9)).toEqual(['● filled on the day  ◐ filled later  ✗ missed  ~ absent  ◌ pending (today)', '· nothing scheduled']);
    const st = figures.streak;
    expect(lines.join('\n').replace(/\n  /g, ' ')).toContain(
      `Streak: ${st.current === 0 ? 'no current streak' : `${st.current}${st.at_least ? '+' : ''} scheduled ${st.current === 1 ? 'day' : 'days'} filled in a row (since ${shortDay(st.current_since)})`}; the longest ${st.longest} (from ${shortDay(st.longest_since)})`,
    );
    expect(lines.find((l) => l.startsWith('Filled '))).toMatch(new RegExp(`^Filled ${figures.totals.filled} of ${figures.totals.scheduled} scheduled days`));
    // The history has something to show: days filled later and missed ones, moods, a few weeks.
    expect(figures.totals.late).toBeGreaterThan(0);
    expect(figures.totals.missed).toBeGreaterThan(0);
    const weekRows = lines.slice(lines.indexOf('Blocked days a week') + 1, lines.indexOf('Blocked days a week') + 13);
    expect(weekRows.map((l) => Number(l.trim().split(' ').pop()))).toEqual(figures.weeks.map((w: WeekTally) => w.blocked));
    expect(lines.filter((l) => displayWidth(l) > 80)).toEqual([]);
    // Colour on a terminal, with the symbols.
    expect(s.raw).toMatch(/\x1b\[32m●/);
    expect(sb.requests.map(describeRequest)).toEqual(
      [1, 2].map((page) => `GET /api/v2/check-ins?since=${figures.since}&until=${figures.until}&people_ids[]=${figures.person.id}&page=${page}&per_page=50`),
    );
  });

  it("--team: how many filled each day, the mood mix and blocked days, the open blocker with its days — and no person's count", async () => {
    const figures = await json(['stats', '--team', 'Platform']);
    const s = await screen(['stats', '--team', 'Platform'], 80);
    const lines = s.text().split('\n');
    const byDate = new Map<string, TeamDayTally>(figures.days.map((d: TeamDayTally) => [d.date, d]));
    expect(lines[0]).toBe(
      `Platform (${figures.people} people) · 12 weeks, ${shortDay(figures.since)} – ${shortDay(figures.until)} ${figures.until.slice(0, 4)}`,
    );
    const cal = lines.findIndex((l) => l.startsWith('Mon '));
    expect(lines.slice(cal, cal + 7)).toEqual(rows(figures.since, figures.until, 12, (d) => teamCell(byDate.get(d)!), 3));
    expect(lines).toContain('Mood mix a week');
    const open = lines.indexOf('Open blockers, how long each has stood');
    const b = figures.open_blockers[0];
    expect(b.person.name).toBe('Linus Torvalds');
    expect(lines[open + 1]).toMatch(new RegExp(`^  █+ ${b.run.days} days since ${shortDay(b.run.since)}$`));
    // The blocker's Markdown rendered as `checkin team` renders it: the same line, the same styles (bold, the mention).
    const blocker = '    Linus Torvalds: Waiting on @ada to review the webhook retry change';
    expect(lines[open + 2]).toBe(blocker);
    const team = await screen(['team', '--team', 'Platform'], 80);
    expect(team.text().split('\n')).toContain(blocker);
    const styled = (raw: string) => /\x1b\[1mLinus Torvalds.*?change/.exec(raw)?.[0];
    expect(styled(s.raw)).toMatch(/\x1b\[1mwebhook retry\x1b\[22m/);
    expect(styled(s.raw)).toBe(styled(team.raw));
    // Names appear only with an open blocker, never beside a count.
    expect(lines.filter((l) => /Ada Lovelace|Grace Hopper|Scribe/.test(l))).toEqual([]);
    expect(Object.keys(figures.days[0]).sort()).toEqual(['absent', 'blocked', 'date', 'filled', 'late', 'missed', 'moods', 'no_mood', 'pending', 'scheduled']);
    expect(lines.filter((l) => displayWidth(l) > 80)).toEqual([]);
  });

  it('at 40 columns: fewer weeks, said; nothing wider than the terminal; NO_COLOR keeps the symbols and drops the colour', async () => {
    const figures = await json(['stats', '--weeks', '26']);
    const s = await screen(['stats', '--weeks', '26'], 40, { NO_COLOR: '1' });
    const lines = s.text().split('\n');
    expect(lines.slice(0, 3).join(' ')).toMatch(/the\s+last\s+18\s+drawn\s+\(the\s+terminal\s+is\s+narrow\)/);
    const byDate = new Map<string, DayCell>(figures.days.map((d: DayCell) => [d.date, d]));
    const cal = lines.findIndex((l) => l.startsWith('Mon '));
    expect(lines.slice(cal, cal + 7)).toEqual(rows(figures.since, figures.until, 18, (d) => personCell(byDate.get(d)!), 2).map((l) => l));
    expect(lines.filter((l) => displayWidth(l) > 40)).toEqual([]);
    expect(s.raw).not.toMatch(/\x1b\[3\dm/);
    // Each week's moods: as many as fit, the rest counted ("2 more"), never a word cut short.
    const worded = lines.filter((l) => /^[ \d]\d [A-Z][a-z]{2} {2}.*[a-z]+ \d+/.test(l));
    expect(worded.length).toBeGreaterThan(10);
    expect(lines.filter((l) => /^[ \d]\d [A-Z][a-z]{2} /.test(l) && l.includes('…'))).toEqual([]);
    for (const l of worded) expect(l).toMatch(/ {2}[a-z]+ \d+(, [a-z]+ \d+)*(, \d+ more)?$/);
  });
});

/** Each line of `text` filled word by word into lines of at most `width` columns (what a person expects of prose; the words here are ASCII). */
function wordWrap(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      const out: string[] = [];
      for (const word of line.split(' ')) {
        const last = out.length - 1;
        if (last >= 0 && `${out[last]} ${word}`.length <= width) out[last] += ` ${word}`;
        else out.push(word);
      }
      return out.join('\n');
    })
    .join('\n');
}

describe('checkin stats in the accessible mode', () => {
  /** The sentences as a script gets them (piped: whole lines), and the screen of an 80-column terminal. */
  async function both(args: string[]): Promise<{ piped: string; s: Screen }> {
    const r = await runCli(args, { env: { ...env, CHECKIN_ACCESSIBLE: '1' } });
    expect(r.code).toBe(0);
    return { piped: r.stdout, s: await screen(args, 80, { CHECKIN_ACCESSIBLE: '1' }) };
  }

  it('says the same figures as sentences, a week a sentence, wrapped at word edges at 80 columns; no cursor movement', async () => {
    const figures = await json(['stats', '--weeks', '4']);
    const { piped, s } = await both(['stats', '--weeks', '4']);
    expect(cursorSequences(s.raw)).toEqual([]);
    const lines = piped.split('\n');
    expect(lines[0]).toBe(`Ada Lovelace, 4 weeks from ${shortDay(figures.since)} to ${shortDay(figures.until)} ${figures.until.slice(0, 4)}.`);
    const weeks = lines.filter((l) => l.startsWith('Week of '));
    expect(weeks).toHaveLength(4);
    figures.weeks.forEach((w: WeekTally, i: number) => {
      expect(weeks[i]).toMatch(new RegExp(`^Week of ${shortDay(w.week).slice(4)}: ${w.filled} of ${w.scheduled} scheduled days? filled`));
      expect(weeks[i]).toMatch(w.filled ? (w.blocked ? new RegExp(`; blocked ${w.blocked} days?\\.$`) : /; not blocked\.$/) : /\.$/);
    });
    expect(lines).toContain('No open blockers.');
    // At a terminal: every sentence broken only between words ("(from" / "Sat 19 Sep)", never "(fro" / "m Sat").
    expect(lines.some((l) => l.length > 80)).toBe(true);
    expect(s.text()).toBe(wordWrap(piped.trimEnd(), 80));
    expect(s.text()).not.toMatch(/[●◐✗◌█]/);
  });

  it('--team: the team as a whole, and the open blocker said with its days, its Markdown as plain words', async () => {
    const figures = await json(['stats', '--team', 'Platform', '--weeks', '2']);
    const { piped: text, s } = await both(['stats', '--team', 'Platform', '--weeks', '2']);
    expect(cursorSequences(s.raw)).toEqual([]);
    expect(text).toContain(`Platform, ${figures.people} people with check-ins, 2 weeks from`);
    expect(text).toContain('Counts for the team as a whole, never person by person.');
    // A team's week counts check-ins (person-days), never who.
    for (const w of figures.weeks) expect(text).toContain(`Week of ${shortDay(w.week).slice(4)}: ${w.filled} of ${w.scheduled} scheduled check-ins filled`);
    const b = figures.open_blockers[0];
    expect(text).toContain(
      `Open blocker, Linus Torvalds, ${b.run.days} days since ${shortDay(b.run.since)}: Waiting on @ada to review the webhook retry change`,
    );
    expect(s.text()).toBe(wordWrap(text.trimEnd(), 80));
  });
});
