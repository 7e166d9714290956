// The writes both faces make besides a check-in's answers (send-checkin.ts `sendAnswers`), each one
// operation: its one request, with what was typed kept as an outbox entry until the service
// accepted it (outbox.ts `sendWithDraft`). The CLI (comments, inbox replies, goal update, log) and
// the agent face (send_comment, send_goal_update, log_activity) call these; each face says what
// came of it. Nothing here prints or names a command.

import { createGoalUpdate, postActivity, postComment, type Commentable } from '../api/endpoints.js';
import type { Activity, ActivityInput, Comment, GoalUpdate, GoalUpdateInput } from '../api/types.js';
import type { Context } from '../context.js';
import { sendWithDraft, type Write } from './outbox.js';

/**
 * How a write is kept while it goes out: an entry kept earlier (`entry`, with its `claim`), or the
 * content typed now (made as `made`), and what the outbox says of it; see outbox.ts `Write`.
 * The operation knows its target and its request.
 */
export type Keeping = Omit<Write<unknown>, 'target' | 'send' | 'content'>;

/** The entry's content when nothing was kept earlier: what is typed now is kept before it is sent. */
const typedNow = <C>(keeping: Keeping, content: C) => (keeping.entry ? {} : { content });

/** A comment (or a reply in a thread) on a check-in or a goal update: one POST. */
export function postCommentKept(ctx: Context, on: Commentable, body: string, keeping: Keeping = {}): Promise<Comment> {
  return sendWithDraft(ctx, {
    target: { kind: 'comment', on: on.kind, id: on.id },
    ...typedNow(keeping, { kind: 'comment' as const, body }),
    ...keeping,
    send: async () => postComment(await ctx.api(), on, body),
  });
}

/** A new update of a goal: one POST. */
export function postGoalUpdateKept(ctx: Context, goalId: string, input: GoalUpdateInput, keeping: Keeping = {}): Promise<GoalUpdate> {
  return sendWithDraft(ctx, {
    target: { kind: 'goal-update', goalId },
    ...typedNow(keeping, { kind: 'goal-update' as const, input }),
    ...keeping,
    send: async () => createGoalUpdate(await ctx.api(), goalId, input),
  });
}

/** An activity recorded: one POST. The token is asked for only once it is kept (a log from a git hook loses nothing). */
export function logActivityKept(ctx: Context, input: ActivityInput, keeping: Keeping = {}): Promise<Activity> {
  return sendWithDraft(ctx, {
    target: { kind: 'activity' },
    ...typedNow(keeping, { kind: 'activity' as const, input }),
    ...keeping,
    send: async () => postActivity(await ctx.api(), input),
  });
}
