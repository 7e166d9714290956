// `checkin config get|set|list|unset` in-process against the sandbox: round trips through
// config.json (mode 0600, the token kept and never shown), refusals, and the settings that take
// effect in the commands (the default team, the prefill's git repositories); `checkin auth token`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TODAY, useWorld } from '../helpers/harness.js';
import { tempDir } from '../helpers/cleanup.js';

const w = useWorld();
const file = () => join(w.configDir, 'config.json');
const stored = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, unknown>;
const TOKEN = 'stored-secret-token-0123456789';

/** A config.json as `checkin login --insecure-storage` leaves it: the token in the file, mode 0600. */
function loggedIn(extra: Record<string, unknown> = {}) {
  mkdirSync(w.configDir, { recursive: true, mode: 0o700 });
  writeFileSync(file(), JSON.stringify({ api_url: w.sb.url, token: TOKEN, ...extra }), { mode: 0o600 });
}

const KEYS_LINE = 'Settings: editor, pager, team, git_repos, template, color, prompt, accessible';

describe('checkin config', () => {
  it('set → get → list → unset, in config.json (still 0600, the token kept there and never printed)', async () => {
    loggedIn();
    const cli = (args: string[]) => w.cli(['config', ...args], { env: { CHECKIN_TOKEN: undefined } });
    for (const [key, value] of [
      ['editor', 'code --wait'],
      ['pager', ''],
      ['team', 'Platform'],
      ['git_repos', '~/src/api:/srv/web:relative/repo'],
      ['color', 'never'],
      ['prompt', 'disabled'],
      ['accessible', 'true'],
    ]) {
      expect(await cli(['set', key!, value!])).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    expect(await cli(['get', 'editor'])).toEqual({ code: 0, stdout: 'code --wait\n', stderr: '' });
    expect(await cli(['get', 'pager'])).toEqual({ code: 0, stdout: '\n', stderr: '' });
    const repos = ['~/src/api', '/srv/web', resolve('relative/repo')];
    expect(await cli(['get', 'git_repos'])).toEqual({ code: 0, stdout: `${repos.join(':')}\n`, stderr: '' });
    expect(JSON.parse((await cli(['get', 'git_repos', '--json'])).stdout)).toEqual(repos);

    const list = await cli(['list']);
    expect(list).toEqual({
      code: 0,
      stdout: `editor=code --wait\npager=\nteam=Platform\ngit_repos=${repos.join(':')}\ncolor=never\nprompt=disabled\naccessible=true\n`,
      stderr: '',
    });
    const json = await cli(['list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      editor: 'code --wait',
      pager: '',
      team: 'Platform',
      git_repos: repos,
      template: null,
      color: 'never',
      prompt: 'disabled',
      accessible: 'true',
    });
    expect(JSON.parse((await cli(['list', '--json', 'color,team'])).stdout)).toEqual({ color: 'never', team: 'Platform' });
    for (const r of [list, json]) expect(r.stdout + r.stderr).not.toContain(TOKEN);

    expect(statSync(file()).mode & 0o777).toBe(0o600);
    // The terminal's settings are the person's, on every profile; the account's are the profile's.
    expect(stored()).toMatchObject({
      editor: 'code --wait',
      color: 'never',
      profiles: { default: { token: TOKEN, api_url: w.sb.url, team: 'Platform', git_repos: repos } },
    });

    expect(await cli(['unset', 'editor'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await cli(['unset', 'color'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await cli(['unset', 'color'])).toEqual({ code: 0, stdout: '', stderr: '' }); // already unset: nothing to do
    expect(await cli(['get', 'editor'])).toEqual({ code: 0, stdout: '', stderr: 'editor is not set\n' });
    expect(await cli(['get', 'editor', '--json'])).toEqual({ code: 0, stdout: 'null\n', stderr: '' });
    expect((await cli(['list'])).stdout).toBe(`pager=\nteam=Platform\ngit_repos=${repos.join(':')}\nprompt=disabled\naccessible=true\n`);
    expect(JSON.parse((await cli(['list', '--json'])).stdout)).toEqual({
      editor: null,
      pager: '',
      team: 'Platform',
      git_repos: repos,
      template: null,
      color: null,
      prompt: 'disabled',
      accessible: 'true',
    });
    expect(stored()).not.toHaveProperty('editor');
    expect(stored()).toMatchObject({ profiles: { default: { token: TOKEN } } });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it('a new config.json is made 0600, in a 0700 folder', async () => {
    expect(existsSync(file())).toBe(false);
    expect((await w.cli(['config', 'set', 'color', 'always'])).code).toBe(0);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(statSync(w.configDir).mode & 0o777).toBe(0o700);
    expect(stored()).toEqual({ color: 'always' });
    expect(await w.cli(['config', 'list'])).toEqual({ code: 0, stdout: 'color=always\n', stderr: '' });
  });

  it('refuses an unknown key or a value the key does not take: exit 2, what it takes, nothing written', async () => {
    const cases: Array<[string[], string]> = [
      [['set', 'colour', 'never'], `error: Unknown setting "colour"\n${KEYS_LINE}\n`],
      [
        ['get', 'token'],
        `error: Unknown setting "token"\n${KEYS_LINE}\nThe token is not a setting: \`checkin auth token\` prints it, \`checkin login\` changes it.\n`,
      ],
      [['unset', 'api_url'], `error: Unknown setting "api_url"\n${KEYS_LINE}\n`],
      [['set', 'color', 'blue'], 'error: The color setting takes auto, always, never; not "blue"\ncheckin config set color auto\n'],
      [['set', 'prompt', 'yes'], 'error: The prompt setting takes enabled, disabled; not "yes"\ncheckin config set prompt enabled\n'],
      [['set', 'accessible', 'yes'], 'error: The accessible setting takes true, false; not "yes"\ncheckin config set accessible true\n'],
      [['set', 'editor', '  '], 'error: The editor setting cannot be empty\nTo go back to the default: checkin config unset editor\n'],
      [['set', 'team', 'Plat\nform'], 'error: The team setting must be one line, without control characters\n'],
      [['set', 'pager', "less '-R"], `error: The command "less '-R" has a single quote that is never closed\n`],
    ];
    for (const [args, stderr] of cases) expect({ args, ...(await w.cli(['config', ...args])) }).toEqual({ args, code: 2, stdout: '', stderr });
    const missing = await w.cli(['config', 'set', 'color']);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain("missing required argument 'value'");
    expect(existsSync(file())).toBe(false);
  });

  it('a value edited into the file by hand that the setting does not take is not used, and list says so', async () => {
    loggedIn({ color: 'purple', team: 'Mobile', git_repos: 'not-a-list' });
    const r = await w.cli(['config', 'list']);
    expect(r).toEqual({
      code: 0,
      stdout: 'team=Mobile\n',
      stderr: `warning: git_repos in ${file()} is not a value it takes, so it is not used; checkin config set git_repos … replaces it\nwarning: color in ${file()} is not a value it takes, so it is not used; checkin config set color … replaces it\n`,
    });
  });
});

describe('the settings take effect', () => {
  it('team: `checkin team` shows that team instead of all mine; --team still wins', async () => {
    const mobile = w.team('Mobile');
    const platform = w.team('Platform');
    expect((await w.cli(['config', 'set', 'team', 'Mobile'])).code).toBe(0);
    w.forget();
    const r = await w.cli(['team', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ team: { id: string } }>).map((t) => t.team.id)).toEqual([mobile]);
    expect(w.sent().filter((q) => q.startsWith('GET /api/v2/teams/'))).toEqual([`GET /api/v2/teams/${mobile}`]);

    w.forget();
    const flag = await w.cli(['team', '--team', 'Platform', '--json']);
    expect((JSON.parse(flag.stdout) as Array<{ team: { id: string } }>).map((t) => t.team.id)).toEqual([platform]);
    expect(w.sent().filter((q) => q.startsWith('GET /api/v2/teams/'))).toEqual([`GET /api/v2/teams/${platform}`]);

    // Unset: all my teams again.
    expect((await w.cli(['config', 'unset', 'team'])).code).toBe(0);
    const all = await w.cli(['team', '--json']);
    expect((JSON.parse(all.stdout) as Array<{ team: { id: string } }>).map((t) => t.team.id).sort()).toEqual([mobile, platform].sort());
  });

  it('git_repos: the prefill reads those repositories; CHECKIN_GIT_REPOS still wins', async () => {
    const root = tempDir('checkin-git-');
    const repo = join(root, 'billing-api');
    mkdirSync(repo);
    execFileSync('git', ['-C', repo, 'init', '-q']);
    execFileSync('git', ['-C', repo, 'config', 'user.email', 'ada@example.com']);
    writeFileSync(join(repo, 'f.txt'), 'x\n');
    execFileSync('git', ['-C', repo, 'add', '.']);
    const when = `${TODAY}T08:00:00Z`;
    execFileSync('git', ['-C', repo, 'commit', '-q', '-m', 'Set up the config command'], {
      env: {
        ...process.env,
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_DATE: when,
        GIT_AUTHOR_EMAIL: 'ada@example.com',
        GIT_COMMITTER_EMAIL: 'ada@example.com',
        GIT_AUTHOR_NAME: 'x',
        GIT_COMMITTER_NAME: 'x',
      },
    });
    expect((await w.cli(['config', 'set', 'git_repos', repo])).code).toBe(0);
    const fromSetting = await w.cli(['today', '--suggest', '--json'], { env: { CHECKIN_GIT_REPOS: undefined } });
    expect(fromSetting.code).toBe(0);
    expect((JSON.parse(fromSetting.stdout) as { since_last_check_in: string[] }).since_last_check_in).toContain('- Set up the config command (billing-api)');
    // The environment's (empty: none) wins over the setting.
    const fromEnv = await w.cli(['today', '--suggest', '--json'], { env: { CHECKIN_GIT_REPOS: '' } });
    expect((JSON.parse(fromEnv.stdout) as { since_last_check_in: string[] }).since_last_check_in).not.toContain('- Set up the config command (billing-api)');
  });
});

describe('checkin auth token', () => {
  it('to a pipe: exactly the token and a newline — CHECKIN_TOKEN, else the stored one', async () => {
    expect(await w.cli(['auth', 'token'])).toEqual({ code: 0, stdout: `${w.sb.token}\n`, stderr: '' });
    loggedIn();
    expect(await w.cli(['auth', 'token'], { env: { CHECKIN_TOKEN: undefined } })).toEqual({ code: 0, stdout: `${TOKEN}\n`, stderr: '' });
  });

  it('on a terminal only with --show; not logged in: exit 4', async () => {
    expect(await w.cli(['auth', 'token'], { tty: true })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: The token is not printed on a terminal unless you ask: add --show\nIn a script it is printed as it is: TOKEN=$(checkin auth token)\n',
    });
    expect(await w.cli(['auth', 'token', '--show'], { tty: true })).toEqual({ code: 0, stdout: `${w.sb.token}\n`, stderr: '' });
    expect(await w.cli(['auth', 'token'], { env: { CHECKIN_TOKEN: undefined } })).toEqual({
      code: 4,
      stdout: '',
      stderr: 'error: Not logged in: no token found\nRun `checkin login`, or set CHECKIN_TOKEN (STEADY_TOKEN works too).\n',
    });
    expect(w.sent()).toEqual([]);
  });
});

describe('completion', () => {
  it('offers the setting names after config get, set and unset, and --no-pager', async () => {
    const keys =
      'editor\tsetting\npager\tsetting\nteam\tsetting\ngit_repos\tsetting\ntemplate\tsetting\ncolor\tauto, always, never\nprompt\tenabled, disabled\naccessible\ttrue, false\n:4\n';
    for (const sub of ['get', 'set', 'unset']) expect(await w.cli(['complete', '--', 'config', sub, ''])).toEqual({ code: 0, stdout: keys, stderr: '' });
    expect((await w.cli(['complete', '--', 'config', ''])).stdout).toMatch(/^get\t.*\nset\t.*\nlist\t.*\nunset\t/);
    expect((await w.cli(['complete', '--', 'auth', ''])).stdout).toContain('token\tPrint the token, for scripts');
    expect((await w.cli(['complete', '--', '--no-p'])).stdout).toBe('--no-pager\tprint long output straight to the terminal, not through the pager\n:4\n');
  });
});

describe('a team setting that names no team', () => {
  it('says so, and that it is the setting', async () => {
    expect((await w.cli(['config', 'set', 'team', 'Nowhere'])).code).toBe(0);
    const r = await w.cli(['team']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(
      /^error: No team named "Nowhere".*\nIt is the team setting: change it with `checkin config set team <team>`, or `checkin config unset team` for all your teams\.\n$/,
    );
  });
});
