// A reminder made under a profile that a run would not find by itself (named by --profile,
// CHECKIN_PROFILE or the folder's .checkin.json) carries it: the unit's environment, cron's line and
// Windows' `remind run --env` name CHECKIN_PROFILE, so the scheduled run (in the home folder, with
// none of them) asks about the same account. A person with one profile gets the units as before.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FAKED_CLOCK_ARGS, runCli } from '../helpers/cli.js';
import { standIns } from '../helpers/remind.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

const run = promisify(execFile);
const NOTIFIED = "--app-name=checkin\nCheck-in pending\nToday's check-in is still pending: run checkin today\n---\n";

/** A person whose only login is the profile "client-a" and whose default is "default" (it has no token), the stand-ins first on PATH. */
async function clientA(stand: ReturnType<typeof standIns>): Promise<NodeJS.ProcessEnv> {
  const u: NodeJS.ProcessEnv = { ...env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined, PATH: `${stand.dir}:${env.PATH}` };
  const login = await runCli(['login', '--profile', 'client-a', '--with-token', '--api-url', sb.url], { env: u, input: sb.token });
  expect(login.code, login.stderr).toBe(0);
  // A first login makes its profile the default: "default" is made the default again, as
  // `checkin auth switch default` does, so a run that names no profile has no token.
  const back = await runCli(['auth', 'switch', 'default'], { env: u });
  expect(back.code, back.stderr).toBe(0);
  return u;
}

/** A unit file's value as words (none of this test's paths holds a space, a quote or a %). */
const words = (value: string) => value.split(' ').map((w) => w.replace(/^"|"$/g, ''));

describe('a reminder carries the profile it was made under', () => {
  it('--profile: the systemd service names CHECKIN_PROFILE, and the timer run under env -i notifies for that account', async () => {
    const stand = standIns({ userManager: true });
    const u = await clientA(stand);
    const r = await runCli(['remind', 'install', '--profile', 'client-a'], { env: u });
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    const service = readFileSync(join(u.HOME!, '.config', 'systemd', 'user', 'checkin-remind.service'), 'utf8');
    const pairs = [...service.matchAll(/^Environment=(.*)$/gm)].flatMap((m) => words(m[1]!));
    expect(pairs).toContain('CHECKIN_PROFILE=client-a');
    const exec = words(/^ExecStart=(.*)$/m.exec(service)![1]!);
    // Without the profile the run has no token (the profile "default" is not logged in): it fails.
    const without = pairs.filter((p) => !p.startsWith('CHECKIN_PROFILE='));
    await expect(run('env', ['-i', ...FAKED_CLOCK_ARGS, ...without, ...exec], { encoding: 'utf8', timeout: 15_000 })).rejects.toThrow();
    expect(stand.read('notified')).toBe('');
    sb.requests.length = 0;
    expect((await run('env', ['-i', ...FAKED_CLOCK_ARGS, ...pairs, ...exec], { encoding: 'utf8', timeout: 15_000 })).stdout).toBe('');
    expect(stand.read('notified')).toBe(NOTIFIED);
    expect(sb.requests.every((q) => q.headers.authorization === `Bearer ${sb.token}`)).toBe(true);
  });

  it("CHECKIN_PROFILE and a folder's .checkin.json are carried into cron's line; the default profile (auth switch's) is not", async () => {
    const stand = standIns({ userManager: false });
    const u = await clientA(stand);
    const line = async (extra: NodeJS.ProcessEnv, cwd?: string) => {
      const r = await runCli(['cron'], { env: { ...u, ...extra }, ...(cwd !== undefined && { cwd }) });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(await line({ CHECKIN_PROFILE: 'client-a' })).toContain(' CHECKIN_PROFILE=client-a ');
    const folder = join(u.HOME!, 'work', 'client-a');
    mkdirSync(join(folder, 'src'), { recursive: true });
    writeFileSync(join(folder, '.checkin.json'), '{ "profile": "client-a" }\n', { mode: 0o644 });
    expect(await line({}, join(folder, 'src'))).toContain(' CHECKIN_PROFILE=client-a ');
    // The environment over the folder's file, naming the profile a scheduled run finds by itself: nothing to carry.
    expect(await line({ CHECKIN_PROFILE: 'default' }, join(folder, 'src'))).not.toContain('CHECKIN_PROFILE');
    // Once client-a is the default (`checkin auth switch client-a`), it is not written (the reminder
    // follows the next switch), and "default" named on purpose is.
    const config = join(u.CHECKIN_CONFIG_DIR!, 'config.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), profile: 'client-a' }), { mode: 0o600 });
    expect(await line({})).not.toContain('CHECKIN_PROFILE');
    expect(await line({ CHECKIN_PROFILE: 'default' })).toContain(' CHECKIN_PROFILE=default ');
  });

  it('`remind run --env CHECKIN_PROFILE=…` (what the Windows task passes) runs under that profile', async () => {
    const stand = standIns({ userManager: false });
    const u = await clientA(stand);
    const plain = await runCli(['remind', 'run'], { env: u });
    expect(plain.code).not.toBe(0);
    const r = await runCli(['remind', 'run', '--env', 'CHECKIN_PROFILE=client-a'], { env: u });
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(stand.read('notified')).toBe(NOTIFIED);
  });
});
