// *previous* from what actually happened: my activities on the service and my commits in local git
// repositories since my last check-in — `today --suggest`, `--from-activity`, and the notes for
// folders that cannot be read. The git repository is made here, in a temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { tempDir } from '../helpers/cleanup.js';

const w = useWorld();
const PR = '- [Add invoices endpoint (#412)](https://github.com/engines/billing/pull/412) (GitHub PR)';
let repo: string;
let notRepo: string;

/** A commit at `when` by `email`. */
function commit(dir: string, subject: string, email: string, when: string) {
  writeFileSync(join(dir, 'file.txt'), `${subject}\n`);
  execFileSync('git', ['-C', dir, 'add', '.']);
  const env = {
    ...process.env,
    GIT_AUTHOR_DATE: when,
    GIT_COMMITTER_DATE: when,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_EMAIL: email,
    GIT_AUTHOR_NAME: 'x',
    GIT_COMMITTER_NAME: 'x',
  };
  execFileSync('git', ['-C', dir, 'commit', '-q', '-m', subject], { env });
}

beforeEach(() => {
  const root = tempDir('checkin-git-');
  repo = join(root, 'billing-api');
  notRepo = join(root, 'notes');
  mkdirSync(repo);
  mkdirSync(notRepo);
  execFileSync('git', ['-C', repo, 'init', '-q']);
  execFileSync('git', ['-C', repo, 'config', 'user.email', 'ada@example.com']);
  commit(repo, 'Old work, before the last check-in', 'ada@example.com', '2026-11-10T10:00:00Z');
  commit(repo, 'Retry webhooks with backoff', 'ada@example.com', '2026-11-21T18:00:00Z');
  commit(repo, "Someone else's fix", 'grace@example.com', '2026-11-21T19:00:00Z');
  commit(repo, 'Document the invoice states', 'ADA@example.com', '2026-11-22T08:00:00Z');
});

function lastIntentions(): string {
  const ada = w.id('ada');
  return w.sb.service.data.check_ins.filter((c) => c.person_id === ada && c.date < TODAY && c.intentions).sort((a, b) => (a.date < b.date ? 1 : -1))[0]!
    .intentions!;
}

describe('the suggestion for previous', () => {
  it('--suggest: the last intentions, then activities and my commits since the last check-in (newest first); notes for what was skipped', async () => {
    const missing = join(notRepo, 'gone');
    const r = await w.cli(['today', '--suggest'], { env: { CHECKIN_GIT_REPOS: [repo, notRepo, missing].join(':') } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${lastIntentions()}\n${PR}\n- Document the invoice states (billing-api)\n- Retry webhooks with backoff (billing-api)\n`);
    expect(r.stderr).toBe(`note: ${notRepo} is not a git repository; skipped\nnote: ${missing}: no such folder; skipped\n`);
    const ada = w.id('ada');
    // Nothing is sent: the check-in, the earlier ones and the activities (with /me first) are read.
    expect(w.sent().sort()).toEqual(
      [
        'GET /api/v2/me',
        `GET /api/v2/check-ins/${TODAY}`,
        `GET /api/v2/check-ins?people_ids[]=${ada}&until=${addDays(TODAY, -1)}&per_page=10`,
        `GET /api/v2/activities?people_ids[]=${ada}&since=${addDays(TODAY, -7)}T00%3A00%3A00Z&page=1&per_page=50`,
      ].sort(),
    );
  });

  it('a commit also logged as an activity (the post-commit recipe) is suggested once, as the activity', async () => {
    // `git log -1 --format=%s | checkin log - --group git`, as the README's recipe does after the commit.
    expect((await w.cli(['log', '-', '--group', 'git'], { input: 'Retry webhooks with backoff\n' })).code).toBe(0);
    const r = await w.cli(['today', '--suggest'], { env: { CHECKIN_GIT_REPOS: repo } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /Retry webhooks with backoff/i.test(l))).toEqual(['- Retry webhooks with backoff (git)']);
    expect(r.stdout).toContain('- Document the invoice states (billing-api)\n');
  });

  it('--suggest --json says where it came from; with no repositories named, no git is run', async () => {
    const r = await w.cli(['today', '--suggest', '--json']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({ previous: `${lastIntentions()}\n${PR}`, intentions_from: addDays(TODAY, -1), since_last_check_in: [PR] });
  });

  it('--from-activity sends it as previous in one PATCH, with the other answers given', async () => {
    w.forget();
    const r = await w.cli(['today', '--from-activity', '-i', '- Review the retries', '--json'], { env: { CHECKIN_GIT_REPOS: repo } });
    expect(r.code).toBe(0);
    expect(w.sent().filter((q) => !q.startsWith('GET'))).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(w.sb.requests.at(-1)!.body).toEqual({
      intentions: '- Review the retries',
      previous: `${lastIntentions()}\n${PR}\n- Document the invoice states (billing-api)\n- Retry webhooks with backoff (billing-api)`,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ intentions: '- Review the retries' });
  });

  it('refuses --from-activity with --previous, and --suggest with --from-activity, before any request', async () => {
    expect(await w.cli(['today', '--from-activity', '-p', 'x'])).toMatchObject({
      code: 2,
      stderr: 'error: --from-activity fills in previous; leave out --previous\n',
    });
    expect(await w.cli(['today', '--from-activity', '--suggest'])).toMatchObject({ code: 2 });
    expect(w.sent()).toEqual([]);
  });

  it('without git on the PATH the commits are left out with one note', async () => {
    // (git is looked up on the PATH checkin was given.)
    const r = await w.cli(['today', '--suggest'], { env: { CHECKIN_GIT_REPOS: repo, PATH: notRepo } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${lastIntentions()}\n${PR}\n`);
    expect(r.stderr).toBe('note: git is not installed: commits are left out\n');
  });
});
