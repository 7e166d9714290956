import * as z from 'zod';
import { object, str } from '../../api/validate.js';
import { REPLY_ON } from '../../core/shapes.js';
import { commentTarget } from '../../domain/comment-target.js';
import { UsageError } from '../../errors.js';
import { DRAFT_ONLY, keepDraft, othersNote, sendCommand } from '../ask.js';
import { done } from '../kit.js';
import { KEPT } from '../results.js';
import { DRAFTS, tool } from '../tool.js';

export const draftCommentTool = tool({
  name: 'draft_comment',
  title: 'Draft a comment or reply',
  description:
    'Keeps a comment on a check-in or a goal update (a reply to an inbox thread: its type and id) as a draft, and returns its draft_id; sends nothing. send_comment posts it once the person says yes. ' +
    DRAFT_ONLY,
  input: () => ({
    on: z.enum(['check-in', 'goal-update']).describe('what the comment goes on'),
    id: z.string().describe("the check-in (a UUID, YYYY-MM-DD or a day word: my own check-in that day) or the goal update's UUID"),
    body: z.string().min(1).describe('the comment (Markdown)'),
  }),
  output: object({ draft_id: str, on: REPLY_ON, body: str, ...KEPT }),
  hints: DRAFTS,
  run: async (served, { on, id, body }) => {
    const { ctx } = served;
    if (body.trim() === '') throw new UsageError('The comment is empty; nothing was kept');
    const what = await commentTarget(ctx, on === 'goal-update' ? { goalUpdate: id } : { checkIn: id });
    if ('none' in what) throw new UsageError(`No check-in scheduled for ${what.none}: nothing to comment on`);
    const target = { kind: 'comment', on: what.kind, id: what.id } as const;
    const { entry, others } = keepDraft(served, target, { kind: 'comment', body });
    return done(
      `Draft ${entry.id} kept (not sent): a comment on the ${what.kind} ${what.id}:\n\n${body}\n\nsend_comment posts it once the person says yes.${othersNote(others)}`,
      { draft_id: entry.id, on: { type: what.kind, id: what.id }, body, resume_command: sendCommand(entry), other_drafts: others },
    );
  },
});
