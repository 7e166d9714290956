// `checkin goals`: goals (mine by default) with their ids.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { findGoals } from '../../domain/goals-list.js';
import { JSON_FIELDS, jsonOption, printList, type JsonFlag } from '../../ui/output.js';
import { goalRows } from '../../ui/views.js';
import { whoOptions, type Run, type WhoOptions } from '../flags.js';

export interface GoalsOptions extends WhoOptions {
  json?: JsonFlag;
}

export function goalsCommand(ctx: Context, run: Run<GoalsOptions> = runGoals) {
  return whoOptions(new Command('goals'))
    .description('List goals (mine by default) with their ids')
    .addOption(jsonOption(JSON_FIELDS.goal))
    .action((opts) => run(ctx, opts));
}

export async function runGoals(ctx: Context, opts: GoalsOptions): Promise<void> {
  // Mine by default: how users find goal ids (remembered for short ids and Tab).
  const { goals } = await findGoals(ctx, { people: opts.person, teams: opts.team });
  await printList(ctx.io, ctx.now(), goals, opts.json, 'No goals match.', goalRows);
}
