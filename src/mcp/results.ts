// What each tool answers with (its structured result), as the descriptions of core/shapes.ts and
// api/types.ts put together: every object in a result is one of those shapes (or picked or omitted
// from one), so a field added to a shape is in the tool's schema and in `--json` alike; only each
// tool's own envelope (the day asked for, whether it was sent…) is written here. mcp/kit.ts
// `outputOf` turns a tool's entry into the output schema tools/list declares.
import { ACTIVITY, CHECK_IN, CHECK_IN_ANSWERS, COMMENT, GOAL, GOAL_UPDATE, GOAL_UPDATE_INPUT, REF } from '../api/types.js';
import { arrayOf, bool, described, num, object, omit, oneOf, optional, orNull, pick, str, type Shape } from '../api/validate.js';
import { AGENT_INBOX, DRAFT, FEED, ME_RECORD, OPEN_BLOCKERS, REPLY_ON, SUGGESTION, SUGGESTION_SOURCE, TEAM_DAY } from '../core/shapes.js';

const asSent = (s: Shape<unknown>, what: string) => described(s, `${what}, as the service sent it (a very long text cut, and said so)`);
const DAY = described(str, 'the check-in asked for, as the CLI names it');
const MORE = (words: string) => described(bool, words);
const OTHERS = described(num, "other drafts waiting for the same target (the person's, or earlier ones): left as they are");
const RESUME = described(str, 'the command that sends the draft from a terminal');
/** What every send_* answers with besides what was sent. */
const SENT = {
  sent: bool,
  draft_id: str,
  draft_kept: described(bool, 'the draft is still on disk (not sent): `resume_command` sends it from a terminal'),
  resume_command: RESUME,
  reason: optional(described(str, 'why nothing was sent')),
};

/** What the agent's drafts tool carries of a draft (all of them this account's: no `here`, no `account`). */
export const AGENT_DRAFT = pick(DRAFT, ['id', 'for', 'target', 'made', 'created_at', 'saved_at', 'state', 'words']);

/** Each tool's structured result. */
export const RESULTS = {
  get_checkin: object({ day: DAY, check_in: orNull(asSent(CHECK_IN, 'a check-in')) }),
  suggest_previous: object({
    day: str,
    scheduled: described(bool, 'false when no check-in is scheduled that day (nothing is suggested)'),
    previous: SUGGESTION.fields.previous,
    sources: arrayOf(SUGGESTION_SOURCE),
    notes: described(arrayOf(str), 'sources left out, and why'),
  }),
  team_day: object({ teams: described(arrayOf(TEAM_DAY), "each team's day: what `checkin team --json` prints") }),
  list_checkins: object({
    check_ins: arrayOf(asSent(CHECK_IN, 'a check-in')),
    more_may_follow: MORE('the page was full: ask for the next one'),
  }),
  inbox: AGENT_INBOX,
  goal: object({ goal: asSent(GOAL, 'a goal'), updates: arrayOf(asSent(GOAL_UPDATE, 'a goal update')) }),
  goals: object({
    whose: described(oneOf(['mine', 'named']), 'mine: neither person nor team was named'),
    goals: arrayOf(asSent(GOAL, 'a goal')),
  }),
  feed: FEED,
  drafts: object({
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
  blockers: omit(OPEN_BLOCKERS, ['team_ids']),
  me: object({ me: ME_RECORD, today: described(str, "the date of the person's today") }),
  draft_checkin: object({
    draft_id: str,
    day: str,
    answers: described(CHECK_IN_ANSWERS, 'the answers as they will be sent (those left out keep what the check-in says)'),
    shared_with: described(arrayOf(REF), 'the teams that will see it once sent (team, else all my teams)'),
    preview: described(str, 'the check-in as it will read once sent'),
    hints: described(
      arrayOf(str),
      'writing hints to show the person with the preview (an @mention of nobody on their teams, "none" as blockers sent as none, empty intentions); they never stop sending',
    ),
    resume_command: RESUME,
    other_drafts: OTHERS,
  }),
  send_checkin: object({ ...SENT, check_in: optional(asSent(CHECK_IN, 'a check-in')) }),
  draft_comment: object({ draft_id: str, on: REPLY_ON, body: str, resume_command: RESUME, other_drafts: OTHERS }),
  send_comment: object({ ...SENT, comment: optional(asSent(COMMENT, 'a comment')) }),
  draft_goal_update: object({
    draft_id: str,
    goal: pick(GOAL, ['id', 'title']),
    update: described(GOAL_UPDATE_INPUT, 'the update as it will be sent'),
    preview: str,
    resume_command: RESUME,
    other_drafts: OTHERS,
  }),
  send_goal_update: object({ ...SENT, goal_update: optional(asSent(GOAL_UPDATE, 'a goal update')) }),
  log_activity: object({
    sent: described(bool, 'recorded on the service'),
    draft_id: optional(described(str, 'the draft it was kept as while the person was asked')),
    draft_kept: described(bool, 'the draft is still on disk (not recorded): `checkin drafts send <draft_id>` sends it from a terminal'),
    reason: optional(described(str, 'why nothing was recorded: declined, cancelled, no answer, stale answer')),
    activity: optional(asSent(ACTIVITY, 'an activity')),
  }),
} satisfies Record<string, Shape<unknown> & { fields: object }>;

export type ToolName = keyof typeof RESULTS;
