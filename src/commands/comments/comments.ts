// `checkin comments <key>`: the comments on a check-in (or, with --goal-update, a goal update);
// --add, --edit or --resume posts one, kept as a draft until the service accepted it.
import { Command } from '@commander-js/extra-typings';
import { allComments } from '../../api/endpoints.js';
import type { Comment } from '../../api/types.js';
import type { Context } from '../../context.js';
import { parseKey } from '../../core/keys.js';
import { UsageError, withHint } from '../../errors.js';
import { todayWithoutRequest } from '../../domain/days.js';
import { postCommentKept } from '../../domain/writes.js';
import { commentBody, dropOwn, personDraft, editKept, newestToEdit, keep, resumeEach, retarget, type DraftTarget, type Entry } from '../../domain/outbox.js';
import { withoutContext } from '../../ui/editor-text.js';
import { JSON_FIELDS, printList, printOne } from '../../ui/output.js';
import { sayDone } from '../../ui/success.js';
import { commentRows } from '../../ui/views.js';
import { joinLines, keptLine, type Run } from '../flags.js';
import { commentable, commentableOptions, personOf, type CommentableOptions } from './commentable.js';

export interface CommentsOptions extends CommentableOptions {
  add?: string;
  edit?: boolean;
  resume?: boolean;
}

export function commentsCommand(ctx: Context, run: Run<CommentsOptions> = runComments) {
  return commentableOptions(new Command('comments'), JSON_FIELDS.comment)
    .description('List the comments on a check-in (or goal update); --add posts one')
    .option('--add <markdown>', 'post a comment (- reads standard input; repeated: one line each, in order)', joinLines('--add'))
    .option('-e, --edit', 'write the comment in $EDITOR')
    .option('--resume', 'send the comment kept from a failed attempt')
    .addHelpText(
      'after',
      '\nExamples:\n  checkin comments yesterday\n  checkin comments today @grace --add "Nice work!"\n  checkin comments <check-in-uuid> --add "Nice work @ada"',
    )
    .action((key, opts, cmd) => {
      const person = personOf(cmd.args);
      return run(ctx, { ...opts, ...(key !== undefined && { key }), ...(person !== undefined && { person }) });
    });
}

export async function runComments(ctx: Context, opts: CommentsOptions): Promise<void> {
  const writing = opts.add !== undefined || opts.edit || opts.resume;
  if (opts.edit && !ctx.io.stdinIsTTY)
    throw new UsageError('--edit needs a terminal for the editor', 'Give the text with --add "…" (or --add - to read it from standard input).');
  if ([opts.add !== undefined, opts.edit, opts.resume].filter(Boolean).length > 1) throw new UsageError('Give one of --add, --edit and --resume');
  // Read the typed text before any request, and keep it under the name the user gave (a date key
  // is worked out here, with no request): finding the check-in can fail, the text is not lost.
  let body: string | undefined;
  if (opts.add !== undefined) body = opts.add === '-' ? await ctx.io.readStdin() : opts.add;
  if (body !== undefined && body.trim() === '') throw new UsageError('The comment is empty; nothing was sent');
  const addressed = writing ? await addressedAs(ctx, opts) : undefined;
  if (body !== undefined && addressed) keep(ctx, addressed, { kind: 'comment', body }, opts.add === '-' ? 'piped' : 'typed');
  // The command that sends it again names the day as kept (a date, not "today", which moves on).
  const again =
    opts.goalUpdate !== undefined || opts.key === undefined
      ? `checkin comments --goal-update ${opts.goalUpdate} --resume`
      : opts.person !== undefined && addressed
        ? `checkin comments ${
            personDraft(addressed.kind === 'comment' ? addressed.id : '')
              ?.map((w) => (/\s/.test(w) ? JSON.stringify(w) : w))
              .join(' ') ?? opts.key
          } --resume`
        : `checkin comments ${opts.key} --resume`;

  let target;
  try {
    target = await commentable(ctx, opts);
  } catch (err) {
    throw body !== undefined && addressed ? withHint(err, keptLine(ctx, again)) : err;
  }
  if (!target) {
    // Nothing to comment on (no check-in that day): the words stay kept, and a script must not read success.
    if (body !== undefined && addressed) throw new UsageError('There is no check-in to comment on that day; nothing was sent', keptLine(ctx, again));
    return;
  }
  const api = await ctx.api();
  if (!writing) {
    const list = await allComments(api, target);
    return printList(ctx.io, ctx.now(), list, opts.json, 'No comments yet.', commentRows);
  }

  const draftTarget = { kind: 'comment', on: target.kind, id: target.id } as const;
  // Kept under the name the user gave (a date): this run's entry now names the check-in itself.
  if (addressed) retarget(ctx, addressed, draftTarget);
  const names = addressed ? [draftTarget, addressed] : [draftTarget];
  if (opts.resume) {
    // Every comment kept for it, oldest first, each posted once.
    const sent = await resumeEach(ctx, names, `this ${target.kind}`, again, (e, k) => postCommentKept(ctx, target, commentBody(e), k));
    for (const { result } of sent) await showPosted(ctx, target.kind, result, opts.json);
    return;
  }
  let folds: Entry[] = [];
  if (opts.edit) {
    // The newest comment kept for it is where writing starts again; once this is posted, it is done with.
    const newest = newestToEdit(ctx, names, ['comment', 'text']);
    // The editor's file is this run's draft from the start: a closed terminal leaves what was saved.
    body = withoutContext(await editKept(ctx, draftTarget, newest ? commentBody(newest, { orEmpty: true }) : ''));
    if (body.trim() === '') {
      dropOwn(ctx, draftTarget);
      throw new UsageError('The comment is empty; nothing was sent');
    }
    if (newest) folds = [newest];
  }
  const text = body!;
  const created = await postCommentKept(ctx, target, text, { made: opts.edit ? 'editor' : opts.add === '-' ? 'piped' : 'typed', folds, resume: again, names });
  await showPosted(ctx, target.kind, created, opts.json);
}

async function showPosted(ctx: Context, on: 'check-in' | 'goal-update', created: Comment, json: CommentsOptions['json']): Promise<void> {
  await sayDone(ctx.io, ctx.now(), `Commented on the ${on === 'check-in' ? 'check-in' : 'goal update'}`, { json });
  await printOne(ctx.io, ctx.now(), created, json, (v, c) => commentRows(v, [c]));
}

/** The draft name of a comment as the user addressed it, worked out with no request (undefined for `last`). */
async function addressedAs(ctx: Context, opts: CommentsOptions): Promise<DraftTarget | undefined> {
  if (opts.goalUpdate !== undefined) return { kind: 'comment', on: 'goal-update', id: opts.goalUpdate };
  if (opts.key === undefined) return undefined;
  // Someone else's check-in on a day: kept under the day (a date, or `last`) and the name given
  // until it is found; `checkin drafts send` can find it from that too (domain/outbox.ts).
  if (opts.person !== undefined) {
    let day = opts.key;
    try {
      const key = parseKey(opts.key, todayWithoutRequest(ctx));
      if (key.kind === 'date') day = key.date;
    } catch {
      // a bad key: commentable() says so
    }
    return { kind: 'comment', on: 'check-in', id: `${day} ${opts.person}` };
  }
  try {
    // Today as known without a request (the words are kept before the first one).
    const key = parseKey(opts.key, todayWithoutRequest(ctx));
    if (key.kind === 'uuid') return { kind: 'comment', on: 'check-in', id: key.id };
    if (key.kind === 'date') return { kind: 'comment', on: 'check-in', id: key.date };
  } catch {
    // a bad key: commentable() says so; the words are kept under it as given meanwhile
  }
  // `last` (or a key not read yet): kept under the name given until the check-in is known.
  return { kind: 'comment', on: 'check-in', id: opts.key };
}
