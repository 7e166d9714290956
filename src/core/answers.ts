// Check-in answers: the $EDITOR / --from-file template, mood parsing, and what to send.
// Pure: no IO.

import { UsageError } from '../errors.js';
import { MOODS, MOOD_NAMES, type CheckIn, type CheckInAnswers, type Mood } from '../api/types.js';

export const SECTIONS = [
  { field: 'previous', title: 'Previous', question: 'What did you do previously?' },
  { field: 'intentions', title: 'Intentions', question: 'What do you intend to do next?' },
  { field: 'blockers', title: 'Blockers', question: 'Are you blocked by anything?' },
] as const;

type TextField = (typeof SECTIONS)[number]['field'];

/** A mood by name (any case) or by its emoji; null for "none"; throws listing the valid ones. */
export function parseMood(input: string): Mood | null {
  const v = input.trim().toLowerCase();
  if (v === '' || v === 'none' || v === 'null') return null;
  if ((MOOD_NAMES as string[]).includes(v)) return v as Mood;
  const byEmoji = MOOD_NAMES.find((m) => MOODS[m] === input.trim());
  if (byEmoji) return byEmoji;
  throw new UsageError(`Unknown mood "${input.trim()}". Valid moods: ${MOOD_NAMES.join(', ')} (or none)`);
}

/** yes/no for "did you do what you intended?" */
export function parseYesNo(input: string): boolean | null {
  const v = input.trim().toLowerCase();
  if (['yes', 'y', 'true', 'done'].includes(v)) return true;
  if (['no', 'n', 'false', 'not done'].includes(v)) return false;
  if (v === '' || v === 'none' || v === 'unknown') return null;
  throw new UsageError(`"Done:" takes yes or no, got "${input.trim()}"`);
}

const COMMENT = /<!--[\s\S]*?-->/g;

/** The editor template: Markdown sections, a Mood line, and instructions in HTML comments. */
export function buildTemplate(values: CheckInAnswers, date: string): string {
  const lines: string[] = [
    `<!-- Check-in for ${date}. Write Markdown under each heading; lines in these comments are ignored.`,
    '     Leave a section empty to send it empty; save an empty file to cancel. -->',
    '',
  ];
  for (const s of SECTIONS) {
    lines.push(`## ${s.title}`, `<!-- ${s.question} -->`);
    const v = values[s.field];
    if (v) lines.push(v.replace(/\s+$/, ''));
    lines.push('');
  }
  lines.push(`Mood: ${values.mood ?? ''}`);
  lines.push(`<!-- One of: ${MOOD_NAMES.join(', ')} — or leave it empty. -->`);
  const done = values.previous_completed;
  lines.push(`Done: ${done === true ? 'yes' : done === false ? 'no' : ''}`);
  lines.push('<!-- Did you do what you intended? yes or no. -->', '');
  return lines.join('\n');
}

/**
 * Reads a filled-in template (or a --from-file document): `## Previous`, `## Intentions`,
 * `## Blockers` sections, an optional `Mood:` line and `Done:` line. A section that is
 * absent is not sent; one that is present but empty is sent empty.
 */
export function parseTemplate(text: string): CheckInAnswers {
  const out: CheckInAnswers = {};
  let current: TextField | undefined;
  const body: Partial<Record<TextField, string[]>> = {};
  const stripped = text.replace(/\r\n?/g, '\n').replace(COMMENT, '');
  let inFence = false;
  for (const line of stripped.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    const section = heading ? SECTIONS.find((s) => s.title.toLowerCase() === heading[1]!.trim().replace(/:$/, '').toLowerCase()) : undefined;
    if (section) {
      current = section.field;
      body[current] = [];
      continue;
    }
    const mood = inFence ? null : /^\s*mood:\s*(.*)$/i.exec(line);
    if (mood) {
      out.mood = parseMood(mood[1]!);
      continue;
    }
    const done = inFence ? null : /^\s*done:\s*(.*)$/i.exec(line);
    if (done) {
      const v = parseYesNo(done[1]!);
      if (v !== null) out.previous_completed = v;
      continue;
    }
    if (current) body[current]!.push(line);
  }
  for (const s of SECTIONS) {
    const lines = body[s.field];
    if (lines) out[s.field] = lines.join('\n').replace(/^\n+|\s+$/g, '');
  }
  return out;
}

/** True when nothing in `answers` would be sent. */
export function isEmptyAnswers(a: CheckInAnswers): boolean {
  return Object.values(a).every((v) => v === undefined);
}

/** True when a template came back with nothing written at all (the git-commit way to cancel). */
export function isBlankTemplate(a: CheckInAnswers): boolean {
  return SECTIONS.every((s) => !a[s.field]) && (a.mood ?? null) === null && a.previous_completed === undefined;
}

/** The answers already in a check-in, as the editor and prompts prefill them. */
export function answersOf(c: CheckIn): CheckInAnswers {
  return {
    previous: c.previous,
    intentions: c.intentions,
    blockers: c.blockers,
    mood: c.mood,
    previous_completed: c.previous_completed,
  };
}

/** "previous" defaults to what I said I would do last time: the intentions of my latest earlier check-in. */
export function previousPrefill(today: CheckIn | null, earlier: CheckIn[]): string | null {
  if (today?.previous) return today.previous;
  const last = earlier.find((c) => c.intentions && c.intentions.trim() !== '');
  return last?.intentions ?? null;
}
