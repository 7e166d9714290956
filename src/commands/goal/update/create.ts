// `checkin goal update <goal-id>` (also `goal update create <goal-id>`): post a goal update.
import { Command } from '@commander-js/extra-typings';
import { createGoalUpdate, getGoal, listGoalUpdates } from '../../../api/endpoints.js';
import type { Context } from '../../../context.js';
import { printOne, viewFor } from '../../../ui/output.js';
import { goalHeaderView, goalUpdateView } from '../../../ui/views.js';
import { contentOptions, gather, givenContent, uuid, writeGoalUpdate, type GoalUpdateContentOptions } from '../../shared/goal-update.js';
import type { Run } from '../../shared/options.js';

export interface CreateOptions extends GoalUpdateContentOptions {
  goalId: string;
}

export function createCommand(ctx: Context, run: Run<CreateOptions> = runCreate) {
  return contentOptions(new Command('create'))
    .argument('<goal-id>', 'the goal (find ids with `checkin goals`)')
    .description('Post a goal update')
    .addHelpText('after', '\nExample:\n  checkin goal update <goal-id> --title "Invoices shipped" --body - --progress 60 --confidence on-track < notes.md')
    .action((goalId, opts) => run(ctx, { ...opts, goalId }));
}

export async function runCreate(ctx: Context, opts: CreateOptions): Promise<void> {
  const id = uuid(opts.goalId, 'The goal id');
  const api = await ctx.api();
  const created = await writeGoalUpdate(ctx, {
    target: { kind: 'goal-update', goalId: id },
    resume: opts.resume,
    given: givenContent(opts),
    nothingKept: 'There is no draft goal update for this goal',
    gather: async () => {
      if (ctx.io.canPrompt && (opts.title === undefined || opts.body === undefined || opts.edit)) {
        // Context for the person writing: the goal and its latest update.
        const [goal, latest] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: 1 })]);
        ctx.io.out(goalHeaderView(await viewFor(ctx.io, ctx.now()), goal, latest[0]));
      }
      return gather(ctx, opts, {}, true, { kind: 'goal-update', goalId: id });
    },
    send: (input) => createGoalUpdate(api, id, input),
    hint: `Your update was kept as a draft. If it does not show up in \`checkin goal update list ${id}\`, send it with \`checkin goal update ${id} --resume\`.`,
  });
  if (!opts.json) ctx.io.err('Goal update posted.\n');
  await printOne(ctx.io, ctx.now(), created, opts.json, goalUpdateView);
}
