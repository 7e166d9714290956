// What each error becomes: an exit code and one-line messages, never a stack unless asked for.
// main.ts prints them on stderr and exits with the code; `checkin mcp` returns the same lines as a
// tool error.

import { CommanderError } from '@commander-js/extra-typings';
import { ApiError } from './api/errors.js';
import { CancelledError, CliError, EXIT, ExitSignal, HintedError, type ExitCode } from './errors.js';
import { sanitizeLine } from './ui/sanitize.js';

/**
 * The exit code of an API error, from its status and what the request addressed — never from the
 * service's wording. 401: the token (4). 403 on the token's own account or on nothing in
 * particular (GET /me, a list, a create, the own check-in by date): the token may not (read-only,
 * a scope): 4. 403 on a resource named by its id (someone else's check-in or update): a refused
 * request, 2.
 */
export function exitCodeForApiError(err: ApiError): ExitCode {
  if (err.kind !== 'http') return EXIT.FAILURE;
  if (err.status === 401) return EXIT.AUTH;
  if (err.status === 403) return err.target === 'resource' ? EXIT.USAGE : EXIT.AUTH;
  if (err.status === 429 || err.status >= 500) return EXIT.FAILURE;
  if (err.status >= 400) return EXIT.USAGE;
  return EXIT.FAILURE;
}

function apiErrorLines(err: ApiError): string[] {
  const request = sanitizeLine(`${err.method} ${err.path}`);
  const said = err.serviceMessage ? `: ${sanitizeLine(err.serviceMessage)}` : '';
  let message = sanitizeLine(err.message);
  if (err.kind === 'http' && err.status === 401) message = `The token was rejected (401 on ${request})${said}`;
  if (err.kind === 'http' && err.status === 403) {
    // A write of the token's own is refused only for want of the write scope.
    if (err.target === 'resource') message = `The service refused ${request} (403)${said}`;
    else if (err.method !== 'GET') message = `The token is read-only: the service refused ${request} (403)`;
    else message = `The service refused ${request} with this token (403)${said}`;
  }
  const lines = [`error: ${message}`];
  for (const [field, problems] of Object.entries(err.fields ?? {})) {
    if (!err.message.includes(problems.join('; '))) lines.push(`  ${sanitizeLine(field)}: ${problems.map(sanitizeLine).join('; ')}`);
  }
  if (err.suggestion) lines.push(err.suggestion);
  return lines;
}

type Described = { code: number; lines: string[] };

/** What each kind of error becomes: exit code and lines on stderr (a stack only with CHECKIN_DEBUG=1). */
export function describeError(err: unknown, debug: boolean): Described {
  const stack = (e: unknown) => (debug && e instanceof Error && e.stack ? [e.stack] : []);
  if (err instanceof ExitSignal) return { code: err.exitCode, lines: [] };
  // commander has already printed its own one-line message (or the help, or the version).
  if (err instanceof CommanderError) return { code: /^commander\.(helpDisplayed|help|version)$/.test(err.code) ? EXIT.OK : EXIT.USAGE, lines: [] };
  if (err instanceof HintedError) {
    const inner = describeError(err.inner, debug);
    return { code: inner.code, lines: [...inner.lines, err.hint] };
  }
  // Stopping is not an error: plain words (what was kept, how to go on), exit 130.
  if (err instanceof CancelledError) return { code: err.exitCode, lines: [err.message] };
  if (err instanceof ApiError) return { code: exitCodeForApiError(err), lines: [...apiErrorLines(err), ...stack(err)] };
  if (err instanceof CliError) return { code: err.exitCode, lines: [`error: ${err.message}`, ...(err.hint ? [err.hint] : []), ...stack(err)] };
  const message = err instanceof Error ? err.message : String(err);
  return { code: EXIT.FAILURE, lines: [`error: ${message}`, ...(debug ? stack(err) : ['Run again with CHECKIN_DEBUG=1 for details.'])] };
}
