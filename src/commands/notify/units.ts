// The subcommands of `checkin notify` that schedule it: install, uninstall, status (install.ts).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { notifyInstallCommand, notifyStatusCommand, notifyUninstallCommand } from './install.js';

export const NOTIFY_SUBCOMMANDS: Array<(ctx: Context) => CommandUnknownOpts> = [
  (ctx) => notifyInstallCommand(ctx),
  (ctx) => notifyUninstallCommand(ctx),
  (ctx) => notifyStatusCommand(ctx),
];
