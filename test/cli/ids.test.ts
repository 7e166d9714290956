// Ids people can use (issue 32): short ids accepted wherever a whole one is, resolved from what was
// listed (no request) or one list request; a teammate's check-in by name and day. In-process
// against the sandbox, the exact requests asserted.
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import { checkInId, stableUuid } from '../../src/sandbox/ids.js';
import { TODAY, useWorld, type RunOptions } from '../helpers/harness.js';

const w = useWorld();
const cli = (args: string[], opts: RunOptions = {}) => w.cli(args, opts);
const sent = () => w.sent();
const forget = () => void (w.sb.requests.length = 0);
let ada: string;
let grace: string;

beforeEach(() => {
  ada = w.id('ada');
  grace = w.id('grace');
});

async function primeMe() {
  expect((await cli(['me'])).code).toBe(0);
  forget();
}

describe("a teammate's check-in by name and day", () => {
  it('checkin checkin today @grace: one list request for that person and day (once names are known)', async () => {
    await primeMe();
    const first = await cli(['checkin', 'today', '@grace']);
    expect(first.code).toBe(0);
    // The names are looked up once (and cached), then the one list request.
    expect(sent()).toEqual([
      'GET /api/v2/people?page=1&per_page=50',
      'GET /api/v2/teams?page=1&per_page=50',
      `GET /api/v2/check-ins?people_ids[]=${grace}&since=${TODAY}&until=${TODAY}`,
    ]);
    expect(first.stdout).toContain(`Check-in ${TODAY} · Grace Hopper`);
    forget();
    const again = await cli(['checkin', 'yesterday', 'Grace Hopper', '--json']);
    expect(again.code).toBe(0);
    const y = addDays(TODAY, -1);
    expect(sent()).toEqual([`GET /api/v2/check-ins?people_ids[]=${grace}&since=${y}&until=${y}`]);
    const c = JSON.parse(again.stdout);
    expect([c.id, c.date, c.person.name]).toEqual([checkInId(grace, y), y, 'Grace Hopper']);
  });

  it('a UUID costs no name look-up; a day without a check-in is said as for mine; a check-in id with a person is refused', async () => {
    await primeMe();
    const r = await cli(['checkin', '2000-01-03', grace]);
    expect(sent()).toEqual([`GET /api/v2/check-ins?people_ids[]=${grace}&since=2000-01-03&until=2000-01-03`]);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain(`No check-in scheduled for ${grace} on 2000-01-03`);
    const bad = await cli(['checkin', checkInId(grace, TODAY), '@grace']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('names one check-in already');
  });
});

describe("a teammate's check-in by name and day, to comment and to read its reactions", () => {
  it('comments today @grace --add: one list request for that check-in, then the POST on it; reactions the same way; a day without one is said', async () => {
    await primeMe();
    // Names known (cached by a first look-up), as after any command that named someone.
    expect((await cli(['checkin', 'today', '@grace'])).code).toBe(0);
    forget();
    const id = checkInId(grace, TODAY);
    const r = await cli(['comments', 'today', '@grace', '--add', 'Nice work!']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent()).toEqual([`GET /api/v2/check-ins?people_ids[]=${grace}&since=${TODAY}&until=${TODAY}`, `POST /api/v2/check-ins/${id}/comments`]);
    expect(w.sb.requests.at(-1)!.body).toEqual({ body: 'Nice work!' });
    forget();
    const list = await cli(['comments', 'today', 'Grace Hopper', '--json', 'body']);
    expect(JSON.parse(list.stdout).map((c: { body: string }) => c.body)).toContain('Nice work!');
    forget();
    expect((await cli(['reactions', 'yesterday', '@grace', '--json'])).code).toBe(0);
    expect(sent()).toEqual([
      `GET /api/v2/check-ins?people_ids[]=${grace}&since=${addDays(TODAY, -1)}&until=${addDays(TODAY, -1)}`,
      `GET /api/v2/check-ins/${checkInId(grace, addDays(TODAY, -1))}/reactions?page=1&per_page=50`,
    ]);
    const none = await cli(['comments', '2000-01-03', '@grace']);
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('No check-in scheduled for Grace Hopper on 2000-01-03');
  });
});

describe("a comment for a teammate's check-in that could not be found yet", () => {
  it('is kept under the date (not "today") and the name; drafts send finds the check-in then; a day with none is exit 2, the words kept', async () => {
    await primeMe();
    expect((await cli(['checkin', 'today', '@grace'])).code).toBe(0);
    w.sb.inject({
      method: 'GET',
      path: /\/check-ins$/,
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: '{"error":"bad_request","message":"nope"}',
    });
    const failed = await cli(['comments', 'today', '@grace', '--add', 'For Grace, today']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`\`checkin comments ${TODAY} @grace --resume\` sends it`);
    const [kept] = JSON.parse((await cli(['drafts', '--json'])).stdout) as Array<{ id: string; target: { id: string } }>;
    expect(kept!.target.id).toBe(`${TODAY} @grace`);
    forget();
    const posted = await cli(['drafts', 'send', kept!.id]);
    expect(posted.code, posted.stderr).toBe(0);
    expect(sent()).toEqual([
      `GET /api/v2/check-ins?people_ids[]=${grace}&since=${TODAY}&until=${TODAY}`,
      `POST /api/v2/check-ins/${checkInId(grace, TODAY)}/comments`,
    ]);
    expect(JSON.parse((await cli(['drafts', '--json'])).stdout)).toEqual([]);
    const none = await cli(['comments', '2000-01-03', '@grace', '--add', 'Nobody checked in that day']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('There is no check-in to comment on that day; nothing was sent');
    expect(none.stderr).toContain('`checkin comments 2000-01-03 @grace --resume`');
  });
});

describe('short ids', () => {
  it('a check-in by the short id `list` showed: no request to resolve it', async () => {
    await primeMe();
    const listed = await cli(['list', '--since', addDays(TODAY, -1)], { tty: true, columns: 80 });
    expect(listed.code).toBe(0);
    const id = checkInId(grace, TODAY);
    expect(listed.stdout).toContain(`  ${id.slice(0, 8)}  `);
    expect(listed.stdout).not.toContain(id);
    forget();
    const r = await cli(['checkin', id.slice(0, 8), '--json']);
    expect(r.code).toBe(0);
    expect(sent()).toEqual([`GET /api/v2/check-ins/${id}`]);
    expect(JSON.parse(r.stdout).id).toBe(id);
    forget();
    const c = await cli(['comments', id.slice(0, 8), '--json']);
    expect(c.code).toBe(0);
    expect(sent()).toEqual([`GET /api/v2/check-ins/${id}/comments?page=1&per_page=50`]);
  });

  it('a check-in not listed before: one list request; an unknown start: exit 2 saying what to run', async () => {
    await primeMe();
    const id = checkInId(ada, addDays(TODAY, -1));
    const r = await cli(['checkin', id.slice(0, 10), '--json']);
    expect(r.code).toBe(0);
    expect(sent()).toEqual(['GET /api/v2/check-ins?per_page=50', `GET /api/v2/check-ins/${id}`]);
    forget();
    const none = await cli(['checkin', 'ffff0000']);
    expect(none.code).toBe(2);
    expect(sent()).toEqual(['GET /api/v2/check-ins?per_page=50']);
    expect(none.stderr).toContain('No check-in id starts with "ffff0000"');
    expect(none.stderr).toContain('`checkin list`');
  });

  it('goal ids: from `checkin goals` (no request), else one list request; goal update ids from `goal update list`', async () => {
    const billing = stableUuid('goal:billing');
    await primeMe();
    const goals = await cli(['goals'], { tty: true, columns: 80 });
    expect(goals.stdout).toContain(billing.slice(0, 8));
    expect(goals.stdout).not.toContain(billing);
    forget();
    const list = await cli(['goal', 'update', 'list', billing.slice(0, 8), '--json']);
    expect(list.code).toBe(0);
    expect(sent()).toEqual([`GET /api/v2/goals/${billing}/goal-updates?page=1&per_page=50`]);
    const updates = JSON.parse(list.stdout) as Array<{ id: string }>;
    forget();
    const view = await cli(['goal', 'update', 'view', updates[0]!.id.slice(0, 8), '--json']);
    expect(view.code).toBe(0);
    expect(sent()).toEqual([`GET /api/v2/goal-updates/${updates[0]!.id}`]);
    // A goal not listed before (someone else's): one list request.
    const crashes = stableUuid('goal:crashes');
    forget();
    const other = await cli(['goal', 'update', 'list', crashes.slice(0, 8), '--json']);
    expect(other.code).toBe(0);
    expect(sent()).toEqual(['GET /api/v2/goals?per_page=50', `GET /api/v2/goals/${crashes}/goal-updates?page=1&per_page=50`]);
    const unknown = await cli(['goal', 'update', 'view', 'ffff0000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No goal update id starts with "ffff0000"');
    expect(unknown.stderr).toContain('checkin goal update list <goal-id>');
  });
});

describe('a start that names two ids', () => {
  it('is refused naming both, short enough to tell apart and with their titles (exit 2, nothing else sent); a longer start is taken', async () => {
    const billing = stableUuid('goal:billing');
    // A second goal whose id starts as billing's does, for the first 12 characters.
    const twin = `${billing.slice(0, 12)}${billing.slice(12).replace(/[0-9a-f]/g, (c) => (c === 'a' ? 'b' : 'a'))}`;
    const original = w.sb.service.data.goals.find((g) => g.id === billing)!;
    w.sb.service.data.goals.push({ ...original, id: twin, title: 'Billing, the twin' });
    await primeMe();
    expect((await cli(['goals'])).code).toBe(0);
    forget();
    const r = await cli(['goal', 'update', 'list', billing.slice(0, 8)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"${billing.slice(0, 8)}" is the start of 2 goal ids: `);
    expect(r.stderr).toContain('Billing, the twin');
    expect(r.stderr).toContain('Give more of the id.');
    expect(sent()).toEqual([]);
    const longer = await cli(['goal', 'update', 'list', billing.slice(0, 13), '--json']);
    expect(longer.code, longer.stderr).toBe(0);
    expect(sent()).toEqual([`GET /api/v2/goals/${billing}/goal-updates?page=1&per_page=50`]);
  });
});

describe('a short id in a command that keeps typed words', () => {
  it('goal update create with a start of an id not listed before: refused before any request (nothing goes out before the words would be kept); once `checkin goals` listed it, taken', async () => {
    await primeMe();
    const goal = w.sb.service.data.goals.find((g) => g.owner_id === ada)!;
    const start = goal.id.slice(0, 8);
    const refused = await cli(['goal', 'update', 'create', start, '--title', 'Half way', '--body', 'On track']);
    expect(refused).toMatchObject({
      code: 2,
      stderr: `error: No goal id starts with "${start}"\n\`checkin goals\` shows goals with their ids; give one, or the start of one.\n`,
    });
    expect(sent()).toEqual([]);
    expect((await cli(['goals'])).code).toBe(0);
    forget();
    const posted = await cli(['goal', 'update', 'create', start, '--title', 'Half way', '--body', 'On track', '--json']);
    expect(posted.code).toBe(0);
    expect(sent()).toEqual([`POST /api/v2/goals/${goal.id}/goal-updates`]);
  });
});
