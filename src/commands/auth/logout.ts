// `checkin logout` (and `checkin auth logout`): remove the profile's stored token and what was
// cached for it; its service and settings stay, for the next login.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import type { Run } from '../flags.js';
import { profilesMatter } from '../../domain/profiles.js';
import { refuseFolderProfile } from './folder.js';

export type LogoutOptions = Record<string, never>;

export function logoutCommand(ctx: Context, run: Run<LogoutOptions> = runLogout) {
  return new Command('logout').description("Remove the stored token (the profile's; its service and settings are kept)").action(() => run(ctx, {}));
}

export async function runLogout(ctx: Context): Promise<void> {
  const cfg = ctx.config();
  refuseFolderProfile(cfg, 'logout');
  const name = cfg.profile.name;
  const stored = cfg.read();
  const named = profilesMatter(cfg);
  if (!stored.token && !stored.token_store) {
    ctx.io.err(named ? `Not logged in under the profile ${name}: no stored token.\n` : 'Not logged in: no stored token.\n');
  } else {
    const token = cfg.token();
    if (token && token.where !== 'env') await cfg.replaceCache(stored.api_url ?? cfg.apiUrl().value, token.value, undefined);
    const from = await cfg.forgetToken();
    if (!named) ctx.io.err(`Logged out: the token was removed from ${from ?? cfg.file}\n`);
    else
      ctx.io.err(
        `Logged out of the profile ${name}: the token was removed from ${from ?? cfg.file}\nIts service and settings are kept: \`checkin login --profile ${name}\` logs in again.\n`,
      );
  }
  if (ctx.env.CHECKIN_TOKEN || ctx.env.STEADY_TOKEN) {
    ctx.io.err(`Note: ${ctx.env.CHECKIN_TOKEN ? 'CHECKIN_TOKEN' : 'STEADY_TOKEN'} is still set in your environment.\n`);
  }
}
