// `checkin skill install|status` and `checkin mcp`'s line about an older skill, as a person runs
// them: the built CLI spawned with a HOME of its own, in a project folder of its own; the exact
// files written, the exact output and exit codes.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_WORDS, projectSetup, ROOT, runCli } from '../helpers/cli.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SHIPPED = readFileSync(join(ROOT, 'skills', 'checkin', 'SKILL.md'), 'utf8');
const DIGEST = createHash('sha256').update(SHIPPED).digest('hex');
/** The skill as checkin `version` installs it: the mark in its front matter, before the closing ---. */
function installed(version = VERSION): string {
  const end = SHIPPED.indexOf('\n---\n', 4) + 1;
  return `${SHIPPED.slice(0, end)}metadata:\n  checkin-version: "${version}"\n  checkin-sha256: "${DIGEST}"\n${SHIPPED.slice(end)}`;
}

const setup = projectSetup;

describe('checkin skill install', () => {
  it('writes the skill, marked with this version, into Claude Code’s user folder by default; a second run writes nothing', async () => {
    const { home, run } = setup();
    const file = join(home, '.claude', 'skills', 'checkin', 'SKILL.md');
    expect(await run(['skill', 'install'])).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `Installed the checkin skill for Claude Code (user): ${file}\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(installed());
    expect(readFileSync(file, 'utf8')).toMatch(
      /^---\nname: checkin\ndescription: .*\nmetadata:\n {2}checkin-version: "\d+\.\d+\.\d+"\n {2}checkin-sha256: "[0-9a-f]{64}"\n---\n/,
    );
    expect((statSync(file).mode & 0o777).toString(8)).toBe((0o644 & ~process.umask()).toString(8));
    const { ino, mtimeMs } = statSync(file);
    expect(await run(['skill', 'install', '--agent', 'claude', '--scope', 'user'])).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `The checkin skill for Claude Code (user) is up to date (checkin ${VERSION}): ${file}\n`,
    });
    expect(statSync(file)).toMatchObject({ ino, mtimeMs });
  });

  it('each agent’s folder, user and project', async () => {
    const { home, project, run } = setup();
    const cases: Array<[string, string, string, string]> = [
      ['claude', 'project', join(project, '.claude', 'skills', 'checkin', 'SKILL.md'), 'Claude Code (project)'],
      ['codex', 'user', join(home, '.agents', 'skills', 'checkin', 'SKILL.md'), 'Codex (user)'],
      ['codex', 'project', join(project, '.agents', 'skills', 'checkin', 'SKILL.md'), 'Codex (project)'],
      ['vscode', 'user', join(home, '.copilot', 'skills', 'checkin', 'SKILL.md'), 'VS Code (GitHub Copilot) (user)'],
      ['vscode', 'project', join(project, '.github', 'skills', 'checkin', 'SKILL.md'), 'VS Code (GitHub Copilot) (project)'],
    ];
    for (const [agent, scope, file, who] of cases) {
      expect(await run(['skill', 'install', '--agent', agent, '--scope', scope])).toEqual({
        code: 0,
        signal: null,
        stderr: '',
        stdout: `Installed the checkin skill for ${who}: ${file}\n`,
      });
      expect(readFileSync(file, 'utf8'), file).toBe(installed());
    }
  });

  it('updates a copy an earlier checkin wrote and nobody changed', async () => {
    const { home, run } = setup();
    const file = join(home, '.agents', 'skills', 'checkin', 'SKILL.md');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, installed('0.0.9'));
    expect(await run(['skill', 'install', '--agent', 'codex'])).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `Updated the checkin skill for Codex (user) from checkin 0.0.9 to ${VERSION}: ${file}\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(installed());
  });

  it('never replaces a copy with changes of its own, or a file checkin did not write, without --force (exit 2)', async () => {
    const { home, run } = setup();
    const file = join(home, '.claude', 'skills', 'checkin', 'SKILL.md');
    mkdirSync(join(file, '..'), { recursive: true });
    const changed = `${installed('0.0.9')}\nMy own note.\n`;
    writeFileSync(file, changed);
    expect(await run(['skill', 'install'])).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: `error: ${file} has changes of its own since checkin 0.0.9 wrote it: left as it is\n\`checkin skill install --agent claude --scope user --force\` replaces it with checkin ${VERSION}'s.\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(changed);
    const mine = '---\nname: checkin\ndescription: my own\n---\n\nMine.\n';
    writeFileSync(file, mine);
    expect(await run(['skill', 'install'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: ${file} is not a copy checkin wrote: left as it is\n\`checkin skill install --agent claude --scope user --force\` replaces it with checkin ${VERSION}'s.\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(await run(['skill', 'install', '--force'])).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `Replaced the checkin skill for Claude Code (user) (it had changes of its own) with checkin ${VERSION}'s: ${file}\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe(installed());
  });

  it('refuses an agent it does not know (exit 2), before writing anything', async () => {
    const { home, run } = setup();
    const r = await run(['skill', 'install', '--agent', 'cursor']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe("error: option '--agent <agent>' argument 'cursor' is invalid. Allowed choices are claude, codex, vscode.\n");
    expect(await run(['skill', 'install', '--scope', 'system'])).toMatchObject({ code: 2, stdout: '' });
    expect(() => statSync(join(home, '.claude'))).toThrow();
  });
});

describe('checkin skill status', () => {
  it('each agent and scope: the file and what is there', async () => {
    const { home, project, run } = setup();
    await run(['skill', 'install']);
    const codex = join(home, '.agents', 'skills', 'checkin', 'SKILL.md');
    mkdirSync(join(codex, '..'), { recursive: true });
    writeFileSync(codex, installed('0.0.9'));
    const copilot = join(project, '.github', 'skills', 'checkin', 'SKILL.md');
    mkdirSync(join(copilot, '..'), { recursive: true });
    writeFileSync(copilot, `${installed()}more\n`);
    const r = await run(['skill', 'status']);
    expect(r).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: [
        `claude  user     ${join(home, '.claude', 'skills', 'checkin', 'SKILL.md')}  up to date (${VERSION})`,
        `claude  project  ${join(project, '.claude', 'skills', 'checkin', 'SKILL.md')}  not installed`,
        `codex   user     ${codex}  older (0.0.9): \`checkin skill install --agent codex --scope user\` updates it`,
        `codex   project  ${join(project, '.agents', 'skills', 'checkin', 'SKILL.md')}  not installed`,
        `vscode  user     ${join(home, '.copilot', 'skills', 'checkin', 'SKILL.md')}  not installed`,
        `vscode  project  ${copilot}  changed since checkin ${VERSION} wrote it`,
        '',
      ].join('\n'),
    });
    expect((await run(['skill', 'status', '--agent', 'codex', '--scope', 'user'])).stdout).toBe(
      `codex  user  ${codex}  older (0.0.9): \`checkin skill install --agent codex --scope user\` updates it\n`,
    );
  });
});

describe('checkin mcp and an installed skill', () => {
  it('says in one line on stderr when a copy is older than the CLI; nothing when it is current', async () => {
    const { env, home, project } = setup();
    const file = join(home, '.claude', 'skills', 'checkin', 'SKILL.md');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, installed('0.0.9'));
    // Standard input closed at once: the server ends there.
    const old = await runCli(['mcp'], { env, cwd: project, input: '' });
    expect(old).toEqual({
      code: 0,
      signal: null,
      stdout: '',
      stderr: `note: the checkin skill your agent reads is older than checkin ${VERSION}: ${file} (0.0.9); \`checkin skill install --agent claude --scope user\` updates it\n`,
    });
    expect((await runCli(['skill', 'install'], { env, cwd: project })).code).toBe(0);
    expect(await runCli(['mcp'], { env, cwd: project, input: '' })).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
  });
});

describe('checkin skill install: folders, whatever the umask; a project never followed out of', () => {
  /** The built CLI run under `umask 000` (a shell sets it, then becomes the CLI). */
  function underUmask000(env: NodeJS.ProcessEnv, cwd: string, args: string[]) {
    const r = spawnSync('sh', ['-c', 'umask 000 && exec "$@"', 'sh', ...CLI_WORDS, ...args], { env, cwd, encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

  it('under umask 000: the folders it makes in the home folder are 0700, in a project 0755; the file 0644; a folder already there keeps its mode', () => {
    const { env, home, project } = setup();
    mkdirSync(join(home, '.copilot'), { mode: 0o750 });
    chmodSync(join(home, '.copilot'), 0o750);
    for (const [agent, scope] of [
      ['claude', 'user'],
      ['codex', 'user'],
      ['vscode', 'user'],
      ['claude', 'project'],
      ['vscode', 'project'],
    ] as const) {
      const r = underUmask000(env, project, ['skill', 'install', '--agent', agent, '--scope', scope]);
      expect(r.code, r.stderr).toBe(0);
    }
    for (const d of [
      '.claude',
      '.claude/skills',
      '.claude/skills/checkin',
      '.agents',
      '.agents/skills',
      '.agents/skills/checkin',
      '.copilot/skills',
      '.copilot/skills/checkin',
    ])
      expect(mode(join(home, d)), d).toBe('700');
    expect(mode(join(home, '.copilot'))).toBe('750');
    for (const d of ['.claude', '.claude/skills', '.claude/skills/checkin', '.github', '.github/skills', '.github/skills/checkin'])
      expect(mode(join(project, d)), d).toBe('755');
    expect(mode(join(home, '.claude/skills/checkin/SKILL.md'))).toBe('644');
  });

  it('project scope: a `.claude` that is a symbolic link (to ~/.ssh) is refused, nothing written there; a link further down too', () => {
    const { env, home, project } = setup();
    const ssh = join(home, '.ssh');
    mkdirSync(ssh, { mode: 0o700 });
    symlinkSync(ssh, join(project, '.claude'));
    const r = underUmask000(env, project, ['skill', 'install', '--agent', 'claude', '--scope', 'project']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${join(project, '.claude')} is a symbolic link: the project's skill is written only inside the project (${project}), never where a link points\nRemove the link, or install for yourself: --scope user.\n`,
    );
    expect(readdirSync(ssh)).toEqual([]);
    mkdirSync(join(project, '.agents'));
    symlinkSync(ssh, join(project, '.agents', 'skills'));
    expect(underUmask000(env, project, ['skill', 'install', '--agent', 'codex', '--scope', 'project']).code).toBe(1);
    expect(readdirSync(ssh)).toEqual([]);
  });
});
