// The agent's tools, one file each, served from this one list (mcp/tool.ts registerTools).
import type { Tool } from '../tool.js';
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

/**
 * Every tool the agent face serves, in the order tools/list gives them: the reading ones, then the
 * writing ones. A new tool is a file beside these and a line here (CONTRIBUTING.md, "Adding an
 * agent tool").
 */
export const TOOLS: readonly Tool[] = [
  getCheckinTool,
  suggestPreviousTool,
  teamDayTool,
  listCheckinsTool,
  inboxTool,
  goalTool,
  goalsTool,
  feedTool,
  draftsTool,
  blockersTool,
  meTool,
  draftCheckinTool,
  sendCheckinTool,
  draftCommentTool,
  sendCommentTool,
  draftGoalUpdateTool,
  sendGoalUpdateTool,
  logActivityTool,
];

/** Each tool's structured result, by its name (what tools/list declares as its output schema). */
export const RESULTS: Readonly<Record<string, Tool['output']>> = Object.fromEntries(TOOLS.map((t) => [t.name, t.output]));
