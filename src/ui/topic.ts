// `checkin help <topic>` for a person at a terminal: the topic's Markdown rendered as text —
// headings bold without their #, paragraphs and list items reflowed and wrapped at word edges to
// the terminal's width (a list item's continuation under its text), code blocks indented without
// their fences (a long command line continues further in), inline code, emphasis and links as
// text (a link's address after its text, a link inside the docs as its text alone), a table as
// one block per row. Through the pager when it is longer than the screen; piped, the Markdown as
// it is written.

import type { Colors } from './color.js';
import { makeColors } from './color.js';
import type { IO } from './io.js';
import { sanitize } from './sanitize.js';
import { displayWidth } from './width.js';
import { wrap, wrapHelp } from './wrap.js';

/** Inline Markdown as styled text: code spans, emphasis (around a code span too), links (their address when it leaves the docs), escapes. */
function inline(text: string, c: Colors): string {
  // The code spans first, each put back after the rest is read: their text is as written (no
  // emphasis, no escapes), and emphasis around one ("**`Not logged in`**") is still emphasis.
  const code: string[] = [];
  const held = text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, body: string) => {
    // CommonMark: one space each side is taken off a span that has both (so a span can hold a back-tick: `` `x` ``).
    code.push(/^ [\s\S]* $/.test(body) && body.trim() !== '' ? body.slice(1, -1) : body);
    return `\u{F0000}${code.length - 1}\u{F0001}`;
  });
  return held
    .replace(/!?\[([^\]]*)\]\(([^()\s]*)\)/g, (_m, t: string, url: string) => (/^https?:/.test(url) ? `${t} (${url})` : t))
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__(?!\w)/g, (_m, a?: string, b?: string) => c.bold(a ?? b ?? ''))
    .replace(/(^|[^*\w\\])\*(?=[^*\s])([^*]*[^*\s])?\*(?!\*)|(^|\W)_(?=[^_\s])([^_]*[^_\s])?_(?!\w)/g, (m, p1?: string, _a?: string, p2?: string) => {
      const pre = p1 ?? p2 ?? '';
      return pre + c.italic(m.slice(pre.length + 1, -1));
    })
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\u{F0000}(\d+)\u{F0001}/gu, (_m, n: string) => c.cyan(code[Number(n)]!));
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/**
 * Whether `line`, after the lines of a paragraph or of a list item (`item`: its indent and marker),
 * starts a list item rather than continuing the text, as CommonMark reads it: a bullet with text
 * after it does; a number does only as the next item of an ordered list (not indented into the
 * item's text) or when it is 1, which alone may interrupt a paragraph ("made with mode\n  0700) —"
 * continues the text).
 */
function startsItem(line: string, item: RegExpExecArray | null): boolean {
  const m = /^(\s*)(?:[-*+]|(\d{1,9})[.)])\s+\S/.exec(line);
  if (!m) return false;
  if (m[2] === undefined || Number(m[2]) === 1) return true;
  return item !== null && /\d/.test(item[2]!) && m[1]!.length < item[1]!.length + item[2]!.length + item[3]!.length;
}

/** The topic as lines for a terminal of `width` columns. */
export function renderTopic(markdown: string, c: Colors, width: number): string {
  const src = sanitize(markdown).replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  const para = (text: string, hang?: number) => out.push(wrap(text, width, hang));
  let i = 0;
  while (i < src.length) {
    const line = src[i]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      // The code, indented by four, as it is written; a line wider than the room continues further
      // in — a command with a comment lined up after it (`#`, `//`) as the command, then the comment
      // on a line of its own further in, so neither is cut in the middle.
      const hang = Math.min(8, Math.floor(width / 4));
      for (i++; i < src.length && !src[i]!.trimStart().startsWith(fence[1]!); i++) {
        const code = `    ${src[i]}`;
        const noted = /^(?:(.*?\S) {2,}| {5,})((?:#|\/\/) .*)$/.exec(code);
        if (noted && displayWidth(code) > width) {
          // (A comment alone, lined up under the one above, goes under it too.)
          if (noted[1] !== undefined) para(c.cyan(noted[1]), hang);
          para(c.cyan(`${' '.repeat(hang)}${noted[2]!}`), hang + noted[2]!.indexOf(' ') + 1);
        } else para(c.cyan(code), hang);
      }
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      para(c.bold(inline(heading[2]!, c)));
      i++;
      continue;
    }
    if (/^\s*\|/.test(line)) {
      // A table: one block per row, its first cell, then each other cell under it (named by its header when there are several).
      const rows: string[][] = [];
      for (; i < src.length && /^\s*\|/.test(src[i]!); i++) if (!/^\s*\|?[\s:|-]+\|?\s*$/.test(src[i]!)) rows.push(cells(src[i]!));
      const [head, ...body] = rows;
      for (const row of body) {
        para(c.bold(inline(row[0] ?? '', c)));
        row.slice(1).forEach((cell, k) => {
          const label = row.length > 2 && head?.[k + 1] ? `${inline(head[k + 1]!, c)}: ` : '';
          para(`    ${label}${inline(cell, c)}`, 6);
        });
      }
      continue;
    }
    if (line.trim() === '') {
      out.push('');
      i++;
      continue;
    }
    // A paragraph or a list item: its lines, and the ones that continue it, read as one.
    const item = /^(\s*)([-*+]|\d{1,9}[.)])(\s+)(.*)$/.exec(line);
    const indent = item ? item[1]!.length + item[2]!.length + item[3]!.length : /^\s*/.exec(line)![0].length;
    let text = item ? item[4]! : line.trim();
    for (i++; i < src.length; i++) {
      const next = src[i]!;
      if (next.trim() === '' || /^\s*(```|~~~|#{1,6}\s|\||>)/.test(next) || startsItem(next, item)) break;
      text += ` ${next.trim()}`;
    }
    if (item) para(`${item[1]}${c.yellow(item[2]!)}${item[3]}${inline(text, c)}`);
    else para(`${' '.repeat(indent)}${inline(text.replace(/^>\s?/, ''), c)}`);
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n+$/, '')}\n`;
}

/**
 * Prints a help topic: for a terminal, its Markdown rendered, or plain text (the list of topics,
 * a line a topic) wrapped as help is, each title under the titles — a title is its topic's
 * heading, so its inline Markdown is rendered as the heading's is ("Checking in: checkin today in
 * depth", no back-ticks); through the pager when longer than the screen. As written when piped.
 */
export async function showTopic(io: IO, topic: { text: string; markdown: boolean }): Promise<void> {
  if (!io.stdoutIsTTY) return io.out(topic.text);
  const c = await makeColors(io.colorLevel);
  const text = topic.markdown ? renderTopic(topic.text, c, io.columns) : `${wrapHelp(inline(sanitize(topic.text), c), io.columns).replace(/\n+$/, '')}\n`;
  if (text.split('\n').length > (io.rows ?? 24)) io.page();
  io.out(text);
}
