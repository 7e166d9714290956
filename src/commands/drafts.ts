// Never losing typed text: what the user wrote is kept as a draft before it is sent, and removed
// only once the service accepted it. Comments, goal updates and check-ins all go through here.
import type { Context } from '../context.js';
import { HintedError } from '../errors.js';

export async function saveDraft(ctx: Context, key: string, what: string, content: object): Promise<void> {
  const api = await ctx.api();
  await ctx.config().saveDraft(key, { target: what, api_url: api.baseUrl, saved_at: ctx.now().toISOString(), content: { ...content } });
}

/** Saves the draft, sends, and removes the draft once sent; on failure `hint` says how to resend it. */
export async function sendWithDraft<T>(ctx: Context, key: string, what: string, content: object, send: () => Promise<T>, hint: string): Promise<T> {
  await saveDraft(ctx, key, what, content);
  let result: T;
  try {
    result = await send();
  } catch (err) {
    throw new HintedError(err, hint);
  }
  await ctx.config().deleteDraft(key);
  return result;
}
