// The command examples of the README and the manual (docs/commands/*.md: the "Example" sections;
// docs/topics/*.md: every shell block), as lines a person would paste into a shell.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export interface Example {
  /** Where it is written: `README.md:42`. */
  where: string;
  /** The line as a shell runs it: its trailing `# comment` cut off. */
  line: string;
  /** That comment, which says what it does (and whether it needs a terminal). */
  comment: string;
}

/** The line without a trailing `#` comment (one outside quotes, after a space), and that comment. */
export function splitComment(text: string): { line: string; comment: string } {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return { line: text.slice(0, i).trimEnd(), comment: text.slice(i + 1).trim() };
  }
  return { line: text.trimEnd(), comment: '' };
}

/** Lines of fenced blocks: all of them (`sh`, `bash` or no language) or only those under a heading that matches `under`. */
function blocks(file: string, text: string, under?: RegExp): Example[] {
  const out: Example[] = [];
  const lines = text.split('\n');
  let fence: string | undefined;
  let heading = '';
  let heredoc: string | undefined;
  lines.forEach((raw, i) => {
    if (fence === undefined && raw.startsWith('#')) heading = raw;
    if (raw.startsWith('```')) {
      fence = fence === undefined ? raw.slice(3).trim() : undefined;
      return;
    }
    if (fence === undefined || !['', 'sh', 'bash'].includes(fence) || (under && !under.test(heading))) return;
    // The body of a here-document is a file's text, not a command run here.
    if (heredoc !== undefined) {
      if (raw.trim() === heredoc) heredoc = undefined;
      return;
    }
    const { line, comment } = splitComment(raw);
    const doc = /<<-?'?(\w+)'?/.exec(line);
    if (doc) heredoc = doc[1];
    if (/(^|[|(]\s*)checkin\s/.test(line) && !line.startsWith('#')) out.push({ where: `${file}:${i + 1}`, line: line.trim(), comment });
  });
  return out;
}

export function docExamples(): Example[] {
  const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
  const md = (dir: string) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `${dir}/${f}`);
  return [
    ...blocks('README.md', read('README.md')),
    ...md('docs/topics').flatMap((p) => blocks(p, read(p))),
    ...md('docs/commands').flatMap((p) => blocks(p, read(p), /^## Examples?$/)),
  ];
}
