import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiClient, checkTransport, encodeQuery, joinUrl } from '../../src/api/client.js';
import { deleteGoalUpdate, getCheckIn, getMe, patchCheckIn, postComment } from '../../src/api/endpoints.js';
import { ApiError } from '../../src/api/errors.js';
import { UsageError } from '../../src/errors.js';
import { describeError } from '../../src/main.js';
import { CHECK_IN, COMMENT } from '../../src/api/types.js';
import { object, str } from '../../src/api/validate.js';
import { mockTransport } from '../helpers/mock-transport.js';

const ANY_ID = object({ id: str });

const BASE = 'https://service.test/api/v2';

function client(agent: MockAgent, delays: number[] = []) {
  return new ApiClient({ baseUrl: BASE, token: 't0k', transport: mockTransport(agent), sleep: async (ms) => void delays.push(ms) });
}
function mock() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return { agent, pool: agent.get('https://service.test') };
}

describe('URLs', () => {
  it('keeps the base path (/api/v2) whatever the slashes', () => {
    expect(joinUrl('https://s/api/v2', '/me')).toBe('https://s/api/v2/me');
    expect(joinUrl('https://s/api/v2/', 'me')).toBe('https://s/api/v2/me');
    expect(joinUrl('http://127.0.0.1:9/api/v2', 'check-ins/2026-11-21')).toBe('http://127.0.0.1:9/api/v2/check-ins/2026-11-21');
  });
  it('sends arrays in the repeated name[]= form and leaves undefined out', () => {
    expect(encodeQuery({ since: '2026-11-01', people_ids: ['a', 'b'], blocked: true, page: undefined, per_page: 50 })).toBe(
      'since=2026-11-01&people_ids[]=a&people_ids[]=b&blocked=true&per_page=50',
    );
  });
  it('refuses a token over plain http except to loopback', () => {
    expect(() => checkTransport('http://localhost:3000/api/v2')).not.toThrow();
    expect(() => checkTransport('http://127.0.0.1:3000/api/v2')).not.toThrow();
    expect(() => checkTransport('http://[::1]:3000/api/v2')).not.toThrow();
    expect(() => checkTransport('http://10.0.0.5/api/v2')).toThrow(/plain http/);
    expect(() => checkTransport('ftp://x/api')).toThrow(/https/);
    expect(() => checkTransport('not a url')).toThrow(/not a valid URL/);
  });
  it('an insecure URL is a setting to fix (UsageError, exit 2), refused where the client is configured', () => {
    expect(() => new ApiClient({ baseUrl: 'http://10.0.0.5/api/v2', token: 't' })).toThrow(UsageError);
    const err = (() => {
      try {
        return new ApiClient({ baseUrl: 'http://10.0.0.5/api/v2', token: 't' });
      } catch (e) {
        return e;
      }
    })();
    expect(describeError(err, false)).toEqual({
      code: 2,
      lines: [
        'error: Refusing to send the token over plain http to 10.0.0.5: it would travel unencrypted',
        'Use an https:// API URL (plain http is only allowed for localhost / 127.0.0.1).',
      ],
    });
  });
});

describe('retries', () => {
  it('GET: retries 503 and 429 (honouring Retry-After), three tries at most', async () => {
    const { agent, pool } = mock();
    pool.intercept({ path: '/api/v2/me', method: 'GET' }).reply(503, { message: 'busy' });
    pool.intercept({ path: '/api/v2/me', method: 'GET' }).reply(429, { message: 'slow down' }, { headers: { 'retry-after': '7' } });
    pool.intercept({ path: '/api/v2/me', method: 'GET' }).reply(200, { id: 'x' });
    const delays: number[] = [];
    expect(await client(agent, delays).get('me', ANY_ID)).toEqual({ id: 'x' });
    expect(delays).toEqual([500, 7000]);

    pool.intercept({ path: '/api/v2/me', method: 'GET' }).reply(502, 'bad').times(3);
    await expect(client(agent).get('me', ANY_ID)).rejects.toMatchObject({ status: 502, kind: 'http' });
    agent.assertNoPendingInterceptors();
  });

  it('POST: never re-sent after it was written (502 and 429 fail at once)', async () => {
    const { agent, pool } = mock();
    pool.intercept({ path: '/api/v2/check-ins/x/comments', method: 'POST' }).reply(502, 'bad');
    await expect(client(agent).post('check-ins/x/comments', COMMENT, { body: 'hi' })).rejects.toMatchObject({ status: 502 });
    pool.intercept({ path: '/api/v2/check-ins/x/comments', method: 'POST' }).reply(429, {}, { headers: { 'retry-after': '1' } });
    await expect(client(agent).post('check-ins/x/comments', COMMENT, { body: 'hi' })).rejects.toMatchObject({ status: 429 });
    agent.assertNoPendingInterceptors();
  });

  it('never waits longer than a minute for the service: 429 or 503, any Retry-After, fails at once saying when', async () => {
    for (const [status, value, said] of [
      [429, '3600', '429 Too Many Requests (Retry-After asks to wait 3600 s'],
      [503, '3600', '503 Service Unavailable (Retry-After asks to wait 3600 s'],
      [503, '99999999999999999999999', '503 Service Unavailable (Retry-After asks to wait far too long'],
    ] as const) {
      const { agent, pool } = mock();
      pool.intercept({ path: '/api/v2/me', method: 'GET' }).reply(status, { message: 'later' }, { headers: { 'retry-after': value } });
      const delays: number[] = [];
      const err = (await client(agent, delays)
        .get('me', ANY_ID)
        .catch((e: unknown) => e)) as ApiError;
      expect(err.message).toBe(`GET /api/v2/me: ${said}, more than the 60 s checkin waits)`);
      expect(err.suggestion).toMatch(/^Try again later( \(after ([A-Z][a-z]{2} [A-Z][a-z]{2} \d\d )?\d\d:\d\d\))?\.$/);
      expect(delays).toEqual([]);
    }
  });

  it('PATCH sends JSON with the Bearer token; a 2xx that is not JSON is an invalid response', async () => {
    const { agent, pool } = mock();
    pool
      .intercept({
        path: '/api/v2/check-ins/2026-11-21',
        method: 'PATCH',
        body: '{"mood":"calm"}',
        headers: { authorization: 'Bearer t0k', 'content-type': 'application/json' },
      })
      .reply(200, '<html><title>Steady</title></html>', { headers: { 'content-type': 'text/html' } });
    const err = (await client(agent)
      .patch('check-ins/2026-11-21', CHECK_IN, { mood: 'calm' })
      .catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('invalid-response');
    expect(err).toMatchObject({ method: 'PATCH', path: '/api/v2/check-ins/2026-11-21', status: 200 });
    expect(err.message).toBe('PATCH /api/v2/check-ins/2026-11-21: answered 200 with an HTML page ("Steady") instead of JSON');
  });
});

describe('paging is bounded', () => {
  it('a list that never ends stops after the page limit, with a warning', async () => {
    const { fetchAll } = await import('../../src/api/paginate.js');
    const { agent, pool } = mock();
    let n = 0;
    pool
      .intercept({ path: (p: string) => p.startsWith('/api/v2/people'), method: 'GET' })
      .reply(200, () => Array.from({ length: 50 }, () => ({ id: `p${n++}` })))
      .persist();
    const warnings: string[] = [];
    const api = new ApiClient({ baseUrl: BASE, token: 't', transport: mockTransport(agent), sleep: async () => undefined, onWarning: (m) => warnings.push(m) });
    const all = await fetchAll(api.pages, 'people', ANY_ID, {}, { maxPages: 7 });
    expect(all).toHaveLength(350);
    expect(warnings).toEqual(['stopped after 7 pages of people (350 items); the service kept sending more']);
  });
});

describe('a refusal (403) is read from what the request named, never from the words', () => {
  const ID = '3308a89a-1006-5ad0-94a3-d9510e51aecb';
  const refused = async (send: (api: ApiClient) => Promise<unknown>, method: string, path: string, said = 'Forbidden, for some reason') => {
    const { agent, pool } = mock();
    pool.intercept({ path: `/api/v2/${path}`, method }).reply(403, { error: 'forbidden', message: said });
    const err = (await send(client(agent)).catch((e: unknown) => e)) as ApiError;
    agent.assertNoPendingInterceptors();
    return { target: err.target, ...describeError(err, false) };
  };

  it("the token's own (GET /me, a create, its check-in by date): exit 4, and how to get a token that may", async () => {
    expect(await refused((api) => getMe(api), 'GET', 'me')).toEqual({
      target: 'account',
      code: 4,
      lines: [
        'error: The service refused GET /api/v2/me with this token (403): Forbidden, for some reason',
        "The service refuses this token; check it in the service's integrations settings, then run `checkin login`.",
      ],
    });
    expect(await refused((api) => patchCheckIn(api, '2026-11-22', { intentions: 'x' }), 'PATCH', 'check-ins/2026-11-22')).toMatchObject({
      target: 'account',
      code: 4,
      lines: [
        'error: The token is read-only: the service refused PATCH /api/v2/check-ins/2026-11-22 (403)',
        expect.stringMatching(/^Writes need a token with the "Read \+ write" scope/),
      ],
    });
    expect(await refused((api) => postComment(api, { kind: 'check-in', id: ID }, 'hi'), 'POST', `check-ins/${ID}/comments`)).toMatchObject({
      target: 'account',
      code: 4,
    });
  });

  it('a resource named by its id (perhaps someone else’s): exit 2, what the service said, whatever it said', async () => {
    for (const said of ['You can only fill in your own check-ins', 'This token is read-only', 'token scope']) {
      expect(await refused((api) => patchCheckIn(api, ID, { intentions: 'x' }), 'PATCH', `check-ins/${ID}`, said)).toEqual({
        target: 'resource',
        code: 2,
        lines: [`error: The service refused PATCH /api/v2/check-ins/${ID} (403): ${said}`],
      });
    }
    expect(await refused((api) => getCheckIn(api, ID), 'GET', `check-ins/${ID}`)).toMatchObject({ target: 'resource', code: 2 });
    expect(await refused((api) => deleteGoalUpdate(api, ID), 'DELETE', `goal-updates/${ID}`)).toMatchObject({ target: 'resource', code: 2 });
  });
});

describe('the client keeps its internals', () => {
  it('the pager gets a PageSource (api.pages), not the client', () => {
    const api = new ApiClient({ baseUrl: BASE, token: 't' });
    expect(Object.keys(api.pages).sort()).toEqual(['get', 'now', 'refuseLongWait', 'sleep', 'warn']);
    // @ts-expect-error request is the client's own
    void api.request;
    // @ts-expect-error so is checkWait
    void api.checkWait;
  });
});
