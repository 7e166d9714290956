import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildTemplate, isBlankTemplate, parseMood, previousPrefill, readTemplate } from '../../src/core/checkin-answers.js';
import { MOOD_NAMES } from '../../src/api/types.js';
import { addDays, isDateKey, keysNewestFirst, localDateKey, weekdayOf } from '../../src/core/datekey.js';
import type { CheckIn } from '../../src/api/types.js';

/** A template that must be right: its answers, or its first problems as an error. */
function parseTemplate(text: string) {
  const { answers, problems } = readTemplate(text);
  if (problems.length > 0) throw new Error(problems.slice(0, 3).join('; '));
  return answers;
}

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

  it('reads --from-file documents: any heading level, missing sections not sent, \\ keeps a structure line as text', () => {
    const doc = '# Previous\nShipped it\n\n### intentions:\n```sh\n\\## Blockers\n\\Mood: not-a-mood\n```\n';
    expect(parseTemplate(doc)).toEqual({ previous: 'Shipped it', intentions: '```sh\n## Blockers\nMood: not-a-mood\n```' });
    expect(parseTemplate('Mood: 😴\n')).toEqual({ mood: 'tired' });
    expect(() => parseTemplate('Mood: grumpy')).toThrow(/^line 1: Unknown mood "grumpy"/);
  });

  it('names every problem with its line instead of dropping text', () => {
    const text = 'Notes to self\n## Previous\nDone: invoice PDF export\n## Intentions\na\n## Previous\nb\nMood: focussed\nstray\n';
    expect(readTemplate(text).problems).toEqual([
      'line 1: "Notes to self" is above the first section; put it under ## Previous, ## Intentions or ## Blockers',
      'line 3: "Done:" takes yes or no, got "invoice PDF export" (start a line with \\ to keep "Done:" as text)',
      'line 6: "## Previous" is there twice (also line 2); merge the two',
      'line 8: Unknown mood "focussed". Did you mean "focused"?',
      'line 9: "stray" is below a Mood: or Done: line, in no section; put it under ## Previous, ## Intentions or ## Blockers',
    ]);
  });

  it('round-trips any answers through the template, unchanged (property)', () => {
    const tricky = fc.constantFrom(
      '## Blockers',
      '# previous',
      '   ## Intentions:',
      '###### BLOCKERS ##',
      '## Notes',
      'Mood: focussed',
      'mood:',
      'Done: invoice PDF export',
      'DONE: yes',
      '<!-- hidden? -->',
      '  <!-- open',
      '-->',
      '\\## Blockers',
      '\\\\Mood: x',
      '\\',
      '\\n',
      '```',
      '~~~',
      '',
      ' ',
      '- bullet',
      '> quote',
    );
    const line = fc.oneof(
      tricky,
      fc.string({ maxLength: 30 }).filter((x) => !/[\r\n]/.test(x)),
      fc.string({ unit: 'grapheme', maxLength: 12 }).filter((x) => !/[\r\n]/.test(x)),
    );
    const answer = fc.option(
      fc.array(line, { maxLength: 8 }).map((ls) => ls.join('\n')),
      { nil: null },
    );
    const answers = fc.record({
      previous: answer,
      intentions: answer,
      blockers: answer,
      mood: fc.option(fc.constantFrom(...MOOD_NAMES), { nil: null }),
      previous_completed: fc.option(fc.boolean(), { nil: null }),
    });
    fc.assert(
      fc.property(answers, (a) => {
        const { answers: back, problems } = readTemplate(buildTemplate(a, '2026-11-22'));
        expect(problems).toEqual([]);
        expect(back).toEqual({
          previous: a.previous ?? '',
          intentions: a.intentions ?? '',
          blockers: a.blockers ?? '',
          mood: a.mood,
          ...(a.previous_completed !== null && { previous_completed: a.previous_completed }),
        });
      }),
      { numRuns: 2000 },
    );
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
