// `checkin today`: fill in or show today's check-in, addressed by today's local date key.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { zoneHelp } from '../../domain/days.js';
import { guessCheckInKey, todayTarget } from '../../domain/target.js';
import type { Run } from '../flags.js';
import { settlePlan } from '../../domain/checkin-plan.js';
import { answerOptions, readPlan, type AnswerOptions, type AnswerPlan } from './given.js';
import { fillCheckIn } from './fill.js';
import { say } from './say.js';
import { wizard } from './wizard.js';

export type TodayOptions = AnswerOptions;

export function todayCommand(ctx: Context, run: Run<TodayOptions> = runToday) {
  return answerOptions(new Command('today'))
    .description("Fill in or show today's check-in")
    .addHelpText(
      'after',
      '\nExamples:\n  checkin today\n  checkin today -p "Shipped X" -i "Review Y" -b "" --mood focused\n  checkin today --json | jq .intentions',
    )
    .addHelpText('after', () => zoneHelp(ctx))
    .action((opts) => run(ctx, opts));
}

export async function runToday(ctx: Context, opts: TodayOptions): Promise<void> {
  const given = await readPlan(ctx, opts, guessCheckInKey(ctx, undefined));
  const target = await todayTarget(ctx);
  let plan: AnswerPlan | undefined = settlePlan(ctx, given, target);
  // Nothing given, and a person at the terminal: the questions fill in the plan (none: nothing to send, and said so).
  if (plan.act === 'none' && ctx.io.canPrompt && !plan.json) plan = await wizard(ctx, target, plan);
  if (plan) for await (const outcome of fillCheckIn(ctx, target, plan)) await say(ctx, target, outcome, plan);
}
