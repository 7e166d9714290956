// `checkin doctor`, the built binary against the sandbox (its rate limits on, so that the budget is
// read from real RateLimit headers): all ok with exactly one request; a token the service rejects;
// a service that cannot be reached (a closed port); a folder that cannot be made (a file where it
// should be: a fault root meets too); an installed reminder, before and after its runs; --json.
import { statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CHECK_IDS } from '../../src/domain/doctor.js';
import { shippedSkill, stampedSkill } from '../../src/system/skill.js';
import { VERSION } from '../../src/version.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { standIns } from '../helpers/remind.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
let cwd: string;
beforeEach(async () => {
  sb = await startSandbox({});
  // The demo person's profile zone is London: the machine's is set to match.
  env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token, TZ: 'Europe/London' });
  cwd = tempDir('checkin-doctor-project-'); // no agent's project files but the test's own
});
afterEach(async () => {
  await sb.close();
});

const doctor = (args: string[] = [], e: NodeJS.ProcessEnv = env) => runCli(['doctor', ...args], { env: e, cwd, timeoutMs: 30_000 });
const requests = () => sb.requests.map((q) => `${q.method} ${q.path} ${q.status}`);
/** The human lines, by check id: `<id>  <status>  <message>` and the fix under it. */
const lineOf = (stdout: string, id: string) => stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
const statusOf = (stdout: string, id: string) => /^\S+\s+(ok|warning|problem)\s/.exec(lineOf(stdout, id))?.[1];

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('checkin doctor', () => {
  it('against the sandbox: every check ok but the notifier (a test has no session bus), exit 0, exactly one request (GET /me), no token printed', async () => {
    const r = await doctor();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const id of CHECK_IDS) if (id !== 'notifier') expect(statusOf(r.stdout, id), `${id}: ${lineOf(r.stdout, id)}`).toBe('ok');
    // No session bus in a test's environment (none given, no $XDG_RUNTIME_DIR): notify from here would fail, so not ok.
    expect(lineOf(r.stdout, 'notifier')).toMatch(
      /^notifier {7}warning  (notify-send|gdbus) \(\S+\), but this session has no session bus \(DBUS_SESSION_BUS_ADDRESS is not set\)/,
    );
    expect(lineOf(r.stdout, 'token')).toBe(
      'token          ok       sandbox_pat_**** (from CHECKIN_TOKEN) accepted for @ada (its scope, Read or Read + write, the service does not show)',
    );
    expect(lineOf(r.stdout, 'service')).toMatch(
      new RegExp(
        `^service        ok       ${sb.url.replace(/[.]/g, '\\.')} speaks API v2 \\(GET /me in \\d+ ms\\); rate budget: burst 29/30 left, sustained 499/500 left$`,
      ),
    );
    expect(lineOf(r.stdout, 'time-zone')).toBe(
      "time-zone      ok       your profile's zone (London = Europe/London) matches this machine's (Europe/London, UTC+00:00)",
    );
    expect(lineOf(r.stdout, 'reminder')).toBe('reminder       ok       not installed (`checkin remind install` sets one up)');
    expect(lineOf(r.stdout, 'outbox')).toBe('outbox         ok       no drafts waiting');
    expect(r.stdout).toMatch(/\n\n16 checks: 15 ok, 1 warning, 0 problems\n$/);
    expect(r.stdout).not.toContain(sb.token);
    expect(requests()).toEqual(['GET /api/v2/me 200']);
  });

  it('drafts kept for another service count too: a warning naming them, not "no drafts waiting"', async () => {
    const elsewhere = { ...env, CHECKIN_API_URL: `http://127.0.0.1:${await closedPort()}/api/v2` };
    expect((await runCli(['log', 'Kept while the other service was down'], { env: elsewhere, cwd })).code).toBe(1);
    const r = await doctor();
    expect(lineOf(r.stdout, 'outbox')).toBe('outbox         warning  no drafts waiting for this account; 1 kept for another service or person');
    expect(r.code).toBe(0);
  });

  it('--json: one entry per check, in order, each {id, status, message, fix}; --json id,status keeps those', async () => {
    const r = await doctor(['--json']);
    expect(r.code).toBe(0);
    const checks = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(checks.map((c) => c.id)).toEqual([...CHECK_IDS]);
    for (const c of checks) {
      expect(Object.keys(c)).toEqual(['id', 'status', 'message', 'fix']);
      expect(c).toMatchObject(
        c.id === 'notifier'
          ? { status: 'warning', message: expect.stringContaining('no session bus'), fix: 'Run it from your desktop session.' }
          : { status: 'ok', message: expect.any(String), fix: null },
      );
    }
    expect(r.stdout).not.toContain(sb.token);
    const few = JSON.parse((await doctor(['--json', 'id,status'])).stdout) as unknown[];
    expect(few[0]).toEqual({ id: 'token', status: 'ok' });
    expect(requests()).toEqual(['GET /api/v2/me 200', 'GET /api/v2/me 200']);
  });

  it('a token the service rejects: a problem with its fix, exit 1, and the token not printed', async () => {
    const r = await doctor([], { ...env, CHECKIN_TOKEN: 'steady_pat_revoked0123456789' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'token          problem  steady_pat_**** (from CHECKIN_TOKEN) rejected (401: missing, wrong, expired or revoked)\n                        fix: Make a new token (Steady: My integrations) and run `checkin login`.\n',
    );
    expect(statusOf(r.stdout, 'service')).toBe('ok');
    expect(r.stdout).not.toContain('revoked0123456789');
    expect(r.stdout).toMatch(/\n16 checks: 13 ok, 2 warnings, 1 problem\n$/); // the time zone is not compared without the profile; no session bus here
    expect(requests()).toEqual(['GET /api/v2/me 401']);
    const json = JSON.parse((await doctor(['--json'], { ...env, CHECKIN_TOKEN: 'steady_pat_revoked0123456789' })).stdout) as Array<{
      id: string;
      status: string;
      fix: string | null;
    }>;
    expect(json.find((c) => c.id === 'token')).toMatchObject({ status: 'problem', fix: expect.stringContaining('checkin login') });
  });

  it('a service that cannot be reached (a closed port on 127.0.0.1): a problem, exit 1, at once', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/v2`;
    const r = await doctor([], { ...env, CHECKIN_API_URL: url });
    expect(r.code).toBe(1);
    expect(lineOf(r.stdout, 'service')).toBe(
      `service        problem  ${url} cannot be reached: nothing is listening at ${new URL(url).origin} — is \`checkin sandbox\` running?`,
    );
    expect(r.stdout).toContain('fix: Start it in another terminal (`checkin sandbox`), or check --api-url / CHECKIN_API_URL.');
    expect(statusOf(r.stdout, 'token')).toBe('warning');
    expect(requests()).toEqual([]);
  });

  it('a folder that cannot be made (a file where it should be): a problem for each folder there, exit 1, nothing changed', async () => {
    const file = join(env.HOME!, 'not-a-folder');
    writeFileSync(file, 'x');
    const r = await doctor([], { ...env, CHECKIN_CONFIG_DIR: file });
    expect(r.code).toBe(1);
    for (const id of ['config-folder', 'state-folder', 'cache-folder']) {
      expect(lineOf(r.stdout, id)).toMatch(new RegExp(`^${id} +problem  ~/not-a-folder \\([a-z ]+\\) is a file, not a folder$`));
    }
    expect(r.stdout).toContain('fix: Move it away (mv ~/not-a-folder ~/not-a-folder.old); checkin makes the folder again.');
    // One level down: the folder's parent is the file.
    const below = await doctor([], { ...env, CHECKIN_CONFIG_DIR: join(file, 'checkin') });
    expect(lineOf(below.stdout, 'config-folder')).toBe(
      'config-folder  problem  ~/not-a-folder/checkin (settings) cannot be made: ~/not-a-folder is a file, not a folder',
    );
    expect(statSync(file).isFile()).toBe(true);
  });

  it('a folder others can look into is a warning (private: 0700 and 0600)', async () => {
    const dir = tempDir('checkin-doctor-conf-');
    const { chmodSync } = await import('node:fs');
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'config.json'), '{}', { mode: 0o644 });
    chmodSync(join(dir, 'config.json'), 0o644);
    const r = await doctor([], { ...env, CHECKIN_CONFIG_DIR: dir });
    expect(r.code).toBe(0);
    expect(lineOf(r.stdout, 'config-folder')).toBe(
      `config-folder  warning  ${dir} (settings) is writable, but not private: the folder is mode 0755, config.json is mode 0644`,
    );
  });

  it('an installed reminder: no run yet; after a run that notified; after a run that failed (a problem, exit 1)', async () => {
    const stand = standIns({ userManager: true });
    // Logged in (the token stored, as a timer needs it), the stand-ins first on PATH.
    const u: NodeJS.ProcessEnv = { ...env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined, PATH: `${stand.dir}:${env.PATH}` };
    expect((await runCli(['login', '--with-token', '--api-url', sb.url], { env: u, input: sb.token })).code).toBe(0);
    expect((await runCli(['remind', 'install', '--at', '10:00', '--days', 'mon-fri'], { env: u })).code).toBe(0);
    sb.requests.length = 0;

    const before = await doctor([], u);
    expect(lineOf(before.stdout, 'reminder')).toBe('reminder       ok       a systemd user timer at 10:00 on Mon–Fri: no run recorded yet');
    expect(lineOf(before.stdout, 'keychain')).toBe(
      'keychain       ok       not used: the token is kept in the settings file (mode 0600), which a scheduled run reads too',
    );
    expect(before.code).toBe(0);
    expect(requests()).toEqual(['GET /api/v2/me 200']);

    // A run (as the timer starts it) when today's check-in is pending: it notifies and records so.
    sb.requests.length = 0;
    const fired = await runCli(['remind', 'run'], { env: u });
    expect(fired.code).toBe(0);
    const ran = await doctor([], u);
    // (A day with nothing to remind of — no check-in scheduled for the demo person today — is recorded as quiet.)
    const outcome = stand.read('notified') ? 'showed a notification' : 'had nothing to remind of';
    expect(lineOf(ran.stdout, 'reminder')).toMatch(
      new RegExp(`^reminder {7}ok {7}a systemd user timer at 10:00 on Mon–Fri: last run \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC ${outcome}$`),
    );
    expect(ran.code).toBe(0);

    // A run that cannot reach the service: recorded, and doctor says it with the fix. (A stored token
    // goes only to its own service: the unreachable one is given its token beside it.)
    const port = await closedPort();
    expect((await runCli(['remind', 'run'], { env: { ...u, CHECKIN_API_URL: `http://127.0.0.1:${port}/api/v2`, CHECKIN_TOKEN: sb.token } })).code).toBe(1);
    const failed = await doctor([], u);
    expect(failed.code).toBe(1);
    expect(lineOf(failed.stdout, 'reminder')).toMatch(
      new RegExp(
        `^reminder {7}problem  a systemd user timer at 10:00 on Mon–Fri: last run \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC failed: GET /api/v2/\\S+: .*127\\.0\\.0\\.1:${port}`,
      ),
    );
    expect(failed.stdout).toContain('fix: Fix what the run said (the token, the service, the keychain: see above), then `checkin remind run` tries it now.');
    expect(failed.stdout).not.toContain(sb.token);
  });

  it('a crontab reminder installed without a session bus cannot notify: a warning (with one, ok)', async () => {
    const stand = standIns({ userManager: false });
    const u: NodeJS.ProcessEnv = { ...env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined, PATH: `${stand.dir}:${env.PATH}` };
    expect((await runCli(['login', '--with-token', '--api-url', sb.url], { env: u, input: sb.token })).code).toBe(0);
    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    const r = await doctor([], u);
    expect(r.code).toBe(0);
    expect(lineOf(r.stdout, 'reminder')).toBe(
      'reminder       warning  a crontab line at 10:00 on Mon–Fri: no run recorded yet; cron gives it no session bus, so it cannot show a notification (it prints a line, which cron mails)',
    );
    expect(r.stdout).toContain('fix: Run `checkin remind install` again from your desktop session: the line then carries its bus address.');
    const bus = { ...u, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' };
    expect((await runCli(['remind', 'install'], { env: bus })).code).toBe(0);
    expect(lineOf((await doctor([], u)).stdout, 'reminder')).toBe('reminder       ok       a crontab line at 10:00 on Mon–Fri: no run recorded yet');
  });

  it('a reminder whose token comes from the environment is a problem: a scheduled run does not have it', async () => {
    const stand = standIns({ userManager: true });
    const u: NodeJS.ProcessEnv = { ...env, PATH: `${stand.dir}:${env.PATH}` };
    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    const r = await doctor([], u);
    expect(r.code).toBe(1);
    expect(lineOf(r.stdout, 'reminder')).toBe(
      'reminder       problem  a systemd user timer at 10:00 on Mon–Fri: no run recorded yet; the token comes from CHECKIN_TOKEN, which a scheduled run does not have',
    );
  });

  it('a token kept in a keychain that cannot be opened: the keychain and the token are problems, and nothing is asked', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(env.CHECKIN_CONFIG_DIR!, { mode: 0o700 });
    writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'config.json'), JSON.stringify({ api_url: sb.url, token_store: 'keychain' }), { mode: 0o600 });
    const r = await doctor([], { ...env, CHECKIN_TOKEN: undefined }); // CHECKIN_NO_KEYCHAIN=1, as every test's run has it
    expect(r.code).toBe(1);
    expect(lineOf(r.stdout, 'keychain')).toBe('keychain       problem  your token is kept in the keychain, but CHECKIN_NO_KEYCHAIN is set');
    expect(lineOf(r.stdout, 'token')).toBe('token          problem  kept in the keychain, which cannot give it (see keychain)');
    expect(requests()).toEqual([]);
  });

  it("an agent's copy of the skill from an older checkin is a warning naming the install that updates it", async () => {
    const file = join(env.HOME!, '.claude', 'skills', 'checkin', 'SKILL.md');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, stampedSkill(shippedSkill(), '0.0.1'));
    const r = await doctor();
    expect(r.code).toBe(0);
    expect(lineOf(r.stdout, 'skill')).toBe(
      `skill          warning  Claude Code (user, ~/.claude/skills/checkin/SKILL.md) is checkin 0.0.1's; this checkin is ${VERSION}`,
    );
    expect(r.stdout).toContain('fix: checkin skill install --agent claude --scope user\n');
    writeFileSync(file, stampedSkill(shippedSkill()));
    expect(lineOf((await doctor()).stdout, 'skill')).toBe(
      'skill          ok       Claude Code (user, ~/.claude/skills/checkin/SKILL.md): written by this checkin',
    );
  });

  it("MCP registrations in the agents' files are found; a token written into one is a problem and is not printed", async () => {
    writeFileSync(join(env.HOME!, '.claude.json'), JSON.stringify({ mcpServers: { checkin: { command: process.execPath, args: ['mcp'] } } }));
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'other-tool' } } }));
    const found = await doctor();
    expect(lineOf(found.stdout, 'mcp')).toBe('mcp            ok       registered in Claude Code (~/.claude.json)');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(cwd, '.vscode'));
    writeFileSync(
      join(cwd, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { checkin: { type: 'stdio', command: 'checkin', args: ['mcp'], env: { CHECKIN_TOKEN: 'steady_pat_written_in_a_file' } } } }),
    );
    const leaked = await doctor();
    expect(leaked.code).toBe(1);
    expect(lineOf(leaked.stdout, 'mcp')).toBe(`mcp            problem  the token is written into ${join(cwd, '.vscode', 'mcp.json')}`);
    expect(leaked.stdout).not.toContain('written_in_a_file');
  });
});
