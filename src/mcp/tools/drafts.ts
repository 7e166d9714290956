import { arrayOf, described, object, oneOf, orNull, project } from '../../api/validate.js';
import { DRAFT } from '../../core/shapes.js';
import { waitingDrafts } from '../../domain/drafts-waiting.js';
import { done } from '../kit.js';
import { markedDrafts, sendToolOf } from '../marked.js';
import { AGENT_DRAFT } from '../results.js';
import { tool } from '../tool.js';

export const draftsTool = tool({
  name: 'drafts',
  title: 'Drafts waiting',
  description:
    "The drafts waiting in the outbox for this account (the person's own, kept after a failed or refused send, and agents'), as `checkin drafts --json` has them: each one's id (the draft_id the send_* tools take), what it is for, its first words, how it was written and when it was kept, its state, and which send_* tool takes it (others are sent from a terminal with `checkin drafts send`). Reads files on this machine; no request.",
  input: () => ({}),
  output: object({
    drafts: arrayOf(
      object(
        {
          ...AGENT_DRAFT.fields,
          send_tool: described(
            orNull(oneOf(['send_checkin', 'send_comment', 'send_goal_update'])),
            'the tool that sends it (with this id as draft_id) once the person says yes; none: from a terminal',
          ),
        },
        DRAFT,
      ),
    ),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (served) => {
    const { ctx } = served;
    const list = waitingDrafts(ctx);
    const drafts = list.map((d) => ({ ...project(AGENT_DRAFT, d), send_tool: sendToolOf(d) }));
    const text =
      list.length === 0 ? 'No drafts are waiting.' : `${list.length} draft${list.length === 1 ? '' : 's'} waiting, oldest first:\n${markedDrafts(list)}`;
    return done(text, { drafts });
  },
});
