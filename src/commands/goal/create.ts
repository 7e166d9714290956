// `checkin goal create`: a new goal — title, description, dates, owner, teams, contributors and
// parent from flags or a JSON body (--input), or asked on a terminal. What was typed is kept as a
// draft until the service took it (`--resume` sends it again).
import { Command } from '@commander-js/extra-typings';
import { createGoal } from '../../api/endpoints.js';
import type { Goal, GoalInput } from '../../api/types.js';
import type { Context } from '../../context.js';
import { resolveGoalNames } from '../../domain/account.js';
import { CancelledError, UsageError, withHint } from '../../errors.js';
import { keep, sendWithDraft } from '../../domain/outbox.js';
import { goalView } from '../../ui/goal-view.js';
import { printOne, viewFor } from '../../ui/output.js';
import { sayDone } from '../../ui/success.js';
import { keptLine, type Run } from '../flags.js';
import { askNewGoal, previewGoal } from './ask.js';
import { givenGoal, goalFieldOptions, resumeGoals, type GoalFieldOptions } from './goal-fields.js';
import { askedHere } from '../../domain/asked.js';

export type GoalCreateOptions = GoalFieldOptions;

const TARGET = { kind: 'goal' } as const;
const RESUME = 'checkin goal create --resume';

export function goalCreateCommand(ctx: Context, run: Run<GoalCreateOptions> = runGoalCreate) {
  return goalFieldOptions(new Command('create'))
    .description('Create a goal (asked on a terminal; flags or --input otherwise)')
    .addHelpText(
      'after',
      '\nExamples:\n  checkin goal create --title "Reduce p95 API latency" --end-date 2027-06-30 --team Platform --contributor @linus\n  checkin goal create --input goal.json\n  echo \'{"title": "Write the on-call handbook", "owner_id": "me"}\' | checkin goal create --input - --json',
    )
    .action((opts) => run(ctx, opts));
}

export async function runGoalCreate(ctx: Context, opts: GoalCreateOptions): Promise<void> {
  const api = await ctx.api();
  let kept = false;
  const keepTyped = async (i: GoalInput) => {
    kept = Boolean(keep(ctx, TARGET, { kind: 'goal', input: { ...i } }, given.piped ? 'piped' : 'typed')) || kept;
  };
  if (opts.resume) {
    for (const created of await resumeGoals(ctx, TARGET, opts, 'a new goal', RESUME, (body) => createGoal(api, body)))
      await showCreated(ctx, created, opts.json);
    return;
  }
  const given = await givenGoal(ctx, opts);
  let input: GoalInput = given.input;
  const { fromFile } = given;
  if (given.piped) await keepTyped(input);
  {
    const missingTitle = typeof input.title !== 'string' || input.title.trim() === '';
    const asking = opts.input === undefined && (missingTitle || opts.edit);
    if (asking && !ctx.io.canPrompt) {
      if (opts.edit)
        throw new UsageError('--edit needs a terminal for the editor', 'Give the description as an option: --description "…" (- reads standard input).');
      throw new UsageError('A goal needs a title', 'Give it as an option: --title "…" (or "title" in the --input body).');
    }
    if (asking) {
      // Ctrl-C at a question, once something typed is kept: say so, and how to go on.
      const asked = await askNewGoal(ctx, input, Boolean(opts.edit), keepTyped).catch((err: unknown) => {
        if (err instanceof CancelledError && err.message === 'Cancelled' && kept) throw new CancelledError(`Not created. ${keptLine(ctx, RESUME)}`);
        throw err;
      });
      input = asked.input;
      await keepTyped(input);
      ctx.io.err((await viewFor(ctx.io, ctx.now())).c.dim('\nPreview (not created yet):\n'));
      await previewGoal(ctx, input, asked.shown);
      if (!(await ctx.prompter().confirm(askedHere(ctx, 'Create it?'), { default: true }))) {
        throw new CancelledError(`Not created. ${keptLine(ctx, RESUME)}`);
      }
    } else if (missingTitle && opts.input !== undefined && input.title === undefined) {
      throw new UsageError('A goal needs a title', 'Add "title" to the --input body, or give --title "…".');
    }
  }
  const body = await withKeptHint(ctx, kept, () => resolveGoalNames(ctx, input));
  const created = await sendWithDraft(ctx, {
    target: TARGET,
    // A body from a file is kept there; what was typed or piped is kept as a draft.
    content: fromFile ? undefined : { kind: 'goal', input },
    made: given.piped ? 'piped' : 'typed',
    resume: RESUME,
    send: () => createGoal(api, body),
  });
  await showCreated(ctx, created, opts.json);
}

async function showCreated(ctx: Context, created: Goal, json: GoalCreateOptions['json']): Promise<void> {
  await sayDone(ctx.io, ctx.now(), 'Created the goal', { link: typeof created.url === 'string' ? created.url : undefined, json });
  await printOne(ctx.io, ctx.now(), created, json, goalView);
}

/** A name that is not found, once prose was kept: say how to send it with the name fixed. */
export async function withKeptHint<T>(ctx: Context, kept: boolean, f: () => Promise<T>, resume = RESUME): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (!kept || !(err instanceof UsageError)) throw err;
    throw withHint(err, `${keptLine(ctx, resume)} Give the name fixed with it (--owner, --team, --contributor).`);
  }
}
