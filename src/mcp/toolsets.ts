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

/**
 * What a tool does: reads (the service, or the drafts kept here), drafts (keeps a draft here and
 * sends nothing), sends (a kept draft, once the person says yes) or logs (records work done). All
 * but reading write: --read-only leaves them out (tool.ts), and the instructions say what each can
 * do (identity.ts instructionsFor).
 */
export type ToolKind = 'reads' | 'drafts' | 'sends' | 'logs';

/** Every tool by name, with its set and its kind, in the order tools/list gives them: the reading ones, then the writing ones. */
const TOOLS_DECLARED = {
  get_checkin: ['checkin', 'reads'],
  suggest_previous: ['checkin', 'reads'],
  team_day: ['team', 'reads'],
  list_checkins: ['team', 'reads'],
  inbox: ['comments', 'reads'],
  goal: ['goals', 'reads'],
  goals: ['goals', 'reads'],
  feed: ['team', 'reads'],
  drafts: ['drafts', 'reads'],
  blockers: ['team', 'reads'],
  me: ['team', 'reads'],
  draft_checkin: ['checkin', 'drafts'],
  send_checkin: ['checkin', 'sends'],
  draft_comment: ['comments', 'drafts'],
  send_comment: ['comments', 'sends'],
  draft_goal_update: ['goals', 'drafts'],
  send_goal_update: ['goals', 'sends'],
  log_activity: ['checkin', 'logs'],
} as const satisfies Record<string, readonly [ToolSet, ToolKind]>;
export type ToolName = keyof typeof TOOLS_DECLARED;
export const TOOL_NAMES = Object.keys(TOOLS_DECLARED) as ToolName[];
const setOf = (n: ToolName): ToolSet => TOOLS_DECLARED[n][0];
/** What the tool does (its kind). */
export const kindOf = (n: ToolName): ToolKind => TOOLS_DECLARED[n][1];
/** It keeps or sends something: --read-only leaves it out, and a send waits for the person's yes (ask.ts). */
export const writes = (n: ToolName): boolean => kindOf(n) !== 'reads';

/** The tools a server lists: those chosen, less the writing ones under --read-only. */
export function servedTools(chosen: readonly ToolName[], readOnly: boolean): ToolName[] {
  return chosen.filter((n) => !readOnly || !writes(n));
}

/** The tools of the default sets, in the list's order. */
export const DEFAULT_TOOLS: readonly ToolName[] = TOOL_NAMES.filter((n) => DEFAULT_TOOLSETS.includes(setOf(n)));

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
  const unknownTools = (choice.tools ?? []).filter((n) => !Object.hasOwn(TOOLS_DECLARED, n));
  const unknownSets = (choice.toolsets ?? []).filter((n) => n !== 'all' && !(TOOLSETS as readonly string[]).includes(n));
  if (unknownTools.length > 0 || unknownSets.length > 0) return { unknownTools, unknownSets };
  if (choice.tools === undefined && choice.toolsets === undefined) return { chosen: [...DEFAULT_TOOLS] };
  const sets = new Set<string>(choice.toolsets ?? []);
  const named = new Set(choice.tools ?? []);
  return { chosen: TOOL_NAMES.filter((n) => sets.has('all') || sets.has(setOf(n)) || named.has(n)) };
}
