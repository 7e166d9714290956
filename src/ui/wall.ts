// The wall `checkin team --watch` keeps on a terminal: each team's people (state, mood, first
// intention), the teams' goals beneath (progress, confidence), and a footer that says when it was
// last refreshed or that a refresh failed. Tables follow the width rule (table.ts); every line is
// one screen row, never wider than the terminal. Without a UTF-8 locale (LANG=C) the symbols are
// ASCII; without colour (NO_COLOR) the words carry the meaning alone.

import { moodEmoji, type Goal } from '../api/types.js';
import { sanitizeLine } from './sanitize.js';
import { displayWidth, table, TEXT_MIN, TEXT_ROOM, truncate } from './table.js';
import { confidenceLabel, firstPlainLine, GOAL_COLUMNS, profileWords, stateCounts, stateLabel, type View } from './views.js';
import { MEMBER_STATE_WORDS, type TeamDay } from '../core/member-states.js';
import { blockerItems, daysLabel, isNoBlockers } from '../core/blockers.js';

export interface WallView extends View {
  /** The terminal draws Unicode symbols and emoji (a UTF-8 locale). */
  unicode: boolean;
}

/** Whether the locale is UTF-8: the first of LC_ALL, LC_CTYPE, LANG that is set says (none: the C locale, ASCII). */
export function unicodeLocale(env: NodeJS.ProcessEnv): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((v) => v !== undefined && v !== '') ?? '';
  return /utf-?8/i.test(locale);
}

export interface WallData {
  date: string;
  teams: TeamDay[];
  goals: Goal[];
  /** The profile in use, in each team's title where it is worth naming (config/profiles.ts profileToName). */
  profile?: string;
}

type Member = TeamDay['members'][number];
/** Goals' progress bars are drawn on terminals at least this wide. */
export const BAR_FROM = 60;

/** What a terminal without Unicode gets instead of the symbols checkin's own text uses (… — – · █ ░, escaped:
 * a regular expression is written in ASCII, CONTRIBUTING.md "Start-up"). */
const asciiOnly = (line: string) =>
  line
    .replace(/\u2026/g, '.')
    .replace(/[\u2014\u2013]/g, '-')
    .replace(/\u00b7/g, '.')
    .replace(/\u2588/g, '#')
    .replace(/\u2591/g, '-');

/** A line cut to the width (a row that still overflows loses its colours, as a cut cell does). */
const fitLine = (line: string, width: number) => (displayWidth(line) <= width ? line : truncate(line, width, false));

/** The wall's lines, top to bottom (no footer). */
export function wallLines(v: WallView, data: WallData): string[] {
  const { c, unicode } = v;
  const sep = unicode ? ' · ' : ', ';
  const out: string[] = [];
  const add = (text: string) => out.push(...text.replace(/\n$/, '').split('\n'));
  for (const r of data.teams) {
    add(
      `${c.bold(sanitizeLine(r.team.name))}${profileWords(data.profile)} ${unicode ? '—' : '-'} ${r.date}  ${c.dim(stateCounts(r).join(sep) || 'nobody in this team')}`,
    );
    if (r.members.length > 0) {
      const rows = r.members.map((m) => {
        const mood = m.check_in?.mood ? (unicode ? moodEmoji(m.check_in.mood) || sanitizeLine(m.check_in.mood) : sanitizeLine(m.check_in.mood)) : ' ';
        return [sanitizeLine(m.person.name), stateLabel(c, m, unicode), mood, firstPlainLine(m.check_in?.intentions)];
      });
      // No intention yet in the whole team: no column for them (its header would only take the names' room).
      const intentions = rows.some((row) => row[3] !== '');
      add(
        table(intentions ? rows : rows.map((row) => row.slice(0, 3)), v.width, {
          columns: [
            { title: 'PERSON', kind: 'name' },
            { title: 'STATE', kind: 'state' },
            { title: 'MOOD', kind: 'state' },
            ...(intentions ? [{ title: 'INTENTION', kind: 'text' } as const] : []),
          ],
          style: c.dim,
          indent: 2,
        }),
      );
    }
    out.push('');
  }
  const goals = data.goals.filter((g) => g.archived !== true);
  add(c.bold('Goals'));
  if (goals.length === 0) add(c.dim('  No goals for these teams.'));
  else {
    // The bar is drawn from BAR_FROM columns on: narrower, the percentage alone leaves the goal's title its room.
    const bars = v.width >= BAR_FROM;
    const bar = (p: number) => {
      const full = Math.max(0, Math.min(10, Math.round(p / 10)));
      return bars ? `${(unicode ? '█' : '#').repeat(full)}${(unicode ? '░' : '-').repeat(10 - full)} ` : '';
    };
    add(
      table(
        goals.map((g) => [
          g.progress == null ? `${bars ? ' '.repeat(11) : ''}  —` : `${bar(g.progress)}${String(Math.round(g.progress)).padStart(3)}%`,
          confidenceLabel(v, g),
          g.end_date ? sanitizeLine(g.end_date) : '',
          firstPlainLine(g.title),
        ]),
        v.width,
        {
          columns: [...GOAL_COLUMNS],
          style: c.dim,
          indent: 2,
        },
      ),
    );
  }
  return out.map((l) => (unicode ? fitLine(l, v.width) : asciiOnly(fitLine(l, v.width))));
}

export interface WallStatus {
  /** When the wall's data last changed (a 200 that differed). */
  updatedAt: Date;
  /** When the service was last asked successfully (a 304 included). */
  checkedAt: Date;
  /** The last refresh failed: when, and why (the wall shows what came before). */
  failure?: { at: Date; message: string };
  /** When the next refresh is due. */
  nextAt: Date;
  /** Refreshes are further apart than asked: the rate budget is low. */
  slowed: boolean;
  intervalS: number;
}

const clock = (d: Date) => d.toTimeString().slice(0, 8);

/**
 * The last row: when the wall was refreshed (or that a refresh failed, and why), when it was last
 * checked, when the next refresh is due, the keys. Too narrow, it gives way as a table does: the
 * next time goes first, then the last check, then the keys; why a refresh failed is free text,
 * cut at a word edge to what is left, and kept while it gets TEXT_MIN cells.
 */
export function wallFooter(v: WallView, s: WallStatus): string {
  const sep = v.unicode ? ' · ' : ', ';
  const ascii = (t: string) => (v.unicode ? t : asciiOnly(t));
  const parts = {
    head: s.failure ? `${v.c.red(`refresh failed ${clock(s.failure.at)}`)} (showing ${clock(s.updatedAt)})` : `updated ${clock(s.updatedAt)}`,
    checked: s.failure ? '' : `checked ${clock(s.checkedAt)}`,
    next: s.slowed ? `next ${clock(s.nextAt)} (slowed: rate budget low)` : `next ${clock(s.nextAt)}`,
    keys: v.c.dim('q quit, r refresh'),
  };
  const why = s.failure ? ascii(sanitizeLine(s.failure.message)) : '';
  const candidates = [['checked', 'next', 'keys'], ['checked', 'keys'], ['keys'], []] as const;
  // The reason whole if the others can make room for it, else at least TEXT_ROOM, else TEXT_MIN cells.
  for (const least of why ? [displayWidth(why), Math.min(TEXT_ROOM, displayWidth(why)), TEXT_MIN] : [0]) {
    for (const keep of candidates) {
      const rest = keep.map((k) => parts[k]).filter(Boolean);
      const line = ascii([parts.head, ...rest].join(sep));
      if (!why) {
        if (displayWidth(line) <= v.width) return line;
        continue;
      }
      const room = v.width - displayWidth(line) - 2;
      if (room >= least) return ascii([`${parts.head}: ${truncate(why, room)}`, ...rest].join(sep));
    }
  }
  return ascii(fitLine(why ? `${parts.head}: ${why}` : parts.head, v.width));
}

/** The lines of a screen of `rows` rows: the wall (cut with a note when taller), the footer on the last row. */
export function wallScreen(v: WallView, lines: string[], footer: string, rows: number): string[] {
  const room = Math.max(0, rows - 1);
  let shown = lines;
  if (lines.length > room) {
    const more = lines.length - (room - 1);
    const note = fitLine(v.c.dim(`${v.unicode ? '…' : '...'} ${more} more line${more === 1 ? '' : 's'}: make the window taller`), v.width);
    shown = [...lines.slice(0, Math.max(0, room - 1)), v.unicode ? note : asciiOnly(note)].slice(0, room);
  }
  return [...shown, ...Array<string>(room - shown.length).fill(''), footer];
}

// The wall as lines (the accessible mode): written once, then only what changed, each change a new
// line under the last — never a redraw. States and moods are words; colour adds nothing to them.

/** A person's line: name, state in words, mood in words, the first intention, what blocks them. */
function personLine(m: Member): string {
  const parts = [
    `${MEMBER_STATE_WORDS[m.state].word}${m.state === 'blocked' && m.blocked_for && m.blocked_for.days > 1 ? ` ${daysLabel(m.blocked_for)}` : ''}`,
  ];
  if (m.check_in?.mood) parts.push(`mood ${sanitizeLine(m.check_in.mood)}`);
  const intention = firstPlainLine(m.check_in?.intentions);
  if (intention) parts.push(`intends: ${intention}`);
  // The blockers as their items say them (a "None" paragraph or a heading above the real one is not it).
  const items = m.state === 'blocked' ? blockerItems(m.check_in?.blockers).filter((i) => !isNoBlockers(i.text) && !/^\s{0,3}#/.test(i.text)) : [];
  const blockers = items.length > 0 ? firstPlainLine(items[0]!.text) : m.state === 'blocked' ? firstPlainLine(m.check_in?.blockers) : '';
  if (blockers) parts.push(`blocked by: ${blockers}${items.length > 1 ? ` (and ${items.length - 1} more)` : ''}`);
  return `${sanitizeLine(m.person.name)}: ${parts.join(', ')}`;
}

/** A goal's line: its title, progress, confidence and due date, in words. */
function goalLine(g: Goal): string {
  const parts = [g.progress == null ? 'no progress yet' : `${Math.round(g.progress)}% done`];
  if (g.confidence_description || g.confidence != null) parts.push(`confidence ${sanitizeLine(g.confidence_description ?? String(g.confidence))}`);
  if (g.end_date) parts.push(`due ${sanitizeLine(g.end_date)}`);
  return `Goal ${firstPlainLine(g.title)}: ${parts.join(', ')}`;
}

function teamHead(r: TeamDay, profile?: string): string {
  return `Team ${sanitizeLine(r.team.name)}${profileWords(profile)}, ${r.date}: ${stateCounts(r).join(', ') || 'nobody in this team'}`;
}

/** The whole wall as lines: each team (its counts, then one line a person), then the goals. */
export function wallAsLines(data: WallData): string[] {
  const out: string[] = [];
  for (const r of data.teams) {
    out.push(teamHead(r, data.profile));
    for (const m of r.members) out.push(`  ${personLine(m)}`);
  }
  const goals = data.goals.filter((g) => g.archived !== true);
  out.push(goals.length === 0 ? 'No goals for these teams.' : `Goals (${goals.length}):`);
  for (const g of goals) out.push(`  ${goalLine(g)}`);
  return out;
}

/**
 * What changed between two walls of the same day, one line each: a person whose line changed (with
 * their state before, when that changed), who joined or left a team, a goal that changed, came or
 * went. Empty when nothing a person would see changed.
 */
export function wallChanges(before: WallData, after: WallData): string[] {
  const out: string[] = [];
  for (const r of after.teams) {
    const was = before.teams.find((t) => t.team.id === r.team.id);
    const team = sanitizeLine(r.team.name);
    if (!was) {
      out.push(`Now shown: ${teamHead(r, after.profile)}`);
      for (const m of r.members) out.push(`  ${personLine(m)}`);
      continue;
    }
    for (const m of r.members) {
      const old = was.members.find((x) => x.person.id === m.person.id);
      const line = personLine(m);
      if (!old) out.push(`${team}: joined: ${line}`);
      else if (personLine(old) !== line) {
        const from = old.state !== m.state ? ` (was ${MEMBER_STATE_WORDS[old.state].word})` : '';
        out.push(`${team}: ${line}${from}`);
      }
    }
    for (const old of was.members) {
      if (!r.members.some((m) => m.person.id === old.person.id)) out.push(`${team}: ${sanitizeLine(old.person.name)} is no longer in the team`);
    }
  }
  for (const was of before.teams) if (!after.teams.some((t) => t.team.id === was.team.id)) out.push(`No longer shown: team ${sanitizeLine(was.team.name)}`);
  const live = (d: WallData) => d.goals.filter((g) => g.archived !== true);
  for (const g of live(after)) {
    const old = live(before).find((x) => x.id === g.id);
    if (!old) out.push(`New: ${goalLine(g)}`);
    else if (goalLine(old) !== goalLine(g)) out.push(goalLine(g));
  }
  for (const old of live(before)) if (!live(after).some((g) => g.id === old.id)) out.push(`Gone: ${goalLine(old)}`);
  return out;
}
