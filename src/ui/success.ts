// The one way checkin says a write worked: "✓ <what was done>  <link>" on stderr, for a person
// watching (standard output is a terminal). Nothing extra when the output goes to a pipe or a
// file, or with --json: there the written object itself is the answer.
import type { IO } from './io.js';
import { viewFor, type JsonFlag } from './output.js';
import { sanitizeLine } from './sanitize.js';

export async function sayDone(io: IO, now: Date, what: string, opts: { link?: string | null | undefined; json?: JsonFlag } = {}): Promise<void> {
  if (opts.json || !io.stdoutIsTTY) return;
  const { c } = await viewFor(io, now);
  const link = opts.link && /^https?:\/\//.test(opts.link) ? `  ${c.dim(sanitizeLine(opts.link))}` : '';
  io.err(`${c.green('✓')} ${sanitizeLine(what)}${link}\n`);
}
