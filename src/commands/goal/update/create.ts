// `checkin goal update <goal-id>` (also `goal update create <goal-id>`): post a goal update.
import { Command } from '@commander-js/extra-typings';
import { getGoal, listGoalUpdates } from '../../../api/endpoints.js';
import { CONFIDENCE_LEVELS, nearestConfidence } from '../../../api/types.js';
import type { Context } from '../../../context.js';
import { CancelledError } from '../../../errors.js';
import { keep } from '../../../domain/outbox.js';
import { quoted } from '../../../ui/editor-text.js';
import { printOne, viewFor } from '../../../ui/output.js';
import { sayDone } from '../../../ui/success.js';
import { goalHeaderView, goalUpdatePreview, goalUpdateView } from '../../../ui/views.js';
import { keptLine, type Run } from '../../flags.js';
import { contentOptions, gather, uuid, writeGoalUpdate, type GoalUpdateContentOptions } from './content.js';
import { askedHere } from '../../../domain/asked.js';

export interface GoalUpdateCreateOptions extends GoalUpdateContentOptions {
  goalId: string;
}

export function goalUpdateCreateCommand(ctx: Context, run: Run<GoalUpdateCreateOptions> = runGoalUpdateCreate) {
  return contentOptions(new Command('create'))
    .argument('<goal-id>', 'the goal (find ids with `checkin goals`)')
    .description('Post a goal update')
    .addHelpText('after', '\nExample:\n  checkin goal update <goal-id> --title "Invoices shipped" --body - --progress 60 --confidence on-track < notes.md')
    .action((goalId, opts) => run(ctx, { ...opts, goalId }));
}

async function askProgress(ctx: Context, suggested: number): Promise<number> {
  for (;;) {
    const typed = (await ctx.prompter().input('Progress (0–100 %)', { default: String(suggested) })).trim().replace(/%$/, '');
    if (/^\d{1,3}$/.test(typed) && Number(typed) <= 100) return Number(typed);
    ctx.io.err('Progress is a whole number from 0 to 100.\n');
  }
}

export async function runGoalUpdateCreate(ctx: Context, opts: GoalUpdateCreateOptions): Promise<void> {
  // A short id from what was listed before: no request before what is typed is kept.
  const id = await uuid(ctx, opts.goalId, 'The goal id', { cacheOnly: true });
  const api = await ctx.api();
  const posted = await writeGoalUpdate(ctx, {
    target: { kind: 'goal-update', goalId: id },
    resume: opts.resume,
    flags: opts,
    what: 'an update of this goal',
    gather: async () => {
      const asking = ctx.io.canPrompt && (opts.title === undefined || opts.body === undefined || opts.edit);
      if (!asking) return gather(ctx, opts, {}, true, { kind: 'goal-update', goalId: id });
      // Context for the person writing: the goal and its latest update.
      const [goal, [latest]] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: 1 })]);
      const view = await viewFor(ctx.io, ctx.now());
      ctx.io.out(goalHeaderView(view, goal, latest));
      const context = [
        `A goal update on “${goal.title}”${goal.progress != null ? ` (progress ${goal.progress}%)` : ''}.`,
        ...(latest ? [`The latest update, “${latest.title}”:`, ...quoted(latest.body ?? '')] : ['It has no updates yet.']),
      ];
      const input = await gather(ctx, opts, { context }, true, { kind: 'goal-update', goalId: id });
      const p = ctx.prompter();
      // Progress and confidence, the latest update's as defaults (what the service would carry forward).
      if (input.progress === undefined) input.progress = await askProgress(ctx, latest?.progress ?? goal.progress ?? 1);
      if (input.confidence === undefined) {
        const now = latest?.confidence ?? goal.confidence ?? 90;
        input.confidence = await p.select<number>(
          'Confidence',
          [...CONFIDENCE_LEVELS].reverse().map((l) => ({ name: l.label, value: l.value })),
          { default: nearestConfidence(now).value },
        );
      }
      keep(ctx, { kind: 'goal-update', goalId: id }, { kind: 'goal-update', input });
      ctx.io.err(view.c.dim('\nPreview (not posted yet):\n'));
      ctx.io.out(goalUpdatePreview(view, goal.title, input));
      if (!(await p.confirm(askedHere(ctx, 'Post it?'), { default: true }))) {
        throw new CancelledError(`Not posted. ${keptLine(ctx, `checkin goal update ${id} --resume`)}`);
      }
      return input;
    },
  });
  for (const created of posted) {
    await sayDone(ctx.io, ctx.now(), 'Posted the goal update', { link: created.url, json: opts.json });
    await printOne(ctx.io, ctx.now(), created, opts.json, goalUpdateView);
  }
}
