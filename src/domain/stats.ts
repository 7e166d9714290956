// `checkin stats` as both faces could ask for it: whose (a person, by default me; or teams), the
// window (whole weeks ending with this one), one paged walk of the check-ins over it (what `list
// --all` and `report` send), and the figures of core/stats.ts worked out in each person's own zone.
// Cached answers are reused: `me` (my zone) and the directory (names, and other people's zones).
import { walkCheckIns } from '../api/endpoints.js';
import { MAX_PER_PAGE, type CheckIn, type Ref } from '../api/types.js';
import type { Context } from '../context.js';
import { dateKeyAtOffset, localDateKey } from '../core/datekey.js';
import { openBlockers, personCalendar, streaks, tally, teamCalendar, weeks, windowStart, type DayCell, type PersonDay, type Stats } from '../core/stats.js';
import { UsageError } from '../errors.js';
import type { Directory } from '../config/store.js';
import { weekStart } from '../core/keys.js';
import { directoryPeople, me, resolvePeople } from './account.js';
import { dayZone, today } from './days.js';
import { teamIdsOf } from './team-day.js';

/** Weeks shown when none are asked for, and the most (a year). */
export const STATS_WEEKS = { default: 12, max: 53 } as const;

export interface StatsQuery {
  /** One person (a name, @username, UUID or `me`); default me. */
  person?: string;
  /** Teams by name or UUID; `true`: the team setting, else all of mine. */
  team?: string[] | true;
  weeks?: number;
}

export type { PersonStats, Stats, TeamStats } from '../core/stats.js';

/** How a zone's instants become dates, from its name (Rails or IANA), over the window; undefined when unknown. */
async function zoneDays(zoneName: string | undefined | null, since: string, now: Date): Promise<PersonDay | undefined> {
  if (!zoneName) return undefined;
  const { zoneTable } = await import('../core/zone.js');
  // From a day before the window to now: summer and winter offsets alike.
  const from = new Date(`${since}T00:00:00Z`);
  const table = zoneTable(zoneName, from, Math.ceil((now.getTime() - from.getTime()) / 86_400_000) + 3);
  if (!table) return undefined;
  return { today: dateKeyAtOffset(now, table.offsets), dateOf: (iso) => dateKeyAtOffset(new Date(iso), table.offsets) };
}

/**
 * This run's own day (TZ, else the profile's zone, else the machine's), its instants read with the
 * zone's offsets from `since` on: a summer evening is read in summer time, not today's offset.
 */
export async function ownDays(ctx: Context, since: string): Promise<PersonDay> {
  const { zone } = await dayZone(ctx);
  const day = await today(ctx);
  const table = zone ? await zoneDays(zone, since, ctx.now()) : undefined;
  return { today: day, dateOf: table ? table.dateOf : (iso) => localDateKey(new Date(iso)) };
}

/**
 * The check-ins of the days from `range.since` to `range.until` for these people or teams, in one
 * paged walk (what `list --all` sends). `perDay`: the most there can be a day — at most one a person
 * a day, once per team asked for — so the pages there can be, and one more to see the end, are all
 * that is asked for: no page past the end (`list --all` cannot know; here the days say).
 */
export function walkDays(
  ctx: Context,
  range: { since: string; until: string },
  filter: { people_ids?: string[]; team_ids?: string[] },
  perDay: number | undefined,
  onItems: (items: CheckIn[]) => void,
  opts: { onPause?: (ms: number) => void } = {},
): Promise<number> {
  const days = Math.round((Date.parse(`${range.until}T00:00:00Z`) - Date.parse(`${range.since}T00:00:00Z`)) / 86_400_000) + 1;
  // Nobody known (0) is not known: then every page until a short one.
  const pages = perDay ? Math.floor((perDay * days) / MAX_PER_PAGE) + 1 : undefined;
  return ctx
    .api()
    .then((api) =>
      walkCheckIns(api, { ...range, ...filter }, onItems, { onPause: opts.onPause, ...(pages && { maxPages: pages, maxInFlight: Math.min(8, pages) }) }),
    );
}

/** The most check-ins a day of these teams (everyone, without teams): their members in the directory, once per team; undefined when the directory does not say. */
export function membersPerDay(people: Directory['people'], teamIds: string[]): number | undefined {
  if (teamIds.length === 0) return people.length;
  if (!people.every((p) => p.team_ids)) return undefined;
  return people.filter((p) => p.team_ids!.some((t) => teamIds.includes(t))).length * teamIds.length;
}

/** How a person's instants become dates: mine in this run's own zone (`own`), anyone else's in their profile's (from the directory), else `own`. */
export async function personDays(ctx: Context, id: string, since: string, own: PersonDay, people?: Directory['people']): Promise<PersonDay> {
  if (id === (await me(ctx)).id) return own;
  // A directory that cannot be had: the person's days in this run's zone.
  const found = (
    people ??
    (await directoryPeople(ctx).then(
      (d) => d.people,
      () => [],
    ))
  ).find((p) => p.id === id);
  return (await zoneDays(found?.time_zone, since, ctx.now())) ?? own;
}

/** The most pages the weeks before a report's period may add to its walk (under one burst of the rate limit). */
export const STREAK_PAGES = 20;

/**
 * The days a report's streaks are counted over: the weeks `checkin stats` shows by default, ending
 * with the period's last week (the whole period when it is longer), so a run that began before the
 * period counts whole and the figures are the ones `checkin stats` gives on the period's last day.
 * `perDay` (the most check-ins a day, when known): for many people, only as many weeks before the
 * period as STREAK_PAGES pages can hold — the report then says over how many weeks it counted.
 */
export function streakWindow(range: { since: string; until: string }, perDay?: number): { since: string; weeks: number } {
  const spanned = Math.round((Date.parse(`${weekStart(range.until)}T00:00:00Z`) - Date.parse(`${weekStart(range.since)}T00:00:00Z`)) / (7 * 86_400_000)) + 1;
  const before = perDay ? Math.floor((STREAK_PAGES * MAX_PER_PAGE) / (perDay * 7)) : Infinity;
  const weeks = Math.max(spanned, Math.min(STATS_WEEKS.default, spanned + before));
  return { since: windowStart(range.until, weeks), weeks };
}

export async function gatherStats(ctx: Context, query: StatsQuery, opts: { onPause?: (ms: number) => void } = {}): Promise<Stats> {
  if (query.person !== undefined && query.team !== undefined)
    throw new UsageError('A person or a team, not both: a team is shown as a whole, never person by person');
  const count = query.weeks ?? STATS_WEEKS.default;
  const now = today(ctx);
  const until = await now;
  const since = windowStart(until, count);
  const own = await ownDays(ctx, since);
  const list: CheckIn[] = [];
  const walk = (filter: { people_ids?: string[]; team_ids?: string[] }, perDay?: number) =>
    walkDays(ctx, { since, until }, filter, perDay, (items) => list.push(...items), opts);
  const common = { since, until, today: until, weeks_count: count };

  if (query.team !== undefined) {
    const teamIds = await teamIdsOf(ctx, query.team === true ? undefined : query.team);
    if (teamIds.length === 0) throw new UsageError('You are in no team: name a team');
    const mine = await me(ctx);
    const { people } = await directoryPeople(ctx);
    // A check-in may come once per team it was reported to.
    await walk({ team_ids: teamIds }, membersPerDay(people, teamIds));
    const teamNames = new Map(mine.teams.map((t) => [t.id, t.name]));
    for (const c of list) for (const t of c.teams ?? []) teamNames.set(t.id, t.name);
    const byPerson = new Map<string, CheckIn[]>();
    for (const c of list) {
      // Only check-ins reported to these teams count (a person's other teams are theirs alone).
      if (c.teams && !c.teams.some((t) => teamIds.includes(t.id))) continue;
      const id = c.person?.id ?? '';
      byPerson.set(id, [...(byPerson.get(id) ?? []), c]);
    }
    const calendars: DayCell[][] = [];
    for (const [id, own_] of byPerson) calendars.push(personCalendar(own_, { since, until }, await personDays(ctx, id, since, own, people)));
    const cells = calendars.flat();
    return {
      kind: 'team',
      ...common,
      teams: teamIds.map((id) => ({ id, name: teamNames.get(id) ?? id })),
      people: byPerson.size,
      days: teamCalendar(calendars, { since, until }),
      totals: tally(cells),
      weeks: weeks(cells),
      open_blockers: openBlockers([...byPerson.values()].flat()),
    };
  }

  const ids = await resolvePeople(ctx, [query.person ?? 'me']);
  if (ids.length !== 1) throw new UsageError('One person at a time (or a team as a whole)');
  const id = ids[0]!;
  const mine = await me(ctx);
  let person: Ref = { id, name: mine.name };
  let zone: string | null = mine.time_zone ?? null;
  let days = own;
  if (id !== mine.id) {
    const found = (await directoryPeople(ctx)).people.find((p) => p.id === id);
    person = { id, name: found?.name ?? id };
    zone = found?.time_zone ?? null;
    days = (await zoneDays(zone, since, ctx.now())) ?? own;
    if (days === own) zone = null;
  } else if (ctx.env.TZ) zone = null;
  await walk({ people_ids: [id] }, 1);
  const mineOnly = list.filter((c) => c.person?.id === id);
  const cells = personCalendar(mineOnly, { since, until }, days);
  return {
    kind: 'person',
    ...common,
    person,
    zone,
    streak: streaks(cells),
    days: cells,
    totals: tally(cells),
    weeks: weeks(cells),
    open_blockers: openBlockers(mineOnly),
  };
}
