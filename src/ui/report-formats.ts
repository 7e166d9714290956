// `checkin report` as Markdown (to paste into a 1:1 or a review) and CSV (RFC 4180 quoting, LF
// line ends, for a spreadsheet). Everything from the service passes the sanitiser; in Markdown every
// plain field (a name, a title, a mood, a date) is escaped to render as text (see markdownText),
// while the answers stay the person's Markdown; a CSV cell that a spreadsheet would run as a formula
// is kept as text behind an apostrophe (see csvCell).
import { moodEmoji, type CheckIn, type GoalUpdate, type Ref } from '../api/types.js';
import { ANSWER_FIELDS, SECTIONS, type AnswerField } from '../core/checkin-answers.js';
import { MEMBER_STATE_WORDS } from '../core/member-states.js';
import type { DayState } from '../core/stats.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import { wrap } from './wrap.js';

export interface ReportDay {
  /** "Mon 16 Nov". */
  label: string;
  checkIn: CheckIn;
  /** Its state as `checkin stats` has it (core/stats.ts): filled, missed, absent or pending. */
  state: DayState;
}

export interface ReportPerson {
  person: Ref;
  days: ReportDay[];
  updates: GoalUpdate[];
  /**
   * late: filled after their day; streak: scheduled days filled in a row up to the period's end and
   * the longest run, counted over `weeks` weeks from `since` (core/stats.ts; at_least: the run
   * reaches that first day, so it may be longer).
   */
  summary: {
    scheduled: number;
    done: number;
    late?: number;
    /** Days marked absent: not scheduled, so not in `scheduled` (as `checkin stats` counts them). */
    absent?: number;
    blocked: number;
    moods: Array<{ mood: string; count: number }>;
    streak?: { current: number; longest: number; at_least?: boolean; since?: string; weeks?: number };
  };
  /** Each check-in's run of scheduled days filled in a row through its day, counted as the streak is (by id). */
  runs?: Map<string, number>;
}

export interface ReportModel {
  since: string;
  until: string;
  /** "Mon 16 Nov – Sun 22 Nov 2026". */
  title: string;
  people: ReportPerson[];
}

/**
 * Characters that carry meaning somewhere in Markdown (CommonMark, GFM, and the usual extensions:
 * links and autolinks, `www.` and bare domains, e-mail addresses, emphasis, code, headings and
 * their closing #s, lists, tables, strikethrough, math, emoji :codes:, footnotes ^, attributes {}):
 * every ASCII punctuation character but , ; ? ' " % / and - — which no dialect gives a meaning
 * inside a line (a plain field never starts one here: after "## ", "on ", "— "), so "Jean-Luc
 * O'Brien, Ann" and a date stay as they are.
 */
const MARKDOWN_SPECIAL = /[!#$()*+.:=@[\\\]^_`{|}~]/g;
const HTML_SPECIAL: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * A plain field (a name, a title, a mood, a date the service sent) as Markdown that renders as
 * exactly that text, on one line, in any Markdown renderer: sanitised, `&`, `<` and `>` as HTML
 * entities (which every renderer reads but Discord's, where a backslash before `<` is CommonMark's alone), and
 * every other character with a meaning behind a backslash (CommonMark: any ASCII punctuation may be
 * escaped). No element, link, heading or table cell can come out of it.
 */
export function markdownText(value: string, { entities = true }: { entities?: boolean } = {}): string {
  const line = sanitizeLine(value);
  // A renderer that reads no HTML entity (Discord's, which shows "&amp;" as typed): & as written, < and > behind a backslash.
  if (!entities) return line.replace(MARKDOWN_SPECIAL, '\\$&').replace(/[<>]/g, '\\$&');
  return line.replace(/[&<>]/g, (c) => HTML_SPECIAL[c]!).replace(MARKDOWN_SPECIAL, '\\$&');
}

/** A mood with its emoji, as text (`escape` makes the name Markdown's plain text). */
const moodText = (mood: string | null | undefined, escape: (s: string) => string = sanitizeLine) => (mood ? `${moodEmoji(mood)} ${escape(mood)}`.trim() : '');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A day's state after its date in the report, the same in Markdown and HTML: absent (the one
 * vocabulary's word, core/member-states.ts, as `checkin stats` counts it), the mood and "blocked"
 * when filled, else "not filled in". `mood`: the mood as the format writes it.
 */
export function dayState(c: CheckIn, mood: (m: string | null | undefined) => string): string {
  if (c.absent === true) return MEMBER_STATE_WORDS.absent.word;
  return c.completed_at ? [mood(c.mood), c.blocked ? 'blocked' : ''].filter(Boolean).join(' · ') : 'not filled in';
}

export function summaryLine(p: ReportPerson, escape: (s: string) => string = sanitizeLine): string {
  const late = p.summary.late ? ` (${p.summary.late} later)` : '';
  const parts = [`${p.summary.done} of ${plural(p.summary.scheduled, 'day')} checked in${late}`];
  if (p.summary.absent) parts.push(`${MEMBER_STATE_WORDS.absent.word} ${plural(p.summary.absent, 'day')}`);
  parts.push(`${plural(p.summary.blocked, 'day')} blocked`);
  const streak = p.summary.streak;
  if (streak) {
    const current = streak.at_least ? `${streak.current}+ days` : plural(streak.current, 'day');
    parts.push(`streak ${current} (longest ${streak.longest}${streak.weeks ? ` in ${streak.weeks} weeks` : ''})`);
  }
  if (p.summary.moods.length > 0) parts.push(`moods: ${p.summary.moods.map((m) => `${moodText(m.mood, escape)} ×${m.count}`).join(', ')}`);
  parts.push(p.updates.length === 0 ? 'no goal updates' : plural(p.updates.length, 'goal update'));
  return parts.join(' · ');
}

function answer(label: string, text: string | null | undefined): string {
  if (!text || !text.trim()) return '';
  const body = sanitize(text).trim();
  return body.includes('\n') ? `**${label}:**\n\n${body}\n\n` : `**${label}:** ${body}\n\n`;
}

export function reportMarkdown(r: ReportModel): string {
  const md = markdownText;
  const out: string[] = [`# Check-ins, ${md(r.title)}\n\n`];
  if (r.people.length === 0) out.push('No check-ins in this period.\n');
  for (const p of r.people) {
    out.push(`## ${md(p.person.name)}\n\n${summaryLine(p, md)}\n\n`);
    for (const u of p.updates) {
      const confidence = u.confidence_description ? `, ${md(u.confidence_description)}` : '';
      out.push(`- Goal update “${md(u.title)}” on ${md(u.goal?.title ?? '')} (${md(u.created_at.slice(0, 10))}): ${u.progress}%${confidence}\n`);
    }
    if (p.updates.length > 0) out.push('\n');
    for (const d of p.days) {
      const c = d.checkIn;
      const state = dayState(c, (mood) => moodText(mood, md));
      out.push(`### ${md(d.label)}${state ? ` — ${state}` : ''}\n\n`);
      if (c.absent === true || !c.completed_at) continue;
      if (c.previous_completed !== null && c.previous_completed !== undefined) out.push(`Did what was intended: ${c.previous_completed ? 'yes' : 'no'}\n\n`);
      // The answers are the person's own Markdown, each a block of its own (never in a table cell).
      out.push(...SECTIONS.map((s) => answer(s.title, c[s.field])));
    }
  }
  return out
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n+$/, '\n');
}

/**
 * The Markdown report as read at a terminal of `columns`: every line wider than that wrapped at
 * word edges (a list item's continuation under its text: Markdown reads the lines as one), so the
 * terminal never folds a word; a fenced code block in an answer stays as written. Piped, it is
 * printed as it is.
 */
export function markdownAtTerminal(md: string, columns: number): string {
  let fenced = false;
  return md
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      return fenced || /^\s*(```|~~~)/.test(line) ? line : wrap(line, columns);
    })
    .join('\n');
}

/**
 * What a spreadsheet could read as a formula: a formula character (=, +, -, @, or their fullwidth
 * forms, which some spreadsheets fold to ASCII) after any leading whitespace, or a cell starting with
 * a tab, CR or LF (OWASP's CSV injection list). Such a cell, and one that already starts with an
 * apostrophe, gets an apostrophe in front: dropping one leading apostrophe gives the text back.
 */
const FORMULA_START = /^[\s\u0000-\u001f\u200b-\u200d\u2060]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r\n']/;

/** One CSV cell: sanitised, formulas defused, quoted when it must be (RFC 4180). */
export function csvCell(value: string): string {
  let v = sanitize(value);
  if (FORMULA_START.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function reportCsv(r: ReportModel): string {
  // The numbers after the answers' columns: the run of scheduled days filled in a row through that
  // day, and the days filled and blocked so far in the period (the person's last row: the period's).
  const column = (field: AnswerField) => ANSWER_FIELDS.find((f) => f.field === field)!.column;
  const rows = [
    [
      'date',
      'person',
      'done',
      'state',
      column('mood'),
      column('previous_completed'),
      'blocked',
      ...SECTIONS.map((s) => s.column),
      'streak',
      'filled_days',
      'blocked_days',
    ],
  ];
  for (const p of r.people) {
    let filled = 0;
    let blocked = 0;
    for (const { checkIn: c, state } of p.days) {
      const completed = c.previous_completed === null || c.previous_completed === undefined ? '' : c.previous_completed ? 'yes' : 'no';
      if (c.completed_at) filled++;
      if (c.completed_at && c.blocked) blocked++;
      rows.push([
        c.date,
        p.person.name,
        c.completed_at ? 'yes' : 'no',
        state,
        c.mood ?? '',
        completed,
        c.blocked ? 'yes' : 'no',
        ...SECTIONS.map((s) => c[s.field] ?? ''),
        String(p.runs?.get(c.id) ?? ''),
        String(filled),
        String(blocked),
      ]);
    }
  }
  return rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
