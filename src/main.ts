// The CLI's one error boundary: runs a command and turns whatever it threw into one-line messages
// and an exit code (error-text.ts says which). Nothing else prints an error or ends the process.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { sharedPreferences } from './config/prefs.js';
import { cliAdvice } from './commands/flags.js';
import { createContext, type Context, type StdinOpening } from './context.js';
import { describeError, outputFailed } from './error-text.js';
import { EXIT } from './errors.js';
import { addCompletionWhenAsked, afterCommand, buildProgram, helpTopic } from './program.js';
import { processIO } from './ui/io.js';
import { ApiClient } from './api/client.js';
import { rememberZone } from './domain/account.js';
import { ANSWER_NAMES } from './core/checkin-answers.js';
import { showTopic } from './ui/topic.js';
import { join } from 'node:path';

export { describeError } from './error-text.js';
export { EXIT } from './errors.js';
/** Whether output is coloured, decided once for checkin and its scripts (npm run demo). */
export { colorLevelFor } from './ui/io.js';

/** The process's context: its streams follow the colour, prompt and pager settings (read only when needed). */
export function processContext(): Context {
  const env = process.env;
  const ctx: Context = createContext({ io: processIO(env, () => sharedPreferences(ctx.config())), env });
  return ctx;
}

/** Runs the command line; `opening`: what of standard input was read and answered before (bin/checkin.js, mcp/first.ts). */
export async function run(argv: string[], ctx: Context = processContext(), opening?: StdinOpening): Promise<number> {
  if (opening) ctx.opening = opening;
  // Its words carry the profile --profile chose, once the command line is read.
  ctx.advice ??= cliAdvice(() => {
    if (ctx.profileFlag === undefined) return undefined;
    try {
      return ctx.profile().name; // a valid name (an invalid one is refused before any advice)
    } catch {
      return undefined;
    }
  });
  const program = buildProgram(ctx, argv);
  let code: number = EXIT.OK;
  try {
    const topic = await helpTopic(argv);
    if (topic !== undefined) await showTopic(ctx.io, topic);
    else {
      await addCompletionWhenAsked(ctx, program, argv);
      await program.parseAsync(argv, { from: 'user' });
    }
  } catch (err) {
    // Said once the pager (if one was started) has exited: not drawn over it.
    await ctx.io.endPager();
    code = say(ctx, err);
  } finally {
    await ctx.io.endPager();
    await ctx.close().catch(() => undefined);
  }
  // Everything written is out before the run ends. Standard output that failed (a full disk, an I/O
  // error; not its reader gone: `checkin list | head -1`) is said once, after the command's own
  // words, and fails a run that had not failed: the command itself was never cut short.
  const failed = await ctx.io.written();
  if (failed.stdout !== undefined) {
    const failure = say(ctx, outputFailed(failed.stdout));
    if (code === EXIT.OK) code = failure;
  }
  // After the work: the daily update notice, only where a person reads stderr (domain/update-notice.ts).
  await afterCommand(ctx, argv);
  // Standard error that failed can say nothing, nor can what failed after the words above: the run's code alone tells it.
  const after = await ctx.io.written();
  if (code === EXIT.OK && [failed.stderr, after.stdout, after.stderr].some((e) => e !== undefined)) code = EXIT.FAILURE;
  return code;
}

/** Says what `err` becomes on stderr; returns its exit code. */
function say(ctx: Context, err: unknown): number {
  const described = describeError(err, ctx.debug.stacks);
  for (const line of described.lines) ctx.io.err(line + '\n');
  return described.code;
}

/**
 * Run while the binary's start-up snapshot is made (src/binary.ts): `today --json`, silent, against a
 * canned answer (no request: a transport of its own; settings and cache in a temporary folder,
 * removed after), so the functions a run calls — commander's, the program's, the request's and the
 * JSON output's — are compiled then and their bytecode is in the snapshot, not compiled again at each
 * start. Twice: with `TZ` set, and with it unset and a profile zone cached (as most people run it:
 * the cache read, its key's hash and the day at the zone's offset). Nothing built here is kept: the
 * contexts and their folder go with them.
 */
export async function warmForSnapshot(): Promise<void> {
  const fs = process.getBuiltinModule('node:fs');
  const { tmpdir } = process.getBuiltinModule('node:os');
  const dir = fs.mkdtempSync(join(tmpdir(), 'checkin-warm-'));
  try {
    const env: Record<string, string | undefined> = {
      HOME: dir,
      CHECKIN_CONFIG_DIR: dir,
      CHECKIN_TOKEN: 'warm',
      CHECKIN_API_URL: 'https://warm.invalid/api/v2',
      CHECKIN_NO_KEYCHAIN: '1',
      CHECKIN_NO_UPDATE_NOTIFIER: '1',
      CHECKIN_NO_PROMPT: '1',
    };
    const now = new Date();
    const day = now.toISOString().slice(0, 10);
    const body = JSON.stringify({
      type: 'check-in',
      id: '00000000-0000-4000-8000-000000000000',
      date: day,
      person: { id: '00000000-0000-4000-8000-000000000001', name: 'Warm' },
      teams: [],
      ...Object.fromEntries(ANSWER_NAMES.map((name) => [name, null])),
      blocked: false,
      absent: false,
      completed_at: null,
      updated_at: `${day}T00:00:00Z`,
      url: 'https://warm.invalid/app/check-ins/0',
    });
    const warm = async (runEnv: Record<string, string | undefined>) => {
      const io = processIO(runEnv);
      io.silence();
      const made = createContext({ io, env: runEnv });
      const client = new ApiClient({
        baseUrl: env.CHECKIN_API_URL!,
        token: env.CHECKIN_TOKEN!,
        env: runEnv,
        userAgent: 'checkin/warm',
        transport: { send: async () => ({ status: 200, headers: { 'content-type': 'application/json' }, text: body }), close: async () => undefined },
      });
      const ctx: Context = { ...made, api: async () => client };
      await run(['today', '--json'], ctx);
      return ctx;
    };
    const first = await warm({ ...env, TZ: 'UTC' });
    // The profile as `me` caches it, its zone's offsets beside it (UTC: the day is the canned one's).
    const from = now.getTime() - 86_400_000;
    const person = { id: '00000000-0000-4000-8000-000000000001', name: 'Warm', username: 'warm', time_zone: 'UTC', teams: [], fetched_at: now.toISOString() };
    await rememberZone(first, person, { name: 'UTC', iana: 'Etc/UTC', from, until: from + 367 * 86_400_000, offsets: [[from, 0]] });
    await warm(env);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every command, built but not run, for `npm run docs` (scripts/docs.mjs writes the manual from it):
 * its streams print nothing and it reads no settings, so the pages are the same on every machine.
 */
export async function manualProgram(): Promise<CommandUnknownOpts> {
  const made = createContext({ io: processIO({}), env: {} });
  const ctx: Context = {
    ...made,
    config: () => {
      throw new Error('the manual reads no settings');
    },
  };
  const program = buildProgram(ctx);
  await addCompletionWhenAsked(ctx, program, []);
  return program;
}
