// A team's day: each member with their check-in of that day and its state, in the order every face
// shows it (blocked first, then pending, filled, absent, nothing scheduled; by name within each).
import type { CheckIn, Team } from '../api/types.js';
import { MEMBER_STATES, type TeamDay } from './shapes.js';
import type { BlockerRun } from './blockers.js';

/**
 * A person's state on a day, in the order a team's day lists them: the one vocabulary every face
 * speaks — `team`, the wall, `status`, `stats`, `--json` and the agent's tools. Its values are the
 * shape's (core/shapes.ts MEMBER_STATES, what --json and the agent's schemas carry).
 */
export { MEMBER_STATES };
export type MemberState = (typeof MEMBER_STATES)[number];

/**
 * What each state is called, everywhere: the word (the --json value, with a hyphen for the space),
 * the symbol beside it on a terminal (and its ASCII stand-in), and what it means. Every view reads
 * its words here and nowhere else.
 */
export const MEMBER_STATE_WORDS: Record<MemberState, { word: string; symbol: string; ascii: string; meaning: string }> = {
  blocked: { word: 'blocked', symbol: '⚠', ascii: '!', meaning: 'filled in, and blocked by something' },
  pending: { word: 'pending', symbol: '·', ascii: '.', meaning: 'a check-in is due and not filled in yet' },
  filled: { word: 'filled', symbol: '✓', ascii: '+', meaning: 'filled in, nothing blocking' },
  absent: { word: 'absent', symbol: '–', ascii: '-', meaning: 'marked absent that day' },
  'nothing-scheduled': { word: 'nothing scheduled', symbol: '○', ascii: 'o', meaning: 'no check-in that day: none of their teams meets, or they are away' },
};

/** A check-in's state (null: there is none that day). */
export function memberState(c: CheckIn | null | undefined): MemberState {
  return !c ? 'nothing-scheduled' : c.absent ? 'absent' : c.blocked ? 'blocked' : c.completed_at ? 'filled' : 'pending';
}

/** A team's day, as core/shapes.ts's TEAM_DAY describes it (the one description of `--json` and the agent's team_day). */
export type { TeamDay };

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Each team's people on `date`, with their check-in among `checkIns` and its state (`runs`: how long each blocked check-in's blocker has stood, by id). */
export function teamDays(teams: Team[], checkIns: CheckIn[], date: string, runs?: Map<string, BlockerRun>): TeamDay[] {
  return teams.map((team) => ({
    team: { id: team.id, name: team.name },
    date,
    members: (team.people ?? [])
      .map((person) => {
        // A check-in belongs under the teams it was reported to, and nowhere else.
        const c = checkIns.find((x) => x.person?.id === person.id && (x.teams ?? []).some((t) => t.id === team.id)) ?? null;
        const state = memberState(c);
        return { person, state, check_in: c, blocked_for: (state === 'blocked' && c && runs?.get(c.id)) || null };
      })
      .sort((a, b) => MEMBER_STATES.indexOf(a.state) - MEMBER_STATES.indexOf(b.state) || byName(a.person.name, b.person.name)),
  }));
}
