// Markdown for people at a terminal: bullets, emphasis, code, links and @mentions styled, every
// character of the text kept (links keep their URL). Piped output never comes through here.

import type { Colors } from './color.js';
import { sanitize } from './sanitize.js';

function inline(line: string, c: Colors): string {
  // Code spans first, so nothing inside them is styled.
  return line
    .split(/(`[^`]+`)/)
    .map((part, i) => {
      if (i % 2 === 1) return c.cyan(part);
      return part
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, text: string, url: string) => `${c.underline(text)} ${c.dim(`(${url})`)}`)
        .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_m, a?: string, b?: string) => c.bold(a ?? b ?? ''))
        .replace(
          /(^|[^*\w])\*([^*\s][^*]*)\*(?!\*)|(^|\W)_([^_\s][^_]*)_(?!\w)/g,
          (_m, p1?: string, a?: string, p2?: string, b?: string) => `${p1 ?? p2 ?? ''}${c.italic(a ?? b ?? '')}`,
        )
        .replace(/(^|[^\w@])@([A-Za-z0-9][\w.-]*\w|[A-Za-z0-9])/g, (_m, pre: string, name: string) => `${pre}${c.magenta.bold('@' + name)}`);
    })
    .join('');
}

export function renderMarkdown(text: string, c: Colors): string {
  let fenced = false;
  return sanitize(text)
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return c.dim(line);
      }
      if (fenced) return c.cyan(line);
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      if (heading) return c.bold(`${heading[1]} ${inline(heading[2]!, c)}`);
      const bullet = /^(\s*)([-*+]|\d+[.)])(\s+)(.*)$/.exec(line);
      if (bullet) return `${bullet[1]}${c.yellow(bullet[2]!)}${bullet[3]}${inline(bullet[4]!, c)}`;
      return inline(line, c);
    })
    .join('\n');
}

/**
 * Inline Markdown shown plainly, for one-line places (table cells, checkbox items): emphasis,
 * strike-through and code markers go, a link or an image shows its text (`[text](url)` → text),
 * an autolink its address, a backslash escape its character; the words stay, line breaks too.
 * Sanitised as it goes, like every text from outside.
 */
export function plainInline(md: string): string {
  return sanitize(md)
    .split(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/)
    .map((part, i) => {
      // split gives [text, ticks, code, text, ticks, code, …]: code is kept as it is, its ticks go.
      if (i % 3 === 1) return '';
      if (i % 3 === 2) return /^ .* $/.test(part) && part.trim() ? part.slice(1, -1) : part;
      return part
        .replace(/!?\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, '$1')
        .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
        .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__(?!\w)/g, (_m, a?: string, b?: string) => a ?? b ?? '')
        .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
        .replace(/(^|[^*\w\\])\*(?=[^*\s])([^*]*[^*\s])?\*(?!\*)|(^|\W)_(?=[^_\s])([^_]*[^_\s])?_(?!\w)/g, (m, p1?: string, _a?: string, p2?: string) => {
          const pre = p1 ?? p2 ?? '';
          return pre + m.slice(pre.length + 1, -1);
        })
        .replace(/\\([!-/:-@[-`{-~])/g, '$1');
    })
    .join('');
}

/**
 * One line of Markdown for a table cell: plainInline, and the block markers of the line go too
 * (a heading's #, a bullet, a quote's >); a numbered item keeps its number.
 */
export function plainLine(md: string): string {
  return plainInline(md.replace(/^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+)+/, ''))
    .replace(/\s+/g, ' ')
    .trim();
}
