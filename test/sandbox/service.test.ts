import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MOOD_NAMES } from '../../src/api/types.js';
import { addDays } from '../../src/core/datekey.js';
import { DEMO_READ_TOKEN, DEMO_TOKEN } from '../../src/sandbox/demo.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { nearestConfidence } from '../../src/api/types.js';
import { call } from '../helpers/http.js';

// A Wednesday, late morning, local time.
const NOW = new Date(2026, 10, 18, 10, 30, 0);
const TODAY = '2026-11-18';
const GRACE_TOKEN = 'sandbox_pat_grace';

let sb: Sandbox;
const get = (path: string, token: string | null = sb.token) => call(sb.url, 'GET', path, { token });
const send = (method: string, path: string, body?: unknown, token = sb.token) => call(sb.url, method, path, { token, body });

async function me() {
  return (await get('/me')).json as { id: string; teams: { id: string; name: string }[] };
}
async function teamId(name: string) {
  const t = ((await get('/teams')).json as { id: string; name: string }[]).find((x) => x.name === name);
  return t!.id;
}

beforeEach(async () => {
  sb = await startSandbox({ clock: () => NOW, rateLimit: false });
});
afterEach(async () => {
  await sb.close();
});

describe('starting', () => {
  it('listens on 127.0.0.1 on a free port and serves under /api/v2', async () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    expect(sb.port).toBeGreaterThan(0);
    expect(sb.token).toBe(DEMO_TOKEN);
  });

  it("makes --token the demo person's read+write token", async () => {
    const other = await startSandbox({ clock: () => NOW, token: 'my-own-token', rateLimit: false });
    try {
      expect(other.token).toBe('my-own-token');
      const r = await call(other.url, 'GET', '/me', { token: 'my-own-token' });
      expect(r.json.name).toBe('Ada Lovelace');
      const w = await call(other.url, 'PATCH', `/check-ins/${TODAY}`, { token: 'my-own-token', body: { intentions: 'x' } });
      expect(w.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('rule 1: authentication', () => {
  it('401 without a token, with a malformed header and with an unknown token', async () => {
    const none = await get('/me', null);
    expect(none.status).toBe(401);
    expect(none.json.message).toMatch(/Authorization/);
    const basic = await call(sb.url, 'GET', '/me', { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
    const bad = await get('/me', 'nope');
    expect(bad.status).toBe(401);
    expect(bad.json).toEqual({ error: 'unauthorized', message: 'Invalid or expired token' });
  });

  it('a read-only token reads but gets 403 on every write', async () => {
    expect((await get('/me', DEMO_READ_TOKEN)).status).toBe(200);
    const patch = await send('PATCH', `/check-ins/${TODAY}`, { intentions: 'x' }, DEMO_READ_TOKEN);
    expect(patch.status).toBe(403);
    expect(patch.json.message).toMatch(/read-only/);
    const ci = (await get(`/check-ins/${TODAY}`)).json;
    expect((await send('POST', `/check-ins/${ci.id}/comments`, { body: 'hi' }, DEMO_READ_TOKEN)).status).toBe(403);
    const goal = (await get('/goals')).json[0];
    expect((await send('POST', `/goals/${goal.id}/goal-updates`, { title: 't', body: 'b' }, DEMO_READ_TOKEN)).status).toBe(403);
    // Nothing was written.
    expect((await get(`/check-ins/${TODAY}`)).json.intentions).toBeNull();
  });
});

describe('rule 2: which check-ins exist', () => {
  it("today's check-in exists on any day for the every-day team, with a stable UUID, not completed", async () => {
    for (let d = 0; d < 7; d++) {
      const day = new Date(2026, 10, 15 + d, 9, 0, 0);
      const s = await startSandbox({ clock: () => day, rateLimit: false });
      try {
        const key = `2026-11-${String(15 + d).padStart(2, '0')}`;
        const a = await call(s.url, 'GET', `/check-ins/${key}`, { token: s.token });
        expect(a.status).toBe(200);
        expect(a.json.date).toBe(key);
        expect(a.json.completed_at).toBeNull();
        const b = await call(s.url, 'GET', `/check-ins/${a.json.id}`, { token: s.token });
        expect(b.json).toEqual(a.json);
      } finally {
        await s.close();
      }
    }
  });

  it('no check-in on a day of absence, nor where no team is scheduled, nor before history', async () => {
    const absent = sb.service.data.absences.find((a) => a.person_id === sb.service.data.tokens[0]!.person_id)!;
    const r = await get(`/check-ins/${absent.from}`);
    expect(r.status).toBe(404);
    expect(r.json.error).toBe('not_found');
    expect((await get(`/check-ins/${addDays(TODAY, -400)}`)).status).toBe(404);
    // Margaret is only in the Monday-to-Friday team: nothing on Saturday 2026-11-14.
    const margaret = sb.service.data.people.find((p) => p.username === 'margaret')!;
    const list = (await get(`/check-ins?people_ids[]=${margaret.id}&since=2026-11-14&until=2026-11-15`)).json;
    expect(list).toEqual([]);
    const weekday = (await get(`/check-ins?people_ids[]=${margaret.id}&since=2026-11-13&until=2026-11-13`)).json;
    expect(weekday).toHaveLength(1);
  });

  it('a malformed key or an impossible date is a 404', async () => {
    expect((await get('/check-ins/2026-02-30')).status).toBe(404);
    expect((await get('/check-ins/yesterday')).status).toBe(404);
    expect((await get('/check-ins/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('rule 3: listing check-ins', () => {
  it('is newest first, since/until inclusive, paged with a 50 maximum', async () => {
    const r = await get(`/check-ins?since=${addDays(TODAY, -3)}&until=${addDays(TODAY, -1)}&per_page=50`);
    expect(r.status).toBe(200);
    const dates = (r.json as { date: string }[]).map((c) => c.date);
    expect(dates[0]).toBe(addDays(TODAY, -1));
    expect(dates.at(-1)).toBe(addDays(TODAY, -3));
    expect([...dates].sort().reverse()).toEqual(dates);
    const all = (await get('/check-ins?per_page=500')).json as unknown[];
    expect(all).toHaveLength(50);
    const p1 = (await get('/check-ins?per_page=5&page=1')).json as { id: string }[];
    const p2 = (await get('/check-ins?per_page=5&page=2')).json as { id: string }[];
    expect(p1).toHaveLength(5);
    expect(p2.map((c) => c.id)).not.toContain(p1[0]!.id);
    expect((await get('/check-ins?page=999')).json).toEqual([]);
  });

  it('filters by blocked, people_ids[] and team_ids[] in the repeated form', async () => {
    const blocked = (await get('/check-ins?blocked=true&per_page=50')).json as { blocked: boolean; blockers: string }[];
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked.every((c) => c.blocked && c.blockers)).toBe(true);
    const { id } = await me();
    const mine = (await get(`/check-ins?people_ids[]=${id}&per_page=50`)).json as { person: { id: string } }[];
    expect(mine.length).toBeGreaterThan(5);
    expect(mine.every((c) => c.person.id === id)).toBe(true);
    const platform = await teamId('Platform');
    const mobile = await teamId('Mobile');
    const one = (await get(`/check-ins?team_ids[]=${mobile}&since=2026-11-13&until=2026-11-13`)).json as { id: string; teams: { id: string }[] }[];
    expect(one.every((c) => c.teams.some((t) => t.id === mobile))).toBe(true);
    // Ada is in both teams: filtering by both returns her check-in once per team.
    const both = (await get(`/check-ins?team_ids[]=${platform}&team_ids[]=${mobile}&people_ids[]=${id}&since=2026-11-13&until=2026-11-13`)).json as {
      id: string;
    }[];
    expect(both).toHaveLength(2);
    expect(both[0]!.id).toBe(both[1]!.id);
  });

  it('refuses comma-separated values, me/self, bare array names, bad dates and bad numbers with 400', async () => {
    const { id } = await me();
    const cases: [string, RegExp][] = [
      [`/check-ins?people_ids[]=${id},${id}`, /comma-separated/],
      ['/check-ins?people_ids[]=me', /"me" is not accepted/],
      ['/check-ins?people_ids[]=self', /"self" is not accepted/],
      [`/check-ins?people_ids=${id}`, /repeat people_ids\[\]=/],
      ['/check-ins?team_ids[]=platform', /must be UUIDs/],
      ['/check-ins?since=2026-13-01', /since must be a date/],
      ['/check-ins?until=yesterday', /until must be a date/],
      ['/check-ins?blocked=yes', /blocked must be true or false/],
      ['/check-ins?page=0', /page must be a positive integer/],
      ['/check-ins?per_page=-3', /per_page must be a positive integer/],
      ['/check-ins?sort=asc', /Unknown query parameter "sort"/],
    ];
    for (const [path, message] of cases) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.json.error).toBe('bad_request');
      expect(r.json.message, path).toMatch(message);
    }
  });

  it('answers an ETag, and 304 to If-None-Match', async () => {
    const a = await get('/check-ins?per_page=3');
    const etag = a.headers.etag as string;
    expect(etag).toBeTruthy();
    const b = await call(sb.url, 'GET', '/check-ins?per_page=3', { token: sb.token, headers: { 'if-none-match': etag } });
    expect(b.status).toBe(304);
    expect(b.text).toBe('');
  });
});

describe('rule 4: one check-in by key', () => {
  it("PATCH by date fills in the caller's check-in: completed_at once, updated_at every time, blocked from blockers", async () => {
    let t = new Date(NOW);
    const s = await startSandbox({ clock: () => t, rateLimit: false });
    try {
      const first = await call(s.url, 'PATCH', `/check-ins/${TODAY}`, {
        token: s.token,
        body: { previous: 'Did X', intentions: '- Do Y', blockers: 'Waiting on Z', mood: 'focused', previous_completed: true },
      });
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({
        date: TODAY,
        previous: 'Did X',
        intentions: '- Do Y',
        blockers: 'Waiting on Z',
        blocked: true,
        mood: 'focused',
        previous_completed: true,
      });
      expect(first.json.completed_at).toBe('2026-11-18T' + NOW.toISOString().slice(11, 19) + 'Z');
      t = new Date(NOW.getTime() + 60_000);
      const second = await call(s.url, 'PATCH', `/check-ins/${TODAY}`, { token: s.token, body: { blockers: '' } });
      expect(second.json.blockers).toBeNull();
      expect(second.json.blocked).toBe(false);
      expect(second.json.previous).toBe('Did X');
      expect(second.json.completed_at).toBe(first.json.completed_at);
      expect(second.json.updated_at).not.toBe(first.json.updated_at);
      const byId = await call(s.url, 'GET', `/check-ins/${first.json.id}`, { token: s.token });
      expect(byId.json).toEqual(second.json);
    } finally {
      await s.close();
    }
  });

  it('team_ids picks teams; omitting it goes back to all of them', async () => {
    const mobile = await teamId('Mobile');
    // 2026-11-16 is a Monday: both of Ada's teams are scheduled.
    const picked = await send('PATCH', '/check-ins/2026-11-16', { team_ids: [mobile] });
    expect(picked.json.teams).toEqual([{ id: mobile, name: 'Mobile' }]);
    const back = await send('PATCH', '/check-ins/2026-11-16', { intentions: 'x' });
    expect(back.json.teams.map((t: { name: string }) => t.name).sort()).toEqual(['Mobile', 'Platform']);
  });

  it('422 naming the field for unknown fields, wrong types, moods outside the enum and foreign teams', async () => {
    const cases: [unknown, string][] = [
      [{ mood: 'ecstatic' }, 'mood'],
      [{ previous: 42 }, 'previous'],
      [{ previous_completed: 'yes' }, 'previous_completed'],
      [{ team_ids: 'abc' }, 'team_ids'],
      [{ team_ids: ['00000000-0000-4000-8000-000000000000'] }, 'team_ids'],
      [{ blocked: true }, 'blocked'],
      [{ completed_at: '2026-01-01T00:00:00Z' }, 'completed_at'],
    ];
    for (const [body, field] of cases) {
      const r = await send('PATCH', `/check-ins/${TODAY}`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json.message.startsWith(field + ' ')).toBe(true);
      expect(Object.keys(r.json.errors)).toEqual([field]);
    }
    for (const mood of MOOD_NAMES) expect((await send('PATCH', `/check-ins/${TODAY}`, { mood })).status).toBe(200);
    expect((await send('PATCH', `/check-ins/${TODAY}`, { mood: null })).json.mood).toBeNull();
  });

  it("404 for a date without a check-in; someone else's by UUID: 403, unless an administrator's read+write token", async () => {
    const absent = sb.service.data.absences[0]!;
    expect((await send('PATCH', `/check-ins/${absent.from}`, { intentions: 'x' })).status).toBe(404);
    const graces = (await call(sb.url, 'GET', `/check-ins/${TODAY}`, { token: GRACE_TOKEN })).json;
    const adas = (await get(`/check-ins/${TODAY}`)).json;
    // Grace is no administrator: Ada's check-in is not hers to edit.
    expect((await call(sb.url, 'PATCH', `/check-ins/${adas.id}`, { token: GRACE_TOKEN, body: { intentions: 'hijack' } })).status).toBe(403);
    // Ada is an administrator with a read+write token: she may edit Grace's.
    const r = await send('PATCH', `/check-ins/${graces.id}`, { blockers: 'Needs a hand' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: graces.id, person: { name: 'Grace Hopper' }, blockers: 'Needs a hand' });
    expect((await call(sb.url, 'PATCH', `/check-ins/${graces.id}`, { token: 'sandbox_pat_read_only', body: { blockers: 'x' } })).status).toBe(403);
    // Reading it by UUID is fine.
    expect((await get(`/check-ins/${graces.id}`)).json.person.name).toBe('Grace Hopper');
  });
});

describe('rule 5: comments and reactions', () => {
  it('lists comments newest first and posts one as the token owner (201)', async () => {
    const ci = (await get(`/check-ins?people_ids[]=${(await me()).id}&per_page=50`)).json.find((c: { completed_at: string | null }) => c.completed_at);
    const before = (await get(`/check-ins/${ci.id}/comments`)).json as { created_at: string }[];
    expect(before.length).toBeGreaterThan(0);
    expect([...before].sort((a, b) => b.created_at.localeCompare(a.created_at))).toEqual(before);
    const posted = await send('POST', `/check-ins/${ci.id}/comments`, { body: 'Looks good @grace' });
    expect(posted.status).toBe(201);
    expect(posted.json).toMatchObject({ body: 'Looks good @grace', person: { name: 'Ada Lovelace' }, resource: { type: 'check-in', id: ci.id } });
    const after = (await get(`/check-ins/${ci.id}/comments`)).json as { id: string }[];
    expect(after[0]!.id).toBe(posted.json.id);
    const reactions = (await get(`/check-ins/${ci.id}/reactions`)).json as { emoji: string; name: string; person: { name: string } }[];
    expect(reactions.length).toBeGreaterThan(0);
    expect(reactions[0]).toHaveProperty('emoji');
  });

  it('422 for a missing or blank body; 404 for an unknown check-in; comments and reactions on goal updates', async () => {
    const ci = (await get(`/check-ins/${TODAY}`)).json;
    expect((await send('POST', `/check-ins/${ci.id}/comments`, {})).status).toBe(422);
    const blank = await send('POST', `/check-ins/${ci.id}/comments`, { body: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.json.errors).toHaveProperty('body');
    expect((await get('/check-ins/00000000-0000-4000-8000-000000000000/comments')).status).toBe(404);
    const goal = (await get('/goals')).json.find((g: { title: string }) => g.title === 'Ship the v2 billing API');
    const update = (await get(`/goals/${goal.id}/goal-updates`)).json[0];
    expect((await get(`/goal-updates/${update.id}/comments`)).json.length).toBeGreaterThan(0);
    expect((await get(`/goal-updates/${update.id}/reactions`)).json.length).toBeGreaterThan(0);
    const c = await send('POST', `/goal-updates/${update.id}/comments`, { body: 'On it' });
    expect(c.status).toBe(201);
    expect(c.json.resource).toEqual({ type: 'goal-update', id: update.id });
  });
});

describe('rule 6: goals and goal updates', () => {
  it('snaps confidence to 30/60/90 with its label, a tie going up', () => {
    expect([0, 30, 44, 45, 46, 60, 74, 75, 76, 90, 100].map((v) => nearestConfidence(v).value)).toEqual([30, 30, 30, 60, 60, 60, 60, 90, 90, 90, 90]);
    expect(nearestConfidence(100).label).toBe('On track');
    expect(nearestConfidence(55).label).toBe('At risk');
    expect(nearestConfidence(10).label).toBe('Off track');
  });

  it('filters goals, carries progress and confidence forward, and defaults a first update to 1 and 100→90', async () => {
    const { id } = await me();
    const mine = (await get(`/goals?people_ids[]=${id}`)).json as { id: string; person: { id: string } }[];
    expect(mine).toHaveLength(1);
    const goal = mine[0]!;
    const latest = (await get(`/goals/${goal.id}/goal-updates?per_page=1`)).json[0];
    const created = await send('POST', `/goals/${goal.id}/goal-updates`, { title: 'Prose only', body: 'Nothing new' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ progress: latest.progress, confidence: latest.confidence, goal: { id: goal.id } });
    const snapped = await send('POST', `/goals/${goal.id}/goal-updates`, { title: 'Risky', body: '', progress: 50, confidence: 40 });
    expect(snapped.json).toMatchObject({ progress: 50, confidence: 30, confidence_description: 'Off track' });
    expect((await get(`/goals/${goal.id}`)).json).toMatchObject({ progress: 50, confidence_description: 'Off track' });

    const platform = await teamId('Platform');
    const fresh = {
      id: '11111111-1111-4111-8111-111111111111',
      title: 'New',
      parent_id: null,
      end_date: null,
      owner_id: id,
      team_ids: [platform],
      contributor_ids: [],
    };
    sb.service.data.goals.push(fresh);
    const first = await send('POST', `/goals/${fresh.id}/goal-updates`, { title: 'Start', body: 'Go' });
    expect(first.json).toMatchObject({ progress: 1, confidence: 90, confidence_description: 'On track' });
  });

  it('reads, patches (re-snapping) and deletes an update; 422/404/403 where due', async () => {
    const goal = (await get('/goals')).json[0];
    const upd = (await send('POST', `/goals/${goal.id}/goal-updates`, { title: 'T', body: 'B', progress: 20, confidence: 90 })).json;
    expect((await get(`/goal-updates/${upd.id}`)).json).toEqual(upd);
    const patched = await send('PATCH', `/goal-updates/${upd.id}`, { confidence: 62, body: 'B2' });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ confidence: 60, confidence_description: 'At risk', body: 'B2', title: 'T', progress: 20 });
    expect((await send('PATCH', `/goal-updates/${upd.id}`, { progress: 101 })).status).toBe(422);
    expect((await send('POST', `/goals/${goal.id}/goal-updates`, { body: 'no title' })).json.errors).toHaveProperty('title');
    expect((await send('POST', `/goals/${goal.id}/goal-updates`, { title: 'x', body: 'y', progress: '5' })).json.errors).toHaveProperty('progress');
    expect((await send('PATCH', `/goal-updates/${upd.id}`, { confidence: 50 }, GRACE_TOKEN)).status).toBe(403);
    const del = await call(sb.url, 'DELETE', `/goal-updates/${upd.id}`, { token: sb.token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await get(`/goal-updates/${upd.id}`)).status).toBe(404);
    expect((await get('/goals/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('rule 7: people, teams, activities', () => {
  it('GET /me has teams; /people and /teams list; /teams/{id} has people', async () => {
    const m = await me();
    expect(m.teams.map((t) => t.name)).toEqual(['Platform', 'Mobile']);
    const people = (await get('/people')).json as { username: string }[];
    expect(people.map((p) => p.username)).toEqual(['ada', 'grace', 'linus', 'margaret', 'alan', 'scribe']);
    const team = (await get(`/teams/${await teamId('Mobile')}`)).json;
    expect(team.people.map((p: { name: string }) => p.name)).toEqual(['Ada Lovelace', 'Margaret Hamilton', 'Alan Turing']);
  });

  it('filters activities by kinds[], people_ids[], team_ids[] and ISO timestamps; refuses plain dates', async () => {
    const all = (await get('/activities')).json as { kind: string; recorded_at: string }[];
    expect(all.length).toBeGreaterThanOrEqual(5);
    const prs = (await get('/activities?kinds[]=github_pr')).json as { kind: string }[];
    expect(prs.every((a) => a.kind === 'github_pr')).toBe(true);
    const both = (await get('/activities?kinds[]=github_pr&kinds[]=jira')).json as unknown[];
    expect(both).toHaveLength(all.length);
    const since = `${addDays(TODAY, -2)}T00:00:00Z`;
    const recent = (await get(`/activities?since=${since}`)).json as { recorded_at: string }[];
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((a) => a.recorded_at >= since)).toBe(true);
    const r = await get(`/activities?since=${addDays(TODAY, -2)}`);
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/ISO 8601 timestamp/);
    expect((await get('/activities?kinds[]=github_pr,jira')).status).toBe(400);
  });
});

describe('rule 8: rate limits', () => {
  it('sends RateLimit headers on every response and 429 with Retry-After past the burst', async () => {
    const s = await startSandbox({ clock: () => NOW });
    try {
      const first = await call(s.url, 'GET', '/me', { token: s.token });
      expect(first.headers['ratelimit']).toBe('"burst";r=29;t=10, "sustained";r=499;t=1800');
      expect(first.headers['ratelimit-policy']).toBe('"burst";q=30;w=10, "sustained";q=500;w=1800');
      for (let i = 0; i < 29; i++) expect((await call(s.url, 'GET', '/me', { token: s.token })).status).toBe(200);
      const over = await call(s.url, 'GET', '/me', { token: s.token });
      expect(over.status).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(10);
      expect(over.json.error).toBe('too_many_requests');
      // Limits are per person: another person's token still gets through.
      expect((await call(s.url, 'GET', '/me', { token: GRACE_TOKEN })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('lets requests through again once the window has passed', async () => {
    let t = NOW.getTime();
    const s = await startSandbox({ clock: () => new Date(t), rateLimit: [{ name: 'burst', limit: 2, seconds: 1 }] });
    try {
      expect((await call(s.url, 'GET', '/me', { token: s.token })).status).toBe(200);
      expect((await call(s.url, 'GET', '/me', { token: s.token })).status).toBe(200);
      const over = await call(s.url, 'GET', '/me', { token: s.token });
      expect(over.status).toBe(429);
      expect(over.headers['retry-after']).toBe('1');
      t += 999; // the window is the sandbox's clock: not yet…
      expect((await call(s.url, 'GET', '/me', { token: s.token })).status).toBe(429);
      t += 1; // …now
      expect((await call(s.url, 'GET', '/me', { token: s.token })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('rule 9: robustness', () => {
  it('404 for unknown routes, 405 for a wrong method, 400 for malformed JSON, 415 for a wrong type', async () => {
    const unknown = await get('/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toMatch(/No route GET \/api\/v2\/nope/);
    expect((await call(sb.url.replace('/api/v2', ''), 'GET', '/me', { token: sb.token })).status).toBe(404);
    const wrong = await call(sb.url, 'DELETE', `/check-ins/${TODAY}`, { token: sb.token });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, PATCH');
    const malformed = await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, {
      token: sb.token,
      rawBody: '{"previous": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toMatch(/Malformed JSON/);
    const array = await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: sb.token, rawBody: '[1]', headers: { 'content-type': 'application/json' } });
    expect(array.status).toBe(400);
    const text = await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: sb.token, rawBody: 'previous=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const empty = await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: sb.token });
    expect(empty.status).toBe(400);
    // Every error body is JSON with a message, and the sandbox is still up.
    for (const r of [unknown, wrong, malformed, array, text, empty]) expect(typeof r.json.message).toBe('string');
    expect((await get('/me')).status).toBe(200);
  });

  it('records every request for tests: method, path, raw query, headers, body', async () => {
    await call(sb.url, 'PATCH', `/check-ins/${TODAY}?x=1`, { token: sb.token, body: { mood: 'calm' } });
    const last = sb.requests.at(-1)!;
    expect(last).toMatchObject({ method: 'PATCH', path: `/api/v2/check-ins/${TODAY}`, query: 'x=1', body: { mood: 'calm' }, status: 400 });
    expect(last.headers.authorization).toBe(`Bearer ${sb.token}`);
  });

  it('serves injected faults once: an HTML page, a dropped connection', async () => {
    sb.inject({ path: '/me', status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body>Bad gateway</body></html>' });
    const html = await get('/me');
    expect(html.status).toBe(502);
    expect(html.text).toContain('<html>');
    expect((await get('/me')).status).toBe(200);
    sb.inject({ path: '/me', drop: true });
    await expect(get('/me')).rejects.toThrow();
    expect((await get('/me')).status).toBe(200);
  });
});

describe('--data FILE', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'checkin-sandbox-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the file with demo data, saves every change, and loads it after a restart', async () => {
    const file = join(dir, 'state.json');
    const a = await startSandbox({ clock: () => NOW, dataFile: file, rateLimit: false });
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.version).toBe(1);
    expect(saved.people).toHaveLength(6);
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    await call(a.url, 'PATCH', `/check-ins/${TODAY}`, { token: a.token, body: { intentions: 'Survive a restart' } });
    await a.close();
    const b = await startSandbox({ clock: () => NOW, dataFile: file, rateLimit: false });
    try {
      const r = await call(b.url, 'GET', `/check-ins/${TODAY}`, { token: b.token });
      expect(r.json.intentions).toBe('Survive a restart');
    } finally {
      await b.close();
    }
  });

  it('refuses a broken data file with a message naming it', async () => {
    const { writeFile } = await import('node:fs/promises');
    const file = join(dir, 'bad.json');
    await writeFile(file, '{"version": 1, "start_date": "nope"}');
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(/bad\.json: "start_date" must be a YYYY-MM-DD date/);
    await writeFile(file, '{oops');
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(/bad\.json: not valid JSON/);
  });
});
