// What the editor opens on besides the text being written: context (what is being answered, the
// goal's latest update) in a comment below it, as `git commit` shows what is being committed.
// The comment is taken out again when the file is read back; everything in it passes the sanitiser
// and cannot end the comment early.
import { sanitize } from './sanitize.js';

const START = '<!-- checkin:';
const BLOCK = /\n*<!-- checkin:[\s\S]*?-->\n?/;

/** `text` above a comment holding `context` (lines, quoted as they are; the service's text sanitised). */
export function withContext(context: string[], text: string): string {
  if (context.length === 0) return text;
  const lines = context.map((l) => `     ${sanitize(l).replace(/--+>/g, '—>').replace(/\n/g, '\n     ')}`);
  return `${text}\n\n${START}\n${lines.join('\n')}\n     Write above this comment; it is taken out. Save it with nothing written to cancel. -->\n`;
}

/** What was written, the context comment taken out (wherever it ended up). */
export function withoutContext(saved: string): string {
  return saved.replace(BLOCK, '\n').replace(/\s+$/, '');
}

/** A text quoted for the context: its first lines, "> " in front. */
export function quoted(text: string, maxLines = 8): string[] {
  const lines = sanitize(text).replace(/\s+$/, '').split('\n');
  return [...lines.slice(0, maxLines).map((l) => `> ${l}`), ...(lines.length > maxLines ? [`> … (${lines.length - maxLines} more lines)`] : [])];
}
