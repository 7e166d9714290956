// What a scheduled run (a reminder's, the notices') cannot do that this shell can: read a token that
// only this shell's environment holds. Read by doctor's reminder and notify-unit checks.
import type { AdviceWords, Context } from '../context.js';

/** What a scheduled run (the reminder, the notices) lacks when the token is not stored: a note and its fix; undefined when it is. */
export function scheduledRunToken(ctx: Context, w: AdviceWords): { note: string; fix: string } | undefined {
  const stored = ctx.config().read();
  if (stored.token || stored.token_store === 'keychain') return undefined;
  const name = ctx.env.CHECKIN_TOKEN ? 'CHECKIN_TOKEN' : ctx.env.STEADY_TOKEN ? 'STEADY_TOKEN' : undefined;
  return {
    note: name ? `the token comes from ${name}, which a scheduled run does not have` : 'no token is stored for it to use',
    fix: `Run \`${w.login('insecure-storage')}\` so that the token is stored where a scheduled run can read it.`,
  };
}
