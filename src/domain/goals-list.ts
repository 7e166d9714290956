// Goals with their ids, as both faces look for them: mine by default, or those of the people and
// teams named. Requests: GET /goals with people_ids[] or team_ids[] (50 a page, paged while full);
// names resolved from the cached account (GET /me once, then the cache; a name not there, one look-up).
import { allGoals } from '../api/endpoints.js';
import type { Goal } from '../api/types.js';
import { loggedInToken, type Context } from '../context.js';
import { me, resolvePeople, resolveTeams } from './account.js';

export interface GoalsQuery {
  /** People: me, UUIDs, names or @usernames. */
  people?: string[];
  /** Teams: UUIDs or names. */
  teams?: string[];
}

export interface GoalsFound {
  /** Whose goals: mine (neither people nor teams named), or those named. */
  whose: 'mine' | 'named';
  people_ids: string[];
  team_ids: string[];
  goals: Goal[];
}

/** The goals of the people and teams named; mine when none is named. */
export async function findGoals(ctx: Context, q: GoalsQuery): Promise<GoalsFound> {
  const team_ids = await resolveTeams(ctx, q.teams);
  const named = q.people?.length ? await resolvePeople(ctx, q.people) : [];
  const mine = named.length === 0 && team_ids.length === 0;
  const people_ids = mine ? [(await me(ctx)).id] : named;
  const api = await ctx.api();
  const goals = await allGoals(api, { people_ids, team_ids });
  // Remembered, so that the start of an id shown here is taken later with no request (short-ids.ts), and for Tab.
  await ctx.config().cache(
    api.baseUrl,
    loggedInToken(ctx).value,
    'goals',
    goals.map((g) => ({ id: g.id, title: g.title })),
  );
  return { whose: mine ? 'mine' : 'named', people_ids, team_ids, goals };
}
