// The subcommands of `checkin notify` (install, uninstall, status: the OS's units), each defined in its
// own file of this folder and listed here; notify.ts adds them under `checkin notify`.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';

export const NOTIFY_SUBCOMMANDS: Array<(ctx: Context) => CommandUnknownOpts> = [];
