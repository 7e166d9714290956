// Listing check-ins as both faces ask for it: the filter (people and teams by name, @username or
// UUID, resolved with a request or two for names not cached) and one page of it, each check-in once.
import { listCheckIns, type CheckInFilter } from '../api/endpoints.js';
import type { CheckIn } from '../api/types.js';
import type { Context } from '../context.js';
import { resolvePeople, resolveTeams } from './account.js';

/** The service's page size when none is asked for (api-v2: 20). */
const DEFAULT_PAGE = 20;

export interface CheckInQuery {
  /** Date keys, already resolved from day words (`dayRange`). */
  since?: string;
  until?: string;
  blocked?: boolean;
  /** Names, @usernames or UUIDs; `me` for the person. */
  people?: string[];
  teams?: string[];
}

/** The service's filter for a query (people and teams resolved to ids). */
export async function checkInFilter(ctx: Context, query: CheckInQuery): Promise<CheckInFilter> {
  return {
    ...(query.since && { since: query.since }),
    ...(query.until && { until: query.until }),
    ...(query.blocked && { blocked: true }),
    people_ids: await resolvePeople(ctx, query.people),
    team_ids: await resolveTeams(ctx, query.teams),
  };
}

/** One page of check-ins, each once; `full` when the page is full (more may follow). */
export async function checkInPage(ctx: Context, filter: CheckInFilter, page: { page?: number; perPage?: number }): Promise<{ list: CheckIn[]; full: boolean }> {
  const list = await listCheckIns(await ctx.api(), { ...filter, page: page.page, per_page: page.perPage });
  // Several teams can return a check-in once per team: each is kept once.
  const seen = new Set<string>();
  // A full page: there may be more (the service gives no count).
  return { list: list.filter((c) => !seen.has(c.id) && seen.add(c.id)), full: list.length === (page.perPage ?? DEFAULT_PAGE) };
}
