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
        .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\*)|(^|\W)_([^_\s][^_]*)_(?!\w)/g, (_m, p1?: string, a?: string, p2?: string, b?: string) => `${p1 ?? p2 ?? ''}${c.italic(a ?? b ?? '')}`)
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
