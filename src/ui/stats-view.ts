// `checkin stats` on a terminal: the calendar of scheduled days (a column a week, as GitHub draws
// it), the streak line, mood over time, blocked days a week and the open blockers as bars — each
// state its own symbol *and* colour (NO_COLOR leaves the symbols), fitted to any width from 40
// columns (fewer weeks when narrow, said). In the accessible mode the same figures are sentences,
// nothing drawn. Drawn by hand: a few rows of characters, tested as exact screens; no charting
// package would earn its bytes here. Everything from the service passes the sanitiser.
import type { DayCell, DayState, OpenBlocker, PersonStats, Stats, Streaks, Tally, TeamDayTally, TeamStats, WeekTally } from '../core/stats.js';
import { shortDay, span } from '../core/dayname.js';
import { addDays } from '../core/datekey.js';
import { MEMBER_STATE_WORDS } from '../core/member-states.js';
import type { Colors } from './color.js';
import { plainLine } from './markdown.js';
import { sanitizeLine } from './sanitize.js';
import { blockerLines } from './views.js';
import { displayWidth } from './width.js';
import { wrap } from './wrap.js';

export interface StatsViewOptions {
  columns: number;
  colors: Colors;
  /** A UTF-8 locale (ui/wall.ts unicodeLocale); false: the symbols and bars in ASCII. */
  unicode?: boolean;
}

/** The calendar's symbols without a UTF-8 locale (LANG=C), one per state as above. */
export const ASCII_CELL = { filled: '#', late: '+', missed: 'x', absent: '~', pending: '?', 'nothing-scheduled': '.' } as const;
const symbolOf = (kind: keyof typeof CELL, o: StatsViewOptions) => (o.unicode === false ? ASCII_CELL[kind] : CELL[kind].symbol);

/** A calendar cell's symbol and colour: one per state, and one for filled later. */
export const CELL = {
  filled: { symbol: '●', color: 'green', words: 'filled on the day' },
  late: { symbol: '◐', color: 'cyan', words: 'filled later' },
  missed: { symbol: '✗', color: 'red', words: 'missed' },
  absent: { symbol: '~', color: 'yellow', words: MEMBER_STATE_WORDS.absent.word },
  pending: { symbol: '◌', color: 'magenta', words: `${MEMBER_STATE_WORDS.pending.word} (today)` },
  'nothing-scheduled': { symbol: '·', color: 'dim', words: MEMBER_STATE_WORDS['nothing-scheduled'].word },
} as const;
type CellKind = keyof typeof CELL;

export const cellKind = (c: { state: DayState; late: boolean }): CellKind => (c.state === 'filled' && c.late ? 'late' : c.state);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ROW_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** "16 Nov": a week's Monday. */
const weekLabel = (monday: string) => shortDay(monday).slice(4);

/** Cuts a line to `width` cells, with … when cut. */
function fit(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) > width - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** How many weeks fit: 4 cells of row labels, then `cell` cells a week. */
export function weeksThatFit(columns: number, cell = 2): number {
  return Math.max(1, Math.floor((Math.max(40, columns) - 4) / cell));
}

/** The month names over the weeks' columns (a name where a month begins, when it has room). */
function monthRow(mondays: string[], cell: number): string {
  let row = '    ';
  let last = '';
  for (let i = 0; i < mondays.length; i++) {
    const m = MONTHS[Number(mondays[i]!.slice(5, 7)) - 1]!;
    const at = 4 + i * cell;
    // A month's name where it begins, a space at least after the one before (else it is left out).
    // The first column's month only when it has a second week here (as GitHub draws it).
    const room = i === 0 ? mondays.length > 1 && mondays[1]!.slice(5, 7) === mondays[0]!.slice(5, 7) : row.length < at;
    if (m !== last && room) row = row.padEnd(at) + m;
    last = m;
  }
  return row.trimEnd();
}

/** The mood keys of a view: each mood a letter of its own word (the first one free), said in the legend. */
function moodKeys(moods: string[]): Map<string, string> {
  const keys = new Map<string, string>();
  const used = new Set<string>();
  for (const mood of moods) {
    const word = sanitizeLine(mood).toLowerCase();
    const letter = [...word].find((ch) => /[a-z]/.test(ch) && !used.has(ch)) ?? [...'abcdefghijklmnopqrstuvwxyz'].find((ch) => !used.has(ch)) ?? '?';
    used.add(letter);
    keys.set(mood, letter);
  }
  return keys;
}

function bar(n: number, scale: number, width: number, o: StatsViewOptions): string {
  return (o.unicode === false ? '#' : '█').repeat(Math.max(n > 0 ? 1 : 0, Math.round((n / Math.max(1, scale)) * width)));
}

const moodWords = (t: Tally, top = 3) =>
  t.moods
    .slice(0, top)
    .map((m) => `${sanitizeLine(m.mood)} ${m.count}`)
    .join(', ') + (t.moods.length > top ? `, ${t.moods.length - top} more` : '');

/** `head` and the moods that fit after it in `columns` (at most `top`, the rest counted as "N more"): no mood's word is cut. */
function withMoods(head: string, t: Tally, columns: number, top = 3): string {
  for (let n = Math.min(top, t.moods.length); n >= 1; n--) {
    const line = `${head}${moodWords(t, n)}`;
    if (displayWidth(line) <= columns) return line;
  }
  return fit(`${head}${moodWords(t, 1)}`, columns);
}

/** "mostly focused", "focused and calm", or nothing when no mood was chosen. */
export function mostly(t: Tally): string {
  if (t.moods.length === 0) return '';
  const top = t.moods.filter((m) => m.count === t.moods[0]!.count).map((m) => sanitizeLine(m.mood));
  if (top.length === 1) return t.moods.length === 1 ? `all ${top[0]}` : `mostly ${top[0]}`;
  return `${top.slice(0, -1).join(', ')} and ${top[top.length - 1]} as often`;
}

export function streakLine(s: Streaks): string {
  const current =
    s.current === 0
      ? 'no current streak'
      : `${s.current}${s.at_least ? '+' : ''} scheduled ${s.current === 1 ? 'day' : 'days'} filled in a row (since ${shortDay(s.current_since!)})`;
  const longest = s.longest === 0 ? '' : `; the longest ${s.longest}${s.longest_since ? ` (from ${shortDay(s.longest_since)})` : ''}`;
  return `Streak: ${current}${longest}`;
}

/** A person's days, or a team's check-ins (person-days, never said person by person). */
export function totalsLine(t: Tally, team = false): string {
  const parts = [`Filled ${t.filled} of ${plural(t.scheduled, team ? 'scheduled check-in' : 'scheduled day')}${t.late ? ` (${t.late} later)` : ''}`];
  if (t.missed) parts.push(`missed ${t.missed}`);
  if (t.absent) parts.push(team ? `${t.absent} absent` : `absent ${plural(t.absent, 'day')}`);
  if (t.pending) parts.push(`${t.pending} ${MEMBER_STATE_WORDS.pending.word}`);
  parts.push(team ? `${t.blocked} blocked` : `blocked ${plural(t.blocked, 'day')}`);
  return parts.join(', ');
}

function periodLine(s: Stats, shown: number): string {
  const who =
    s.kind === 'person' ? sanitizeLine(s.person.name) : `${s.teams.map((t) => sanitizeLine(t.name)).join(', ')} (${plural(s.people, 'person', 'people')})`;
  return `${who} · ${plural(s.weeks_count, 'week')}, ${span(s.since, s.until, '–')}${shown < s.weeks_count ? ` · the last ${shown} drawn (the terminal is narrow)` : ''}`;
}

/** The calendar: rows Mon–Sun, a column a week, the last `shown` weeks. `cell(date)` draws a day. */
function calendar(since: string, until: string, shown: number, width: number, draw: (date: string) => string): string[] {
  const mondays: string[] = [];
  for (let m = since; m <= until; m = addDays(m, 7)) mondays.push(m);
  const last = mondays.slice(-shown);
  const lines = [monthRow(last, width)];
  for (let row = 0; row < 7; row++) {
    let line = `${ROW_LABELS[row]} `;
    for (const monday of last) {
      const date = addDays(monday, row);
      line += date > until ? ' '.repeat(width) : draw(date);
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

function personPicture(s: PersonStats, o: StatsViewOptions): string[] {
  const c = o.colors;
  const byDate = new Map(s.days.map((d) => [d.date, d]));
  const shown = Math.min(s.weeks_count, weeksThatFit(o.columns));
  const paint = (kind: CellKind, text: string) => (c[CELL[kind].color] as (t: string) => string)(text);
  const out = [periodLine(s, shown), ''];
  out.push(
    ...calendar(s.since, s.until, shown, 2, (date) => {
      const d = byDate.get(date);
      const kind = d ? cellKind(d) : 'nothing-scheduled';
      return `${paint(kind, symbolOf(kind, o))} `;
    }),
  );
  out.push(
    ...legend(
      (Object.keys(CELL) as CellKind[]).map((k) => `${paint(k, symbolOf(k, o))} ${CELL[k].words}`),
      o.columns,
    ),
  );
  out.push('', streakLine(s.streak), totalsLine(s.totals));
  out.push(...moodSection(s.weeks, s.days, s.since, o), ...blockedSection(s.weeks, o, 7), ...openSection(s.open_blockers, o, false));
  return out;
}

/** Legend entries on as few lines as fit. */
function legend(entries: string[], columns: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const e of entries) {
    if (line && displayWidth(`${line}  ${e}`) > columns) {
      lines.push(line);
      line = e;
    } else line = line ? `${line}  ${e}` : e;
  }
  if (line) lines.push(line);
  return lines;
}

/** Mood over time: a row a week, a letter a day a mood was chosen (· a filled day without one; gaps are blank), then the words. */
function moodSection(weekList: WeekTally[], days: DayCell[], since: string, o: StatsViewOptions): string[] {
  const all = new Map<string, number>();
  for (const d of days) if (d.state === 'filled' && d.mood) all.set(d.mood, (all.get(d.mood) ?? 0) + 1);
  if (all.size === 0) return ['', 'Mood: none chosen in these weeks'];
  const keys = moodKeys([...all].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([m]) => m));
  const byDate = new Map(days.map((d) => [d.date, d]));
  const out = ['', 'Mood, a letter a day (blank: no mood that day)'];
  for (const w of weekList.filter((x) => x.week >= since)) {
    let strip = '';
    for (let i = 0; i < 7; i++) {
      const d = byDate.get(addDays(w.week, i));
      strip += d?.state === 'filled' && d.mood ? keys.get(d.mood)! : ' ';
    }
    out.push(
      w.moods.length
        ? withMoods(`${weekLabel(w.week).padStart(6)}  ${strip}  `, w, o.columns)
        : fit(`${weekLabel(w.week).padStart(6)}  ${strip}`.trimEnd(), o.columns),
    );
  }
  out.push(
    ...legend(
      [...keys].map(([m, k]) => `${k} ${sanitizeLine(m)}`),
      o.columns,
    ),
  );
  return out;
}

/** A team's mood mix: a row a week, the moods chosen with how often. */
function moodMix(weekList: WeekTally[], o: StatsViewOptions): string[] {
  if (weekList.every((w) => w.moods.length === 0)) return ['', 'Mood: none chosen in these weeks'];
  return [
    '',
    'Mood mix a week',
    ...weekList.map((w) =>
      w.moods.length
        ? withMoods(`${weekLabel(w.week).padStart(6)}  `, w, o.columns, 4)
        : fit(`${weekLabel(w.week).padStart(6)}  ${w.scheduled === 0 ? 'nothing scheduled' : 'no mood chosen'}`, o.columns),
    ),
  ];
}

function blockedSection(weekList: WeekTally[], o: StatsViewOptions, scale: number): string[] {
  const top = Math.max(scale, ...weekList.map((w) => w.blocked));
  const room = Math.max(8, Math.min(28, o.columns - 16));
  return [
    '',
    'Blocked days a week',
    ...weekList.map((w) => `${weekLabel(w.week).padStart(6)}  ${w.blocked ? `${o.colors.red(bar(w.blocked, top, room, o))} ${w.blocked}` : '0'}`),
  ];
}

function openSection(list: OpenBlocker[], o: StatsViewOptions, named: boolean): string[] {
  if (list.length === 0) return ['', 'Open blockers: none'];
  const top = Math.max(7, ...list.map((b) => b.run.days));
  const out = ['', 'Open blockers, how long each has stood'];
  for (const b of list) {
    const days = `${b.run.days}${b.run.at_least ? '+' : ''} ${b.run.days === 1 && !b.run.at_least ? 'day' : 'days'} since ${shortDay(b.run.since)}`;
    out.push(`  ${o.colors.red(bar(b.run.days, top, Math.max(6, Math.min(30, o.columns - displayWidth(days) - 4)), o))} ${days}`);
    // As `checkin team` shows a blocker (ui/views.ts): rendered, wrapped under its first line.
    out.push(blockerLines(o.colors, o.columns, b.blockers, named && b.person ? b.person.name : undefined));
  }
  return out;
}

/** A team's day: how many filled (a digit; `+` past 9), marked `-` when someone scheduled has not. */
export function teamCell(d: TeamDayTally | undefined, unicode = true): { text: string; kind: 'all' | 'some' | 'none' } {
  if (!d || d.scheduled === 0) return { text: unicode ? '·' : '.', kind: 'none' };
  return { text: `${d.filled > 9 ? '+' : d.filled}${d.filled < d.scheduled ? '-' : ''}`, kind: d.filled === d.scheduled ? 'all' : 'some' };
}

function teamPicture(s: TeamStats, o: StatsViewOptions): string[] {
  const c = o.colors;
  const byDate = new Map(s.days.map((d) => [d.date, d]));
  const shown = Math.min(s.weeks_count, weeksThatFit(o.columns, 3));
  const out = [periodLine(s, shown), ''];
  out.push(
    ...calendar(s.since, s.until, shown, 3, (date) => {
      const cell = teamCell(byDate.get(date), o.unicode !== false);
      const painted = cell.kind === 'all' ? c.green(cell.text) : cell.kind === 'some' ? c.yellow(cell.text) : c.dim(cell.text);
      return painted + ' '.repeat(3 - cell.text.length);
    }),
  );
  out.push(
    ...legend(
      [
        `${c.green('4')} how many filled, all who were scheduled`,
        `${c.yellow('3-')} some scheduled did not (yet)`,
        `${c.dim(o.unicode === false ? '.' : '·')} nothing scheduled`,
      ],
      o.columns,
    ),
  );
  out.push('', totalsLine(s.totals, true));
  out.push(...moodMix(s.weeks, o), ...blockedSection(s.weeks, o, 7), ...openSection(s.open_blockers, o, true));
  return out;
}

export function statsView(s: Stats, o: StatsViewOptions): string {
  const lines = s.kind === 'person' ? personPicture(s, o) : teamPicture(s, o);
  // Words wrap at word edges; the drawn rows are made to fit already.
  return `${wrap(lines.join('\n'), Math.max(40, o.columns), 2)}\n`;
}

/** "Week of 16 Nov: 5 of 5 scheduled days filled; mostly focused; blocked 2 days." */
export function weekSentence(w: WeekTally, today: string, team = false): string {
  const parts: string[] = [];
  const thisWeek = w.week <= today && today <= addDays(w.week, 6);
  if (w.scheduled === 0) parts.push(w.absent ? `absent ${plural(w.absent, 'day')}, nothing else scheduled` : 'nothing scheduled');
  else {
    parts.push(`${w.filled} of ${plural(w.scheduled, team ? 'scheduled check-in' : 'scheduled day')} filled${w.late ? ` (${w.late} later)` : ''}`);
    if (w.missed) parts.push(`missed ${w.missed}`);
    const pending = MEMBER_STATE_WORDS.pending.word;
    if (w.pending) parts.push(thisWeek ? (team ? `${w.pending} ${pending} today` : `today ${pending}`) : `${w.pending} ${pending}`);
    if (w.absent) parts.push(team ? `${w.absent} absent` : `absent ${plural(w.absent, 'day')}`);
  }
  const mood = mostly(w);
  if (mood) parts.push(mood);
  if (w.filled) parts.push(w.blocked ? (team ? `${w.blocked} blocked` : `blocked ${plural(w.blocked, 'day')}`) : team ? 'none blocked' : 'not blocked');
  return `Week of ${weekLabel(w.week)}: ${parts.join('; ')}.`;
}

/** The accessible mode: the same figures as short sentences, nothing drawn. */
export function statsSentences(s: Stats): string {
  const out: string[] = [];
  const period = `${plural(s.weeks_count, 'week')} from ${span(s.since, s.until, 'to')}`;
  if (s.kind === 'person') {
    out.push(`${sanitizeLine(s.person.name)}, ${period}.`);
    out.push(`${streakLine(s.streak)}.`, `${totalsLine(s.totals)}.`);
  } else {
    out.push(
      `${s.teams.map((t) => sanitizeLine(t.name)).join(', ')}, ${plural(s.people, 'person', 'people')} with check-ins, ${period}. Counts for the team as a whole, never person by person.`,
    );
    out.push(`${totalsLine(s.totals, true)}.`);
  }
  for (const w of s.weeks) out.push(weekSentence(w, s.today, s.kind === 'team'));
  if (s.kind === 'team') {
    const todayCounts = s.days.find((d) => d.date === s.today);
    if (todayCounts && todayCounts.scheduled) out.push(`Today: ${todayCounts.filled} of ${todayCounts.scheduled} filled so far.`);
  }
  if (s.open_blockers.length === 0) out.push('No open blockers.');
  for (const b of s.open_blockers) {
    const who = s.kind === 'team' && b.person ? `${sanitizeLine(b.person.name)}, ` : '';
    out.push(
      `Open blocker, ${who}${b.run.days}${b.run.at_least ? ' or more' : ''} ${b.run.days === 1 && !b.run.at_least ? 'day' : 'days'} since ${shortDay(b.run.since)}: ${plainLine(b.blockers)}`,
    );
  }
  return `${out.join('\n')}\n`;
}
