// `checkin status`: for cron and shell prompts. One GET of today's check-in by date key.
// Exit 0 when it is filled in or nothing is scheduled, 3 when it is still pending.
import { Command } from '@commander-js/extra-typings';
import { getCheckIn } from '../api/endpoints.js';
import type { CheckIn } from '../api/types.js';
import type { Context } from '../context.js';
import { EXIT, ExitSignal } from '../errors.js';
import { printOne } from '../ui/output.js';
import { statusLine } from '../ui/views.js';
import { isNoCheckIn } from './shared/checkin-target.js';
import { today, zoneHelp } from './shared/days.js';
import type { Run } from './shared/options.js';

export interface StatusOptions {
  quiet?: boolean;
  json?: boolean;
}

export function statusCommand(ctx: Context, run: Run<StatusOptions> = runStatus) {
  return new Command('status')
    .description("Exit 0 when today's check-in is filled in (or none is scheduled), 3 when it is pending")
    .option('-q, --quiet', 'print nothing; only the exit code tells')
    .option('--json', 'print {date, state, check_in} as JSON')
    .addHelpText('after', () => zoneHelp(ctx))
    .action((opts) => run(ctx, opts));
}

export async function runStatus(ctx: Context, opts: StatusOptions): Promise<void> {
  // --quiet: nothing at all on stdout or stderr (cron mails whatever a command prints); the exit code tells.
  if (opts.quiet && !opts.json) ctx.io.silence();
  const date = await today(ctx);
  let checkIn: CheckIn | null = null;
  try {
    checkIn = await getCheckIn(await ctx.api(), date);
  } catch (err) {
    if (!(await isNoCheckIn(ctx, err))) throw err;
  }
  const state: 'none' | 'done' | 'pending' = !checkIn ? 'none' : checkIn.completed_at ? 'done' : 'pending';
  await printOne(ctx.io, ctx.now(), { date, state, check_in: checkIn }, opts.json, (v, s) => statusLine(v, s.date, s.state));
  if (state === 'pending') throw new ExitSignal(EXIT.PENDING);
}
