import * as z from 'zod';
import { getGoal, listGoalUpdates } from '../../api/endpoints.js';
import { GOAL, GOAL_UPDATE } from '../../api/types.js';
import { arrayOf, object } from '../../api/validate.js';
import { goalIdOf } from '../../domain/short-ids.js';
import { done, plainView } from '../kit.js';
import { markedGoal } from '../marked.js';
import { fromService } from '../results.js';
import { READS, tool } from '../tool.js';

export const goalTool = tool({
  name: 'goal',
  title: 'A goal and its latest updates',
  description: "A goal (its title, progress and confidence) with its latest updates, newest first. Goal ids are in the service's links and in `checkin goals`.",
  input: () => ({
    goal_id: z.string().describe("the goal's id: its UUID, or the start of it (8 characters, as the goals tool's short ids)"),
    updates: z.number().int().min(1).max(20).optional().describe('how many of the latest updates (default 3)'),
  }),
  output: object({ goal: fromService(GOAL, 'a goal'), updates: arrayOf(fromService(GOAL_UPDATE, 'a goal update')) }),
  hints: READS,
  run: async (served, { goal_id, updates }) => {
    const { ctx } = served;
    const id = await goalIdOf(ctx, goal_id, 'The goal id');
    const api = await ctx.api();
    const [goal, list] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: updates ?? 3 })]);
    return done(markedGoal(await plainView(ctx, true), goal, list), { goal, updates: list });
  },
});
