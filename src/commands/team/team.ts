// `checkin team`: for each of my teams, each person's state that day in the one vocabulary
// (core/member-states.ts): blocked (and by what), pending, filled, absent, nothing scheduled.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { rangeDay } from '../../domain/days.js';
import { teamDay } from '../../domain/team-day.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import { teamDayView } from '../../ui/views.js';
import { collect, intOption, type Run } from '../flags.js';
import { MIN_WATCH_INTERVAL_S, WATCH_INTERVAL_S } from './interval.js';
import { runWatch } from './watch.js';

export interface TeamOptions {
  date?: string;
  team?: string[];
  json?: JsonFlag;
  watch?: boolean;
  interval?: number;
}

export function teamCommand(ctx: Context, run: Run<TeamOptions> = runTeam) {
  return new Command('team')
    .description("My teams' check-ins for a day: each person blocked (and for how many days in a row), pending, filled, absent or nothing scheduled")
    .option('--date <day>', 'the day (default today)')
    .option('--team <team>', 'only this team (UUID or name; repeatable; default: the team setting, else all my teams)', collect)
    .addOption(jsonOption(JSON_FIELDS.teamReport))
    .option('--watch', "today's wall, kept up to date on the terminal (q quits, r refreshes)")
    .addOption(
      intOption(
        '--interval <seconds>',
        `with --watch: seconds between refreshes (default ${WATCH_INTERVAL_S}; longer when the rate budget is low)`,
        MIN_WATCH_INTERVAL_S,
        3600,
      ),
    )
    .action((opts) => run(ctx, opts));
}

export async function runTeam(ctx: Context, opts: TeamOptions): Promise<void> {
  // A trace is written as the requests go out, over the screen the wall draws: not both.
  if (opts.watch && ctx.debug.api) throw new UsageError('--debug writes each request on the terminal --watch draws on: trace `checkin team` instead');
  if (opts.watch) return runWatch(ctx, opts);
  if (opts.interval !== undefined) throw new UsageError('--interval goes with --watch');
  const report = await teamDay(ctx, { date: await rangeDay(ctx, opts.date, '--date'), teams: opts.team });
  if (!report) {
    ctx.io.err('You are in no team.\n');
    if (opts.json) ctx.io.out('[]\n');
    return;
  }
  ctx.io.page();
  const profile = ctx.config().profileToName();
  await printOne(ctx.io, ctx.now(), report, opts.json, (v, r) => teamDayView(v, r, profile));
}
