// The agent's tools, one file each, served from this one list (mcp/tool.ts registerTools).
import type { Fields, Tool } from '../tool.js';
import { TOOL_NAMES, type ToolName } from '../toolsets.js';
import { getCheckinTool } from './get-checkin.js';
import { suggestPreviousTool } from './suggest-previous.js';
import { teamDayTool } from './team-day.js';
import { listCheckinsTool } from './list-checkins.js';
import { inboxTool } from './inbox.js';
import { goalTool } from './goal.js';
import { goalsTool } from './goals.js';
import { feedTool } from './feed.js';
import { draftsTool } from './drafts.js';
import { blockersTool } from './blockers.js';
import { meTool } from './me.js';
import { draftCheckinTool } from './draft-checkin.js';
import { sendCheckinTool } from './send-checkin.js';
import { draftCommentTool } from './draft-comment.js';
import { sendCommentTool } from './send-comment.js';
import { draftGoalUpdateTool } from './draft-goal-update.js';
import { sendGoalUpdateTool } from './send-goal-update.js';
import { logActivityTool } from './log-activity.js';

/** Each tool by its name (toolsets.ts): every name there has its tool, declared under that name. */
const BY_NAME: { [N in ToolName]: Tool<Fields, N> } = {
  get_checkin: getCheckinTool,
  suggest_previous: suggestPreviousTool,
  team_day: teamDayTool,
  list_checkins: listCheckinsTool,
  inbox: inboxTool,
  goal: goalTool,
  goals: goalsTool,
  feed: feedTool,
  drafts: draftsTool,
  blockers: blockersTool,
  me: meTool,
  draft_checkin: draftCheckinTool,
  send_checkin: sendCheckinTool,
  draft_comment: draftCommentTool,
  send_comment: sendCommentTool,
  draft_goal_update: draftGoalUpdateTool,
  send_goal_update: sendGoalUpdateTool,
  log_activity: logActivityTool,
};

/**
 * Every tool the agent face serves, in the order tools/list gives them (toolsets.ts's). A new tool is
 * a file beside these, its name in toolsets.ts and a line above (CONTRIBUTING.md, "Adding an agent tool").
 */
export const TOOLS: readonly Tool[] = TOOL_NAMES.map((n) => BY_NAME[n]);

/** Each tool's structured result, by its name (what tools/list declares as its output schema). */
export const RESULTS: Readonly<Record<string, Tool['output']>> = Object.fromEntries(TOOLS.map((t) => [t.name, t.output]));
