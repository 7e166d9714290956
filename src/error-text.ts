// What each error becomes: an exit code and one-line messages, never a stack unless asked for.
// main.ts prints them on stderr and exits with the code; `checkin mcp` returns the same lines as a
// tool error.

import { CommanderError } from '@commander-js/extra-typings';
import { ApiError } from './api/errors.js';
import { asCliError, CancelledError, CliError, EXIT, ExitSignal, hintText, isTerminalAdvice, UnexpectedError } from './errors.js';
import { fsReason } from './config/files.js';
import { sanitizeLine } from './ui/sanitize.js';

/** An API error's own lines: the request and what the service said, then the fields a 422 named. */
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
  return lines;
}

type Described = { code: number; lines: string[] };

/** A file system's or SQLite's error nothing caught, in checkin's words naming the file (fsReason), when it has words for it. */
function fileReason(e: UnexpectedError): string | undefined {
  const code = (e.inner as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^(E[A-Z]+|ERR_SQLITE_ERROR)$/.test(code)) return undefined;
  const said = fsReason(e.inner);
  return said === code || said === e.message ? undefined : sanitizeLine(said);
}

/** The lines an error says before its hints. */
function ownLines(e: CliError, debug: boolean): string[] {
  // Stopping is not an error: plain words (what was kept, how to go on), exit 130.
  if (e instanceof CancelledError || e.exitCode === EXIT.CANCELLED) return [e.message];
  if (e instanceof ApiError) return apiErrorLines(e);
  if (e instanceof UnexpectedError) {
    const inner = e.inner instanceof Error && e.inner.stack ? e.inner.stack : undefined;
    return [`error: ${fileReason(e) ?? e.message}`, ...(debug ? (inner ? [inner] : []) : ['Run again with CHECKIN_DEBUG=1 for details.'])];
  }
  return [`error: ${e.message}`];
}

/**
 * Standard output failed otherwise than by its reader going (a full disk, an I/O error): the error
 * the run ends with (main.ts; `checkin mcp`'s conversation, ui/io.ts protocolIO), exit 1.
 */
export const outputFailed = (err: unknown): CliError => new CliError(`standard output cannot be written: ${fsReason(err)}`);

/**
 * What each kind of error becomes: exit code and lines on stderr — its own, then its hints (a
 * stack only with CHECKIN_DEBUG=1). For the agent face (`face: 'agent'`), advice for a terminal
 * (errors.ts `terminal()`: a command to run, a flag to give) is left out.
 */
export function describeError(err: unknown, debug: boolean, face: 'terminal' | 'agent' = 'terminal'): Described {
  // commander has already printed its own one-line message (or the help, or the version).
  if (err instanceof CommanderError) return { code: /^commander\.(helpDisplayed|help|version)$/.test(err.code) ? EXIT.OK : EXIT.USAGE, lines: [] };
  const e = asCliError(err);
  if (e instanceof ExitSignal) return { code: e.exitCode, lines: [] };
  const stack = debug && !(e instanceof CancelledError || e instanceof UnexpectedError) && e.stack ? [e.stack] : [];
  return { code: e.exitCode, lines: [...ownLines(e, debug), ...e.hints.filter((h) => face === 'terminal' || !isTerminalAdvice(h)).map(hintText), ...stack] };
}
