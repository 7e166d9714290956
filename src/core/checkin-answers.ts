// Check-in answers: the $EDITOR / --from-file template, mood parsing, and what to send.
// Pure: no IO.

import { hintText, UsageError } from '../errors.js';
import { isMood, MOODS, MOOD_NAMES, type CheckIn, type CheckInAnswers, type Mood } from '../api/types.js';
import { nearMatches } from './match.js';

/**
 * The answer fields, said once: each one's JSON name (the PATCH body's, `--json`'s and the agent's
 * input), its label (headings, views, previews, the template), the question the wizard asks and
 * how (`prompt`: lines of Markdown, a mood found by typing, yes or no), its flag(s) and their help,
 * what the agent's input schema says of it, and its column in a report's CSV. The flags, the
 * wizard, the views, the template, the drafts' first words, the agent's schemas and the report
 * read this table; adding a question is a row here and a field in `api/types.ts`'s shapes.
 */
export const ANSWER_FIELDS = [
  {
    field: 'previous',
    title: 'Previous',
    question: 'What did you do previously?',
    prompt: 'lines',
    flags: [{ spec: '-p, --previous <text>', help: 'what you did previously (- reads stdin; repeated: one line each, in order)' }],
    agent: 'what I did since my last check-in (Markdown)',
    column: 'previous',
  },
  {
    field: 'intentions',
    title: 'Intentions',
    question: 'What do you intend to do next?',
    prompt: 'lines',
    flags: [{ spec: '-i, --intentions <text>', help: 'what you intend to do next (- reads stdin; repeated: one line each, in order)' }],
    agent: 'what I intend to do next (Markdown)',
    column: 'intentions',
  },
  {
    field: 'blockers',
    title: 'Blockers',
    question: 'Are you blocked by anything?',
    prompt: 'lines',
    flags: [{ spec: '-b, --blockers <text>', help: 'what blocks you; "" for nothing (- reads stdin; repeated: one line each, in order)' }],
    agent: 'what blocks me; "" for nothing',
    column: 'blockers',
  },
  {
    field: 'mood',
    title: 'Mood',
    question: 'Mood',
    prompt: 'mood',
    flags: [{ spec: '-m, --mood <mood>', help: 'your mood, e.g. focused (none clears it)' }],
    agent: "one of the service's moods, e.g. focused, calm, happy, tired (none clears it)",
    column: 'mood',
  },
  {
    field: 'previous_completed',
    title: 'Did what was intended',
    question: 'Did you do what you intended?',
    prompt: 'yes-no',
    flags: [
      { spec: '--done', help: 'you did what you intended' },
      { spec: '--not-done', help: 'you did not do what you intended' },
    ],
    agent: 'did I do what I intended last time?',
    column: 'did_what_was_intended',
  },
] as const;

export type AnswerSpec = (typeof ANSWER_FIELDS)[number];
export type AnswerField = AnswerSpec['field'];
/** The JSON names, in the table's order (the service's order too). */
export const ANSWER_NAMES = ANSWER_FIELDS.map((f) => f.field) as unknown as readonly AnswerField[];

/** The answers written as Markdown lines: the template's sections, the views' blocks. */
export const SECTIONS = ANSWER_FIELDS.filter((f): f is Extract<AnswerSpec, { prompt: 'lines' }> => f.prompt === 'lines');

/** How a list of labels reads in a sentence: "A, B or C". */
export function orList(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
}

export type TextField = (typeof SECTIONS)[number]['field'];

/** A mood by name (any case) or by its emoji; null for "none"; throws naming the near ones, else listing the valid ones. */
export function parseMood(input: string): Mood | null {
  const v = input.trim().toLowerCase();
  if (v === '' || v === 'none' || v === 'null') return null;
  if ((MOOD_NAMES as string[]).includes(v)) return v as Mood;
  const byEmoji = MOOD_NAMES.find((m) => MOODS[m] === input.trim());
  if (byEmoji) return byEmoji;
  const near = nearMatches(v, MOOD_NAMES).map((m) => `"${m}"`);
  if (near.length > 0)
    throw new UsageError(`Unknown mood "${input.trim()}"`, `Did you mean ${near.length > 1 ? `${near.slice(0, -1).join(', ')} or ${near.at(-1)}` : near[0]}?`);
  throw new UsageError(`Unknown mood "${input.trim()}". Valid moods: ${MOOD_NAMES.join(', ')} (or none)`);
}

/** yes/no for "did you do what you intended?" */
export function parseYesNo(input: string): boolean | null {
  const v = input.trim().toLowerCase();
  if (['yes', 'y', 'true', 'done'].includes(v)) return true;
  if (['no', 'n', 'false', 'not done'].includes(v)) return false;
  if (v === '' || v === 'none' || v === 'unknown') return null;
  throw new UsageError(`"Done:" takes yes or no, got "${input.trim()}" (start a line with \\ to keep "Done:" as text)`);
}

/** Lines the template reads as structure: a section heading, a Mood: or Done: line, a comment. */
const HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
const MOOD_LINE = /^\s*mood:(.*)$/i;
const DONE_LINE = /^\s*done:(.*)$/i;
const COMMENT_START = /^\s*<!--/;

function sectionOf(line: string): (typeof SECTIONS)[number] | undefined {
  const heading = HEADING.exec(line);
  if (!heading) return undefined;
  const title = heading[1]!.trim().replace(/:$/, '').toLowerCase();
  return SECTIONS.find((s) => s.title.toLowerCase() === title);
}

function isStructural(line: string): boolean {
  return sectionOf(line) !== undefined || MOOD_LINE.test(line) || DONE_LINE.test(line) || COMMENT_START.test(line);
}

/**
 * An answer line as the template writes it: a line that would be read as structure gets a `\`
 * in front (and one that already starts with backslashes gets one more), so any answer survives
 * the round trip. `\## Blockers` in a template is the text "## Blockers".
 */
function escapeLine(line: string): string {
  return isStructural(line.replace(/^\\+/, '')) ? `\\${line}` : line;
}

function unescapeLine(line: string): string {
  return line.startsWith('\\') && isStructural(line.replace(/^\\+/, '')) ? line.slice(1) : line;
}

/** The editor template: Markdown sections, a Mood line, a Done line, and instructions in HTML comments. */
export function buildTemplate(values: CheckInAnswers, date: string): string {
  const lines: string[] = [
    `<!-- Check-in for ${date}. Write Markdown under each heading; lines in these comments are ignored.`,
    '     Leave a section empty to send it empty; save an empty file to cancel.',
    '     A line that starts with \\ keeps the rest as text: \\## Blockers is the words "## Blockers". -->',
    '',
  ];
  for (const s of SECTIONS) {
    lines.push(`## ${s.title}`, `<!-- ${s.question} -->`);
    const v = values[s.field];
    if (v) lines.push(...v.split('\n').map(escapeLine));
    lines.push('');
  }
  lines.push(`Mood: ${values.mood ?? ''}`);
  lines.push(`<!-- One of: ${MOOD_NAMES.join(', ')} — or leave it empty. -->`);
  const done = values.previous_completed;
  lines.push(`Done: ${done === true ? 'yes' : done === false ? 'no' : ''}`);
  lines.push('<!-- Did you do what you intended? yes or no. -->', '');
  return lines.join('\n');
}

export interface ReadTemplate {
  answers: CheckInAnswers;
  /** What could not be read, one line each, naming the line; empty when all is well. */
  problems: string[];
}

/**
 * Reads a filled-in template (or a --from-file document): `## Previous`, `## Intentions` and
 * `## Blockers` sections (any heading level), a `Mood:` line and a `Done:` line, comments that
 * start a line. A section that is absent is not sent; one that is present but empty is sent
 * empty. Nothing is dropped without a word: text above the first section, a section given twice,
 * an unknown mood or a Done: that is not yes or no are problems, and nothing is sent.
 */
export function readTemplate(text: string): ReadTemplate {
  const answers: CheckInAnswers = {};
  const problems: string[] = [];
  const body: Partial<Record<TextField, string[]>> = {};
  const seenAt: Partial<Record<TextField | 'mood' | 'done', number>> = {};
  let current: TextField | undefined;
  /** Below a Mood: or Done: line, until the next heading: no section. */
  let afterTrailer = false;
  let inComment = false;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  lines.forEach((raw, i) => {
    const n = i + 1;
    let line = raw;
    if (inComment || COMMENT_START.test(line)) {
      const end = line.indexOf('-->', inComment ? 0 : line.indexOf('<!--') + 4);
      inComment = end === -1;
      if (inComment) return;
      line = line.slice(end + 3);
      if (line.trim() === '') return;
    }
    const section = sectionOf(line);
    if (section) {
      if (seenAt[section.field] !== undefined)
        problems.push(`line ${n}: "## ${section.title}" is there twice (also line ${seenAt[section.field]}); merge the two`);
      seenAt[section.field] = n;
      current = section.field;
      afterTrailer = false;
      body[current] = [];
      return;
    }
    const mood = MOOD_LINE.exec(line);
    if (mood) {
      if (seenAt.mood !== undefined) problems.push(`line ${n}: a second Mood: line (the first is line ${seenAt.mood})`);
      seenAt.mood = n;
      current = undefined;
      afterTrailer = true;
      try {
        answers.mood = parseMood(mood[1]!);
      } catch (err) {
        const hint = err instanceof UsageError && err.hints.length > 0 ? `. ${err.hints.map(hintText).join(' ')}` : '';
        problems.push(`line ${n}: ${(err as Error).message}${hint}`);
      }
      return;
    }
    const done = DONE_LINE.exec(line);
    if (done) {
      if (seenAt.done !== undefined) problems.push(`line ${n}: a second Done: line (the first is line ${seenAt.done})`);
      seenAt.done = n;
      current = undefined;
      afterTrailer = true;
      try {
        const v = parseYesNo(done[1]!);
        if (v !== null) answers.previous_completed = v;
      } catch (err) {
        problems.push(`line ${n}: ${(err as Error).message}`);
      }
      return;
    }
    if (current) body[current]!.push(unescapeLine(line));
    else if (line.trim() !== '') {
      const where = afterTrailer ? 'is below a Mood: or Done: line, in no section' : 'is above the first section';
      problems.push(`line ${n}: "${line.trim().slice(0, 40)}" ${where}; put it under ${orList(SECTIONS.map((x) => `## ${x.title}`))}`);
    }
  });
  for (const s of SECTIONS) {
    const got = body[s.field];
    if (!got) continue;
    // The template writes one empty line after each section: that one is not part of the answer.
    if (got.length > 0 && got[got.length - 1] === '') got.pop();
    answers[s.field] = got.join('\n');
  }
  return { answers, problems };
}

/**
 * An answer template (a file a person or a team keeps, `checkin config set template FILE`): read by
 * the editor's own reader, the same headings and lines. Only what it says is kept: an empty
 * section, or an empty Mood: or Done: line, gives nothing, so a template never clears an answer.
 */
export function readAnswerTemplate(text: string): ReadTemplate {
  const read = readTemplate(text);
  const answers: CheckInAnswers = {};
  for (const s of SECTIONS) {
    const v = read.answers[s.field];
    if (v && v.trim() !== '') answers[s.field] = v.replace(/\s+$/, '');
  }
  if (read.answers.mood) answers.mood = read.answers.mood;
  if (read.answers.previous_completed !== undefined) answers.previous_completed = read.answers.previous_completed;
  return { answers, problems: read.problems };
}

/**
 * What a check-in not yet filled in starts from: its own answers, and the template's where it has
 * none (a text that is empty, no mood, no Done). *previous* is not filled here: it is merged with
 * the suggestion (`mergeLines`), in the order the help topic gives.
 */
export function withTemplate(own: CheckInAnswers, template: CheckInAnswers | undefined, leave: readonly TextField[] = []): CheckInAnswers {
  if (!template) return own;
  const out = { ...own };
  for (const s of SECTIONS) if (!leave.includes(s.field) && !out[s.field] && template[s.field]) out[s.field] = template[s.field];
  if (out.mood == null && template.mood) out.mood = template.mood;
  if (out.previous_completed == null && template.previous_completed !== undefined) out.previous_completed = template.previous_completed;
  return out;
}

/** Answers from several sources as one, in the order given (the template's, the last intentions, what went on since): each line once, blank lines left out; null when none has any. */
export function mergeLines(...parts: Array<string | null | undefined>): string | null {
  const out: string[] = [];
  for (const part of parts)
    for (const line of (part ?? '').split('\n')) if (line.trim() !== '' && !out.some((l) => l.trim() === line.trim())) out.push(line.replace(/\s+$/, ''));
  return out.length > 0 ? out.join('\n') : null;
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
  const out: CheckInAnswers = {};
  for (const s of SECTIONS) out[s.field] = c[s.field];
  // A mood this version does not know (the service may add some) cannot be offered back: none.
  out.mood = c.mood == null || isMood(c.mood) ? c.mood : null;
  out.previous_completed = c.previous_completed;
  return out;
}

/** "previous" defaults to what I said I would do last time: the intentions of my latest earlier check-in. */
export function previousPrefill(today: CheckIn | null, earlier: CheckIn[]): string | null {
  if (today?.previous) return today.previous;
  const last = earlier.find((c) => c.intentions && c.intentions.trim() !== '');
  return last?.intentions ?? null;
}
