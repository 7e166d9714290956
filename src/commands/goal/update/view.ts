// `checkin goal update view <update-id>` (also `goal updates show`): one goal update.
import { Command } from '@commander-js/extra-typings';
import { getGoalUpdate } from '../../../api/endpoints.js';
import type { Context } from '../../../context.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../../ui/output.js';
import { goalUpdateView } from '../../../ui/views.js';
import { openInBrowser } from '../../../ui/browser.js';
import type { Run } from '../../flags.js';
import { uuid } from './content.js';

export interface GoalUpdateViewOptions {
  updateId: string;
  json?: JsonFlag;
  web?: boolean;
}

export function goalUpdateViewCommand(ctx: Context, run: Run<GoalUpdateViewOptions> = runGoalUpdateView) {
  return new Command('view')
    .argument('<update-id>', 'the goal update')
    .description('Show one goal update')
    .addOption(jsonOption(JSON_FIELDS.goalUpdate))
    .option('-w, --web', 'open it in the browser (its link is printed where there is none)')
    .action((updateId, opts) => run(ctx, { ...opts, updateId }));
}

export async function runGoalUpdateView(ctx: Context, opts: GoalUpdateViewOptions): Promise<void> {
  const u = await getGoalUpdate(await ctx.api(), await uuid(ctx, opts.updateId, 'The update id'));
  if (opts.web) {
    return openInBrowser(ctx.io, ctx.env, u.url);
  }
  ctx.io.page();
  await printOne(ctx.io, ctx.now(), u, opts.json, goalUpdateView);
}
