// checkin goal create and goal edit, in-process against the sandbox: the exact requests the
// sandbox received (method, path, body), names and `me` turned into ids with the fewest requests,
// --input bodies from stdin and files, the service's 422s (exit 2), drafts and --resume, and the
// questions asked on a (fake) terminal.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { useWorld, type RunOptions } from '../helpers/harness.js';
import { FORBIDDEN, POISON } from '../helpers/hostile.js';
import { scripted } from '../helpers/prompter.js';
import { draftFolder } from '../helpers/outbox.js';

const w = useWorld();
let sb: Sandbox;
let ada: string, linus: string, grace: string, platform: string, mobile: string;
const cli = (args: string[], opts: RunOptions = {}) => w.cli(args, opts);
const goal = (title: string) => sb.service.data.goals.find((g) => g.title === title)!;
const drafts = () => draftFolder(w.configDir);

beforeEach(() => {
  sb = w.sb;
  ada = w.id('ada');
  linus = w.id('linus');
  grace = w.id('grace');
  platform = w.team('Platform');
  mobile = w.team('Mobile');
});

describe('goal create', () => {
  it('from flags: one POST with every field, people and teams by name or me turned into ids; with them cached, the POST alone', async () => {
    const revenue = goal('Grow self-serve revenue').id;
    const r = await cli([
      'goal',
      'create',
      '--title',
      'Reduce p95 API latency',
      '--description',
      'From **800 ms** to 300',
      '--start-date',
      '2026-12-01',
      '--end-date',
      '2027-03-31',
      '--owner',
      'me',
      '--team',
      'Platform',
      '--contributor',
      '@linus,Grace Hopper',
      '--parent',
      revenue,
      '--json',
    ]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    // me (for the owner and my teams), then the directory for the two names: once each.
    expect(w.sent().sort()).toEqual(
      ['GET /api/v2/me', 'GET /api/v2/people?page=1&per_page=50', 'GET /api/v2/teams?page=1&per_page=50', 'POST /api/v2/goals'].sort(),
    );
    expect(sb.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/v2/goals', status: 201 });
    expect(sb.requests.at(-1)!.body).toEqual({
      title: 'Reduce p95 API latency',
      description: 'From **800 ms** to 300',
      start_date: '2026-12-01',
      end_date: '2027-03-31',
      owner_id: ada,
      team_ids: [platform],
      contributor_ids: [linus, grace],
      parent_id: revenue,
    });
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({
      title: 'Reduce p95 API latency',
      owner: { id: ada },
      teams: [{ id: platform }],
      contributors: [{ id: linus }, { id: grace }],
      parent: { id: revenue },
    });
    expect(sb.service.data.goals.some((g) => g.id === created.id)).toBe(true);
    expect(drafts()).toEqual([]); // sent: nothing kept

    w.forget();
    const again = await cli(['goal', 'create', '--title', 'Second', '--owner', '@grace', '--team', 'Mobile', '--contributor', 'me']);
    expect(again.code).toBe(0);
    expect(w.sent()).toEqual(['POST /api/v2/goals']);
    expect(sb.requests[0]!.body).toEqual({ title: 'Second', owner_id: grace, team_ids: [mobile], contributor_ids: [ada] });
    // Piped: the row `checkin goals` prints for it.
    expect(again.stdout.split('\t').slice(1)).toEqual(['Second', '', '', '', 'Grace Hopper\n']);
  });

  it('--input -: the JSON body from standard input, me and names in it turned into ids, the flags winning over its fields', async () => {
    const body = {
      title: 'From JSON',
      end_date: '2026-06-30',
      owner_id: 'me',
      team_ids: ['Mobile', platform],
      contributor_ids: ['@alan'],
      private: true,
      update_cadence: 'weekly',
    };
    const r = await cli(['goal', 'create', '--input', '-', '--end-date', '2026-07-31', '--json', 'id,title,end_date'], { input: JSON.stringify(body) });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(sb.requests.at(-1)!.body).toEqual({ ...body, end_date: '2026-07-31', owner_id: ada, team_ids: [mobile, platform], contributor_ids: [w.id('alan')] });
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['id', 'title', 'end_date']);
  });

  it('--input FILE: sent as it is (UUIDs untouched), no request before the POST', async () => {
    const dir = tempDir('checkin-goal-input-');
    const file = join(dir, 'goal.json');
    writeFileSync(file, JSON.stringify({ title: 'From a file', owner_id: grace.toUpperCase(), description: null }));
    const r = await cli(['goal', 'create', '--input', file, '--title', 'Renamed']);
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual(['POST /api/v2/goals']);
    expect(sb.requests[0]!.body).toEqual({ title: 'Renamed', owner_id: grace.toUpperCase(), description: null });
    expect(await cli(['goal', 'create', '--input', join(dir, 'missing.json')])).toMatchObject({
      code: 2,
      stderr: `error: Cannot read ${join(dir, 'missing.json')}: no such file\n`,
    });
    expect((await cli(['goal', 'create', '--input', '-'], { input: '[1]' })).stderr).toBe(
      "error: Standard input must hold a JSON object (the goal's fields), not an array\n",
    );
    expect((await cli(['goal', 'create', '--input', '-'], { input: '{"title": ' })).stderr).toMatch(
      /^error: Standard input is not JSON: .*\nGive a JSON object, e\.g\. \{"title": "Reduce p95 API latency", "end_date": "2027-06-30"\}\.\n$/,
    );
    expect(w.sent()).toEqual(['POST /api/v2/goals']);
  });

  it('a 422 from the service: exit 2 with its message; piped input is kept as a draft and --resume sends it', async () => {
    const r = await cli(['goal', 'create', '--input', '-'], {
      input: JSON.stringify({ title: 'Backwards', start_date: '2026-12-01', end_date: '2026-11-01' }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('error: POST /api/v2/goals: 422 Unprocessable Entity: end_date must be on or after the start date (2026-12-01)');
    expect(drafts()).toHaveLength(1);
    // Sent again with the date fixed by a flag: the kept body, the flag over it.
    w.forget();
    const fixed = await cli(['goal', 'create', '--resume', '--end-date', '2027-01-31', '--json']);
    expect(fixed.code).toBe(0);
    expect(w.sent()).toEqual(['POST /api/v2/goals']);
    expect(sb.requests[0]!.body).toEqual({ title: 'Backwards', start_date: '2026-12-01', end_date: '2027-01-31' });
    expect(drafts()).toEqual([]);
    expect(await cli(['goal', 'create', '--resume'])).toMatchObject({ code: 2, stderr: 'error: There is no draft for a new goal\n' });
  });

  it('a failed POST keeps the piped description; --resume sends exactly what was kept', async () => {
    sb.inject({ method: 'POST', path: '/goals', status: 500, body: '{"error":"internal_error","message":"boom"}' });
    const r = await cli(['goal', 'create', '--title', 'Kept', '--description', '-', '--owner', ada], { input: 'Every word\nof it\n' });
    expect(r.code).toBe(1);
    // A 500 is an answer: no goal was made, so what was written simply waits.
    expect(r.stderr).toBe(
      'error: POST /api/v2/goals: 500 Internal Server Error: boom\nThe service is having trouble; try again in a few minutes.\nWhat you wrote is kept as a draft: `checkin goal create --resume` sends it (`checkin drafts` lists everything waiting).\n',
    );
    expect(drafts()).toHaveLength(1);
    const resumed = await cli(['goal', 'create', '--resume']);
    expect(resumed.code).toBe(0);
    expect(w.sent()).toEqual(['POST /api/v2/goals', 'POST /api/v2/goals']);
    expect(sb.requests.map((q) => q.body)).toEqual([
      { title: 'Kept', description: 'Every word\nof it', owner_id: ada },
      { title: 'Kept', description: 'Every word\nof it', owner_id: ada },
    ]);
    expect(drafts()).toEqual([]);
  });

  it('refuses before any request: no title without a terminal, bad dates and parents, two readers of stdin, unknown names', async () => {
    expect(await cli(['goal', 'create', '--end-date', '2026-12-31'])).toMatchObject({
      code: 2,
      stderr: 'error: A goal needs a title\nGive it as an option: --title "…" (or "title" in the --input body).\n',
    });
    expect(await cli(['goal', 'create', '--title', 't', '--end-date', '31/12/2026'])).toMatchObject({
      code: 2,
      stderr: 'error: --end-date takes a date written YYYY-MM-DD, or none; got "31/12/2026"\n',
    });
    expect(await cli(['goal', 'create', '--title', 't', '--start-date', '2026-02-30'])).toMatchObject({
      code: 2,
      stderr: 'error: --start-date takes a date written YYYY-MM-DD, or none; got "2026-02-30"\n',
    });
    expect(await cli(['goal', 'create', '--title', 't', '--parent', 'revenue'])).toMatchObject({
      code: 2,
      stderr: 'error: --parent takes a goal id (a UUID) or none; got "revenue"\nList goals and their ids with `checkin goals`.\n',
    });
    expect(await cli(['goal', 'create', '--title', 't', '--description', '-', '--input', '-'])).toMatchObject({
      code: 2,
      stderr: 'error: Only one option can read standard input ("-"): --description or --input\n',
    });
    expect(await cli(['goal', 'create', '--title', 't', '--edit'])).toMatchObject({
      code: 2,
      stderr: 'error: --edit needs a terminal for the editor\nGive the description as an option: --description "…" (- reads standard input).\n',
    });
    expect(sb.requests).toEqual([]);
    const r = await cli(['goal', 'create', '--title', 't', '--contributor', 'Linux Torvalds']);
    expect(r).toMatchObject({ code: 2, stderr: 'error: No person named "Linux Torvalds". Did you mean Linus Torvalds (@linus)?\n' });
    expect(sb.requests.some((q) => q.method === 'POST')).toBe(false);
  });

  it('on a terminal with no title: asks for each field, previews, and sends what was answered', async () => {
    const p = scripted(['', 'Write the runbook', '- Alerts\n- Escalation', '', '2027-02-30', '2027-02-28', '@nobody', '@linus', [platform], 'grace', '', true]);
    const r = await cli(['goal', 'create'], { tty: true, prompter: p });
    expect(r.code).toBe(0);
    expect(p.asked.map((q) => q.message)).toEqual([
      'Title',
      'Title',
      'Description (Markdown; an empty line ends it)',
      'Start date (YYYY-MM-DD, empty for none)',
      'Due date (YYYY-MM-DD, empty for none)',
      'Due date (YYYY-MM-DD, empty for none)',
      'Owner (me, a name or @username)',
      'Owner (me, a name or @username)',
      'Teams',
      'Contributors (names or @usernames, comma-separated; empty for none)',
      'Parent goal id (empty for none)',
      'Create it?',
    ]);
    expect(p.asked.find((q) => q.kind === 'checkbox')!.choices).toEqual(['[ ] Platform', '[ ] Mobile']);
    expect(r.stderr).toContain('A goal needs a title.\n');
    expect(r.stderr).toContain('The due date takes a date written YYYY-MM-DD, or none; got "2027-02-30"\n');
    expect(r.stderr).toContain('No person named "@nobody"');
    expect(r.stdout).toContain(
      'Write the runbook\nowner        @linus\nteams        Platform\ncontributors grace\ndue          2027-02-28\n\n  - Alerts\n  - Escalation\n',
    );
    expect(sb.requests.filter((q) => q.method === 'POST').map((q) => q.body)).toEqual([
      {
        title: 'Write the runbook',
        description: '- Alerts\n- Escalation',
        end_date: '2027-02-28',
        owner_id: linus,
        team_ids: [platform],
        contributor_ids: [grace],
      },
    ]);
  });

  it('on a terminal, "No" at the preview sends nothing and keeps a draft (130); --resume sends it', async () => {
    const r = await cli(
      ['goal', 'create', '--owner', 'me', '--team', 'none', '--contributor', 'none', '--parent', 'none', '--start-date', 'none', '--end-date', 'none'],
      { tty: true, prompter: scripted(['Kept title', 'Kept words', false]) },
    );
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(
      '\nPreview (not created yet):\nNot created. What you wrote is kept as a draft: `checkin goal create --resume` sends it (`checkin drafts` lists everything waiting).\n',
    );
    expect(sb.requests.some((q) => q.method === 'POST')).toBe(false);
    const sent = await cli(['goal', 'create', '--resume']);
    expect(sent.code).toBe(0);
    expect(sb.requests.filter((q) => q.method === 'POST').map((q) => q.body)).toEqual([
      { title: 'Kept title', description: 'Kept words', start_date: null, end_date: null, parent_id: null, owner_id: ada, team_ids: [], contributor_ids: [] },
    ]);
    expect(drafts()).toEqual([]);
  });

  it('a hostile title comes back sanitised on a terminal, exact in --json', async () => {
    const title = `Evil${POISON}`;
    const shown = await cli(['goal', 'create', '--title', title, '--owner', ada], { tty: true, color: 1 });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Evil');
    expect(shown.stdout + shown.stderr).not.toMatch(FORBIDDEN);
    const json = await cli(['goal', 'create', '--title', title, '--owner', ada, '--json', 'title']);
    expect(JSON.parse(json.stdout)).toEqual({ title });
  });
});

describe('goal edit', () => {
  it('flags: one PATCH with only what was given; none clears a date, the parent, the teams', async () => {
    const billing = goal('Ship the v2 billing API').id;
    const r = await cli(['goal', 'edit', billing, '--title', 'Ship billing v2', '--end-date', 'none', '--parent', 'none', '--team', 'none', '--json']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual([`PATCH /api/v2/goals/${billing}`]);
    expect(sb.requests[0]!.body).toEqual({ title: 'Ship billing v2', end_date: null, parent_id: null, team_ids: [] });
    expect(JSON.parse(r.stdout)).toMatchObject({ id: billing, title: 'Ship billing v2', end_date: null, parent: null, teams: [] });
  });

  it('--input: the body from a file, contributors by name; a 422 (its own parent) exits 2 with the message', async () => {
    const revenue = goal('Grow self-serve revenue').id;
    const dir = tempDir('checkin-goal-input-');
    const file = join(dir, 'changes.json');
    writeFileSync(file, JSON.stringify({ archived: true, contributor_ids: ['@linus', 'me'] }));
    const r = await cli(['goal', 'edit', revenue, '--input', file]);
    expect(r.code).toBe(0);
    expect(sb.requests.at(-1)).toMatchObject({ method: 'PATCH', path: `/api/v2/goals/${revenue}`, body: { archived: true, contributor_ids: [linus, ada] } });
    w.forget();
    const bad = await cli(['goal', 'edit', revenue, '--parent', revenue]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      `error: PATCH /api/v2/goals/${revenue}: 422 Unprocessable Entity: parent_id must not be the goal itself or a goal below it`,
    );
    expect(w.sent()).toEqual([`PATCH /api/v2/goals/${revenue}`]);
  });

  it('refuses nothing to change without a terminal, and an id that is not a UUID', async () => {
    const billing = goal('Ship the v2 billing API').id;
    expect(await cli(['goal', 'edit', billing])).toMatchObject({
      code: 2,
      stderr:
        'error: Nothing to change: give --title, --description, --start-date, --end-date, --owner, --team, --contributor, --parent or --input (or --edit)\n',
    });
    expect(await cli(['goal', 'edit', 'billing', '--title', 'x'])).toMatchObject({
      code: 2,
      stderr: 'error: The goal id must be a UUID; "billing" is not one\nList your goals and their ids with `checkin goals`.\n',
    });
    expect(sb.requests).toEqual([]);
  });

  it('on a terminal with nothing given: the current values as defaults, only what changed is sent', async () => {
    // (a copy: the sandbox changes its record in place)
    const billing = { ...goal('Ship the v2 billing API') };
    const p = scripted(['Ship the v2 billing API', 'Invoices, webhooks and retries.\nAnd refunds.', billing.start_date!, '2027-01-15', true]);
    const r = await cli(['goal', 'edit', billing.id], { tty: true, prompter: p });
    expect(r.code).toBe(0);
    expect(p.asked.map((q) => [q.message, q.default])).toEqual([
      ['Title', 'Ship the v2 billing API'],
      ['Description (Markdown; an empty line ends it)', 'Invoices, webhooks and retries.'],
      ['Start date (YYYY-MM-DD, none to clear)', billing.start_date],
      ['Due date (YYYY-MM-DD, none to clear)', billing.end_date],
      ['Save the changes?', true],
    ]);
    expect(w.sent()).toEqual([`GET /api/v2/goals/${billing.id}`, `PATCH /api/v2/goals/${billing.id}`]);
    expect(sb.requests[1]!.body).toEqual({ description: 'Invoices, webhooks and retries.\nAnd refunds.', end_date: '2027-01-15' });
    // Nothing changed: nothing sent.
    w.forget();
    const same = await cli(['goal', 'edit', billing.id], {
      tty: true,
      prompter: scripted(['Ship the v2 billing API', 'Invoices, webhooks and retries.\nAnd refunds.', billing.start_date!, '2027-01-15']),
    });
    expect(same).toMatchObject({ code: 0, stderr: 'Nothing changed; nothing was sent.\n' });
    expect(w.sent()).toEqual([`GET /api/v2/goals/${billing.id}`]);
  });

  it('--edit opens the description in the editor; what is written is sent with the other flags', async () => {
    const billing = goal('Ship the v2 billing API').id;
    let opened = '';
    const r = await cli(['goal', 'edit', billing, '--edit', '--title', 'Billing v2'], {
      tty: true,
      prompter: scripted([]),
      editor: {
        edit: async (t) => {
          opened = t;
          return `Invoices and refunds.\n${t.slice(t.indexOf('<!--'))}`;
        },
      },
    });
    expect(r.code).toBe(0);
    expect(opened.startsWith('Invoices, webhooks and retries.\n\n<!-- checkin:\n     The description of the goal “Ship the v2 billing API” (Markdown).')).toBe(
      true,
    );
    expect(sb.requests.at(-1)).toMatchObject({ method: 'PATCH', body: { title: 'Billing v2', description: 'Invoices and refunds.' } });
  });
});
