import * as z from 'zod';
import { arrayOf, described, object } from '../../api/validate.js';
import { TEAM_DAY } from '../../core/shapes.js';
import { rangeDay } from '../../domain/days.js';
import { teamDay } from '../../domain/team-day.js';
import { RANGE_DAY } from '../args.js';
import { done, plainView } from '../kit.js';
import { markedTeamDays } from '../marked.js';
import { READS, tool } from '../tool.js';

export const teamDayTool = tool({
  name: 'team_day',
  title: "The team's day",
  description:
    "For each of my teams (or those named), each person's state that day — blocked (and by what), pending, filled, absent or nothing scheduled — with their check-in.",
  input: () => ({
    day: RANGE_DAY().optional().describe('the day (default today): YYYY-MM-DD, today, yesterday or a weekday name'),
    team: z.array(z.string()).optional().describe('only these teams (UUIDs or names)'),
  }),
  output: object({ teams: described(arrayOf(TEAM_DAY), "each team's day: what `checkin team --json` prints") }),
  hints: READS,
  run: async (served, { day, team }) => {
    const { ctx } = served;
    const report = await teamDay(ctx, { date: await rangeDay(ctx, day, 'day'), teams: team });
    if (!report) return done('You are in no team.', { teams: [] });
    return done(markedTeamDays(await plainView(ctx, true), report), { teams: report });
  },
});
