// `checkin goal update list <goal-id>` (also `goal updates <goal-id>`): a goal's updates, newest first.
import { Command } from '@commander-js/extra-typings';
import { rememberShown } from '../../../domain/short-ids.js';
import { allGoalUpdates } from '../../../api/endpoints.js';
import type { Context } from '../../../context.js';
import { JSON_FIELDS, jsonOption, printList, type JsonFlag } from '../../../ui/output.js';
import { goalUpdateRows } from '../../../ui/views.js';
import type { Run } from '../../flags.js';
import { uuid } from './content.js';

export interface GoalUpdateListOptions {
  goalId: string;
  json?: JsonFlag;
}

export function goalUpdateListCommand(ctx: Context, run: Run<GoalUpdateListOptions> = runGoalUpdateList) {
  return new Command('list')
    .argument('<goal-id>', 'the goal (find ids with `checkin goals`)')
    .description("List a goal's updates")
    .addOption(jsonOption(JSON_FIELDS.goalUpdate))
    .action((goalId, opts) => run(ctx, { ...opts, goalId }));
}

export async function runGoalUpdateList(ctx: Context, opts: GoalUpdateListOptions): Promise<void> {
  const list = await allGoalUpdates(await ctx.api(), await uuid(ctx, opts.goalId, 'The goal id'));
  // Remembered for resolving short ids (best effort).
  await rememberShown(
    ctx,
    'goal update',
    list.map((u) => u.id),
  );
  await printList(ctx.io, ctx.now(), list, opts.json, 'No updates yet.', goalUpdateRows);
}
