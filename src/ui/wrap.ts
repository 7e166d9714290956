// Text that reads whole (a check-in, a comment, a blocker) wrapped at word edges to the terminal,
// so the terminal never folds a line in the middle of a word and back to column 0. Each
// continuation line hangs under the text of its line: after its leading spaces and, on a list
// item, after the bullet ("- ", "1. "). Colours (SGR) are closed before each break and reopened
// after the indent, so an underline or a colour never runs into the indent.

import { displayWidth } from './width.js';

const SGR = /\x1b\[([0-9;]*)m/g;
const TOKENS = /(\x1b\[[0-9;]*m)|( +)|([^ \x1b]+|\x1b)/g;

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
  for (const [, sgr, spaces, word] of line.matchAll(TOKENS)) {
    if (sgr) {
      open = track(open, sgr);
      if (empty) cur += sgr;
      else gap += sgr;
    } else if (spaces) {
      if (first && empty) {
        cur += spaces; // the line's own indent
        curWidth += spaces.length;
      } else gap += spaces;
    } else if (word) {
      const w = displayWidth(word);
      if (!empty && curWidth + displayWidth(gap) + w > width) {
        // Break: close what is open, then the hang, then reopen it.
        const styles = gap.match(SGR)?.join('') ?? '';
        out.push(cur + styles + [...open].reverse().map((c) => `\x1b[${closerOf(c)}m`).join(''));
        cur = ' '.repeat(hang) + open.map((c) => `\x1b[${c}m`).join('');
        curWidth = hang;
        gap = '';
        empty = true;
        first = false;
      }
      curWidth += displayWidth(gap) + w;
      cur += gap + word;
      gap = '';
      empty = false;
    }
  }
  out.push(cur + gap.replace(/ +/g, ''));
  return out.map((l) => l.replace(/ +((?:\x1b\[[0-9;]*m)*)$/, '$1')).join('\n');
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
