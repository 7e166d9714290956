// `checkin goal edit <goal-id>`: change a goal — only the fields given (flags or --input); on a
// terminal with nothing given, its title, description and dates are asked with the current ones
// as defaults, and only what changed is sent. Kept as a draft until the service took it.
import { Command } from '@commander-js/extra-typings';
import { getGoal, patchGoal } from '../../api/endpoints.js';
import type { Goal, GoalInput } from '../../api/types.js';
import type { Context } from '../../context.js';
import { resolveGoalNames } from '../../domain/account.js';
import { CancelledError, UsageError } from '../../errors.js';
import { keep, sendWithDraft } from '../../domain/outbox.js';
import { withContext, withoutContext } from '../../ui/editor-text.js';
import { goalView } from '../../ui/goal-view.js';
import { printOne, viewFor } from '../../ui/output.js';
import { sayDone } from '../../ui/success.js';
import { keptLine, type Run } from '../flags.js';
import { askGoalChanges, previewGoal } from './ask.js';
import { withKeptHint } from './create.js';
import { givenGoal, goalFieldOptions, resumeGoals, type GoalFieldOptions } from './goal-fields.js';
import { uuid } from './update/content.js';
import { askedHere } from '../../domain/asked.js';

export interface GoalEditOptions extends GoalFieldOptions {
  goalId: string;
}

export function goalEditCommand(ctx: Context, run: Run<GoalEditOptions> = runGoalEdit) {
  return goalFieldOptions(new Command('edit'))
    .argument('<goal-id>', 'the goal (find ids with `checkin goals`)')
    .description('Change a goal (only what is given; asked on a terminal when nothing is)')
    .addHelpText(
      'after',
      '\nExamples:\n  checkin goal edit <goal-id> --end-date 2027-07-31 --contributor @grace,@linus\n  checkin goal edit <goal-id> --parent none --team none\n  checkin goal edit <goal-id> --input changes.json',
    )
    .action((goalId, opts) => run(ctx, { ...opts, goalId }));
}

const NOTHING = 'Nothing to change: give --title, --description, --start-date, --end-date, --owner, --team, --contributor, --parent or --input (or --edit)';

export async function runGoalEdit(ctx: Context, opts: GoalEditOptions): Promise<void> {
  // A short id from what was listed before: no request before what is typed is kept.
  const id = await uuid(ctx, opts.goalId, 'The goal id', { cacheOnly: true });
  const api = await ctx.api();
  const target = { kind: 'goal-edit', id } as const;
  const resume = `checkin goal edit ${id} --resume`;
  if (opts.resume) {
    for (const updated of await resumeGoals(ctx, target, opts, 'changes to this goal', resume, (body) => patchGoal(api, id, body)))
      await showSaved(ctx, updated, opts.json);
    return;
  }
  const given = await givenGoal(ctx, opts);
  let input: GoalInput = given.input;
  const { fromFile } = given;
  let kept = false;
  {
    if (given.piped) kept = Boolean(keep(ctx, target, { kind: 'goal', input }, 'piped'));
    const nothingGiven = Object.keys(input).length === 0 && opts.input === undefined;
    const asking = opts.edit || (nothingGiven && ctx.io.canPrompt);
    if (asking && !ctx.io.stdinIsTTY)
      throw new UsageError('--edit needs a terminal for the editor', 'Give the description as an option: --description "…" (- reads standard input).');
    if (asking) {
      const current = await getGoal(api, id);
      if (nothingGiven) {
        input = await askGoalChanges(ctx, current, Boolean(opts.edit));
        if (Object.keys(input).length === 0) {
          ctx.io.err('Nothing changed; nothing was sent.\n');
          return;
        }
        kept = Boolean(keep(ctx, target, { kind: 'goal', input }));
        ctx.io.err((await viewFor(ctx.io, ctx.now())).c.dim('\nThe changes (not saved yet):\n'));
        await previewGoal(ctx, input, {});
        if (!(await ctx.prompter().confirm(askedHere(ctx, 'Save the changes?'), { default: true })))
          throw new CancelledError(`Not saved. ${keptLine(ctx, resume)}`);
      } else {
        // --edit with other fields given: the description in the editor, the rest as given.
        const was = input.description ?? (typeof current.description === 'string' ? current.description : '');
        const written = withoutContext(await ctx.editor().edit(withContext([`The description of the goal “${current.title}” (Markdown).`], was))).replace(
          /\s+$/,
          '',
        );
        input.description = written === '' ? null : written;
        kept = Boolean(keep(ctx, target, { kind: 'goal', input }));
      }
    }
    if (Object.keys(input).length === 0) throw new UsageError(NOTHING);
  }
  const body = await withKeptHint(ctx, kept, () => resolveGoalNames(ctx, input), resume);
  const updated = await sendWithDraft(ctx, {
    target,
    // A body from a file is kept there; what was typed or piped is kept as a draft.
    content: fromFile ? undefined : { kind: 'goal', input },
    made: given.piped ? 'piped' : opts.edit ? 'editor' : 'typed',
    resume,
    send: () => patchGoal(api, id, body),
  });
  await showSaved(ctx, updated, opts.json);
}

async function showSaved(ctx: Context, updated: Goal, json: GoalEditOptions['json']): Promise<void> {
  await sayDone(ctx.io, ctx.now(), 'Saved the goal', { link: typeof updated.url === 'string' ? updated.url : undefined, json });
  await printOne(ctx.io, ctx.now(), updated, json, goalView);
}
