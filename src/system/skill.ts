// The Agent Skill checkin ships (skills/checkin/SKILL.md, in the package) and its installed copies:
// where each agent reads skills, for the person (user) or for one project, which copy is there and
// from which checkin, and writing this checkin's copy. A copy is marked in its front matter
// (`metadata:` of the Agent Skills format) with the version that wrote it and a digest of the skill
// as shipped, so a copy nobody changed can be updated and one with changes of its own is left alone.
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fsReason, readRegularFile, writeDurably } from '../config/files.js';
import { assetText } from '../config/installation.js';
import { home } from '../config/paths.js';
import { CliError, EXIT } from '../errors.js';
import { VERSION } from '../version.js';

/** The agents whose skills folders are known for certain, named as `checkin mcp --print-config` names them. */
export const SKILL_AGENTS = ['claude', 'codex', 'vscode'] as const;
export type SkillAgent = (typeof SKILL_AGENTS)[number];
export const SKILL_SCOPES = ['user', 'project'] as const;
export type SkillScope = (typeof SKILL_SCOPES)[number];

/** Each agent's skills folder, under the home folder (user) or the project's folder (project), from its own documentation. */
const FOLDERS: Record<SkillAgent, { name: string; user: string[]; project: string[] }> = {
  // Claude Code: ~/.claude/skills/<name>/SKILL.md, .claude/skills/<name>/SKILL.md.
  claude: { name: 'Claude Code', user: ['.claude', 'skills'], project: ['.claude', 'skills'] },
  // Codex: $HOME/.agents/skills and .agents/skills (the Agent Skills folders it reads).
  codex: { name: 'Codex', user: ['.agents', 'skills'], project: ['.agents', 'skills'] },
  // GitHub Copilot (VS Code's agent mode, Copilot CLI): ~/.copilot/skills and .github/skills.
  vscode: { name: 'VS Code (GitHub Copilot)', user: ['.copilot', 'skills'], project: ['.github', 'skills'] },
};

export const agentName = (agent: SkillAgent) => FOLDERS[agent].name;

/** Where `agent` reads checkin's skill in `scope`: `project` is the folder checkin runs in. */
export function skillFile(env: NodeJS.ProcessEnv, agent: SkillAgent, scope: SkillScope, cwd: string): string {
  return join(scope === 'user' ? home(env) : cwd, ...FOLDERS[agent][scope], 'checkin', 'SKILL.md');
}

/** The skill as shipped: beside dist/ in the package (the bundle), or the repository's (src/domain, under tests). */
export function shippedSkill(): string {
  const carried = assetText('SKILL.md'); // the single executable's copy
  if (carried !== undefined) return carried;
  for (const rel of ['../skills/checkin/SKILL.md', '../../skills/checkin/SKILL.md']) {
    const file = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(file)) return readRegularFile(file);
  }
  throw new Error('skills/checkin/SKILL.md is missing from this installation of checkin');
}

const sha256 = (text: string) => process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
const MARK = /^metadata:\n {2}checkin-version: "([^"\n]*)"\n {2}checkin-sha256: "([0-9a-f]{64})"\n/m;

/** The skill as checkin installs it: marked (in its front matter) with this version and the shipped text's digest. */
export function stampedSkill(shipped: string, version = VERSION): string {
  const end = shipped.startsWith('---\n') ? shipped.indexOf('\n---\n', 4) : -1;
  if (end < 0) throw new Error('skills/checkin/SKILL.md has no front matter');
  return `${shipped.slice(0, end + 1)}metadata:\n  checkin-version: "${version}"\n  checkin-sha256: "${sha256(shipped)}"\n${shipped.slice(end + 1)}`;
}

/** What is at an installed copy's place. */
export type SkillState =
  | { kind: 'missing' }
  /** Exactly what this checkin writes. */
  | { kind: 'current'; version: string }
  /** A copy another checkin wrote, unchanged since. */
  | { kind: 'other'; version: string; older: boolean }
  /** Changed since checkin wrote it, or not a copy checkin wrote (`version` when it carries a mark). */
  | { kind: 'changed'; version?: string }
  /** Not a file checkin can read (a folder, a FIFO, permission denied): `reason`. */
  | { kind: 'unreadable'; reason: string };

/** Whether version `a` (x.y.z) is older than `b`; a version that cannot be read is older. */
export function olderThan(a: string, b: string): boolean {
  const parse = (v: string) => /^(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number);
  const [x, y] = [parse(a), parse(b)];
  if (!x) return true;
  if (!y) return false;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return false;
}

/** What is in `file`, against this checkin's copy of the skill. */
export function skillState(file: string, shipped = shippedSkill()): SkillState {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: fsReason(err) };
  }
  if (text === stampedSkill(shipped)) return { kind: 'current', version: VERSION };
  const mark = MARK.exec(text);
  if (!mark) return { kind: 'changed' };
  const [, version, digest] = mark as unknown as [string, string, string];
  if (sha256(text.replace(MARK, '')) !== digest) return { kind: 'changed', version };
  return { kind: 'other', version, older: olderThan(version, VERSION) };
}

export interface SkillPlace {
  agent: SkillAgent;
  scope: SkillScope;
  file: string;
  state: SkillState;
}

/** Every place an agent reads the skill (each agent, user and project), with what is there; in the home folder, its project place is its user place, said once. */
export function skillPlaces(env: NodeJS.ProcessEnv, cwd: string, only: { agent?: SkillAgent; scope?: SkillScope } = {}): SkillPlace[] {
  const shipped = shippedSkill();
  return SKILL_AGENTS.filter((a) => !only.agent || a === only.agent).flatMap((agent) =>
    SKILL_SCOPES.filter((s) => !only.scope || s === only.scope)
      .filter((scope) => scope === 'user' || only.scope === 'project' || skillFile(env, agent, 'project', cwd) !== skillFile(env, agent, 'user', cwd))
      .map((scope) => {
        const file = skillFile(env, agent, scope, cwd);
        return { agent, scope, file, state: skillState(file, shipped) };
      }),
  );
}

/**
 * Writes this checkin's copy of the skill for `agent` in `scope` (durably: a new file renamed over),
 * unless one with changes of its own is there and `force` is not given (`refused`). Nothing is
 * written when the copy there is this checkin's already.
 */
export function installSkill(
  env: NodeJS.ProcessEnv,
  cwd: string,
  opts: { agent: SkillAgent; scope: SkillScope; force?: boolean },
): { file: string; before: SkillState; wrote: boolean; refused: boolean } {
  const shipped = shippedSkill();
  const file = skillFile(env, opts.agent, opts.scope, cwd);
  const before = skillState(file, shipped);
  if (before.kind === 'current') return { file, before, wrote: false, refused: false };
  if ((before.kind === 'changed' || before.kind === 'unreadable') && !opts.force) return { file, before, wrote: false, refused: true };
  try {
    skillFolders(opts.scope === 'user' ? home(env) : cwd, dirname(file), opts.scope);
    writeDurably(file, stampedSkill(shipped), { mode: 0o644, dirMode: opts.scope === 'user' ? 0o700 : 0o755 });
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot write ${file}: ${fsReason(err)}`);
  }
  return { file, before, wrote: true, refused: false };
}

/**
 * Makes the folders from `base` down to `folder` that are missing, each with the mode it needs
 * whatever the umask: 0700 in the home folder (the person's own: ~/.claude, ~/.agents, ~/.copilot
 * and the skills folders under them), 0755 in a project (a project's folders are read by its other
 * tools and people). Folders already there keep their mode. In a project no folder on the way may
 * be a symbolic link, and the folder must stay inside the project: the skill is never written
 * somewhere a link in a repository points to (`.claude` → `~/.ssh`).
 */
export function skillFolders(base: string, folder: string, scope: SkillScope): void {
  const mode = scope === 'user' ? 0o700 : 0o755;
  const parts = relative(base, folder)
    .split(sep)
    .filter((p) => p !== '');
  let at = base;
  for (const part of parts) {
    at = join(at, part);
    let st;
    try {
      st = lstatSync(at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(at, { mode });
      chmodSync(at, mode); // the umask took its bits from mkdir's mode
      continue;
    }
    if (scope === 'project' && st.isSymbolicLink())
      throw new CliError(
        `${at} is a symbolic link: the project's skill is written only inside the project (${base}), never where a link points`,
        EXIT.FAILURE,
        'Remove the link, or install for yourself: --scope user.',
      );
  }
  if (scope === 'project') {
    const inside = relative(realpathSync(base), realpathSync(folder));
    if (inside.startsWith('..') || inside.startsWith(sep))
      throw new CliError(`${folder} is outside the project (${base}): the skill is written only inside it`);
  }
}

/** The installed copies older than this checkin (unchanged or not): what `checkin mcp` mentions. */
export function staleSkills(env: NodeJS.ProcessEnv, cwd: string): Array<SkillPlace & { version: string }> {
  const out: Array<SkillPlace & { version: string }> = [];
  for (const place of skillPlaces(env, cwd)) {
    const { state } = place;
    if ((state.kind === 'other' || state.kind === 'changed') && state.version !== undefined && olderThan(state.version, VERSION))
      out.push({ ...place, version: state.version });
  }
  return out;
}

/**
 * Removes checkin's copy of the skill for `agent` in `scope` (and its folder, when nothing else is
 * in it): a copy with changes of its own, or one checkin did not write, only with `force`.
 */
export function uninstallSkill(
  env: NodeJS.ProcessEnv,
  cwd: string,
  opts: { agent: SkillAgent; scope: SkillScope; force?: boolean },
): { file: string; before: SkillState; removed: boolean; refused: boolean } {
  const file = skillFile(env, opts.agent, opts.scope, cwd);
  const before = skillState(file);
  if (before.kind === 'missing') return { file, before, removed: false, refused: false };
  if ((before.kind === 'changed' || before.kind === 'unreadable') && !opts.force) return { file, before, removed: false, refused: true };
  try {
    rmSync(file, { force: true });
  } catch (err) {
    throw new CliError(`cannot remove ${file}: ${fsReason(err)}`);
  }
  try {
    rmdirSync(dirname(file)); // only when empty
  } catch {
    // something else is in it: left
  }
  return { file, before, removed: true, refused: false };
}
