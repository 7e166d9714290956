// `checkin checkin <key>`: show a check-in by key; with answer options, update it.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { guessCheckInKey, resolveCheckInKey } from '../../domain/target.js';
import type { Run } from '../flags.js';
import { answerOptions, readGiven, type AnswerOptions } from './given.js';
import { fillCheckIn } from './fill.js';

export interface CheckInOptions extends AnswerOptions {
  key: string;
}

export function checkinCommand(ctx: Context, run: Run<CheckInOptions> = runCheckIn) {
  return answerOptions(new Command('checkin'))
    .argument('<key>', 'a UUID, YYYY-MM-DD, today, yesterday, a weekday name (the most recent before today) or last')
    .description('Show a check-in by key; with answer options, update it')
    .addHelpText('after', '\nExamples:\n  checkin checkin yesterday\n  checkin checkin friday --json\n  checkin checkin 2026-11-20 -b "Waiting on review"')
    .action((key, opts) => run(ctx, { ...opts, key }));
}

export async function runCheckIn(ctx: Context, opts: CheckInOptions): Promise<void> {
  const given = await readGiven(ctx, opts, () => guessCheckInKey(ctx, opts.key), opts.key);
  const target = await resolveCheckInKey(ctx, opts.key);
  given.moveTo(target);
  await fillCheckIn(ctx, target, opts, given, false);
}
