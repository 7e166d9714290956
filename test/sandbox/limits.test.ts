// The sandbox counts like the service: every answer carries RateLimit and RateLimit-Policy — 401,
// 404 and 405 too — and counts; budgets are per person (two tokens of one person share one); a
// caller without a valid token is counted by its address. ETag/If-None-Match on every GET; goals
// by since/until.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_READ_TOKEN } from '../../src/sandbox/demo.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { call } from '../helpers/http.js';

const NOW = new Date(Date.UTC(2026, 10, 18, 10, 30, 0));
const TODAY = '2026-11-18';
const GRACE = 'sandbox_pat_grace';
const POLICY = '"burst";q=30;w=10, "sustained";q=500;w=1800';

let t: number;
let sb: Sandbox;
beforeEach(async () => {
  t = NOW.getTime();
  sb = await startSandbox({ clock: () => new Date(t) });
});
afterEach(async () => {
  await sb.close();
});
const req = (method: string, path: string, token: string | null = sb.token, headers: Record<string, string> = {}) =>
  call(sb.url, method, path, { token, headers });
const limit = (r: { headers: Record<string, unknown> }) => [r.headers.ratelimit, r.headers['ratelimit-policy']];

describe('RateLimit headers on every answer, and every answer counted', () => {
  it('200, 401 (no token, a malformed header, an unknown token), 404 off the routes, 405, 400: each carries them and each counts', async () => {
    const answers = [
      await req('GET', '/me'),
      await req('GET', '/nope'),
      await req('DELETE', `/check-ins/${TODAY}`),
      await req('GET', '/check-ins?sort=asc'),
      await req('GET', '/me', null),
      await req('GET', '/me', null, { authorization: 'Basic abc' }),
      await req('GET', '/me', 'not-a-token'),
      await req('GET', '/no-such-route', null),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 405, 400, 401, 401, 401, 404]);
    // Ada's budget: the first four; the address's (no valid token): the last four.
    expect(answers.map(limit)).toEqual([
      ['"burst";r=29;t=10, "sustained";r=499;t=1800', POLICY],
      ['"burst";r=28;t=10, "sustained";r=498;t=1800', POLICY],
      ['"burst";r=27;t=10, "sustained";r=497;t=1800', POLICY],
      ['"burst";r=26;t=10, "sustained";r=496;t=1800', POLICY],
      ['"burst";r=29;t=10, "sustained";r=499;t=1800', POLICY],
      ['"burst";r=28;t=10, "sustained";r=498;t=1800', POLICY],
      ['"burst";r=27;t=10, "sustained";r=497;t=1800', POLICY],
      ['"burst";r=26;t=10, "sustained";r=496;t=1800', POLICY],
    ]);
    expect(answers[1]!.json).toEqual({ error: 'not_found', message: 'No route GET /api/v2/nope' });
    expect(answers[2]!.headers.allow).toBe('GET, PATCH');
    expect(answers[6]!.json).toEqual({ error: 'unauthorized', message: 'Invalid or expired token' });
    // A path outside /api/v2 is counted too.
    const outside = await call(sb.url.replace('/api/v2', ''), 'GET', '/me', { token: sb.token });
    expect([outside.status, outside.headers.ratelimit]).toEqual([404, '"burst";r=25;t=10, "sustained";r=495;t=1800']);
  });

  it('401s are throttled: the 31st in the window is 429 with Retry-After; a person with a token is not held up by them', async () => {
    for (let i = 0; i < 30; i++) expect((await req('GET', '/me', 'wrong-token')).status).toBe(401);
    const over = await req('GET', '/me', 'wrong-token');
    expect(over.status).toBe(429);
    expect(over.json).toEqual({ error: 'too_many_requests', message: 'Rate limit exceeded; retry in 10 s' });
    expect(over.headers['retry-after']).toBe('10');
    expect(limit(over)).toEqual(['"burst";r=0;t=10, "sustained";r=470;t=1800', POLICY]);
    expect((await req('GET', '/nope', null)).status).toBe(429);
    expect((await req('GET', '/me')).status).toBe(200);
    t += 10_000;
    expect((await req('GET', '/me', 'wrong-token')).status).toBe(401);
  });

  it("route misses with a valid token spend the person's budget", async () => {
    for (let i = 0; i < 29; i++) expect((await req('GET', '/check-in')).status).toBe(404);
    expect((await req('PUT', '/me')).status).toBe(405);
    const over = await req('GET', '/me');
    expect([over.status, over.headers['retry-after']]).toEqual([429, '10']);
  });

  it('two tokens of one person share one budget; another person has their own', async () => {
    for (let i = 0; i < 30; i++) expect((await req('GET', '/me', i % 2 ? sb.token : DEMO_READ_TOKEN)).status).toBe(200);
    const readOnly = await req('GET', '/me', DEMO_READ_TOKEN);
    const readWrite = await req('GET', '/me', sb.token);
    expect([readOnly.status, readWrite.status]).toEqual([429, 429]);
    expect(limit(readWrite)).toEqual(['"burst";r=0;t=10, "sustained";r=470;t=1800', POLICY]);
    const grace = await req('GET', '/me', GRACE);
    expect([grace.status, grace.headers.ratelimit]).toEqual([200, '"burst";r=29;t=10, "sustained";r=499;t=1800']);
  });
});

describe('ETag and If-None-Match on GET', () => {
  it('one check-in: 304 with no body to its ETag (weak or strong, in a list, or *), counted; 200 and a new ETag once it changed', async () => {
    const a = await req('GET', `/check-ins/${TODAY}`);
    const etag = a.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{20}"$/);
    const strong = etag.slice(2);
    for (const header of [etag, strong, `"nope", ${etag}`, '*']) {
      const r = await req('GET', `/check-ins/${TODAY}`, sb.token, { 'if-none-match': header });
      expect([header, r.status, r.text, r.headers.etag, r.headers['content-type']]).toEqual([header, 304, '', etag, undefined]);
    }
    const other = await req('GET', `/check-ins/${TODAY}`, sb.token, { 'if-none-match': '"nope"' });
    expect([other.status, other.json]).toEqual([200, a.json]);
    // 1 + 4 + 1 requests so far: the 304s were counted.
    expect(other.headers.ratelimit).toBe('"burst";r=24;t=10, "sustained";r=494;t=1800');
    const patched = await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: sb.token, body: { intentions: 'Changed' } });
    expect(patched.headers.etag).toBeUndefined(); // writes answer no ETag
    const after = await req('GET', `/check-ins/${TODAY}`, sb.token, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.json.intentions).toBe('Changed');
    expect(after.headers.etag).not.toBe(etag);
  });

  it('lists and /me too; an error answer has no ETag', async () => {
    for (const path of [
      '/check-ins?per_page=3',
      '/me',
      '/goals',
      `/check-ins/${TODAY}/comments`.replace(TODAY, (await req('GET', `/check-ins/${TODAY}`)).json.id),
    ]) {
      const a = await req('GET', path);
      const b = await req('GET', path, sb.token, { 'if-none-match': a.headers.etag as string });
      expect([path, a.status, b.status, b.text]).toEqual([path, 200, 304, '']);
    }
    expect((await req('GET', '/nope')).headers.etag).toBeUndefined();
  });
});

describe('GET /goals?since=&until=', () => {
  it('the goals whose span (start_date to end_date, open when missing) overlaps the dates, both inclusive', async () => {
    const titles = async (q: string) => ((await req('GET', `/goals${q}`)).json as Array<{ title: string }>).map((g) => g.title);
    const all = ['Grow self-serve revenue', 'Ship the v2 billing API', 'Halve the mobile crash rate', 'Write the on-call handbook'];
    expect(await titles('')).toEqual(all);
    // The handbook starts today (no end); billing ends in 40 days, crashes in 60, revenue in 120.
    expect(await titles('?until=2026-11-17')).toEqual(all.slice(0, 3));
    expect(await titles('?until=2026-11-18')).toEqual(all);
    expect(await titles('?since=2026-12-28')).toEqual(all); // billing's last day
    expect(await titles('?since=2026-12-29')).toEqual(['Grow self-serve revenue', 'Halve the mobile crash rate', 'Write the on-call handbook']);
    expect(await titles('?since=2027-02-01&until=2027-12-31')).toEqual(['Grow self-serve revenue', 'Write the on-call handbook']);
    expect(await titles('?since=2020-01-01&until=2020-12-31')).toEqual([]);
    const bad = await req('GET', '/goals?since=soon');
    expect([bad.status, bad.json]).toEqual([400, { error: 'bad_request', message: 'since must be a date written YYYY-MM-DD, got "soon"' }]);
  });
});
