// The open blockers of my teams on a day: who is blocked, by what, and for how many check-ins in a
// row (days) the blocker has stood. Requests: one list of the day's blocked check-ins for the teams
// (GET /check-ins?blocked=true, 50 a page, paged while full), then — only when someone is blocked —
// one list of those people's check-ins over the BLOCKER_HISTORY_DAYS before it (all of them: a day
// unblocked or not filled in ends a run); the teams from the cached account (GET /me once).
// `checkin team` counts its blocked members with the same blockerHistory; today's form counts from
// the earlier check-ins it already has, with the same core/blockers.ts.
import { allCheckIns } from '../api/endpoints.js';
import type { CheckIn } from '../api/types.js';
import type { OpenBlocker, OpenBlockers } from '../core/shapes.js';
import type { BlockedOnMe } from '../config/store.js';
import { loggedInToken, type Context } from '../context.js';
import { mentions } from '../core/blockers.js';
import { addDays } from '../core/datekey.js';
import { cachedMe, me } from './account.js';
import { today } from './days.js';
import { BLOCKER_HISTORY_DAYS, blockerHistory, isBlocked } from './blocker-history.js';
import { teamIdsOf } from './team-day.js';

export { BLOCKER_HISTORY_DAYS };

/** A teammate's open blocker, and the day's: core/shapes.ts OPEN_BLOCKER and OPEN_BLOCKERS (what the agent's blockers tool answers with). */
export type { OpenBlocker, OpenBlockers };

const byName = (a: OpenBlocker, b: OpenBlocker) =>
  (a.person?.name ?? '') < (b.person?.name ?? '') ? -1 : (a.person?.name ?? '') > (b.person?.name ?? '') ? 1 : 0;

async function blockersOf(ctx: Context, date: string, teamIds: string[], keep: (c: CheckIn) => boolean): Promise<OpenBlockers> {
  const wanted = new Set(teamIds.map((t) => t.toLowerCase()));
  const seen = new Set<string>();
  // Several team_ids[] may list one check-in more than once (docs/api.md § Lists): once each.
  const list = (await allCheckIns(await ctx.api(), { since: date, until: date, blocked: true, team_ids: teamIds })).filter(
    (c) => !seen.has(c.id) && seen.add(c.id),
  );
  const ofTeams = (c: CheckIn) => (c.teams ?? []).filter((t) => wanted.has(t.id.toLowerCase()));
  const open = list.filter((c) => c.date === date && isBlocked(c) && (c.teams === undefined || ofTeams(c).length > 0) && keep(c));
  const runs = await blockerHistory(ctx, date, open);
  const blockers: OpenBlocker[] = open
    .map((c) => {
      const run = runs.get(c.id) ?? { days: 1, since: c.date, at_least: false };
      return {
        person: c.person ?? null,
        teams: ofTeams(c),
        blockers: c.blockers ?? '',
        check_in: c,
        reported_at: c.completed_at ?? null,
        ...run,
      };
    })
    .sort(byName);
  return { date, team_ids: teamIds, looked_back_to: addDays(date, -BLOCKER_HISTORY_DAYS), blockers };
}

/** The teams' open blockers on `date` (default today); undefined when I am in no team. */
export async function openBlockers(ctx: Context, input: { date?: string; teams?: string[] }): Promise<OpenBlockers | undefined> {
  const date = input.date ?? (await today(ctx));
  const teamIds = await teamIdsOf(ctx, input.teams);
  if (teamIds.length === 0) return undefined;
  return blockersOf(ctx, date, teamIds, () => true);
}

/** How old the list of teammates blocked on me may be before status or inbox asks again. */
export const BLOCKED_ON_ME_TTL_MS = 10 * 60 * 1000;

const isRun = (b: unknown): b is BlockedOnMe => {
  const x = b as Partial<Record<keyof BlockedOnMe, unknown>> | null;
  const person = x?.person as { id?: unknown; name?: unknown } | null | undefined;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.blockers === 'string' &&
    typeof x.since === 'string' &&
    typeof x.days === 'number' &&
    typeof x.at_least === 'boolean' &&
    typeof x.check_in_id === 'string' &&
    (person === null || (typeof person === 'object' && typeof person.id === 'string' && typeof person.name === 'string'))
  );
};

/** After a failure, how long until it is asked again (instead of the ten minutes of an answer). */
const BLOCKED_ON_ME_RETRY_MS = 2 * 60_000;

/**
 * Teammates blocked on me on `date`, as status and inbox say it: kept ten minutes in the cache (a
 * shell prompt asks often), then asked again with blockedOnMe; none while `me` is not cached. A cache that cannot be written is
 * no matter: it is asked again next time.
 */
export async function blockedOnMeKept(ctx: Context, date: string): Promise<BlockedOnMe[]> {
  const api = await ctx.api();
  const cfg = ctx.config();
  const token = loggedInToken(ctx).value;
  // Only for an account whose `me` is known (as the count of new comments): never a GET /me just for this.
  if (!cachedMe(ctx, token)) return [];
  const held = cfg.cached(api.baseUrl, token, 'blocked_on_me');
  const age = held && typeof held.checked_at === 'string' ? ctx.now().getTime() - Date.parse(held.checked_at) : NaN;
  if (held?.date === date && age >= 0 && age < BLOCKED_ON_ME_TTL_MS && Array.isArray(held.list) && held.list.every(isRun)) return held.list;
  let list: BlockedOnMe[];
  try {
    list = (await blockedOnMe(ctx, date)).map((b) => ({
      person: b.person,
      blockers: b.blockers,
      since: b.since,
      days: b.days,
      at_least: b.at_least,
      check_in_id: b.check_in.id,
    }));
  } catch (err) {
    // A failure is kept too, as nothing, for a shorter while: a prompt that runs status every few
    // seconds does not ask (and wait) again each time. The caller says nothing of it either way.
    const retryAt = new Date(ctx.now().getTime() - BLOCKED_ON_ME_TTL_MS + BLOCKED_ON_ME_RETRY_MS).toISOString();
    await cfg.cache(api.baseUrl, token, 'blocked_on_me', { date, checked_at: retryAt, list: [] }).catch(() => undefined);
    throw err;
  }
  await cfg.cache(api.baseUrl, token, 'blocked_on_me', { date, checked_at: ctx.now().toISOString(), list }).catch(() => undefined);
  return list;
}

/**
 * Teammates blocked on me today: open blockers in any of my teams that @mention me (my
 * @username), with how long they have stood. One request when none names me, two when some do;
 * none when I am in no team.
 */
export async function blockedOnMe(ctx: Context, date?: string): Promise<OpenBlocker[]> {
  const person = await me(ctx);
  if (person.teams.length === 0) return [];
  const day = date ?? (await today(ctx));
  const found = await blockersOf(
    ctx,
    day,
    person.teams.map((t) => t.id),
    (c) => c.person?.id !== person.id && mentions(c.blockers, person),
  );
  return found.blockers;
}
