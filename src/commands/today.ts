// `checkin today`: fill in or show today's check-in, addressed by today's local date key.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { answerOptions, type AnswerOptions } from './shared/checkin-answers.js';
import { fillCheckIn } from './shared/checkin-fill.js';
import { todayTarget } from './shared/checkin-target.js';
import { zoneHelp } from './shared/days.js';
import type { Run } from './shared/options.js';

export type TodayOptions = AnswerOptions;

export function todayCommand(ctx: Context, run: Run<TodayOptions> = runToday) {
  return answerOptions(new Command('today'))
    .description("Fill in or show today's check-in")
    .addHelpText('after', '\nExamples:\n  checkin today\n  checkin today -p "Shipped X" -i "Review Y" -b "" --mood focused\n  checkin today --json | jq .intentions')
    .addHelpText('after', () => zoneHelp(ctx))
    .action((opts) => run(ctx, opts));
}

export async function runToday(ctx: Context, opts: TodayOptions): Promise<void> {
  await fillCheckIn(ctx, await todayTarget(ctx), opts, true);
}
