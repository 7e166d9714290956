// A team's day as both faces ask for it: which teams (named, the team setting, or all of mine) and
// each one's members with their check-in of the day. Two requests per team at most, overlapped;
// when someone is blocked, one more: their check-ins of the days before, to count how many days in
// a row their blocker has stood (domain/blocker-history.ts).
import { allCheckIns, getTeam } from '../api/endpoints.js';
import { preferences } from '../config/prefs.js';
import type { Context } from '../context.js';
import { teamDays, type TeamDay } from '../core/member-states.js';
import { terminal, withHint } from '../errors.js';
import { me, resolveTeams } from './account.js';
import { blockerHistory } from './blocker-history.js';
import { today } from './days.js';

/** The teams named (UUIDs or names), else the one the team setting names, else all of mine. */
export async function teamIdsOf(ctx: Context, teams: string[] | undefined): Promise<string[]> {
  if (teams?.length) return await resolveTeams(ctx, teams);
  const setting = preferences(ctx.config()).team;
  if (setting === undefined) return (await me(ctx)).teams.map((t) => t.id);
  return await resolveTeams(ctx, [setting]).catch((err: unknown) => {
    const words = ctx.advice;
    throw words
      ? withHint(
          err,
          terminal(
            `It is the team setting: change it with \`${words.setSetting('team', '<team>')}\`, or \`${words.unsetSetting('team')}\` for all your teams.`,
          ),
        )
      : err;
  });
}

/** The teams' day (`date` a date key; default today); undefined when I am in no team. */
export async function teamDay(ctx: Context, input: { date?: string; teams?: string[] }): Promise<TeamDay[] | undefined> {
  const date = input.date ?? (await today(ctx));
  const teamIds = await teamIdsOf(ctx, input.teams);
  if (teamIds.length === 0) return undefined;
  const api = await ctx.api();
  const [teams, checkIns] = await Promise.all([
    Promise.all(teamIds.map((id) => getTeam(api, id))),
    allCheckIns(api, { since: date, until: date, team_ids: teamIds }),
  ]);
  const runs = await blockerHistory(
    ctx,
    date,
    checkIns.filter((c) => c.date === date && c.blocked),
  );
  return teamDays(teams, checkIns, date, runs);
}
