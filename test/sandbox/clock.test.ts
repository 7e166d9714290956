// The sandbox tells the time truthfully, whatever the hour it starts at: no timestamp it serves is
// after now (today's demo events are placed in each person's zone when their hour has come, else a
// little before the sandbox started); the digest carries teammates' updates of their teams' goals;
// the goal's array fields are taken as the API notes write them (`team_ids[]`, `contributor_ids[]`);
// a check-in written without team_ids is shared with all of the person's teams, as the spec says.
import { afterEach, describe, expect, it } from 'vitest';
import { checkInId } from '../../src/sandbox/ids.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { call } from '../helpers/http.js';

// TZ is UTC for the tests (test/helpers/setup.ts): the machine's day is the UTC day.
const TODAY = '2026-11-18'; // a Wednesday
const TOMORROW = '2026-11-19';
const GRACE = 'sandbox_pat_grace';
const LINUS = 'sandbox_pat_linus';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});
async function started(now: Date): Promise<Sandbox> {
  sb = await startSandbox({ clock: () => now, rateLimit: false });
  return sb;
}
const get = async (path: string, token = sb!.token) => {
  const r = await call(sb!.url, 'GET', path, { token });
  expect(r.status, path).toBe(200);
  return r.json;
};
const id = (username: string) => sb!.service.data.people.find((p) => p.username === username)!.id;

/** Every ISO timestamp in a JSON value, with where it was found (a schedule's next_answer_at is not a record of the past, and is left out). */
function stamps(value: unknown, where: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) out.push([where, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => stamps(v, `${where}/${i}`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (k !== 'next_answer_at') stamps(v, `${where}/${k}`, out);
  }
  return out;
}

// Hours of the day (UTC) the sandbox is started at: before, during and after the demo people's mornings
// (Grace: 08:45 in New York = 13:45Z; Linus: 08:30 in Portland = 16:30Z).
const HOURS: Array<[number, number]> = [
  [0, 5],
  [1, 10],
  [7, 0],
  [10, 30],
  [14, 0],
  [16, 45],
  [20, 0],
  [23, 55],
];

describe('every timestamp served is at or before now', () => {
  it.each(HOURS)('started at %s:%s UTC: every record, list and digest entry, all pages', async (h, m) => {
    const now = new Date(Date.UTC(2026, 10, 18, h, m, 0));
    await started(now);
    const nowIso = now.toISOString().replace('.000', '');
    const grace = checkInId(id('grace'), TODAY);
    const linus = checkInId(id('linus'), TODAY);
    const served: Array<[string, string]> = [];
    const paths = [
      '/me',
      '/people?per_page=50',
      `/check-ins?since=2026-11-01&until=${TOMORROW}&per_page=50`,
      `/check-ins?since=2026-11-01&until=${TOMORROW}&per_page=50&page=2`,
      `/check-ins/${TOMORROW}`,
      `/check-ins/${grace}`,
      `/check-ins/${linus}`,
      `/check-ins/${grace}/comments`,
      '/goals?per_page=50',
      '/activities?per_page=50',
      '/echo/questions',
    ];
    for (const p of paths) stamps(await get(p), p, served);
    for (const g of await get('/goals?per_page=50')) stamps(await get(`/goals/${g.id}/goal-updates?per_page=50`), `goal ${g.title}`, served);
    for (const token of [sb!.token, GRACE, LINUS, 'sandbox_pat_scribe']) {
      for (let page = 1; page <= 10; page++) {
        const entries = await get(`/digest?per_page=50&page=${page}`, token);
        stamps(entries, `digest of ${token} page ${page}`, served);
        if (entries.length < 50) break;
      }
    }
    expect(served.length).toBeGreaterThan(100);
    expect(served.filter(([, at]) => Date.parse(at) > now.getTime())).toEqual([]);
    // Steady's macOS digest client reads the newest entry: not stamped after now.
    const [newest] = await get('/digest?per_page=1');
    expect(Date.parse(newest.published_at)).toBeLessThanOrEqual(now.getTime());

    // Grace's comment on her check-in comes after it.
    const g = await get(`/check-ins/${grace}`);
    const l = await get(`/check-ins/${linus}`);
    const [mention] = await get(`/check-ins/${grace}/comments`);
    expect(g.date).toBe(TODAY);
    expect(l.date).toBe(TODAY);
    expect(g.completed_at <= mention.created_at && mention.created_at <= nowIso).toBe(true);
    // When the person's morning has come, it is their morning, in their zone; else before now, on today.
    const expectAt = (meant: string, minutesBefore: number) =>
      Date.parse(meant) <= now.getTime() - minutesBefore * 60_000
        ? meant
        : new Date(Math.max(now.getTime() - minutesBefore * 60_000, Date.parse(`${TODAY}T00:00:00Z`))).toISOString().replace('.000', '');
    expect(g.completed_at).toBe(expectAt(`${TODAY}T13:45:00Z`, 15));
    expect(l.completed_at).toBe(expectAt(`${TODAY}T16:30:00Z`, 30));
    expect(g.completed_at >= `${TODAY}T00:00:00Z`).toBe(true);
  });

  it("at 01:10 UTC (the newcomer's hour), Grace and Linus are stamped before now, not seven hours ahead", async () => {
    await started(new Date(Date.UTC(2026, 10, 18, 1, 10, 0)));
    const top = await get('/digest?per_page=2');
    expect(top.map((e: { published_at: string; resource: { person: { name: string } } }) => [e.resource.person.name, e.published_at])).toEqual([
      ['Grace Hopper', '2026-11-18T00:55:00Z'],
      ['Linus Torvalds', '2026-11-18T00:40:00Z'],
    ]);
  });

  it("a check-in nobody has written yet (tomorrow's, already made for the zones ahead) was not updated in the future", async () => {
    const now = new Date(Date.UTC(2026, 10, 18, 10, 30, 0));
    await started(now);
    expect((await get(`/check-ins/${TOMORROW}`)).updated_at).toBe('2026-11-18T10:30:00Z');
    expect((await get(`/check-ins/${TODAY}`)).updated_at).toBe('2026-11-18T00:00:00Z');
  });
});

describe("the digest carries teammates' updates of their teams' goals", () => {
  it.each([
    [0, 5],
    [9, 0],
    [22, 30],
  ])('at %s:%s UTC: an update of a team goal by a teammate reaches the team, not others', async (h, m) => {
    const now = new Date(Date.UTC(2026, 10, 18, h, m, 0));
    await started(now);
    // The handbook: Linus's goal, a Platform goal. Ada is in Platform, neither owner nor contributor.
    const handbook = sb!.service.data.goals.find((g) => g.title === 'Write the on-call handbook')!;
    const posted = await call(sb!.url, 'POST', `/goals/${handbook.id}/goal-updates`, {
      token: GRACE,
      body: { title: 'Outline agreed', body: 'Sections for each alert.' },
    });
    expect(posted.status).toBe(201);
    const ada = await get('/digest?category=goal-update&per_page=1');
    expect(ada).toMatchObject([
      {
        id: posted.json.id,
        category: 'goal-update',
        published_at: now.toISOString().replace('.000', ''),
        resource: { title: 'Outline agreed', goal: { id: handbook.id, title: 'Write the on-call handbook' }, person: { name: 'Grace Hopper' } },
      },
    ]);
    // Linus owns it: his digest has it too. Grace wrote it: hers does not.
    expect((await get('/digest?category=goal-update&per_page=1', LINUS))[0].id).toBe(posted.json.id);
    expect((await get('/digest?category=goal-update&per_page=50', GRACE)).map((e: { id: string }) => e.id)).not.toContain(posted.json.id);
    // Mobile's goal, updated by Margaret (Mobile): Ada (in Mobile) sees it; Linus (Platform only) does not.
    const crashes = sb!.service.data.goals.find((g) => g.title === 'Halve the mobile crash rate')!;
    const margaret = sb!.service.data.goal_updates.filter((u) => u.goal_id === crashes.id).map((u) => u.id);
    const adaAll = (await get('/digest?category=goal-update&per_page=50')).map((e: { id: string }) => e.id);
    expect(adaAll).toEqual(expect.arrayContaining(margaret));
    const linusAll = (await get('/digest?category=goal-update&per_page=50', LINUS)).map((e: { id: string }) => e.id);
    expect(linusAll.filter((x: string) => margaret.includes(x))).toEqual([]);
    // Someone outside the team updating a team goal is not a teammate's news: Alan (Mobile) on
    // Platform's billing goal reaches Ada (its owner, his teammate in Mobile), not Grace (Platform only).
    const billing = sb!.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!;
    const byOutsider = sb!.service.createGoalUpdate(billing.id, id('alan'), { title: 'Drive-by', body: 'x' });
    expect((await get('/digest?category=goal-update&per_page=50')).map((e: { id: string }) => e.id)).toContain(byOutsider.id);
    expect((await get('/digest?category=goal-update&per_page=50', GRACE)).map((e: { id: string }) => e.id)).not.toContain(byOutsider.id);
    // Every entry at or before now.
    expect((await get('/digest?per_page=50')).filter((e: { published_at: string }) => Date.parse(e.published_at) > now.getTime())).toEqual([]);
  });
});

describe('team_ids[] where the API notes write it', () => {
  it('PATCH /goals/{id} and POST /goals take team_ids[] and contributor_ids[]; both spellings of one field at once are refused', async () => {
    await started(new Date(Date.UTC(2026, 10, 18, 10, 30, 0)));
    const teams = await get('/teams');
    const mobile = teams.find((t: { name: string }) => t.name === 'Mobile').id;
    const platform = teams.find((t: { name: string }) => t.name === 'Platform').id;
    const billing = sb!.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!;
    const patched = await call(sb!.url, 'PATCH', `/goals/${billing.id}`, { token: sb!.token, body: { 'team_ids[]': [platform, mobile] } });
    expect(patched.status).toBe(200);
    expect(patched.json.teams).toEqual([
      { id: platform, name: 'Platform' },
      { id: mobile, name: 'Mobile' },
    ]);
    const created = await call(sb!.url, 'POST', '/goals', {
      token: sb!.token,
      body: { title: 'Reduce p95 API latency', end_date: '2026-12-31', 'team_ids[]': [mobile], 'contributor_ids[]': [id('alan')] },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ teams: [{ id: mobile, name: 'Mobile' }], contributors: [{ id: id('alan'), name: 'Alan Turing' }] });
    // The listing's filter, in the same notation.
    expect((await get(`/goals?team_ids[]=${mobile}&per_page=50`)).map((g: { title: string }) => g.title).sort()).toEqual([
      'Halve the mobile crash rate',
      'Reduce p95 API latency',
      'Ship the v2 billing API',
    ]);
    const both = await call(sb!.url, 'PATCH', `/goals/${billing.id}`, { token: sb!.token, body: { team_ids: [platform], 'team_ids[]': [mobile] } });
    expect(both.status).toBe(422);
    expect(both.json.errors).toEqual({ team_ids: ['and team_ids[] are the same field: give one of them'] });
    const bad = await call(sb!.url, 'PATCH', `/goals/${billing.id}`, { token: sb!.token, body: { 'team_ids[]': ['not-a-team'] } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ team_ids: ['must be an array of team UUIDs'] });
  });
});

describe('a check-in written without team_ids', () => {
  it.each([
    ['a Wednesday (both teams meet)', '2026-11-18'],
    ['a Saturday (only Platform meets)', '2026-11-21'],
  ])("on %s is stored for all of the person's teams, as the spec says and the agent's question shows", async (_label, date) => {
    await started(new Date(`${date}T10:30:00Z`));
    const r = await call(sb!.url, 'PATCH', `/check-ins/${date}`, { token: sb!.token, body: { intentions: '- Pair on retries' } });
    expect(r.status).toBe(200);
    expect(r.json.teams.map((t: { name: string }) => t.name)).toEqual(['Platform', 'Mobile']);
    const me = await get('/me');
    expect(sb!.service.data.check_ins.find((c) => c.id === r.json.id)!.team_ids).toEqual(me.teams.map((t: { id: string }) => t.id));
    // Named teams are still only those.
    const platform = me.teams.find((t: { name: string }) => t.name === 'Platform').id;
    const only = await call(sb!.url, 'PATCH', `/check-ins/${date}`, { token: sb!.token, body: { team_ids: [platform] } });
    expect(only.json.teams).toEqual([{ id: platform, name: 'Platform' }]);
  });
});

describe('on a machine in another zone (its day is not the UTC day)', () => {
  for (const zone of ['Pacific/Auckland', 'America/Los_Angeles']) {
    it.each([
      [0, 30],
      [11, 0],
      [19, 45],
    ])(`${zone}, started at %s:%s UTC: nothing served after now`, async (h, m) => {
      const before = process.env.TZ;
      process.env.TZ = zone;
      try {
        const now = new Date(Date.UTC(2026, 10, 18, h, m, 0));
        await started(now);
        const served: Array<[string, string]> = [];
        for (const p of ['/check-ins?per_page=50', `/check-ins?until=2026-11-20&per_page=50`, '/goals?per_page=50']) stamps(await get(p), p, served);
        for (const token of [sb!.token, GRACE, LINUS]) stamps(await get('/digest?per_page=50', token), `digest of ${token}`, served);
        for (const c of sb!.service.data.comments) served.push([`comment ${c.id}`, c.created_at]);
        expect(served.length).toBeGreaterThan(20);
        expect(served.filter(([, at]) => Date.parse(at) > now.getTime())).toEqual([]);
      } finally {
        process.env.TZ = before;
      }
    });
  }
});
