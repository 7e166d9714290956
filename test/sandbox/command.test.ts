import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { cleanEnv, runCli, spawnCli, waitForLine } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { patient } from '../helpers/patience.js';

function exited(child: ReturnType<typeof spawnCli>): Promise<number | null> {
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

describe('checkin sandbox (the built binary)', () => {
  it('prints the URL, the token and an export line, answers, and stops cleanly on SIGTERM', async () => {
    const child = spawnCli(['sandbox', '--port', '0', '--no-log'], cleanEnv());
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const m = await waitForLine(child.stdout!, /^export CHECKIN_API_URL=(http:\/\/127\.0\.0\.1:\d+\/api\/v2)\nexport CHECKIN_TOKEN=(\S+)$/m);
    const [, url, token] = m;
    expect(token).toBe('sandbox_pat_demo');
    expect(stderr).toContain(`API v2 at ${url}`);
    expect(stderr).toContain('read-only token: sandbox_pat_read_only');
    const r = await call(url!, 'GET', '/me', { token: token! });
    expect(r.status).toBe(200);
    expect(r.json.username).toBe('ada');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(stderr).toContain('Stopping the sandbox');
    // What a person copies: two lines, each within 80 columns even with a five-digit port (port 0 gives one).
    expect(stdout).toBe(`export CHECKIN_API_URL=${url}\nexport CHECKIN_TOKEN=sandbox_pat_demo\n`);
    expect(stderr).toContain('Or paste these two lines into another shell to point checkin at it:\n');
    expect(Math.max(...stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it('is a profile: it writes the profile "sandbox" (its URL and demo token) at each start, says the one line to use it, and leaves the other profiles as they were', async () => {
    const env = cleanEnv();
    const config = join(env.CHECKIN_CONFIG_DIR!, 'config.json');
    // A person with a login of their own, and a team set for the sandbox from an earlier start.
    mkdirSync(env.CHECKIN_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    const mine = { api_url: 'https://service.steady.space/api/v2', token: 'steady_pat_mine' };
    writeFileSync(
      config,
      JSON.stringify({ profiles: { default: mine, sandbox: { api_url: 'http://127.0.0.1:1/api/v2', token: 'old', team: 'Mobile' } }, editor: 'nano' }),
      {
        mode: 0o600,
      },
    );
    const child = spawnCli(['sandbox', '--port', '0', '--no-log'], env);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const [, url] = await waitForLine(child.stdout!, /^export CHECKIN_API_URL=(\S+)\nexport CHECKIN_TOKEN=sandbox_pat_demo$/m);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      profiles: { default: mine, sandbox: { api_url: url, token: 'sandbox_pat_demo', team: 'Mobile' } },
      editor: 'nano',
    });
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(stderr).toContain(
      '\nTo use it: checkin --profile sandbox today (or: checkin auth switch sandbox)\nOr paste these two lines into another shell to point checkin at it:\n',
    );
    expect(stderr.split('\n').find((l) => l.startsWith('To use it'))!.length).toBeLessThanOrEqual(80);
    // The line works as printed, in a shell with nothing set; CHECKIN_PROFILE does the same.
    const me = await runCli(['--profile', 'sandbox', 'me', '--json'], { env });
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ username: 'ada' });
    const today = await runCli(['today', '--json'], { env: { ...env, CHECKIN_PROFILE: 'sandbox' } });
    expect(today.code, today.stderr).toBe(0);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it(
    '--host 0.0.0.0 prints a loopback URL the client accepts; --people/--days make large demo data',
    async () => {
      const child = spawnCli(['sandbox', '--port', '0', '--host', '0.0.0.0', '--people', '55', '--days', '40', '--no-rate-limit', '--no-log'], cleanEnv());
      const m = await waitForLine(child.stdout!, /^export CHECKIN_API_URL=(\S+)\nexport CHECKIN_TOKEN=(\S+)$/m);
      const [, url, token] = m;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
      const r = await runCli(['list', '--all', '--json', '--since', '2000-01-01'], {
        env: cleanEnv({ CHECKIN_API_URL: url, CHECKIN_TOKEN: token }),
        timeoutMs: 30_000,
      });
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThanOrEqual(50 * 40);
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
    },
    patient(40_000),
  );

  it('--token, --data and Ctrl-C: state survives a restart', async () => {
    const dir = tempDir('checkin-data-');
    const file = join(dir, 'sandbox.json');
    const start = async () => {
      const child = spawnCli(['sandbox', '--port', '0', '--token', 'tok_123', '--data', file], cleanEnv());
      const [, url] = await waitForLine(child.stdout!, /CHECKIN_API_URL=(\S+)\nexport CHECKIN_TOKEN=tok_123/);
      return { child, url: url! };
    };
    const a = await start();
    const today = new Date().toISOString().slice(0, 10); // the child runs with TZ=UTC
    const patched = await call(a.url, 'PATCH', `/check-ins/${today}`, { token: 'tok_123', body: { intentions: 'Kept' } });
    expect(patched.status).toBe(200);
    a.child.kill('SIGINT');
    expect(await exited(a.child)).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8')).check_ins.some((c: { intentions: string }) => c.intentions === 'Kept')).toBe(true);
    const b = await start();
    expect((await call(b.url, 'GET', `/check-ins/${today}`, { token: 'tok_123' })).json.intentions).toBe('Kept');
    b.child.kill('SIGTERM');
    expect(await exited(b.child)).toBe(0);
  });

  it('keeps its address across restarts: a stored login works after the sandbox is started again; the usual port taken, a free one, said', async () => {
    // A port free now stands for the default (4280 may be in use on a contributor's machine).
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const env = cleanEnv({ CHECKIN_SANDBOX_PORT: String(port) });
    const { CHECKIN_API_URL: _u, CHECKIN_TOKEN: _t, ...home } = env;
    const first = spawnCli(['sandbox', '--no-log'], env);
    const [, url] = await waitForLine(first.stdout!, /^export CHECKIN_API_URL=(\S+)\nexport CHECKIN_TOKEN=(\S+)$/m);
    expect(url).toBe(`http://127.0.0.1:${port}/api/v2`);
    const login = await runCli(['login', '--with-token', '--api-url', url!], { env: home, input: 'sandbox_pat_demo\n' });
    expect(login.code).toBe(0);
    first.kill('SIGTERM');
    expect(await exited(first)).toBe(0);
    const second = spawnCli(['sandbox', '--no-log'], env);
    const [, again] = await waitForLine(second.stdout!, /^export CHECKIN_API_URL=(\S+)\nexport CHECKIN_TOKEN=(\S+)$/m);
    expect(again).toBe(url);
    const me = await runCli(['me', '--json'], { env: home });
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ username: 'ada' });
    // The usual port now taken (by the second): a third starts on a free one and says so.
    const third = spawnCli(['sandbox', '--no-log'], env);
    let said = '';
    third.stderr!.on('data', (d: Buffer) => (said += d.toString()));
    const [, other] = await waitForLine(third.stdout!, /^export CHECKIN_API_URL=(\S+)\nexport CHECKIN_TOKEN=(\S+)$/m);
    expect(other).not.toBe(url);
    expect(said).toContain(
      `note: port ${port} is taken, so this sandbox listens on ${new URL(other!).port}: a login stored for port ${port} does not reach it`,
    );
    const both = Promise.all([exited(second), exited(third)]);
    second.kill('SIGTERM');
    third.kill('SIGTERM');
    expect(await both).toEqual([0, 0]);
  });

  it('refuses a bad port and a port in use with exit 2 and one line', async () => {
    const bad = await runCli(['sandbox', '--port', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("error: option '--port <n>' argument 'abc' is invalid. --port must be a whole number from 0 to 65535.\n");
    const child = spawnCli(['sandbox', '--port', '0', '--no-log'], cleanEnv());
    const [, port] = await waitForLine(child.stdout!, /127\.0\.0\.1:(\d+)/);
    const busy = await runCli(['sandbox', '--port', port!]);
    expect(busy.code).toBe(2);
    expect(busy.stderr.split('\n')[0]).toBe(`error: Port ${port} on 127.0.0.1 is already in use`);
    child.kill('SIGTERM');
    await exited(child);
  });

  it('refuses a broken data file with exit 2', async () => {
    const dir = tempDir('checkin-data-');
    const file = join(dir, 'broken.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, 'not json');
    const r = await runCli(['sandbox', '--port', '0', '--data', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Cannot start the sandbox: .*broken\.json: not valid JSON/);
  });
});
