// `checkin inbox` on a service without GET /digest (the walk: others' comments and reactions on my
// check-ins and goal updates), the marker of what was seen kept across runs, replies; and the line
// `checkin status` adds (from the digest). cli/inbox-digest.test.ts: the inbox from the digest.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigStore, normalizeApiUrl } from '../../src/config/store.js';
import { addDays } from '../../src/core/datekey.js';
import type { Editor } from '../../src/ui/editor.js';
import { call } from '../helpers/http.js';
import { TODAY, useWorld } from '../helpers/harness.js';

const w = useWorld({ digest: false });
const ada = () => w.id('ada');
/** The demo's Linus is blocked on Ada: the inbox says so first (test/cli/blockers.test.ts has the rest). */
const ON_ME = 'Linus has been blocked on you since Fri (3 days)\n';
const LISTING = [
  '1\treaction\tCheck-in Sat 21 Nov\t2026-11-21T12:15:00Z\tMargaret Hamilton\t🚀 rocket',
  '2\tcomment\tCheck-in Sat 21 Nov\t2026-11-21T11:30:00Z\tLinus Torvalds\tI can pair on the `checkout` flake after lunch, @ada.',
  '3\tcomment\tCheck-in Sat 21 Nov\t2026-11-21T10:02:00Z\tGrace Hopper\tNice progress! Ping me when the migration is ready for review.',
  '4\treaction\tCheck-in Sat 21 Nov\t2026-11-21T10:01:00Z\tGrace Hopper\t🎉 tada',
  '5\tcomment\tCheck-in Fri 20 Nov\t2026-11-20T14:20:00Z\tMargaret Hamilton\tThanks for the **design doc** — left a few notes inline.',
  '6\treaction\tGoal update “Invoices endpoint in review”\t2026-11-20T09:05:00Z\tLinus Torvalds\t👀 eyes',
  '7\tcomment\tGoal update “Invoices endpoint in review”\t2026-11-20T09:00:00Z\tGrace Hopper\tSecurity review is booked for Thursday.',
];
/** Ada's filled-in check-ins of the last 14 days, and her goal updates of them: what the inbox looks at. */
function mine() {
  const data = w.sb.service.data;
  const since = addDays(TODAY, -13);
  const checkIns = data.check_ins.filter((c) => c.person_id === ada() && c.date >= since && c.completed_at);
  const updates = data.goal_updates.filter((u) => u.person_id === ada() && u.created_at.slice(0, 10) >= since);
  const goals = [...new Set(data.goals.filter((g) => g.owner_id === ada() || g.contributor_ids.includes(ada())).map((g) => g.id))];
  return { since, checkIns, updates, goals };
}

describe('checkin inbox on a service without a digest (the walk)', () => {
  it('first run: the requests it needs (the lists, then comments and reactions of each), the threads newest first, numbered', async () => {
    const r = await w.cli(['inbox']);
    expect(r).toMatchObject({ code: 0, stderr: ON_ME });
    expect(r.stdout).toBe(LISTING.join('\n') + '\n');
    const { since, checkIns, updates, goals } = mine();
    expect(checkIns.length).toBe(10);
    expect(w.sent().sort()).toEqual(
      [
        'GET /api/v2/me',
        // The feed first: this service has none (404), so the walk.
        `GET /api/v2/digest?category=comment&since=${since}T00%3A00%3A00Z&page=1&per_page=50`,
        `GET /api/v2/check-ins?people_ids[]=${ada()}&since=${since}&page=1&per_page=50`,
        `GET /api/v2/goals?people_ids[]=${ada()}&page=1&per_page=50`,
        ...goals.map((g) => `GET /api/v2/goals/${g}/goal-updates?per_page=50`),
        ...checkIns.flatMap((c) => [`GET /api/v2/check-ins/${c.id}/comments?per_page=50`, `GET /api/v2/check-ins/${c.id}/reactions?per_page=50`]),
        ...updates.flatMap((u) => [`GET /api/v2/goal-updates/${u.id}/comments?per_page=50`, `GET /api/v2/goal-updates/${u.id}/reactions?per_page=50`]),
        // The day's blockers of my teams, and the days before of Linus's (it names me).
        `GET /api/v2/check-ins?since=${TODAY}&until=${TODAY}&blocked=true&team_ids[]=${w.team('Platform')}&team_ids[]=${w.team('Mobile')}&page=1&per_page=50`,
        `GET /api/v2/check-ins?people_ids[]=${w.id('linus')}&since=${addDays(TODAY, -6)}&until=${addDays(TODAY, -1)}&page=1&per_page=50`,
      ].sort(),
    );
    // 10 check-ins and 2 updates: 2 each, plus me, the digest's 404, the two lists, one goal's updates and the two of the blockers.
    expect(w.sent()).toHaveLength(31);
  });

  it('remembers what was seen: the second run has nothing new; a new comment shows alone; --all shows everything', async () => {
    await w.cli(['inbox']);
    const again = await w.cli(['inbox']);
    expect(again).toMatchObject({
      code: 0,
      stdout: '',
      stderr: ON_ME + 'Nothing new on your check-ins and goal updates since 2026-11-21 12:15 UTC (--all shows everything).\n',
    });
    const [last] = mine().checkIns.sort((a, b) => (a.date < b.date ? 1 : -1));
    w.clock.sleep(60_000);
    await call(w.sb.url, 'POST', `/check-ins/${last!.id}/comments`, {
      token: 'sandbox_pat_grace',
      body: { body: 'One more thing: the **staging** keys rotated.' },
    });
    const fresh = await w.cli(['inbox']);
    expect(fresh).toMatchObject({ code: 0, stderr: ON_ME });
    expect(fresh.stdout).toBe(`1\tcomment\tCheck-in Sat 21 Nov\t2026-11-22T09:31:00Z\tGrace Hopper\tOne more thing: the **staging** keys rotated.\n`);
    const all = await w.cli(['inbox', '--all']);
    expect(all.stdout.split('\n')[1]).toBe(LISTING[0]!.replace(/^1/, '2'));
    expect(all.stdout.split('\n')).toHaveLength(LISTING.length + 2);
  });

  it('--reply <n> comments on that item’s check-in (one POST), from the last listing; - reads standard input', async () => {
    await w.cli(['inbox']);
    const [last] = mine().checkIns.sort((a, b) => (a.date < b.date ? 1 : -1));
    w.forget();
    const r = await w.cli(['inbox', '--reply', '2', 'Yes please, @linus — after 14:00?', '--json']);
    expect(r.code).toBe(0);
    expect(w.sent()).toEqual([`POST /api/v2/check-ins/${last!.id}/comments`]);
    expect(w.sb.requests[0]!.body).toEqual({ body: 'Yes please, @linus — after 14:00?' });
    expect(JSON.parse(r.stdout)).toMatchObject({ body: 'Yes please, @linus — after 14:00?', person: { name: 'Ada Lovelace' } });
    w.forget();
    const update = mine().updates.sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0]!;
    const viaStdin = await w.cli(['inbox', '--reply', '7', '-'], { input: 'Thanks, Grace!\n' });
    // Piped: no ✓ line, but the thread it answers is named all the same.
    expect(viaStdin).toMatchObject({
      code: 0,
      stderr: "Replying to item 7 (listed in this terminal just now): Goal update “Invoices endpoint in review” · Grace Hopper's comment\n",
    });
    expect(w.sent()).toEqual([`POST /api/v2/goal-updates/${update.id}/comments`]);
  });

  it('a reply that fails is kept as a draft that `comments --resume` sends; a number not listed is refused with the text', async () => {
    await w.cli(['inbox']);
    const [last] = mine().checkIns.sort((a, b) => (a.date < b.date ? 1 : -1));
    w.sb.inject({ method: 'POST', status: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"maintenance"}' });
    const failed = await w.cli(['inbox', '--reply', '3', 'Kept through an outage']);
    expect(failed.code).toBe(1);
    // A 503 is an answer: nothing was made, so the reply simply waits.
    expect(failed.stderr.split('\n').at(-2)).toBe(
      `What you wrote is kept as a draft: \`checkin comments ${last!.id} --resume\` sends it (\`checkin drafts\` lists everything waiting).`,
    );
    w.forget();
    expect((await w.cli(['comments', last!.id, '--resume'])).code).toBe(0);
    expect(w.sent()).toEqual([`POST /api/v2/check-ins/${last!.id}/comments`]);
    expect(w.sb.requests.map((q) => q.body)).toEqual([{ body: 'Kept through an outage' }]);
    w.forget();
    expect(await w.cli(['inbox', '--reply', '99', 'Lost?'])).toMatchObject({
      code: 2,
      stderr:
        'error: There is no item 99 in the listing shown in this terminal just now (it had items 1 to 7)\nRun `checkin inbox` (or `checkin inbox --all`) here to list again, then `checkin inbox --reply <n> "text"` with a number it shows.\nYour reply was not sent. Its text:\nLost?\n',
    });
    expect(await w.cli(['inbox', 'text without --reply'])).toMatchObject({ code: 2 });
    expect(w.sent()).toEqual([]);
  });

  it('--json: the threads with their items; --since bounds the period', async () => {
    const r = await w.cli(['inbox', '--json', '--since', addDays(TODAY, -1)]);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ since: addDays(TODAY, -1), seen_before: null });
    expect(out.threads.map((t: { type: string; date: string; items: unknown[] }) => [t.type, t.date, t.items.length])).toEqual([
      ['check-in', addDays(TODAY, -1), 4],
    ]);
    expect(out.threads[0].items[1]).toMatchObject({
      n: 2,
      kind: 'comment',
      person: { name: 'Linus Torvalds' },
      body: 'I can pair on the `checkout` flake after lunch, @ada.',
    });
  });

  it('on a terminal: grouped under each check-in or update, with who, when and the text', async () => {
    const r = await w.cli(['inbox', '--since', addDays(TODAY, -1)], { tty: true, columns: 100 });
    const last = mine().checkIns.find((c) => c.date === addDays(TODAY, -1))!;
    expect(r.stdout.split('\n').slice(0, 6)).toEqual([
      `Check-in Sat 21 Nov ${w.sb.url.replace('/api/v2', '')}/app/check-ins/${last.id}`,
      '  1  Margaret Hamilton reacted 🚀 rocket · 21 hours ago',
      '  2  Linus Torvalds · 22 hours ago',
      '     I can pair on the `checkout` flake after lunch, @ada.',
      '  3  Grace Hopper · 23 hours ago',
      '     Nice progress! Ping me when the migration is ready for review.',
    ]);
    expect(r.stderr).toBe(ON_ME + 'Reply: checkin inbox --reply <n> "text"\n');
  });
});

describe('--reply <n> answers the listing shown in the terminal it is typed in', () => {
  const A = { terminal: 'tty A' };
  const B = { terminal: 'tty B' };
  const lastCheckIn = () => mine().checkIns.sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
  const lastUpdate = () => mine().updates.sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0]!;
  const listAgain = 'Run `checkin inbox` (or `checkin inbox --all`) here to list again, then `checkin inbox --reply <n> "text"` with a number it shows.';

  it('B lists after A: A’s --reply 1 still answers A’s item 1, B’s answers B’s; each names the thread; one POST each', async () => {
    expect((await w.cli(['inbox'], A)).stdout).toBe(LISTING.join('\n') + '\n'); // item 1: Margaret's 🚀 on the last check-in
    await w.clock.sleep(60_000);
    await call(w.sb.url, 'POST', `/goal-updates/${lastUpdate().id}/comments`, { token: 'sandbox_pat_grace', body: { body: 'Booked the review room.' } });
    // Terminal B: only what is new since A looked, numbered from 1 (on another thread).
    const b = await w.cli(['inbox'], B);
    expect(b.stdout).toBe('1\tcomment\tGoal update “Invoices endpoint in review”\t2026-11-22T09:31:00Z\tGrace Hopper\tBooked the review room.\n');
    w.forget();
    const a = await w.cli(['inbox', '--reply', '1', 'Thanks, Margaret!'], A);
    expect(a).toMatchObject({
      code: 0,
      stderr: "Replying to item 1 (listed in this terminal 1 minute ago): Check-in Sat 21 Nov · Margaret Hamilton's 🚀 rocket reaction\n",
    });
    expect(w.sent()).toEqual([`POST /api/v2/check-ins/${lastCheckIn().id}/comments`]);
    expect(w.sb.requests[0]!.body).toEqual({ body: 'Thanks, Margaret!' });
    w.forget();
    const fromB = await w.cli(['inbox', '--reply', '1', 'See you there'], B);
    expect(fromB).toMatchObject({
      code: 0,
      stderr: "Replying to item 1 (listed in this terminal just now): Goal update “Invoices endpoint in review” · Grace Hopper's comment\n",
    });
    expect(w.sent()).toEqual([`POST /api/v2/goal-updates/${lastUpdate().id}/comments`]);
    // On a terminal the ✓ line follows.
    w.forget();
    const tty = await w.cli(['inbox', '--reply', '3', 'Will do'], { ...A, tty: true });
    expect(tty.stderr.split('\n')[0]).toBe("Replying to item 3 (listed in this terminal 1 minute ago): Check-in Sat 21 Nov · Grace Hopper's comment");
    expect(tty.stderr).toContain('✓ Replied on the check-in');
    expect(w.sent()).toEqual([`POST /api/v2/check-ins/${lastCheckIn().id}/comments`]);
  });

  it('a terminal with no listing of its own is refused with what to run: no POST, and the editor is not opened', async () => {
    const fresh = await w.cli(['inbox', '--reply', '1', 'Hello?'], A);
    expect(fresh).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: No inbox listing was shown in this terminal, so there is no item 1 to answer\n${listAgain}\nYour reply was not sent. Its text:\nHello?\n`,
    });
    expect(w.sent()).toEqual(['GET /api/v2/me']); // who I am (the listings are kept per person): nothing sent
    await w.cli(['inbox'], A);
    w.forget();
    expect(await w.cli(['inbox', '--reply', '1', 'Hello?'], B)).toMatchObject({
      code: 2,
      stderr: `error: No inbox listing was shown in this terminal, so there is no item 1 to answer\n${listAgain}\nYour reply was not sent. Its text:\nHello?\n`,
    });
    let opened = 0;
    const editor: Editor = { edit: async () => (opened++, 'Hello?') };
    expect(await w.cli(['inbox', '--reply', '1', '-e'], { ...B, tty: true, editor })).toMatchObject({
      code: 2,
      stderr: `error: No inbox listing was shown in this terminal, so there is no item 1 to answer\n${listAgain}\n`,
    });
    expect(opened).toBe(0);
    expect(w.sent()).toEqual([]);
  });

  it('a listing more than 12 hours old is refused (the injected clock), one within 12 hours is answered', async () => {
    await w.cli(['inbox'], A);
    await w.clock.sleep((11 * 60 + 59) * 60_000);
    w.forget();
    expect(await w.cli(['inbox', '--reply', '2', 'Still on?'], A)).toMatchObject({
      code: 0,
      stderr: "Replying to item 2 (listed in this terminal 11 hours ago): Check-in Sat 21 Nov · Linus Torvalds's comment\n",
    });
    expect(w.sent()).toEqual([`POST /api/v2/check-ins/${lastCheckIn().id}/comments`]);
    await w.clock.sleep(2 * 60_000);
    w.forget();
    expect(await w.cli(['inbox', '--reply', '2', 'Still on?'], A)).toMatchObject({
      code: 2,
      stderr: `error: The inbox listing in this terminal was shown 12 hours ago: its numbers are not answered after 12 hours\n${listAgain}\nYour reply was not sent. Its text:\nStill on?\n`,
    });
    expect(w.sent()).toEqual([]);
  });

  it('no terminal at all (a script, cron): the listing is not kept, and --reply <n> is refused with the reply by id', async () => {
    await w.cli(['inbox'], { terminal: null });
    w.forget();
    const byId =
      'Reply by id instead: `checkin comments <check-in id> --add "text"` (`--goal-update <id>` for a goal update); `checkin inbox --json` gives each thread\'s id.';
    expect(await w.cli(['inbox', '--reply', '1', 'Hi'], { terminal: null })).toMatchObject({
      code: 2,
      stderr: `error: --reply <n> answers by the numbers a listing showed in this terminal, and this run has no terminal\n${byId}\nYour reply was not sent. Its text:\nHi\n`,
    });
    // …nor in any terminal.
    expect((await w.cli(['inbox', '--reply', '1', 'Hi'], A)).stderr).toMatch(/^error: No inbox listing was shown in this terminal/);
    expect(w.sent()).toEqual([]);
  });

  it('the one listing an earlier version kept for every terminal is not answered; names from the service pass the sanitiser', async () => {
    const store = new ConfigStore(w.env);
    await w.cli(['me']);
    const key = `${normalizeApiUrl(w.sb.url)} ${ada()}`;
    writeFileSync(
      store.stateFile,
      JSON.stringify({ inbox: { [key]: { seen_at: '2026-11-01T00:00:00.000Z', listed: [{ kind: 'check-in', id: lastCheckIn().id }] } } }),
    );
    w.forget();
    expect((await w.cli(['inbox', '--reply', '1', 'Old?'], A)).stderr).toMatch(/^error: No inbox listing was shown in this terminal/);
    // An edited one of another shape is no listing either; an item that names nothing to post on is no item.
    for (const listing of [{ at: new Date().toISOString(), items: 'nope' }, { items: [] }]) {
      writeFileSync(store.stateFile, JSON.stringify({ inbox: { [key]: { listings: { 'tty A': listing } } } }));
      expect((await w.cli(['inbox', '--reply', '1', 'Old?'], A)).stderr).toMatch(/^error: No inbox listing was shown in this terminal/);
    }
    writeFileSync(
      store.stateFile,
      JSON.stringify({ inbox: { [key]: { listings: { 'tty A': { at: w.clock.now().toISOString(), items: [{ kind: 'check-in/../../me', id: 'x' }] } } } } }),
    );
    expect((await w.cli(['inbox', '--reply', '1', 'Old?'], A)).stderr).toMatch(
      /^error: Item 1 of the listing kept for this terminal cannot be read \(state\.json holds something else there\)\nRun `checkin inbox`/,
    );
    w.sb.service.data.people.find((p) => p.username === 'margaret')!.name = 'Margaret \x1b[31mHamilton\u202e\x1b]8;;https://evil.example\x07';
    await w.cli(['inbox'], A);
    const state = JSON.parse(readFileSync(store.stateFile, 'utf8'));
    expect(state.inbox[key]).not.toHaveProperty('listed');
    expect(Object.keys(state.inbox[key].listings)).toEqual(['tty A']);
    w.forget();
    const r = await w.cli(['inbox', '--reply', '1', 'Thanks!'], A);
    expect(r).toMatchObject({
      code: 0,
      stderr: "Replying to item 1 (listed in this terminal just now): Check-in Sat 21 Nov · Margaret Hamilton's 🚀 rocket reaction\n",
    });
    expect(w.sent()).toEqual([`POST /api/v2/check-ins/${lastCheckIn().id}/comments`]);
  });
});

describe('checkin status and the inbox', () => {
  const d = useWorld();
  /** What status asked for but the day's blocked check-ins (test/cli/blockers.test.ts), sorted. */
  const asked = () =>
    d
      .sent()
      .filter((q) => !q.startsWith('GET /api/v2/check-ins?'))
      .sort();
  const TODAY_AND_DIGEST = [`GET /api/v2/check-ins/${TODAY}`, 'GET /api/v2/digest?category=comment&per_page=50'].sort();
  it('one line about new comments (not with --quiet): at most one more request (GET /digest), kept ten minutes, sent again with If-None-Match', async () => {
    await d.cli(['me']); // logged in: me is known
    d.forget();
    const first = await d.cli(['status']);
    const count = d.sb.service.digest(d.id('ada'), { category: 'comment' }).length;
    expect(count).toBeGreaterThan(0);
    expect(first).toMatchObject({
      code: 3,
      stdout: `Today's check-in (${TODAY}) is pending: run \`checkin today\`\n${count} new comment${count === 1 ? '' : 's'} on your check-ins and goal updates: checkin inbox\n${ON_ME}`,
    });
    // (and the day's blockers naming me, kept ten minutes too: test/cli/blockers.test.ts)
    expect(asked()).toEqual(TODAY_AND_DIGEST);
    // Within ten minutes: one request, the count kept.
    d.forget();
    expect((await d.cli(['status'])).stdout).toContain(`${count} new comment`);
    expect(d.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
    // After ten minutes: the digest again, with the ETag; the service's 304 keeps the count.
    await d.clock.sleep(11 * 60 * 1000);
    d.forget();
    expect((await d.cli(['status'])).stdout).toContain(`${count} new comment`);
    expect(asked()).toEqual(TODAY_AND_DIGEST);
    const digestRequest = d.sb.requests.find((r) => r.path === '/api/v2/digest')!;
    expect(digestRequest.headers['if-none-match']).toMatch(/^(W\/)?"/);
    expect(await d.cli(['status', '--quiet'])).toMatchObject({ code: 3, stdout: '' });
    await d.cli(['inbox']);
    d.forget();
    expect((await d.cli(['status'])).stdout).toBe(`Today's check-in (${TODAY}) is pending: run \`checkin today\`\n${ON_ME}`);
    expect(d.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
    const json = JSON.parse((await d.cli(['status', '--json'])).stdout);
    expect(json).toMatchObject({ state: 'pending', unread: 0 });
  });

  it('a service without a digest (404): no line, and never a walk', async () => {
    await d.cli(['me']);
    d.forget();
    d.sb.inject({ method: 'GET', path: '/digest', status: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"Not found"}' });
    const r = await d.cli(['status']);
    expect(r).toMatchObject({ code: 3, stdout: `Today's check-in (${TODAY}) is pending: run \`checkin today\`\n${ON_ME}` });
    expect(asked()).toEqual(TODAY_AND_DIGEST);
    d.forget();
    await d.cli(['status']);
    expect(d.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`]);
  });

  it("a repeated status asks for today's check-in with the last ETag: the service's 304 costs no parsing, the answer is the same", async () => {
    const first = await d.cli(['status', '--json']);
    d.forget();
    const second = await d.cli(['status', '--json']);
    expect(second).toEqual(first);
    const [checkIn] = d.sb.requests.filter((r) => r.path === `/api/v2/check-ins/${TODAY}`);
    expect(checkIn!.headers['if-none-match']).toMatch(/^(W\/)?"/);
    expect(checkIn!.status).toBe(304);
    // Filled in meanwhile: a new answer, not the old copy.
    await d.cli(['today', '-p', 'Done now', '-i', 'Next', '-b', '']);
    expect(JSON.parse((await d.cli(['status', '--json'])).stdout)).toMatchObject({ state: 'filled' });
  });

  it('a copy of the check-in that is not one any more (an edited cache) is not used: the check-in is asked for whole', async () => {
    await d.cli(['status']);
    const { ConfigStore } = await import('../../src/config/store.js');
    await new ConfigStore(d.env).cache(d.sb.url, d.sb.token, 'today', { key: TODAY, etag: '"planted"', check_in: { bogus: true } as never });
    d.forget();
    const r = await d.cli(['status', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'pending', check_in: { date: TODAY } });
    expect(d.sb.requests.find((q) => q.path === `/api/v2/check-ins/${TODAY}`)!.headers['if-none-match']).toBeUndefined();
  });
});
