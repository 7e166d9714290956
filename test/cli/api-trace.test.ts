// The HTTP trace (CHECKIN_DEBUG=api, --debug) on every command family: each request the sandbox
// received appears on stderr with its answer, timing and rate-limit headers; the token never does;
// what the service sends is sanitised and bodies are cut.
import { describe, expect, it } from 'vitest';
import { otherSandbox, useWorld, type World } from '../helpers/harness.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import type { Sandbox } from '../../src/sandbox/server.js';

const w: World = useWorld();

/** The `> METHOD URL` lines of a trace, as "METHOD /path?query". */
const traced = (stderr: string, base: string) =>
  [...stderr.matchAll(/^> ([A-Z]+) (\S+)(?: \(try \d+\))?$/gm)].map((m) => `${m[1]} ${m[2]!.slice(new URL(base).origin.length)}`);

const FAMILIES: string[][] = [
  ['today'],
  ['checkin', 'yesterday'],
  ['list', '--per-page', '3'],
  ['status'],
  ['report', '--team', 'Platform'],
  ['activity'],
  ['log', 'Traced a request'],
  ['team', '--team', 'Platform'],
  ['teams'],
  ['people'],
  ['goals'],
  ['inbox'],
  ['comments', 'yesterday'],
  ['reactions', 'yesterday'],
  ['me'],
  ['auth', 'status'],
  ['api', 'me'],
];

describe('CHECKIN_DEBUG=api and --debug', () => {
  it.each(FAMILIES)('traces every request of `checkin %s` and never shows the token', async (...args) => {
    for (const [how, argv, env] of [
      ['CHECKIN_DEBUG=api', args, { CHECKIN_DEBUG: 'api' }],
      // A config folder of its own: what the first run cached would spare this one its requests.
      ['--debug', ['--debug', ...args], { CHECKIN_CONFIG_DIR: tempDir('checkin-trace-') }],
    ] as const) {
      w.forget();
      const r = await w.cli([...argv], { env });
      expect([0, 3], `${how} ${args.join(' ')}: ${r.stderr}`).toContain(r.code);
      expect(w.sb.requests.length, args.join(' ')).toBeGreaterThan(0);
      // Every request the sandbox received, in the trace, once.
      expect(traced(r.stderr, w.sb.url).sort(), how).toEqual(w.sent().sort());
      expect(r.stderr.match(/^< \d{3}$/gm)?.length).toBe(w.sb.requests.length);
      expect(r.stderr).toMatch(/^\* [A-Z]+ \S+: \d{3} in \d+ ms$/m);
      expect(r.stderr).toContain('> authorization: Bearer [redacted]');
      expect(r.stderr).not.toContain(w.sb.token);
    }
  });

  it('--debug after the command too; CHECKIN_DEBUG=1 alone (stack traces) does not trace; a list `api,1` does', async () => {
    const after = await w.cli(['teams', '--debug']);
    expect(after.code).toBe(0);
    expect(after.stderr).toContain('> GET ');
    const stacks = await w.cli(['teams'], { env: { CHECKIN_DEBUG: '1' } });
    expect(stacks.stderr).toBe('');
    const both = await w.cli(['teams'], { env: { CHECKIN_DEBUG: 'api,1' } });
    expect(both.stderr).toContain('> GET ');
    // stdout is what it is without the trace.
    expect(both.stdout).toBe(stacks.stdout);
  });

  it('login: the token it is given is absent from the trace', async () => {
    const r = await w.cli(['login', '--with-token', '--api-url', w.sb.url, '--insecure-storage'], {
      input: `${w.sb.token}\n`,
      env: { CHECKIN_TOKEN: undefined, CHECKIN_DEBUG: 'api' },
    });
    expect(r.code).toBe(0);
    expect(traced(r.stderr, w.sb.url)).toEqual(['GET /api/v2/me']);
    expect(r.stderr).toContain('> authorization: Bearer [redacted]');
    expect(r.stderr).not.toContain(w.sb.token);
  });

  it('shows rate-limit headers, the status and the timing of each answer', async () => {
    const limited = await otherSandbox({ rateLimit: [{ name: 'burst', limit: 30, seconds: 10 }] });
    try {
      const r = await limited.cli(['api', 'teams'], { env: { CHECKIN_DEBUG: 'api' } });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/teams$/m);
      expect(r.stderr).toMatch(/^< 200$/m);
      expect(r.stderr).toMatch(/^< ratelimit: "burst";r=29;t=10$/m);
      expect(r.stderr).toMatch(/^< ratelimit-policy: "burst";q=30;w=10$/m);
      expect(r.stderr).toMatch(/^\* GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/teams: 200 in \d+ ms$/m);
    } finally {
      await limited.sb.close();
    }
  });

  it('redacts secret fields of bodies and the token wherever the service echoes it', async () => {
    w.sb.inject({
      method: 'POST',
      path: '/activities',
      status: 201,
      headers: { 'content-type': 'application/json', 'x-echo': `token ${w.sb.token}` },
      body: JSON.stringify({ id: 'a', access_token: 'steady_pat_other', note: `yours is ${w.sb.token}` }),
    });
    const r = await w.cli(['api', 'activities', '-f', 'group=g', '-f', 'description=d', '-f', 'token=steady_pat_given', '-F', 'auth[password]=hunter22'], {
      env: { CHECKIN_DEBUG: 'api' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> {"group":"g","description":"d","token":"[redacted]","auth":{"password":"[redacted]"}}');
    // A header that holds the token, in any form, is taken out whole.
    expect(r.stderr).toContain('< x-echo: [redacted]');
    expect(r.stderr).toContain('< {"id":"a","access_token":"[redacted]","note":"yours is [redacted]"}');
    for (const secret of [w.sb.token, 'steady_pat_given', 'hunter22', 'steady_pat_other']) expect(r.stderr).not.toContain(secret);
    // What was sent and what is printed are untouched: only the trace is redacted.
    expect(w.sb.requests[w.sb.requests.length - 1]!.body).toMatchObject({ token: 'steady_pat_given', auth: { password: 'hunter22' } });
    expect(JSON.parse(r.stdout).access_token).toBe('steady_pat_other');
  });

  it('sanitises a hostile header and body, and cuts a long body at 1 KB', async () => {
    const long = 'x'.repeat(5000);
    w.sb.inject({
      path: '/teams',
      status: 200,
      headers: { 'content-type': 'text/plain', 'x-evil': 'a\u009b31mred\u009d0;title' },
      body: `\u001b]0;pwned\u0007\u001b[2J\u202eevil\r\nsecond line\u0000 ${long}`,
    });
    const r = await w.cli(['api', 'teams', '--debug']);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    // The 8-bit CSI and OSC are taken out whole, their parameters with them.
    expect(r.stderr).toContain('< x-evil: ared\n');
    expect(r.stderr).toContain('< evil');
    expect(r.stderr).toContain('< second line x');
    expect(r.stderr).toMatch(/^\* body cut at 1024 of \d+ bytes$/m);
    expect(r.stderr).not.toContain('x'.repeat(1100));
  });

  it('a request that gets no answer is traced with what went wrong', async () => {
    w.sb.inject({ path: '/me', drop: true }, { path: '/me', drop: true }, { path: '/me', drop: true });
    const r = await w.cli(['api', 'me', '--debug']);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/^\* GET \S+\/api\/v2\/me: no answer after \d+ ms \(.+\)$/gm)).toHaveLength(3);
    expect(r.stderr).toMatch(/^> GET \S+\/me \(try 3\)$/m);
  });
});

describe('the built CLI with --debug', () => {
  let sb!: Sandbox;
  let env!: NodeJS.ProcessEnv;
  useSandboxEnv((s, e) => {
    sb = s;
    env = e;
  });

  it('traces on stderr, leaves stdout exact, and never prints the token', async () => {
    const r = await runCli(['--debug', 'api', 'me'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(JSON.stringify(sb.service.me(sb.service.data.people.find((p) => p.username === 'ada')!.id)));
    expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/me$/m);
    expect(r.stderr).not.toContain(sb.token);
  });
});
