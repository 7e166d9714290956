// Narrow terminals (issue 20): the built CLI in a real pseudo-terminal at 40, 60 and 120 columns,
// the screen read back through a headless xterm. One width rule for every table (src/ui/table.ts):
// state (done, blocked, mood, confidence) never goes before free text, every column has a header,
// free text is cut at a word edge, Markdown shows as its words. Exact screen lines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import type { CheckInRecord } from '../../src/sandbox/data.js';
import { demoData } from '../../src/sandbox/demo.js';
import { checkInId, stableUuid } from '../../src/sandbox/ids.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cleanEnv } from '../helpers/cli.js';
import { Screen } from '../helpers/terminal.js';

/** The service's today: a Friday. The CLI's own clock is never asked (every day given is explicit, or the service's). */
const NOW = new Date('2026-11-20T12:00:00Z');
const TODAY = '2026-11-20';
const YESTERDAY = '2026-11-19';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const uuid = (username: string) => stableUuid(`person:${username}`);

/**
 * The demo's people and teams with two days of history: eight check-ins (Platform every day: Ada,
 * Grace, Linus; Mobile on weekdays: Ada, Margaret; Alan is away), Markdown in the answers, one blocked.
 */
function data() {
  const d = demoData(NOW);
  d.start_date = YESTERDAY;
  const filled = (username: string, date: string, intentions: string, more: Partial<CheckInRecord> = {}): CheckInRecord => ({
    id: checkInId(uuid(username), date),
    person_id: uuid(username),
    date,
    previous: null,
    intentions,
    blockers: null,
    mood: 'focused',
    previous_completed: true,
    team_ids: null,
    completed_at: `${date}T09:00:00Z`,
    updated_at: `${date}T09:00:00Z`,
    ...more,
  });
  d.check_ins = [
    filled('grace', TODAY, '- 1:1s with @ada and @linus\n- Plan the on-call rotation', { mood: 'happy' }),
    filled('ada', YESTERDAY, '- Ship the **invoices** endpoint, see [PR 412](https://github.com/engines/billing/pull/412)\n- Pair with @linus', {
      mood: 'confident',
    }),
    filled('grace', YESTERDAY, '- Review the on-call rotation with the whole team', { mood: 'calm' }),
    filled('linus', YESTERDAY, '- Fix the __flaky__ `checkout` test before the release', {
      mood: 'stressed',
      blockers: '- Waiting on the **security review** of the billing webhooks; @grace can you nudge the reviewers this afternoon?',
    }),
    filled('margaret', YESTERDAY, '- Triage the mobile crash reports from the weekend', { mood: 'tired' }),
  ];
  // The people of this fixture: the demo's agent (a team member, not yet checked in) left out.
  for (const t of d.teams) t.people_ids = t.people_ids.filter((id) => d.people.find((p) => p.id === id)?.kind !== 'agent');
  d.comments = [];
  d.reactions = [];
  d.goal_updates = d.goal_updates.filter((u) => u.goal_id === stableUuid('goal:billing'));
  d.goals = d.goals.filter((g) => g.owner_id === uuid('ada'));
  const goal = (key: string, title: string, end_date: string | null) =>
    d.goals.push({
      id: stableUuid(`goal:${key}`),
      title,
      parent_id: null,
      end_date,
      owner_id: uuid('ada'),
      team_ids: [],
      contributor_ids: [],
      update_cadence: 'weekly',
      private: false,
      archived: false,
    });
  goal('search', 'Cut the **p95** latency of [search](https://x.test/search) below 200 ms', '2027-01-15');
  goal('handbook', 'Write the on-call handbook', null);
  const stamp = `${YESTERDAY}T16:00:00Z`;
  d.goal_updates.push({
    id: stableUuid('goal-update:search:1'),
    goal_id: stableUuid('goal:search'),
    person_id: uuid('ada'),
    title: 'Caching in',
    body: '',
    progress: 80,
    confidence: 90,
    created_at: stamp,
    updated_at: stamp,
  });
  return d;
}

beforeEach(async () => {
  sb = await startSandbox({ rateLimit: false, clock: () => NOW, data: data() });
  env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token });
});
afterEach(async () => {
  await sb.close();
});

/** The run of `checkin <args>` on a terminal `cols` wide (it must exit 0). */
async function run(args: string[], cols: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<Screen> {
  const s = new Screen(args, { ...env, ...extraEnv }, { cols, rows: 50 });
  expect(await s.exit()).toEqual({ code: 0, signal: 0 });
  return s;
}

/** What `checkin <args>` shows on a terminal `cols` wide, line by line. */
const screen = async (args: string[], cols: number): Promise<string[]> => (await run(args, cols)).text().split('\n');

const id = (username: string, date: string) => checkInId(uuid(username), date);

describe('checkin list', () => {
  it('at 120 columns: every column, each under its header; the state says blocked; Markdown as its words', async () => {
    expect(await screen(['list'], 120)).toEqual([
      'DATE        PERSON             MOOD  STATE      ID                                    INTENTIONS',
      `${TODAY}  Ada Lovelace             · pending  ${id('ada', TODAY)}`,
      `${TODAY}  Grace Hopper       🙂    ✓ filled   ${id('grace', TODAY)}  1:1s with @ada and @linus`,
      `${TODAY}  Linus Torvalds           · pending  ${id('linus', TODAY)}`,
      `${TODAY}  Margaret Hamilton        · pending  ${id('margaret', TODAY)}`,
      `${YESTERDAY}  Ada Lovelace       😎    ✓ filled   ${id('ada', YESTERDAY)}  Ship the invoices endpoint, see…`,
      `${YESTERDAY}  Grace Hopper       😌    ✓ filled   ${id('grace', YESTERDAY)}  Review the on-call rotation with…`,
      `${YESTERDAY}  Linus Torvalds     🤯    ⚠ blocked  ${id('linus', YESTERDAY)}  Fix the flaky checkout test…`,
      `${YESTERDAY}  Margaret Hamilton  😴    ✓ filled   ${id('margaret', YESTERDAY)}  Triage the mobile crash reports…`,
    ]);
  });

  it('at 60 columns: the short id stays (what `checkin checkin <id>` takes); the free text goes before it', async () => {
    const short = (u: string, d: string) => id(u, d).slice(0, 8);
    expect(await screen(['list'], 60)).toEqual([
      'DATE        PERSON             MOOD  STATE      ID',
      `${TODAY}  Ada Lovelace             · pending  ${short('ada', TODAY)}`,
      `${TODAY}  Grace Hopper       🙂    ✓ filled   ${short('grace', TODAY)}`,
      `${TODAY}  Linus Torvalds           · pending  ${short('linus', TODAY)}`,
      `${TODAY}  Margaret Hamilton        · pending  ${short('margaret', TODAY)}`,
      `${YESTERDAY}  Ada Lovelace       😎    ✓ filled   ${short('ada', YESTERDAY)}`,
      `${YESTERDAY}  Grace Hopper       😌    ✓ filled   ${short('grace', YESTERDAY)}`,
      `${YESTERDAY}  Linus Torvalds     🤯    ⚠ blocked  ${short('linus', YESTERDAY)}`,
      `${YESTERDAY}  Margaret Hamilton  😴    ✓ filled   ${short('margaret', YESTERDAY)}`,
    ]);
  });

  it('at 40 columns: the free text goes before the state; then names are cut; nothing wraps', async () => {
    expect(await screen(['list'], 40)).toEqual([
      'DATE        PERSON       MOOD  STATE',
      `${TODAY}  Ada Lovela…        · pending`,
      `${TODAY}  Grace Hopp…  🙂    ✓ filled`,
      `${TODAY}  Linus Torv…        · pending`,
      `${TODAY}  Margaret H…        · pending`,
      `${YESTERDAY}  Ada Lovela…  😎    ✓ filled`,
      `${YESTERDAY}  Grace Hopp…  😌    ✓ filled`,
      `${YESTERDAY}  Linus Torv…  🤯    ⚠ blocked`,
      `${YESTERDAY}  Margaret H…  😴    ✓ filled`,
    ]);
  });

  it('at 80 columns: short ids (the first 8 characters), the names whole', async () => {
    const lines = await screen(['list'], 80);
    expect(lines[0]).toBe('DATE        PERSON             MOOD  STATE      ID        INTENTIONS');
    expect(lines[2]).toBe(`${TODAY}  Grace Hopper       🙂    ✓ filled   ${id('grace', TODAY).slice(0, 8)}  1:1s with @ada and…`);
    expect(lines[7]).toBe(`${YESTERDAY}  Linus Torvalds     🤯    ⚠ blocked  ${id('linus', YESTERDAY).slice(0, 8)}  Fix the flaky…`);
  });

  for (const [cols, lines] of [
    [
      120,
      [
        'DATE        PERSON          MOOD  STATE      ID                                    INTENTIONS',
        `${YESTERDAY}  Linus Torvalds  🤯    ⚠ blocked  ${id('linus', YESTERDAY)}  Fix the flaky checkout test before…`,
      ],
    ],
    [60, ['DATE        PERSON          MOOD  STATE      ID', `${YESTERDAY}  Linus Torvalds  🤯    ⚠ blocked  ${id('linus', YESTERDAY).slice(0, 8)}`]],
    [40, ['DATE        PERSON       MOOD  STATE', `${YESTERDAY}  Linus Torv…  🤯    ⚠ blocked`]],
  ] as const) {
    it(`list --blocked at ${cols} columns: every row says it is blocked, under the STATE header`, async () => {
      expect(await screen(['list', '--blocked'], cols)).toEqual(lines);
    });
  }

  it('NO_COLOR and LANG=C: the same screen without colour; the state is in words, not only in red', async () => {
    const coloured = await run(['list', '--blocked'], 60);
    expect(coloured.raw).toContain('\u001b[31m⚠ blocked\u001b[39m');
    const plain = await run(['list', '--blocked'], 60, { NO_COLOR: '1', LANG: 'C', LC_ALL: 'C' });
    expect(plain.raw).not.toContain('\u001b[');
    expect(plain.text()).toBe(coloured.text());
    expect(plain.text().split('\n')).toEqual([
      'DATE        PERSON          MOOD  STATE      ID',
      `${YESTERDAY}  Linus Torvalds  🤯    ⚠ blocked  ${id('linus', YESTERDAY).slice(0, 8)}`,
    ]);
  });
});

describe('checkin goals', () => {
  const billing = stableUuid('goal:billing');
  const search = stableUuid('goal:search');
  const handbook = stableUuid('goal:handbook');
  it('at 120 columns: every column; the title Markdown as its words', async () => {
    expect(await screen(['goals'], 120)).toEqual([
      'ID                                    PROGRESS  CONFIDENCE  DUE         GOAL',
      `${billing}   35%      At risk     ${addDays(TODAY, 40)}  Ship the v2 billing API`,
      `${search}   80%      On track    2027-01-15  Cut the p95 latency of search below 200 ms`,
      `${handbook}    —       —                       Write the on-call handbook`,
    ]);
  });
  // Changed on purpose (issue 32): `goals` is where ids are found, so at 60 columns the id stays as
  // a short id (its first 8 characters, as git shows short hashes) and the due date goes.
  it('at 80 columns: short ids, and every other column', async () => {
    expect(await screen(['goals'], 80)).toEqual([
      'ID        PROGRESS  CONFIDENCE  DUE         GOAL',
      `${billing.slice(0, 8)}   35%      At risk     ${addDays(TODAY, 40)}  Ship the v2 billing API`,
      `${search.slice(0, 8)}   80%      On track    2027-01-15  Cut the p95 latency of search below…`,
      `${handbook.slice(0, 8)}    —       —                       Write the on-call handbook`,
    ]);
  });
  it('at 60 columns: short ids stay (confidence stays), the due date goes', async () => {
    expect(await screen(['goals'], 60)).toEqual([
      'ID        PROGRESS  CONFIDENCE  GOAL',
      `${billing.slice(0, 8)}   35%      At risk     Ship the v2 billing API`,
      `${search.slice(0, 8)}   80%      On track    Cut the p95 latency of…`,
      `${handbook.slice(0, 8)}    —       —           Write the on-call handbook`,
    ]);
  });
  it('at 40 columns: the due date and the id go; progress and confidence stay; titles cut at a word edge', async () => {
    expect(await screen(['goals'], 40)).toEqual([
      'PROGRESS  CONFIDENCE  GOAL',
      ' 35%      At risk     Ship the v2…',
      ' 80%      On track    Cut the p95…',
      '  —       —           Write the on-call…',
    ]);
  });
});

describe('a check-in shown whole', () => {
  it('at 40 columns: long bullets wrap at word edges and hang under their text; Markdown rendered', async () => {
    const lines = await screen(['checkin', id('linus', YESTERDAY)], 40);
    expect(lines.slice(0, -2)).toEqual([
      `Check-in ${YESTERDAY} · Linus Torvalds ·`,
      'Platform',
      'filled in at 09:00 · blocked · mood: 🤯',
      'stressed · did what was intended: yes',
      '',
      'Previous',
      '  —',
      'Intentions',
      '  - Fix the flaky `checkout` test before',
      '    the release',
      'Blockers',
      '  - Waiting on the security review of',
      '    the billing webhooks; @grace can you',
      '    nudge the reviewers this afternoon?',
      '',
    ]);
    // A link wider than the terminal is left whole (the terminal folds it; it stays one link).
    expect(lines.slice(-2).join('')).toBe(`${sb.url.replace('/api/v2', '')}/app/check-ins/${id('linus', YESTERDAY)}`);
  });
});
