// `checkin skill install|status`: the Agent Skill checkin ships (skills/checkin/SKILL.md), written
// into an agent's skills folder, for the person (user: every project) or for the project checkin runs
// in — as gh installs skills, with the agents named as `checkin mcp --print-config` names them. A
// copy with changes of its own is never replaced without --force.
import { Command, Option } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { agentName, installSkill, skillPlaces, SKILL_AGENTS, SKILL_SCOPES, type SkillAgent, type SkillScope, type SkillState } from '../../system/skill.js';
import { UsageError } from '../../errors.js';
import { VERSION } from '../../version.js';
import type { Run } from '../flags.js';

export interface SkillInstallOptions {
  agent: SkillAgent;
  scope: SkillScope;
  force?: boolean;
}
export interface SkillStatusOptions {
  agent?: SkillAgent;
  scope?: SkillScope;
}

const agentOption = (about: string) => new Option('--agent <agent>', about).choices(SKILL_AGENTS);
const scopeOption = (about: string) => new Option('--scope <scope>', about).choices(SKILL_SCOPES);

export function skillInstallCommand(ctx: Context, run: Run<SkillInstallOptions> = runSkillInstall) {
  return new Command('install')
    .description("Write checkin's skill into an agent's skills folder (replaces an earlier checkin's copy; never one you changed, unless --force)")
    .addOption(
      agentOption('the agent: claude (~/.claude/skills), codex (~/.agents/skills), vscode (GitHub Copilot: ~/.copilot/skills)').default('claude' as const),
    )
    .addOption(
      scopeOption('user: for every project (under your home folder); project: this folder only (.claude/, .agents/ or .github/skills)').default(
        'user' as const,
      ),
    )
    .option('--force', 'replace a copy that has changes of its own')
    .addHelpText('after', '\nExamples:\n  checkin skill install\n  checkin skill install --agent codex --scope project')
    .action((opts) => run(ctx, opts));
}

export function skillStatusCommand(ctx: Context, run: Run<SkillStatusOptions> = runSkillStatus) {
  return new Command('status')
    .description("Where checkin's skill is installed, for each agent and scope, and whether it is this checkin's")
    .addOption(agentOption('only this agent'))
    .addOption(scopeOption('only this scope'))
    .action((opts) => run(ctx, opts));
}

export function skillCommand(ctx: Context) {
  return new Command('skill')
    .description("checkin's Agent Skill for coding agents: install it, see where it is")
    .addCommand(skillInstallCommand(ctx))
    .addCommand(skillStatusCommand(ctx));
}

const where = (agent: SkillAgent, scope: SkillScope) => `${agentName(agent)} (${scope})`;

export async function runSkillInstall(ctx: Context, opts: SkillInstallOptions): Promise<void> {
  const { file, before, wrote, refused } = installSkill(ctx.env, process.cwd(), opts);
  const who = where(opts.agent, opts.scope);
  if (refused) {
    const why =
      before.kind === 'unreadable'
        ? `cannot be read (${before.reason})`
        : before.kind === 'changed' && before.version !== undefined
          ? `has changes of its own since checkin ${before.version} wrote it`
          : 'is not a copy checkin wrote';
    throw new UsageError(
      `${file} ${why}: left as it is`,
      `\`checkin skill install --agent ${opts.agent} --scope ${opts.scope} --force\` replaces it with checkin ${VERSION}'s.`,
    );
  }
  if (!wrote) return ctx.io.out(`The checkin skill for ${who} is up to date (checkin ${VERSION}): ${file}\n`);
  const done =
    before.kind === 'missing'
      ? `Installed the checkin skill for ${who}`
      : before.kind === 'other'
        ? `Updated the checkin skill for ${who} from checkin ${before.version} to ${VERSION}`
        : `Replaced the checkin skill for ${who} (it had changes of its own) with checkin ${VERSION}'s`;
  ctx.io.out(`${done}: ${file}\n`);
}

function stateWords(state: SkillState, agent: SkillAgent, scope: SkillScope): string {
  switch (state.kind) {
    case 'missing':
      return 'not installed';
    case 'current':
      return `up to date (${state.version})`;
    case 'other':
      return state.older ? `older (${state.version}): \`checkin skill install --agent ${agent} --scope ${scope}\` updates it` : `newer (${state.version})`;
    case 'changed':
      return state.version !== undefined ? `changed since checkin ${state.version} wrote it` : 'not a copy checkin wrote';
    case 'unreadable':
      return `cannot be read (${state.reason})`;
  }
}

export async function runSkillStatus(ctx: Context, opts: SkillStatusOptions): Promise<void> {
  const places = skillPlaces(ctx.env, process.cwd(), opts);
  const rows = places.map((p) => [p.agent, p.scope, p.file, stateWords(p.state, p.agent, p.scope)] as const);
  const width = (i: number) => Math.max(...rows.map((r) => r[i]!.length));
  ctx.io.out(rows.map((r) => `${r[0].padEnd(width(0))}  ${r[1].padEnd(width(1))}  ${r[2]}  ${r[3]}\n`).join(''));
}
