// `checkin skill install|uninstall|status`: the Agent Skill checkin ships (skills/checkin/SKILL.md),
// written into an agent's skills folder, for the person (user: every project) or for the project
// checkin runs in — as gh installs skills, with the agents named as `checkin mcp --print-config` names
// them. A copy with changes of its own is never replaced without --force. With --hooks, checkin's
// reminders (`checkin hook`) go into the agent's hook settings too (system/agent-hooks.ts).
import { Command, Option } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import {
  agentName,
  installSkill,
  skillPlaces,
  SKILL_AGENTS,
  SKILL_SCOPES,
  uninstallSkill,
  type SkillAgent,
  type SkillScope,
  type SkillState,
} from '../../system/skill.js';
import { HOOK_AGENTS, hooksElsewhere, hooksFile, hooksState, planHooksInstall, uninstallHooks, type HookAgent } from '../../system/agent-hooks.js';
import { UsageError } from '../../errors.js';
import { VERSION } from '../../version.js';
import type { Run } from '../flags.js';
import { sanitizeLine } from '../../ui/sanitize.js';

export interface SkillInstallOptions {
  agent: SkillAgent;
  scope: SkillScope;
  force?: boolean;
  hooks?: boolean;
}
export interface SkillUninstallOptions {
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
    .option(
      '--hooks',
      "also add checkin's reminders to the agent's hooks (Claude Code: settings.json; Codex: hooks.json): `checkin hook session-start` and `checkin hook stop`, merged with the hooks there",
    )
    .addHelpText(
      'after',
      "\nThe hooks remind, never send: no request, exit 0 always, one line only when today's check-in is pending, commits are unlogged or drafts wait (`checkin hook --help`). `checkin skill uninstall` takes out only checkin's.\n\nExamples:\n  checkin skill install\n  checkin skill install --hooks\n  checkin skill install --agent codex --scope project",
    )
    .action((opts) => run(ctx, opts));
}

export function skillUninstallCommand(ctx: Context, run: Run<SkillUninstallOptions> = runSkillUninstall) {
  return new Command('uninstall')
    .description("Remove checkin's skill from an agent's skills folder, and checkin's hooks from its hook settings (only checkin's: every other hook stays)")
    .addOption(agentOption('the agent: claude, codex or vscode').default('claude' as const))
    .addOption(scopeOption('user (under your home folder) or project (this folder)').default('user' as const))
    .option('--force', 'remove a copy of the skill that has changes of its own')
    .addHelpText('after', '\nExamples:\n  checkin skill uninstall\n  checkin skill uninstall --agent codex --scope project')
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
    .description("checkin's Agent Skill for coding agents, and its reminder hooks: install them, see where they are, remove them")
    .addCommand(skillInstallCommand(ctx))
    .addCommand(skillUninstallCommand(ctx))
    .addCommand(skillStatusCommand(ctx));
}

const where = (agent: SkillAgent, scope: SkillScope) => `${agentName(agent)} (${scope})`;

const hookAgent = (agent: SkillAgent): agent is HookAgent => (HOOK_AGENTS as readonly string[]).includes(agent);

export async function runSkillInstall(ctx: Context, opts: SkillInstallOptions): Promise<void> {
  if (opts.hooks && !hookAgent(opts.agent))
    throw new UsageError(
      `checkin writes hooks for Claude Code and Codex only, not for ${agentName(opts.agent)}`,
      'Use --agent claude or --agent codex with --hooks.',
    );
  // The hook settings are read and merged before anything is written: settings that cannot be merged stop the install.
  const hooks =
    opts.hooks && hookAgent(opts.agent)
      ? planHooksInstall(ctx.env, process.cwd(), { agent: opts.agent, scope: opts.scope, profile: ctx.profileFlag })
      : undefined;
  let refused: UsageError | undefined;
  try {
    await installSkillOnly(ctx, opts);
  } catch (err) {
    // A skill the person changed is left as it is, and said so last; the hooks asked for go in all the same (they are checkin's alone).
    if (!hooks || !(err instanceof UsageError)) throw err;
    refused = err;
  }
  if (hooks) {
    const who = where(opts.agent, opts.scope);
    hooks.write();
    if (!hooks.changed) ctx.io.out(`checkin's hooks for ${who} are up to date: ${hooks.file}\n`);
    else ctx.io.out(`${hooks.before === 0 ? 'Added' : 'Updated'} checkin's hooks (SessionStart, Stop) for ${who}: ${hooks.file}\n`);
    // A project's settings are committed: they name no path of this machine.
    if (hooks.changed && opts.scope === 'project')
      ctx.io.out('They run `checkin` from PATH: whoever works in this project needs checkin on PATH where the agent runs.\n');
    if (hooks.changed && opts.agent === 'codex') ctx.io.out('Codex runs new hooks once you have reviewed and trusted them (/hooks).\n');
    // The agent runs the hooks of every settings file: checkin's at the other scope too would remind twice.
    const elsewhere = hookAgent(opts.agent) ? hooksElsewhere(ctx.env, opts.agent, opts.scope, process.cwd()) : undefined;
    if (elsewhere)
      ctx.io.err(
        `warning: checkin's hooks are in ${elsewhere.file} (${elsewhere.scope}) too: ${agentName(opts.agent)} runs both, so each reminder comes twice. \`checkin skill uninstall --agent ${opts.agent} --scope ${elsewhere.scope}\` takes those out (with the skill there).\n`,
      );
  }
  if (refused) throw refused;
}

async function installSkillOnly(ctx: Context, opts: SkillInstallOptions): Promise<void> {
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

export async function runSkillUninstall(ctx: Context, opts: SkillUninstallOptions): Promise<void> {
  const who = where(opts.agent, opts.scope);
  const cwd = process.cwd();
  const skill = uninstallSkill(ctx.env, cwd, opts);
  // The hooks go whatever became of the skill: they are checkin's alone.
  const hooks = hookAgent(opts.agent) ? uninstallHooks(ctx.env, cwd, { agent: opts.agent, scope: opts.scope }) : undefined;
  if (hooks?.changed) ctx.io.out(`Removed checkin's hooks for ${who}: ${hooks.file}\n`);
  if (skill.removed) ctx.io.out(`Removed the checkin skill for ${who}: ${skill.file}\n`);
  else if (!skill.refused && !hooks?.changed) ctx.io.out(`Nothing of checkin's is installed for ${who}\n`);
  if (skill.refused)
    throw new UsageError(
      `${skill.file} ${skill.before.kind === 'unreadable' ? `cannot be read (${skill.before.reason})` : 'has changes of its own'}: left as it is`,
      `\`checkin skill uninstall --agent ${opts.agent} --scope ${opts.scope} --force\` removes it.`,
    );
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
  const cwd = process.cwd();
  const places = skillPlaces(ctx.env, cwd, opts);
  const rows: Array<readonly [string, string, string, string]> = places.map((p) => [p.agent, p.scope, p.file, stateWords(p.state, p.agent, p.scope)] as const);
  // Hooks are listed where there are some of checkin's (or the settings cannot be read).
  for (const p of places) {
    if (!hookAgent(p.agent)) continue;
    const file = hooksFile(ctx.env, p.agent, p.scope, cwd);
    const state = hooksState(file);
    if (state.kind === 'read' && state.commands.length > 0)
      rows.push([p.agent, p.scope, file, `hooks: ${state.commands.map((c) => `${c.event} → ${sanitizeLine(c.command)}`).join(', ')}`]);
    if (state.kind === 'unreadable') rows.push([p.agent, p.scope, file, `hooks: ${sanitizeLine(state.reason)}`]);
  }
  const width = (i: number) => Math.max(...rows.map((r) => r[i]!.length));
  ctx.io.out(rows.map((r) => `${r[0].padEnd(width(0))}  ${r[1].padEnd(width(1))}  ${r[2]}  ${r[3]}\n`).join(''));
}
