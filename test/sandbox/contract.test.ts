// The sandbox's answers, field by field, against the shapes docs/api.md
// documents — every endpoint it lists. A client that passes here meets the same shapes there.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();
const get = async (path: string) => {
  const r = await call(w.sb.url, 'GET', path, { token: w.sb.token });
  expect(r.status, path).toBe(200);
  return r.json;
};
const send = (method: string, path: string, body: unknown) => call(w.sb.url, method, path, { token: w.sb.token, body });

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const DATE = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);
const TIME = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
const REF = { id: UUID, name: expect.any(String) };
const strOrNull = (v: unknown) => v === null || typeof v === 'string';
/** Exactly these keys, each value passing its check (a value, or a predicate). */
function shaped(obj: Record<string, unknown>, spec: Record<string, unknown>) {
  expect(Object.keys(obj).sort()).toEqual(Object.keys(spec).sort());
  for (const [k, want] of Object.entries(spec)) {
    if (typeof want === 'function') expect((want as (v: unknown) => boolean)(obj[k]), `${k} = ${JSON.stringify(obj[k])}`).toBe(true);
    else expect(obj[k], k).toEqual(want);
  }
}
const PERSON = (appUrl: string) => ({
  id: UUID,
  name: expect.any(String),
  username: expect.any(String),
  email: expect.any(String),
  time_zone: expect.any(String),
  location: strOrNull,
  title: strOrNull,
  bio: strOrNull,
  administrator: expect.any(Boolean),
  kind: (v: unknown) => v === 'human' || v === 'agent',
  created_at: TIME,
  updated_at: TIME,
  url: expect.stringMatching(new RegExp(`^${appUrl}/people/[0-9a-f-]{36}$`)),
  account: REF,
  teams: (v: unknown) => Array.isArray(v) && v.every((t) => typeof t.id === 'string' && typeof t.name === 'string' && Object.keys(t).length === 2),
});

describe('the documented shapes, endpoint by endpoint', () => {
  const appUrl = () => new URL(w.sb.url).origin + '/app';

  it('GET /me and every GET /people item: the docs’ example person, teams included; Rails and IANA zones; an agent; HTML bios', async () => {
    shaped(await get('/me'), PERSON(appUrl()));
    const people = (await get('/people')) as Array<Record<string, unknown>>;
    for (const p of people) shaped(p, PERSON(appUrl()));
    expect(people.map((p) => p.time_zone)).toEqual(expect.arrayContaining(['Eastern Time (US & Canada)', 'London', 'America/Los_Angeles', 'Europe/London']));
    expect(people.some((p) => p.kind === 'agent')).toBe(true);
    expect(people.some((p) => typeof p.bio === 'string' && /^<p>.*<\/p>$/.test(p.bio))).toBe(true);
    // Steady's kiosk filters people by team: the panel is not empty.
    const platform = w.team('Platform');
    expect(people.filter((p) => (p.teams as Array<{ id: string }>).some((t) => t.id === platform)).length).toBe(4);
    // The agent is one of them.
    expect(people.find((p) => p.kind === 'agent')!.teams).toEqual([{ id: platform, name: 'Platform' }]);
  });

  it('GET /teams → {id, name}; GET /teams/{id} adds people [{id, name}]', async () => {
    for (const t of await get('/teams')) shaped(t, { id: UUID, name: expect.any(String) });
    shaped(await get(`/teams/${w.team('Platform')}`), { id: UUID, name: 'Platform', people: (v: unknown) => Array.isArray(v) && v.length === 4 });
  });

  it('check-ins: every field of the spec, on GET by date, by UUID, in lists, and on PATCH', async () => {
    const CHECK_IN = {
      type: expect.any(String),
      id: UUID,
      date: DATE,
      person: REF,
      teams: (v: unknown) => Array.isArray(v) && v.length > 0,
      previous: strOrNull,
      intentions: strOrNull,
      blockers: strOrNull,
      mood: strOrNull,
      previous_completed: (v: unknown) => v === null || typeof v === 'boolean',
      blocked: expect.any(Boolean),
      absent: expect.any(Boolean),
      completed_at: (v: unknown) => v === null || /Z$/.test(String(v)),
      updated_at: TIME,
      url: expect.stringMatching(new RegExp(`^${appUrl()}/check-ins/[0-9a-f-]{36}$`)),
    };
    const today = await get('/check-ins/2026-11-22');
    shaped(today, CHECK_IN);
    shaped(await get(`/check-ins/${today.id}`), CHECK_IN);
    for (const c of await get('/check-ins?per_page=50')) shaped(c, CHECK_IN);
    // Days Linus turned out absent: the check-in stays, marked absent, never filled in.
    const linus = (await get(`/check-ins?people_ids[]=${w.id('linus')}&per_page=50`)) as Array<Record<string, unknown>>;
    const absent = linus.filter((c) => c.absent === true);
    expect(absent.length).toBeGreaterThan(0);
    for (const c of absent) expect(c).toMatchObject({ previous: null, intentions: null, completed_at: null, blocked: false });
    const patched = await send('PATCH', '/check-ins/2026-11-22', { intentions: 'x', blockers: '' });
    shaped(patched.json, CHECK_IN);
    expect(patched.json).toMatchObject({ blockers: null, blocked: false, completed_at: TIME });
  });

  it('comments and reactions, on check-ins and goal updates', async () => {
    const COMMENT = {
      type: expect.any(String),
      id: UUID,
      body: expect.any(String),
      person: REF,
      resource: { type: expect.any(String), id: UUID },
      created_at: TIME,
    };
    const REACTION = {
      id: UUID,
      name: expect.any(String),
      emoji: expect.any(String),
      person: REF,
      resource: { type: expect.any(String), id: UUID },
      created_at: TIME,
    };
    const yesterday = await get('/check-ins/2026-11-21');
    for (const c of await get(`/check-ins/${yesterday.id}/comments`)) shaped(c, COMMENT);
    for (const r of await get(`/check-ins/${yesterday.id}/reactions`)) shaped(r, REACTION);
    const created = await send('POST', `/check-ins/${yesterday.id}/comments`, { body: 'Nice' });
    expect(created.status).toBe(201);
    shaped(created.json, COMMENT);
    const update = w.sb.service.data.goal_updates.find((u) => w.sb.service.data.comments.some((c) => c.resource.id === u.id))!;
    for (const c of await get(`/goal-updates/${update.id}/comments`)) shaped(c, COMMENT);
    for (const r of await get(`/goal-updates/${update.id}/reactions`)) shaped(r, REACTION);
  });

  it('goals: owner, teams, contributors, a parent, one with no update yet; POST and PATCH with the documented write fields; since/until accepted', async () => {
    const GOAL = {
      type: expect.any(String),
      id: UUID,
      title: expect.any(String),
      description: strOrNull,
      parent: (v: unknown) => v === null || typeof (v as { id?: unknown }).id === 'string',
      start_date: (v: unknown) => v === null || /^\d{4}-\d{2}-\d{2}$/.test(String(v)),
      end_date: (v: unknown) => v === null || /^\d{4}-\d{2}-\d{2}$/.test(String(v)),
      progress: (v: unknown) => v === null || Number.isInteger(v),
      confidence: (v: unknown) => v === null || [30, 60, 90].includes(v as number),
      confidence_description: (v: unknown) => v === null || ['Off track', 'At risk', 'On track'].includes(v as string),
      owner: (v: unknown) => v === null || typeof (v as { id?: unknown }).id === 'string',
      teams: expect.any(Array),
      contributors: expect.any(Array),
      update_cadence: strOrNull,
      private: expect.any(Boolean),
      archived: expect.any(Boolean),
      url: expect.stringMatching(new RegExp(`^${appUrl()}/goals/`)),
    };
    const goals = (await get('/goals?since=2026-01-01&until=2026-12-31')) as Array<Record<string, unknown>>;
    for (const g of goals) shaped(g, GOAL);
    expect(goals.some((g) => g.parent !== null)).toBe(true);
    expect(goals.some((g) => g.progress === null && g.confidence_description === null)).toBe(true);
    const ada = w.id('ada');
    const created = await send('POST', '/goals', {
      title: 'Reduce p95 API latency',
      end_date: '2026-06-30',
      owner_id: ada,
      team_ids: [w.team('Platform')],
      contributor_ids: [w.id('linus')],
    });
    expect(created.status).toBe(201);
    shaped(created.json, GOAL);
    expect(created.json).toMatchObject({
      title: 'Reduce p95 API latency',
      end_date: '2026-06-30',
      owner: { id: ada },
      teams: [{ name: 'Platform' }],
      contributors: [{ name: 'Linus Torvalds' }],
      progress: null,
    });
    const first = await send('POST', `/goals/${created.json.id}/goal-updates`, { title: 'Start', body: 'Go' });
    expect(first.json).toMatchObject({ progress: 1, confidence: 90, confidence_description: 'On track' });
    const patched = await send('PATCH', `/goals/${created.json.id}`, { archived: true, parent_id: goals[0]!.id });
    expect(patched.json).toMatchObject({ archived: true, parent: { id: goals[0]!.id } });
    expect((await send('PATCH', `/goals/${created.json.id}`, { owner: 'x' })).status).toBe(422);
  });

  it('goal updates: the documented fields, and links with goal_updates', async () => {
    const goal = w.sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!;
    for (const u of await get(`/goals/${goal.id}/goal-updates`)) {
      shaped(u, {
        type: expect.any(String),
        id: UUID,
        goal: { id: goal.id, title: goal.title },
        person: REF,
        title: expect.any(String),
        body: expect.any(String),
        progress: expect.any(Number),
        confidence: expect.any(Number),
        confidence_description: expect.any(String),
        created_at: TIME,
        updated_at: TIME,
        url: `${appUrl()}/goal_updates/${u.id}`,
      });
    }
  });

  it('activities: labels in group, descriptions; GET /activities/{id}; POST /activities for the token’s person', async () => {
    const ACTIVITY = {
      id: UUID,
      kind: expect.any(String),
      group: expect.any(String),
      title: strOrNull,
      description: strOrNull,
      url: strOrNull,
      recorded_at: TIME,
      person: REF,
    };
    const list = (await get('/activities')) as Array<Record<string, unknown>>;
    for (const a of list) shaped(a, ACTIVITY);
    expect([...new Set(list.map((a) => a.group))].sort()).toEqual(['GitHub PR', 'Jira']);
    expect(list.every((a) => typeof a.description === 'string')).toBe(true);
    shaped(await get(`/activities/${list[0]!.id}`), ACTIVITY);
    const posted = await send('POST', '/activities', { group: 'Claude Code', description: 'Refactored the pager', url: 'https://example.com/x' });
    expect(posted.status).toBe(201);
    shaped(posted.json, ACTIVITY);
    expect(posted.json).toMatchObject({ group: 'Claude Code', description: 'Refactored the pager', person: { name: 'Ada Lovelace' } });
    expect((await send('POST', '/activities', { group: 'x', description: 'y'.repeat(257) })).json.errors).toEqual({
      description: ['is too long (at most 256 characters)'],
    });
    expect((await call(w.sb.url, 'POST', '/activities', { token: 'sandbox_pat_read_only', body: { group: 'x', description: 'y' } })).status).toBe(403);
  });

  it('echoes: GET and POST /echo/questions, GET /echo/answers/{id}', async () => {
    const QUESTION = {
      id: UUID,
      prompt: expect.any(String),
      title: expect.any(String),
      answer_frequency: 'weekly',
      answer_day: expect.any(String),
      answer_time: expect.stringMatching(/^\d\d:\d\d$/),
      answer_time_zone: expect.any(String),
      next_answer_at: (v: unknown) => v === null || /Z$/.test(String(v)),
      paused_at: strOrNull,
      created_at: TIME,
      updated_at: TIME,
      url: expect.any(String),
    };
    const questions = await get('/echo/questions');
    for (const q of questions) shaped(q, QUESTION);
    const created = await send('POST', '/echo/questions', { prompt: 'What did the team learn this week?' });
    expect(created.status).toBe(201);
    shaped(created.json, QUESTION);
    const answer = w.sb.service.data.echo_answers[0]!;
    shaped(await get(`/echo/answers/${answer.id}`), {
      id: answer.id,
      question: { id: questions[0].id, title: expect.any(String) },
      title: expect.any(String),
      body: strOrNull,
      published_at: strOrNull,
      url: expect.any(String),
    });
  });
});
