// Text exactly as it will be sent, for a person's yes: the agent's question (mcp/write.ts) and the
// terminal's (domain/outbox.ts) show a draft the same way, so nothing in it can hide — the hidden
// characters named by the one rule the sanitiser removes them by (ui/sanitize.ts).
import {
  ACTIVITY_INPUT,
  CHECK_IN_ANSWERS,
  COMMENT_INPUT,
  ECHO_QUESTION_INPUT,
  GOAL_INPUT,
  GOAL_UPDATE_INPUT,
  nearestConfidence,
  type BodyContent,
} from '../api/types.js';
import type { ObjectShape, Shape } from '../api/validate.js';
import { ANSWER_FIELDS } from '../core/checkin-answers.js';
import { asSent, isNoBlockers, noBlockersNote } from '../core/blockers.js';
import { replaceHidden, sanitizeLine } from './sanitize.js';

/**
 * Characters that draw as a blank, or as nothing, in most dialogs though they are neither spaces nor
 * format characters (those are the one rule's, ui/sanitize.ts): line and paragraph separators, the
 * Braille blank, the Hangul fillers, Khmer's inherent vowels, the combining grapheme joiner.
 */
const BLANK_LOOKING = /[\u2028\u2029\u2800\u115f\u1160\u3164\uffa0\u17b4\u17b5\u034f]/gu;
/** A run of combining marks on one base: more than two hide or smear what is around them (a "Zalgo" pile). */
let markPile: RegExp | undefined;
/** Made at its first use (a person's yes question): its Unicode class is compiled when it is made. */
const MARK_PILE = () => (markPile ??= /\p{M}{3,}/gu);
const codeOf = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
/** A run of spaces (any kind but the newline) long enough to push words out of sight. */
const SPACES = /[^\S\n]+/g;

/**
 * Text exactly as it will be sent, for the person's question: nothing in it can hide. Runs of
 * blank lines are counted ("[150 blank lines]"; one blank line between paragraphs stays, but any
 * at the start or the end is counted), runs of spaces longer than an indent are counted ("[80
 * spaces]"), and every hidden character is named ("[U+200B]": the one rule of
 * ui/sanitize.ts, every format character and variation selector but those an emoji draws with). "\r\n" is shown as the line break it is.
 */
export function shownAsSent(text: string): string {
  const marked = replaceHidden(text.replace(/\r\n/g, '\n'), (c) => `[${codeOf(c)}]`)
    .replace(BLANK_LOOKING, (c) => `[${codeOf(c)}]`)
    .replace(MARK_PILE(), (run) => {
      const marks = [...run];
      return `[${marks.length} combining marks: ${[...new Set(marks)].slice(0, 4).map(codeOf).join(' ')}${new Set(marks).size > 4 ? ' …' : ''}]`;
    })
    // A run of one hidden character is counted, not repeated: "[2000 × U+2800]".
    .replace(/\[(U\+[0-9A-F]{4,6})\](?:\[\1\]){3,}/g, (run, code: string) => `[${run.length / (code.length + 2)} × ${code}]`);
  // A line of nothing but spaces is a blank line (counted with the others); in any other, long runs of spaces are counted.
  const lines = marked.split('\n').map((line) =>
    /^[^\S\n]*$/.test(line)
      ? ''
      : line.replace(SPACES, (run, at: number) => {
          const n = [...run].length;
          const end = at + run.length === line.length;
          const plain = /^ +$/.test(run);
          // An indent (up to 8 plain spaces) and a gap of up to 3 stay; so do Markdown's two spaces at a line's end.
          if (plain && ((at === 0 && n <= 8) || (!end && n <= 3) || (end && n <= 2 && at > 0))) return run;
          return `[${n} ${n === 1 ? 'space' : 'spaces'}${plain ? '' : ' (not all plain)'}]`;
        }),
  );
  const blank = (l: string) => l === '';
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    if (!blank(lines[i]!)) {
      out.push(lines[i++]!);
      continue;
    }
    let j = i;
    while (j < lines.length && blank(lines[j]!)) j++;
    const n = j - i;
    // One blank line between two lines of text is a paragraph break, as anyone reads it.
    if (n === 1 && i > 0 && j < lines.length) out.push('');
    else out.push(`[${n} blank ${n === 1 ? 'line' : 'lines'}]`);
    i = j;
  }
  return out.join('\n');
}

/** One text of what is sent, for the question: its name, its length, and the text as it will be sent. */
export function sectionAsSent(title: string, value: string): string {
  const n = [...value].length;
  const lines = value.split('\n').length;
  return `${title} (${n} ${n === 1 ? 'character' : 'characters'}${lines > 1 ? `, ${lines} lines` : ''}):\n${shownAsSent(value)}`;
}

/** What a draft holds, by its kind (api/types.ts BodyContent). */
export type SentContent = BodyContent;

/** How one field of a body reads in the question: its name, and whether it is prose (shown as a section, its length counted). */
interface FieldWords {
  title: string;
  prose?: true;
  /** A number as the person reads it ("70%", "At risk (60)"). */
  number?: (n: number) => string;
}

/** Words for every field of a body's shape: a field added to the shape and not here fails the typecheck. */
type WordsFor<S extends ObjectShape<Record<string, Shape<unknown>>>> = { readonly [K in keyof S['fields']]-?: FieldWords };

const answerTitle = (field: string) => ANSWER_FIELDS.find((f) => f.field === field)!.title;
const ANSWER_WORDS: WordsFor<typeof CHECK_IN_ANSWERS> = {
  previous: { title: answerTitle('previous'), prose: true },
  intentions: { title: answerTitle('intentions'), prose: true },
  blockers: { title: answerTitle('blockers'), prose: true },
  mood: { title: answerTitle('mood') },
  previous_completed: { title: answerTitle('previous_completed') },
  team_ids: { title: 'Shared with (team ids)' },
};
const COMMENT_WORDS: WordsFor<typeof COMMENT_INPUT> = { body: { title: 'The comment', prose: true } };
const GOAL_UPDATE_WORDS: WordsFor<typeof GOAL_UPDATE_INPUT> = {
  title: { title: 'Title', prose: true },
  body: { title: 'Body', prose: true },
  progress: { title: 'Progress', number: (n) => `${n}%` },
  confidence: { title: 'Confidence', number: (n) => `${nearestConfidence(n).label} (${n})` },
};
const ACTIVITY_WORDS: WordsFor<typeof ACTIVITY_INPUT> = {
  description: { title: 'The activity', prose: true },
  url: { title: 'Link' },
  group: { title: 'Label' },
};
const GOAL_WORDS: WordsFor<typeof GOAL_INPUT> = {
  title: { title: 'Title' },
  description: { title: 'Description', prose: true },
  start_date: { title: 'Starts' },
  end_date: { title: 'Ends' },
  owner_id: { title: 'Owner' },
  team_ids: { title: 'Teams' },
  contributor_ids: { title: 'Contributors' },
  update_cadence: { title: 'Update cadence' },
  parent_id: { title: 'Parent goal' },
  private: { title: 'Private' },
  archived: { title: 'Archived' },
};
const ECHO_QUESTION_WORDS: WordsFor<typeof ECHO_QUESTION_INPUT> = {
  prompt: { title: 'The question', prose: true },
  title: { title: 'Title' },
  answer_frequency: { title: 'Asked' },
  answer_day: { title: 'On' },
  answer_time: { title: 'At' },
  answer_time_zone: { title: 'Time zone' },
};

/** Each kind's body: its shape (api/types.ts, the order fields are shown in) and their words. */
export const SENT_BODIES = {
  answers: { shape: CHECK_IN_ANSWERS, words: ANSWER_WORDS },
  comment: { shape: COMMENT_INPUT, words: COMMENT_WORDS },
  'goal-update': { shape: GOAL_UPDATE_INPUT, words: GOAL_UPDATE_WORDS },
  activity: { shape: ACTIVITY_INPUT, words: ACTIVITY_WORDS },
  goal: { shape: GOAL_INPUT, words: GOAL_WORDS },
  'echo-question': { shape: ECHO_QUESTION_INPUT, words: ECHO_QUESTION_WORDS },
} as const satisfies Record<Exclude<SentContent['kind'], 'text'>, { shape: ObjectShape<Record<string, Shape<unknown>>>; words: object }>;

/** A value the shape does not describe (a draft of a newer build, a row changed by hand): shown as the JSON it goes as. */
const asJson = (v: unknown) => shownAsSent(JSON.stringify(v) ?? String(v));

function fieldText(words: FieldWords, value: unknown): string {
  const { title } = words;
  if (value === null || value === '') return words.prose ? `${title}:\n(nothing)` : `${title}: (nothing)`;
  if (typeof value === 'string') return words.prose || value.includes('\n') ? sectionAsSent(title, value) : `${title}: ${shownAsSent(value)}`;
  if (typeof value === 'boolean') return `${title}: ${value ? 'yes' : 'no'}`;
  if (typeof value === 'number' && Number.isFinite(value)) return `${title}: ${words.number ? words.number(value) : String(value)}`;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return `${title}: ${value.length === 0 ? '(none)' : value.map((v) => shownAsSent(v.replace(/\n/g, ' '))).join(', ')}`;
  return `${title}: ${asJson(value)}`;
}

/**
 * Every field a draft sends, as the person's yes shows it — the terminal's question (domain/outbox.ts)
 * and the agent's (mcp/write.ts) read this one function, so the two cannot differ. The fields are its
 * body's shape's (api/types.ts), in that order, each one present shown (a text with its length, every
 * hidden character named); any other field it holds (it goes too) is shown after them by its own name.
 * Answers are shown as sent ("none" as blockers goes as none, and is said).
 */
export function shownToSend(content: SentContent): string {
  if (content.kind === 'text') return sectionAsSent('The text', content.text);
  const body: Record<string, unknown> =
    content.kind === 'answers' ? asSent(content.answers) : content.kind === 'comment' ? { body: content.body } : { ...content.input };
  const { shape, words } = SENT_BODIES[content.kind];
  const table = words as Readonly<Record<string, FieldWords>>;
  const parts: string[] = [];
  for (const field of Object.keys(shape.fields)) {
    if (body[field] === undefined) continue;
    parts.push(fieldText(table[field]!, body[field]));
    if (content.kind === 'answers' && field === 'blockers' && isNoBlockers(content.answers.blockers)) parts.push(noBlockersNote(content.answers.blockers!));
  }
  for (const [field, value] of Object.entries(body))
    if (!(field in shape.fields) && value !== undefined) parts.push(`${shownAsSent(sanitizeLine(field))} (a field checkin does not know): ${asJson(value)}`);
  return parts.length > 0 ? parts.join('\n\n') : '(no fields: an empty request)';
}
