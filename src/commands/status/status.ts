// `checkin status`: for cron and shell prompts. One GET of today's check-in by date key; without
// --quiet, the count of new comments (domain/today-state.ts) and teammates blocked on me today
// (domain/blockers.ts: one list, two when a blocker names me; kept ten minutes). Exit 0 when it is filled in or
// nothing is scheduled, 3 when it is still pending.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { CliError, EXIT, ExitSignal } from '../../errors.js';
import { today, zoneHelp } from '../../domain/days.js';
import { blockedOnMeKept } from '../../domain/blockers.js';
import { allHere } from '../../domain/outbox.js';
import { todayState, unread } from '../../domain/today-state.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import { project } from '../../api/validate.js';
import { STATUS } from '../../core/shapes.js';
import { blockedOnYouLines, statusLine } from '../../ui/views.js';
import { hereCommand, type Run } from '../flags.js';

export interface StatusOptions {
  quiet?: boolean;
  json?: JsonFlag;
}

export function statusCommand(ctx: Context, run: Run<StatusOptions> = runStatus) {
  return new Command('status')
    .description("Today's state (pending, filled, blocked, absent or nothing scheduled), new comments and who is blocked on you; exit 3 when pending")
    .option('-q, --quiet', 'print nothing; only the exit code tells')
    .addOption(jsonOption(JSON_FIELDS.status, 'print {date, state, check_in} as JSON'))
    .addHelpText('after', () => zoneHelp(ctx))
    .action((opts) => run(ctx, opts));
}

export async function runStatus(ctx: Context, opts: StatusOptions): Promise<void> {
  // --quiet: nothing at all on stdout or stderr (cron mails whatever a command prints); the exit code tells.
  if (opts.quiet && !opts.json) ctx.io.silence();
  const date = await today(ctx);
  const news = opts.quiet ? undefined : unread(ctx);
  // Best effort, like the count: a teammate's blocker that names me cannot stop the status.
  const blockers = opts.quiet ? undefined : blockedOnMeKept(ctx, date).catch(() => undefined);
  const { state, checkIn } = await todayState(ctx, date);
  const unreadNow = await news;
  const onMe = await blockers;
  const count = unreadNow?.count;
  const shown = unreadNow ? `${unreadNow.count}${unreadNow.more ? '+' : ''}` : '';
  // What waits in the outbox (no request: a look at the drafts folder).
  // The drafts database busy (another checkin writing it): said, never counted as none; the status itself stands.
  let waiting: number | undefined = 0;
  try {
    if (!opts.quiet) waiting = allHere(ctx).length;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    ctx.io.err(`warning: ${err.message}\n`);
    waiting = undefined;
  }
  const waitingLine = waiting
    ? `${waiting} draft${waiting === 1 ? '' : 's'} of yours ${waiting === 1 ? 'waits' : 'wait'} to be sent: ${hereCommand(ctx, 'checkin drafts')}\n`
    : '';
  // The profile, where a person could take one account for another (config/profiles.ts profileToName).
  const named = ctx.config().profileToName();
  await printOne(
    ctx.io,
    ctx.now(),
    project(STATUS, {
      date,
      state,
      check_in: checkIn,
      ...(count !== undefined && { unread: count }),
      ...(waiting !== undefined && { drafts_waiting: waiting }),
      ...(onMe && { blocked_on_you: onMe }),
      ...(named !== undefined && { profile: named }),
    }),
    opts.json,
    (v, s) =>
      statusLine(v, s.date, s.state, named) +
      (count
        ? `${shown} new comment${count === 1 && !unreadNow?.more ? '' : 's'} on your check-ins and goal updates: ${hereCommand(ctx, 'checkin inbox')}\n`
        : '') +
      blockedOnYouLines(v, s.blocked_on_you ?? [], date) +
      waitingLine,
  );
  if (state === 'pending') throw new ExitSignal(EXIT.PENDING);
}
