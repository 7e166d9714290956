// `checkin api <path>` against the sandbox (in-process, fake clock): the exact requests the
// sandbox received (method, path, query, body, headers), what was printed, and the exit codes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_READ_TOKEN } from '../../src/sandbox/demo.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { otherSandbox, useWorld } from '../helpers/harness.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

const w = useWorld({ size: { people: 120, days: 1 } });
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const last = () => w.sb.requests[w.sb.requests.length - 1]!;

describe('checkin api', () => {
  it('GETs a path under the API URL (leading slash or not) and prints the JSON exactly when piped', async () => {
    const r = await w.cli(['api', 'teams/' + w.team('Platform')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const req = last();
    expect(req.method).toBe('GET');
    expect(req.path).toBe(`/api/v2/teams/${w.team('Platform')}`);
    expect(req.query).toBe('');
    expect(req.headers.authorization).toBe(`Bearer ${w.sb.token}`);
    expect(req.body).toBeUndefined();
    // The exact bytes the service sent: compact JSON, no newline added.
    expect(r.stdout).toBe(JSON.stringify(w.sb.service.teamView(w.sb.service.team(w.team('Platform')), true)));

    w.forget();
    const slash = await w.cli(['api', '/me']);
    expect(slash.code).toBe(0);
    expect(w.sent()).toEqual(['GET /api/v2/me']);
    expect(JSON.parse(slash.stdout).username).toBe('ada');
  });

  it('indents and sanitises the answer on a terminal', async () => {
    const ada = w.sb.service.data.people.find((p) => p.username === 'ada')!;
    ada.title = 'Evil\u001b]0;owned\u0007 \u202eTitle';
    const r = await w.cli(['api', 'me'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\n  "title": "Evil Title",\n');
    expect(r.stdout).not.toMatch(/\u001b|\u0007|\u202e/);
    expect(r.stdout.endsWith('}\n')).toBe(true);
  });

  it('-f fields are strings, -F fields typed (numbers, booleans, null, @file, arrays, objects); fields make it a POST', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkin-api-'));
    dirs.push(dir);
    const file = join(dir, 'desc.md');
    writeFileSync(file, 'Line one\nLine "two"\n');
    const r = await w.cli([
      'api',
      'goals',
      '-f',
      'title=Ship the API',
      '-f',
      'end_date=2026-12-31',
      '-F',
      `description=@${file}`,
      '-F',
      'private=false',
      '-F',
      'archived=false',
      '-F',
      `team_ids[]=${w.team('Platform')}`,
      '-F',
      `team_ids[]=${w.team('Mobile')}`,
      '-F',
      'contributor_ids[]',
      '-f',
      'update_cadence=007',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const req = last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/v2/goals');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      title: 'Ship the API',
      end_date: '2026-12-31',
      description: 'Line one\nLine "two"\n',
      private: false,
      archived: false,
      team_ids: [w.team('Platform'), w.team('Mobile')],
      contributor_ids: [],
      update_cadence: '007',
    });
    expect(JSON.parse(r.stdout).title).toBe('Ship the API');
  });

  it('-F numbers and nested objects go out typed; -X PATCH with fields', async () => {
    const goal = w.sb.service.data.goals[0]!;
    w.sb.inject({ method: 'PATCH', path: `/goals/${goal.id}`, status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
    const r = await w.cli([
      'api',
      `goals/${goal.id}`,
      '-X',
      'patch',
      '-F',
      'progress=42',
      '-F',
      'ratio=-1.5e2',
      '-F',
      'big=12345678901234567890',
      '-F',
      'meta[owner][name]=Ada',
      '-F',
      'meta[tags][]=a',
      '-F',
      'items[][k]=1',
      '-F',
      'items[][v]=2',
      '-F',
      'items[][k]=3',
      '-F',
      'parent_id=null',
    ]);
    expect(r.code).toBe(0);
    expect(last().method).toBe('PATCH');
    expect(last().body).toEqual({
      progress: 42,
      ratio: -150,
      big: '12345678901234567890',
      meta: { owner: { name: 'Ada' }, tags: ['a'] },
      items: [{ k: 1, v: 2 }, { k: 3 }],
      parent_id: null,
    });
    expect(r.stdout).toBe('{"ok":true}');
  });

  it('on a GET, fields become the query (arrays repeated as name[]=), and me in people_ids[] is the UUID', async () => {
    const r = await w.cli(['api', 'goals', '-X', 'GET', '-f', 'people_ids[]=me', '-f', `team_ids[]=${w.team('Platform')}`, '-F', 'per_page=5']);
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual(['GET /api/v2/me', `GET /api/v2/goals?people_ids[]=${w.id('ada')}&team_ids[]=${w.team('Platform')}&per_page=5`]);
    expect(last().params).toEqual([
      ['people_ids[]', w.id('ada')],
      ['team_ids[]', w.team('Platform')],
      ['per_page', '5'],
    ]);
  });

  it("me in a path segment and in a people_ids[] of the path's own query is the UUID (from the cache after the first time)", async () => {
    const r = await w.cli(['api', 'people/me']);
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual(['GET /api/v2/me', `GET /api/v2/people/${w.id('ada')}`]);
    w.forget();
    const q = await w.cli(['api', 'check-ins?people_ids[]=me&per_page=2']);
    expect(q.code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/check-ins?people_ids[]=${w.id('ada')}&per_page=2`]);
    w.forget();
    expect((await w.cli(['api', 'goals?people_ids%5B%5D=me'])).code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/goals?people_ids%5B%5D=${w.id('ada')}`]);
    // /me itself is the endpoint, not a placeholder.
    w.forget();
    await w.cli(['api', 'me']);
    expect(w.sent()).toEqual(['GET /api/v2/me']);
  });

  it('--input - sends standard input as the body, as it is; fields then go in the query', async () => {
    const body = '{"group":"CI","description":"Deployed \\u00e9 build 42"}';
    const r = await w.cli(['api', 'activities', '--input', '-', '-H', 'X-Trace-Id: abc 123'], { input: body });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const req = last();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/v2/activities');
    expect(req.body).toEqual({ group: 'CI', description: 'Deployed é build 42' });
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-trace-id']).toBe('abc 123');
    expect(JSON.parse(r.stdout).description).toBe('Deployed é build 42');

    // With --input, fields go in the query (a route that takes none refuses them: 400, exit 2).
    const q = await w.cli(['api', 'activities', '--input', '-', '-f', 'dry=1'], { input: body });
    expect(last().query).toBe('dry=1');
    expect(q.code).toBe(2);
  });

  it('--paginate follows every page (50 a page, until a short one) and prints one JSON array; request count asserted', async () => {
    const people = w.sb.service.data.people;
    expect(people.length).toBe(121); // 50 + 50 + 21
    const r = await w.cli(['api', 'people', '--paginate']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual(['GET /api/v2/people?page=1&per_page=50', 'GET /api/v2/people?page=2&per_page=50', 'GET /api/v2/people?page=3&per_page=50']);
    const items = JSON.parse(r.stdout) as Array<{ id: string }>;
    expect(items.map((p) => p.id)).toEqual(people.map((p) => p.id));
    expect(r.stdout.endsWith(']\n')).toBe(true);
  });

  it('--paginate keeps the query of the path, replaces its page and per_page, and stays within the rate budget', async () => {
    const limited = await otherSandbox({ size: { people: 120, days: 1 }, rateLimit: [{ name: 'burst', limit: 2, seconds: 10 }] });
    try {
      const team = limited.sb.service.data.teams.find((t) => t.name === 'Guild')!;
      const r = await limited.cli(['api', `goals?team_ids[]=${team.id}&page=7&per_page=3`, '--paginate']);
      expect(r.code).toBe(0);
      expect(limited.sb.requests.map((q) => `${q.method} ${q.path}?${q.query} ${q.status}`)).toEqual([
        `GET /api/v2/goals?team_ids[]=${team.id}&page=1&per_page=50 200`,
      ]);
      expect(JSON.parse(r.stdout)).toEqual([]);

      limited.sb.requests.length = 0;
      const all = await limited.cli(['api', 'people', '--paginate']);
      expect(all.code).toBe(0);
      // Two requests a window: the walk pauses instead of drawing a 429.
      expect(limited.sb.requests.map((q) => q.status)).toEqual([200, 200, 200]);
      expect(limited.clock.slept.length).toBeGreaterThan(0);
      expect(all.stderr).toMatch(/Pausing \d+(\.\d)? s to stay under the rate limit/);
      expect((JSON.parse(all.stdout) as unknown[]).length).toBe(121);
    } finally {
      await limited.sb.close();
    }
  });

  it('--paginate refuses what is not a list, and a method other than GET', async () => {
    w.sb.inject({ path: '/me', status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"x"}' });
    const r = await w.cli(['api', 'me', '--paginate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--paginate follows lists: GET /api/v2/me answered an object');
    w.forget();
    const post = await w.cli(['api', 'goals', '--paginate', '-f', 'title=x']);
    expect(post.code).toBe(2);
    expect(post.stderr).toContain('--paginate follows the pages of a GET, not a POST');
    expect(w.sent()).toEqual([]);
  });

  it('-i prints the status line and the headers, then the body', async () => {
    const r = await w.cli(['api', 'teams', '-i']);
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    const lines = head!.split('\n');
    expect(lines[0]).toBe('HTTP/1.1 200 OK');
    expect(lines).toContain('content-type: application/json; charset=utf-8');
    expect(lines.some((l) => /^etag: W\/"[0-9a-f]+"$/.test(l))).toBe(true);
    expect(JSON.parse(body!)).toHaveLength(w.sb.service.data.teams.length);
  });

  it("a 4xx: the body on stdout, the service's message on stderr, exit 2", async () => {
    const r = await w.cli(['api', 'goals/00000000-0000-4000-8000-000000000000']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'not_found' });
    expect(r.stderr).toMatch(/^error: GET \/api\/v2\/goals\/00000000-0000-4000-8000-000000000000: 404 Not Found: /);
    const bad = await w.cli(['api', 'goals', '-X', 'DELETE']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('405 Method Not Allowed');
    expect(last().method).toBe('DELETE');
  });

  it('a 401 exits 4; a write with a read-only token exits 4; a 5xx exits 1', async () => {
    const r = await w.cli(['api', 'me'], { env: { CHECKIN_TOKEN: 'steady_pat_wrong' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('The token was rejected (401 on GET /api/v2/me)');
    const ro = await w.cli(['api', 'activities', '-f', 'group=x', '-f', 'description=y'], { env: { CHECKIN_TOKEN: DEMO_READ_TOKEN } });
    expect(ro.code).toBe(4);
    expect(ro.stderr).toContain('read-only');
    w.sb.inject(
      { path: '/teams', status: 500, body: '{"message":"boom"}' },
      { path: '/teams', status: 500, body: '{"message":"boom"}' },
      { path: '/teams', status: 500, body: '{"message":"boom"}' },
    );
    const down = await w.cli(['api', 'teams']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('500 Internal Server Error: boom');
  });

  it("refuses another origin, before any request: the token goes only to the API URL's origin", async () => {
    for (const target of ['https://evil.example.com/api/v2/me', `http://localhost:${w.sb.port + 1}/api/v2/me`]) {
      const r = await w.cli(['api', target]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Refusing to send the token to');
    }
    expect(w.sent()).toEqual([]);
    // Relative tricks stay on the API's origin.
    const r = await w.cli(['api', '//evil.example.com/x']);
    expect(w.sent()).toEqual(['GET /api/v2/evil.example.com/x']);
    expect(r.code).toBe(2);
    // A whole URL of the API's own origin is fine.
    w.forget();
    const own = await w.cli(['api', `${w.sb.url}/me`]);
    expect(own.code).toBe(0);
    expect(w.sent()).toEqual(['GET /api/v2/me']);
  });

  it('refuses malformed fields and headers with exit 2, sending nothing', async () => {
    for (const args of [
      ['-f', 'noequals'],
      ['-f', 'a[b=1'],
      ['-F', 'x=@/nonexistent/file'],
      ['-H', 'Bad Header'],
      ['-H', 'X: a\u0001b'],
      ['-X', 'GE T'],
      ['-f', 'a=1', '-f', 'a[b]=2'],
    ]) {
      const r = await w.cli(['api', 'goals', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^error: /);
    }
    expect(w.sent()).toEqual([]);
  });
});

describe('checkin api, the built CLI', () => {
  let sb!: Sandbox;
  let env!: NodeJS.ProcessEnv;
  useSandboxEnv((s, e) => {
    sb = s;
    env = e;
  });

  it("--input - reads the body from a real pipe; piped, the answer is the service's JSON, what a terminal would act on escaped", async () => {
    const body = JSON.stringify({ group: 'CI', description: 'Deployed\u200b build \u202e42\u00ad\u{E0041}' });
    const r = await runCli(['api', 'activities', '--input', '-'], { env, input: body });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const req = sb.requests[sb.requests.length - 1]!;
    expect([req.method, req.path, req.headers['content-type']]).toEqual(['POST', '/api/v2/activities', 'application/json']);
    expect(req.body).toEqual(JSON.parse(body));
    // The same JSON, byte for byte but the four characters (the one rule's, ui/sanitize.ts), written as escapes.
    const created = sb.service.data.activities.find((a) => a.description === 'Deployed\u200b build \u202e42\u00ad\u{E0041}')!;
    expect(created).toBeDefined();
    expect(r.stdout).not.toMatch(/[\u200b\u202e\u00ad\u{E0041}]/u);
    expect(r.stdout).toContain('"description":"Deployed\\u200b build \\u202e42\\u00ad\\udb40\\udc41"');
    expect(JSON.parse(r.stdout)).toMatchObject({ id: created.id, description: 'Deployed\u200b build \u202e42\u00ad\u{E0041}' });
  });
});
