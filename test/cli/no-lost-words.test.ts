// Never lose a word: every way typed text was lost before, tried again through the CLI.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { contentText } from '../../src/domain/outbox.js';
import { FakeClock, runIn, TODAY, useWorld } from '../helpers/harness.js';
import { draftEntries } from '../helpers/outbox.js';

const w = useWorld();
const drafts = () => draftEntries(w.configDir);
const fail = (method: string) => w.sb.inject({ method, status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' });

describe('typed text survives', () => {
  it('a team name that does not resolve, after stdin was read', async () => {
    const r = await w.cli(['today', '-i', '-', '-t', 'Nope'], { input: 'Piped words\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: No team named "Nope"\nWhat you wrote is kept as a draft: `checkin today --resume -t <team>` sends it (`checkin drafts` lists everything waiting).\n',
    );
    expect(drafts().map((d) => d.content)).toEqual([{ kind: 'answers', answers: { intentions: 'Piped words' } }]);
    const resumed = await w.cli(['today', '--resume', '-t', 'Mobile', '--json']);
    expect(resumed.code).toBe(0);
    expect(w.sb.requests.at(-1)!.body).toEqual({ intentions: 'Piped words', team_ids: [w.team('Mobile')] });
    expect(drafts()).toEqual([]);
  });

  it('a damaged drafts database: set aside whole with one warning (never deleted), and the new draft is kept and sent', async () => {
    const dir = join(w.configDir, 'drafts');
    fail('PATCH');
    expect((await w.cli(['today', '-p', '-'], { input: 'first\n' })).code).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['outbox.db', 'outbox.db-shm', 'outbox.db-wal']);
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    writeFileSync(join(dir, 'outbox.db'), 'not a database, a half-written file of some other program '.repeat(100));
    fail('PATCH');
    const r = await w.cli(['today', '-p', '-'], { input: 'second\n' });
    // Set aside when first opened; a new database holds the new words.
    const db = join(dir, 'outbox.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(r.stderr).toMatch(
      new RegExp(
        `^warning: the drafts database ${db} was damaged \\(file is not a database\\); it was set aside as ${db}\\.damaged-\\d+ \\(not deleted: what it holds may still be read by hand\\) and no draft could be read from it\\nerror: PATCH /api/v2/check-ins/${TODAY}: 500 Internal Server Error: down\\n`,
      ),
    );
    expect(r.code).toBe(1);
    expect(drafts().map((d) => d.content)).toEqual([{ kind: 'answers', answers: { previous: 'second' } }]);
    const aside = readdirSync(dir).filter((f) => f.includes('.damaged-'));
    expect(aside.map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(['not a database, a half-written file of some other program '.repeat(100)]);
    w.forget();
    const sent = await w.cli(['today', '--resume', '--json']);
    expect([sent.code, sent.stderr]).toEqual([0, '']);
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`, `PATCH /api/v2/check-ins/${TODAY}`]);
    expect(w.sb.requests.at(-1)!.body).toEqual({ previous: 'second' });
    expect(drafts()).toEqual([]);
  });

  it('a damaged config.json: one warning, the command works (CHECKIN_TOKEN); login sets it aside', async () => {
    mkdirSync(w.configDir, { recursive: true });
    writeFileSync(join(w.configDir, 'config.json'), '');
    const r = await w.cli(['me', '--json']);
    expect(r.code).toBe(0);
    // `me` caches what it fetched in cache.json: the damaged settings are neither written over nor moved.
    expect(r.stderr).toBe(`warning: ${join(w.configDir, 'config.json')} cannot be read (not a JSON object); going on without it\n`);
    expect(readFileSync(join(w.configDir, 'config.json'), 'utf8')).toBe('');
    writeFileSync(join(w.configDir, 'config.json'), '[1, 2');
    const login = await w.cli(['login', '--with-token'], { input: w.sb.token, env: { CHECKIN_TOKEN: undefined } });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/warning: the damaged \S+config\.json was set aside as \S+config\.json\.damaged-\d+\n/);
    expect(JSON.parse(readFileSync(join(w.configDir, 'config.json'), 'utf8')).profiles.default.token).toBe(w.sb.token);
  });

  it('a read-only config folder: reads work; a write that fails prints what was typed', async () => {
    mkdirSync(w.configDir, { recursive: true });
    // A 0500 folder stops everyone but root, who writes anyway: run as root, the config folder is
    // a file's child instead, which nobody can write into.
    const asRoot = process.getuid?.() === 0;
    const dir = asRoot ? join(w.configDir, 'x', 'y') : w.configDir;
    if (asRoot) writeFileSync(join(w.configDir, 'x'), '');
    // The private temp folder is inside it too: no draft can be kept anywhere.
    const env = { CHECKIN_CONFIG_DIR: dir, TMPDIR: join(dir, 'tmp') };
    const why = asRoot ? 'a file is in the way of the folder' : 'permission denied';
    chmodSync(w.configDir, 0o500);
    try {
      const list = await w.cli(['list', '--person', 'me', '--json'], { env });
      expect([list.code, list.stderr]).toEqual([0, '']);
      fail('PATCH');
      const r = await w.cli(['today', '-i', '-'], { input: 'Do not lose me\n', env });
      // Every word on the screen, in the editor's template (what `checkin today -e` would open).
      const typed = contentText({ kind: 'answers', answers: { intentions: 'Do not lose me' } });
      expect(typed).toContain('\n## Intentions\n<!-- What do you intend to do next? -->\nDo not lose me\n');
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `warning: Cannot keep a draft in ${join(dir, 'drafts')} (${why}); going on without one\n` +
          `error: PATCH /api/v2/check-ins/${TODAY}: 500 Internal Server Error: down\nThe service is having trouble; try again in a few minutes.\n` +
          `No draft could be kept; here is what you wrote:\n${typed}\n`,
      });
      expect(readdirSync(w.configDir)).toEqual(asRoot ? ['x'] : []);
    } finally {
      chmodSync(w.configDir, 0o700);
    }
  });

  it('--resume finds the draft whatever the URL spelling (trailing /, localhost)', async () => {
    fail('PATCH');
    expect((await w.cli(['today', '-b', '-'], { input: 'stuck\n', env: { CHECKIN_API_URL: `${w.sb.url}/` } })).code).toBe(1);
    const r = await w.cli(['today', '--resume', '--json'], { env: { CHECKIN_API_URL: w.sb.url.replace('127.0.0.1', 'localhost') } });
    expect(r.code).toBe(0);
    expect(w.sb.requests.at(-1)!.body).toEqual({ blockers: 'stuck' });
  });

  it('--resume finds the draft however the check-in was named (UUID, then today)', async () => {
    const id = checkInId(w.id('ada'), TODAY);
    fail('PATCH');
    expect((await w.cli(['checkin', id, '-i', '-'], { input: 'by id\n' })).code).toBe(1);
    w.forget();
    const r = await w.cli(['today', '--resume', '--json']);
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`, `PATCH /api/v2/check-ins/${TODAY}`]);
    expect(drafts()).toEqual([]);
  });

  it("a draft for yesterday's today: --resume says which day and how to send it", async () => {
    fail('PATCH');
    expect((await w.cli(['today', '-i', '-'], { input: 'late\n' })).code).toBe(1);
    const tomorrow = new FakeClock(new Date(w.clock.now().getTime() + 86_400_000));
    const r = await runIn(['today', '--resume'], w.env, tomorrow);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: There is no draft for today (${addDays(TODAY, 1)}); there is one for ${TODAY}\nSend it with \`checkin checkin ${TODAY} --resume\`.\n`,
    });
    expect((await runIn(['checkin', TODAY, '--resume', '--json'], w.env, tomorrow)).code).toBe(0);
  });

  it('a comment whose check-in cannot be looked up is kept, and --resume sends it', async () => {
    w.sb.inject({ method: 'GET', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' });
    const r = await w.cli(['comments', 'yesterday', '--add', '-'], { input: 'Kept before the lookup\n' });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').at(-2)).toBe(
      'What you wrote is kept as a draft: `checkin comments yesterday --resume` sends it (`checkin drafts` lists everything waiting).',
    );
    const sent = await w.cli(['comments', 'yesterday', '--resume']);
    expect(sent.code).toBe(0);
    const id = checkInId(w.id('ada'), addDays(TODAY, -1));
    expect(w.sb.requests.at(-1)).toMatchObject({ method: 'POST', path: `/api/v2/check-ins/${id}/comments`, body: { body: 'Kept before the lookup\n' } });
    expect(drafts()).toEqual([]);
  });

  it('a goal-update body piped without a title is kept; --resume --title sends it', async () => {
    const goal = w.sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;
    const r = await w.cli(['goal', 'update', goal, '--body', '-'], { input: 'A long body\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: A goal update needs --title and --body\nGive them as options: --title "…" --body "…" (--body - reads standard input). What you wrote is kept as a draft: \`checkin goal update ${goal} --resume\` sends it (\`checkin drafts\` lists everything waiting).\n`,
    );
    expect(drafts().map((d) => d.content)).toEqual([{ kind: 'goal-update', input: { body: 'A long body' } }]);
    const sent = await w.cli(['goal', 'update', goal, '--resume', '--title', 'Now with a title', '--json']);
    expect(sent.code).toBe(0);
    expect(w.sb.requests.at(-1)!.body).toEqual({ body: 'A long body', title: 'Now with a title' });
    expect(drafts()).toEqual([]);
  });

  it('a goal-update body piped beside a bad --confidence is on disk before the flag is refused', async () => {
    const goal = w.sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;
    const before = w.sb.requests.length;
    const r = await w.cli(['goal', 'update', goal, '--title', 'T', '--body', '-', '--confidence', 'sure'], { input: 'Piped words\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --confidence takes on-track, at-risk, off-track, 90, 60 or 30; got "sure"\nWhat you wrote is kept as a draft: \`checkin goal update ${goal} --resume --confidence <on-track|at-risk|off-track>\` sends it (\`checkin drafts\` lists everything waiting).\n`,
    );
    expect(w.sb.requests.length).toBe(before);
    expect(drafts().map((d) => d.content)).toEqual([{ kind: 'goal-update', input: { title: 'T', body: 'Piped words' } }]);
    const sent = await w.cli(['goal', 'update', goal, '--resume', '--confidence', 'at-risk', '--json']);
    expect(sent.code).toBe(0);
    expect(w.sb.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/api/v2/goals/${goal}/goal-updates`,
      body: { title: 'T', body: 'Piped words', confidence: 60 },
    });
    expect(drafts()).toEqual([]);
  });
});
