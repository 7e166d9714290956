// The single error boundary: runs a command and turns whatever it threw into a one-line
// message and an exit code. Nothing else decides exit codes.

import { CommanderError } from 'commander';
import { ApiError } from './api/errors.js';
import { createContext, type Context } from './context.js';
import { InputError } from './core/input-error.js';
import { CliError, EXIT, ExitSignal, HintedError, type ExitCode } from './errors.js';
import { buildProgram } from './program.js';
import { processIO } from './ui/io.js';
import { sanitizeLine } from './ui/sanitize.js';

export function exitCodeForApiError(err: ApiError): ExitCode {
  if (err.kind === 'insecure') return EXIT.USAGE;
  if (err.kind !== 'http') return EXIT.FAILURE;
  if (err.status === 401 || err.status === 403) return EXIT.AUTH;
  if (err.status === 429 || err.status >= 500) return EXIT.FAILURE;
  if (err.status >= 400) return EXIT.USAGE;
  return EXIT.FAILURE;
}

function apiErrorLines(err: ApiError): string[] {
  let message = sanitizeLine(err.message);
  const request = message.replace(/: \d{3} .*$/, '');
  const said = err.serviceMessage ? `: ${sanitizeLine(err.serviceMessage)}` : '';
  if (err.kind === 'http' && err.status === 401) message = `The token was rejected (401 on ${request})${said}`;
  if (err.kind === 'http' && err.status === 403) {
    message = /read.?only/i.test(err.serviceMessage ?? '')
      ? `The token is read-only: the service refused ${request} (403)`
      : `The service refused ${request} with this token (403)${said}`;
  }
  const lines = [`error: ${message}`];
  for (const [field, problems] of Object.entries(err.fields ?? {})) {
    if (!err.message.includes(problems.join('; '))) lines.push(`  ${sanitizeLine(field)}: ${problems.map(sanitizeLine).join('; ')}`);
  }
  if (err.suggestion) lines.push(err.suggestion);
  return lines;
}

export function describeError(err: unknown, debug: boolean): { code: number; lines: string[] } {
  if (err instanceof ExitSignal) return { code: err.exitCode, lines: [] };
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return { code: EXIT.OK, lines: [] };
    }
    // commander has already printed its own one-line message.
    return { code: EXIT.USAGE, lines: [] };
  }
  const stack = (e: unknown) => (debug && (e as Error)?.stack ? [(e as Error).stack!] : []);
  if (err instanceof HintedError) {
    const inner = describeError(err.inner, debug);
    return { code: inner.code, lines: [...inner.lines.filter((l) => !l.startsWith('    at ')), err.hint] };
  }
  if (err instanceof ApiError) return { code: exitCodeForApiError(err), lines: [...apiErrorLines(err), ...stack(err)] };
  if (err instanceof InputError) return { code: EXIT.USAGE, lines: [`error: ${err.message}`, ...stack(err)] };
  if (err instanceof CliError) {
    const lines = [`error: ${err.message}`];
    if (err.hint) lines.push(err.hint);
    return { code: err.exitCode, lines: [...lines, ...stack(err)] };
  }
  const e = err as Error;
  const lines = [`error: ${e?.message ?? String(err)}`];
  lines.push(debug && e?.stack ? e.stack : 'Run again with CHECKIN_DEBUG=1 for details.');
  return { code: EXIT.FAILURE, lines };
}

export async function run(argv: string[], ctx: Context = createContext({ io: processIO(process.env), env: process.env })): Promise<number> {
  const program = buildProgram(ctx, argv);
  let code: number = EXIT.OK;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    const described = describeError(err, ctx.env.CHECKIN_DEBUG === '1');
    for (const line of described.lines) ctx.io.err(line + '\n');
    code = described.code;
  } finally {
    await ctx.close().catch(() => undefined);
  }
  return code;
}
