// `checkin inbox` from the service's own feed (GET /digest?category=comment): few requests, the
// @mentions of me on others' check-ins included, the seen-marker, replies on digest entries.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { call } from '../helpers/http.js';
import { TODAY, useWorld } from '../helpers/harness.js';

const w = useWorld({ rateLimit: undefined }); // the service's limits on: nothing here may meet a 429
const since = `${addDays(TODAY, -13)}T00%3A00%3A00Z`;

describe('checkin inbox from the digest', () => {
  it("a month of activity in few requests: me, then one page of the feed (and the day's blockers naming me); @mentions on others’ check-ins included", async () => {
    const r = await w.cli(['inbox']);
    // The demo's Linus is blocked on Ada: said first (test/cli/blockers.test.ts has the rest).
    expect(r).toMatchObject({ code: 0, stderr: 'Linus has been blocked on you since Fri (3 days)\n' });
    const teams = `team_ids[]=${w.team('Platform')}&team_ids[]=${w.team('Mobile')}`;
    // /me first; the feed and the blockers side by side.
    expect(w.sent()[0]).toBe('GET /api/v2/me');
    expect(w.sent().slice(1).sort()).toEqual(
      [
        `GET /api/v2/check-ins?since=${TODAY}&until=${TODAY}&blocked=true&${teams}&page=1&per_page=50`,
        `GET /api/v2/digest?category=comment&since=${since}&page=1&per_page=50`,
        `GET /api/v2/check-ins?people_ids[]=${w.id('linus')}&since=${addDays(TODAY, -6)}&until=${addDays(TODAY, -1)}&page=1&per_page=50`,
      ].sort(),
    );
    const feed = w.sb.service.digest(w.id('ada'), { category: 'comment', since: `${addDays(TODAY, -13)}T00:00:00Z` });
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(feed.length);
    expect(lines.map((l) => l.split('\t')[5])).toEqual(feed.map((e) => e.resource.body));
    expect(r.stdout).toContain("Comment on Linus Torvalds's check-in"); // an @mention of Ada on someone else's
    // Reactions are not in the feed.
    expect(r.stdout).not.toMatch(/\treaction\t/);
  });

  it('the second run asks from the seen-marker on, and shows only what is new; a month back with --all is still one page', async () => {
    await w.cli(['inbox']);
    w.forget();
    const again = await w.cli(['inbox']);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/^Linus has been blocked on you since Fri \(3 days\)\nNothing new on your check-ins and goal updates since /);
    // The blockers naming me are kept ten minutes: the feed alone is asked.
    expect(w.sent()).toHaveLength(1);
    expect(w.sent()[0]).toMatch(/^GET \/api\/v2\/digest\?category=comment&since=2026-11-\d\dT\d\d%3A\d\d%3A\d\dZ&page=1&per_page=50$/);
    await w.clock.sleep(60_000);
    const posted = await call(w.sb.url, 'POST', `/check-ins/${checkInId(w.id('ada'), addDays(TODAY, -1))}/comments`, {
      token: 'sandbox_pat_grace',
      body: { body: 'The keys rotated.' },
    });
    expect(posted.status).toBe(201);
    const fresh = await w.cli(['inbox']);
    expect(fresh.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^1\tcomment\tComment on your check-in for \S+\t\S+\tGrace Hopper\tThe keys rotated\.$/),
    ]);
    w.forget();
    const month = await w.cli(['inbox', '--all', '--since', addDays(TODAY, -30)]);
    expect(month.code).toBe(0);
    expect(w.sent()).toEqual([`GET /api/v2/digest?category=comment&since=${addDays(TODAY, -30)}T00%3A00%3A00Z&page=1&per_page=50`]);
  });

  it('--reply <n> comments on the check-in or goal update the entry is about (one POST)', async () => {
    const listing = (await w.cli(['inbox', '--json'])).stdout;
    const threads = JSON.parse(listing).threads as Array<{ type: string; id: string; items: Array<{ n: number }> }>;
    const onUpdate = threads.find((t) => t.type === 'goal-update')!;
    const onCheckIn = threads.find((t) => t.type === 'check-in')!;
    w.forget();
    expect((await w.cli(['inbox', '--reply', String(onUpdate.items[0]!.n), 'Thanks!'])).code).toBe(0);
    expect((await w.cli(['inbox', '--reply', String(onCheckIn.items[0]!.n), 'On it'])).code).toBe(0);
    expect(w.sent()).toEqual([`POST /api/v2/goal-updates/${onUpdate.id}/comments`, `POST /api/v2/check-ins/${onCheckIn.id}/comments`]);
  });

  it('ten different commands back to back, limits on, never meet a 429', async () => {
    const runs = [['status'], ['inbox'], ['today', '--json'], ['list'], ['teams'], ['goals'], ['me'], ['activity'], ['report', '--person', 'me'], ['status']];
    for (const args of runs) {
      const r = await w.cli(args);
      expect(r.stderr, args.join(' ')).not.toMatch(/429|Too Many|retrying|Pausing/);
    }
    expect(w.sb.requests.filter((q) => q.status === 429)).toEqual([]);
  });
});
