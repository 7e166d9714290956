// The CLI's one error boundary: runs a command and turns whatever it threw into one-line messages
// and an exit code (error-text.ts says which). Nothing else prints an error or ends the process.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { preferences } from './config/prefs.js';
import { createContext, type Context } from './context.js';
import { describeError } from './error-text.js';
import { EXIT } from './errors.js';
import { addCompletionWhenAsked, afterCommand, buildProgram, helpTopic } from './program.js';
import { processIO } from './ui/io.js';

export { describeError } from './error-text.js';
export { EXIT } from './errors.js';

/** The process's context: its streams follow the colour, prompt and pager settings (read only when needed). */
function processContext(): Context {
  const env = process.env;
  const ctx: Context = createContext({ io: processIO(env, () => preferences(ctx.config())), env });
  return ctx;
}

export async function run(argv: string[], ctx: Context = processContext()): Promise<number> {
  const program = buildProgram(ctx, argv);
  let code: number = EXIT.OK;
  try {
    const topic = await helpTopic(argv);
    if (topic !== undefined) ctx.io.out(topic);
    else {
      await addCompletionWhenAsked(ctx, program, argv);
      await program.parseAsync(argv, { from: 'user' });
    }
  } catch (err) {
    // Said once the pager (if one was started) has exited: not drawn over it.
    await ctx.io.endPager();
    const described = describeError(err, ctx.debug.stacks);
    for (const line of described.lines) ctx.io.err(line + '\n');
    code = described.code;
  } finally {
    await ctx.io.endPager();
    await ctx.close().catch(() => undefined);
  }
  // After the work: the daily update notice, only where a person reads stderr (domain/update-notice.ts).
  await afterCommand(ctx, argv);
  return code;
}

/**
 * Run while the binary's start-up snapshot is made (src/binary.ts): builds the program for
 * `today --json` with a silent context, so the functions every run calls (commander's, the program's)
 * are compiled then and their bytecode is in the snapshot, not compiled again at each start.
 * Nothing is read, written or sent; nothing built here is kept.
 */
export function warmForSnapshot(): void {
  const ctx = createContext({ io: processIO({}), env: {} });
  const program = buildProgram(ctx, ['today', '--json']);
  program.helpInformation();
  for (const cmd of program.commands) cmd.helpInformation();
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
