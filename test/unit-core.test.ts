import { describe, expect, it } from 'vitest';
import { buildTemplate, isBlankTemplate, parseMood, parseTemplate, previousPrefill } from '../src/core/answers.js';
import { addDays, isDateKey, keysNewestFirst, localDateKey, weekdayOf } from '../src/core/datekey.js';
import type { CheckIn } from '../src/api/types.js';

describe('date keys', () => {
  it('is the local date, not the UTC one', () => {
    const prev = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Auckland'; // UTC+13 in November
      expect(localDateKey(new Date('2026-11-21T12:30:00Z'))).toBe('2026-11-22');
      process.env.TZ = 'America/Los_Angeles';
      expect(localDateKey(new Date('2026-11-21T05:30:00Z'))).toBe('2026-11-20');
    } finally {
      process.env.TZ = prev;
    }
  });

  it('validates real calendar dates', () => {
    expect(['2026-02-28', '2024-02-29', '2026-12-31'].map(isDateKey)).toEqual([true, true, true]);
    expect(['2026-02-29', '2026-13-01', '2026-00-10', '2026-1-01', 'today', '2026-04-31'].map(isDateKey)).toEqual([false, false, false, false, false, false]);
  });

  it('does calendar arithmetic across months, years and DST', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(weekdayOf('2026-11-21')).toBe(6);
    expect(keysNewestFirst('2026-11-19', '2026-11-21')).toEqual(['2026-11-21', '2026-11-20', '2026-11-19']);
    expect(keysNewestFirst('2026-11-22', '2026-11-21')).toEqual([]);
  });
});

describe('answers', () => {
  it('parses moods by name in any case or by emoji, and refuses others listing the valid ones', () => {
    expect(parseMood('Focused')).toBe('focused');
    expect(parseMood('🧐')).toBe('focused');
    expect(parseMood('none')).toBeNull();
    expect(() => parseMood('ecstatic')).toThrow(/Valid moods: calm, happy, excited, .* sick \(or none\)/);
  });

  it('round-trips the editor template', () => {
    const values = { previous: '- Did A\n- Did B', intentions: '- Do C', blockers: null, mood: 'calm' as const, previous_completed: false };
    const text = buildTemplate(values, '2026-11-21');
    expect(parseTemplate(text)).toEqual({ previous: '- Did A\n- Did B', intentions: '- Do C', blockers: '', mood: 'calm', previous_completed: false });
  });

  it('reads --from-file documents: any heading level, missing sections not sent, code fences kept', () => {
    const doc = '# Previous\nShipped it\n\n### intentions:\n```sh\n## Blockers\nMood: not-a-mood\n```\n';
    expect(parseTemplate(doc)).toEqual({ previous: 'Shipped it', intentions: '```sh\n## Blockers\nMood: not-a-mood\n```' });
    expect(parseTemplate('Mood: 😴\n')).toEqual({ mood: 'tired' });
    expect(() => parseTemplate('Mood: grumpy')).toThrow(/Unknown mood "grumpy"/);
  });

  it('treats an emptied template as a cancel', () => {
    expect(isBlankTemplate(parseTemplate(buildTemplate({}, '2026-11-21')))).toBe(true);
    expect(isBlankTemplate(parseTemplate('## Blockers\nyes'))).toBe(false);
  });

  it('prefills previous from the latest earlier check-in that has intentions', () => {
    const c = (date: string, intentions: string | null, previous: string | null = null) => ({ date, intentions, previous }) as CheckIn;
    expect(previousPrefill(c('2026-11-21', null), [c('2026-11-20', null), c('2026-11-19', '- Plan')])).toBe('- Plan');
    expect(previousPrefill(c('2026-11-21', null, 'Already'), [c('2026-11-20', '- Plan')])).toBe('Already');
    expect(previousPrefill(null, [])).toBeNull();
  });
});
