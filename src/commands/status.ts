// `checkin status`: for cron and shell prompts. One GET of today's check-in by date key.
// Exit 0 when it is filled in or nothing is scheduled, 3 when it is still pending.
import { getCheckIn } from '../api/endpoints.js';
import type { CheckIn } from '../api/types.js';
import type { Context } from '../context.js';
import { localDateKey } from '../core/datekey.js';
import { EXIT, ExitSignal } from '../errors.js';
import { renderJson } from '../ui/render.js';
import { isNotFound } from './fill.js';

export interface StatusOptions {
  quiet?: boolean;
  json?: boolean;
}

export async function runStatus(ctx: Context, opts: StatusOptions): Promise<void> {
  const date = localDateKey(ctx.now());
  let checkIn: CheckIn | null = null;
  try {
    checkIn = await getCheckIn(await ctx.api(), date);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const state = !checkIn ? 'none' : checkIn.completed_at ? 'done' : 'pending';
  if (opts.json) ctx.io.out(renderJson({ date, state, check_in: checkIn }));
  else if (!opts.quiet) {
    const c = await ctx.colors();
    const line =
      state === 'none'
        ? `No check-in scheduled for today (${date})`
        : state === 'done'
          ? c.green(`Today's check-in (${date}) is filled in`)
          : c.yellow(`Today's check-in (${date}) is pending: run \`checkin today\``);
    ctx.io.out(line + '\n');
  }
  if (state === 'pending') throw new ExitSignal(EXIT.PENDING);
}
