// `checkin skill install|uninstall --hooks` and the agent's settings file it edits: only checkin's
// part of the text changes (the person's indent, numbers, escapes and key order stay as written);
// a project's settings are never written through a link; nothing is written when the settings
// cannot be merged; an unreadable file is described by where, never by its own text.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { BIN, BINARY, outcome, projectSetup, ROOT, runCli } from '../helpers/cli.js';
import { VERSION } from '../../src/version.js';
import { claudeHooksOff, planHooksInstall } from '../../src/system/agent-hooks.js';

const setup = projectSetup;

/** A person's Claude Code settings, written as `text`, in a fresh home. */
function withSettings(text: string) {
  const s = setup();
  const file = join(s.home, '.claude', 'settings.json');
  mkdirSync(join(s.home, '.claude'));
  writeFileSync(file, text);
  return { ...s, file };
}

describe("a project's hook settings stay inside the project", () => {
  it('a .codex or .claude folder that is a link is refused on install and uninstall; the file it leads to is left as it was', async () => {
    const { project, run } = setup();
    const outside = tempDir('checkin-outside-');
    const codexText = '{"hooks":{"PreToolUse":[]}}\n';
    writeFileSync(join(outside, 'hooks.json'), codexText);
    symlinkSync(outside, join(project, '.codex'));
    const codex = await run(['skill', 'install', '--agent', 'codex', '--scope', 'project', '--hooks']);
    expect(codex.code).toBe(1);
    expect(codex.stderr).toContain(`${join(project, '.codex')} is a symbolic link`);
    expect(readFileSync(join(outside, 'hooks.json'), 'utf8')).toBe(codexText);
    // Nothing of checkin's there: nothing to write, nothing refused.
    expect((await run(['skill', 'uninstall', '--agent', 'codex', '--scope', 'project'])).code).toBe(0);
    expect(readFileSync(join(outside, 'hooks.json'), 'utf8')).toBe(codexText);

    const out2 = tempDir('checkin-outside-');
    const claudeText = '{ "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "checkin hook stop || true" } ] } ] } }\n';
    writeFileSync(join(out2, 'settings.json'), claudeText);
    symlinkSync(out2, join(project, '.claude'));
    const claude = await run(['skill', 'uninstall', '--scope', 'project']);
    expect(claude.code).toBe(1);
    expect(claude.stderr).toContain(`${join(project, '.claude')} is a symbolic link`);
    expect(readFileSync(join(out2, 'settings.json'), 'utf8')).toBe(claudeText);
  });
});

describe("the person's settings file keeps its text", () => {
  it('install adds only checkin’s entries in the file’s own indent; uninstall gives back the same bytes', async () => {
    const original = [
      '{',
      '    "model": "opus",',
      '    "big": 12345678901234567890,',
      '    "ratio": 1.0,',
      '    "name": "caf\\u00e9",',
      '    "hooks": {',
      '        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh", "timeout": 5.0}]}],',
      '        "Stop": [',
      '            {',
      '                "hooks": [',
      '                    {',
      '                        "type": "command",',
      '                        "command": "say done"',
      '                    }',
      '                ]',
      '            }',
      '        ]',
      '    },',
      '    "1": "one"',
      '}',
      '',
    ].join('\n');
    const { run, file } = withSettings(original);
    const installed = await run(['skill', 'install', '--hooks']);
    expect(installed.code).toBe(0);
    const after = readFileSync(file, 'utf8');
    // Everything before the hooks' events, and after them, as written.
    expect(after.startsWith(original.slice(0, original.indexOf('        "Stop"')))).toBe(true);
    expect(after.endsWith('    },\n    "1": "one"\n}\n')).toBe(true);
    expect(after).toContain(
      '\n            {\n                "hooks": [\n                    {\n                        "type": "command",\n                        "command": "say done"',
    );
    expect(after).toMatch(
      /\n {8}"SessionStart": \[\n {12}\{\n {16}"hooks": \[\n {20}\{\n {24}"type": "command",\n {24}"command": "[^"\n]*hook session-start \|\| true",\n {24}"timeout": 10\n/,
    );
    const settings = JSON.parse(after) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(settings.hooks)).toEqual(['PreToolUse', 'Stop', 'SessionStart']);
    expect(settings.hooks.Stop).toHaveLength(2);
    // A second install changes nothing; uninstall takes out what install added, to the byte.
    expect((await run(['skill', 'install', '--hooks'])).stdout).toContain("checkin's hooks for Claude Code (user) are up to date");
    expect(readFileSync(file, 'utf8')).toBe(after);
    expect((await run(['skill', 'uninstall'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('a group of checkin’s written in a form that could not be kept is refused, the file untouched', async () => {
    const original =
      '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say \\u0064one", "timeout": 1.0}, {"type": "command", "command": "checkin hook stop"}]}]}}\n';
    const { run, file } = withSettings(original);
    const r = await run(['skill', 'uninstall']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${file}: checkin's hooks.Stop entry shares a group written in a form that would change: left as it is`);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});

describe("the file's own line ends and indent", () => {
  it('tabs and CRLF are written as the file has them; uninstall gives back the same bytes', async () => {
    const original = '{\r\n\t"a": 1,\r\n\t"hooks": {\r\n\t\t"PreToolUse": []\r\n\t}\r\n}\r\n';
    const { run, file } = withSettings(original);
    expect((await run(['skill', 'install', '--hooks'])).code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(after).toContain('\r\n\t\t"SessionStart": [\r\n\t\t\t{\r\n\t\t\t\t"hooks": [');
    expect((await run(['skill', 'uninstall'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});

describe('settings that cannot be merged', () => {
  it('stop the install before the skill is written; the error says where, not what the file holds', async () => {
    const { home, run, file } = withSettings('{\n  "token": "SECRET-VALUE",\n  oops\n}\n');
    const r = await run(['skill', 'install', '--hooks']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${file} is not valid JSON (line 3, column 3): left as it is`);
    expect(r.stderr).not.toContain('SECRET');
    expect(r.stderr).not.toContain('oops');
    expect(existsSync(join(home, '.claude', 'skills', 'checkin', 'SKILL.md'))).toBe(false);
  });
});

describe("doctor's advice for the hooks, when the skill was edited", () => {
  it('`skill install --hooks` installs the hooks and says the skill was left as it is (exit 2)', async () => {
    const { home, run } = setup();
    const skill = join(home, '.claude', 'skills', 'checkin', 'SKILL.md');
    expect((await run(['skill', 'install'])).code).toBe(0);
    writeFileSync(skill, readFileSync(skill, 'utf8') + '\nMy own note.\n');
    const r = await run(['skill', 'install', '--hooks']);
    const file = join(home, '.claude', 'settings.json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(`Added checkin's hooks (SessionStart, Stop) for Claude Code (user): ${file}\n`);
    expect(r.stderr).toContain(`error: ${skill} has changes of its own since checkin ${VERSION} wrote it: left as it is\n`);
    expect(readFileSync(skill, 'utf8')).toContain('My own note.');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(settings.hooks)).toEqual(['SessionStart', 'Stop']);
  });
});

describe('a settings file that changes while checkin merges', () => {
  it('is read again and merged again just before the rename: the other change is kept', () => {
    const { env, home, file } = withSettings('{\n  "model": "opus"\n}\n');
    const plan = planHooksInstall(env, home, { agent: 'claude', scope: 'user' });
    expect(plan.changed).toBe(true);
    // Another program (the agent itself) writes the file after checkin read it.
    writeFileSync(file, '{\n  "model": "sonnet",\n  "theme": "dark"\n}\n');
    plan.write();
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{\n  "model": "sonnet",\n  "theme": "dark",\n  "hooks": {\n')).toBe(true);
    expect(Object.keys((JSON.parse(text) as { hooks: object }).hooks)).toEqual(['SessionStart', 'Stop']);
  });
});

/**
 * This checkin under another name, as a person renames the single executable (`checkin-linux-x64`,
 * `ck`): the binary copied as `ck` when the tests run it, else the npm build's script copied as
 * `ck.js` beside a link to its dist/. Its hook lines name it by that path.
 */
function renamed(env: NodeJS.ProcessEnv, cwd: string): (args: string[]) => ReturnType<typeof runCli> {
  const dir = tempDir('checkin-renamed-');
  if (BINARY) {
    const ck = join(dir, 'ck');
    copyFileSync(BINARY, ck);
    return (args) => outcome(track(spawn(ck, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })), `ck ${args.join(' ')}`);
  }
  mkdirSync(join(dir, 'bin'));
  copyFileSync(BIN, join(dir, 'bin', 'ck.js'));
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  return (args) => runCli(args, { env, cwd, bin: join(dir, 'bin', 'ck.js') });
}

describe('a checkin under another name', () => {
  it('knows its own hook lines again: a second install changes nothing, uninstall takes them out, doctor sees them', async () => {
    const { env, home, project } = setup();
    const ck = renamed(env, project);
    const file = join(home, '.claude', 'settings.json');
    expect(await ck(['skill', 'install', '--hooks'])).toMatchObject({ code: 0, stderr: '' });
    const lines = () =>
      Object.entries((JSON.parse(readFileSync(file, 'utf8')) as { hooks?: Record<string, Array<{ hooks: Array<{ command: string }> }>> }).hooks ?? {}).map(
        ([event, groups]) => [event, groups.flatMap((g) => g.hooks.map((h) => h.command))] as const,
      );
    const first = lines();
    expect(first.map(([event, commands]) => [event, commands.length])).toEqual([
      ['SessionStart', 1],
      ['Stop', 1],
    ]);
    expect(first[1]![1][0]).toMatch(/\/ck(?:\.js)?'? hook stop \|\| true$/);
    const again = await ck(['skill', 'install', '--hooks']);
    expect(again.stdout).toContain(`checkin's hooks for Claude Code (user) are up to date: ${file}\n`);
    expect(lines()).toEqual(first);
    const doctor = JSON.parse((await ck(['doctor', '--json'])).stdout) as Array<{ id: string; status: string; message: string }>;
    expect(doctor.find((c) => c.id === 'hooks')).toMatchObject({ status: 'ok', message: expect.stringContaining(': SessionStart, Stop') });
    expect((await ck(['skill', 'uninstall'])).stdout).toContain(`Removed checkin's hooks for Claude Code (user): ${file}\n`);
    expect(lines()).toEqual([]);
  });
});

/** doctor's hooks check, as `doctor --json` gives it. */
async function hooksCheck(run: (args: string[]) => ReturnType<typeof runCli>) {
  const checks = JSON.parse((await run(['doctor', '--json'])).stdout) as Array<{ id: string; status: string; message: string; fix: string | null }>;
  return checks.find((c) => c.id === 'hooks')!;
}

describe("checkin's hooks at both scopes (the agent runs both: two reminders)", () => {
  it('install says so, naming the other file and what takes it out; doctor warns with both ways out', async () => {
    const { home, project, run } = setup();
    const user = join(home, '.claude', 'settings.json');
    const mine = join(project, '.claude', 'settings.json');
    expect(await run(['skill', 'install', '--hooks'])).toMatchObject({ code: 0, stderr: '' });
    expect((await hooksCheck(run)).status).toBe('ok');
    const both = await run(['skill', 'install', '--hooks', '--scope', 'project']);
    expect(both.code).toBe(0);
    expect(both.stderr).toBe(
      `warning: checkin's hooks are in ${user} (user) too: Claude Code runs both, so each reminder comes twice. \`checkin skill uninstall --agent claude --scope user\` takes those out (with the skill there).\n`,
    );
    expect(await hooksCheck(run)).toEqual({
      id: 'hooks',
      status: 'warning',
      message: `Claude Code has checkin's hooks in both ~/.claude/settings.json (user) and ${mine} (project): it runs both, so each reminder comes twice`,
      fix: "Keep one: `checkin skill uninstall --agent claude --scope user` takes out yours (for every project), `checkin skill uninstall --agent claude --scope project` this project's (each with the skill there).",
    });
    // Installed the other way round: the same words, from the user's side.
    expect((await run(['skill', 'install', '--hooks'])).stderr).toContain(`warning: checkin's hooks are in ${mine} (project) too:`);
    expect((await run(['skill', 'uninstall', '--scope', 'project'])).code).toBe(0);
    expect((await hooksCheck(run)).status).toBe('ok');
  });
});

describe("Claude Code's disableAllHooks", () => {
  it('doctor says where the hooks are reported that every hook is off, and which file turns them off; a nearer file that turns them on wins', async () => {
    const { home, project, run } = setup();
    expect((await run(['skill', 'install', '--hooks'])).code).toBe(0);
    const user = join(home, '.claude', 'settings.json');
    writeFileSync(user, readFileSync(user, 'utf8').replace(/^\{/, '{\n  "disableAllHooks": true,'));
    expect(await hooksCheck(run)).toEqual({
      id: 'hooks',
      status: 'warning',
      message:
        'Claude Code (user, ~/.claude/settings.json): no hook runs here, "disableAllHooks": true in ~/.claude/settings.json turns them all off (checkin\'s reminders too)',
      fix: 'Take "disableAllHooks" out of ~/.claude/settings.json (or set it to false) for the reminders to run.',
    });
    // The project's own local settings turn them on again here.
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{"disableAllHooks": false}\n');
    expect((await hooksCheck(run)).status).toBe('ok');
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{"disableAllHooks": true}\n');
    expect((await hooksCheck(run)).message).toContain(`"disableAllHooks": true in ${join(project, '.claude', 'settings.local.json')} turns them all off`);
  });

  it("the machine's managed settings decide first, their managed-settings.d drop-ins (the last in alphabetical order to set it) before managed-settings.json", () => {
    const { env, project } = setup();
    const managed = tempDir('checkin-managed-');
    const dropIns = join(managed, 'managed-settings.d');
    mkdirSync(dropIns);
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{"disableAllHooks": false}\n');
    expect(claudeHooksOff(env, project, managed)).toBeUndefined();
    writeFileSync(join(managed, 'managed-settings.json'), '{"disableAllHooks": true}\n');
    expect(claudeHooksOff(env, project, managed)).toEqual({ file: join(managed, 'managed-settings.json'), managed: true });
    // A drop-in merged over it turns them on again; one later in the alphabet off; a hidden one, or not .json, is not read.
    writeFileSync(join(dropIns, '10-hooks.json'), '{"disableAllHooks": false}\n');
    writeFileSync(join(dropIns, '.99-hidden.json'), '{"disableAllHooks": true}\n');
    writeFileSync(join(dropIns, '99-notes.txt'), '{"disableAllHooks": true}\n');
    expect(claudeHooksOff(env, project, managed)).toBeUndefined();
    writeFileSync(join(dropIns, '50-security.json'), '{"disableAllHooks": true}\n');
    expect(claudeHooksOff(env, project, managed)).toEqual({ file: join(dropIns, '50-security.json'), managed: true });
  });
});
