// `checkin goal update delete <update-id>`: delete a goal update, after a confirmation (or --yes).
import { Command } from '@commander-js/extra-typings';
import { deleteGoalUpdate, getGoalUpdate } from '../../../api/endpoints.js';
import type { Context } from '../../../context.js';
import { CancelledError, UsageError } from '../../../errors.js';
import { viewFor } from '../../../ui/output.js';
import { sayDone } from '../../../ui/success.js';
import { goalUpdateView } from '../../../ui/views.js';
import type { Run } from '../../flags.js';
import { uuid } from './content.js';
import { askedHere } from '../../../domain/asked.js';

export interface GoalUpdateDeleteOptions {
  updateId: string;
  yes?: boolean;
}

export function goalUpdateDeleteCommand(ctx: Context, run: Run<GoalUpdateDeleteOptions> = runGoalUpdateDelete) {
  return new Command('delete')
    .argument('<update-id>', 'the goal update')
    .description('Delete a goal update')
    .option('-y, --yes', 'delete without asking')
    .action((updateId, opts) => run(ctx, { ...opts, updateId }));
}

export async function runGoalUpdateDelete(ctx: Context, opts: GoalUpdateDeleteOptions): Promise<void> {
  const id = await uuid(ctx, opts.updateId, 'The update id');
  const api = await ctx.api();
  if (!opts.yes) {
    if (!ctx.io.canPrompt) throw new UsageError('Deleting needs confirmation', 'Add --yes to delete without a terminal.');
    const u = await getGoalUpdate(api, id);
    ctx.io.out(goalUpdateView(await viewFor(ctx.io, ctx.now()), u));
    if (!(await ctx.prompter().confirm(askedHere(ctx, 'Delete this goal update?'), { default: false }))) throw new CancelledError('Not deleted');
  }
  await deleteGoalUpdate(api, id);
  await sayDone(ctx.io, ctx.now(), `Deleted goal update ${id}`);
}
