// `checkin notify`: the notices. This file only gathers the subcommands (units.ts); the look
// itself (`checkin notify --once`) is written beside it.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { NOTIFY_SUBCOMMANDS } from './units.js';

export function notifyCommand(ctx: Context) {
  const notify = new Command('notify').description('A desktop notice when something new needs you: comments, mentions, replies, blockers');
  for (const define of NOTIFY_SUBCOMMANDS) notify.addCommand(define(ctx));
  return notify;
}
