// `checkin goals`, `checkin goal update <goal-id>`, `checkin goal updates <goal-id>` and
// `checkin goal updates show|edit|delete <update-id>`.
import { createGoalUpdate, deleteGoalUpdate, getGoal, getGoalUpdate, listGoalUpdates, patchGoalUpdate } from '../api/endpoints.js';
import { fetchAll } from '../api/paginate.js';
import { CONFIDENCE_LEVELS, UUID_RE, type Goal, type GoalUpdate, type GoalUpdateInput } from '../api/types.js';
import type { Context } from '../context.js';
import { CancelledError, UsageError } from '../errors.js';
import { sendWithDraft } from './drafts.js';
import { renderJson } from '../ui/render.js';
import { sanitizeLine } from '../ui/sanitize.js';
import { printList } from './output.js';
import { goalRows, goalUpdateRows, goalUpdateView } from '../ui/views.js';
import { resolvePeople, resolveTeams } from './resolve.js';

export interface GoalUpdateFlags {
  title?: string;
  body?: string;
  edit?: boolean;
  progress?: number;
  confidence?: string;
  json?: boolean;
  yes?: boolean;
  resume?: boolean;
}

function uuid(value: string, what: string): string {
  if (!UUID_RE.test(value)) throw new UsageError(`${what} must be a UUID; "${value}" is not one`, what === 'The goal id' ? 'List your goals and their ids with `checkin goals`.' : undefined);
  return value.toLowerCase();
}

/** on-track | at-risk | off-track | 30 | 60 | 90 → the value the service stores. */
export function parseConfidence(value: string): number {
  const v = value.trim().toLowerCase();
  const level = CONFIDENCE_LEVELS.find((l) => l.slug === v || String(l.value) === v || l.label.toLowerCase() === v);
  if (!level) throw new UsageError(`--confidence takes on-track, at-risk, off-track, 90, 60 or 30; got "${value}"`);
  return level.value;
}

export async function runGoals(ctx: Context, opts: { person?: string[]; team?: string[]; json?: boolean }): Promise<void> {
  const team_ids = await resolveTeams(ctx, opts.team);
  // Mine by default: how users find goal ids.
  const people_ids = opts.person?.length ? await resolvePeople(ctx, opts.person) : team_ids.length ? [] : [(await ctx.me()).id];
  const list = await fetchAll<Goal>(await ctx.api(), 'goals', { people_ids, team_ids });
  await printList(ctx, list, opts.json, 'No goals match.', goalRows);
}

/** Reads --body (or stdin with -); fills what is missing from prompts or $EDITOR on a terminal. */
async function gather(ctx: Context, flags: GoalUpdateFlags, current: { title?: string; body?: string }, needAll: boolean): Promise<GoalUpdateInput> {
  const input: GoalUpdateInput = {};
  if (flags.title !== undefined) input.title = flags.title;
  if (flags.body !== undefined) input.body = flags.body === '-' ? (await ctx.io.readStdin()).replace(/\s+$/, '') : flags.body;
  if (flags.progress !== undefined) input.progress = flags.progress;
  if (flags.confidence !== undefined) input.confidence = parseConfidence(flags.confidence);
  const missing = needAll && (input.title === undefined || input.body === undefined);
  if (flags.edit || missing) {
    if (!ctx.io.canPrompt) {
      throw new UsageError(flags.edit ? '--edit needs a terminal for the editor' : 'A goal update needs --title and --body', 'Give them as options: --title "…" --body "…" (--body - reads standard input).');
    }
    if (input.title === undefined) input.title = await ctx.prompter().input('Title', { default: current.title ?? '' });
    if (input.body === undefined || flags.edit) {
      input.body = (await ctx.editText(input.body ?? current.body ?? '')).replace(/\s+$/, '');
    }
  }
  if (input.title !== undefined && input.title.trim() === '') throw new UsageError('The title is empty; nothing was sent');
  return input;
}

export async function runGoalUpdate(ctx: Context, goalId: string, flags: GoalUpdateFlags): Promise<void> {
  const id = uuid(goalId, 'The goal id');
  const api = await ctx.api();
  const cfg = ctx.config();
  const draftKey = `${api.baseUrl} goal-update ${id}`;
  let input: GoalUpdateInput;
  if (flags.resume) {
    const draft = cfg.draft(draftKey);
    if (!draft) throw new UsageError('There is no draft goal update for this goal');
    input = draft.content as GoalUpdateInput;
  } else {
    if (ctx.io.canPrompt && (flags.title === undefined || flags.body === undefined || flags.edit)) {
      // Context for the person writing: the goal and its latest update.
      const [goal, latest] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: 1 })]);
      const v = await ctx.view();
      ctx.io.out(`${v.c.bold(sanitizeLine(goal.title))} — progress ${goal.progress ?? '—'}%, ${sanitizeLine(goal.confidence_description ?? 'no update yet')}\n`);
      if (latest[0]) ctx.io.out(`Latest update:\n${goalUpdateView(v, latest[0])}\n`);
    }
    input = await gather(ctx, flags, {}, true);
  }
  const created = await sendWithDraft(ctx, draftKey, `goal update on ${id}`, input, () => createGoalUpdate(api, id, input),
    `Your update was kept as a draft. If it does not show up in \`checkin goal updates ${id}\`, send it with \`checkin goal update ${id} --resume\`.`);
  if (flags.json) return ctx.io.out(renderJson(created));
  ctx.io.err('Goal update posted.\n');
  ctx.io.out(goalUpdateView(await ctx.view(), created));
}

export async function runGoalUpdates(ctx: Context, args: string[], flags: GoalUpdateFlags): Promise<void> {
  const [first, second, ...rest] = args;
  if (first === undefined) throw new UsageError('Give a goal id, or show|edit|delete and an update id');
  const api = await ctx.api();
  if (first === 'show' || first === 'edit' || first === 'delete') {
    if (second === undefined || rest.length > 0) throw new UsageError(`Usage: checkin goal updates ${first} <update-id>`);
    const id = uuid(second, 'The update id');
    if (first === 'show') {
      const u = await getGoalUpdate(api, id);
      return ctx.io.out(flags.json ? renderJson(u) : goalUpdateView(await ctx.view(), u));
    }
    if (first === 'delete') {
      if (!flags.yes) {
        if (!ctx.io.canPrompt) throw new UsageError('Deleting needs confirmation', 'Add --yes to delete without a terminal.');
        const u = await getGoalUpdate(api, id);
        ctx.io.out(goalUpdateView(await ctx.view(), u));
        if (!(await ctx.prompter().confirm('Delete this goal update?', { default: false }))) throw new CancelledError('Not deleted');
      }
      await deleteGoalUpdate(api, id);
      return ctx.io.err(`Deleted goal update ${id}\n`);
    }
    const needsCurrent = ctx.io.canPrompt && (flags.edit || (flags.title === undefined && flags.body === undefined && flags.progress === undefined && flags.confidence === undefined));
    const current = needsCurrent ? await getGoalUpdate(api, id) : undefined;
    const input = await gather(ctx, { ...flags, edit: flags.edit || Boolean(needsCurrent && flags.body === undefined) }, current ?? {}, false);
    if (Object.keys(input).length === 0) throw new UsageError('Nothing to change: give --title, --body, --progress or --confidence (or --edit)');
    const u = await patchGoalUpdate(api, id, input);
    return ctx.io.out(flags.json ? renderJson(u) : goalUpdateView(await ctx.view(), u));
  }
  if (second !== undefined) throw new UsageError(`Unexpected "${second}": checkin goal updates <goal-id>`);
  const list = await fetchAll<GoalUpdate>(api, `goals/${uuid(first, 'The goal id')}/goal-updates`, {});
  await printList(ctx, list, flags.json, 'No updates yet.', goalUpdateRows);
}
