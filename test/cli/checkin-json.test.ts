// A folder's .checkin.json, as a person meets it: the built checkin run in a folder below it, two
// sandboxes standing for two accounts (the profile "default" at A, "client-a" at B), so which one a
// run used is read from which sandbox was asked. What the file may not do (hold a token, be written
// by another user, lead out of its folder) is refused or left out, and said.
import { chmodSync, chownSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/cli.js';

let a: Sandbox;
let b: Sandbox;
let env: NodeJS.ProcessEnv;
/** The folder holding .checkin.json, and the one three levels below it where checkin runs. */
let top: string;
let deep: string;
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
  [a, b] = await Promise.all([startSandbox({ rateLimit: false }), startSandbox({ rateLimit: false, token: 'client_a_token' })]);
  env = cleanEnv({ CHECKIN_API_URL: undefined, CHECKIN_TOKEN: undefined });
  for (const [sb, profile] of [
    [a, []],
    [b, ['--profile', 'client-a']],
  ] as const) {
    const r = await runCli([...profile, 'login', '--with-token', '--api-url', sb.url], { env, input: sb.token });
    expect(r.code, r.stderr).toBe(0);
  }
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

beforeEach(() => {
  top = tempDir('checkin-folder-');
  deep = join(top, 'a', 'b', 'c');
  mkdirSync(deep, { recursive: true });
});

/** Writes the folder's file (mode 0644, the usual for a file in a repository). */
function folderFile(content: unknown): string {
  const file = join(top, '.checkin.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), { mode: 0o644 });
  chmodSync(file, 0o644);
  return file;
}

/** `checkin today --json` in `cwd`: which sandbox it asked ('A' or 'B'), and what it said. */
async function asked(args: string[] = [], extra: NodeJS.ProcessEnv = {}, cwd = deep): Promise<{ by: string; r: CliResult }> {
  a.requests.length = 0;
  b.requests.length = 0;
  const r = await runCli([...args, 'today', '--json'], { env: { ...env, ...extra }, cwd });
  expect(r.code, r.stderr).toBe(0);
  const by = `${a.requests.length > 0 ? 'A' : ''}${b.requests.length > 0 ? 'B' : ''}`;
  return { by, r };
}

describe('.checkin.json', () => {
  it('is found from a folder three levels below it, and names the profile its runs use', async () => {
    expect((await asked()).by).toBe('A');
    folderFile({ profile: 'client-a' });
    const { by, r } = await asked();
    expect(by).toBe('B');
    expect(r.stderr).toBe('');
    // Outside the folder, the default again.
    expect((await asked([], {}, tempDir('checkin-elsewhere-'))).by).toBe('A');
  });

  it('precedence: --profile > CHECKIN_PROFILE > the folder\'s file > auth switch\'s default > "default"', async () => {
    const config = join(env.CHECKIN_CONFIG_DIR!, 'config.json');
    const before = readFileSync(config, 'utf8');
    try {
      // auth switch's default (config.json's "profile") over "default".
      writeFileSync(config, JSON.stringify({ ...JSON.parse(before), profile: 'client-a' }), { mode: 0o600 });
      expect((await asked()).by).toBe('B');
      // The folder's file over it.
      folderFile({ profile: 'default' });
      expect((await asked()).by).toBe('A');
      // The environment over the file, the flag over the environment.
      expect((await asked([], { CHECKIN_PROFILE: 'client-a' })).by).toBe('B');
      expect((await asked(['--profile', 'default'], { CHECKIN_PROFILE: 'client-a' })).by).toBe('A');
      expect((await asked(['--profile', 'client-a'])).by).toBe('B');
    } finally {
      writeFileSync(config, before, { mode: 0o600 });
    }
  });

  it("its team is the one `checkin team` shows, over the profile's", async () => {
    const set = await runCli(['--profile', 'client-a', 'config', 'set', 'team', 'Platform'], { env });
    expect(set.code, set.stderr).toBe(0);
    folderFile({ profile: 'client-a', team: 'Mobile' });
    const r = await runCli(['team', '--json'], { env, cwd: deep });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ team: { name: string } }>).map((t) => t.team.name)).toEqual(['Mobile']);
    expect(b.requests.length).toBeGreaterThan(0);
  });

  it("its git_repos (relative to its folder) are the ones a run reads, over the profile's; one outside its folder is left out, said", async () => {
    folderFile({ git_repos: ['.', 'web', 'a/b'] });
    const r = await runCli(['config', 'get', 'git_repos'], { env, cwd: deep });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${top}${delimiter}${join(top, 'web')}${delimiter}${join(top, 'a', 'b')}\n`);
    // A sibling, an absolute path, a way up and back, and a link inside that leads out: left out, each said;
    // what is inside is kept.
    const other = tempDir('checkin-other-repo-');
    const up = relative(top, other);
    symlinkSync(other, join(top, 'linked'));
    const outside = [up, other, `a/../${up}`, 'linked'];
    folderFile({ git_repos: [...outside, 'web'] });
    const out = await runCli(['config', 'get', 'git_repos'], { env, cwd: deep });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(`${join(top, 'web')}\n`);
    const file = join(top, '.checkin.json');
    for (const p of outside) expect(out.stderr).toContain(`warning: ${file}: "git_repos" takes folders inside ${top}; ${JSON.stringify(p)} left out\n`);
    // None inside: the profile's own are read.
    folderFile({ git_repos: [up] });
    expect((await runCli(['config', 'get', 'git_repos'], { env, cwd: deep })).stdout).not.toContain(other);
    folderFile({ git_repos: 7 });
    const bad = await runCli(['config', 'get', 'git_repos'], { env, cwd: deep });
    expect(bad.stderr).toContain('"git_repos" must be a list of folders; left out');
  });

  it('a token in it is refused with an error naming the file (exit 2), and nothing is asked', async () => {
    const file = folderFile({ profile: 'client-a', token: 'steady_pat_leaked' });
    a.requests.length = 0;
    b.requests.length = 0;
    const r = await runCli(['today', '--json'], { env, cwd: deep });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${file} holds "token"`);
    expect(r.stderr).toContain('checkin login --profile <name>');
    expect(r.stderr).not.toContain('steady_pat_leaked');
    expect(a.requests.length + b.requests.length).toBe(0);
  });

  it('writable by others: not read, said, and the run goes on with the default', async () => {
    const file = folderFile({ profile: 'client-a' });
    chmodSync(file, 0o666);
    const { by, r } = await asked();
    expect(by).toBe('A');
    expect(r.stderr).toBe(`warning: ${file} is not read: it is writable by others (it must be yours or root's, and only its owner may write it)\n`);
  });

  it.skipIf(!isRoot)("another user's (root can make one): not read, said", async () => {
    const file = folderFile({ profile: 'client-a' });
    chownSync(file, 4321, 4321);
    const { by, r } = await asked();
    expect(by).toBe('A');
    expect(r.stderr).toBe(`warning: ${file} is not read: it is another user's (it must be yours or root's, and only its owner may write it)\n`);
  });

  it('a template leading out of its folder and an unknown key are left out with a warning; the rest is read', async () => {
    const file = folderFile({ profile: 'client-a', template: '../standup.md', colour: 'blue' });
    const { by, r } = await asked();
    expect(by).toBe('B');
    expect(r.stderr).toContain(`warning: ${file}: "template" must be a file inside ${top}; left out\n`);
    expect(r.stderr).toContain(`warning: ${file}: "colour" is not a key it takes`);
  });

  it('a template that is a symbolic link leading out of its folder is left out too', async () => {
    const outside = join(tempDir('checkin-outside-'), 'private.md');
    writeFileSync(outside, '## Intentions\n- not for the repository\n');
    symlinkSync(outside, join(top, 'standup.md'));
    const file = folderFile({ profile: 'client-a', template: 'standup.md' });
    const { r } = await asked();
    expect(r.stderr).toContain(`warning: ${file}: "template" must be a file inside ${top}; left out\n`);
  });

  it('a write under the profile a folder chose says so once; login and logout there change a profile only when it is named', async () => {
    const file = folderFile({ profile: 'client-a' });
    b.requests.length = 0;
    const sent = await runCli(['log', 'reviewed the staging keys'], { env, cwd: deep });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toBe(`note: as the profile client-a, which ${file} names\n`);
    expect(b.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    const before = readFileSync(join(env.CHECKIN_CONFIG_DIR!, 'config.json'), 'utf8');
    for (const command of ['login', 'logout']) {
      const r = await runCli([command, ...(command === 'login' ? ['--with-token', '--api-url', a.url] : [])], { env, cwd: deep, input: a.token });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: ${file} names the profile client-a; \`checkin ${command}\` changes a profile only when you name it\n`);
    }
    expect(readFileSync(join(env.CHECKIN_CONFIG_DIR!, 'config.json'), 'utf8')).toBe(before);
  });
});
