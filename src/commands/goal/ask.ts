// The questions `goal create` and `goal edit` ask on a terminal: only for what the flags did not
// give, each answer checked (and asked again) as it is typed; names are looked up as they are
// answered, so a wrong one is asked again rather than refused after everything was typed.
import type { Goal, GoalInput } from '../../api/types.js';
import { loggedInToken, type Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { me, resolvePeople } from '../../domain/account.js';
import { withContext, withoutContext } from '../../ui/editor-text.js';
import { goalLines, type GoalShown } from '../../ui/goal-view.js';
import { viewFor } from '../../ui/output.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { wrap } from '../../ui/wrap.js';
import { parseGoalDate, parseParent } from './goal-fields.js';

/** Asks until `parse` takes the answer (its UsageError is said, then asked again). */
async function askUntil<T>(ctx: Context, message: string, parse: (typed: string) => T | Promise<T>, def = ''): Promise<T> {
  for (;;) {
    const typed = (await ctx.prompter().input(message, { default: def })).trim();
    try {
      return await parse(typed);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      ctx.io.err(wrap(`${err.message}\n`, ctx.io.columns));
    }
  }
}

const dateOrEmpty = (flag: string) => (typed: string) => (typed === '' ? null : parseGoalDate(typed, flag));

/** The description: in $EDITOR (--edit), else as lines at the prompt (an empty line ends it). */
async function askDescription(ctx: Context, title: string, current: string | null | undefined, editor: boolean): Promise<string> {
  if (editor) {
    const written = await ctx.editor().edit(withContext([`The description of the goal “${title}” (Markdown).`], current ?? ''));
    return withoutContext(written).replace(/\s+$/, '');
  }
  const lines = current ? current.split('\n') : [];
  return (await ctx.prompter().lines('Description (Markdown; an empty line ends it)', { lines })).replace(/\s+$/, '');
}

/** The title, asked until it is not empty. */
async function askTitle(ctx: Context, current = ''): Promise<string> {
  for (;;) {
    const title = (await ctx.prompter().input('Title', { default: current })).trim();
    if (title !== '') return title;
    ctx.io.err('A goal needs a title.\n');
  }
}

/**
 * A new goal's fields, asked for what `input` lacks; `keepTyped` is told each time typed prose
 * changes (it is kept as a draft). Returns the fields and how the preview names them.
 */
export async function askNewGoal(
  ctx: Context,
  input: GoalInput,
  editor: boolean,
  keepTyped: (input: GoalInput) => Promise<void>,
): Promise<{ input: GoalInput; shown: GoalShown }> {
  const p = ctx.prompter();
  p.warm?.();
  const out: GoalInput = { ...input };
  const shown: GoalShown = {};
  if (out.title === undefined || out.title.trim() === '') {
    out.title = await askTitle(ctx);
    await keepTyped(out);
  }
  if (out.description === undefined || editor) {
    const d = await askDescription(ctx, out.title, out.description, editor);
    if (d !== '') out.description = d;
    else delete out.description;
    await keepTyped(out);
  }
  if (!('start_date' in out)) {
    const d = await askUntil(ctx, 'Start date (YYYY-MM-DD, empty for none)', dateOrEmpty('The start date'));
    if (d) out.start_date = d;
  }
  if (!('end_date' in out)) {
    const d = await askUntil(ctx, 'Due date (YYYY-MM-DD, empty for none)', dateOrEmpty('The due date'));
    if (d) out.end_date = d;
  }
  if (out.owner_id === undefined) {
    const [owner, name] = await askUntil(
      ctx,
      'Owner (me, a name or @username)',
      async (typed) => [(await resolvePeople(ctx, [typed || 'me']))[0]!, typed || 'me'] as const,
      'me',
    );
    out.owner_id = owner;
    shown.owner = name;
  }
  if (out.team_ids === undefined) {
    const mine = (await me(ctx)).teams;
    if (mine.length > 0)
      out.team_ids = await p.checkbox(
        'Teams',
        mine.map((t) => ({ name: t.name, value: t.id })),
      );
    shown.teams = mine.filter((t) => out.team_ids?.includes(t.id)).map((t) => sanitizeLine(t.name));
  }
  if (out.contributor_ids === undefined) {
    const typed = await askUntil(
      ctx,
      'Contributors (names or @usernames, comma-separated; empty for none)',
      async (t) => [t, t === '' ? [] : await resolvePeople(ctx, [t])] as const,
    );
    out.contributor_ids = typed[1];
    shown.contributors = typed[0] === '' ? [] : typed[0].split(',').map((s) => sanitizeLine(s.trim()));
  }
  if (out.parent_id === undefined) {
    const api = await ctx.api();
    const cached = ctx.config().cached(api.baseUrl, loggedInToken(ctx).value, 'goals') ?? [];
    let parent: string | null;
    if (cached.length > 0) {
      parent = await p.select<string | null>('Parent goal', [{ name: 'None', value: null }, ...cached.map((g) => ({ name: g.title, value: g.id }))], {
        default: null,
      });
      shown.parent = parent ? sanitizeLine(cached.find((g) => g.id === parent)?.title ?? parent) : undefined;
    } else {
      parent = await askUntil(ctx, 'Parent goal id (empty for none)', (t) => (t === '' ? null : parseParent(t, 'The parent')));
      shown.parent = parent ?? undefined;
    }
    if (parent) out.parent_id = parent;
  }
  return { input: out, shown };
}

/** Changes to a goal, asked with its current values as defaults: title, description, dates. Only what changed is returned. */
export async function askGoalChanges(ctx: Context, current: Goal, editor: boolean): Promise<GoalInput> {
  ctx.prompter().warm?.();
  const out: GoalInput = {};
  const title = await askTitle(ctx, current.title);
  if (title !== current.title) out.title = title;
  const was = typeof current.description === 'string' ? current.description : null;
  const description = await askDescription(ctx, title, was, editor);
  if (description !== (was ?? '').replace(/\s+$/, '')) out.description = description === '' ? null : description;
  const start = typeof current.start_date === 'string' ? current.start_date : '';
  const s = await askUntil(ctx, 'Start date (YYYY-MM-DD, none to clear)', (t) => (t === '' ? null : parseGoalDate(t, 'The start date')), start);
  if ((s ?? '') !== start) out.start_date = s;
  const due = current.end_date ?? '';
  const e = await askUntil(ctx, 'Due date (YYYY-MM-DD, none to clear)', (t) => (t === '' ? null : parseGoalDate(t, 'The due date')), due);
  if ((e ?? '') !== due) out.end_date = e;
  return out;
}

/** The goal about to be sent, for a look before it goes. */
export async function previewGoal(ctx: Context, input: GoalInput, shown: GoalShown): Promise<void> {
  const v = await viewFor(ctx.io, ctx.now());
  ctx.io.out(
    goalLines(v, {
      ...(input.title !== undefined && { title: input.title }),
      ...shown,
      ...('start_date' in input && { start_date: input.start_date }),
      ...('end_date' in input && { end_date: input.end_date }),
      ...('description' in input && { description: input.description }),
    }),
  );
}
