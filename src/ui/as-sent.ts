// Text exactly as it will be sent, for a person's yes: the agent's question (mcp/write.ts) and the
// terminal's (domain/outbox.ts) show a draft the same way, so nothing in it can hide — the hidden
// characters named by the one rule the sanitiser removes them by (ui/sanitize.ts).
import { replaceHidden } from './sanitize.js';

/**
 * Characters that draw as a blank, or as nothing, in most dialogs though they are neither spaces nor
 * format characters (those are the one rule's, ui/sanitize.ts): line and paragraph separators, the
 * Braille blank, the Hangul fillers, Khmer's inherent vowels, the combining grapheme joiner.
 */
const BLANK_LOOKING = /[\u2028\u2029\u2800\u115f\u1160\u3164\uffa0\u17b4\u17b5\u034f]/gu;
/** A run of combining marks on one base: more than two hide or smear what is around them (a "Zalgo" pile). */
const MARK_PILE = /\p{M}{3,}/gu;
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
    .replace(MARK_PILE, (run) => {
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
