// The one way every write goes out: what the user typed is saved as a draft before the request,
// and removed only after the service accepted it with a well-formed answer; on failure, `hint`
// says how to send it again. A draft that cannot be kept in the state folder is kept in a private
// temp folder (config/drafts.ts says where); where none can be kept at all, the write still goes
// out, and if it fails the typed text is printed so that it is not lost.
import type { DraftContent, DraftTarget } from '../config/drafts.js';
import type { Context } from '../context.js';
import { buildTemplate } from '../core/answers.js';
import { CliError, HintedError } from '../errors.js';

export interface Write<T> {
  target: DraftTarget;
  /** What was typed; undefined when nothing needs keeping (all of it is on the command line). */
  content: DraftContent | undefined;
  send: () => Promise<T>;
  /** How to send the draft again, told when sending failed. */
  hint: string;
}

/** Typed content as a person reads it back. */
export function contentText(content: DraftContent): string {
  switch (content.kind) {
    case 'answers':
      return buildTemplate(content.answers, 'this check-in');
    case 'comment':
      return content.body;
    case 'goal-update':
      return `${content.input.title ?? ''}\n\n${content.input.body ?? ''}`.trim();
    case 'activity':
      return content.input.description;
    case 'goal':
      return `${content.input.title ?? ''}\n\n${content.input.description ?? ''}`.trim();
    case 'echo-question':
      return content.input.prompt;
    case 'text':
      return content.text;
  }
}

/** The command that sends a kept draft. */
export function resumeCommand(target: DraftTarget): string {
  switch (target.kind) {
    case 'check-in':
      return `checkin checkin ${target.key} --resume`;
    case 'comment':
      return `checkin comments ${target.on === 'check-in' ? target.id : `--goal-update ${target.id}`} --resume`;
    case 'goal-update':
      return `checkin goal update ${target.goalId} --resume`;
    case 'goal-update-edit':
      return `checkin goal update edit ${target.id} --resume`;
    case 'activity':
      return 'checkin log --resume';
    case 'goal':
      return 'checkin goal create --resume';
    case 'goal-edit':
      return `checkin goal edit ${target.id} --resume`;
    case 'echo-question':
      return 'checkin echo ask --resume';
  }
}

/** What a stop signal says while a draft of this run is kept. */
function stopLine(ctx: Context): string | undefined {
  const kept = ctx.drafts().keptThisRun();
  if (kept.length === 0) return undefined;
  return `Stopped. What you typed is kept as a draft: \`${resumeCommand(kept.at(-1)!)}\` sends it.`;
}

/** Saves a draft; when it cannot be saved (the store has warned, once), returns false and the caller carries on. */
export async function keep(ctx: Context, target: DraftTarget, content: DraftContent): Promise<boolean> {
  const api = await ctx.api();
  try {
    ctx.drafts().save(api.baseUrl, target, content, ctx.now());
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return false;
  }
  // From now until it is sent, a stop signal says where it is.
  ctx.io.onStop(() => stopLine(ctx));
  return true;
}

export async function sendWithDraft<T>(ctx: Context, write: Write<T>): Promise<T> {
  const api = await ctx.api();
  const kept = write.content ? await keep(ctx, write.target, write.content) : false;
  let result: T;
  try {
    result = await write.send();
  } catch (err) {
    if (!write.content) throw err;
    if (kept) throw new HintedError(err, write.hint);
    throw new HintedError(err, `No draft could be kept; here is what you wrote:\n${contentText(write.content)}`);
  }
  if (kept) ctx.drafts().delete(api.baseUrl, write.target);
  return result;
}
