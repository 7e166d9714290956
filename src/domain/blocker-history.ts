// How long blockers have stood, for a team's day and its open blockers alike (domain/team-day.ts,
// domain/blockers.ts): one list of the blocked people's check-ins over the days before, counted with
// core/blockers.ts (today's form counts the same way from the check-ins it already has).
import { allCheckIns } from '../api/endpoints.js';
import type { CheckIn } from '../api/types.js';
import type { Context } from '../context.js';
import { longestRun, type BlockerRun } from '../core/blockers.js';
import { addDays } from '../core/datekey.js';

/** How many days before the day are looked at for how long a blocker has stood. */
export const BLOCKER_HISTORY_DAYS = 6;

export const isBlocked = (c: CheckIn) => c.blocked !== false && (c.blockers ?? '').trim() !== '';

/**
 * How long each blocked check-in's blocker has stood (by check-in id): one list of the blocked
 * people's check-ins over the BLOCKER_HISTORY_DAYS before `date`, none when nobody is blocked.
 */
export async function blockerHistory(ctx: Context, date: string, blocked: CheckIn[]): Promise<Map<string, BlockerRun>> {
  const runs = new Map<string, BlockerRun>();
  const people = [...new Set(blocked.filter(isBlocked).flatMap((c) => (c.person?.id ? [c.person.id] : [])))];
  const history =
    people.length === 0
      ? []
      : await allCheckIns(await ctx.api(), { people_ids: people, since: addDays(date, -BLOCKER_HISTORY_DAYS), until: addDays(date, -1) });
  for (const c of blocked) {
    const run = isBlocked(c) ? longestRun(c, history) : undefined;
    if (run) runs.set(c.id, run);
  }
  return runs;
}
