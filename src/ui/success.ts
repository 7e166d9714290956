// The one way checkin says a write worked: "✓ <what was done>  <link>" on stderr, for a person
// watching (standard output is a terminal). Nothing extra when the output goes to a pipe or a
// file, or with --json: there the written object itself is the answer.
import type { IO } from './io.js';
import { viewFor, type JsonFlag } from './output.js';
import { sanitizeLine } from './sanitize.js';
import { span } from '../core/dayname.js';

export async function sayDone(
  io: IO,
  now: Date,
  what: string,
  opts: { link?: string | null | undefined; json?: JsonFlag; always?: boolean } = {},
): Promise<void> {
  // `always`: the line is the write's only answer (nothing goes to standard output), so a pipe or a job's log hears it too.
  if (opts.json || (!io.stdoutIsTTY && !opts.always)) return;
  const { c } = await viewFor(io, now);
  const link = opts.link && /^https?:\/\//.test(opts.link) ? `  ${c.dim(sanitizeLine(opts.link))}` : '';
  io.err(`${c.green('✓')} ${sanitizeLine(what)}${link}\n`);
}

/**
 * A post to a chat accepted (`report --post`, its --resume, `drafts send`): one line on stderr, said
 * wherever it runs (standard output has nothing: the line is the answer), naming the chat and the
 * period, never the URL: "✓ Posted the check-ins of Mon 16 Nov – Sun 22 Nov 2026 to the Slack webhook at hooks.slack.com".
 */
export async function sayPosted(io: IO, now: Date, post: { label: string; period?: { since: string; until: string } | undefined }): Promise<void> {
  const what = post.period ? `the check-ins of ${span(post.period.since, post.period.until, '–')}` : 'a kept post';
  await sayDone(io, now, `Posted ${what} to ${post.label}`, { always: true });
}
