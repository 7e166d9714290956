// `checkin auth …`: the token, and which profile is the default.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { logoutCommand } from './logout.js';
import { statusCommand } from './status.js';
import { switchCommand } from './switch.js';
import { tokenCommand } from './token.js';

export function authCommand(ctx: Context): CommandUnknownOpts {
  return new Command('auth')
    .description('The token and the profiles: checkin auth status, switch, token, logout')
    .addCommand(statusCommand(ctx))
    .addCommand(switchCommand(ctx))
    .addCommand(tokenCommand(ctx))
    .addCommand(logoutCommand(ctx));
}
