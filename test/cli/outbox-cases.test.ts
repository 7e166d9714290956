// Issue 39's cases, as a person meets them, against the sandbox (its request log) and the outbox
// (its rows): following checkin's own advice never sends older words over newer ones; another
// person's draft is not sent as you; a create the service accepted is a success whatever its
// answer holds; a deep answer is a clear error; commands that write nothing never open the outbox.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInId } from '../../src/sandbox/ids.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { draftEntries, draftsDir, outboxRows } from '../helpers/outbox.js';
import { scripted } from '../helpers/prompter.js';

const w = useWorld();
const DOWN = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' };

describe('a resume never writes over newer words', () => {
  it('A fails and is kept, B is sent; `today --resume` (the note’s advice) without a terminal refuses: exit 1, A kept and said, B stays on the service', async () => {
    w.sb.inject({ method: 'PATCH', ...DOWN });
    expect((await w.cli(['today', '-p', '-'], { input: 'Words A\n' })).code).toBe(1);
    await w.clock.sleep(60_000);
    const b = await w.cli(['today', '-p', '-'], { input: 'Words B\n' });
    expect([b.code, b.stderr]).toEqual([
      0,
      'note: another draft for this check-in is still waiting: `checkin today --resume` sends it, `checkin drafts` shows it.\n',
    ]);
    const [a] = draftEntries(w.configDir);
    w.forget();
    const r = await w.cli(['today', '--resume']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: The draft ${a.id} was kept without seeing the check-in, so answers on the service (saved Sun 22 Nov 09:31) may be newer than it; it was not sent and is still kept\nAt a terminal, \`checkin checkin ${TODAY} --resume\` shows both and asks; \`checkin drafts drop ${a.id}\` drops the draft.\n`,
    });
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
    expect(draftEntries(w.configDir).map((e) => e.content)).toEqual([{ kind: 'answers', answers: { previous: 'Words A' } }]);
    const now = await w.cli(['today', '--json', 'previous']);
    expect(JSON.parse(now.stdout)).toEqual({ previous: 'Words B' });
  });

  it('on a terminal both are shown and asked: "keep what is there" sends nothing and keeps A; "send mine" sends A', async () => {
    w.sb.inject({ method: 'PATCH', ...DOWN });
    expect((await w.cli(['today', '-p', '-'], { input: 'Words A\n' })).code).toBe(1);
    await w.clock.sleep(60_000);
    expect((await w.cli(['today', '-p', '-'], { input: 'Words B\n' })).code).toBe(0);
    w.forget();
    const keep = await w.cli(['today', '--resume'], { tty: true, prompter: scripted(['theirs']) });
    expect(keep.code).toBe(130);
    expect(keep.stderr).toContain('On the service now:\n');
    expect(keep.stderr).toContain('Words B');
    expect(keep.stderr).toContain('The draft:\n');
    expect(keep.stderr).toContain('Words A');
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
    expect(outboxRows(w.configDir)).toHaveLength(1);
    // Ctrl-C at the question: the same, said the same way (not a bare "Cancelled").
    w.forget();
    const stopped = await w.cli(['today', '--resume'], { tty: true, prompter: scripted(['CANCEL']) });
    expect(stopped.code).toBe(130);
    expect(stopped.stderr.split('\n').at(-2)).toBe(
      `Nothing was sent; the check-in keeps what is there, and the draft ${outboxRows(w.configDir)[0]!.id} is still kept (\`checkin drafts drop ${outboxRows(w.configDir)[0]!.id}\` drops it)`,
    );
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
    expect(outboxRows(w.configDir)).toHaveLength(1);
    w.forget();
    const mine = await w.cli(['today', '--resume'], { tty: true, prompter: scripted(['mine']) });
    expect(mine.code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`, `PATCH /api/v2/check-ins/${TODAY}`]);
    expect(w.sb.requests.at(-1)!.body).toEqual({ previous: 'Words A' });
    expect(outboxRows(w.configDir)).toEqual([]);
  });
});

describe('a resume of a goal update edit never writes over newer words', () => {
  /** Changes A fail and are kept; a minute later changes B are saved; the update's id and A's draft. */
  async function aKeptBSaved() {
    const me = w.id('ada');
    const u = w.sb.service.data.goal_updates.find((x) => x.person_id === me)!;
    w.sb.inject({ method: 'PATCH', ...DOWN });
    expect((await w.cli(['goal', 'update', 'edit', u.id, '--body', 'Words A'])).code).toBe(1);
    await w.clock.sleep(60_000);
    expect((await w.cli(['goal', 'update', 'edit', u.id, '--body', 'Words B'])).code).toBe(0);
    const [a] = draftEntries(w.configDir);
    w.forget();
    return { id: u.id, a: a! };
  }

  it('without a terminal `goal update edit --resume` refuses: exit 1, A kept and said, B stays; one GET, no PATCH', async () => {
    const { id, a } = await aKeptBSaved();
    const r = await w.cli(['goal', 'update', 'edit', id, '--resume']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: The draft ${a.id} was kept without seeing the goal update, so a goal update on the service (saved Sun 22 Nov 09:31) may be newer than it; it was not sent and is still kept\nAt a terminal, \`checkin goal update edit ${id} --resume\` shows both and asks; \`checkin drafts drop ${a.id}\` drops the draft.\n`,
    });
    expect(w.sent()).toEqual([`GET /api/v2/goal-updates/${id}`]);
    expect(draftEntries(w.configDir).map((e) => e.content)).toEqual([{ kind: 'goal-update', input: { body: 'Words A' } }]);
    expect(w.sb.service.data.goal_updates.find((x) => x.id === id)!.body).toBe('Words B');
    // `drafts send` is held to the same: refused, kept.
    expect((await w.cli(['drafts', 'send', a.id])).code).toBe(1);
    expect(w.sent().filter((q) => q.startsWith('PATCH'))).toEqual([]);
    expect(draftEntries(w.configDir)).toHaveLength(1);
  });

  it('on a terminal both are shown: "keep what is there" sends nothing and keeps A; "send mine" sends A', async () => {
    const { id } = await aKeptBSaved();
    const keep = await w.cli(['goal', 'update', 'edit', id, '--resume'], { tty: true, prompter: scripted(['theirs']) });
    expect(keep.code).toBe(130);
    expect(keep.stderr).toContain('On the service now:\n');
    expect(keep.stderr).toContain('Words B');
    expect(keep.stderr).toContain('The draft:\n');
    expect(keep.stderr).toContain('Words A');
    expect(w.sent()).toEqual([`GET /api/v2/goal-updates/${id}`]);
    expect(outboxRows(w.configDir)).toHaveLength(1);
    w.forget();
    const mine = await w.cli(['goal', 'update', 'edit', id, '--resume'], { tty: true, prompter: scripted(['mine']) });
    expect(mine.code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/goal-updates/${id}`, `PATCH /api/v2/goal-updates/${id}`]);
    expect(w.sb.requests.at(-1)!.body).toEqual({ body: 'Words A' });
    expect(outboxRows(w.configDir)).toEqual([]);
  });
});

describe('bound to an account', () => {
  it('an entry kept for another person (no token recorded) is not sent with this token: one GET /me, refused, named, kept', async () => {
    // 0.1.0's file for ada's activity, kept when her token was in the keychain (no token hash recorded).
    const dir = draftsDir(w.configDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const entry = {
      checkin_outbox: 1,
      id: 'adas0001',
      account: { api_url: w.sb.url, person_id: w.id('ada') },
      target: { kind: 'activity' },
      content: { kind: 'activity', input: { group: 'git', description: "Ada's words" } },
      made: 'piped',
      created_at: '2026-11-22T08:00:00.000Z',
      saved_at: '2026-11-22T08:00:00.000Z',
    };
    writeFileSync(join(dir, 'adas0001.json'), JSON.stringify(entry, null, 2), { mode: 0o600 });
    // Grace's token now, and nothing cached.
    const grace = 'grace-token-for-the-test';
    w.sb.service.data.tokens.push({ token: grace, person_id: w.id('grace'), scope: 'write' } as (typeof w.sb.service.data.tokens)[number]);
    const r = await w.cli(['drafts', 'send', 'adas0001'], { env: { CHECKIN_TOKEN: grace } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: The draft adas0001 was kept for .*, not for you here; it was not sent and is still kept\n/);
    expect(w.sent()).toEqual(['GET /api/v2/me']);
    expect(draftEntries(w.configDir).map((e) => e.id)).toEqual(['adas0001']);
  });
});

describe('what the service answers', () => {
  const deep = (n: number) => `{"id":${'['.repeat(n)}${']'.repeat(n)}}`;

  it('a comment the service accepted with a 200 000-deep answer: exit 0, the draft removed, one line says the answer could not be shown', async () => {
    const on = checkInId(w.id('grace'), TODAY);
    w.sb.inject({ method: 'POST', path: /comments$/, status: 201, headers: { 'content-type': 'application/json' }, body: deep(200_000) });
    const r = await w.cli(['comments', on, '--add', 'Nice work']);
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: `POST /api/v2/check-ins/${on}/comments: the service accepted it, but its answer could not be shown (answered 201 with JSON nested more than 64 levels deep; checkin did not read it); the draft is removed.\n`,
    });
    expect(outboxRows(w.configDir)).toEqual([]);
  });

  it('a read whose answer nests deeper than 64: one clear line, exit 1, never a stack overflow', async () => {
    w.sb.inject({ method: 'GET', status: 200, headers: { 'content-type': 'application/json' }, body: deep(200_000) });
    const r = await w.cli(['today', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: GET \/api\/v2\/\S+: answered 200 with JSON nested more than 64 levels deep; checkin did not read it\n/);
    expect(r.stderr).not.toMatch(/Maximum call stack/);
  });
});

describe('commands that write nothing never open the outbox', () => {
  it('`today --json` makes no drafts folder, and leaves a 0.1.0 file where it is (no database opened)', async () => {
    expect((await w.cli(['today', '--json'])).code).toBe(0);
    expect(existsSync(draftsDir(w.configDir))).toBe(false);
    const dir = draftsDir(w.configDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'abcd2345.json'),
      JSON.stringify({
        checkin_outbox: 1,
        id: 'abcd2345',
        account: { api_url: w.sb.url },
        target: { kind: 'activity' },
        content: { kind: 'activity', input: { group: 'git', description: 'x' } },
        made: 'typed',
        created_at: '2026-11-22T08:00:00.000Z',
        saved_at: '2026-11-22T08:00:00.000Z',
      }),
    );
    for (const args of [['today', '--json'], ['list'], ['me'], ['goals']]) expect((await w.cli(args)).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['abcd2345.json']);
  });
});
