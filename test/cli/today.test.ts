// checkin today, status, login/me/logout, failures, drafts and $EDITOR: in-process against the
// sandbox over real HTTP, on a fake clock (retries and rate-limit waits take no real time).
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call } from '../helpers/http.js';
import { describeRequest as api, otherSandbox, TODAY, useWorld, type RunOptions } from '../helpers/harness.js';
import { tempDir } from '../helpers/cleanup.js';
import { draftEntries } from '../helpers/outbox.js';

const w = useWorld();
let sb: Sandbox;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  sb = w.sb;
  env = w.env;
});
const cli = (args: string[], opts: RunOptions = {}) => w.cli(args, opts);
const drafts = () => draftEntries(env.CHECKIN_CONFIG_DIR!);

function absentToday() {
  const ada = sb.service.data.tokens[0]!.person_id;
  sb.service.data.absences.push({ person_id: ada, from: TODAY, to: TODAY });
}

describe('checkin today with answers', () => {
  it('sends exactly one PATCH by date key with the answers, and prints the result', async () => {
    const r = await cli(['today', '-p', 'Shipped X', '-i', '- Review Y', '-b', '', '--mood', 'focused', '--done']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(sb.requests.map(api)).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    const req = sb.requests[0]!;
    expect(req.body).toEqual({ previous: 'Shipped X', intentions: '- Review Y', blockers: '', mood: 'focused', previous_completed: true });
    expect(req.headers.authorization).toBe(`Bearer ${sb.token}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(r.stdout).toContain(`Check-in ${TODAY} · Ada Lovelace`);
    expect(r.stdout).toContain('mood: 🧐 focused');
    expect(r.stdout).toContain('Previous\n  Shipped X\nIntentions\n  - Review Y\nBlockers\n  —');
  });

  it('--json prints exactly the service object', async () => {
    const r = await cli(['today', '-i', 'Plan', '--not-done', '--json']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ date: TODAY, intentions: 'Plan', previous_completed: false });
    const stored = await call(sb.url, 'GET', `/check-ins/${TODAY}`, { token: sb.token });
    expect(printed).toEqual(stored.json);
  });

  it('reads one answer from stdin with -', async () => {
    const r = await cli(['today', '-i', '-', '--mood', 'CALM'], { input: '- line one\n- line two\n' });
    expect(r.code).toBe(0);
    expect(sb.requests[0]!.body).toEqual({ intentions: '- line one\n- line two', mood: 'calm' });
  });

  it('--team by name resolves through /me once, then from the cache: one request per run', async () => {
    const first = await cli(['today', '-t', 'Mobile', '-i', 'x', '--json']);
    expect(first.code).toBe(0);
    const mobile = sb.service.data.teams.find((t) => t.name === 'Mobile')!.id;
    expect(sb.requests.map(api)).toEqual(['GET /api/v2/me', `PATCH /api/v2/check-ins/${TODAY}`]);
    expect(sb.requests[1]!.body).toEqual({ intentions: 'x', team_ids: [mobile] });
    sb.requests.length = 0;
    const second = await cli(['today', '-t', 'mobile', '-i', 'y', '--json']);
    expect(second.code).toBe(0);
    expect(sb.requests.map(api)).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    sb.requests.length = 0;
    const bad = await cli(['today', '-t', 'Mobil', '-i', 'z']);
    expect(bad.code).toBe(2);
    // The words given as flags were kept before the name was looked up (no request sends them).
    expect(bad.stderr.split('\n')[0]).toBe('error: No team named "Mobil". Did you mean Mobile?');
    expect(bad.stderr).toContain('`checkin today --resume -t <team>`');
    expect(sb.requests.map(api).sort()).toEqual(['GET /api/v2/people?page=1&per_page=50', 'GET /api/v2/teams?page=1&per_page=50']);
  });

  it('--from-file reads the template sections and Mood line', async () => {
    const dir = tempDir('checkin-file-');
    const file = join(dir, 'answers.md');
    writeFileSync(file, '## Previous\n- Did **A**\n\n## Intentions\n- Do B\n- Do C\n\n## Blockers\n\nMood: tired\n');
    const r = await cli(['today', '--from-file', file, '--json']);
    expect(r.code).toBe(0);
    expect(sb.requests[0]!.body).toEqual({ previous: '- Did **A**', intentions: '- Do B\n- Do C', blockers: '', mood: 'tired' });
  });

  it('refuses a mood outside the list before sending anything (exit 2)', async () => {
    const r = await cli(['today', '--mood', 'ecstatic']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Unknown mood "ecstatic"\. Valid moods: calm, happy, .*, sick \(or none\)\n$/);
    expect(sb.requests).toEqual([]);
  });
});

describe('checkin today without answers', () => {
  it('without a terminal shows the check-in (one GET)', async () => {
    const r = await cli(['today']);
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
    expect(r.stdout).toContain(`Check-in ${TODAY} · Ada Lovelace`);
    expect(r.stdout).toContain('not filled in yet');
  });

  it('404: "No check-in scheduled for today" on stderr, exit 0; --json prints null', async () => {
    absentToday();
    const r = await cli(['today']);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: `No check-in scheduled for today (${TODAY})\n` });
    const j = await cli(['today', '--json']);
    expect(j).toMatchObject({ code: 0, stdout: 'null\n', stderr: `No check-in scheduled for today (${TODAY})\n` });
    // Words given for a day with no check-in stay kept: the day may be scheduled later.
    const w = await cli(['today', '-i', 'x']);
    expect(w.code).toBe(0);
    expect(w.stderr).toBe(
      `No check-in scheduled for today (${TODAY}). What you wrote is kept as a draft: \`checkin today --resume\` sends it (\`checkin drafts\` lists everything waiting).\n`,
    );
  });

  it('strips terminal escape sequences from what the service sent', async () => {
    await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, {
      token: sb.token,
      body: { intentions: 'evil \u001b[31mred\u001b[0m \u001b]0;pwned\u0007title \u009b31m c1 \u0007bell' },
    });
    const r = await cli(['today']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  evil red title  c1 bell'); // \u009b31m is a whole CSI (C1): all of it goes
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
    const j = await cli(['today', '--json']);
    expect(JSON.parse(j.stdout).intentions).toContain('\u001b[31m'); // --json stays exact (and escaped)
    expect(j.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
  });
});

describe('checkin status', () => {
  it('exit 3 with one line when pending, 0 when done, 0 when nothing is scheduled; --quiet prints nothing', async () => {
    const pending = await cli(['status']);
    expect(pending).toMatchObject({ code: 3, stdout: `Today's check-in (${TODAY}) is pending: run \`checkin today\`\n`, stderr: '' });
    expect(sb.requests.map(api)).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
    expect(await cli(['status', '--quiet'])).toMatchObject({ code: 3, stdout: '', stderr: '' });
    await cli(['today', '-i', 'x']);
    expect(await cli(['status'])).toMatchObject({ code: 0, stdout: `Today's check-in (${TODAY}) is filled\n` });
    const json = await cli(['status', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ date: TODAY, state: 'filled' });
    absentToday();
    expect(await cli(['status'])).toMatchObject({ code: 0, stdout: `Today (${TODAY}): nothing scheduled\n` });
  });
});

describe('login, logout, me', () => {
  it('login --with-token verifies with GET /me, stores token and me (0600), and me then needs no request', async () => {
    const e = { CHECKIN_TOKEN: undefined };
    const r = await cli(['login', '--with-token', '--api-url', sb.url], { input: `${sb.token}\n`, env: e });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toBe(
      `Logged in as Ada Lovelace (@ada) at ${sb.url}\nThe token is in ${join(env.CHECKIN_CONFIG_DIR!, 'config.json')} (mode 0600): there is no keychain in the tests.\n`,
    );
    const file = join(env.CHECKIN_CONFIG_DIR!, 'config.json');
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored).toEqual({ profiles: { default: { token: sb.token, api_url: sb.url } } });
    expect(sb.requests.map(api)).toEqual(['GET /api/v2/me']);
    sb.requests.length = 0;
    const me = await cli(['me', '--json'], { env: { ...e, CHECKIN_API_URL: undefined } });
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ name: 'Ada Lovelace', username: 'ada', teams: [{ name: 'Platform' }, { name: 'Mobile' }] });
    expect(sb.requests).toEqual([]);
    // Another token never reuses Ada's cached id.
    const grace = await cli(['me', '--json'], { env: { CHECKIN_TOKEN: 'sandbox_pat_grace' } });
    expect(JSON.parse(grace.stdout).name).toBe('Grace Hopper');
    expect(sb.requests.map(api)).toEqual(['GET /api/v2/me']);
    const out = await cli(['logout'], { env: e });
    expect(out).toMatchObject({ code: 0, stderr: `Logged out: the token was removed from ${file}\n` });
    const after = await cli(['today'], { env: { ...e, CHECKIN_API_URL: undefined } });
    expect(after.code).toBe(4);
    expect(after.stderr).toBe('error: Not logged in: no token found\nRun `checkin login`, or set CHECKIN_TOKEN (STEADY_TOKEN works too).\n');
  });

  it('STEADY_TOKEN is honoured after CHECKIN_TOKEN', async () => {
    const r = await cli(['today', '--json'], { env: { CHECKIN_TOKEN: undefined, STEADY_TOKEN: sb.token } });
    expect(r.code).toBe(0);
    expect(sb.requests[0]!.headers.authorization).toBe(`Bearer ${sb.token}`);
  });

  it('refuses an empty token, a rejected token, and a prompt without a terminal', async () => {
    const empty = await cli(['login', '--with-token'], { input: '\n' });
    expect(empty).toMatchObject({ code: 2, stderr: 'error: The token is empty; nothing was stored\n' });
    const bad = await cli(['login', '--with-token'], { input: 'wrong\n' });
    expect(bad.code).toBe(4);
    expect(bad.stderr.split('\n')[0]).toBe('error: The service rejected this token (401): nothing was stored');
    const noTty = await cli(['login']);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toBe('error: No terminal to ask for the token\nPipe it in: `echo "$TOKEN" | checkin login --with-token`\n');
  });
});

describe('failures: one clear line and the documented exit code', () => {
  it('unknown flag → 2', async () => {
    const r = await cli(['today', '--frobnicate']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe("error: unknown option '--frobnicate'\n");
  });

  it('bad time for cron → 2', async () => {
    const r = await cli(['cron', '--at', '25:99']);
    expect(r).toMatchObject({ code: 2, stderr: 'error: --at must be a time written HH:MM, got "25:99"\n' });
  });

  it('401 → 4, 403 read-only → 4', async () => {
    const r401 = await cli(['today'], { env: { CHECKIN_TOKEN: 'nope' } });
    expect(r401.code).toBe(4);
    expect(r401.stderr).toBe(
      `error: The token was rejected (401 on GET /api/v2/check-ins/${TODAY}): Invalid or expired token\nRun \`checkin login\` with a valid token, or set CHECKIN_TOKEN.\n`,
    );
    const r403 = await cli(['today', '-i', 'x'], { env: { CHECKIN_TOKEN: 'sandbox_pat_read_only' } });
    expect(r403.code).toBe(4);
    expect(r403.stderr.split('\n')[0]).toBe(`error: The token is read-only: the service refused PATCH /api/v2/check-ins/${TODAY} (403)`);
  });

  it('422 from the service → 2, naming the field', async () => {
    const r = await cli(['today', '-t', '00000000-0000-4000-8000-000000000000', '-i', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: PATCH /api/v2/check-ins/${TODAY}: 422 Unprocessable Entity: team_ids contains 00000000-0000-4000-8000-000000000000, which is not one of the person's teams`,
    );
    // The words given as flags wait in the outbox.
    expect(r.stderr).toContain('kept as a draft');
  });

  it('429 from the real limiter: waits Retry-After (on the clock), then succeeds', async () => {
    const limited = await otherSandbox({ rateLimit: [{ name: 'burst', limit: 1, seconds: 1 }] });
    try {
      expect((await limited.cli(['today', '--json'])).code).toBe(0);
      const r = await limited.cli(['today', '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).date).toBe(TODAY);
      expect(r.stderr).toBe(`GET /api/v2/check-ins/${TODAY}: 429 Too Many Requests: Rate limit exceeded; retry in 1 s; retrying in 1 s…\n`);
      expect(limited.sb.requests.map((q) => q.status)).toEqual([200, 429, 200]);
      expect(limited.clock.slept).toEqual([1000]);
    } finally {
      await limited.sb.close();
    }
  });

  it('words given as flags are kept when the send fails (the connection dropped), and --resume sends exactly them once', async () => {
    const drop = { method: 'PATCH', path: `/check-ins/${TODAY}`, drop: true };
    sb.inject(drop, drop, drop);
    const r = await cli(['today', '-i', 'Offline intention', '--mood', 'focused']);
    expect(r.code).toBe(1);
    // A PATCH is the same however often it arrives: tried 3 times, then the words wait.
    expect(sb.requests.filter((q) => q.method === 'PATCH')).toHaveLength(3);
    expect(r.stderr).toContain('What you wrote is kept as a draft: `checkin today --resume` sends it');
    const listed = await cli(['drafts', '--json']);
    expect((JSON.parse(listed.stdout) as Array<{ made: string; preview?: string }>).map((d) => d.made)).toEqual(['flag']);
    sb.requests.length = 0;
    const resumed = await cli(['today', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(sb.requests.filter((q) => q.method === 'PATCH').map((q) => q.body)).toEqual([{ intentions: 'Offline intention', mood: 'focused' }]);
    expect(JSON.parse((await cli(['drafts', '--json'])).stdout)).toEqual([]);
  });

  it('500 → 1 without a retry; an HTML 502 page → 1 after 3 tries', async () => {
    sb.inject({ path: `/check-ins/${TODAY}`, status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":"internal","message":"boom"}' });
    const r500 = await cli(['today']);
    expect(r500.code).toBe(1);
    expect(r500.stderr).toBe(
      `error: GET /api/v2/check-ins/${TODAY}: 500 Internal Server Error: boom\nThe service is having trouble; try again in a few minutes.\n`,
    );
    expect(sb.requests).toHaveLength(1);
    sb.requests.length = 0;
    const page = {
      path: `/check-ins/${TODAY}`,
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
    };
    sb.inject(page, page, page);
    const r502 = await cli(['today']);
    expect(r502.code).toBe(1);
    expect(sb.requests).toHaveLength(3);
    expect(w.clock.slept).toEqual([500, 1000]);
    expect(r502.stderr.split('\n').at(-3)).toBe(`error: GET /api/v2/check-ins/${TODAY}: 502 Bad Gateway (an HTML page ("502 Bad Gateway"))`);
  });

  it('connection refused on this machine → 1, said once: no retries (nothing listens there)', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const r = await cli(['today'], { env: { CHECKIN_API_URL: `http://127.0.0.1:${port}/api/v2` } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: GET /api/v2/check-ins/${TODAY}: nothing is listening at http://127.0.0.1:${port} — is \`checkin sandbox\` running?\n` +
        'Start it in another terminal (`checkin sandbox`), or check --api-url / CHECKIN_API_URL.\n',
    );
    expect(w.clock.slept).toEqual([]);
  });

  it('a service that never answers → 1 after the timeout', async () => {
    sb.inject({ path: `/check-ins/${TODAY}`, hang: true });
    const r = await cli(['today'], { env: { CHECKIN_TIMEOUT: '0.05' } });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`error: GET /api/v2/check-ins/${TODAY}: no whole answer from ${new URL(sb.url).host} within 0.05 s`);
  });

  it('refuses to send a token over plain http to another host → 2, without connecting', async () => {
    const r = await cli(['today'], { env: { CHECKIN_API_URL: 'http://checkin.example.invalid/api/v2' } });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: Refusing to send the token over plain http to checkin.example.invalid: it would travel unencrypted');
  });

  it('no stack trace, unless CHECKIN_DEBUG=1', async () => {
    const r = await cli(['today'], { env: { CHECKIN_TOKEN: 'nope' } });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const d = await cli(['today'], { env: { CHECKIN_TOKEN: 'nope', CHECKIN_DEBUG: '1' } });
    expect(d.stderr).toMatch(/\n\s+at /);
  });
});

describe('drafts', () => {
  it('keeps typed answers when the service fails, and --resume sends them', async () => {
    const file = join(tempDir('checkin-file-'), 'a.md');
    writeFileSync(file, '## Intentions\n- Do not lose me\n');
    sb.inject({ method: 'PATCH', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' });
    const r = await cli(['today', '--from-file', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: PATCH /api/v2/check-ins/${TODAY}: 500 Internal Server Error: down\nThe service is having trouble; try again in a few minutes.\nWhat you wrote is kept as a draft: \`checkin today --resume\` sends it (\`checkin drafts\` lists everything waiting).\n`,
    );
    expect(drafts()).toMatchObject([{ target: { kind: 'check-in', key: TODAY }, content: { kind: 'answers', answers: { intentions: '- Do not lose me' } } }]);
    const dir = join(env.CHECKIN_CONFIG_DIR!, 'drafts');
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(join(dir, readdirSync(dir)[0]!)).mode & 0o777).toString(8)).toBe('600');
    const resumed = await cli(['today', '--resume', '--json']);
    expect(resumed.code).toBe(0);
    expect(sb.requests.at(-1)!.body).toEqual({ intentions: '- Do not lose me' });
    expect(drafts()).toEqual([]);
    const again = await cli(['today', '--resume']);
    expect(again).toMatchObject({ code: 2, stderr: `error: There is no draft for today (${TODAY})\n` });
  });
});

describe('$EDITOR', () => {
  it('opens VISUAL (a command with arguments) on the template and sends what was saved', async () => {
    const dir = tempDir('checkin-editor-');
    const script = join(dir, 'fake-editor.mjs');
    writeFileSync(
      script,
      `import { readFileSync, writeFileSync } from 'node:fs';
const [flag, file] = process.argv.slice(2);
if (flag !== '--wait') process.exit(9);
const text = readFileSync(file, 'utf8');
writeFileSync(file + '.seen', text);
writeFileSync(file, text.replace('## Intentions\\n', '## Intentions\\n- Written in the editor\\n').replace('Mood: ', 'Mood: nerdy'));
`,
    );
    chmodSync(script, 0o755);
    await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: sb.token, body: { previous: 'Kept from before' } });
    sb.requests.length = 0;
    const r = await cli(['today', '-e', '--json'], { tty: true, env: { VISUAL: `${process.execPath} ${script} --wait`, EDITOR: 'false' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(sb.requests.map(api)).toEqual([`GET /api/v2/check-ins/${TODAY}`, `PATCH /api/v2/check-ins/${TODAY}`]);
    expect(sb.requests[1]!.body).toEqual({ previous: 'Kept from before', intentions: '- Written in the editor', blockers: '', mood: 'nerdy' });
  });

  it("an editor quit with a failure status (vim's :cq) is a stop: 130, plain words, no editor advice; what it saved is kept", async () => {
    // Untouched and quit: nothing kept, nothing sent.
    const quit = await cli(['today', '-e'], { tty: true, env: { VISUAL: 'sh -c "exit 1" sh' } });
    expect(quit).toMatchObject({ code: 130, stderr: 'The editor (sh -c "exit 1" sh) quit with status 1, as vim\'s :cq does: nothing was sent\n' });
    // Written, saved, then quit with a failure: the words are kept, and the line says how to send them.
    const saved = await cli(['today', '-e'], { tty: true, env: { VISUAL: `sh -c 'printf "## Previous\\nWrote this\\n" > "$1"; exit 1' sh` } });
    expect(saved.code).toBe(130);
    expect(saved.stderr).toMatch(
      /^The editor \(.*\) quit with status 1, as vim's :cq does: nothing was sent\nWhat you wrote is kept as a draft: `checkin today --resume -e` sends it/,
    );
    expect(saved.stderr).not.toContain('code --wait');
    expect(sb.requests.filter((q) => q.method === 'PATCH')).toEqual([]);
  });

  it('an empty file cancels (130) without sending', async () => {
    const r = await cli(['today', '-e'], { tty: true, env: { VISUAL: `sh -c ': > "$1"' sh` } });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('Nothing was written; the check-in was not sent\n');
    expect(sb.requests.filter((q) => q.method === 'PATCH')).toEqual([]);
  });
});

describe('help and cron', () => {
  it('--help lists the exit codes', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit codes:\n  0    success (including "no check-in scheduled")');
    expect(r.stdout).toContain("  3    checkin status: today's check-in is still pending");
  });
});

describe('proxies', () => {
  it('never sends a request for this machine through a proxy: the token stays off the wire', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const seen: string[] = [];
    const proxy = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(502).end();
    });
    proxy.on('connect', (req, socket) => {
      seen.push(`CONNECT ${req.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      for (const url of [sb.url, sb.url.replace('127.0.0.1', 'localhost')]) {
        const r = await cli(['today', '--json'], { env: { CHECKIN_API_URL: url, HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl } });
        expect(r).toMatchObject({ code: 0, stderr: '' });
        expect(JSON.parse(r.stdout).date).toBe(TODAY);
      }
      expect(seen).toEqual([]);
      expect(sb.requests).toHaveLength(2);
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });
});

describe('a wrong API URL is never "nothing scheduled"', () => {
  it('status and today against paths that are not API v2 fail naming the URL (exit 2), and keep typed text', async () => {
    const origin = new URL(sb.url).origin;
    for (const base of [`${origin}/app`, `${origin}/api/v1`, origin]) {
      const status = await cli(['status'], { env: { CHECKIN_API_URL: base } });
      expect(status.code).toBe(2);
      expect(status.stdout).toBe('');
      expect(status.stderr.split('\n')[0]).toMatch(
        new RegExp(`^error: No check-in service \\(API v2\\) at ${base}: GET \\S*/check-ins/${TODAY} answered 404, and GET \\S*/me answered 404$`),
      );
      const typed = await cli(['today', '-p', '-'], { env: { CHECKIN_API_URL: base }, input: 'Words I typed\n' });
      expect(typed.code).toBe(2);
      expect(typed.stderr.split('\n').at(-2)).toBe(
        'What you wrote is kept as a draft: `checkin today --resume` sends it (`checkin drafts` lists everything waiting).',
      );
    }
    expect(
      drafts()
        .map((d) => [d.account.api_url, d.content])
        .sort(),
    ).toEqual([`${origin}/app`, `${origin}/api/v1`, origin].map((u) => [u, { kind: 'answers', answers: { previous: 'Words I typed' } }]).sort());
  });

  it('an HTML 404 (a web server, not the API) fails at once, without asking /me', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const web = createHttpServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>Not Found</title></html>'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(web.address() as { port: number }).port}/api/v2`;
    try {
      const r = await cli(['status', '--quiet'], { env: { CHECKIN_API_URL: url } });
      expect(r).toEqual({ code: 2, stdout: '', stderr: '' }); // --quiet: only the exit code tells
      const loud = await cli(['status'], { env: { CHECKIN_API_URL: url } });
      expect(loud.stderr.split('\n')[0]).toBe(`error: No check-in service (API v2) at ${url}: GET /api/v2/check-ins/${TODAY} answered 404 (not JSON)`);
    } finally {
      await new Promise((res) => web.close(res));
    }
  });

  it('the real "not scheduled" is trusted once /me answered there, and then costs no extra request', async () => {
    const ada = sb.service.data.tokens[0]!.person_id;
    sb.service.data.absences.push({ person_id: ada, from: TODAY, to: TODAY });
    expect(await cli(['status'])).toMatchObject({ code: 0, stdout: `Today (${TODAY}): nothing scheduled\n` });
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`, 'GET /api/v2/me']);
    await cli(['inbox']); // the count of new comments is fresh (status looks again after ten minutes)
    w.forget();
    expect(await cli(['status'])).toMatchObject({ code: 0 });
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
  });
});
