// The sandbox's goal writes and echoes, as the docs describe them: POST/PATCH /goals validated
// with 422s in the service's error shape, GET/POST /echo/questions paged, GET /echo/answers/{id};
// counted against the person's rate limits, and kept in the data file's journal like every write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_READ_TOKEN } from '../../src/sandbox/demo.js';
import { stableUuid } from '../../src/sandbox/ids.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { call } from '../helpers/http.js';
import { START, useWorld } from '../helpers/harness.js';

const w = useWorld();
const send = (method: string, path: string, body?: unknown, token: string = w.sb.token) =>
  call(w.sb.url, method, path, { token, ...(body !== undefined && { body }) });
const goalId = (title: string) => w.sb.service.data.goals.find((g) => g.title === title)!.id;

describe('POST and PATCH /goals', () => {
  it('refuses what the docs do not allow with 422 {error, message, errors}', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, 'title', "is required and can't be blank"],
      [{ title: '  ' }, 'title', "is required and can't be blank"],
      [
        { title: 'x', colour: 'red' },
        'colour',
        'is not a goal field (allowed: title, description, start_date, end_date, owner_id, team_ids, contributor_ids, update_cadence, parent_id, private, archived)',
      ],
      [{ title: 'x', end_date: '30/06/2026' }, 'end_date', 'must be a date written YYYY-MM-DD'],
      [{ title: 'x', start_date: '2026-07-01', end_date: '2026-06-30' }, 'end_date', 'must be on or after the start date (2026-07-01)'],
      [{ title: 'x', owner_id: 'me' }, 'owner_id', 'must be the UUID of a person of the account'],
      [{ title: 'x', contributor_ids: ['00000000-0000-4000-8000-000000000000'] }, 'contributor_ids', 'must be the UUID of a person of the account'],
      [{ title: 'x', team_ids: ['Platform'] }, 'team_ids', 'must be an array of team UUIDs'],
      [{ title: 'x', parent_id: '00000000-0000-4000-8000-000000000000' }, 'parent_id', 'must be the UUID of a goal'],
      [{ title: 'x', private: 'yes' }, 'private', 'must be true or false'],
    ];
    for (const [body, field, problem] of cases) {
      const r = await send('POST', '/goals', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json).toEqual({ error: 'unprocessable_entity', message: `${field} ${problem}`, errors: { [field]: [problem] } });
    }
    expect(w.sb.service.data.goals).toHaveLength(4);
  });

  it('PATCH: a goal cannot be its own parent nor sit under a goal below it; the span is checked against what is stored', async () => {
    const revenue = goalId('Grow self-serve revenue');
    const billing = goalId('Ship the v2 billing API');
    expect((await send('PATCH', `/goals/${revenue}`, { parent_id: revenue })).json.errors).toEqual({
      parent_id: ['must not be the goal itself or a goal below it'],
    });
    expect((await send('PATCH', `/goals/${revenue}`, { parent_id: billing })).status).toBe(422);
    const start = w.sb.service.data.goals.find((g) => g.id === billing)!.start_date!;
    const early = await send('PATCH', `/goals/${billing}`, { end_date: '2000-01-01' });
    expect(early.json).toEqual({
      error: 'unprocessable_entity',
      message: `end_date must be on or after the start date (${start})`,
      errors: { end_date: [`must be on or after the start date (${start})`] },
    });
    // Moving both at once is judged on the new span.
    const ok = await send('PATCH', `/goals/${billing}`, { start_date: '1999-12-01', end_date: '2000-01-01' });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ start_date: '1999-12-01', end_date: '2000-01-01' });
    expect((await send('PATCH', '/goals/00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(404);
  });

  it('a read-only token cannot create or change a goal (403); a goal it creates is owned by the token’s person unless owner_id says otherwise', async () => {
    expect((await send('POST', '/goals', { title: 'x' }, DEMO_READ_TOKEN)).status).toBe(403);
    expect((await send('PATCH', `/goals/${goalId('Grow self-serve revenue')}`, { title: 'x' }, DEMO_READ_TOKEN)).status).toBe(403);
    const mine = await send('POST', '/goals', { title: 'Mine' });
    expect(mine.status).toBe(201);
    expect(mine.json.owner).toEqual({ id: w.id('ada'), name: 'Ada Lovelace' });
    const theirs = await send('POST', '/goals', { title: 'Theirs', owner_id: w.id('grace') });
    expect(theirs.json.owner).toEqual({ id: w.id('grace'), name: 'Grace Hopper' });
  });
});

describe('echoes', () => {
  it('GET /echo/questions is paged and newest first; a paused question has no next answer', async () => {
    const all = (await send('GET', '/echo/questions')).json;
    expect(all.map((q: { title: string }) => q.title)).toEqual(['Platform weekly', 'Mobile retro']);
    expect(all[1]).toMatchObject({ paused_at: expect.stringMatching(/Z$/), next_answer_at: null });
    expect(all[0].next_answer_at).toBe('2026-11-27T16:00:00Z'); // the next Friday after Sunday 22 Nov
    const second = await send('GET', '/echo/questions?page=2&per_page=1');
    expect(second.json).toEqual([all[1]]);
    expect((await send('GET', '/echo/questions?page=3&per_page=1')).json).toEqual([]);
    expect((await send('GET', '/echo/questions?per_page=0')).status).toBe(400);
  });

  it('POST /echo/questions: the prompt is required; day, time and blank fields are refused with 422', async () => {
    const refused: Array<[unknown, string, string]> = [
      [{ title: 'No prompt' }, 'prompt', "is required and can't be blank"],
      [{ prompt: 'x', answer_day: 'fri' }, 'answer_day', 'must be one of monday, tuesday, wednesday, thursday, friday, saturday, sunday'],
      [{ prompt: 'x', answer_time: '9:30' }, 'answer_time', 'must be HH:MM'],
      [{ prompt: 'x', title: ' ' }, 'title', "can't be blank"],
      [
        { prompt: 'x', color: 'red' },
        'color',
        'is not an echo question field (allowed: prompt, title, answer_frequency, answer_day, answer_time, answer_time_zone)',
      ],
    ];
    for (const [body, field, problem] of refused) {
      const r = await send('POST', '/echo/questions', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json).toEqual({ error: 'unprocessable_entity', message: `${field} ${problem}`, errors: { [field]: [problem] } });
    }
    const made = await send('POST', '/echo/questions', { prompt: 'What did we learn?', answer_day: 'monday', answer_time: '09:30' });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      prompt: 'What did we learn?',
      title: 'What did we learn?',
      answer_day: 'monday',
      answer_time: '09:30',
      next_answer_at: '2026-11-23T09:30:00Z',
    });
    expect((await send('GET', '/echo/questions')).json[0].id).toBe(made.json.id);
    expect((await send('POST', '/echo/questions', { prompt: 'x' }, DEMO_READ_TOKEN)).status).toBe(403);
  });

  it('GET /echo/answers/{id}: the answer with its question; null body while the summary is written; 404 for an unknown id', async () => {
    const weekly = stableUuid('echo:weekly');
    const pending = await send('GET', `/echo/answers/${stableUuid('echo-answer:2')}`);
    expect(pending.json).toMatchObject({ question: { id: weekly, title: 'Platform weekly' }, body: null, published_at: null });
    const retro = await send('GET', `/echo/answers/${stableUuid('echo-answer:3')}`);
    expect(retro.json.body).toContain('## Start');
    const missing = await send('GET', '/echo/answers/00000000-0000-4000-8000-000000000000');
    expect(missing).toMatchObject({ status: 404, json: { error: 'not_found', message: 'No echo answer 00000000-0000-4000-8000-000000000000' } });
  });
});

describe('limits and the data file', () => {
  const opened: Sandbox[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const sb of opened.splice(0)) await sb.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('goal and echo writes count against the person’s burst limit like every route (429 with Retry-After)', async () => {
    const sb = await startSandbox({ clock: () => START, rateLimit: [{ name: 'burst', limit: 3, seconds: 10 }] });
    opened.push(sb);
    const post = (path: string, body: unknown) => call(sb.url, 'POST', path, { token: sb.token, body });
    expect((await post('/goals', { title: 'a' })).status).toBe(201);
    expect((await post('/echo/questions', { prompt: 'b' })).status).toBe(201);
    expect((await call(sb.url, 'GET', '/echo/questions', { token: sb.token })).status).toBe(200);
    const over = await post('/goals', { title: 'c' });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('10');
    expect(sb.service.data.goals.map((g) => g.title)).not.toContain('c');
  });

  it('created and changed goals and new echo questions are in the journal: a sandbox started on the file has them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkin-goal-echo-'));
    dirs.push(dir);
    const file = join(dir, 'state.json');
    const first = await startSandbox({ clock: () => START, rateLimit: false, dataFile: file });
    const post = (method: string, path: string, body: unknown) => call(first.url, method, path, { token: first.token, body });
    const goal = (await post('POST', '/goals', { title: 'Kept', end_date: '2026-12-31' })).json;
    await post('PATCH', `/goals/${goal.id}`, { description: 'Changed' });
    const q = (await post('POST', '/echo/questions', { prompt: 'Kept too?' })).json;
    await first.close();
    const again = await startSandbox({ clock: () => START, rateLimit: false, dataFile: file });
    opened.push(again);
    expect((await call(again.url, 'GET', `/goals/${goal.id}`, { token: again.token })).json).toMatchObject({
      title: 'Kept',
      description: 'Changed',
      end_date: '2026-12-31',
    });
    expect((await call(again.url, 'GET', '/echo/questions', { token: again.token })).json[0]).toMatchObject({ id: q.id, prompt: 'Kept too?' });
  });
});
