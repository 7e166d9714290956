// `checkin goal update <goal-id>` (also `goal update create <goal-id>`): post a goal update.
import { Command } from '@commander-js/extra-typings';
import { createGoalUpdate, getGoal, listGoalUpdates } from '../../../api/endpoints.js';
import type { GoalUpdateInput } from '../../../api/types.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { printOne, viewFor } from '../../../ui/output.js';
import { goalHeaderView, goalUpdateView } from '../../../ui/views.js';
import { sendWithDraft } from '../../shared/drafts.js';
import { contentOptions, gather, uuid, type GoalUpdateContentOptions } from '../../shared/goal-update.js';
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
  const target = { kind: 'goal-update', goalId: id } as const;
  let input: GoalUpdateInput;
  if (opts.resume) {
    const draft = ctx.drafts().get(api.baseUrl, target);
    if (draft?.content.kind !== 'goal-update') throw new UsageError('There is no draft goal update for this goal');
    input = draft.content.input;
  } else {
    if (ctx.io.canPrompt && (opts.title === undefined || opts.body === undefined || opts.edit)) {
      // Context for the person writing: the goal and its latest update.
      const [goal, latest] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: 1 })]);
      ctx.io.out(goalHeaderView(await viewFor(ctx.io, ctx.now()), goal, latest[0]));
    }
    input = await gather(ctx, opts, {}, true);
  }
  const created = await sendWithDraft(ctx, {
    target,
    content: { kind: 'goal-update', input },
    send: () => createGoalUpdate(api, id, input),
    hint: `Your update was kept as a draft. If it does not show up in \`checkin goal update list ${id}\`, send it with \`checkin goal update ${id} --resume\`.`,
  });
  if (!opts.json) ctx.io.err('Goal update posted.\n');
  await printOne(ctx.io, ctx.now(), created, opts.json, goalUpdateView);
}
