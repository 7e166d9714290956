import { GOAL } from '../../api/types.js';
import { arrayOf, described, object, oneOf } from '../../api/validate.js';
import { findGoals } from '../../domain/goals-list.js';
import { PEOPLE, TEAMS } from '../args.js';
import { done } from '../kit.js';
import { markedGoals } from '../marked.js';
import { fromService } from '../results.js';
import { READS, tool } from '../tool.js';

export const goalsTool = tool({
  name: 'goals',
  title: 'Goals',
  description:
    'Goals with their ids (the goal_id that goal and draft_goal_update take): mine by default, or those of the people or teams named. Each with its progress, confidence, due date and owner.',
  input: () => ({ person: PEOPLE(), team: TEAMS() }),
  output: object({
    whose: described(oneOf(['mine', 'named']), 'mine: neither person nor team was named'),
    goals: arrayOf(fromService(GOAL, 'a goal')),
  }),
  hints: READS,
  run: async (served, { person, team }) => {
    const { ctx } = served;
    const found = await findGoals(ctx, { people: person, teams: team });
    const n = found.goals.length;
    const text =
      n === 0
        ? `No goals ${found.whose === 'mine' ? 'of yours' : 'match'}.`
        : `${n} goal${n === 1 ? '' : 's'}${found.whose === 'mine' ? ' of yours' : ''}; the goal tool takes a goal_id for its latest updates:\n${markedGoals(found.goals)}`;
    return done(text, { whose: found.whose, goals: found.goals });
  },
});
