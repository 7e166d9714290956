// The writes both faces make besides a check-in's answers (send-checkin.ts `sendAnswers`), each one
// operation: its one request, with what was typed kept as an outbox entry until the service
// accepted it (outbox.ts `sendWithDraft`). The CLI (comments, inbox replies, goal update, log) and
// the agent face (send_comment, send_goal_update, log_activity) call these; each face says what
// came of it. `sendEntry` (`checkin drafts send`, an agent's yes) sends any kept entry through them.
// Nothing here prints; what to run is the face's words (context.ts `AdviceWords`).

import {
  createEchoQuestion,
  createGoal,
  createGoalUpdate,
  getCheckIn,
  getGoalUpdate,
  patchCheckIn,
  patchGoal,
  patchGoalUpdate,
  postActivity,
  postComment,
  type Commentable,
} from '../api/endpoints.js';
import { DATE_KEY_RE, UUID_RE, type Activity, type ActivityInput, type Comment, type GoalUpdate, type GoalUpdateInput } from '../api/types.js';
import { asSent } from '../core/blockers.js';
import { readTemplate } from '../core/checkin-answers.js';
import type { Context } from '../context.js';
import { ApiError } from '../api/errors.js';
import { CancelledError, terminal, UsageError } from '../errors.js';
import { quoted, withContext, withoutContext } from '../ui/editor-text.js';
import { sanitizeLine } from '../ui/sanitize.js';
import { resolveGoalNames } from './account.js';
import {
  askOverNewer,
  commentBody,
  editKept,
  entryDay,
  guardNewer,
  newerThan,
  replacedBy,
  whenLabel,
  personDraft,
  sendWithDraft,
  targetNoun,
  type DraftContent,
  type DraftTarget,
  type Entry,
  type Keeping,
} from './outbox.js';
import { teammateCheckInTarget } from './target.js';
import { postKept, type Posted } from './webhook.js';

export type { Keeping } from './outbox.js';

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

/** Changes to an update of a goal: one PATCH. An entry kept earlier never writes over newer words (`guardNewerUpdate`). */
export async function patchGoalUpdateKept(ctx: Context, id: string, input: GoalUpdateInput, keeping: Keeping = {}): Promise<GoalUpdate> {
  const edited = keeping.entry && (await guardNewerUpdate(ctx, id, keeping.entry, input));
  // Written again in the editor: what was written goes out, and the entry it started from goes with it.
  if (edited)
    return patchGoalUpdateKept(ctx, id, edited, {
      made: 'editor',
      folds: [keeping.entry!],
      ...(keeping.resume !== undefined && { resume: keeping.resume }),
      ...(keeping.quiet && { quiet: true }),
    });
  return sendWithDraft(ctx, {
    target: { kind: 'goal-update-edit', id },
    ...typedNow(keeping, { kind: 'goal-update' as const, input }),
    ...keeping,
    send: async () => patchGoalUpdate(await ctx.api(), id, input),
  });
}

/**
 * A resume never writes over newer words: the goal update now against the entry's base (outbox.ts
 * `newerThan`: without one, any words there that differ may be newer), as `guardNewer` holds a check-in. Newer words where it writes: a
 * terminal shows both and asks (mine: undefined; theirs: refused, kept; the editor: what was written
 * there); without one, refused.
 */
async function guardNewerUpdate(ctx: Context, id: string, entry: Entry, input: GoalUpdateInput): Promise<GoalUpdateInput | undefined> {
  let now: GoalUpdate;
  try {
    now = await getGoalUpdate(await ctx.api(), id);
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined; // the PATCH says what is wrong
    throw err;
  }
  if (replacedBy(['title', 'body'], input, now).length === 0 || !newerThan(entry, now.updated_at)) return undefined;
  const target = { kind: 'goal-update-edit', id } as const;
  const shown = (u: GoalUpdateInput) => `${u.title ?? ''}\n\n${u.body ?? ''}`.trim();
  const choice = await askOverNewer(ctx, entry, {
    what: 'the goal update',
    words: 'a goal update',
    target,
    savedAt: String(now.updated_at),
    theirs: `${shown(now)}\n\n`,
    mine: `${shown(input)}\n\n`,
  });
  if (choice === 'mine') return undefined;
  const context = [`On the service now (saved ${whenLabel(String(now.updated_at))}), “${now.title}”; take what you want from it:`, ...quoted(now.body, 40)];
  const body = withoutContext(await editKept(ctx, target, withContext(context, input.body ?? now.body)));
  if (body.trim() === '') throw new CancelledError(`Nothing was written in the editor; nothing was sent, and the draft ${entry.id} is still kept`);
  return { ...input, body };
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

export type SentEntry = { kind: 'webhook-post'; result: Posted } | { kind: Exclude<DraftTarget['kind'], 'webhook-post'>; result: unknown };

/** The advice for an entry that only its target's own resume can send, in the face's words. */
const sendItWith = (ctx: Context, target: DraftTarget) => (ctx.advice ? [terminal(`Send it with \`${ctx.advice.resume(target)}\`.`)] : []);

/**
 * Sends one entry as it is, whatever it is for (`checkin drafts send`): claimed, one request,
 * removed once the service accepted it. Text kept from the editor is read as answers first.
 */
export async function sendEntry(ctx: Context, entry: Entry, { elsewhere = false }: { elsewhere?: boolean } = {}): Promise<SentEntry> {
  const api = await ctx.api();
  const t = entry.target;
  const c = entry.content;
  const wrong = () => new UsageError(`The draft ${entry.id} does not hold what a ${targetNoun(t)} takes`);
  const keeping = { entry, elsewhere };
  const go = <T>(send: () => Promise<T>, sent?: DraftContent) => sendWithDraft(ctx, { target: t, ...keeping, ...(sent && { sent }), send });
  switch (t.kind) {
    case 'check-in': {
      const day = await entryDay(ctx, { ...entry, target: t });
      if (day !== t.key) return sendEntry(ctx, { ...entry, target: { kind: 'check-in', key: day }, day_guessed: undefined } as Entry, { elsewhere });
      if (!UUID_RE.test(t.key) && !DATE_KEY_RE.test(t.key))
        throw new UsageError(
          `The draft ${entry.id} was kept for the check-in "${sanitizeLine(t.key)}", which names no day by itself`,
          ...sendItWith(ctx, { kind: 'check-in', key: sanitizeLine(t.key) }),
        );
      let answers;
      if (c.kind === 'answers') answers = c.answers;
      else if (c.kind === 'text') {
        const read = readTemplate(c.text);
        if (read.problems.length > 0)
          throw new UsageError(
            `The draft ${entry.id} cannot be sent as it is: ${read.problems.slice(0, 3).join('; ')}`,
            ...(ctx.advice ? [terminal(`Fix it in the editor with \`${ctx.advice.edit(t)}\`.`)] : []),
          );
        answers = read.answers;
      } else throw wrong();
      const edited = await guardNewer(ctx, t.key, entry, answers);
      const a = edited ?? answers;
      if (edited)
        return {
          kind: t.kind,
          result: await sendWithDraft(ctx, {
            target: t,
            content: { kind: 'answers', answers: edited },
            made: 'editor',
            folds: [entry],
            send: () => patchCheckIn(api, t.key, asSent(a)),
          }),
        };
      return { kind: t.kind, result: await go(() => patchCheckIn(api, t.key, asSent(a))) };
    }
    case 'comment': {
      const body = commentBody(entry);
      if (t.on === 'check-in' && !UUID_RE.test(t.id)) {
        // Kept under a day and a person's name (`checkin comments 2026-11-26 @grace`): looked up now.
        const whose = personDraft(t.id);
        if (whose) {
          const found = await teammateCheckInTarget(ctx, whose[0], whose[1]);
          if (!found.known)
            throw new UsageError(
              `The draft ${entry.id} is for ${found.label}, which has no check-in to comment on`,
              ...(ctx.advice ? [terminal(`\`${ctx.advice.show(entry.id)}\` shows its words.`)] : []),
            );
          const on = found.known.id;
          return { kind: t.kind, result: await postCommentKept(ctx, { kind: 'check-in', id: on }, body, keeping) };
        }
        // Kept under the name given (a date, `last`) when the check-in could not be looked up: looked up now.
        if (!DATE_KEY_RE.test(t.id))
          throw new UsageError(
            `The draft ${entry.id} was kept for a comment on the check-in "${sanitizeLine(t.id)}", which names no day by itself`,
            ...sendItWith(ctx, { kind: 'comment', on: 'check-in', id: sanitizeLine(t.id) }),
          );
        const on = (await getCheckIn(api, t.id)).id;
        return { kind: t.kind, result: await postCommentKept(ctx, { kind: 'check-in', id: on }, body, keeping) };
      }
      return { kind: t.kind, result: await postCommentKept(ctx, { kind: t.on, id: t.id }, body, keeping) };
    }
    case 'goal-update':
      if (c.kind !== 'goal-update') throw wrong();
      return { kind: t.kind, result: await postGoalUpdateKept(ctx, t.goalId, c.input, keeping) };
    case 'goal-update-edit':
      if (c.kind !== 'goal-update') throw wrong();
      return { kind: t.kind, result: await patchGoalUpdateKept(ctx, t.id, c.input, keeping) };
    case 'activity':
      if (c.kind !== 'activity') throw wrong();
      return { kind: t.kind, result: await logActivityKept(ctx, c.input, keeping) };
    case 'goal': {
      if (c.kind !== 'goal') throw wrong();
      const body = await resolveGoalNames(ctx, c.input);
      return { kind: t.kind, result: await go(() => createGoal(api, body), { kind: 'goal', input: body }) };
    }
    case 'goal-edit': {
      if (c.kind !== 'goal') throw wrong();
      const body = await resolveGoalNames(ctx, c.input);
      return { kind: t.kind, result: await go(() => patchGoal(api, t.id, body), { kind: 'goal', input: body }) };
    }
    case 'echo-question':
      if (c.kind !== 'echo-question') throw wrong();
      return { kind: t.kind, result: await go(() => createEchoQuestion(api, c.input)) };
    case 'webhook-post':
      return { kind: t.kind, result: await postKept(ctx, entry, keeping) };
  }
}
