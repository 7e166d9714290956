// One vocabulary of a person's state (issue 42): filled, pending, absent, nothing scheduled, blocked —
// defined once (core/member-states.ts: MEMBER_STATES, MEMBER_STATE_WORDS, memberState) and read by
// `team` (table and tab-separated), the wall (Unicode, ASCII, as lines), `status`, `list` and the
// agent's team_day schema. A view that spoke its own words would fail here.
import { describe, expect, it } from 'vitest';
import type { CheckIn } from '../../src/api/types.js';
import { MEMBER_STATE_WORDS, MEMBER_STATES, memberState, teamDays, type MemberState, type TeamDay } from '../../src/core/member-states.js';
import { makeColors } from '../../src/ui/color.js';
import { checkInRows, statusLine, teamDayView } from '../../src/ui/views.js';
import { wallAsLines, wallLines, type WallData } from '../../src/ui/wall.js';

const plain = await makeColors(0);
const NOW = new Date('2026-11-22T09:30:00Z');
const DATE = '2026-11-22';
const CHECK_INS: Record<Exclude<MemberState, 'nothing-scheduled'>, Partial<CheckIn>> = {
  blocked: { blocked: true, blockers: 'Waiting on review', completed_at: '2026-11-22T09:00:00Z' },
  pending: {},
  filled: { completed_at: '2026-11-22T09:00:00Z' },
  absent: { absent: true },
};
const ci = (name: string, extra: Partial<CheckIn>): CheckIn => ({
  id: `id-${name}`,
  date: DATE,
  person: { id: name, name },
  teams: [{ id: 't', name: 'Platform' }],
  ...extra,
});
const PEOPLE: Record<MemberState, string> = { blocked: 'Bea', pending: 'Pat', filled: 'Fay', absent: 'Abe', 'nothing-scheduled': 'Nat' };
const checkIns = (Object.keys(CHECK_INS) as Array<keyof typeof CHECK_INS>).map((s) => ci(PEOPLE[s], CHECK_INS[s]));
const DAY: TeamDay[] = teamDays([{ id: 't', name: 'Platform', people: MEMBER_STATES.map((s) => ({ id: PEOPLE[s], name: PEOPLE[s] })) }], checkIns, DATE);

describe('the vocabulary, defined once', () => {
  it('five states, each with its word, symbol, ASCII stand-in and meaning', () => {
    expect(MEMBER_STATES).toEqual(['blocked', 'pending', 'filled', 'absent', 'nothing-scheduled']);
    expect(Object.keys(MEMBER_STATE_WORDS).sort()).toEqual([...MEMBER_STATES].sort());
    expect(MEMBER_STATES.map((s) => MEMBER_STATE_WORDS[s].word)).toEqual(['blocked', 'pending', 'filled', 'absent', 'nothing scheduled']);
    // The --json value is the word, a hyphen for its space.
    for (const s of MEMBER_STATES) expect(MEMBER_STATE_WORDS[s].word.replace(/ /g, '-')).toBe(s);
    expect(new Set(MEMBER_STATES.map((s) => MEMBER_STATE_WORDS[s].symbol)).size).toBe(5);
    expect(new Set(MEMBER_STATES.map((s) => MEMBER_STATE_WORDS[s].ascii)).size).toBe(5);
    for (const s of MEMBER_STATES) expect(MEMBER_STATE_WORDS[s].ascii).toMatch(/^[\x21-\x7e]$/);
  });

  it("a check-in's state: none that day, absent, blocked, filled, pending", () => {
    expect(memberState(null)).toBe('nothing-scheduled');
    for (const s of Object.keys(CHECK_INS) as Array<keyof typeof CHECK_INS>) expect(memberState(ci('x', CHECK_INS[s]))).toBe(s);
    expect(DAY[0]!.members.map((m) => [m.person.name, m.state])).toEqual(MEMBER_STATES.map((s) => [PEOPLE[s], s]));
  });
});

describe('every view says the same words', () => {
  const said = (s: MemberState) => `${MEMBER_STATE_WORDS[s].symbol} ${MEMBER_STATE_WORDS[s].word}`;
  it('`checkin team` on a terminal and through a pipe', () => {
    const table = teamDayView({ c: plain, rich: true, width: 100, now: NOW }, DAY);
    for (const s of MEMBER_STATES) expect(table).toMatch(new RegExp(`${PEOPLE[s]} +${said(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
    expect(table).toContain('1 blocked, 1 pending, 1 filled, 1 absent, 1 nothing scheduled');
    const tsv = teamDayView({ c: plain, rich: false, width: 100, now: NOW }, DAY);
    for (const s of MEMBER_STATES) expect(tsv).toContain(`\t${PEOPLE[s]}\t${MEMBER_STATE_WORDS[s].word}\t`);
  });

  it('the wall: Unicode, ASCII and as lines (the accessible mode)', () => {
    const data: WallData = { date: DATE, teams: DAY, goals: [] };
    const unicode = wallLines({ c: plain, rich: true, width: 120, now: NOW, unicode: true }, data).join('\n');
    const ascii = wallLines({ c: plain, rich: true, width: 120, now: NOW, unicode: false }, data).join('\n');
    const lines = wallAsLines(data).join('\n');
    for (const s of MEMBER_STATES) {
      expect(unicode).toContain(said(s));
      expect(ascii).toContain(`${MEMBER_STATE_WORDS[s].ascii} ${MEMBER_STATE_WORDS[s].word}`);
      expect(lines).toContain(`${PEOPLE[s]}: ${MEMBER_STATE_WORDS[s].word}`);
    }
  });

  it("`checkin status` says today's state in the same word", () => {
    for (const s of MEMBER_STATES) expect(statusLine({ c: plain, rich: true, width: 100, now: NOW }, DATE, s)).toContain(MEMBER_STATE_WORDS[s].word);
  });

  it("`checkin list`: a listed check-in's state", () => {
    const rows = checkInRows({ c: plain, rich: true, width: 120, now: NOW }, checkIns);
    for (const s of ['blocked', 'pending', 'filled', 'absent'] as const) expect(rows).toContain(said(s));
  });
});
