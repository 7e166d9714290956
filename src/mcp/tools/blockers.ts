import { omit } from '../../api/validate.js';
import { OPEN_BLOCKERS } from '../../core/shapes.js';
import { openBlockers } from '../../domain/blockers.js';
import { rangeDay, today } from '../../domain/days.js';
import { RANGE_DAY, TEAMS } from '../args.js';
import { done } from '../kit.js';
import { markedBlockers } from '../marked.js';
import { READS, tool } from '../tool.js';

export const blockersTool = tool({
  name: 'blockers',
  title: "The team's open blockers",
  description:
    "The open blockers of my teams (or those named) on a day (default today): who is blocked, by what, for how many check-ins in a row (days) the longest-standing blocker has stood and since when (looking back a week), and the check-in's id (draft_comment takes it to offer help).",
  input: () => ({ day: RANGE_DAY().optional().describe('the day (default today): YYYY-MM-DD, today, yesterday or a weekday name'), team: TEAMS() }),
  output: omit(OPEN_BLOCKERS, ['team_ids']),
  hints: READS,
  run: async (served, { day, team }) => {
    const { ctx } = served;
    const found = await openBlockers(ctx, { date: await rangeDay(ctx, day, 'day'), teams: team });
    if (!found) return done('You are in no team.', { date: (await rangeDay(ctx, day, 'day')) ?? (await today(ctx)), looked_back_to: '', blockers: [] });
    const n = found.blockers.length;
    const text =
      n === 0
        ? `No open blockers on ${found.date} in ${found.team_ids.length === 1 ? 'the team' : `the ${found.team_ids.length} teams`} asked about.`
        : `${n} open blocker${n === 1 ? '' : 's'} on ${found.date}:\n${markedBlockers(found)}`;
    return done(text, { date: found.date, looked_back_to: found.looked_back_to, blockers: found.blockers });
  },
});
