// `checkin mcp`: checkin as a Model Context Protocol server over stdio, for coding agents. The SDK
// is loaded only here: src/mcp/server.ts is built as a bundle of its own (dist/mcp-server.cjs, beside
// checkin.cjs) and required when this command runs, so no other command's start-up pays for it.
// `--print-config <agent>` prints how to add it to an agent, and an unknown tool or set is refused,
// without loading the SDK (the names: mcp/toolsets.ts). When bin/checkin.js answered the first
// request already (mcp/first.ts), the server is handed what was read and said (ctx.opening).
import { Command, Option } from '@commander-js/extra-typings';
import { requireAsset } from '../../config/installation.js';
import { outputFailed } from '../../error-text.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import type { Context } from '../../context.js';
import { staleSkills } from '../../system/skill.js';
import { VERSION } from '../../version.js';
import type { Run } from '../flags.js';
import { AGENTS, agentSetup, type Agent } from './setup.js';
import { chooseTools, TOOL_NAMES, toolChoice, TOOLSETS, type ToolChoice, type ToolName } from '../../mcp/toolsets.js';

/**
 * What dist/mcp-server.cjs (src/mcp/server.ts) exports. The agent face stands beside the CLI, over
 * the same domain: this command starts it and imports nothing of it (test/mcp/tools.test.ts holds the two
 * to the same type).
 */
export interface AgentFace {
  /** Resolves when the conversation ends: to stdout's failure when that ended it (ui/io.ts protocolIO), else undefined. */
  serve(ctx: Context, opts: { allowSend: boolean; readOnly?: boolean; tools?: readonly ToolName[]; afterFirstAnswer?: () => void }): Promise<unknown>;
}

export interface McpOptions {
  allowSend?: boolean;
  readOnly?: boolean;
  printConfig?: Agent;
  tools?: string;
  toolsets?: string;
}

export function mcpCommand(ctx: Context, run: Run<McpOptions> = runMcp) {
  return new Command('mcp')
    .description('Serve checkin to a coding agent (MCP over stdio): it reads, suggests and drafts; you say yes before anything is sent')
    .option('--allow-send', 'let the agent send without asking you, when its client cannot ask (no MCP elicitation)')
    .option('--read-only', 'serve only the tools that read: no drafting, sending or logging (the drafts stay readable)')
    .option('--tools <names>', 'serve only these tools and those of --toolsets (comma-separated; env CHECKIN_MCP_TOOLS)')
    .option('--toolsets <sets>', 'serve these sets: checkin, team, goals, comments, drafts, or all (default checkin,team,drafts; env CHECKIN_MCP_TOOLSETS)')
    .addOption(new Option('--print-config <agent>', 'print how to add this server to an agent').choices(AGENTS))
    .addHelpText('after', '\nExamples:\n  claude mcp add checkin -- checkin mcp\n  checkin mcp --print-config vscode')
    .action((opts) => run(ctx, opts));
}

export async function runMcp(ctx: Context, opts: McpOptions): Promise<void> {
  const choice = toolChoice(opts, ctx.env);
  const chosen = choice.tools || choice.toolsets ? chooseOrRefuse(choice) : undefined;
  if (opts.printConfig) {
    // A profile named here (--profile, CHECKIN_PROFILE) is the agent's too; a folder's .checkin.json
    // is read again where the agent's host starts the server.
    const profile = ctx.profile();
    const extra = [
      ...(profile.origin === 'flag' || profile.origin === 'env' ? ['--profile', profile.name] : []),
      ...(choice.tools ? ['--tools', choice.tools.join(',')] : []),
      ...(choice.toolsets ? ['--toolsets', choice.toolsets.join(',')] : []),
    ];
    if (opts.allowSend) ctx.io.err('note: --allow-send is added to the command below\n');
    if (opts.readOnly) ctx.io.err('note: --read-only is added to the command below\n');
    if (extra.length > 0) ctx.io.err(`note: ${extra.join(' ')} is added to the command below\n`);
    const { note, snippet } = agentSetup(opts.printConfig, Boolean(opts.allowSend), Boolean(opts.readOnly), extra);
    ctx.io.err(`${note}\n`);
    ctx.io.out(snippet);
    return;
  }
  // stdout failed while the first answer was written (mcp/first.ts): the conversation cannot be had,
  // and what the client sends is not read (a stream still open would keep the process).
  if (ctx.opening?.failed !== undefined) {
    ctx.io.stdin.destroy();
    throw outputFailed(ctx.opening.failed);
  }
  // The skill's note (a walk of the agents' skill folders) once the first answer is out: it never delays it.
  const failed = await agentFace().serve(ctx, {
    allowSend: Boolean(opts.allowSend),
    readOnly: Boolean(opts.readOnly),
    tools: chosen,
    afterFirstAnswer: () => sayStaleSkills(ctx),
  });
  if (failed !== undefined) throw outputFailed(failed);
}

/** The agent face: found beside the running bundle (dist/checkin.cjs), never bundled into it; the single executable carries the same file inside. */
function agentFace(): AgentFace {
  return (requireAsset('mcp-server') ?? process.getBuiltinModule('node:module').createRequire(import.meta.url)('./mcp-server.cjs')) as AgentFace;
}

/** The tools a choice serves; a name that is neither a tool nor a set stops the start (exit 2), saying the names there are. */
function chooseOrRefuse(choice: ToolChoice): ToolName[] {
  const made = chooseTools(choice);
  if ('chosen' in made) return made.chosen;
  const said = [
    ...(made.unknownTools.length > 0 ? [`no tool named ${made.unknownTools.map((n) => `"${sanitizeLine(n)}"`).join(', ')}`] : []),
    ...(made.unknownSets.length > 0 ? [`no tool set named ${made.unknownSets.map((n) => `"${sanitizeLine(n)}"`).join(', ')}`] : []),
  ];
  throw new UsageError(`checkin mcp: ${said.join('; ')}`, `The tool sets: ${[...TOOLSETS, 'all'].join(', ')}.`, `The tools: ${TOOL_NAMES.join(', ')}.`);
}

/** One line on stderr when an installed copy of checkin's skill is older than this checkin (the agent reads the old one). */
function sayStaleSkills(ctx: Context): void {
  let stale: ReturnType<typeof staleSkills>;
  try {
    stale = staleSkills(ctx.env, process.cwd());
  } catch {
    return; // the skill is not in this installation: nothing to compare with
  }
  if (stale.length === 0) return;
  const copies = stale.map((s) => `${s.file} (${s.version})`).join(', ');
  const fix = stale.map((s) => `checkin skill install --agent ${s.agent} --scope ${s.scope}`).join('; ');
  ctx.io.err(`note: the checkin skill your agent reads is older than checkin ${VERSION}: ${copies}; \`${fix}\` updates it\n`);
}
