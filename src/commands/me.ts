// `checkin me`: who the token belongs to (cached per API URL and token; --refresh asks again).
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { printOne } from '../ui/output.js';
import { meView } from '../ui/views.js';
import { me } from './shared/account.js';
import type { Run } from './shared/options.js';

export interface MeOptions {
  json?: boolean;
  refresh?: boolean;
}

export function meCommand(ctx: Context, run: Run<MeOptions> = runMe) {
  return new Command('me')
    .description('Show who the token belongs to (cached; --refresh asks again)')
    .option('--json', 'print as JSON')
    .option('--refresh', 'ask the service again instead of using the cache')
    .action((opts) => run(ctx, opts));
}

export async function runMe(ctx: Context, opts: MeOptions): Promise<void> {
  await printOne(ctx.io, ctx.now(), await me(ctx, { refresh: Boolean(opts.refresh) }), opts.json, meView);
}
