import { getGoal } from '../../api/endpoints.js';
import { GOAL_UPDATE } from '../../api/types.js';
import { object, optional } from '../../api/validate.js';
import { postGoalUpdateKept } from '../../domain/writes.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { DRAFT_ID } from '../args.js';
import { cannotAsk, draftFor, GATED, goalUpdateQuestion, notSent, personSaysYes, sendCommand, sendFailed, withClaim } from '../ask.js';
import { done } from '../kit.js';
import { fromService, SENT } from '../results.js';
import { SENDS, tool } from '../tool.js';

export const sendGoalUpdateTool = tool({
  name: 'send_goal_update',
  title: 'Send a goal update draft',
  description: `Posts a draft_goal_update draft after asking the person (the question names the goal and the progress and confidence it sets); nothing is sent if they say no or cannot be asked. ${GATED} A draft is posted at most once.`,
  input: () => ({ draft_id: DRAFT_ID() }),
  output: object({ ...SENT, goal_update: optional(fromService(GOAL_UPDATE, 'a goal update')) }),
  hints: SENDS,
  run: async (served, { draft_id }, rctx) => {
    const { ctx } = served;
    const entry = draftFor(served, draft_id, 'goal-update');
    const target = entry.target;
    if (target.kind !== 'goal-update' || entry.content.kind !== 'goal-update') throw new UsageError(`The draft ${draft_id} holds no goal update`);
    const resume = sendCommand(entry);
    const input = entry.content.input;
    return withClaim(served, entry, async (claim) => {
      const api = await ctx.api();
      const goal = await getGoal(api, target.goalId);
      const said = await personSaysYes(served, rctx, entry.id, goalUpdateQuestion(goal, input), cannotAsk(entry));
      if ('ask' in said) return said.ask;
      if (!said.yes) return notSent(said, entry.id, resume);
      let created;
      try {
        created = await postGoalUpdateKept(ctx, target.goalId, input, { entry, claim, resume, quiet: true });
      } catch (err) {
        throw sendFailed(served, err, entry, resume);
      }
      return done(`Sent: posted the update of the goal "${sanitizeLine(goal.title)}".`, {
        sent: true,
        draft_id: entry.id,
        draft_kept: false,
        resume_command: resume,
        goal_update: created,
      });
    });
  },
});
