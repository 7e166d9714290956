// Read-only views: `checkin teams`, `checkin people`, `checkin activity`.
import { fetchAll } from '../api/paginate.js';
import type { Activity, Person, Team } from '../api/types.js';
import type { Context } from '../context.js';
import { addDays } from '../core/datekey.js';
import { UsageError } from '../errors.js';
import { printList } from './output.js';
import { activityRows, peopleRows, teamRows } from '../ui/views.js';
import { rangeDay, resolvePeople, resolveTeams, splitValues } from './resolve.js';

export async function runTeams(ctx: Context, opts: { json?: boolean }): Promise<void> {
  const [list, me] = await Promise.all([fetchAll<Team>(await ctx.api(), 'teams', {}), ctx.me()]);
  const mine = new Set(me.teams.map((t) => t.id));
  await printList(ctx, list, opts.json, 'No teams.', (v, l) => teamRows(v, l, mine));
}

export async function runPeople(ctx: Context, opts: { json?: boolean }): Promise<void> {
  const list = await fetchAll<Person>(await ctx.api(), 'people', {});
  await printList(ctx, list, opts.json, 'No people.', peopleRows);
}

/** The first instant of a local day, as the ISO timestamp /activities wants. */
function startOfDay(day: string): string {
  return new Date(`${day}T00:00:00`).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export async function runActivity(ctx: Context, opts: { kind?: string[]; team?: string[]; person?: string[]; since?: string; until?: string; json?: boolean }): Promise<void> {
  const since = rangeDay(ctx, opts.since, '--since');
  const until = rangeDay(ctx, opts.until, '--until');
  if (since && until && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
  const query = {
    kinds: splitValues(opts.kind),
    team_ids: await resolveTeams(ctx, opts.team),
    people_ids: await resolvePeople(ctx, opts.person),
    // Dates become timestamps here: from the start of `since` to the end of `until`, local time.
    ...(since && { since: startOfDay(since) }),
    ...(until && { until: new Date(Date.parse(startOfDay(addDays(until, 1))) - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') }),
  };
  const list = await fetchAll<Activity>(await ctx.api(), 'activities', query);
  await printList(ctx, list, opts.json, 'No activity matches.', activityRows);
}
