// Short ids (src/core/short-ids.ts) and the width rule's rule 0: ids shown short where room is tight.
import { describe, expect, it } from 'vitest';
import { isIdPrefix, matchPrefix, ShortIds, shortIds } from '../../src/core/short-ids.js';
import { makeColors } from '../../src/ui/color.js';
import { checkInRowStream, goalRows, type View } from '../../src/ui/views.js';
import type { CheckIn, Goal } from '../../src/api/types.js';

const COLORS = await makeColors(0);

const A = '3308a89a-1006-5ad0-94a3-d9510e51aecb';
const B = '3308a89a-1f06-5ad0-94a3-000000000000'; // shares A's first 10 characters
const C = '3308a89b-0000-4000-8000-000000000000';
const D = 'e633d1ae-0000-4000-8000-000000000000';

describe('short ids', () => {
  it('the first 8 characters, longer only where two ids of the listing share them (as git)', () => {
    const m = shortIds([A, C, D]);
    expect([m.get(A), m.get(C), m.get(D)]).toEqual(['3308a89a', '3308a89b', 'e633d1ae']);
    const n = shortIds([A, B, D]);
    expect([n.get(A), n.get(B), n.get(D)]).toEqual(['3308a89a-10', '3308a89a-1f', 'e633d1ae']);
  });
  it('across pages: a later id that shares an earlier one’s start gets a longer one; the earlier keeps its own', () => {
    const s = new ShortIds();
    s.add([A, D]);
    expect(s.short(A)).toBe('3308a89a');
    s.add([B]);
    expect(s.short(B)).toBe('3308a89a-1f');
    expect(s.short(A)).toBe('3308a89a');
  });
  it('a prefix is hex with dashes where a UUID has them, 4 to 18 long (longer: a UUID cut short)', () => {
    for (const p of ['3308', '3308a89a', '3308a89a-10', '3308a89a-1006-5ad0', 'E633D1AE']) expect(isIdPrefix(p), p).toBe(true);
    for (const p of ['330', 'friday', '3308a89a-', '3308-a89a', 'today', '2026-11-20', '3308a89a-1006-5ad0-94a3', A]) expect(isIdPrefix(p), p).toBe(false);
    expect(matchPrefix('3308A89A', [A, B, C, D]).sort()).toEqual([B, A].sort());
    expect(matchPrefix('3308a89b', [A, C])).toEqual([C]);
  });
});

describe('ids at 60, 80 and 120 columns', () => {
  const view = (width: number): View => ({ c: COLORS, rich: true, width, now: new Date('2026-11-20T12:00:00Z') });
  const goal = (id: string, title: string): Goal =>
    ({ id, title, progress: 40, confidence: 90, confidence_description: 'On track', end_date: '2027-01-15' }) as Goal;
  const goals = [goal(A, 'Ship the v2 billing API'), goal(B, 'Cut the p95 latency of search below 200 ms'), goal(D, 'Write the on-call handbook')];
  it('goals: whole ids at 120, short (unique) ids at 80 and 60', () => {
    expect(goalRows(view(120), goals).split('\n')[1]).toBe(`${A}   40%      On track    2027-01-15  Ship the v2 billing API`);
    for (const width of [80, 60]) {
      const lines = goalRows(view(width), goals).split('\n');
      expect(lines[0]!.startsWith('ID  ')).toBe(true);
      expect(lines[1]!.startsWith('3308a89a-10  ')).toBe(true);
      expect(lines[2]!.startsWith('3308a89a-1f  ')).toBe(true);
      expect(lines[3]!.startsWith('e633d1ae ')).toBe(true);
      for (const l of lines) expect([...l].length).toBeLessThanOrEqual(width);
    }
  });
  it('list --all: short ids unique across pages', () => {
    const ci = (id: string) =>
      ({
        id,
        date: '2026-11-19',
        person: { id: 'p', name: 'Linus Torvalds' },
        mood: null,
        completed_at: null,
        blocked: false,
        intentions: '- Ship it',
      }) as unknown as CheckIn;
    const part = checkInRowStream(view(80));
    expect(part([ci(A), ci(D)])).toContain('  3308a89a  Ship it');
    expect(part([ci(B)])).toContain('3308a89a-1f');
  });
});
