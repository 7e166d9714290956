// Text that reads whole (a check-in, a comment, a blocker) wrapped at word edges to the terminal,
// so the terminal never folds a line in the middle of a word and back to column 0. Each
// continuation line hangs under the text of its line: after its leading spaces and, on a list
// item, after the bullet ("- ", "1. "). Colours (SGR) are closed before each break and reopened
// after the indent, so an underline or a colour never runs into the indent.

import { displayWidth } from './width.js';

const SGR = /\x1b\[([0-9;]*)m/g;
/** Runs of spaces, and words: what stands between spaces, colours inside it included (a styled `code` span and the comma after it are one word). */
const TOKENS = /( +)|((?:\x1b\[[0-9;]*m|[^ \x1b]|\x1b)+)/g;

/** The SGR code that closes each opening one checkin uses. */
function closerOf(code: number): number | undefined {
  if (code === 1 || code === 2) return 22;
  if (code === 3) return 23;
  if (code === 4) return 24;
  if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) return 39;
  return undefined;
}

/** The styles open after `sgr` (codes, in the order they opened), from those open before. */
function track(open: number[], sgr: string): number[] {
  let now = [...open];
  for (const part of sgr.replace(SGR, '$1').split(';')) {
    const code = Number(part || '0');
    if (code === 0) now = [];
    else if (closerOf(code) !== undefined) now.push(code);
    else now = now.filter((o) => closerOf(o) !== code);
  }
  return now;
}

/** Cells a continuation of `plain` hangs by: its leading spaces, and a list bullet with the spaces after it. */
function hangOf(plain: string): number {
  // \u2022 is •: a regular expression is written in ASCII (CONTRIBUTING.md, "Start-up").
  const m = /^(\s*)(?:(?:[-*+\u2022]|\d{1,9}[.)])\s+(?=\S))?/.exec(plain)!;
  return displayWidth(m[0]);
}

/** One line wrapped at word edges; a word wider than the room keeps a line of its own (the terminal folds it: a URL stays one link). */
function wrapLine(line: string, width: number, hangAt?: number): string {
  if (displayWidth(line) <= width) return line;
  const plain = line.replace(SGR, '');
  let hang = hangAt ?? hangOf(plain);
  // A hang that leaves too little room hangs less.
  if (width - hang < Math.min(20, Math.floor(width / 2))) hang = Math.min(hang, displayWidth(/^\s*/.exec(plain)![0]));
  if (width - hang < Math.min(20, Math.floor(width / 2))) hang = 0;
  const out: string[] = [];
  let cur = '';
  let curWidth = 0;
  let gap = '';
  let open: number[] = [];
  /** True while the current line holds only its indent (the leading spaces, or the hang). */
  let empty = true;
  let first = true;
  /** The styles open after the colours inside `text`; `open` is what is open at the end of `cur`. */
  const after = (styles: number[], text: string) => (text.match(SGR) ?? []).reduce(track, styles);
  for (const [, spaces, word] of line.matchAll(TOKENS)) {
    if (spaces) {
      if (first && empty) {
        cur += spaces; // the line's own indent
        curWidth += spaces.length;
      } else gap += spaces;
    } else if (word) {
      const w = displayWidth(word);
      if (w === 0) {
        // Colours alone: they go with what follows.
        if (empty) {
          cur += word;
          open = after(open, word);
        } else gap += word;
        continue;
      }
      if (!empty && curWidth + displayWidth(gap) + w > width) {
        // Break: close what is open, then the hang, then reopen it.
        const styles = gap.match(SGR)?.join('') ?? '';
        const before = after(open, styles);
        out.push(
          cur +
            styles +
            [...before]
              .reverse()
              .map((c) => `\x1b[${closerOf(c)}m`)
              .join(''),
        );
        // A word that does not fit after the hang starts at the edge: whole, where the terminal would cut it.
        const at = hang + w > width ? 0 : hang;
        cur = ' '.repeat(at) + before.map((c) => `\x1b[${c}m`).join('');
        curWidth = at;
        gap = '';
        empty = true;
        first = false;
        open = before;
      }
      curWidth += displayWidth(gap) + w;
      cur += gap + word;
      open = after(open, gap + word);
      gap = '';
      empty = false;
    }
  }
  out.push(cur + gap.replace(/ +/g, ''));
  return out.map((l) => l.replace(/ +((?:\x1b\[[0-9;]*m)*)$/, '$1')).join('\n');
}

/**
 * What checkin says on a terminal (an error, a hint, a note, a warning, the lines under them),
 * wrapped at word edges to `width`: a line that starts with its label ("error: ", "note: ")
 * continues under the words after it; any other, under its own indent.
 */
export function wrapProse(text: string, width: number): string {
  if (!Number.isFinite(width) || width <= 0) return text;
  return text
    .split('\n')
    .map((l) => {
      const label = /^(?:error|warning|note|hint|fix): /.exec(l.replace(SGR, ''));
      return wrapLine(l, width, label ? label[0].length : undefined);
    })
    .join('\n');
}

/**
 * What is said as sentences on standard output — the accessible mode's questions, its statistics
 * and its wall written as lines — for `out`: on a terminal, every line wrapped at word edges to its
 * width (the terminal would otherwise fold it in the middle of a word: "(fro" / "m Sat"), each
 * continuation under its line's indent or list number; piped, as it is. Spaces at the end (a
 * question's, before the answer typed after it) stay.
 */
export function sentences(text: string, out: { stdoutIsTTY: boolean; columns: number }): string {
  if (!out.stdoutIsTTY) return text;
  const end = /[ \n]*$/.exec(text)![0];
  return wrap(text.slice(0, text.length - end.length), out.columns) + end;
}

/**
 * `text` (styled or not, several lines) with every line wider than `width` wrapped at word edges;
 * `hang` (cells) instead of each line's own hanging indent.
 */
export function wrap(text: string, width: number, hang?: number): string {
  if (!Number.isFinite(width) || width <= 0) return text;
  return text
    .split('\n')
    .map((l) => wrapLine(l, width, hang))
    .join('\n');
}

/**
 * Help text (a command's --help, its examples and notes, `checkin help topics`) wrapped at word
 * edges to `width`. A line that fits is left as it is, so an example command stays whole; a
 * longer one continues: a "Usage: " line under what follows "Usage: "; an indented term and its
 * description (two spaces or more between them) under the description; any other indented line
 * (an example) four columns further in than it starts; prose under its own indent.
 */
export function wrapHelp(text: string, width: number): string {
  if (!Number.isFinite(width) || width <= 0) return text;
  const room = Math.min(20, Math.floor(width / 2));
  return text
    .split('\n')
    .map((l) => {
      const plain = l.replace(SGR, '');
      if (!/^\s/.test(plain)) return wrapLine(l, width, /^Usage: /.test(plain) ? 'Usage: '.length : undefined);
      const item = /^(\s+\S+(?: \S+)*? {2,})\S/.exec(plain);
      const column = item ? displayWidth(item[1]!) : 0;
      if (item && width - column >= room) return wrapLine(l, width, column);
      const indent = displayWidth(/^\s*/.exec(plain)![0]);
      if (indent <= 4) return wrapLine(l, width, indent + 4);
      // Deeper: the rest of a description above; under it while there is room, else six in.
      return width - indent >= room ? wrapLine(l, width, indent) : wrapLine(`      ${l.replace(/^ +/, '')}`, width, 6);
    })
    .join('\n');
}
