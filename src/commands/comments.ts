// `checkin comments <key>` and `checkin reactions <key>`, on a check-in or (--goal-update) a goal update.
import { getCheckIn, postComment, resourcePath, type Commentable } from '../api/endpoints.js';
import { fetchAll } from '../api/paginate.js';
import { UUID_RE, type Comment, type Reaction } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { sendWithDraft } from './drafts.js';
import { renderJson } from '../ui/render.js';
import { printList } from './output.js';
import { commentRows, reactionRows } from '../ui/views.js';
import { isNotFound } from './fill.js';
import { resolveCheckInKey } from './resolve.js';

export interface ResourceOptions {
  goalUpdate?: string;
  json?: boolean;
}

/** The check-in (by any key) or goal update that comments and reactions hang on; undefined when a date has none. */
async function resource(ctx: Context, key: string | undefined, opts: ResourceOptions): Promise<Commentable | undefined> {
  if (opts.goalUpdate !== undefined) {
    if (key !== undefined) throw new UsageError('Give either a check-in key or --goal-update, not both');
    if (!UUID_RE.test(opts.goalUpdate)) throw new UsageError(`--goal-update takes a goal update's UUID; "${opts.goalUpdate}" is not one`);
    return { kind: 'goal-update', id: opts.goalUpdate.toLowerCase() };
  }
  if (key === undefined) throw new UsageError('Give a check-in key (UUID, YYYY-MM-DD, today, yesterday, a weekday or last), or --goal-update ID');
  const target = await resolveCheckInKey(ctx, key);
  if (UUID_RE.test(target.key)) return { kind: 'check-in', id: target.key };
  if (target.known) return { kind: 'check-in', id: target.known.id };
  try {
    return { kind: 'check-in', id: (await getCheckIn(await ctx.api(), target.key)).id };
  } catch (err) {
    if (!isNotFound(err)) throw err;
    ctx.io.err(`No check-in scheduled for ${target.label}\n`);
    if (opts.json) ctx.io.out('[]\n');
    return undefined;
  }
}

export interface CommentOptions extends ResourceOptions {
  add?: string;
  edit?: boolean;
  resume?: boolean;
}

export async function runComments(ctx: Context, key: string | undefined, opts: CommentOptions): Promise<void> {
  const writing = opts.add !== undefined || opts.edit || opts.resume;
  if (opts.edit && !ctx.io.canPrompt) throw new UsageError('--edit needs a terminal for the editor', 'Give the text with --add "…" (or --add - to read it from standard input).');
  if ([opts.add !== undefined, opts.edit, opts.resume].filter(Boolean).length > 1) throw new UsageError('Give one of --add, --edit and --resume');
  // Read the typed text before any request, so a failure never loses it.
  let body: string | undefined;
  if (opts.add !== undefined) body = opts.add === '-' ? await ctx.io.readStdin() : opts.add;
  if (body !== undefined && body.trim() === '') throw new UsageError('The comment is empty; nothing was sent');

  const target = await resource(ctx, key, opts);
  if (!target) return;
  const api = await ctx.api();
  if (!writing) {
    const list = await fetchAll<Comment>(api, `${resourcePath(target)}/comments`, {});
    return printList(ctx, list, opts.json, 'No comments yet.', commentRows);
  }

  const draftKey = `${api.baseUrl} comment ${target.kind} ${target.id}`;
  const cfg = ctx.config();
  if (opts.resume) {
    const draft = cfg.draft(draftKey);
    if (!draft) throw new UsageError(`There is no draft comment for this ${target.kind}`);
    body = String(draft.content.body ?? '');
  } else if (opts.edit) {
    const draft = cfg.draft(draftKey);
    body = (await ctx.editText(typeof draft?.content.body === 'string' ? draft.content.body : '')).replace(/\s+$/, '');
    if (body.trim() === '') throw new UsageError('The comment is empty; nothing was sent');
  }
  const again = `checkin comments ${key ?? `--goal-update ${target.id}`} --resume`;
  const created = await sendWithDraft(ctx, draftKey, `comment on ${target.kind} ${target.id}`, { body }, () => postComment(api, target, body!),
    `Your comment was kept as a draft. If it does not show up in the list, send it with \`${again}\`.`);
  if (opts.json) return ctx.io.out(renderJson(created));
  ctx.io.err('Comment posted.\n');
  ctx.io.out(commentRows(await ctx.view(), [created]));
}

export async function runReactions(ctx: Context, key: string | undefined, opts: ResourceOptions): Promise<void> {
  const target = await resource(ctx, key, opts);
  if (!target) return;
  const list = await fetchAll<Reaction>(await ctx.api(), `${resourcePath(target)}/reactions`, {});
  await printList(ctx, list, opts.json, 'No reactions yet.', reactionRows);
}
