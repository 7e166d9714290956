// `checkin status`: for cron and shell prompts. One GET of today's check-in by date key.
// Exit 0 when it is filled in or nothing is scheduled, 3 when it is still pending.
import { Command } from '@commander-js/extra-typings';
import { getCheckIn } from '../../api/endpoints.js';
import type { CheckIn } from '../../api/types.js';
import type { Context } from '../../context.js';
import { EXIT, ExitSignal } from '../../errors.js';
import { today, zoneHelp } from '../../services/days.js';
import { isNoCheckIn } from '../../services/target.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import { statusLine } from '../../ui/views.js';
import type { Run } from '../flags.js';
import { gatherInbox, inboxKey, readMarker, writeMarker } from '../inbox/gather.js';

export interface StatusOptions {
  quiet?: boolean;
  json?: JsonFlag;
}

export function statusCommand(ctx: Context, run: Run<StatusOptions> = runStatus) {
  return new Command('status')
    .description("Exit 0 when today's check-in is filled in (or none is scheduled), 3 when it is pending")
    .option('-q, --quiet', 'print nothing; only the exit code tells')
    .addOption(jsonOption(JSON_FIELDS.status, 'print {date, state, check_in} as JSON'))
    .addHelpText('after', () => zoneHelp(ctx))
    .action((opts) => run(ctx, opts));
}

/** How old a count of unread comments and reactions may be before status looks again. */
export const UNREAD_TTL_MS = 10 * 60 * 1000;

/** New comments and reactions since `checkin inbox` last showed them: counted again when the count is old. */
async function unread(ctx: Context): Promise<number | undefined> {
  try {
    // Only for an account whose `me` is known (after `checkin login`, or any command that needed
    // it): status never asks for /me just for this.
    const api = await ctx.api();
    if (!ctx.config().cached(api.baseUrl, ctx.config().token()!.value, 'me')) return undefined;
    const key = await inboxKey(ctx);
    const marker = readMarker(ctx, key);
    const now = ctx.now().getTime();
    if (marker?.checked_at && marker.unread !== undefined && now - Date.parse(marker.checked_at) < UNREAD_TTL_MS) return marker.unread;
    const inbox = await gatherInbox(ctx, marker?.seen_at ? { seenAt: marker.seen_at } : {});
    const count = inbox.threads.reduce((n, t) => n + t.items.length, 0);
    await writeMarker(ctx, key, { ...marker, unread: count, checked_at: ctx.now().toISOString() });
    return count;
  } catch {
    return undefined;
  }
}

export async function runStatus(ctx: Context, opts: StatusOptions): Promise<void> {
  // --quiet: nothing at all on stdout or stderr (cron mails whatever a command prints); the exit code tells.
  if (opts.quiet && !opts.json) ctx.io.silence();
  const date = await today(ctx);
  const news = opts.quiet ? undefined : unread(ctx);
  let checkIn: CheckIn | null = null;
  try {
    checkIn = await getCheckIn(await ctx.api(), date);
  } catch (err) {
    if (!(await isNoCheckIn(ctx, err))) throw err;
  }
  const state: 'none' | 'done' | 'pending' = !checkIn ? 'none' : checkIn.completed_at ? 'done' : 'pending';
  const count = await news;
  await printOne(ctx.io, ctx.now(), { date, state, check_in: checkIn, ...(count !== undefined && { unread: count }) }, opts.json, (v, s) => statusLine(v, s.date, s.state) + (count ? `${count} new comment${count === 1 ? '' : 's'} or reaction${count === 1 ? '' : 's'} on your check-ins: checkin inbox\n` : ''));
  if (state === 'pending') throw new ExitSignal(EXIT.PENDING);
}
