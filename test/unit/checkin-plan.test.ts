// The check-in plan (commands/checkin/given.ts `planOf`, domain/checkin-plan.ts): what the answer
// options give, read once into one plain value — the answers, the teams, the words to keep and what
// to do — with nothing read or written on the way.
import { describe, expect, it } from 'vitest';
import { planOf, refuseContradictions, type AnswerOptions } from '../../src/commands/checkin/given.js';
import { isEmptyPlan } from '../../src/domain/checkin-plan.js';
import { UsageError } from '../../src/errors.js';

const plan = (flags: AnswerOptions, input = {}) => planOf(flags, input).plan;

describe('the plan of a check-in', () => {
  it('holds the flags as answers, --done as previous_completed, --team as given; typed words are kept', () => {
    const p = plan({ previous: 'Shipped it', intentions: 'Review\nPair', blockers: '', done: true, team: ['Platform', 'Mobile'] });
    expect(p).toEqual({
      answers: { previous: 'Shipped it', intentions: 'Review\nPair', blockers: '', previous_completed: true },
      teams: ['Platform', 'Mobile'],
      words: 'typed',
      act: 'send',
      editor: false,
    });
    // Plain data: it survives a round trip through JSON unchanged (no closures, no class).
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });

  it('a mood or --not-done alone are no words to keep; nothing at all is the act "none"', () => {
    expect(plan({ mood: 'focused', notDone: true })).toMatchObject({ answers: { mood: 'focused', previous_completed: false }, words: 'none', act: 'send' });
    expect(plan({ blockers: '' }).words).toBe('none');
    const nothing = plan({});
    expect(nothing).toMatchObject({ answers: {}, teams: [], words: 'none', act: 'none' });
    expect(isEmptyPlan(nothing)).toBe(true);
    // A team alone is something to send.
    expect(plan({ team: ['Platform'] }).act).toBe('send');
  });

  it('standard input fills the field that asked for it (trailing space trimmed), and the words are piped', () => {
    expect(plan({ previous: '-', intentions: 'Review' }, { stdin: '- Fixed the retries\n\n' })).toMatchObject({
      answers: { previous: '- Fixed the retries', intentions: 'Review' },
      words: 'piped',
    });
  });

  it('an empty pipe leaves its answer out with a note when others go, and is refused alone', () => {
    const planned = planOf({ previous: '-', intentions: 'Review' }, { stdin: '  \n' });
    expect(planned.plan.answers).toEqual({ intentions: 'Review' });
    expect(planned.notes).toEqual(['nothing came on standard input for --previous: left as it was; the other answers are sent.']);
    expect(() => planOf({ previous: '-' }, { stdin: '' })).toThrow(/^Nothing came on standard input for --previous; nothing was sent$/);
  });

  it('a file (or standard input with --from-file -) is read as the template; the flags win over it', () => {
    const file = '## Previous\nShipped it\n\n## Intentions\nReview\n\nMood: tired\n';
    expect(plan({ fromFile: 'answers.md', intentions: 'Pair' }, { file })).toMatchObject({
      answers: { previous: 'Shipped it', intentions: 'Pair', mood: 'tired' },
      words: 'piped',
    });
    expect(plan({ fromFile: '-' }, { stdin: file }).answers.previous).toBe('Shipped it');
    expect(() => planOf({ fromFile: 'empty.md' }, { file: 'hello\n' })).toThrow(UsageError);
  });

  it('a mood that cannot be read is a problem thrown once the words are kept: the plan still holds them', () => {
    const planned = planOf({ previous: 'Shipped it', mood: 'focsed' });
    expect(planned.problem).toBeInstanceOf(UsageError);
    expect((planned.problem as UsageError).message).toBe('Unknown mood "focsed"');
    expect(planned.plan).toMatchObject({ answers: { previous: 'Shipped it' }, words: 'typed' });
  });

  it('what to do: the browser first, then the suggestion, --resume, the editor, sending', () => {
    expect(plan({ web: true, suggest: true, previous: 'x' }).act).toBe('web');
    expect(plan({ suggest: true, edit: true }).act).toBe('suggest');
    expect(plan({ fromActivity: true, intentions: 'Review' }).act).toBe('from-activity');
    expect(plan({ resume: true, edit: true })).toMatchObject({ act: 'resume', editor: true });
    expect(plan({ edit: true, previous: 'x' })).toMatchObject({ act: 'edit', editor: true });
    expect(plan({ json: true })).toMatchObject({ act: 'none', json: true });
  });

  it('--resume sends what was kept: the answers given with it are no new words', () => {
    expect(plan({ resume: true, intentions: 'Review' })).toMatchObject({ answers: { intentions: 'Review' }, words: 'none', act: 'resume' });
  });

  it('options that do not go together: some refused before anything is read, the suggestion’s once the words are kept', () => {
    expect(() => refuseContradictions({ previous: '-', fromFile: '-' })).toThrow('Only one option can read standard input ("-")');
    expect(() => refuseContradictions({ done: true, notDone: true })).toThrow('--done and --not-done contradict each other; give one');
    expect(() => refuseContradictions({ fromFile: 'a.md', edit: true })).toThrow('--from-file and --edit cannot be combined');
    expect(refuseContradictions({ intentions: '-' })).toEqual(['intentions']);
    expect((planOf({ fromActivity: true, previous: 'x' }).problem as Error).message).toBe('--from-activity fills in previous; leave out --previous');
    expect((planOf({ suggest: true, fromActivity: true }).problem as Error).message).toBe(
      '--suggest prints the suggestion, --from-activity sends it: give one',
    );
    expect(planOf({ web: true, suggest: true, fromActivity: true }).problem).toBeUndefined();
  });
});
