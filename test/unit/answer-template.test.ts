// The answer template's pure parts: read by the editor's own reader (only what it says is kept),
// filling what a check-in does not say, *previous* merged in the documented order, and the
// setting's value (a path made absolute, ~ kept).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTemplate, mergeLines, readAnswerTemplate, withTemplate } from '../../src/core/checkin-answers.js';
import { parsePreference, preferencesOf } from '../../src/config/prefs.js';
import { inHome } from '../../src/config/paths.js';

describe('readAnswerTemplate', () => {
  it("reads the editor's headings, Mood: and Done:, comments left out", () => {
    const text = [
      '<!-- Our standup: keep it short. -->',
      '# Previous',
      '- Reviewed the open PRs',
      '',
      '### Intentions:',
      '- Team sync at 10',
      '- ',
      '',
      'Mood: focused',
      'Done: yes',
    ].join('\n');
    expect(readAnswerTemplate(text)).toEqual({
      answers: { previous: '- Reviewed the open PRs', intentions: '- Team sync at 10\n-', mood: 'focused', previous_completed: true },
      problems: [],
    });
  });

  it('an empty section, an empty Mood: or Done: gives nothing: a template never clears an answer', () => {
    const empty = buildTemplate({}, '2026-11-22');
    expect(readAnswerTemplate(empty)).toEqual({ answers: {}, problems: [] });
    expect(readAnswerTemplate('## Blockers\n\n   \nMood:\nDone:\n')).toEqual({ answers: {}, problems: [] });
  });

  it('what the editor would refuse is a problem, naming the line (the template is then not used)', () => {
    expect(readAnswerTemplate('Hello\n## Previous\nx\n').problems).toEqual([
      'line 1: "Hello" is above the first section; put it under ## Previous, ## Intentions or ## Blockers',
    ]);
    expect(readAnswerTemplate('## Intentions\nMood: sleepy\n').problems[0]).toMatch(/^line 2: Unknown mood "sleepy"/);
  });

  it('keeps text as text: an escaped heading, Markdown, hidden characters are data, never read as more', () => {
    const text = '## Intentions\n\\## Blockers\n- [x](javascript:alert(1)) \u001b[31mred\n';
    expect(readAnswerTemplate(text).answers).toEqual({ intentions: '## Blockers\n- [x](javascript:alert(1)) \u001b[31mred' });
  });
});

describe('withTemplate', () => {
  const template = { previous: '- Standing', intentions: '- Sync', blockers: '- Waiting on IT', mood: 'calm' as const, previous_completed: false };

  it('fills only what the check-in does not say; the fields left to their own merge are left', () => {
    expect(withTemplate({ previous: null, intentions: null, blockers: null, mood: null }, template, ['previous', 'blockers'])).toEqual({
      previous: null,
      intentions: '- Sync',
      blockers: null,
      mood: 'calm',
      previous_completed: false,
    });
    expect(withTemplate({ intentions: 'Mine', mood: 'tired', previous_completed: true }, template)).toEqual({
      previous: '- Standing',
      intentions: 'Mine',
      blockers: '- Waiting on IT',
      mood: 'tired',
      previous_completed: true,
    });
    expect(withTemplate({ intentions: 'Mine' }, undefined)).toEqual({ intentions: 'Mine' });
  });
});

describe('mergeLines', () => {
  it("the template's lines, then the last intentions, then what went on since: each line once, in that order", () => {
    expect(mergeLines('- Standing\n- Review PRs', '- Review PRs  \n\n- Ship it', '- Ship it\n- PR #412')).toBe(
      '- Standing\n- Review PRs\n- Ship it\n- PR #412',
    );
    expect(mergeLines(undefined, null, '')).toBeNull();
    expect(mergeLines(null, 'only')).toBe('only');
  });
});

describe('the template setting', () => {
  it('a path made absolute from the current folder; ~ kept, read as the home folder when used', () => {
    expect(parsePreference('template', 'standup.md')).toBe(resolve('standup.md'));
    expect(parsePreference('template', ' ~/notes/standup.md ')).toBe('~/notes/standup.md');
    expect(inHome({ HOME: '/home/ada' }, '~/notes/standup.md')).toBe('/home/ada/notes/standup.md');
    expect(inHome({ HOME: '/home/ada' }, '/srv/t.md')).toBe('/srv/t.md');
    expect(() => parsePreference('template', '  ')).toThrow('The template setting cannot be empty');
    expect(() => parsePreference('template', 'a\nb')).toThrow('must be one line');
    expect(preferencesOf({ template: '/srv/t.md', git_repos: ['~'] })).toEqual({ template: '/srv/t.md', git_repos: ['~'] });
    expect(preferencesOf({ template: 42 })).toEqual({});
  });
});
