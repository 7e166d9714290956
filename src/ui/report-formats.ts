// `checkin report` as Markdown (to paste into a 1:1 or a review) and CSV (RFC 4180 quoting, LF
// line ends, for a spreadsheet). Everything from the service passes the sanitiser; a CSV cell that
// a spreadsheet would run as a formula is kept as text behind an apostrophe (see csvCell).
import { MOODS, type CheckIn, type GoalUpdate, type Ref } from '../api/types.js';
import { sanitize, sanitizeLine } from './sanitize.js';

export interface ReportDay {
  /** "Mon 16 Nov". */
  label: string;
  checkIn: CheckIn;
}

export interface ReportPerson {
  person: Ref;
  days: ReportDay[];
  updates: GoalUpdate[];
  summary: { scheduled: number; done: number; blocked: number; moods: Array<{ mood: string; count: number }> };
}

export interface ReportModel {
  since: string;
  until: string;
  /** "Mon 16 Nov – Sun 22 Nov 2026". */
  title: string;
  people: ReportPerson[];
}

const moodText = (mood: string | null | undefined) => (mood ? `${MOODS[mood as keyof typeof MOODS] ?? ''} ${sanitizeLine(mood)}`.trim() : '');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summaryLine(p: ReportPerson): string {
  const parts = [`${p.summary.done} of ${plural(p.summary.scheduled, 'day')} checked in`, `${plural(p.summary.blocked, 'day')} blocked`];
  if (p.summary.moods.length > 0) parts.push(`moods: ${p.summary.moods.map((m) => `${moodText(m.mood)} ×${m.count}`).join(', ')}`);
  parts.push(p.updates.length === 0 ? 'no goal updates' : plural(p.updates.length, 'goal update'));
  return parts.join(' · ');
}

function answer(label: string, text: string | null | undefined): string {
  if (!text || !text.trim()) return '';
  const body = sanitize(text).trim();
  return body.includes('\n') ? `**${label}:**\n\n${body}\n\n` : `**${label}:** ${body}\n\n`;
}

export function reportMarkdown(r: ReportModel): string {
  const out: string[] = [`# Check-ins, ${r.title}\n\n`];
  if (r.people.length === 0) out.push('No check-ins in this period.\n');
  for (const p of r.people) {
    out.push(`## ${sanitizeLine(p.person.name)}\n\n${summaryLine(p)}\n\n`);
    for (const u of p.updates) {
      const confidence = u.confidence_description ? `, ${sanitizeLine(u.confidence_description)}` : '';
      out.push(`- Goal update “${sanitizeLine(u.title)}” on ${sanitizeLine(u.goal?.title ?? '')} (${u.created_at.slice(0, 10)}): ${u.progress}%${confidence}\n`);
    }
    if (p.updates.length > 0) out.push('\n');
    for (const d of p.days) {
      const c = d.checkIn;
      const state = c.completed_at ? [moodText(c.mood), c.blocked ? 'blocked' : ''].filter(Boolean).join(' · ') : 'not filled in';
      out.push(`### ${sanitizeLine(d.label)}${state ? ` — ${state}` : ''}\n\n`);
      if (!c.completed_at) continue;
      if (c.previous_completed !== null && c.previous_completed !== undefined) out.push(`Did what was intended: ${c.previous_completed ? 'yes' : 'no'}\n\n`);
      out.push(answer('Previous', c.previous), answer('Intentions', c.intentions), answer('Blockers', c.blockers));
    }
  }
  return out.join('').replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '\n');
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
  const rows = [['date', 'person', 'done', 'mood', 'did_what_was_intended', 'blocked', 'previous', 'intentions', 'blockers']];
  for (const p of r.people) {
    for (const { checkIn: c } of p.days) {
      const completed = c.previous_completed === null || c.previous_completed === undefined ? '' : c.previous_completed ? 'yes' : 'no';
      rows.push([c.date, p.person.name, c.completed_at ? 'yes' : 'no', c.mood ?? '', completed, c.blocked ? 'yes' : 'no', c.previous ?? '', c.intentions ?? '', c.blockers ?? '']);
    }
  }
  return rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
