// What `checkin team` and `checkin team --watch` share: which teams, and each one's day.
import type { CheckIn, Team } from '../../api/types.js';
import { preferences } from '../../config/prefs.js';
import type { Context } from '../../context.js';
import { withHint } from '../../errors.js';
import { me, resolveTeams } from '../../domain/account.js';
import { MEMBER_STATES, type MemberState, type TeamReport } from '../../ui/views.js';

/** `--watch` refreshes every this many seconds by default, and never more often than the minimum. */
export const WATCH_INTERVAL_S = 30;
export const MIN_WATCH_INTERVAL_S = 10;

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The teams `--team` names, else the one the team setting names, else all of mine. */
export async function teamIdsOf(ctx: Context, team: string[] | undefined): Promise<string[]> {
  if (team?.length) return await resolveTeams(ctx, team);
  // --team, else the team setting (checkin config set team …), else all my teams.
  const setting = preferences(ctx.config()).team;
  if (setting === undefined) return (await me(ctx)).teams.map((t) => t.id);
  return await resolveTeams(ctx, [setting]).catch((err: unknown) => {
    throw withHint(err, 'It is the team setting: change it with `checkin config set team <team>`, or `checkin config unset team` for all your teams.');
  });
}

/** Each team's people on `date`, with their check-in among `checkIns` and its state, in the report's order. */
export function teamReports(teams: Team[], checkIns: CheckIn[], date: string): TeamReport[] {
  return teams.map((team) => ({
    team: { id: team.id, name: team.name },
    date,
    members: (team.people ?? [])
      .map((person) => {
        // A check-in belongs under the teams it was reported to, and nowhere else.
        const c = checkIns.find((x) => x.person?.id === person.id && (x.teams ?? []).some((t) => t.id === team.id)) ?? null;
        const state: MemberState = !c ? 'none' : c.blocked ? 'blocked' : c.completed_at ? 'filled' : 'pending';
        return { person, state, check_in: c };
      })
      .sort((a, b) => MEMBER_STATES.indexOf(a.state) - MEMBER_STATES.indexOf(b.state) || byName(a.person.name, b.person.name)),
  }));
}
