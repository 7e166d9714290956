// A team's day: each member with their check-in of that day and its state, in the order every face
// shows it (blocked first, then not yet, filled in, none; by name within each).
import { MEMBER_STATES, type CheckIn, type Team, type TeamDay } from '../api/types.js';
import type { BlockerRun } from './blockers.js';

export { MEMBER_STATES };
export type MemberState = (typeof MEMBER_STATES)[number];

/** A team's day, as api/types.ts's TEAM_DAY describes it (the one description of `--json` and the agent's team_day). */
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
        const state: MemberState = !c ? 'none' : c.blocked ? 'blocked' : c.completed_at ? 'filled' : 'pending';
        return { person, state, check_in: c, blocked_for: (state === 'blocked' && c && runs?.get(c.id)) || null };
      })
      .sort((a, b) => MEMBER_STATES.indexOf(a.state) - MEMBER_STATES.indexOf(b.state) || byName(a.person.name, b.person.name)),
  }));
}
