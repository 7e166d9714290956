// Human views of the service's objects. Every string that came from the service is sanitised.
// On a terminal (rich) a check-in's answers are Markdown rendered, and every line is wrapped at
// word edges to the width, a bullet's continuation hanging under its text.

import { moodEmoji, type CheckIn, type Mood } from '../api/types.js';
import { SECTIONS } from '../core/checkin-answers.js';
import { MEMBER_STATE_WORDS } from '../core/member-states.js';
import type { Colors } from './color.js';
import { renderMarkdown } from './markdown.js';
import { escapeHiddenInJson, sanitize, sanitizeLine } from './sanitize.js';
import { wrap } from './wrap.js';

export function moodLabel(mood: Mood | string | null | undefined): string {
  if (!mood) return 'none';
  const emoji = moodEmoji(mood);
  return emoji ? `${emoji} ${mood}` : sanitizeLine(mood);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');
}

function timeOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? sanitizeLine(iso) : `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * A check-in for people: its heading, state, and answers. `rich` (a terminal): Markdown rendered
 * and lines wrapped at word edges to `width` (the terminal's columns; unbounded when not given).
 */
export function renderCheckIn(c: CheckIn, colors: Colors, rich = false, width = Infinity): string {
  const teams = (c.teams ?? []).map((t) => sanitizeLine(t.name)).join(', ');
  const who = sanitizeLine(c.person?.name ?? 'Unknown');
  // Marked absent: the state's one word (core/member-states.ts), not "not filled in yet".
  const state = c.completed_at
    ? colors.green(`filled in at ${timeOf(c.completed_at)}`)
    : c.absent
      ? colors.dim(MEMBER_STATE_WORDS.absent.word)
      : colors.yellow('not filled in yet');
  const lines = [
    `${colors.bold(`Check-in ${sanitizeLine(c.date)}`)} · ${who}${teams ? ` · ${teams}` : ''}`,
    `${state}${c.blocked ? ` · ${colors.red('blocked')}` : ''} · mood: ${moodLabel(c.mood)}` +
      (c.previous_completed === null || c.previous_completed === undefined ? '' : ` · did what was intended: ${c.previous_completed ? 'yes' : 'no'}`),
    '',
  ];
  const section = (title: string, text: string | null | undefined) => {
    lines.push(colors.bold(title));
    lines.push(text && text.trim() ? indent(rich ? renderMarkdown(text, colors) : sanitize(text)) : colors.dim('  —'));
  };
  for (const s of SECTIONS) section(s.title, c[s.field]);
  if (c.url) lines.push('', colors.dim(sanitizeLine(c.url)));
  const out = lines.join('\n') + '\n';
  return rich ? wrap(out, width) : out;
}

/** Exactly the service's object(s), as JSON, one document on stdout. */
export function renderJson(value: unknown): string {
  return jsonText(value) + '\n';
}

/** JSON text of a value, indented by 2, without the final newline. */
export function jsonText(value: unknown): string {
  // JSON.stringify escapes C0 controls; escape DEL, C1 and every other character that draws nothing
  // (the one rule, ui/sanitize.ts) too, so the values stay exact and a terminal never acts on or
  // hides them (\u009b is a CSI on some terminals).
  return escapeHiddenInJson(JSON.stringify(value, null, 2));
}
