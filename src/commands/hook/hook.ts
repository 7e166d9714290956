// `checkin hook session-start|stop|post-commit`: what an agent's lifecycle hooks (Claude Code's,
// Codex's: `checkin skill install --hooks` writes them) and git's post-commit hook run. They remind,
// never send: no request, nothing asked, exit 0 whatever happens (a hook must never break the
// session it runs in), and one line only when there is something to do (domain/hook-reminder.ts
// says what, from what checkin keeps on this machine).
import { isAbsolute } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { holdOnce, hookReminder, MAX_COMMITS, reminderKinds, type HookReminder } from '../../domain/hook-reminder.js';

export const HOOK_EVENTS = ['session-start', 'stop', 'post-commit'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The most of the host's event JSON read, and how long standing input is waited for. */
const MAX_EVENT_BYTES = 256 * 1024;
const EVENT_WAIT_MS = 200;

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
    if (text === undefined) {
      // Input left open (a terminal's pipe, a host that writes nothing): not waited for any longer.
      ctx.io.stdin.destroy();
      return undefined;
    }
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one line a hook prints, or undefined when there is nothing to do. */
function reminderLine(r: HookReminder): string | undefined {
  const parts: string[] = [];
  const todo: string[] = [];
  if (r.pending) {
    parts.push("today's check-in is still pending");
    todo.push('`checkin today` fills it in');
  }
  if (r.commits > 0) {
    parts.push(`${r.commits >= MAX_COMMITS ? `${MAX_COMMITS}+ commits` : plural(r.commits, 'commit')} since your last log`);
    if (!r.pending) todo.push('`checkin log` records work');
  }
  if (r.drafts > 0) {
    parts.push(`${plural(r.drafts, 'draft')} kept, not sent`);
    todo.push('`checkin drafts` lists them');
  }
  if (parts.length === 0) return undefined;
  return `checkin: ${parts.join('; ')} (${todo.join('; ')})`;
}

export async function runHook(ctx: Context, event: HookEvent): Promise<void> {
  try {
    // No keychain: a hook reads only what is kept in files.
    ctx.config().skipKeychain();
    const input = event === 'post-commit' ? undefined : await hostEvent(ctx);
    // Stop: a stop this hook already held back goes through (Claude Code's and Codex's stop_hook_active).
    if (event === 'stop' && input?.stop_hook_active === true) return;
    const cwd = typeof input?.cwd === 'string' && isAbsolute(input.cwd) ? input.cwd : process.cwd();
    const reminder = await hookReminder(ctx, cwd);
    const line = reminderLine(reminder);
    if (line === undefined) return;
    const session = typeof input?.session_id === 'string' && input.session_id !== '' ? input.session_id : undefined;
    // A host's Stop hook reads its stdout as JSON (Codex fails one whose stdout is not): a line only to
    // be shown is its systemMessage. Run by hand (no event), the plain line.
    const shown = event === 'stop' && input !== undefined ? JSON.stringify({ systemMessage: line }) : line;
    if (event === 'stop' && session !== undefined) {
      // Held back once a session for a kind of reminder, and only when that is remembered; a kind said before is not said again.
      const once = holdOnce(ctx, session, reminderKinds(reminder));
      if (once === 'said') return;
      if (once === 'unremembered') return ctx.io.out(shown + '\n');
      const reason = `${line}. Tell the person before you finish; send nothing without their yes. (Said once a session.)`;
      ctx.io.out(JSON.stringify({ decision: 'block', reason }) + '\n');
      return;
    }
    ctx.io.out(shown + '\n');
  } catch {
    // A hook never fails the session it runs in.
  } finally {
    // Nor does its output that cannot be written (a full disk): taken here, neither said nor the run's failure.
    await ctx.io.written();
  }
}
