// Builds a fresh commander program per run and registers the commands. Commands are thin:
// flags become a typed options object handed to a run function loaded on demand.

import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from './context.js';

export const EXIT_CODES_HELP = `
Exit codes:
  0    success (including "no check-in scheduled")
  1    the service or the network failed
  2    bad usage, or input rejected (by checkin or by the service)
  3    checkin status: today's check-in is still pending
  4    not logged in, or the token was rejected (missing, invalid or read-only)
  130  cancelled at a prompt`;

export function parseIntIn(min: number, max: number, what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${what} must be a whole number from ${min} to ${max}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${what} must be from ${min} to ${max}.`);
    return n;
  };
}

export function buildProgram(ctx: Context): Command {
  const { io } = ctx;
  const program = new Command('checkin');
  program
    .description('Daily team check-ins from the command line (Steady API v2).')
    .version('0.1.0', '-V, --version')
    .showSuggestionAfterError(true)
    .addHelpText('after', EXIT_CODES_HELP)
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
    })
    .exitOverride();

  program
    .command('sandbox')
    .description('Start a local service that speaks the same API, with demo data')
    .addOption(new Option('--port <n>', 'port to listen on (0 = a free one)').default(0).argParser(parseIntIn(0, 65535, '--port')))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--token <token>', "the demo person's read+write token")
    .option('--data <file>', 'load state from FILE and save every change to it')
    .option('--no-rate-limit', 'switch the rate limits off')
    .option('--no-log', 'do not log each request on stderr')
    .action(async (opts: { port: number; host: string; token?: string; data?: string; rateLimit: boolean; log: boolean }) => {
      const { runSandbox } = await import('./commands/sandbox.js');
      await runSandbox(ctx, opts);
    });

  // exitOverride and configureOutput reach subcommands only when copied onto each.
  for (const sub of program.commands) {
    sub.exitOverride().configureOutput(program.configureOutput()).showSuggestionAfterError(true);
  }
  return program;
}
