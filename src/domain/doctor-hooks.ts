// `doctor`'s hooks check: where checkin's reminder hooks are in the agents' hook settings (Claude
// Code's settings.json, Codex's hooks.json; user and project), whether each points at a checkin
// that is there, whether Claude Code's settings turn every hook off (`disableAllHooks`), and whether
// an agent has them at both scopes (it runs both: two reminders). Reads files only: no request, no process.
import type { AdviceWords, Context } from '../context.js';
import { claudeHooksOff, HOOK_AGENTS, hookProgramFiles, hooksElsewhere, hooksFile, hooksState, ourHook } from '../system/agent-hooks.js';
import { agentName, SKILL_SCOPES } from '../system/skill.js';

/** What doctor.ts's Check is, for this one check (its type is not imported: doctor.ts imports this file). */
export interface HooksCheck {
  id: 'hooks';
  status: 'ok' | 'warning';
  message: string;
  fix: string | null;
}

/** Whether a hook's command runs `checkin` found on PATH. */
const ourHookOnPath = (command: string) => ourHook(command)?.program[0] === 'checkin';

export function hooksCheck(ctx: Context, cwd: string, tilde: (p: string) => string, w: AdviceWords): HooksCheck {
  const found: string[] = [];
  for (const agent of HOOK_AGENTS)
    for (const scope of SKILL_SCOPES) {
      const file = hooksFile(ctx.env, agent, scope, cwd);
      // In the home folder, a project's settings are the user's: said once.
      if (scope === 'project' && file === hooksFile(ctx.env, agent, 'user', cwd)) continue;
      const where = `${agentName(agent)} (${scope}, ${tilde(file)})`;
      const state = hooksState(file);
      const fix = w.skillInstall({ agent, scope, force: false, hooks: true });
      if (state.kind === 'unreadable') return { id: 'hooks', status: 'warning', message: `${where}: ${state.reason}`, fix: null };
      if (state.kind !== 'read' || state.commands.length === 0) continue;
      for (const { command } of state.commands) {
        const { missing } = hookProgramFiles(command, ctx.env);
        if (missing.length > 0)
          return {
            id: 'hooks',
            status: 'warning',
            message: `${where} runs ${missing.map(tilde).join(' and ')}, which is not there: the hook does nothing`,
            // A hook that runs `checkin` from PATH (a project's: its settings are committed) needs it there; one by its paths, the paths of this checkin.
            fix: ourHookOnPath(command)
              ? "Put checkin on PATH where the agent runs (the folder npm installs programs in, or the binary's)."
              : `Run \`${fix}\` to point it at this checkin.`,
          };
      }
      found.push(`${where}: ${[...new Set(state.commands.map((c) => c.event))].join(', ')}`);
      if (agent === 'claude') {
        const off = claudeHooksOff(ctx.env, cwd);
        if (off)
          return {
            id: 'hooks',
            status: 'warning',
            message: `${where}: no hook runs here, "disableAllHooks": true in ${tilde(off.file)} turns them all off (checkin's reminders too)`,
            fix: off.managed
              ? `${tilde(off.file)} is this machine's managed settings, which no other file overrides: whoever manages them can take "disableAllHooks" out for the reminders to run.`
              : `Take "disableAllHooks" out of ${tilde(off.file)} (or set it to false) for the reminders to run.`,
          };
      }
      const elsewhere = scope === 'user' ? hooksElsewhere(ctx.env, agent, scope, cwd) : undefined;
      if (elsewhere)
        return {
          id: 'hooks',
          status: 'warning',
          message: `${agentName(agent)} has checkin's hooks in both ${tilde(file)} (user) and ${tilde(elsewhere.file)} (project): it runs both, so each reminder comes twice`,
          fix: `Keep one: \`${w.skillUninstall({ agent, scope: 'user' })}\` takes out yours (for every project), \`${w.skillUninstall({ agent, scope: 'project' })}\` this project's (each with the skill there).`,
        };
    }
  if (found.length === 0)
    return {
      id: 'hooks',
      status: 'ok',
      message: `not installed (\`${w.skillInstall({ agent: 'claude', scope: 'user', force: false, hooks: true })}\` adds them)`,
      fix: null,
    };
  return { id: 'hooks', status: 'ok', message: found.join('; '), fix: null };
}
