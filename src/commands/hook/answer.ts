// What `checkin hook <event>` answers, once the host's event is read: the one place it is decided,
// for both ways it runs — the command in the CLI (hook.ts) and the hooks' own small bundle that
// bin/checkin.js runs first (fast.ts, dist/hook.cjs). No commander here, nothing that only the CLI
// loads: what is to do comes from domain/hook-reminder.ts, the line and the JSON forms from here.
import { isAbsolute } from 'node:path';
import { holdOnce, hookReminder, MAX_COMMITS, reminderKinds, type HookContext, type HookReminder } from '../../domain/hook-reminder.js';

export const HOOK_EVENTS = ['session-start', 'stop', 'post-commit'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The most of the host's event JSON read. */
export const MAX_EVENT_BYTES = 256 * 1024;
/**
 * How long input that is neither a terminal nor ended is waited for. A host writes its event at once
 * and closes; this bound is for input left open with nothing coming (a script's inherited pipe). Not
 * shorter: a host on a loaded machine may take a few hundred milliseconds to write, and a Stop hook
 * that missed its event would answer with a plain line, which Codex fails (seen at 200 ms in CI).
 */
export const EVENT_WAIT_MS = 2000;

/** Whether the hook reads a host's event on stdin: an agent's hooks do; git's post-commit hook has none. */
export const readsEvent = (event: HookEvent): boolean => event !== 'post-commit';

/** The host's event (Claude Code's and Codex's hooks write it as JSON on stdin) from the text read: an object, else nothing. */
export function eventOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What the agent is told with a reminder it acts on: the check-in is the person's to send. */
const ASK_FIRST = "Send nothing without the person's yes: ask them first.";

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

/**
 * What the hook of `event` prints (its line and newline), given the host's event if one came;
 * undefined when there is nothing to do. The Stop hook's hold, once a session, is remembered here
 * (hooks.json): called once a run.
 */
export function hookAnswer(ctx: HookContext, event: HookEvent, input: Record<string, unknown> | undefined): string | undefined {
  // Stop: a stop this hook already held back goes through (Claude Code's and Codex's stop_hook_active).
  if (event === 'stop' && input?.stop_hook_active === true) return undefined;
  const cwd = typeof input?.cwd === 'string' && isAbsolute(input.cwd) ? input.cwd : process.cwd();
  const reminder = hookReminder(ctx, cwd);
  const line = reminderLine(reminder);
  if (line === undefined) return undefined;
  // SessionStart's line is the agent's context: it acts on it.
  if (event === 'session-start') return `${line}. ${ASK_FIRST}\n`;
  const session = typeof input?.session_id === 'string' && input.session_id !== '' ? input.session_id : undefined;
  // A host's Stop hook reads its stdout as JSON (Codex fails one whose stdout is not): a line only to
  // be shown is its systemMessage. Run by hand (no event), the plain line.
  const shown = event === 'stop' && input !== undefined ? JSON.stringify({ systemMessage: line }) : line;
  if (event === 'stop' && session !== undefined) {
    // Held back once a session for a kind of reminder, and only when that is remembered; a kind said before is not said again.
    const once = holdOnce(ctx, session, reminderKinds(reminder));
    if (once === 'said') return undefined;
    if (once === 'unremembered') return shown + '\n';
    const reason = `${line}. Tell the person before you finish. ${ASK_FIRST} (Said once a session.)`;
    return JSON.stringify({ decision: 'block', reason }) + '\n';
  }
  return shown + '\n';
}
