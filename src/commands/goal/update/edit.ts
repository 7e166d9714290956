// `checkin goal update edit <update-id>`: change a goal update (PATCH only what was given; on a
// terminal with nothing given, the body opens in $EDITOR). Kept as a draft until accepted.
import { Command } from '@commander-js/extra-typings';
import { getGoalUpdate } from '../../../api/endpoints.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { printOne } from '../../../ui/output.js';
import { goalUpdateView } from '../../../ui/views.js';
import type { Run } from '../../flags.js';
import { contentOptions, gather, uuid, writeGoalUpdate, type GoalUpdateContentOptions } from './content.js';

export interface GoalUpdateEditOptions extends GoalUpdateContentOptions {
  updateId: string;
}

export function goalUpdateEditCommand(ctx: Context, run: Run<GoalUpdateEditOptions> = runGoalUpdateEdit) {
  return contentOptions(new Command('edit'))
    .argument('<update-id>', 'the goal update')
    .description('Change a goal update (only what is given)')
    .addHelpText('after', '\nExamples:\n  checkin goal update edit <update-id> --progress 70\n  checkin goal update edit <update-id> --edit')
    .action((updateId, opts) => run(ctx, { ...opts, updateId }));
}

export async function runGoalUpdateEdit(ctx: Context, opts: GoalUpdateEditOptions): Promise<void> {
  // A short id from what was listed before: no request before what is typed is kept.
  const id = await uuid(ctx, opts.updateId, 'The update id', { cacheOnly: true });
  const api = await ctx.api();
  const updated = await writeGoalUpdate(ctx, {
    target: { kind: 'goal-update-edit', id },
    resume: opts.resume,
    flags: opts,
    what: 'changes to this goal update',
    gather: async () => {
      const nothingGiven = opts.title === undefined && opts.body === undefined && opts.progress === undefined && opts.confidence === undefined;
      const needsCurrent = ctx.io.canPrompt && (opts.edit || nothingGiven);
      const current = needsCurrent ? await getGoalUpdate(api, id) : undefined;
      const input = await gather(
        ctx,
        { ...opts, edit: opts.edit || Boolean(needsCurrent && opts.body === undefined) },
        current
          ? {
              ...current,
              context: [
                `Your goal update “${current.title}”${current.goal?.title ? ` on “${current.goal.title}”` : ''}, as it stands, is below: change it and save.`,
              ],
            }
          : {},
        false,
        { kind: 'goal-update-edit', id },
      );
      if (Object.keys(input).length === 0) throw new UsageError('Nothing to change: give --title, --body, --progress or --confidence (or --edit)');
      return input;
    },
  });
  for (const one of updated) await printOne(ctx.io, ctx.now(), one, opts.json, goalUpdateView);
}
