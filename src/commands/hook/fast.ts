// `checkin hook <event>` answered by a small bundle of its own (dist/hook.cjs, this file's): an
// agent's host runs the hooks at every session's start and every stop, and the whole CLI (commander,
// every command's definition) costs twice Node's own start. bin/checkin.js requires it before
// dist/checkin.cjs and hands it the command line; when that is exactly `[--profile <name>] hook
// <event> [words]` and the settings read without a warning, the answer is made here from the same
// code the command runs (answer.ts, domain/hook-reminder.ts) and the CLI is never loaded. Anything
// else (an option more, --help, a profile refused, a settings file warned of) is left whole to the
// CLI: nothing is read of standard input, nothing written. CONTRIBUTING.md, "Start-up".
import { ConfigStore } from '../../config/store.js';
import { hookAccount, type HookContext } from '../../domain/hook-reminder.js';
import { printNow, readInputNow } from '../../ui/io.js';
import { eventOf, EVENT_WAIT_MS, HOOK_EVENTS, hookAnswer, MAX_EVENT_BYTES, readsEvent, type HookEvent } from './answer.js';

/**
 * The hook a command line runs, when it is one answered here: `--profile <name>` (or
 * `--profile=<name>`) at most once before `hook`, an event, then only words (which the command
 * takes and leaves: a host may pass more). Undefined for anything else: an option anywhere else (the
 * CLI's own: --help, --debug, --profile after the event…) is the CLI's to read.
 */
export function hookCommandLine(argv: readonly string[]): { event: HookEvent; profile: string | undefined } | undefined {
  let at = 0;
  let profile: string | undefined;
  if (argv[0] === '--profile') [profile, at] = [argv[1], 2];
  else if (argv[0]?.startsWith('--profile=')) [profile, at] = [argv[0].slice('--profile='.length), 1];
  if (at > 0 && (profile === undefined || profile.startsWith('-'))) return undefined;
  const event = HOOK_EVENTS.find((e) => e === argv[at + 1]);
  if (argv[at] !== 'hook' || event === undefined) return undefined;
  if (argv.slice(at + 2).some((word) => word.startsWith('-'))) return undefined;
  return { event, profile };
}

/**
 * Runs the hook when the command line is one answered here (hookCommandLine) and the settings it
 * reads say nothing to warn of; resolves once its line (if any) is written, to whether standard
 * input was left open (its read still waiting: the process is to be ended). Undefined, with nothing
 * read of standard input and nothing written, when the CLI is to run instead.
 */
export function answerHook(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<boolean> | undefined {
  const line = hookCommandLine(argv);
  if (line === undefined) return undefined;
  let warned = false;
  let ctx: HookContext;
  try {
    const cfg = new ConfigStore(
      env,
      () => (warned = true),
      () => 'not read here',
      () => line.profile,
    );
    ctx = { env, now: () => new Date(), config: () => cfg, profile: () => cfg.profile };
    ctx.profile(); // a profile the CLI would refuse: it says so
  } catch {
    return undefined;
  }
  // Every file of the settings the hook reads is read now, once (hookAccount): a warning is the
  // CLI's to say. Nothing read later warns (those reads are kept), so none can come once input is read.
  hookAccount(ctx);
  if (warned) return undefined;
  return (async () => {
    const { text, open } = readsEvent(line.event) ? await readInputNow(MAX_EVENT_BYTES, EVENT_WAIT_MS) : { text: undefined, open: false };
    try {
      const answer = hookAnswer(ctx, line.event, eventOf(text));
      if (answer !== undefined) printNow(answer);
    } catch {
      // A hook never fails the session it runs in (as the CLI's runHook).
    }
    return open;
  })();
}
