// core/blockers.ts on its own: blockers as items, days in a row, @mentions, "none", the writing hints.
import { describe, expect, it } from 'vitest';
import type { CheckIn } from '../../src/api/types.js';
import {
  asSent,
  blockerItems,
  blockerRuns,
  daysLabel,
  isNoBlockers,
  joinBlockers,
  longestRun,
  mentions,
  mentionsIn,
  writingHints,
} from '../../src/core/blockers.js';

const ada = { id: 'a', name: 'Ada Lovelace' };
const day = (date: string, blockers: string | null, more: Partial<CheckIn> = {}): CheckIn =>
  ({ id: `c-${date}`, date, person: ada, blockers, blocked: Boolean(blockers), completed_at: `${date}T09:00:00Z`, absent: false, ...more }) as CheckIn;

describe('blocker items', () => {
  it('bullets are items (continuation lines with them); text without bullets is one per paragraph; words compared without case or spacing', () => {
    expect(blockerItems('- Waiting on **review**\n  of the webhooks\n- CI is red').map((i) => i.text)).toEqual([
      '- Waiting on **review**\n  of the webhooks',
      '- CI is red',
    ]);
    expect(blockerItems('Waiting on review\nof the webhooks\n\nCI is red').map((i) => i.key)).toEqual(['waiting on review of the webhooks', 'ci is red']);
    expect(blockerItems('1. One\n2) Two').map((i) => i.key)).toEqual(['one', 'two']);
    expect(blockerItems('-   Waiting  on Review')[0]!.key).toBe(blockerItems('* waiting on review ')[0]!.key);
    expect(blockerItems('')).toEqual([]);
    expect(blockerItems(null)).toEqual([]);
    expect(blockerItems('None')).toEqual([]);
  });
});

describe('days in a row', () => {
  const today = day('2026-11-22', '- Review\n- CI is red');
  it('counts back through the check-ins that carry the blocker; the first without it ends the run', () => {
    const history = [day('2026-11-21', '- review'), day('2026-11-20', 'Review\n\nSomething else'), day('2026-11-19', null), day('2026-11-18', '- Review')];
    expect(blockerRuns(today, history).map((r) => [r.key, r.days, r.since, r.at_least])).toEqual([
      ['review', 3, '2026-11-20', false],
      ['ci is red', 1, '2026-11-22', false],
    ]);
    expect(longestRun(today, history)).toEqual({ days: 3, since: '2026-11-20', at_least: false });
  });

  it('a check-in not filled in ends a run; an absent day is skipped; other people and later days do not count; order does not matter', () => {
    expect(longestRun(today, [day('2026-11-21', null, { completed_at: null }), day('2026-11-20', 'Review')])!.days).toBe(1);
    expect(longestRun(today, [day('2026-11-20', 'Review'), day('2026-11-21', null, { absent: true, completed_at: null })])).toEqual({
      days: 2,
      since: '2026-11-20',
      at_least: true,
    });
    expect(longestRun(today, [day('2026-11-21', 'Review', { person: { id: 'b', name: 'Bea' } }), day('2026-11-23', 'Review')])).toEqual({
      days: 1,
      since: '2026-11-22',
      at_least: false,
    });
  });

  it('a run through every check-in looked at may be longer: "3+ days"', () => {
    const run = longestRun(today, [day('2026-11-21', 'Review'), day('2026-11-20', 'Review')])!;
    expect(run).toEqual({ days: 3, since: '2026-11-20', at_least: true });
    expect(daysLabel(run)).toBe('3+ days');
    expect(daysLabel({ days: 1, since: '2026-11-22', at_least: false })).toBe('1 day');
    expect(daysLabel({ days: 3, since: '2026-11-20', at_least: false })).toBe('3 days');
  });

  it('no blockers, no run', () => {
    expect(longestRun(day('2026-11-22', null), [])).toBeUndefined();
  });
});

describe('"none" as blockers', () => {
  it('none, no, n/a, nothing and "-" in any case, trimmed (a full stop allowed), and nothing else', () => {
    for (const t of ['none', 'NONE', ' No ', 'n/a', 'N/A.', 'nothing', 'Nothing.', '-', ' - ']) expect(isNoBlockers(t), t).toBe(true);
    for (const t of ['', 'none yet, but soon', 'No reviewers', 'n/a: waiting on legal', '--', 'nope?', 'No access to prod', 'none\n- but the VPN'])
      expect(isNoBlockers(t), t).toBe(false);
    // "no blockers" said in words, and one none-word as a bullet.
    for (const t of ['No blockers', 'no blockers.', '- none', '* N/A']) expect(isNoBlockers(t), t).toBe(true);
    expect(asSent({ blockers: 'None', intentions: 'x' })).toEqual({ blockers: '', intentions: 'x' });
    expect(asSent({ blockers: 'Blocked on none of it' })).toEqual({ blockers: 'Blocked on none of it' });
  });
});

describe('@mentions', () => {
  it('handles as the service reads them: not inside words, e-mail addresses, URLs or code; a person by @username only (what the service links)', () => {
    expect(mentionsIn("Waiting on @ada's review, cc @Grace. Mail ada@example.com, not @linus-")).toEqual(['ada', 'grace', 'linus']);
    expect(mentionsIn('Bump `@types/node`, see https://github.com/@ada and @types/node; ask @grace')).toEqual(['grace']);
    expect(mentions('Waiting on @Ada', { name: 'Ada Lovelace', username: 'ada' })).toBe(true);
    expect(mentions('Waiting on @lovelace', { name: 'Ada Lovelace', username: 'ada' })).toBe(false);
    // A first name is not a mention the service links: Ada Byron is not named by @ada (Ada Lovelace's).
    expect(mentions('Waiting on @ada', { name: 'Ada Byron', username: 'abyron' })).toBe(false);
    expect(mentions('Waiting on @grace', { name: 'Grace Hopper', username: 'ghopper' })).toBe(false);
    expect(mentions('Waiting on ada', { name: 'Ada Lovelace', username: 'ada' })).toBe(false);
  });
});

describe('writing hints', () => {
  const team = [
    { name: 'Ada Lovelace', username: 'ada' },
    { name: 'Linus Torvalds', username: 'linus' },
  ];
  it('an @mention of nobody on the teams (with the near ones), once each; none when the members are not known', () => {
    expect(writingHints({ previous: 'Paired with @linsu', intentions: '- More with @linsu and @zed', blockers: '@ada' }, team).map((h) => h.text)).toEqual([
      '@linsu matches nobody on your teams: did you mean @linus?',
      '@zed matches nobody on your teams.',
    ]);
    expect(writingHints({ previous: 'Paired with @linsu' }, undefined)).toEqual([]);
  });
  it('a first name where the @username was meant: the hint names the username', () => {
    expect(writingHints({ intentions: 'Pair with @grace' }, [{ name: 'Grace Hopper', username: 'ghopper' }]).map((h) => h.text)).toEqual([
      '@grace matches nobody on your teams: did you mean @ghopper?',
    ]);
  });
  it('"none" as blockers, and empty intentions (only when intentions are part of what stands)', () => {
    expect(writingHints({ blockers: 'n/a', intentions: '  ' }, team)).toEqual([
      { kind: 'no-blockers', text: 'Blockers "n/a" are sent as no blockers: the check-in is not marked blocked.' },
      {
        kind: 'empty-intentions',
        text: 'Intentions are empty: your team sees no plan for the day, and your next check-in has nothing to start "previous" from.',
      },
    ]);
    expect(writingHints({ blockers: 'Real', intentions: '- Plan' }, team)).toEqual([]);
    expect(writingHints({ blockers: '' }, team)).toEqual([]);
  });
});

describe("blockers kept one by one (today's form)", () => {
  it('read back as the same items, so each keeps its days in a row', () => {
    expect(blockerItems(joinBlockers(['Waiting on DB access', 'Need review from @ada'])).map((i) => i.text)).toEqual([
      'Waiting on DB access',
      'Need review from @ada',
    ]);
    expect(blockerItems(joinBlockers(['- Waiting on DB access', 'Need review'])).map((i) => i.text)).toEqual(['- Waiting on DB access', '- Need review']);
    expect(joinBlockers(['- One\n  more of it', '', '- Two  '])).toBe('- One\n  more of it\n- Two');
  });
});
