// `checkin hook session-start|stop|post-commit`: what an agent's lifecycle hooks (Claude Code's,
// Codex's: `checkin skill install --hooks` writes them) and git's post-commit hook run. They remind,
// never send: no request, nothing asked, exit 0 whatever happens (a hook must never break the
// session it runs in), and one line only when there is something to do (domain/hook-reminder.ts
// says what, from what checkin keeps on this machine).
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { EVENT_WAIT_MS, eventOf, HOOK_EVENTS, hookAnswer, MAX_EVENT_BYTES, readsEvent, type HookEvent } from './answer.js';

const ABOUT: Record<HookEvent, string> = {
  'session-start': "For an agent's SessionStart hook: one line of context when today's check-in is pending, commits are unlogged or drafts wait",
  stop: "For an agent's Stop hook: the same reminder, given to the agent once a session (it is asked to tell you; it is never held back twice)",
  'post-commit': "For git's post-commit hook: one line after a commit when there is something to report",
};

export function hookCommand(ctx: Context) {
  const cmd = new Command('hook')
    .description("Reminders for an agent's hooks and git's: no request, nothing sent, exit 0 always, a line only when something is to do")
    .addHelpText(
      'after',
      `
What they read: today's state as \`checkin status\` (or the reminder) last saw it, the drafts kept
on this machine, and your commits in the working folder since checkin last saw a check-in or an
activity of yours accepted (the start of today, before that). They print nothing otherwise.

Claude Code and Codex: \`checkin skill install --hooks\` adds session-start (SessionStart: the line
is added to the agent's context) and stop (Stop: the first time a reminder comes up in a session, it
is handed to the agent as the reason to go on — the agent is asked to tell you, and the same
reminder never holds it back again in that session, nor ever twice in a row). Codex asks you to
trust new hooks (/hooks) before they run.

git: add one line to .git/hooks/post-commit (make it executable):
  checkin hook post-commit

Examples:
  checkin hook session-start
  checkin skill install --hooks`,
    );
  for (const event of HOOK_EVENTS)
    cmd.addCommand(
      new Command(event)
        .description(ABOUT[event])
        // A host that passes more than expected still gets exit 0.
        .allowUnknownOption()
        .allowExcessArguments()
        .action(() => runHook(ctx, event)),
    );
  return cmd;
}

/** The host's event (Claude Code's and Codex's hooks write it as JSON on stdin), if one came: bounded in size and time; anything else is ignored. */
async function hostEvent(ctx: Context): Promise<Record<string, unknown> | undefined> {
  if (ctx.io.stdinIsTTY) return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const text = await Promise.race([
      ctx.io.readStdin(MAX_EVENT_BYTES),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), EVENT_WAIT_MS);
      }),
    ]);
    // Input left open (a terminal's pipe, a host that writes nothing): not waited for any longer.
    if (text === undefined) ctx.io.stdin.destroy();
    return eventOf(text);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The hook run in the CLI (bin/checkin.js's small bundle, fast.ts, answers most runs before the CLI is loaded: the same answer). */
export async function runHook(ctx: Context, event: HookEvent): Promise<void> {
  try {
    const input = readsEvent(event) ? await hostEvent(ctx) : undefined;
    const text = hookAnswer(ctx, event, input);
    if (text !== undefined) ctx.io.out(text);
  } catch {
    // A hook never fails the session it runs in.
  } finally {
    // Nor does its output that cannot be written (a full disk): taken here, neither said nor the run's failure.
    await ctx.io.written();
  }
}
