// The built binary, spawned as a user or cron runs it, against a sandbox on the real clock:
// what only a real process shows — stdin left open, a closed pipe, the process's zone, argv[1].
import { describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { CLI_WORDS_RE, FAKED_CLOCK_ARGS, runCli, spawnCli } from '../helpers/cli.js';
import { describeRequest } from '../helpers/harness.js';
import { tempDir, track } from '../helpers/cleanup.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { patient } from '../helpers/patience.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const today = () => localDateKey(new Date()); // the spawned CLI runs with TZ=UTC, as this process does

describe('the built binary', () => {
  it('--version prints the version from package.json', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default;
    expect(await runCli(['--version'], { env })).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('fills in today with one PATCH and shows it without a terminal, never waiting for stdin', async () => {
    const r = await runCli(['today', '-i', 'From a real process', '--json'], { env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ date: today(), intentions: 'From a real process' });
    const child = spawnCli(['today'], env); // stdin stays open and silent
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(sb.requests.map(describeRequest)).toEqual([`PATCH /api/v2/check-ins/${today()}`, `GET /api/v2/check-ins/${today()}`]);
    expect(out).toContain(`Check-in ${today()} · Ada Lovelace`);
    expect(out).toContain('  From a real process');
  });

  it('a reader that goes away (checkin … | head -1) ends the run quietly, no EPIPE trace', async () => {
    for (const args of [['--help'], ['today', '--json']]) {
      const child = spawnCli(args, env);
      child.stdout!.destroy(); // the reading end is gone before anything is written
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });

  it('cron prints a line that works under cron: run with `env -i sh -c`, pending → notify, done → nothing, broken → one line', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { existsSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    // Asynchronously: the sandbox answers in this process.
    const sh = async (command: string) =>
      (await promisify(execFile)('env', ['-i', ...FAKED_CLOCK_ARGS, 'sh', '-c', command], { encoding: 'utf8', timeout: 10_000 })).stdout;
    const { join } = await import('node:path');
    // A user who logged in: the token is stored, not in the environment (cron would not have it).
    const user = { ...env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined };
    expect((await runCli(['login', '--with-token', '--api-url', sb.url], { env: user, input: sb.token })).code).toBe(0);
    const flag = join(tempDir('checkin-cron-'), 'notified');
    const r = await runCli(['cron', '--at', '9:30', '--days', 'mon-fri', '--notify', `echo "check in, 100% please" > ${flag}`], { env: user });
    expect(r.code).toBe(0);
    const line = r.stdout.trimEnd();
    expect(line).toMatch(new RegExp(`^30 9 \\* \\* mon-fri CHECKIN_CONFIG_DIR=\\S+ HOME=\\S+ TZ=UTC ${CLI_WORDS_RE} status --quiet; `));
    expect(line).toContain('100\\% please'); // cron would end the command at a bare %
    // What cron runs: the command after the five time fields, with \% turned back into %, and nothing in the environment.
    const command = line.split(' ').slice(5).join(' ').replace(/\\%/g, '%');
    const cron = () => sh(command);
    expect(await cron()).toBe('');
    expect(readFileSync(flag, 'utf8')).toBe('check in, 100% please\n');
    rmSync(flag);
    expect((await runCli(['today', '-i', 'done'], { env })).code).toBe(0);
    expect(await cron()).toBe('');
    expect(existsSync(flag)).toBe(false);
    // A wrong URL is never "nothing scheduled": cron mails one line. The token is stored with that URL
    // (a login whose service has moved since: its URL now answers 404), as a stored token goes only
    // to the URL it was stored with.
    const wrong = sb.url.replace('/api/v2', '/app');
    expect((await runCli(['login', '--profile', 'moved', '--with-token', '--api-url', sb.url], { env: user, input: sb.token })).code).toBe(0);
    const file = join(env.CHECKIN_CONFIG_DIR!, 'config.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    stored.profiles.moved.api_url = wrong;
    writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
    const broken = await runCli(['--profile', 'moved', 'cron', '--notify', `touch ${flag}`], { env: user });
    expect(broken.code, broken.stderr).toBe(0);
    const brokenCommand = broken.stdout.trimEnd().split(' ').slice(5).join(' ');
    expect(brokenCommand).toContain('CHECKIN_PROFILE=moved ');
    expect(brokenCommand).not.toContain('CHECKIN_API_URL');
    expect(await sh(brokenCommand)).toBe('checkin status failed (exit 2): run checkin status to see why\n');
    expect(existsSync(flag)).toBe(false);
    // CHECKIN_API_URL naming another service than the stored token's: no line that would fail each time.
    const elsewhere = await runCli(['cron'], { env: { ...user, CHECKIN_API_URL: wrong } });
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stdout).toBe('');
    expect(elsewhere.stderr).toContain(
      `error: CHECKIN_API_URL names ${wrong}, but the token of the profile default is for ${sb.url}: it is sent nowhere else\n`,
    );
  });

  it('today is the local date of TZ, never the UTC date', async () => {
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      sb.requests.length = 0;
      const local = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
      const r = await runCli(['today', '-i', `from ${tz}`, '--json'], { env: { ...env, TZ: tz } });
      expect(r.code).toBe(0);
      expect(sb.requests.map(describeRequest)).toEqual([`PATCH /api/v2/check-ins/${local}`]);
    }
  });
});

describe('through a proxy', () => {
  it('an https API goes through HTTPS_PROXY in a CONNECT tunnel: the proxy never sees the token; NO_PROXY is honoured', async () => {
    // checkin.test:443 is a TLS front for the sandbox, on this machine, behind a recording proxy.
    const { startTlsProxy } = await import('../helpers/proxy.js');
    const proxy = await startTlsProxy('checkin.test', Number(new URL(sb.url).port));
    const { tunnels } = proxy;
    try {
      const e = { ...env, CHECKIN_API_URL: 'https://checkin.test/api/v2', HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: proxy.caFile };
      const r = await runCli(['today', '--json'], { env: e });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(r.stdout).date).toBe(today());
      expect(tunnels).toEqual(['CONNECT checkin.test:443']);
      expect(sb.requests.map((q) => [describeRequest(q), q.headers.authorization])).toEqual([[`GET /api/v2/check-ins/${today()}`, `Bearer ${sb.token}`]]);
      expect(proxy.carried().length).toBeGreaterThan(0);
      expect(proxy.carried()).not.toContain(sb.token); // encrypted end to end
      // NO_PROXY naming the host: no tunnel (and no way to reach the made-up name: a network error, exit 1).
      const direct = await runCli(['today', '--json'], { env: { ...e, NO_PROXY: 'checkin.test', CHECKIN_TIMEOUT: '2' } });
      expect(direct.code).toBe(1);
      expect(tunnels).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

describe('a checkout that was not built', () => {
  it('says in one line to run npm run build (no stack trace)', async () => {
    const { cpSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { ROOT } = await import('../helpers/cli.js');
    const { execFile } = await import('node:child_process');
    const dir = tempDir('checkin-unbuilt-');
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      track(
        execFile(process.execPath, [join(dir, 'bin', 'checkin.js'), '--version'], (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        ),
      ),
    );
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'checkin is not built yet: run `npm run build` in its folder (npm install does it for you).\n' });
  });
});

describe('installed like any npm CLI', () => {
  it(
    'npm pack → npm install -g from the tarball into an empty prefix (offline, no dependencies) → checkin runs',
    async () => {
      const { execFile } = await import('node:child_process');
      const { promisify } = await import('node:util');
      const { existsSync, readdirSync } = await import('node:fs');
      const { join } = await import('node:path');
      const { ROOT } = await import('../helpers/cli.js');
      const run = promisify(execFile);
      const dir = tempDir('checkin-pack-');
      // dist/ is built by `npm test` before the tests: pack it as it is (prepack would rebuild it under the other tests' feet).
      // npm's temp files (Node 22+: its compile cache) go in dir, which is removed after the file.
      const packed = JSON.parse(
        (
          await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
            cwd: ROOT,
            env: { ...process.env, npm_config_loglevel: 'error', TMPDIR: dir },
          })
        ).stdout,
      );
      const files = (packed[0].files as Array<{ path: string }>).map((f) => f.path).sort();
      // The bin and the four bundles (the CLI, the MCP server, the help topics, the sandbox); no source maps.
      const man = readdirSync(join(ROOT, 'man')).map((f) => `man/${f}`);
      expect(man.length).toBeGreaterThan(60);
      expect(files).toEqual(
        [
          'CHANGELOG.md',
          'LICENSE',
          'README.md',
          'bin/checkin.js',
          'bin/package.json',
          'dist/checkin.cjs',
          'dist/help-topics.cjs',
          'dist/hook.cjs',
          'dist/mcp-first.cjs',
          'dist/mcp-server.cjs',
          'dist/sandbox-server.cjs',
          'package.json',
          'skills/checkin/SKILL.md',
          ...man,
        ].sort(),
      );
      const prefix = join(dir, 'prefix');
      await run('npm', ['install', '--global', '--prefix', prefix, join(dir, packed[0].filename), '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
        env: { ...process.env, npm_config_loglevel: 'error', TMPDIR: dir },
      });
      const installed = join(prefix, 'lib', 'node_modules', 'checkin-cli');
      // The runtime needs nothing installed but the optional keychain module (native, prebuilt).
      const deps = existsSync(join(installed, 'node_modules')) ? readdirSync(join(installed, 'node_modules')) : [];
      expect(deps.filter((d) => d !== '@napi-rs')).toEqual([]);
      expect(readdirSync(join(prefix, 'bin'))).toEqual(['checkin']);
      const bin = join(prefix, 'bin', 'checkin');
      const version = await run(bin, ['--version'], { env });
      expect(version.stdout).toBe(`${JSON.parse((await import('node:fs')).readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
      const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        track(execFile(bin, ['today', '-i', 'From the tarball', '--json'], { env }, (err, stdout) => resolve({ code: err ? 1 : 0, stdout })));
      });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ date: today(), intentions: 'From the tarball' });
    },
    patient(60_000),
  );
});
