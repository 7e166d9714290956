// What the tools' results (each tool's `output`, in its file of tools/) are put together from: the
// descriptions of core/shapes.ts and api/types.ts. Every object in a result is one of those shapes
// (or picked or omitted from one), so a field added to a shape is in the tool's schema and in
// `--json` alike; only each tool's own envelope (the day asked for, whether it was sent…) is written
// in its file, from the pieces here. mcp/kit.ts `outputJson` and `outputOf` turn a tool's output
// into the schema tools/list declares and the check of its answers.
import { bool, described, num, optional, pick, str, type Shape } from '../api/validate.js';
import { DRAFT } from '../core/shapes.js';

export const fromService = (s: Shape<unknown>, what: string) => described(s, `${what}, as the service sent it (a very long text cut, and said so)`);
export const ASKED_DAY = described(str, 'the check-in asked for, as the CLI names it');
export const MORE = (words: string) => described(bool, words);
export const OTHERS = described(num, "other drafts waiting for the same target (the person's, or earlier ones): left as they are");
export const RESUME = described(str, 'the command that sends the draft from a terminal');
/** What every draft_* answers with last: how to send it from a terminal, and the other drafts for the same target. */
export const KEPT = { resume_command: RESUME, other_drafts: OTHERS };
/** What every send_* answers with besides what was sent. */
export const SENT = {
  sent: bool,
  draft_id: str,
  draft_kept: described(bool, 'the draft is still on disk (not sent): `resume_command` sends it from a terminal'),
  resume_command: RESUME,
  reason: optional(described(str, 'why nothing was sent')),
};

/** What the agent's drafts tool carries of a draft (all of them this account's: no `here`, no `account`). */
export const AGENT_DRAFT = pick(DRAFT, ['id', 'for', 'target', 'made', 'created_at', 'saved_at', 'state', 'words']);
