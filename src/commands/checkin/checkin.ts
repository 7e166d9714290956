// `checkin checkin <key>`: show a check-in by key; with answer options, update it.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { guessCheckInKey, resolveCheckInKey, teammateCheckInTarget } from '../../domain/target.js';
import { UsageError } from '../../errors.js';
import type { Run } from '../flags.js';
import { settlePlan } from '../../domain/checkin-plan.js';
import { answerOptions, readPlan, type AnswerOptions } from './given.js';
import { fillCheckIn } from './fill.js';
import { say } from './say.js';

export interface CheckInOptions extends AnswerOptions {
  key: string;
  /** Whose check-in (a name, @username, UUID or me); mine when absent. */
  person?: string;
}

export function checkinCommand(ctx: Context, run: Run<CheckInOptions> = runCheckIn) {
  return (
    answerOptions(new Command('checkin'))
      // [person] is read from the arguments after <key> rather than declared: declared, it would widen
      // the column of every command in `checkin --help`. The usage line and the help still say it.
      .argument(
        '<key>',
        'a UUID or its start (as `checkin list` shows it), YYYY-MM-DD, today, yesterday, a weekday name (the most recent before today) or last; then, optionally, whose: a name, @username or UUID (yours when left out)',
      )
      .usage('[options] <key> [person]')
      .allowExcessArguments()
      .description("Show a check-in by key (or a teammate's by day); with answer options, update it")
      .addHelpText(
        'after',
        '\nExamples:\n  checkin checkin yesterday\n  checkin checkin friday --json\n  checkin checkin 2026-11-20 -b "Waiting on review"\n  checkin checkin today @grace\n  checkin checkin friday "Grace Hopper"\n  checkin checkin <check-in-id>',
      )
      .action((key, opts, cmd) => {
        const [, person, ...more] = cmd.args;
        if (more.length) throw new UsageError(`Too many arguments: a key and, optionally, a person (quote a name with spaces: "Grace Hopper")`);
        return run(ctx, { ...opts, key, ...(person === undefined ? {} : { person }) });
      })
  );
}

export async function runCheckIn(ctx: Context, opts: CheckInOptions): Promise<void> {
  const given = await readPlan(ctx, opts, opts.person === undefined ? guessCheckInKey(ctx, opts.key) : undefined, opts.key);
  const target = opts.person === undefined ? await resolveCheckInKey(ctx, opts.key) : await teammateCheckInTarget(ctx, opts.key, opts.person);
  const plan = settlePlan(ctx, given, target);
  if (target.absent) return say(ctx, target, { kind: 'none' }, plan);
  for await (const outcome of fillCheckIn(ctx, target, plan)) await say(ctx, target, outcome, plan);
}
