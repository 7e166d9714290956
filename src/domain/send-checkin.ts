// Sending a check-in's answers, for both faces: the one PATCH, with typed text kept as an outbox
// entry until the service accepted it. Prints nothing: the faces say what came of it.

import { patchCheckIn } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { UUID_RE, type CheckIn, type CheckInAnswers, type Ref } from '../api/types.js';
import type { Context } from '../context.js';
import { asSent } from '../core/blockers.js';
import { UsageError, withHint } from '../errors.js';
import { me } from './account.js';
import { baseOf, keep, keptAdvice, sendWithDraft, type Claim, type Entry } from './outbox.js';
import { isNoCheckIn, notTheService, type Target } from './target.js';

export interface SendOptions {
  /** Keep the answers as a draft until the service has them (they were typed, piped or edited). */
  keepDraft: boolean;
  /** Or: the entry kept earlier that these answers are (sent as they are, with any flags given now). */
  entry?: Entry;
  /** The claim on `entry`, already taken (an agent's send, held while the person was asked). */
  claim?: Claim;
  /** Entries kept earlier that these answers were built on (the person's choice): removed once sent. */
  folds?: Entry[];
  /** Say nothing of other drafts still waiting (a resume sending them all). */
  quiet?: boolean;
  /** The face's words for sending it again (the CLI: the check-in's `--resume`, which sends all that wait for it). */
  resume: string;
}

/**
 * The one PATCH, with typed text kept as a draft until the service accepted it; the check-in it
 * answered, or null when the service has no check-in scheduled on that date (what was kept stays).
 * A check-in named by UUID that does not exist is an error. Blockers that say "none" ("no", "n/a",
 * "nothing", "-") are sent as no blockers, so the check-in is not marked blocked (what was typed is
 * what is kept). Prints nothing.
 */
export async function sendAnswers(ctx: Context, target: Target, answers: CheckInAnswers, opts: SendOptions): Promise<CheckIn | null> {
  const api = await ctx.api();
  const resume = opts.resume;
  const hint = keptAdvice(ctx, resume);
  const kept = opts.keepDraft || opts.entry !== undefined;
  try {
    return await sendWithDraft(ctx, {
      target: { kind: 'check-in', key: target.key },
      content: opts.keepDraft && !opts.entry ? { kind: 'answers', answers } : undefined,
      ...(opts.entry && { entry: opts.entry }),
      ...(opts.claim && { claim: opts.claim }),
      ...(opts.folds && { folds: opts.folds }),
      ...(opts.quiet && { quiet: true }),
      ...(target.known && { base: baseOf(target.known) }),
      resume,
      send: () => patchCheckIn(api, target.key, asSent(answers)),
    });
  } catch (err) {
    // Not the service at all (an HTML page): said so, and the answers are kept however they were given.
    const wrong = err instanceof ApiError && !err.notFound ? await notTheService(ctx, err) : undefined;
    if (wrong) {
      if (!kept && keep(ctx, { kind: 'check-in', key: target.key }, { kind: 'answers', answers })) throw withHint(wrong, ...hint);
      throw kept ? withHint(wrong, ...hint) : wrong;
    }
    if (!(err instanceof ApiError && err.notFound)) throw err;
    let none: boolean;
    try {
      none = await isNoCheckIn(ctx, err);
    } catch (why) {
      throw kept ? withHint(why, ...hint) : why;
    }
    if (!none) throw err;
    if (UUID_RE.test(target.key)) throw new UsageError(`No check-in ${target.key}`);
    return null;
  }
}

/**
 * Who a check-in is shared with once these answers are sent: the teams named (team_ids), else all
 * of the person's teams (the service's default when team_ids is left out: the spec's "Defaults to
 * all of the person's teams when omitted"), by name. The terminal's preview and the agent's
 * question both say this.
 */
export async function sharedWith(ctx: Context, a: CheckInAnswers): Promise<{ teams: Ref[]; all: boolean }> {
  const mine = (await me(ctx)).teams;
  if (!a.team_ids) return { teams: mine, all: true };
  return { teams: a.team_ids.map((id) => mine.find((t) => t.id.toLowerCase() === id.toLowerCase()) ?? { id, name: id }), all: false };
}
