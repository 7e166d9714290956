// The one way every write goes out: what the user typed is saved as a draft before the request,
// and removed only after the service accepted it; on failure, `hint` says how to send it again.
import type { DraftContent, DraftTarget } from '../../config/drafts.js';
import type { Context } from '../../context.js';
import { HintedError } from '../../errors.js';

export interface Write<T> {
  target: DraftTarget;
  /** What was typed; undefined when nothing needs keeping (all of it is on the command line). */
  content: DraftContent | undefined;
  send: () => Promise<T>;
  /** How to send the draft again, told when sending failed. */
  hint: string;
}

export async function sendWithDraft<T>(ctx: Context, write: Write<T>): Promise<T> {
  const api = await ctx.api();
  const drafts = ctx.drafts();
  if (write.content) drafts.save(api.baseUrl, write.target, write.content, ctx.now());
  let result: T;
  try {
    result = await write.send();
  } catch (err) {
    throw write.content ? new HintedError(err, write.hint) : err;
  }
  if (write.content) drafts.delete(api.baseUrl, write.target);
  return result;
}
