import * as z from 'zod';
import { getGoal } from '../../api/endpoints.js';
import { GOAL, GOAL_UPDATE_INPUT, type GoalUpdateInput } from '../../api/types.js';
import { described, object, pick, str } from '../../api/validate.js';
import { parseConfidence } from '../../domain/goal-updates.js';
import { goalIdOf } from '../../domain/short-ids.js';
import { sanitize } from '../../ui/sanitize.js';
import { goalUpdatePreview } from '../../ui/views.js';
import { DRAFT_ONLY, keepDraft, othersNote, sendCommand } from '../ask.js';
import { done, plainView } from '../kit.js';
import { KEPT } from '../results.js';
import { DRAFTS, tool } from '../tool.js';

export const draftGoalUpdateTool = tool({
  name: 'draft_goal_update',
  title: 'Draft a goal update',
  description:
    'Keeps an update of a goal (title, Markdown body, progress, confidence) as a draft and returns its preview and draft_id; sends nothing. send_goal_update posts it once the person says yes. ' +
    DRAFT_ONLY,
  input: () => ({
    goal_id: z.string().describe("the goal's id: its UUID, or the start of it (8 characters, as the goals tool's short ids)"),
    title: z.string().min(1).describe('the title'),
    body: z.string().optional().describe('the body (Markdown)'),
    progress: z.number().int().min(0).max(100).optional().describe('progress in percent'),
    confidence: z
      .union([z.string().describe('on-track, at-risk or off-track, or a number as text'), z.number().describe('90, 60 or 30')])
      .optional()
      .describe('on-track, at-risk, off-track, 90, 60 or 30 (a number or a string)'),
  }),
  output: object({
    draft_id: str,
    goal: pick(GOAL, ['id', 'title']),
    update: described(GOAL_UPDATE_INPUT, 'the update as it will be sent'),
    preview: str,
    ...KEPT,
  }),
  hints: DRAFTS,
  run: async (served, args) => {
    const { ctx } = served;
    const id = await goalIdOf(ctx, args.goal_id, 'The goal id');
    const input: GoalUpdateInput = { title: args.title };
    if (args.body !== undefined) input.body = args.body;
    if (args.progress !== undefined) input.progress = args.progress;
    if (args.confidence !== undefined) input.confidence = parseConfidence(String(args.confidence), 'confidence');
    const goal = await getGoal(await ctx.api(), id);
    const target = { kind: 'goal-update', goalId: id } as const;
    const { entry, others } = keepDraft(served, target, { kind: 'goal-update', input });
    const preview = goalUpdatePreview(await plainView(ctx), sanitize(goal.title), {
      ...input,
      ...(input.title && { title: sanitize(input.title) }),
      ...(input.body && { body: sanitize(input.body) }),
    });
    return done(
      `Draft ${entry.id} kept (not sent).${othersNote(others)} Show the person this preview; send_goal_update posts it once they say yes.\n\n${preview}`,
      { draft_id: entry.id, goal: { id: goal.id, title: goal.title }, update: input, preview, resume_command: sendCommand(entry), other_drafts: others },
    );
  },
});
