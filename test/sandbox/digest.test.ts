// GET /digest: the token's person's feed, newest first, in the entry shape Steady's own digest
// client decodes; the exact requests Steady's clients send; since, category and paging; ETag/304.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkInId } from '../../src/sandbox/ids.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { call } from '../helpers/http.js';

// A Wednesday, mid-morning, UTC.
const NOW = new Date(Date.UTC(2026, 10, 18, 10, 30, 0));
const TODAY = '2026-11-18';
const LINUS = 'sandbox_pat_linus';
const GRACE = 'sandbox_pat_grace';
const SCRIBE = 'sandbox_pat_scribe';

let sb: Sandbox;
let app: string;
beforeEach(async () => {
  sb = await startSandbox({ clock: () => NOW });
  app = new URL(sb.url).origin + '/app';
});
afterEach(async () => {
  await sb.close();
});
const get = (path: string, token = sb.token, headers: Record<string, string> = {}) => call(sb.url, 'GET', path, { token, headers });
const id = (username: string) => sb.service.data.people.find((p) => p.username === username)!.id;
const comment = (body: string) => sb.service.data.comments.find((c) => c.body === body)!;
const RATE = /^"burst";r=\d+;t=\d+, "sustained";r=\d+;t=\d+$/;
const POLICY = '"burst";q=30;w=10, "sustained";q=500;w=1800';
const ETAG = /^W\/"[0-9a-f]{20}"$/;

describe("the requests Steady's own clients send", () => {
  it('the macOS digest client: GET /digest?per_page=1 → the newest entry, every field of its shape', async () => {
    const r = await get('/digest?per_page=1', sb.token, { accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers.etag).toMatch(ETAG);
    expect(r.headers.ratelimit).toBe('"burst";r=29;t=10, "sustained";r=499;t=1800');
    expect(r.headers['ratelimit-policy']).toBe(POLICY);
    const grace = checkInId(id('grace'), TODAY);
    expect(r.json).toEqual([
      {
        id: grace,
        category: 'check-in',
        // 08:45 in New York (13:45Z) has not come at 10:30Z: a quarter of an hour before the sandbox started.
        published_at: '2026-11-18T10:15:00Z',
        read_at: null,
        resource: {
          type: 'check-in',
          title: "Grace Hopper's check-in for 2026-11-18",
          body:
            '**What did you do previously?**\n- Ran the sprint review\n- Unblocked the webhook security review\n\n' +
            '**What do you intend to do next?**\n- 1:1s with @ada and @linus\n- Plan the on-call rotation',
          progress: null,
          confidence: null,
          confidence_description: null,
          url: `${app}/check-ins/${grace}`,
          goal: null,
          person: { id: id('grace'), name: 'Grace Hopper' },
        },
      },
    ]);
  });

  it('the inbox routine: ?category=comment&per_page=1, /0/id; then If-None-Match → 304, no body, still counted; a new comment → 200 and the new id', async () => {
    const path = '/digest?category=comment&per_page=1';
    const first = await get(path);
    expect(first.status).toBe(200);
    const newest = comment('I can pair on the `checkout` flake after lunch, @ada.');
    expect(first.json[0].id).toBe(newest.id);
    expect(first.json).toEqual([
      {
        id: newest.id,
        category: 'comment',
        published_at: '2026-11-17T11:30:00Z',
        read_at: null,
        resource: {
          type: 'comment',
          title: 'Comment on your check-in for 2026-11-17',
          body: 'I can pair on the `checkout` flake after lunch, @ada.',
          progress: null,
          confidence: null,
          confidence_description: null,
          url: `${app}/check-ins/${newest.resource.id}`,
          goal: null,
          person: { id: id('linus'), name: 'Linus Torvalds' },
        },
      },
    ]);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(ETAG);

    const again = await get(path, sb.token, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers.etag).toBe(etag);
    expect(again.headers.ratelimit).toMatch(/^"burst";r=28;t=\d+, "sustained";r=498;t=\d+$/);
    expect(again.headers['ratelimit-policy']).toBe(POLICY);

    const posted = await call(sb.url, 'POST', `/check-ins/${newest.resource.id}/comments`, { token: GRACE, body: { body: 'Thursday works for me.' } });
    expect(posted.status).toBe(201);
    const changed = await get(path, sb.token, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.json.map((e: { id: string }) => e.id)).toEqual([posted.json.id]);
    expect(changed.json[0]).toMatchObject({
      category: 'comment',
      published_at: '2026-11-18T10:30:00Z',
      resource: { body: 'Thursday works for me.', person: { name: 'Grace Hopper' } },
    });
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('what the digest holds', () => {
  it('comments by others on my check-ins and goal updates, and comments @mentioning me anywhere, newest first', async () => {
    const r = await get('/digest?category=comment');
    const update = sb.service.data.goal_updates.find((u) => u.title === 'Invoices endpoint in review')!;
    const billing = sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!;
    const mention = comment('Could @ada look at the retry numbers before Friday?');
    expect(r.json.map((e: { resource: { title: string; person: { name: string } } }) => [e.resource.title, e.resource.person.name])).toEqual([
      ['Comment on your check-in for 2026-11-17', 'Linus Torvalds'],
      ['Comment on your check-in for 2026-11-17', 'Grace Hopper'],
      ["Comment on Linus Torvalds's check-in for 2026-11-16", 'Grace Hopper'],
      ['Comment on your check-in for 2026-11-16', 'Margaret Hamilton'],
      ['Comment on the goal update “Invoices endpoint in review”', 'Grace Hopper'],
    ]);
    expect(r.json[2]).toEqual({
      id: mention.id,
      category: 'comment',
      published_at: '2026-11-16T15:40:00Z',
      read_at: null,
      resource: {
        type: 'comment',
        title: "Comment on Linus Torvalds's check-in for 2026-11-16",
        body: 'Could @ada look at the retry numbers before Friday?',
        progress: null,
        confidence: null,
        confidence_description: null,
        url: `${app}/check-ins/${checkInId(id('linus'), '2026-11-16')}`,
        goal: null,
        person: { id: id('grace'), name: 'Grace Hopper' },
      },
    });
    expect(r.json[4]).toEqual({
      id: comment('Security review is booked for Thursday.').id,
      category: 'comment',
      published_at: '2026-11-16T09:00:00Z',
      read_at: null,
      resource: {
        type: 'comment',
        title: 'Comment on the goal update “Invoices endpoint in review”',
        body: 'Security review is booked for Thursday.',
        progress: null,
        confidence: null,
        confidence_description: null,
        url: `${app}/goal_updates/${update.id}`,
        goal: { id: billing.id, title: 'Ship the v2 billing API' },
        person: { id: id('grace'), name: 'Grace Hopper' },
      },
    });
    // My own comments are not news to me; a mention of someone else does not reach me; @adam is not @ada.
    const mine = checkInId(id('ada'), '2026-11-17');
    for (const body of ['Answering myself, @ada', 'Over to you, @grace']) {
      expect((await call(sb.url, 'POST', `/check-ins/${mine}/comments`, { token: sb.token, body: { body } })).status).toBe(201);
    }
    const gracesOwn = checkInId(id('grace'), '2026-11-16');
    expect((await call(sb.url, 'POST', `/check-ins/${gracesOwn}/comments`, { token: LINUS, body: { body: 'Ping @adam and ada@example.com' } })).status).toBe(
      201,
    );
    expect((await get('/digest?category=comment')).json.map((e: { id: string }) => e.id)).toEqual(r.json.map((e: { id: string }) => e.id));
    // Grace is mentioned on Ada's check-in, and Linus commented on hers: both are in her digest, the later saved first.
    expect(
      (await get('/digest?category=comment&per_page=2', GRACE)).json.map((e: { resource: { title: string; body: string } }) => [
        e.resource.title,
        e.resource.body,
      ]),
    ).toEqual([
      ['Comment on your check-in for 2026-11-16', 'Ping @adam and ada@example.com'],
      ["Comment on Ada Lovelace's check-in for 2026-11-17", 'Over to you, @grace'],
    ]);
  });

  it("my teams' completed check-ins (not mine, not absent, not yet filled in: none), for each team I share", async () => {
    type Entry = { id: string; category: string; published_at: string; resource: { person: { name: string } } };
    const entries: Entry[] = [];
    for (let page = 1; page <= 10; page++) {
      const batch = (await get(`/digest?category=check-in&per_page=50&page=${page}`)).json as Entry[];
      entries.push(...batch);
      if (batch.length < 50) break;
    }
    expect(entries.every((e) => e.category === 'check-in')).toBe(true);
    const people = new Set(entries.map((e) => e.resource.person.name));
    // Ada is in Platform (Grace, Linus, the agent) and Mobile (Margaret, Alan).
    expect([...people].sort()).toEqual(['Alan Turing', 'Grace Hopper', 'Linus Torvalds', 'Margaret Hamilton', 'Scribe (agent)']);
    const published = entries.map((e) => e.published_at);
    expect([...published].sort().reverse()).toEqual(published);
    const absent = sb.service.data.check_ins.filter((c) => c.absent).map((c) => c.id);
    expect(absent.length).toBeGreaterThan(0);
    expect(entries.filter((e) => absent.includes(e.id))).toEqual([]);
    // Each completed check-in of a teammate, once.
    const teammates = new Set(['grace', 'linus', 'scribe', 'margaret', 'alan'].map(id));
    const expected = sb.service.data.check_ins.filter((c) => teammates.has(c.person_id) && c.completed_at && !c.absent).map((c) => c.id);
    expect(entries.map((e) => e.id).sort()).toEqual(expected.sort());
    // Filling in today's makes it news for teammates, published when it was completed.
    const mine = await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: sb.token, body: { intentions: '- Review the **retry** numbers' } });
    expect(mine.status).toBe(200);
    const forLinus = (await get('/digest?category=check-in&per_page=1', LINUS)).json[0];
    expect(forLinus).toEqual({
      id: mine.json.id,
      category: 'check-in',
      published_at: '2026-11-18T10:30:00Z',
      read_at: null,
      resource: {
        type: 'check-in',
        title: "Ada Lovelace's check-in for 2026-11-18",
        body: '**What do you intend to do next?**\n- Review the **retry** numbers',
        progress: null,
        confidence: null,
        confidence_description: null,
        url: `${app}/check-ins/${mine.json.id}`,
        goal: null,
        person: { id: id('ada'), name: 'Ada Lovelace' },
      },
    });
    // Reported to Mobile only, it is no longer news for Platform (Linus, the agent).
    const mobile = sb.service.data.teams.find((t) => t.name === 'Mobile')!.id;
    expect((await call(sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: sb.token, body: { team_ids: [mobile] } })).status).toBe(200);
    expect((await get('/digest?category=check-in&per_page=1', LINUS)).json[0].id).not.toBe(mine.json.id);
    // The agent is in Platform: its digest holds Platform's check-ins, not Mobile's.
    const agent = (await get('/digest?category=check-in&per_page=50', SCRIBE)).json as Array<{ id: string; resource: { person: { name: string } } }>;
    expect([...new Set(agent.map((e) => e.resource.person.name))].sort()).toEqual(['Ada Lovelace', 'Grace Hopper', 'Linus Torvalds']);
    expect(agent.map((e) => e.id)).not.toContain(mine.json.id);
    // …and the comment that @mentions it.
    expect((await get('/digest?category=comment', SCRIBE)).json.map((e: { resource: { body: string } }) => e.resource.body)).toEqual([
      '@scribe please put the sprint review in the weekly summary.',
    ]);
  });

  it('updates by others of goals I own or contribute to, with progress and confidence', async () => {
    // Linus contributes to Ada's billing goal.
    const billing = sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!;
    const r = await get('/digest?category=goal-update', LINUS);
    const [latest, kickOff] = sb.service.data.goal_updates.filter((u) => u.goal_id === billing.id).sort((a, b) => b.created_at.localeCompare(a.created_at));
    expect(r.json).toEqual([
      {
        id: latest!.id,
        category: 'goal-update',
        published_at: '2026-11-15T16:00:00Z',
        read_at: null,
        resource: {
          type: 'goal-update',
          title: 'Invoices endpoint in review',
          body: '- Invoices endpoint done\n- Webhooks blocked on security review',
          progress: 35,
          confidence: 60,
          confidence_description: 'At risk',
          url: `${app}/goal_updates/${latest!.id}`,
          goal: { id: billing.id, title: 'Ship the v2 billing API' },
          person: { id: id('ada'), name: 'Ada Lovelace' },
        },
      },
      {
        id: kickOff!.id,
        category: 'goal-update',
        published_at: '2026-11-08T16:00:00Z',
        read_at: null,
        resource: {
          type: 'goal-update',
          title: 'Kick-off',
          body: 'Scoped the endpoints with @grace. First milestone: **invoices**.',
          progress: 10,
          confidence: 90,
          confidence_description: 'On track',
          url: `${app}/goal_updates/${kickOff!.id}`,
          goal: { id: billing.id, title: 'Ship the v2 billing API' },
          person: { id: id('ada'), name: 'Ada Lovelace' },
        },
      },
    ]);
    // Ada's own updates are not in her digest; her teammate Margaret's updates of Mobile's goal are,
    // and so is Linus's update of her goal.
    const crashes = sb.service.data.goals.find((g) => g.title === 'Halve the mobile crash rate')!;
    expect((await get('/digest?category=goal-update')).json).toMatchObject([
      {
        category: 'goal-update',
        published_at: '2026-11-16T16:00:00Z',
        resource: { title: 'Top three crashes fixed', goal: { id: crashes.id }, person: { name: 'Margaret Hamilton' } },
      },
      {
        category: 'goal-update',
        published_at: '2026-11-06T16:00:00Z',
        resource: { title: 'Baseline measured', goal: { id: crashes.id }, person: { name: 'Margaret Hamilton' } },
      },
    ]);
    const posted = await call(sb.url, 'POST', `/goals/${billing.id}/goal-updates`, {
      token: LINUS,
      body: { title: 'Retries designed', body: 'Backoff with jitter.' },
    });
    expect(posted.status).toBe(201);
    expect((await get('/digest?category=goal-update')).json).toMatchObject([
      {
        id: posted.json.id,
        published_at: '2026-11-18T10:30:00Z',
        resource: { title: 'Retries designed', progress: 35, confidence: 60, confidence_description: 'At risk', person: { name: 'Linus Torvalds' } },
      },
      { resource: { title: 'Top three crashes fixed' } },
      { resource: { title: 'Baseline measured' } },
    ]);
  });
});

describe('parameters', () => {
  it('since (a date or a timestamp, inclusive), page and per_page', async () => {
    const all = (await get('/digest?per_page=50')).json as Array<{ id: string; published_at: string }>;
    const since = (await get('/digest?since=2026-11-17&per_page=50')).json as Array<{ published_at: string }>;
    expect(since.length).toBeGreaterThan(0);
    expect(since).toEqual(all.filter((e) => e.published_at >= '2026-11-17T00:00:00Z'));
    const stamp = (await get('/digest?since=2026-11-17T10:02:00Z&per_page=50')).json as Array<{ published_at: string }>;
    // Grace's and Linus's check-ins of today (the demo's Linus checks in blocked), then the comments.
    expect(stamp.map((e) => e.published_at)).toEqual(['2026-11-18T10:15:00Z', '2026-11-18T10:00:00Z', '2026-11-17T11:30:00Z', '2026-11-17T10:02:00Z']);
    expect((await get('/digest?since=2026-11-17T11:02:00%2B01:00&category=comment')).json.map((e: { published_at: string }) => e.published_at)).toEqual([
      '2026-11-17T11:30:00Z',
      '2026-11-17T10:02:00Z',
    ]);
    const p1 = (await get('/digest?per_page=2')).json as Array<{ id: string }>;
    const p2 = (await get('/digest?per_page=2&page=2')).json as Array<{ id: string }>;
    expect([...p1, ...p2].map((e) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    // Like every list: a bare array, 20 by default, 50 at most, no paging headers.
    const first = await get('/digest');
    expect(first.json).toHaveLength(20);
    expect(first.headers.link).toBeUndefined();
    expect((await get('/digest?per_page=500')).json).toHaveLength(50);
    expect((await get('/digest?page=99')).json).toEqual([]);
  });

  it('an unknown category, a bad since, a repeated or unknown parameter: 400 like any bad parameter', async () => {
    const cases: Array<[string, string]> = [
      ['/digest?category=goal', 'category must be one of comment, check-in, goal-update, got "goal"'],
      ['/digest?category=', 'category must be one of comment, check-in, goal-update, got ""'],
      ['/digest?category=comment&category=check-in', 'category was given 2 times; give it once'],
      ['/digest?since=yesterday', 'since must be a date written YYYY-MM-DD or an ISO 8601 timestamp such as 2026-05-06T00:00:00Z, got "yesterday"'],
      ['/digest?since=2026-02-30', 'since must be a date written YYYY-MM-DD or an ISO 8601 timestamp such as 2026-05-06T00:00:00Z, got "2026-02-30"'],
      ['/digest?per_page=0', 'per_page must be a positive integer, got "0"'],
      ['/digest?until=2026-11-18', 'Unknown query parameter "until" (accepted: category, since, page, per_page)'],
      ['/digest?category[]=comment', 'Unknown query parameter "category[]" (accepted: category, since, page, per_page)'],
    ];
    for (const [path, message] of cases) {
      const r = await get(path);
      expect([path, r.status, r.json]).toEqual([path, 400, { error: 'bad_request', message }]);
      expect(r.headers.ratelimit).toMatch(RATE);
    }
    expect((await call(sb.url, 'GET', '/digest', { token: null })).status).toBe(401);
    expect((await call(sb.url, 'POST', '/digest', { token: sb.token, body: {} })).status).toBe(405);
  });
});
