// `checkin auth …`: the token.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { statusCommand } from './status.js';
import { tokenCommand } from './token.js';

export function authCommand(ctx: Context): CommandUnknownOpts {
  return new Command('auth').description('The token: checkin auth status, checkin auth token').addCommand(statusCommand(ctx)).addCommand(tokenCommand(ctx));
}
