// What the goal-update commands share: ids, confidence levels, the content options, and
// gathering the content from flags, standard input, prompts or $EDITOR.
import { type Command, type OptionValues } from '@commander-js/extra-typings';
import type { GoalUpdate, GoalUpdateInput } from '../../../api/types.js';
import type { Context } from '../../../context.js';
import { UsageError, withHint } from '../../../errors.js';
import { parseConfidence } from '../../../domain/goal-updates.js';
import { AmbiguousIdError, goalIdOf, UnknownIdError } from '../../../domain/short-ids.js';
import { keep, resumeEach, type DraftTarget, type Keeping } from '../../../domain/outbox.js';
import { patchGoalUpdateKept, postGoalUpdateKept } from '../../../domain/writes.js';
import { withContext, withoutContext } from '../../../ui/editor-text.js';
import { JSON_FIELDS, jsonOption, type JsonFlag } from '../../../ui/output.js';
import { intOption, joinLines, keptLine, noPipeWithResume, once, resumeCommand } from '../../flags.js';

export interface GoalUpdateContentOptions {
  title?: string;
  body?: string;
  edit?: boolean;
  progress?: number;
  confidence?: string;
  resume?: boolean;
  json?: JsonFlag;
}

export function contentOptions<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option('--title <text>', 'the title', once('--title'))
    .option('--body <markdown>', 'the body (- reads standard input; repeated: one line each, in order)', joinLines('--body'))
    .option('-e, --edit', 'write the body in $EDITOR')
    .addOption(intOption('--progress <0..100>', 'progress in percent', 0, 100))
    .option('--confidence <level>', 'on-track, at-risk, off-track, 90, 60 or 30', once('--confidence'))
    .option('--resume', 'send what was kept from a failed attempt')
    .addOption(jsonOption(JSON_FIELDS.goalUpdate));
}

/**
 * A goal's or an update's id, lower-cased: a UUID, or its start as `checkin goals` / `goal update
 * list` show it (resolved from what was listed, else one list request); the error says where to find one.
 */
export async function uuid(ctx: Context, value: string, what: 'The goal id' | 'The update id', opts: { cacheOnly?: boolean } = {}): Promise<string> {
  const hint =
    what === 'The goal id' ? 'List your goals and their ids with `checkin goals`.' : 'List the updates of a goal with `checkin goal update list <goal-id>`.';
  try {
    return await goalIdOf(ctx, value, what, opts);
  } catch (err) {
    throw err instanceof UsageError && !(err instanceof AmbiguousIdError || err instanceof UnknownIdError) ? withHint(err, hint) : err;
  }
}

/** What the person is updating: the current title and body (edit), and lines of context for the editor (the goal, its latest update). */
export interface GoalUpdateCurrent {
  title?: string;
  body?: string;
  context?: string[];
}

/**
 * Reads --body (or stdin with -); fills what is missing from prompts or $EDITOR on a terminal.
 * What is typed is kept as a draft for `keepFor` as soon as it exists, so no refusal loses it;
 * the title is asked (and required) before the editor opens.
 */
export async function gather(
  ctx: Context,
  flags: GoalUpdateContentOptions,
  current: GoalUpdateCurrent,
  needAll: boolean,
  keepFor?: DraftTarget,
): Promise<GoalUpdateInput> {
  const input: GoalUpdateInput = {};
  const keepTyped = async () => {
    if (keepFor && (input.body !== undefined || input.title !== undefined))
      keep(ctx, keepFor, { kind: 'goal-update', input: { ...input } }, piped !== undefined ? 'piped' : 'typed');
  };
  const piped = flags.body === '-' ? (await ctx.io.readStdin()).replace(/\s+$/, '') : undefined;
  if (piped !== undefined) {
    // On disk before the other flags are checked: a bad --confidence does not lose what was piped.
    if (flags.title !== undefined) input.title = flags.title;
    input.body = piped;
    await keepTyped();
  }
  try {
    Object.assign(input, givenContent(flags, piped));
  } catch (e) {
    if (piped === undefined || !keepFor || !(e instanceof UsageError)) throw e;
    throw new UsageError(e.message, `${keptLine(ctx, `${resumeCommand(keepFor)} --confidence <on-track|at-risk|off-track>`)}`);
  }
  const missing = needAll && (input.title === undefined || input.body === undefined);
  if (flags.edit || missing) {
    if (!ctx.io.canPrompt) {
      const kept = keepFor && flags.body === '-' ? ` ${keptLine(ctx, resumeCommand(keepFor))}` : '';
      throw new UsageError(
        flags.edit ? '--edit needs a terminal for the editor' : 'A goal update needs --title and --body',
        `Give them as options: --title "…" --body "…" (--body - reads standard input).${kept}`,
      );
    }
    while (input.title === undefined || (needAll && input.title.trim() === '')) {
      input.title = (await ctx.prompter().input('Title', { default: current.title ?? '' })).trim();
      if (input.title === '') ctx.io.err('A goal update needs a title.\n');
    }
    await keepTyped();
    if (input.body === undefined || flags.edit) {
      const written = await ctx.editor().edit(withContext(current.context ?? [], input.body ?? current.body ?? ''));
      input.body = withoutContext(written).replace(/\s+$/, '');
      await keepTyped();
    }
  }
  if (input.title !== undefined && input.title.trim() === '') throw new UsageError('The title is empty; nothing was sent');
  return input;
}

export interface GoalUpdateWrite {
  target: Extract<DraftTarget, { kind: 'goal-update' | 'goal-update-edit' }>;
  resume: boolean | undefined;
  /** What it is, as "There is no draft for …" says it. */
  what: string;
  /** The content from flags, prompts and the editor (when not resuming). */
  gather: () => Promise<GoalUpdateInput>;
  /** The content flags: with --resume, what they give is added to each kept draft (a missing title, say). */
  flags: GoalUpdateContentOptions;
}

/** The domain's operation for the target: a new update posted, or an update's changes. */
function goalUpdateWrite(ctx: Context, target: GoalUpdateWrite['target'], input: GoalUpdateInput, keeping: Keeping): Promise<GoalUpdate> {
  return target.kind === 'goal-update' ? postGoalUpdateKept(ctx, target.goalId, input, keeping) : patchGoalUpdateKept(ctx, target.id, input, keeping);
}

/** A goal update written or changed: a fresh one sent with its draft, or (--resume) each kept one, oldest first. */
export async function writeGoalUpdate(ctx: Context, w: GoalUpdateWrite): Promise<GoalUpdate[]> {
  if (w.resume) {
    noPipeWithResume(resumeCommand(w.target), w.flags.body === '-');
    const sent = await resumeEach(ctx, w.target, w.what, resumeCommand(w.target), (e, k) => {
      if (e.content.kind !== 'goal-update') throw new UsageError(`The draft ${e.id} holds no goal update`);
      return goalUpdateWrite(ctx, w.target, { ...e.content.input, ...givenContent(w.flags) }, k);
    });
    return sent.map((s) => s.result);
  }
  const input = await w.gather();
  return [await goalUpdateWrite(ctx, w.target, input, { made: w.flags.body === '-' ? 'piped' : 'typed' })];
}

/** The content the flags give (with `--body -`, what was `piped`; without it, no body), as they add to a kept draft. */
function givenContent(flags: GoalUpdateContentOptions, piped?: string): GoalUpdateInput {
  const body = flags.body === '-' ? piped : flags.body;
  return {
    ...(flags.title !== undefined && { title: flags.title }),
    ...(body !== undefined && { body }),
    ...(flags.progress !== undefined && { progress: flags.progress }),
    ...(flags.confidence !== undefined && { confidence: parseConfidence(flags.confidence, '--confidence') }),
  };
}
