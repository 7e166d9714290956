// The single error boundary: runs a command and turns whatever it threw into a one-line
// message and an exit code. Nothing else decides exit codes.

import { CommanderError } from 'commander';
import type { Context } from './context.js';
import { CliError, EXIT } from './errors.js';
import { buildProgram } from './program.js';
import { processIO } from './ui/io.js';

export function defaultContext(env: NodeJS.ProcessEnv = process.env): Context {
  return { io: processIO(env), env, now: () => new Date() };
}

export function describeError(err: unknown, debug: boolean): { code: number; lines: string[] } {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return { code: EXIT.OK, lines: [] };
    }
    // commander has already printed its own one-line message.
    return { code: EXIT.USAGE, lines: [] };
  }
  if (err instanceof CliError) {
    const lines = [`error: ${err.message}`];
    if (err.hint) lines.push(err.hint);
    if (debug && err.stack) lines.push(err.stack);
    return { code: err.exitCode, lines };
  }
  const e = err as Error;
  const lines = [`error: unexpected failure: ${e?.message ?? String(err)}`];
  lines.push(debug && e?.stack ? e.stack : 'Run again with CHECKIN_DEBUG=1 for details.');
  return { code: EXIT.FAILURE, lines };
}

export async function run(argv: string[], ctx: Context = defaultContext()): Promise<number> {
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    const { code, lines } = describeError(err, ctx.env.CHECKIN_DEBUG === '1');
    for (const line of lines) ctx.io.err(line + '\n');
    return code;
  }
}
