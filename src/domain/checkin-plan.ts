// What a person gave for a check-in's answers, as one plain value: the answers, the teams named,
// and whether words were typed (and so kept in the outbox until the service has them). A face
// reads it from what it was handed (the CLI: flags, standard input, a file); here it is kept, moved
// to the check-in once that is known, and turned into the PATCH body.

import type { CheckInAnswers } from '../api/types.js';
import type { Context } from '../context.js';
import { isEmptyAnswers } from '../core/checkin-answers.js';
import { withHint } from '../errors.js';
import { resolveTeams } from './account.js';
import { todayGuess } from './days.js';
import { keep, keptAdvice, retarget, type DraftTarget } from './outbox.js';
import type { Target } from './target.js';

export interface CheckInPlan {
  /** The answers as given (a mood already read). */
  answers: CheckInAnswers;
  /** The teams to share it with, as given (names or UUIDs): resolved when the body is made. */
  teams: string[];
  /** Words to keep until sent: none, typed on the command line, or piped (standard input or a file). */
  words: 'none' | 'typed' | 'piped';
  /** Where the words were kept before the check-in was known (today as guessed, a date, a UUID). */
  keptAs?: DraftTarget;
}

/**
 * Keeps the plan's words at `at`, as far as the check-in is known before any request (`guessed`:
 * today is only the machine's date). Returns the plan as kept there.
 */
export function keepPlan<P extends CheckInPlan>(ctx: Context, plan: P, at: DraftTarget | undefined, guessed: boolean): P {
  if (plan.words === 'none' || !at) return plan;
  keep(ctx, at, { kind: 'answers', answers: plan.answers }, plan.words === 'piped' ? 'piped' : 'flag', undefined, guessed);
  return { ...plan, keptAs: at };
}

/** The check-in is known: this run's entry follows it (no other draft is touched), or is kept now when it took a request to know. */
export function settlePlan<P extends CheckInPlan>(ctx: Context, plan: P, target: Target): P {
  const here = { kind: 'check-in', key: target.key } as const;
  if (plan.keptAs) retarget(ctx, plan.keptAs, here, { settled: !todayGuess(ctx).guessed });
  else if (plan.words !== 'none') keep(ctx, here, { kind: 'answers', answers: plan.answers }, plan.words === 'piped' ? 'piped' : 'flag');
  else return plan;
  return { ...plan, keptAs: here };
}

/** Whether the plan gives nothing to send: no answer and no team. */
export function isEmptyPlan(plan: CheckInPlan): boolean {
  return isEmptyAnswers(plan.answers) && plan.teams.length === 0;
}

/**
 * The PATCH body the plan makes: its answers, with the teams resolved (a request for names not
 * cached). Should that fail, words kept say how to send them (`resume`: the face's words).
 */
export async function bodyOf(ctx: Context, plan: CheckInPlan, resume: string): Promise<CheckInAnswers> {
  if (plan.teams.length === 0) return plan.answers;
  try {
    return { ...plan.answers, team_ids: await resolveTeams(ctx, plan.teams) };
  } catch (err) {
    const hints = plan.words !== 'none' ? keptAdvice(ctx, resume) : [];
    throw hints.length > 0 ? withHint(err, ...hints) : err;
  }
}
