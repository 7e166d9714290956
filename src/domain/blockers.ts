// The open blockers of my teams on a day: who is blocked, by what, and since when the same words
// have been reported. Requests: one list, GET /check-ins?blocked=true over the day and the six
// before it for the teams (50 a page, paged while full) — the day's blocked check-ins and their
// history in the same answer; the teams from the cached account (GET /me once).
import { allCheckIns } from '../api/endpoints.js';
import type { CheckIn, Ref } from '../api/types.js';
import type { Context } from '../context.js';
import { addDays } from '../core/datekey.js';
import { today } from './days.js';
import { teamIdsOf } from './team-day.js';

/** How many days before the day are looked at for when a blocker was first reported. */
export const BLOCKER_HISTORY_DAYS = 6;

export interface OpenBlocker {
  person: Ref | null;
  /** The teams the check-in was shared with, among those asked about. */
  teams: Ref[];
  /** The blockers, as written. */
  blockers: string;
  check_in: CheckIn;
  /** When the day's check-in was filled in (null when the service does not say). */
  reported_at: string | null;
  /**
   * The first day (within the day and the BLOCKER_HISTORY_DAYS before it) from which this person's
   * blocked check-ins say the same words, without a different blocker in between.
   */
  same_since: string;
}

export interface OpenBlockers {
  date: string;
  team_ids: string[];
  /** The first day looked at for same_since. */
  looked_back_to: string;
  blockers: OpenBlocker[];
}

const norm = (s: string | null | undefined) => (s ?? '').trim().replace(/\s+/g, ' ');
const byName = (a: OpenBlocker, b: OpenBlocker) => ((a.person?.name ?? '') < (b.person?.name ?? '') ? -1 : (a.person?.name ?? '') > (b.person?.name ?? '') ? 1 : 0);

/** The teams' open blockers on `date` (default today); undefined when I am in no team. */
export async function openBlockers(ctx: Context, input: { date?: string; teams?: string[] }): Promise<OpenBlockers | undefined> {
  const date = input.date ?? (await today(ctx));
  const teamIds = await teamIdsOf(ctx, input.teams);
  if (teamIds.length === 0) return undefined;
  const from = addDays(date, -BLOCKER_HISTORY_DAYS);
  const wanted = new Set(teamIds.map((t) => t.toLowerCase()));
  const seen = new Set<string>();
  // Several team_ids[] may list one check-in more than once (api-notes): once each.
  const list = (await allCheckIns(await ctx.api(), { since: from, until: date, blocked: true, team_ids: teamIds })).filter((c) => !seen.has(c.id) && seen.add(c.id));
  const ofTeams = (c: CheckIn) => (c.teams ?? []).filter((t) => wanted.has(t.id.toLowerCase()));
  const blocked = (c: CheckIn) => c.blocked !== false && norm(c.blockers) !== '';
  const blockers: OpenBlocker[] = list
    .filter((c) => c.date === date && blocked(c) && (c.teams === undefined || ofTeams(c).length > 0))
    .map((c) => {
      // This person's earlier blocked check-ins, newest first: the run of the same words.
      const earlier = list.filter((x) => x.date < date && x.person?.id !== undefined && x.person?.id === c.person?.id && blocked(x)).sort((a, b) => (a.date < b.date ? 1 : -1));
      let since = c.date;
      for (const x of earlier) {
        if (norm(x.blockers) !== norm(c.blockers)) break;
        since = x.date;
      }
      return { person: c.person ?? null, teams: ofTeams(c), blockers: c.blockers ?? '', check_in: c, reported_at: c.completed_at ?? null, same_since: since };
    })
    .sort(byName);
  return { date, team_ids: teamIds, looked_back_to: from, blockers };
}
