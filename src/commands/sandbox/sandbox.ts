// `checkin sandbox`: start the local service that speaks API v2, with demo data.

import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { intOption, type Run } from '../flags.js';

export interface SandboxOptions {
  port: number;
  host: string;
  token?: string;
  data?: string;
  rateLimit: boolean;
  log: boolean;
  people?: number;
  days?: number;
}

export function sandboxCommand(ctx: Context, run: Run<SandboxOptions> = runSandbox) {
  return new Command('sandbox')
    .description('Start a local service that speaks the same API, with demo data')
    .addOption(intOption('--port <n>', 'port to listen on (0 = a free one)', 0, 65535).default(0))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--token <token>', "the demo person's read+write token")
    .option('--data <file>', 'load state from FILE and save every change to it')
    .addOption(intOption('--people <n>', 'demo data for this many people (the extra ones check in every day)', 1, 100000))
    .addOption(intOption('--days <n>', 'days of demo history, today included (default 15)', 1, 3650))
    .option('--no-rate-limit', 'switch the rate limits off')
    .option('--no-log', 'do not log each request on stderr')
    .action((opts) => run(ctx, opts));
}

export async function runSandbox(ctx: Context, opts: SandboxOptions): Promise<void> {
  const { io } = ctx;
  const { startSandbox } = await import('../../sandbox/server.js');
  if (opts.token !== undefined && !/^\S+$/.test(opts.token)) throw new UsageError('--token must be a non-empty string without spaces');
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: opts.port,
      host: opts.host,
      ...(opts.token !== undefined && { token: opts.token }),
      ...(opts.data !== undefined && { dataFile: opts.data }),
      ...((opts.people !== undefined || opts.days !== undefined) && { size: { ...(opts.people !== undefined && { people: opts.people }), ...(opts.days !== undefined && { days: opts.days }) } }),
      ...(!opts.rateLimit && { rateLimit: false as const }),
      ...(opts.log && {
        onRequest: (r) => {
          const time = new Date().toTimeString().slice(0, 8);
          io.err(`${time} ${r.method} ${r.path}${r.query ? `?${r.query}` : ''} → ${r.status < 0 ? 'dropped' : r.status}\n`);
        },
      }),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new UsageError(`Port ${opts.port} on ${opts.host} is already in use`, 'Pick another with --port, or --port 0 for a free one');
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') throw new UsageError(`Cannot listen on ${opts.host}: not an address of this machine`);
    if (e.code === 'EDATAFILE') throw new UsageError(e.message);
    if (e.code === 'EACCES') throw new UsageError(`Not allowed to listen on port ${opts.port}`);
    throw new UsageError(`Cannot start the sandbox: ${e.message}`);
  }
  const me = sandbox.service.data.tokens.find((t) => t.token === sandbox.token);
  const name = me ? sandbox.service.person(me.person_id)?.name : undefined;
  const who = name === undefined ? undefined : sanitizeLine(name);
  const readOnly = sandbox.service.data.tokens.find((t) => t.scope === 'read' && t.person_id === me?.person_id)?.token;
  io.err(`checkin sandbox: API v2 at ${sandbox.url}\n`);
  io.err(`  token (read+write${who ? `, ${who}` : ''}): ${sandbox.token}\n`);
  if (readOnly) io.err(`  read-only token: ${readOnly}\n`);
  io.err(`  data: ${opts.data ? opts.data : 'in memory (pass --data FILE to keep it across restarts)'}\n`);
  io.err(`  rate limits: ${opts.rateLimit ? '30 requests / 10 s and 500 / 30 min per person (every answer counts)' : 'off'}\n\n`);
  io.err('Paste this into another shell to point checkin at it:\n');
  io.out(`export CHECKIN_API_URL=${sandbox.url} CHECKIN_TOKEN=${sandbox.token}\n`);
  io.err('\nPress Ctrl-C to stop.\n');

  await new Promise<void>((resolve) => {
    const off = io.onInterrupt(() => {
      off();
      resolve();
    });
  });
  io.err('Stopping the sandbox…\n');
  await sandbox.close();
}
