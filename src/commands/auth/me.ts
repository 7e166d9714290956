// `checkin me`: who the token belongs to (cached per API URL and token; --refresh asks again).
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { me } from '../../domain/account.js';
import { dayZone, today } from '../../domain/days.js';
import { JSON_FIELDS, jsonOption, printJson, printOne, type JsonFlag } from '../../ui/output.js';
import { meView } from '../../ui/views.js';
import { project } from '../../api/validate.js';
import { ME_RECORD } from '../../core/shapes.js';
import type { Run } from '../flags.js';

export interface MeOptions {
  json?: JsonFlag;
  refresh?: boolean;
}

export function meCommand(ctx: Context, run: Run<MeOptions> = runMe) {
  return new Command('me')
    .description('Show who the token belongs to (cached; --refresh asks again)')
    .addOption(jsonOption(JSON_FIELDS.me))
    .option('--refresh', 'ask the service again instead of using the cache')
    .action((opts) => run(ctx, opts));
}

export async function runMe(ctx: Context, opts: MeOptions): Promise<void> {
  const person = await me(ctx, { refresh: Boolean(opts.refresh) });
  if (opts.json) return printJson(ctx.io, project(ME_RECORD, person), opts.json);
  const zone = await dayZone(ctx);
  const day = await today(ctx);
  await printOne(ctx.io, ctx.now(), person, false, (v, p) => meView(v, p) + `today: ${day} (in ${zone.source})\n`);
}
