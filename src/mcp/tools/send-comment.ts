import { COMMENT } from '../../api/types.js';
import { object, optional } from '../../api/validate.js';
import { commentBody } from '../../domain/outbox.js';
import { postCommentKept } from '../../domain/writes.js';
import { UsageError } from '../../errors.js';
import { shownToSend } from '../../ui/as-sent.js';
import { DRAFT_ID } from '../args.js';
import { cannotAsk, commentPlace, draftFor, GATED, notSent, personSaysYes, sendCommand, sendFailed, withClaim } from '../ask.js';
import { done } from '../kit.js';
import { fromService, SENT } from '../results.js';
import { SENDS, tool } from '../tool.js';

export const sendCommentTool = tool({
  name: 'send_comment',
  title: 'Send a comment draft',
  description: `Posts a draft_comment draft after asking the person; nothing is sent if they say no or cannot be asked. ${GATED} A draft is posted at most once.`,
  input: () => ({ draft_id: DRAFT_ID() }),
  output: object({ ...SENT, comment: optional(fromService(COMMENT, 'a comment')) }),
  hints: SENDS,
  run: async (served, { draft_id }, rctx) => {
    const { ctx } = served;
    const entry = draftFor(served, draft_id, 'comment');
    const target = entry.target;
    if (target.kind !== 'comment') throw new UsageError(`The draft ${draft_id} holds no comment`);
    const resume = sendCommand(entry);
    const body = commentBody(entry);
    return withClaim(served, entry, async (claim) => {
      const api = await ctx.api();
      const said = await personSaysYes(
        served,
        rctx,
        entry.id,
        `Post this comment on ${await commentPlace(served, api, target)}?\n\n${shownToSend({ kind: 'comment', body })}`,
        cannotAsk(entry),
      );
      if ('ask' in said) return said.ask;
      if (!said.yes) return notSent(said, entry.id, resume);
      let comment;
      try {
        comment = await postCommentKept(ctx, { kind: target.on, id: target.id }, body, { entry, claim, resume, quiet: true });
      } catch (err) {
        throw sendFailed(served, err, entry, resume);
      }
      return done(`Sent: commented on the ${target.on} ${target.id}.`, {
        sent: true,
        draft_id: entry.id,
        draft_kept: false,
        resume_command: resume,
        comment,
      });
    });
  },
});
