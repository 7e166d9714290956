// Blockers followed through, in-process against the sandbox on a fake clock: `team` marks a blocker
// that repeats, `status` and `inbox` say who is blocked on me, today's form (scripted prompts; the
// real ones in test/terminal/blockers.test.ts) asks about the previous check-in's blockers, and the
// preview's writing hints. The demo data has Linus blocked on @ada on Fri 20, Sat 21 and Sun 22 Nov.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mood } from '../../src/api/types.js';
import { addDays } from '../../src/core/datekey.js';
import { LINUS_BLOCKER } from '../../src/sandbox/demo.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { scripted } from '../helpers/prompter.js';

const w = useWorld();
let sb: Sandbox;
beforeEach(() => {
  sb = w.sb;
});
const ada = () => w.id('ada');
const patches = () => sb.requests.filter((r) => r.method === 'PATCH') as Array<{ body: Record<string, unknown> }>;

/** Ada's check-in of `date`, filled in with `blockers` (made when the demo left the day empty). */
function adaFilled(date: string, blockers: string | null) {
  const stamp = `${date}T09:00:00Z`;
  const found = sb.service.data.check_ins.find((c) => c.person_id === ada() && c.date === date);
  const rec = found ?? {
    id: `x-${date}`,
    person_id: ada(),
    date,
    previous: '- Old work',
    intentions: '- More work',
    mood: null,
    previous_completed: true,
    team_ids: null,
    updated_at: stamp,
    completed_at: stamp,
    blockers: null,
  };
  Object.assign(rec, { blockers, completed_at: stamp, absent: false });
  if (!found) sb.service.data.check_ins.push(rec as (typeof sb.service.data.check_ins)[number]);
}

describe('checkin team: a blocker that repeats', () => {
  it('marks Linus "blocked 3 days" in the table, with one more request for the blocked people\'s days before', async () => {
    await w.cli(['me']);
    w.forget();
    const r = await w.cli(['team', '--team', 'Platform'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `Platform — ${TODAY}  1 blocked, 2 pending, 1 filled\n` +
        '  PERSON          STATE\n' +
        '  Linus Torvalds  ⚠ blocked 3 days\n' +
        '  Ada Lovelace    · pending\n' +
        '  Scribe (agent)  · pending\n' +
        '  Grace Hopper    ✓ filled\n' +
        '    Linus Torvalds: Waiting on @ada to review the webhook retry change\n\n',
    );
    const platform = w.team('Platform');
    expect(w.sent()).toEqual([
      `GET /api/v2/teams/${platform}`,
      `GET /api/v2/check-ins?since=${TODAY}&until=${TODAY}&team_ids[]=${platform}&page=1&per_page=50`,
      `GET /api/v2/check-ins?people_ids[]=${w.id('linus')}&since=${addDays(TODAY, -6)}&until=${addDays(TODAY, -1)}&page=1&per_page=50`,
    ]);
  });

  it('--json has blocked_for on each member (null when not blocked)', async () => {
    const r = await w.cli(['team', '--team', 'Platform', '--json']);
    const members = JSON.parse(r.stdout)[0].members as Array<{ person: { name: string }; state: string; blocked_for: unknown }>;
    expect(members.map((m) => [m.person.name, m.state, m.blocked_for])).toEqual([
      ['Linus Torvalds', 'blocked', { days: 3, since: addDays(TODAY, -2), at_least: false }],
      ['Ada Lovelace', 'pending', null],
      ['Scribe (agent)', 'pending', null],
      ['Grace Hopper', 'filled', null],
    ]);
  });

  it('a day in between without the blocker ends the run; a blocked day alone is not marked', async () => {
    const linus = w.id('linus');
    sb.service.data.check_ins.find((c) => c.person_id === linus && c.date === addDays(TODAY, -1))!.blockers = 'Something else';
    const r = await w.cli(['team', '--team', 'Platform'], { tty: true });
    expect(r.stdout).toContain('  Linus Torvalds  ⚠ blocked\n');
    const json = JSON.parse((await w.cli(['team', '--team', 'Platform', '--json'])).stdout);
    expect(json[0].members[0].blocked_for).toEqual({ days: 1, since: TODAY, at_least: false });
  });

  it('nobody blocked: no request for the days before', async () => {
    const linus = w.id('linus');
    sb.service.data.check_ins.find((c) => c.person_id === linus && c.date === TODAY)!.blockers = null;
    await w.cli(['team', '--team', 'Platform', '--json']);
    expect(w.sent().filter((r) => r.includes('people_ids'))).toEqual([]);
  });
});

describe('status and inbox: teammates blocked on me', () => {
  it('status says Linus has been blocked on Ada since Fri, and --json has blocked_on_you', async () => {
    await w.cli(['me']);
    w.forget();
    const r = await w.cli(['status']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      `Today's check-in (${TODAY}) is pending: run \`checkin today\`\n` +
        '5 new comments on your check-ins and goal updates: checkin inbox\n' +
        'Linus has been blocked on you since Fri (3 days)\n',
    );
    // Today's check-in and the count of comments as before; the day's blocked check-ins of my teams,
    // then Linus's days before (he names me).
    const [platform, mobile] = [w.team('Platform'), w.team('Mobile')];
    expect(w.sent().sort()).toEqual(
      [
        `GET /api/v2/check-ins/${TODAY}`,
        'GET /api/v2/digest?category=comment&per_page=50',
        `GET /api/v2/check-ins?since=${TODAY}&until=${TODAY}&blocked=true&team_ids[]=${platform}&team_ids[]=${mobile}&page=1&per_page=50`,
        `GET /api/v2/check-ins?people_ids[]=${w.id('linus')}&since=${addDays(TODAY, -6)}&until=${addDays(TODAY, -1)}&page=1&per_page=50`,
      ].sort(),
    );
    // Kept ten minutes (a shell prompt asks often): then asked again.
    w.forget();
    expect((await w.cli(['status'])).stdout).toContain('Linus has been blocked on you since Fri (3 days)\n');
    expect(w.sent().filter((q) => q.includes('blocked=true') || q.includes('people_ids'))).toEqual([]);
    await w.clock.sleep(10 * 60 * 1000);
    expect((await w.cli(['status'])).stdout).toContain('Linus has been blocked on you since Fri (3 days)\n');
    expect(w.sent().filter((q) => q.includes('blocked=true') || q.includes('people_ids'))).toHaveLength(2);
    const json = JSON.parse((await w.cli(['status', '--json', 'blocked_on_you'])).stdout);
    expect(json).toEqual({
      blocked_on_you: [
        {
          person: { id: w.id('linus'), name: 'Linus Torvalds' },
          blockers: LINUS_BLOCKER,
          since: addDays(TODAY, -2),
          days: 3,
          at_least: false,
          check_in_id: expect.any(String),
        },
      ],
    });
  });

  it('a failure to ask is said nowhere and kept two minutes as nothing: a prompt running status does not ask (and wait) each time', async () => {
    await w.cli(['me']);
    sb.inject({ method: 'GET', path: /\/check-ins$/, status: 500, body: '{"error":"down"}' });
    w.forget();
    const first = await w.cli(['status']);
    expect(first.stdout).not.toContain('blocked on you');
    expect(w.sent().filter((q) => q.includes('blocked=true'))).toHaveLength(1);
    w.forget();
    await w.cli(['status']);
    expect(w.sent().filter((q) => q.includes('blocked=true'))).toEqual([]);
    await w.clock.sleep(2 * 60 * 1000);
    expect((await w.cli(['status'])).stdout).toContain('Linus has been blocked on you since Fri (3 days)\n');
  });

  it('status --quiet asks nothing of blockers; a blocker naming someone else is not said', async () => {
    await w.cli(['me']);
    w.forget();
    await w.cli(['status', '-q']);
    expect(w.sent().some((q) => q.includes('blocked=true'))).toBe(false);
    const linus = w.id('linus');
    sb.service.data.check_ins.find((c) => c.person_id === linus && c.date === TODAY)!.blockers = 'Waiting on @grace';
    w.forget();
    const r = await w.cli(['status']);
    expect(r.stdout).not.toContain('blocked on you');
    // Nobody names me: one list, no history asked.
    expect(w.sent().filter((q) => q.includes('people_ids'))).toEqual([]);
  });

  it('inbox says it above the comments, and --json has it', async () => {
    const r = await w.cli(['inbox']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Linus has been blocked on you since Fri (3 days)\n');
    const json = JSON.parse((await w.cli(['inbox', '--all', '--json'])).stdout);
    expect(json.blocked_on_you).toEqual([
      expect.objectContaining({ person: { id: w.id('linus'), name: 'Linus Torvalds' }, days: 3, since: addDays(TODAY, -2) }),
    ]);
  });
});

describe('"none" as blockers', () => {
  for (const typed of ['none', 'None', ' n/a ', 'no', 'Nothing.', '-']) {
    it(`"${typed}" is sent as no blockers, and a line says so`, async () => {
      // "-b -" reads standard input: "-" itself comes that way.
      const r =
        typed === '-'
          ? await w.cli(['today', '-p', 'Shipped', '-i', 'More', '-b', '-'], { input: '-\n' })
          : await w.cli(['today', '-p', 'Shipped', '-i', 'More', '-b', typed]);
      expect(r.code).toBe(0);
      expect(patches().map((q) => q.body)).toEqual([{ previous: 'Shipped', intentions: 'More', blockers: '' }]);
      expect(r.stderr).toBe(`note: Blockers "${typed.trim()}" are sent as no blockers: the check-in is not marked blocked.\n`);
      // The service keeps it as no blockers: the check-in is not marked blocked.
      const stored = await w.cli(['today', '--json', 'blocked,blockers']);
      expect(JSON.parse(stored.stdout)).toEqual({ blocked: false, blockers: null });
    });
  }

  it('real blockers are sent as typed, with no line', async () => {
    const r = await w.cli(['today', '-b', 'None of the reviewers answered']);
    expect(patches().map((q) => q.body)).toEqual([{ blockers: 'None of the reviewers answered' }]);
    expect(r.stderr).toBe('');
  });
});

describe("today's form: the previous check-in's blockers followed through", () => {
  /** Ada blocked three days running before today: two blockers, one there all three days. */
  function adaBlocked() {
    adaFilled(addDays(TODAY, -3), '- Waiting on the **security review**');
    adaFilled(addDays(TODAY, -2), '- Waiting on the **security review**');
    adaFilled(addDays(TODAY, -1), '- Waiting on the **security review**\n- CI is red on main');
  }

  it('asks for each with its days in a row (no extra request); still, resolved and changed make the blockers answer', async () => {
    adaBlocked();
    const p = scripted([
      [],
      '',
      '- Plan',
      'still',
      'changed',
      '- CI is red on the release branch',
      '- Waiting on the **security review**\n- CI is red on the release branch',
      'focused' as Mood,
      true,
      'send',
    ]);
    const r = await w.cli(['today'], { tty: true, prompter: p, env: { CHECKIN_GIT_REPOS: '' } });
    expect(r.code).toBe(0);
    const asked = p.asked.map((q) => [q.kind, q.message, q.default ?? null]);
    const i = asked.findIndex((q) => q[0] === 'select' && String(q[1]).startsWith('Waiting on'));
    expect(asked.slice(i, i + 4)).toEqual([
      ['select', `Waiting on the security review (3 days, since ${shortDayOf(addDays(TODAY, -3))})`, null],
      ['select', 'CI is red on main (1 day)', null],
      ['lines', 'The blocker now:', '- CI is red on main'],
      ['lines', 'Are you blocked by anything?', '- Waiting on the **security review**\n- CI is red on the release branch'],
    ]);
    expect(p.asked[i]!.choices).toEqual(['Still blocked', 'Resolved', 'Changed: edit it']);
    expect(r.stderr).toContain(`Your blockers on ${shortDayOf(addDays(TODAY, -1))} — still there, resolved, or changed?\n`);
    expect(patches().map((q) => q.body.blockers)).toEqual(['- Waiting on the **security review**\n- CI is red on the release branch']);
    // The earlier check-ins were asked for once, for "previous" and the blockers alike.
    expect(w.sent().filter((q) => q.includes(`people_ids[]=${ada()}&until=`))).toHaveLength(1);
  });

  it('resolved: the blockers question starts empty', async () => {
    adaBlocked();
    const p = scripted([[], '', '- Plan', 'resolved', 'resolved', '', null, true, 'send']);
    const r = await w.cli(['today'], { tty: true, prompter: p, env: { CHECKIN_GIT_REPOS: '' } });
    expect(r.code).toBe(0);
    expect(p.asked.find((q) => q.message === 'Are you blocked by anything?')!.default).toBe('');
    expect(patches().map((q) => q.body.blockers)).toEqual(['']);
  });
});

describe('writing hints in the preview', () => {
  it('an @mention of nobody on my teams, "none" as blockers and empty intentions: hints under the preview, and it is still sent', async () => {
    await w.cli(['me']);
    const p = scripted([[], 'Paired with @linsu and @grace', '', 'none', null, true, 'send']);
    const r = await w.cli(['today'], { tty: true, prompter: p, env: { CHECKIN_GIT_REPOS: '' } });
    expect(r.code).toBe(0);
    const preview = r.stderr.slice(r.stderr.indexOf('Preview (not sent yet):'));
    expect(preview).toBe(
      'Preview (not sent yet):\n' +
        'hint: Blockers "none" are sent as no blockers: the check-in is not marked blocked.\n' +
        'hint: Intentions are empty: your team sees no plan for the day, and your next check-in has nothing to start "previous" from.\n' +
        'hint: @linsu matches nobody on your teams: did you mean @linus?\n' +
        `✓ Checked in for ${shortDayOf(TODAY)}  ${sb.url.replace('/api/v2', '')}/app/check-ins/${sb.service.data.check_ins.find((c) => c.person_id === ada() && c.date === TODAY)!.id}\n`,
    );
    expect(r.stdout).not.toContain('Blockers\n  none');
    expect(patches().map((q) => q.body)).toEqual([
      { previous: 'Paired with @linsu and @grace', intentions: '', blockers: '', mood: null, previous_completed: true },
    ]);
  });
});

function shortDayOf(key: string) {
  const d = new Date(`${key}T12:00:00Z`);
  return `${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]} ${d.getUTCDate()} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]}`;
}
