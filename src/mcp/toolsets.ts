// The names of the agent's tools and of the sets `checkin mcp --tools` / `--toolsets` choose from,
// with no SDK and no tool's work: the command refuses an unknown name with them before anything is
// served, and the first answer (first.ts) knows with them that the server will start. Each tool's
// file declares its work under its name here (tools/index.ts: the same names, in this order).

/**
 * The named sets of tools `checkin mcp --toolsets` chooses from: `checkin` is what a daily check-in
 * needs (read it, suggest, draft, send, log the work done); `team` the team's days and blockers;
 * `goals`, `comments` and `drafts` the rest.
 */
export const TOOLSETS = ['checkin', 'team', 'goals', 'comments', 'drafts'] as const;
export type ToolSet = (typeof TOOLSETS)[number];
/** The sets served when none is chosen: the daily flow (the check-in, the team's day, what waits as a draft). */
export const DEFAULT_TOOLSETS: readonly ToolSet[] = ['checkin', 'team', 'drafts'];

/** Every tool by name, with its set, in the order tools/list gives them: the reading ones, then the writing ones. */
export const TOOL_SETS = {
  get_checkin: 'checkin',
  suggest_previous: 'checkin',
  team_day: 'team',
  list_checkins: 'team',
  inbox: 'comments',
  goal: 'goals',
  goals: 'goals',
  feed: 'team',
  drafts: 'drafts',
  blockers: 'team',
  me: 'team',
  draft_checkin: 'checkin',
  send_checkin: 'checkin',
  draft_comment: 'comments',
  send_comment: 'comments',
  draft_goal_update: 'goals',
  send_goal_update: 'goals',
  log_activity: 'checkin',
} as const satisfies Record<string, ToolSet>;
export type ToolName = keyof typeof TOOL_SETS;
export const TOOL_NAMES = Object.keys(TOOL_SETS) as ToolName[];

/** The tools of the default sets, in the list's order. */
export const DEFAULT_TOOLS: readonly ToolName[] = TOOL_NAMES.filter((n) => DEFAULT_TOOLSETS.includes(TOOL_SETS[n]));

/** What the person chose to serve: tool names and set names (`all`: every set); both undefined: the default sets. */
export interface ToolChoice {
  tools?: readonly string[];
  toolsets?: readonly string[];
}

/** A comma-separated list of names (spaces allowed around them); unset or empty: none given. */
export function namesIn(list: string | undefined): string[] | undefined {
  const got = (list ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  return got.length > 0 ? got : undefined;
}

/** The choice of `--tools` / `--toolsets`, each flag over its variable (CHECKIN_MCP_TOOLS, CHECKIN_MCP_TOOLSETS). */
export function toolChoice(flags: { tools?: string; toolsets?: string }, env: NodeJS.ProcessEnv): ToolChoice {
  return { tools: namesIn(flags.tools ?? env.CHECKIN_MCP_TOOLS), toolsets: namesIn(flags.toolsets ?? env.CHECKIN_MCP_TOOLSETS) };
}

/**
 * The tools a choice serves, in the list's order: those named and those of the sets named (the
 * default sets when neither is given); or the names that are neither a tool nor a set, so that a
 * typo is refused at start rather than silently serving less.
 */
export function chooseTools(choice: ToolChoice): { chosen: ToolName[] } | { unknownTools: string[]; unknownSets: string[] } {
  const unknownTools = (choice.tools ?? []).filter((n) => !Object.hasOwn(TOOL_SETS, n));
  const unknownSets = (choice.toolsets ?? []).filter((n) => n !== 'all' && !(TOOLSETS as readonly string[]).includes(n));
  if (unknownTools.length > 0 || unknownSets.length > 0) return { unknownTools, unknownSets };
  if (choice.tools === undefined && choice.toolsets === undefined) return { chosen: [...DEFAULT_TOOLS] };
  const sets = new Set<string>(choice.toolsets ?? []);
  const named = new Set(choice.tools ?? []);
  return { chosen: TOOL_NAMES.filter((n) => sets.has('all') || sets.has(TOOL_SETS[n]) || named.has(n)) };
}
