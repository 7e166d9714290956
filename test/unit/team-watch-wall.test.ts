// The wall of `checkin team --watch` as text (src/ui/wall.ts): the width rule at every width, the
// states a person can be in, the symbols' ASCII fallback, and the screen's rows.
import { describe, expect, it } from 'vitest';
import type { CheckIn, Goal } from '../../src/api/types.js';
import { makeColors } from '../../src/ui/color.js';
import { displayWidth } from '../../src/ui/table.js';
import type { TeamDay } from '../../src/core/member-states.js';
import { renderCheckIn } from '../../src/ui/render.js';
import { checkInRows, teamDayView, type View } from '../../src/ui/views.js';
import {
  unicodeLocale,
  wallAsLines,
  wallChanges,
  wallFooter,
  wallLines,
  wallScreen,
  type WallData,
  type WallStatus,
  type WallView,
} from '../../src/ui/wall.js';

const plain = await makeColors(0);
const view = (width: number, unicode = true): WallView => ({ c: plain, rich: true, width, now: new Date('2026-11-22T09:30:00Z'), unicode });
const ci = (name: string, extra: Partial<CheckIn>): CheckIn => ({ id: `id-${name}`, date: '2026-11-22', person: { id: name, name }, ...extra });
const member = (name: string, state: TeamDay['members'][number]['state'], c: Partial<CheckIn> | null) => ({
  person: { id: name, name },
  state,
  check_in: c ? ci(name, c) : null,
});
const DATA: WallData = {
  date: '2026-11-22',
  teams: [
    {
      team: { id: 't', name: 'Platform' },
      date: '2026-11-22',
      members: [
        member('Linus Torvalds', 'blocked', {
          blocked: true,
          blockers: 'Waiting on review',
          mood: 'stressed',
          intentions: 'Fix the flaky checkout test before the release',
          completed_at: '2026-11-22T09:00:00Z',
        }),
        member('Ada Lovelace', 'pending', { mood: null }),
        member('Margaret Hamilton', 'filled', {
          mood: 'tired',
          intentions: 'Triage the mobile crash reports from the weekend',
          completed_at: '2026-11-22T09:00:00Z',
          previous_completed: false,
        }),
        member('Grace Hopper', 'filled', { mood: 'focused', intentions: '**Ship** the wall', completed_at: '2026-11-22T09:00:00Z', previous_completed: true }),
        member('Alan Turing', 'nothing-scheduled', null),
      ],
    },
  ],
  goals: [
    { id: 'g1', title: 'Halve the mobile crash rate', progress: 60, confidence: 90, confidence_description: 'On track', end_date: '2026-12-31' },
    { id: 'g2', title: 'Write the on-call handbook', progress: null, confidence: null, confidence_description: null },
    { id: 'g3', title: 'An archived goal', progress: 100, archived: true },
  ] as Goal[],
};
const STATES = ['⚠ blocked', '· pending', '✓ filled', '○ nothing scheduled'];

describe('the wall', () => {
  it('at every width from 40 to 160: no line wider than the terminal, every state whole', () => {
    for (let width = 40; width <= 160; width++) {
      const lines = wallLines(view(width), DATA);
      for (const l of lines) expect(displayWidth(l), `${width}: ${l}`).toBeLessThanOrEqual(width);
      for (const s of STATES) expect(lines.join('\n'), `${width}`).toContain(s);
      expect(lines.join('\n')).toContain('Goals');
      expect(lines.join('\n')).not.toContain('An archived goal');
      // Each goal's title keeps a few words: the bars go below 60 columns first.
      expect(lines.join('\n'), `${width}`).toMatch(/Halve the/);
      expect(lines.join('\n').includes('██████░░░░'), `${width}`).toBe(width >= 60);
    }
  });

  it('a team where nobody has written an intention yet has no INTENTION column', () => {
    const quiet: WallData = {
      ...DATA,
      teams: [{ ...DATA.teams[0]!, members: [member('Ada Lovelace', 'pending', {}), member('Alan Turing', 'nothing-scheduled', null)] }],
    };
    const text = wallLines(view(60), quiet).join('\n');
    expect(text).toMatch(/PERSON +STATE +MOOD\n/);
    expect(text).not.toContain('INTENTION');
  });

  it('at 120 columns: mood, the first intention as plain text, progress and confidence', () => {
    const text = wallLines(view(120), DATA).join('\n');
    expect(text).toContain('Platform — 2026-11-22  1 blocked · 1 pending · 2 filled · 1 nothing scheduled');
    expect(text).toMatch(/Grace Hopper +✓ filled +🧐 +Ship the wall/);
    expect(text).toMatch(/██████░░░░  60% +On track +2026-12-31 +Halve the mobile crash rate/);
    expect(text).toMatch(/ — +— +Write the on-call handbook/);
  });

  it("a state is one of the five words every face uses: each person's as `checkin team` shows it, the counts as it counts them", () => {
    const absent = { ...DATA, teams: [{ ...DATA.teams[0]!, members: [...DATA.teams[0]!.members, member('Joan Clarke', 'absent', { absent: true })] }] };
    const wall = wallLines(view(120), absent).join('\n');
    const team = teamDayView(view(120), absent.teams);
    // The head line's counts, and each person's state cell (a filled check-in that says yesterday's plan was done is filled).
    const counts = (text: string, sep: string) => /2026-11-22 {2}(.*)/.exec(text)![1]!.split(sep);
    expect(counts(wall, ' · ')).toEqual(counts(team, ', '));
    expect(counts(wall, ' · ')).toEqual(['1 blocked', '1 pending', '2 filled', '1 absent', '1 nothing scheduled']);
    const stateOf = (text: string, name: string) => new RegExp(`${name} +(\\S+ [a-z]+(?: [a-z]+)?)`).exec(text)![1];
    for (const m of absent.teams[0]!.members) expect(stateOf(wall, m.person.name), m.person.name).toBe(stateOf(team, m.person.name));
    expect(wall).not.toMatch(/did as planned|★/);
    expect(wallAsLines(absent).join('\n')).not.toMatch(/did as planned/);
  });

  it('without a UTF-8 locale: ASCII only, the mood as its word', () => {
    expect(unicodeLocale({ LANG: 'C' })).toBe(false);
    expect(unicodeLocale({})).toBe(false);
    expect(unicodeLocale({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(unicodeLocale({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    for (const width of [40, 60, 120]) {
      const text = wallLines(view(width, false), DATA).join('\n');
      expect(text, `${width}`).toMatch(/^[\x20-\x7e\n]*$/);
      for (const s of ['! blocked', '. pending', '+ filled', 'o nothing scheduled']) expect(text).toContain(s);
    }
    expect(wallLines(view(120, false), DATA).join('\n')).toMatch(/Grace Hopper +\+ filled +focused +Ship the wall/);
  });

  it('the screen: the footer on the last row; a wall taller than the window says how much is left out', () => {
    const status: WallStatus = {
      updatedAt: new Date(2026, 10, 22, 9, 30),
      checkedAt: new Date(2026, 10, 22, 9, 31),
      nextAt: new Date(2026, 10, 22, 9, 31, 30),
      slowed: false,
      intervalS: 30,
    };
    const footer = wallFooter(view(100), status);
    expect(footer).toBe('updated 09:30:00 · checked 09:31:00 · next 09:31:30 · q quit, r refresh');
    expect(wallFooter(view(40), status)).toBe('updated 09:30:00 · q quit, r refresh');
    const lines = wallLines(view(100), DATA);
    const tall = wallScreen(view(100), lines, footer, 40);
    expect(tall).toHaveLength(40);
    expect(tall.at(-1)).toBe(footer);
    const short = wallScreen(view(100), lines, footer, 8);
    expect(short).toHaveLength(8);
    expect(short[6]).toBe(`… ${lines.length - 6} more lines: make the window taller`);
    expect(short[7]).toBe(footer);
  });
});

describe('the wall as lines (the accessible mode)', () => {
  it('one line a person: state and mood in words, the first intention, what blocks them; then the goals', () => {
    expect(wallAsLines(DATA)).toEqual([
      'Team Platform, 2026-11-22: 1 blocked, 1 pending, 2 filled, 1 nothing scheduled',
      '  Linus Torvalds: blocked, mood stressed, intends: Fix the flaky checkout test before the release, blocked by: Waiting on review',
      '  Ada Lovelace: pending',
      '  Margaret Hamilton: filled, mood tired, intends: Triage the mobile crash reports from the weekend',
      '  Grace Hopper: filled, mood focused, intends: Ship the wall',
      '  Alan Turing: nothing scheduled',
      'Goals (2):',
      '  Goal Halve the mobile crash rate: 60% done, confidence On track, due 2026-12-31',
      '  Goal Write the on-call handbook: no progress yet',
    ]);
  });

  it('what blocks them: the first real blocker (not a "None" paragraph or a heading above it), and how many more', () => {
    const blocked = (blockers: string): WallData => ({
      ...DATA,
      goals: [],
      teams: [{ ...DATA.teams[0]!, members: [member('Linus Torvalds', 'blocked', { blocked: true, blockers, completed_at: '2026-11-22T09:00:00Z' })] }],
    });
    expect(wallAsLines(blocked('None\n\nWaiting on @ada for the deploy key'))[1]).toBe(
      '  Linus Torvalds: blocked, blocked by: Waiting on @ada for the deploy key',
    );
    expect(wallAsLines(blocked('# Nothing blocked\n- @ada blocked by CI\n- The VPN'))[1]).toBe(
      '  Linus Torvalds: blocked, blocked by: @ada blocked by CI (and 1 more)',
    );
  });

  it('what changed, one line each; nothing when nothing changed', () => {
    expect(wallChanges(DATA, DATA)).toEqual([]);
    const team = DATA.teams[0]!;
    const after: WallData = {
      ...DATA,
      teams: [
        {
          ...team,
          members: [
            ...team.members.filter((m) => !['Ada Lovelace', 'Alan Turing'].includes(m.person.name)),
            member('Ada Lovelace', 'filled', { mood: 'calm', intentions: 'Pair on the wall', completed_at: '2026-11-22T09:40:00Z' }),
            member('Joan Clarke', 'nothing-scheduled', null),
          ],
        },
      ],
      goals: [{ ...DATA.goals[0]!, progress: 70 }, DATA.goals[2]!, { id: 'g4', title: 'A new goal', progress: 0 } as Goal],
    };
    expect(wallChanges(DATA, after)).toEqual([
      'Platform: Ada Lovelace: filled, mood calm, intends: Pair on the wall (was pending)',
      'Platform: joined: Joan Clarke: nothing scheduled',
      'Platform: Alan Turing is no longer in the team',
      'Goal Halve the mobile crash rate: 70% done, confidence On track, due 2026-12-31',
      'New: Goal A new goal: 0% done',
      'Gone: Goal Write the on-call handbook: no progress yet',
    ]);
  });
});

describe('colour is never the only carrier of meaning', () => {
  const SGR = /\x1b\[[0-9;]*m/g;
  it('the wall, with colour and without: the same words, each state its own', async () => {
    const colored = await makeColors(3);
    for (const unicode of [true, false]) {
      const withColour = wallLines({ ...view(120, unicode), c: colored }, DATA).join('\n');
      expect(withColour).toMatch(SGR);
      expect(withColour.replace(SGR, '')).toBe(wallLines(view(120, unicode), DATA).join('\n'));
      for (const word of ['blocked', 'pending', 'filled', 'nothing scheduled']) expect(withColour.replace(SGR, '')).toContain(word);
    }
  });

  it("`checkin team`, `checkin list` and a check-in's view: without colour the same words, each state its own", async () => {
    const colored = await makeColors(3);
    const rich = (c: typeof plain): View => ({ c, rich: true, width: 120, now: new Date('2026-11-22T09:30:00Z') });
    const checkIns = DATA.teams[0]!.members.flatMap((m) => (m.check_in ? [m.check_in] : []));
    const cases: Array<[string, (c: typeof plain) => string, string[]]> = [
      ['team', (c) => teamDayView(rich(c), DATA.teams), ['⚠ blocked', '· pending', '✓ filled', '○ nothing scheduled']],
      ['list', (c) => checkInRows(rich(c), checkIns), ['⚠ blocked', '· pending', '✓ filled']],
      ['blocked check-in', (c) => renderCheckIn(checkIns[0]!, c, true, 120), ['filled in at', 'blocked', 'mood: 🤯 stressed']],
      ['pending check-in', (c) => renderCheckIn(checkIns[1]!, c, true, 120), ['not filled in yet', 'mood: none']],
    ];
    for (const [what, view, words] of cases) {
      const withColour = view(colored);
      expect(withColour, what).toMatch(SGR);
      expect(withColour.replace(SGR, ''), what).toBe(view(plain));
      for (const word of words) expect(view(plain), `${what}: ${word}`).toContain(word);
    }
  });
});
