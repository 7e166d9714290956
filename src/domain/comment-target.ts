// What a comment or a reaction hangs on, for both faces: a check-in (by any key: UUID, date, day
// word, last; someone else's by day and name) or a goal update (by UUID). A request only when a
// date's check-in must be looked up (one list request for someone else's).
import { getCheckIn, type Commentable } from '../api/endpoints.js';
import { UUID_RE } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { isNoCheckIn, resolveCheckInKey, teammateCheckInTarget } from './target.js';
import { resolveId } from './short-ids.js';
import { isIdPrefix } from '../core/short-ids.js';

/** A check-in by key (someone else's by day when `person` is named), or a goal update. */
export type CommentOn = { checkIn: string; person?: string } | { goalUpdate: string };

/** The check-in or goal update; `none` (the day, as said) when a date has no check-in scheduled. */
export async function commentTarget(ctx: Context, on: CommentOn): Promise<Commentable | { none: string }> {
  if ('goalUpdate' in on) {
    if (!UUID_RE.test(on.goalUpdate) && !isIdPrefix(on.goalUpdate))
      throw new UsageError(`A goal update is named by its UUID (or its start); "${on.goalUpdate}" is not one`);
    return { kind: 'goal-update', id: await resolveId(ctx, 'goal update', on.goalUpdate) };
  }
  const target = on.person !== undefined ? await teammateCheckInTarget(ctx, on.checkIn, on.person) : await resolveCheckInKey(ctx, on.checkIn);
  if (target.absent) return { none: target.label };
  if (UUID_RE.test(target.key)) return { kind: 'check-in', id: target.key };
  if (target.known) return { kind: 'check-in', id: target.known.id };
  try {
    return { kind: 'check-in', id: (await getCheckIn(await ctx.api(), target.key)).id };
  } catch (err) {
    if (!(await isNoCheckIn(ctx, err))) throw err;
    return { none: target.label };
  }
}
