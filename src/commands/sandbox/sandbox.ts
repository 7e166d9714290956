// `checkin sandbox`: start the local service that speaks API v2, with demo data.

import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { ownBundle } from '../../config/installation.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { intOption, type Run } from '../flags.js';

/** The sandbox's own port: the same at every start, so a stored `checkin login` keeps working. */
export const SANDBOX_PORT = 4280;

/** CHECKIN_SANDBOX_PORT, else SANDBOX_PORT. */
function usualPort(env: NodeJS.ProcessEnv): number {
  const v = env.CHECKIN_SANDBOX_PORT;
  if (v === undefined || v === '') return SANDBOX_PORT;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535) throw new UsageError(`CHECKIN_SANDBOX_PORT must be a port number from 1 to 65535; got "${v}"`);
  return Number(v);
}

export interface SandboxOptions {
  port?: number;
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
    .addOption(
      intOption(
        '--port <n>',
        `port to listen on (default ${SANDBOX_PORT} or CHECKIN_SANDBOX_PORT, the same at every start; a free one when that is taken; 0 = a free one)`,
        0,
        65535,
      ),
    )
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--token <token>', "the demo person's read+write token")
    .option('--data <file>', 'load state from FILE and save every change to it')
    .addOption(intOption('--people <n>', 'demo data for this many people (the extra ones check in every day)', 1, 100000))
    .addOption(intOption('--days <n>', 'days of demo history, today included (default 113: sixteen weeks)', 1, 3650))
    .option('--no-rate-limit', 'switch the rate limits off')
    .option('--no-log', 'do not log each request on stderr')
    .action((opts) => run(ctx, opts));
}

/** The profile `checkin sandbox` writes: the running sandbox's address and demo token. */
export const SANDBOX_PROFILE = 'sandbox';

/** Writes the profile "sandbox"; false (said) when config.json cannot be written. */
async function keepSandboxProfile(ctx: Context, url: string, token: string): Promise<boolean> {
  try {
    await ctx.config().setProfileService(SANDBOX_PROFILE, url, token);
    return true;
  } catch (err) {
    ctx.io.err(`note: the profile "${SANDBOX_PROFILE}" was not written: ${(err as Error).message}\n`);
    return false;
  }
}

export async function runSandbox(ctx: Context, opts: SandboxOptions): Promise<void> {
  const { io } = ctx;
  // Its own bundle (dist/sandbox-server.cjs), read by this command alone.
  const { startSandbox } = (await ownBundle('sandbox-server', 'sandbox/server.ts')) as typeof import('../../sandbox/server.js');
  if (opts.token !== undefined && !/^\S+$/.test(opts.token)) throw new UsageError('--token must be a non-empty string without spaces');
  let sandbox;
  const start = (port: number) =>
    startSandbox({
      port,
      host: opts.host,
      ...(opts.token !== undefined && { token: opts.token }),
      ...(opts.data !== undefined && { dataFile: opts.data }),
      ...((opts.people !== undefined || opts.days !== undefined) && {
        size: { ...(opts.people !== undefined && { people: opts.people }), ...(opts.days !== undefined && { days: opts.days }) },
      }),
      ...(!opts.rateLimit && { rateLimit: false as const }),
      ...(opts.log && {
        onRequest: (r) => {
          const time = new Date().toTimeString().slice(0, 8);
          io.err(`${time} ${r.method} ${r.path}${r.query ? `?${r.query}` : ''} → ${r.status < 0 ? 'dropped' : r.status}\n`);
        },
      }),
    });
  try {
    const usual = usualPort(ctx.env);
    try {
      sandbox = await start(opts.port ?? usual);
    } catch (err) {
      // The usual port taken (another sandbox, another program) and none asked for: a free one, said.
      if (opts.port !== undefined || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      sandbox = await start(0);
      io.err(`note: port ${usual} is taken, so this sandbox listens on ${sandbox.port}: a login stored for port ${usual} does not reach it\n`);
    }
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE')
      throw new UsageError(`Port ${opts.port} on ${opts.host} is already in use`, 'Pick another with --port, or --port 0 for a free one');
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') throw new UsageError(`Cannot listen on ${opts.host}: not an address of this machine`);
    if (e.code === 'EDATAFILE') throw new UsageError(e.message);
    if (e.code === 'EACCES') throw new UsageError(`Not allowed to listen on port ${opts.port}`);
    throw new UsageError(`Cannot start the sandbox: ${e.message}`);
  }
  const me = sandbox.service.data.tokens.find((t) => t.token === sandbox.token);
  const name = me ? sandbox.service.person(me.person_id)?.name : undefined;
  const who = name === undefined ? undefined : sanitizeLine(name);
  const readOnly = sandbox.service.data.tokens.find((t) => t.scope === 'read' && t.person_id === me?.person_id)?.token;
  // Listening from here on: a stop signal from now (even before the lines below are read) stops it cleanly.
  const stopped = new Promise<void>((resolve) => {
    const off = io.onInterrupt(() => {
      off();
      resolve();
    });
  });
  io.err(`checkin sandbox: API v2 at ${sandbox.url}\n`);
  io.err(`  token (read+write${who ? `, ${who}` : ''}): ${sandbox.token}\n`);
  if (readOnly) io.err(`  read-only token: ${readOnly}\n`);
  io.err(`  data: ${opts.data ? opts.data : 'in memory (pass --data FILE to keep it across restarts)'}\n`);
  io.err(`  rate limits: ${opts.rateLimit ? '30 requests / 10 s and 500 / 30 min per person (every answer counts)' : 'off'}\n\n`);
  // The sandbox is a profile of its own: its address and demo token (no secret) written at each
  // start, so a login elsewhere is untouched and one word reaches it. The two export lines stay, as
  // the way for a shell that should use it for every command (or when the file cannot be written).
  const profile = await keepSandboxProfile(ctx, sandbox.url, sandbox.token);
  if (profile) {
    io.err(`To use it: checkin --profile ${SANDBOX_PROFILE} today (or: checkin auth switch ${SANDBOX_PROFILE})\n`);
    io.err('Or paste these two lines into another shell to point checkin at it:\n');
  } else io.err('Paste these two lines into another shell to point checkin at it:\n');
  // Two lines, each within 80 columns (one was 82 with the usual port): each works pasted alone too.
  io.out(`export CHECKIN_API_URL=${sandbox.url}\nexport CHECKIN_TOKEN=${sandbox.token}\n`);
  io.err('\nPress Ctrl-C to stop.\n');

  await stopped;
  io.err('Stopping the sandbox…\n');
  await sandbox.close();
}
