// The outbox across runs (issue 29): every write is an entry of its own, a later send never takes
// or replaces an earlier one, and `--resume` sends each waiting entry once, oldest first. In-process
// against the sandbox on a fake clock; the sandbox is made to fail with canned answers.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { otherSandbox, TODAY, useWorld } from '../helpers/harness.js';
import { folderEntries, folderView, rowsIn } from '../helpers/outbox.js';
import { scripted } from '../helpers/prompter.js';

const KEPT = (cmd: string) => `What you wrote is kept as a draft: \`${cmd}\` sends it (\`checkin drafts\` lists everything waiting).\n`;
const json = { 'content-type': 'application/json' };

/** The outbox of a drafts folder: its entries as files (test/helpers/outbox.ts), and the entries oldest first. */
const filesIn = folderView;
/** An entry's row as stored (its words, whose, what for), to see it untouched. */
const rowData = (dir: string, id: string) => rowsIn(dir).find((r) => r.id === id)?.data;
const entriesIn = (dir: string) => folderEntries(dir).sort((a, b) => (a.created_at < b.created_at ? -1 : 1));

/** How a refused write is said, by the status the service answered with; and its exit code. */
const REFUSALS = [
  {
    status: 500,
    message: 'boom',
    code: 1,
    lines: (req: string) => `error: ${req}: 500 Internal Server Error: boom\nThe service is having trouble; try again in a few minutes.\n`,
  },
  {
    status: 403,
    message: 'forbidden',
    code: 4,
    lines: (req: string) =>
      `error: The token is read-only: the service refused ${req} (403)\nWrites need a token with the "Read + write" scope: make one in the service's integrations settings, then run \`checkin login\`.\n`,
  },
  { status: 413, message: 'too large', code: 2, lines: (req: string) => `error: ${req}: 413 Payload Too Large: too large\n` },
];

describe('three commits logged while the service is down', () => {
  const w = useWorld();
  const dir = () => join(w.configDir, 'drafts');

  it('are three entries; `log --resume` posts exactly three, in the order written, and the folder is left empty', async () => {
    const commits = ['Fix the flaky invoice test', 'Add the retries to the webhook', 'Bump the SDK'];
    for (const commit of commits) {
      w.sb.inject({ method: 'POST', status: 503, headers: json, body: '{"message":"maintenance"}' });
      const r = await w.cli(['log', '-', '--group', 'git'], { input: `${commit}\n` });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: POST /api/v2/activities: 503 Service Unavailable: maintenance\nThe service is having trouble; try again in a few minutes.\n${KEPT('checkin log --resume')}`,
      });
      await w.clock.sleep(60_000); // the next commit, a minute later
    }
    expect(w.sent()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities', 'POST /api/v2/activities']);
    const kept = entriesIn(dir());
    expect(filesIn(dir())).toEqual(kept.map((e) => `${e.id}.json`).sort());
    expect(kept).toEqual(
      commits.map((description, i) => {
        const at = new Date(Date.parse('2026-11-22T09:30:00Z') + i * 60_000).toISOString();
        return {
          id: expect.stringMatching(/^[a-z0-9]{8}$/),
          account: { api_url: w.sb.url, token: createHash('sha256').update(w.sb.token).digest('hex').slice(0, 16), profile: 'default' },
          target: { kind: 'activity' },
          content: { kind: 'activity', input: { group: 'git', description } },
          made: 'piped',
          base: 'new',
          created_at: at,
          saved_at: at,
        };
      }),
    );

    w.forget();
    const resumed = await w.cli(['log', '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toBe('');
    expect(w.sent()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities', 'POST /api/v2/activities']);
    expect(w.sb.requests.map((q) => q.body)).toEqual(commits.map((description) => ({ group: 'git', description })));
    expect(resumed.stdout.split('\n')).toEqual([
      ...commits.map((c) => expect.stringMatching(new RegExp(`^\\S+\\t2026-11-22T09:33:00Z\\tapi\\tAda Lovelace\\t${c}\\t$`))),
      '',
    ]);
    expect(filesIn(dir())).toEqual([]);

    w.forget();
    expect(await w.cli(['log', '--resume'])).toEqual({ code: 2, stdout: '', stderr: 'error: There is no draft for an activity\n' });
    expect(w.sent()).toEqual([]);
  });
});

describe('a later send never takes an earlier entry', () => {
  const w = useWorld();
  const dir = () => join(w.configDir, 'drafts');

  for (const refusal of REFUSALS)
    it(`today: intentions and blockers refused (${refusal.status}); a later -p sends only previous, says the earlier waits; --resume sends it`, async () => {
      const patch = `PATCH /api/v2/check-ins/${TODAY}`;
      w.sb.inject({ method: 'PATCH', status: refusal.status, headers: json, body: JSON.stringify({ message: refusal.message }) });
      const failed = await w.cli(['today', '-i', '-', '-b', 'waiting on DBA'], { input: '- Migrate the invoices table\n' });
      expect(failed).toEqual({ code: refusal.code, stdout: '', stderr: refusal.lines(patch) + KEPT('checkin today --resume') });
      const [first] = entriesIn(dir());
      expect(first).toMatchObject({
        target: { kind: 'check-in', key: TODAY },
        content: { kind: 'answers', answers: { intentions: '- Migrate the invoices table', blockers: 'waiting on DBA' } },
        made: 'piped',
      });
      const firstFile = rowData(dir(), first.id);

      await w.clock.sleep(60_000);
      w.forget();
      const later = await w.cli(['today', '-p', '-'], { input: 'Shipped the index\n' });
      expect(later.code).toBe(0);
      expect(w.sent()).toEqual([patch]);
      expect(w.sb.requests[0]!.body).toEqual({ previous: 'Shipped the index' });
      expect(later.stderr).toBe('note: another draft for this check-in is still waiting: `checkin today --resume` sends it, `checkin drafts` shows it.\n');
      expect(later.stdout).toContain('Previous\n  Shipped the index\nIntentions\n  —\nBlockers\n  —\n');
      // The first entry is still there, exactly as it was written; the later one is gone, sent.
      expect(filesIn(dir())).toEqual([`${first.id}.json`]);
      expect(rowData(dir(), first.id)).toBe(firstFile);

      w.forget();
      const resumed = await w.cli(['today', '--resume']);
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toBe('');
      // The check-in as it is now (nothing newer in the fields the draft fills), then the PATCH.
      expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`, patch]);
      expect(w.sb.requests[1]!.body).toEqual({ intentions: '- Migrate the invoices table', blockers: 'waiting on DBA' });
      expect(resumed.stdout).toContain('Previous\n  Shipped the index\nIntentions\n  - Migrate the invoices table\nBlockers\n  waiting on DBA\n');
      expect(filesIn(dir())).toEqual([]);
    });

  for (const refusal of REFUSALS)
    it(`comments: a piped comment refused (${refusal.status}); another --add is posted, says the first waits; --resume posts the first`, async () => {
      const id = checkInId(w.id('ada'), addDays(TODAY, -1));
      const post = `POST /api/v2/check-ins/${id}/comments`;
      w.sb.inject({ method: 'POST', status: refusal.status, headers: json, body: JSON.stringify({ message: refusal.message }) });
      const failed = await w.cli(['comments', 'yesterday', '--add', '-'], { input: 'Can the DBA look today?\n' });
      expect(failed).toEqual({ code: refusal.code, stdout: '', stderr: refusal.lines(post) + KEPT('checkin comments yesterday --resume') });
      expect(w.sent()).toEqual([`GET /api/v2/check-ins/${addDays(TODAY, -1)}`, post]);
      const [first] = entriesIn(dir());
      expect(first).toMatchObject({
        target: { kind: 'comment', on: 'check-in', id },
        content: { kind: 'comment', body: 'Can the DBA look today?\n' },
        made: 'piped',
      });
      const firstFile = rowData(dir(), first.id);

      await w.clock.sleep(60_000);
      w.forget();
      const later = await w.cli(['comments', 'yesterday', '--add', 'Thanks for the review']);
      expect(later.code).toBe(0);
      expect(w.sent()).toEqual([`GET /api/v2/check-ins/${addDays(TODAY, -1)}`, post]);
      expect(w.sb.requests[1]!.body).toEqual({ body: 'Thanks for the review' });
      expect(later.stderr).toBe(
        'note: another draft for this check-in (comment) is still waiting: `checkin comments yesterday --resume` sends it, `checkin drafts` shows it.\n',
      );
      expect(filesIn(dir())).toEqual([`${first.id}.json`]);
      expect(rowData(dir(), first.id)).toBe(firstFile);

      w.forget();
      const resumed = await w.cli(['comments', 'yesterday', '--resume']);
      expect(resumed).toMatchObject({ code: 0, stderr: '' });
      expect(w.sent()).toEqual([`GET /api/v2/check-ins/${addDays(TODAY, -1)}`, post]);
      expect(w.sb.requests[1]!.body).toEqual({ body: 'Can the DBA look today?\n' });
      expect(filesIn(dir())).toEqual([]);
    });

  it('comments: a comment kept when the check-in could not be found (under its date) is said after another is posted', async () => {
    const date = addDays(TODAY, -1);
    const id = checkInId(w.id('ada'), date);
    w.sb.inject({ method: 'GET', path: `/check-ins/${date}`, status: 500, headers: json, body: '{"message":"boom"}' });
    const failed = await w.cli(['comments', 'yesterday', '--add', '-'], { input: 'Can the DBA look today?\n' });
    expect(failed).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: GET /api/v2/check-ins/${date}: 500 Internal Server Error: boom\nThe service is having trouble; try again in a few minutes.\n${KEPT('checkin comments yesterday --resume')}`,
    });
    const [first] = entriesIn(dir());
    expect(first).toMatchObject({ target: { kind: 'comment', on: 'check-in', id: date }, content: { kind: 'comment', body: 'Can the DBA look today?\n' } });

    w.forget();
    const later = await w.cli(['comments', 'yesterday', '--add', 'Thanks for the review']);
    expect(later.code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${date}`, `POST /api/v2/check-ins/${id}/comments`]);
    expect(later.stderr).toBe(
      'note: another draft for this check-in (comment) is still waiting: `checkin comments yesterday --resume` sends it, `checkin drafts` shows it.\n',
    );
    expect(filesIn(dir())).toEqual([`${first.id}.json`]);

    w.forget();
    expect(await w.cli(['comments', 'yesterday', '--resume'])).toMatchObject({ code: 0, stderr: '' });
    expect(w.sb.requests.filter((q) => q.method === 'POST').map((q) => q.body)).toEqual([{ body: 'Can the DBA look today?\n' }]);
    expect(filesIn(dir())).toEqual([]);
  });
});

/**
 * 02:30 UTC on Sunday 22 November, still Saturday 21 November in Grace's zone (New York): Grace pipes
 * `input` to `today` while GET /me and the PATCH fail — the profile could not be read, so the
 * machine's date, and the send failed. The sandbox, her drafts folder and environment, and that run.
 */
async function keptBeforeTheZoneWasKnown(input: string) {
  const w = await otherSandbox({}, new Date('2026-11-22T02:30:00Z'));
  const dir = join(w.env.CHECKIN_CONFIG_DIR!, 'drafts');
  const grace = { CHECKIN_TOKEN: 'sandbox_pat_grace', TZ: undefined };
  w.sb.inject(
    { method: 'GET', path: '/me', status: 500, headers: json, body: '{"message":"boom"}' },
    { method: 'PATCH', status: 500, headers: json, body: '{"message":"boom"}' },
  );
  const run = await w.cli(['today', '-p', '-'], { env: grace, input }).catch(async (err: unknown) => {
    await w.sb.close();
    throw err;
  });
  return { w, dir, grace, run };
}

describe("the machine's date is not the profile's", () => {
  it("a draft kept earlier for the machine's date is untouched by a piped send to the profile's date (me not cached)", async () => {
    const { w, dir, grace, run: earlier } = await keptBeforeTheZoneWasKnown('Kept for the machine day\n');
    try {
      expect(earlier).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: PATCH /api/v2/check-ins/2026-11-22: 500 Internal Server Error: boom\nThe service is having trouble; try again in a few minutes.\n${KEPT('checkin today --resume')}`,
      });
      expect(w.sb.requests.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['GET /api/v2/me 500', 'PATCH /api/v2/check-ins/2026-11-22 500']);
      const [kept] = entriesIn(dir);
      expect(kept).toMatchObject({
        target: { kind: 'check-in', key: '2026-11-22' },
        content: { kind: 'answers', answers: { previous: 'Kept for the machine day' } },
      });
      const keptFile = rowData(dir, kept.id);

      await w.clock.sleep(60_000);
      w.sb.requests.length = 0;
      const piped = await w.cli(['today', '-p', '-'], { env: grace, input: 'Sent for the profile day\n' });
      expect(piped.code).toBe(0);
      expect(piped.stderr).toBe('');
      // me was not cached: asked once, and its zone moved this run's words to Saturday.
      expect(w.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/me', 'PATCH /api/v2/check-ins/2026-11-21']);
      expect(w.sb.requests[1]!.body).toEqual({ previous: 'Sent for the profile day' });
      expect(filesIn(dir)).toEqual([`${kept.id}.json`]);
      expect(rowData(dir, kept.id)).toBe(keptFile);
    } finally {
      await w.sb.close();
    }
  });
});

describe("piped before the person's zone was known", () => {
  it("kept under the machine's date while GET /me failed; `today --resume` sends it for the person's date when it was typed", async () => {
    const { w, dir, grace, run } = await keptBeforeTheZoneWasKnown('Typed on Saturday evening\n');
    try {
      expect(run.code).toBe(1);
      const [kept] = entriesIn(dir);
      expect(kept).toMatchObject({ target: { kind: 'check-in', key: '2026-11-22' }, day_guessed: true });
      await w.clock.sleep(60_000);
      // Her check-in that day holds no *previous*: the draft, kept without seeing it, replaces nothing (else it asks first).
      w.sb.service.data.check_ins.find((c) => c.person_id === w.sb.service.tokenRecord('sandbox_pat_grace')!.person_id && c.date === '2026-11-21')!.previous =
        null;
      w.sb.requests.length = 0;
      const resumed = await w.cli(['today', '--resume'], { env: grace });
      expect([resumed.code, resumed.stderr]).toEqual([0, '']);
      expect(w.sb.requests.filter((q) => q.method === 'PATCH').map((q) => [q.path, q.body])).toEqual([
        ['/api/v2/check-ins/2026-11-21', { previous: 'Typed on Saturday evening' }],
      ]);
      expect(filesIn(dir)).toEqual([]);
    } finally {
      await w.sb.close();
    }
  });
});

describe('kept through a URL that is not the service (…/api/v1)', () => {
  const w = useWorld();
  const dir = () => join(w.configDir, 'drafts');
  const wrongDoor = async () => {
    const v1 = w.sb.url.replace(/\/api\/v2$/, '/api/v1');
    const r = await w.cli(['today', '-p', '-'], { env: { CHECKIN_API_URL: v1 }, input: 'Through the wrong door\n' });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: No check-in service (API v2) at ${v1}: PATCH /api/v1/check-ins/${TODAY} answered 404, and GET /api/v1/me answered 404\nCheck CHECKIN_API_URL (or the URL stored by \`checkin login\`): it is the API v2 base, e.g. https://service.steady.space/api/v2.\n${KEPT('checkin today --resume')}`,
    });
    expect(entriesIn(dir())).toMatchObject([
      {
        account: { api_url: v1 },
        target: { kind: 'check-in', key: TODAY },
        content: { kind: 'answers', answers: { previous: 'Through the wrong door' } },
        made: 'piped',
      },
    ]);
    w.forget();
  };

  it('with the URL fixed, `today --resume` finds it and sends it', async () => {
    await wrongDoor();
    const r = await w.cli(['today', '--resume']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`, `PATCH /api/v2/check-ins/${TODAY}`]);
    expect(w.sb.requests[1]!.body).toEqual({ previous: 'Through the wrong door' });
    expect(filesIn(dir())).toEqual([]);
  });

  it('with the URL fixed, the interactive `today` offers it first, and sends it', async () => {
    await wrongDoor();
    const p = scripted(['send']);
    const r = await w.cli(['today'], { tty: true, prompter: p });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^An unsent draft for today \\(${TODAY}\\), saved Sun 22 Nov 09:30:\n✓ Checked in for Sun 22 Nov  http://127\\.0\\.0\\.1:\\d+/app/check-ins/\\S+\n$`,
      ),
    );
    expect(r.stdout).toContain('Previous\n  Through the wrong door\n');
    expect(p.asked).toEqual([
      {
        kind: 'select',
        message: 'What now?',
        default: undefined,
        choices: ['Send the draft', 'Go through the questions with the draft filled in', 'Discard the draft'],
      },
    ]);
    expect(w.sb.requests.filter((q) => q.method === 'PATCH').map((q) => [q.path, q.body])).toEqual([
      [`/api/v2/check-ins/${TODAY}`, { previous: 'Through the wrong door' }],
    ]);
    expect(filesIn(dir())).toEqual([]);
  });
});
