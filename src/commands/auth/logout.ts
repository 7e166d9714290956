// `checkin logout`: remove the stored token and what was cached for it.
import { Command } from '@commander-js/extra-typings';
import { cacheKey } from '../../config/store.js';
import type { Context } from '../../context.js';
import type { Run } from '../flags.js';

export type LogoutOptions = Record<string, never>;

export function logoutCommand(ctx: Context, run: Run<LogoutOptions> = runLogout) {
  return new Command('logout').description('Remove the stored token').action(() => run(ctx, {}));
}

export async function runLogout(ctx: Context): Promise<void> {
  const cfg = ctx.config();
  const stored = cfg.read();
  if (!stored.token && !stored.token_store) {
    ctx.io.err('Not logged in: no stored token.\n');
  } else {
    const token = cfg.token();
    if (token && token.where !== 'env') {
      const key = cacheKey(stored.api_url ?? cfg.apiUrl().value, token.value);
      await cfg.replaceCache(key, undefined);
    }
    const from = await cfg.forgetToken();
    ctx.io.err(`Logged out: the token was removed from ${from ?? cfg.file}\n`);
  }
  if (ctx.env.CHECKIN_TOKEN || ctx.env.STEADY_TOKEN) {
    ctx.io.err(`Note: ${ctx.env.CHECKIN_TOKEN ? 'CHECKIN_TOKEN' : 'STEADY_TOKEN'} is still set in your environment.\n`);
  }
}
