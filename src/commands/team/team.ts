// `checkin team`: for each of my teams, who has filled in that day's check-in, who has not yet,
// who is blocked (and by what), and who has none (absent or not scheduled).
import { Command } from '@commander-js/extra-typings';
import { allCheckIns, getTeam } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { me, resolveTeams } from '../../services/account.js';
import { rangeDay, today } from '../../services/days.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import { MEMBER_STATES, teamReportView, type MemberState, type TeamReport } from '../../ui/views.js';
import { collect, type Run } from '../flags.js';

export interface TeamOptions {
  date?: string;
  team?: string[];
  json?: JsonFlag;
}

export function teamCommand(ctx: Context, run: Run<TeamOptions> = runTeam) {
  return new Command('team')
    .description("My teams' check-ins for a day: filled in, not yet, blocked, none")
    .option('--date <day>', 'the day (default today)')
    .option('--team <team>', 'only this team (UUID or name; repeatable)', collect)
    .addOption(jsonOption(JSON_FIELDS.teamReport))
    .action((opts) => run(ctx, opts));
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function runTeam(ctx: Context, opts: TeamOptions): Promise<void> {
  const report = await teamReport(ctx, opts);
  if (!report) {
    ctx.io.err('You are in no team.\n');
    if (opts.json) ctx.io.out('[]\n');
    return;
  }
  await printOne(ctx.io, ctx.now(), report, opts.json, teamReportView);
}

/** The teams' day (mine, or those named), without printing; undefined when I am in no team. */
export async function teamReport(ctx: Context, opts: Pick<TeamOptions, 'date' | 'team'>): Promise<TeamReport[] | undefined> {
  const date = (await rangeDay(ctx, opts.date, '--date')) ?? (await today(ctx));
  const teamIds = opts.team?.length ? await resolveTeams(ctx, opts.team) : (await me(ctx)).teams.map((t) => t.id);
  if (teamIds.length === 0) return undefined;
  const api = await ctx.api();
  const [teams, checkIns] = await Promise.all([
    Promise.all(teamIds.map((id) => getTeam(api, id))),
    allCheckIns(api, { since: date, until: date, team_ids: teamIds }),
  ]);
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
