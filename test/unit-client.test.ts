import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiClient, checkTransport, encodeQuery, joinUrl } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import { CHECK_IN, COMMENT } from '../src/api/types.js';
import { object, str } from '../src/api/validate.js';

const ANY_ID = object({ id: str });

const BASE = 'https://service.test/api/v2';

function client(agent: MockAgent, delays: number[] = []) {
  return new ApiClient({ baseUrl: BASE, token: 't0k', dispatcher: agent, sleep: async (ms) => void delays.push(ms) });
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
      const err = (await client(agent, delays).get('me', ANY_ID).catch((e: unknown) => e)) as ApiError;
      expect(err.message).toBe(`GET /api/v2/me: ${said}, more than the 60 s checkin waits)`);
      expect(err.suggestion).toMatch(/^Try again later( \(after \d\d:\d\d\))?\.$/);
      expect(delays).toEqual([]);
    }
  });

  it('PATCH sends JSON with the Bearer token; a 2xx that is not JSON is an invalid response', async () => {
    const { agent, pool } = mock();
    pool
      .intercept({ path: '/api/v2/check-ins/2026-11-21', method: 'PATCH', body: '{"mood":"calm"}', headers: { authorization: 'Bearer t0k', 'content-type': 'application/json' } })
      .reply(200, '<html><title>Steady</title></html>', { headers: { 'content-type': 'text/html' } });
    const err = (await client(agent).patch('check-ins/2026-11-21', CHECK_IN, { mood: 'calm' }).catch((e: unknown) => e)) as ApiError;
    expect(err.kind).toBe('invalid-response');
    expect(err).toMatchObject({ method: 'PATCH', path: '/api/v2/check-ins/2026-11-21', status: 200 });
    expect(err.message).toBe('PATCH /api/v2/check-ins/2026-11-21: answered 200 with an HTML page ("Steady") instead of JSON');
  });
});

describe('paging is bounded', () => {
  it('a list that never ends stops after the page limit, with a warning', async () => {
    const { fetchAll } = await import('../src/api/paginate.js');
    const { agent, pool } = mock();
    let n = 0;
    pool
      .intercept({ path: (p: string) => p.startsWith('/api/v2/people'), method: 'GET' })
      .reply(200, () => Array.from({ length: 50 }, () => ({ id: `p${n++}` })))
      .persist();
    const warnings: string[] = [];
    const api = new ApiClient({ baseUrl: BASE, token: 't', dispatcher: agent, sleep: async () => undefined, onWarning: (m) => warnings.push(m) });
    const all = await fetchAll(api.pages, 'people', ANY_ID, {}, { maxPages: 7 });
    expect(all).toHaveLength(350);
    expect(warnings).toEqual(['stopped after 7 pages of people (350 items); the service kept sending more']);
  });
});
