// The accessible mode's questions (src/ui/plain-prompts.ts) over buffered streams: what each
// question writes, what each kind of answer gives back (numbers, words, ranges, defaults, answers
// that are not one of the choices, asked again), and Ctrl-D (the end of input) as a cancel. The
// real terminal is test/terminal/accessible.test.ts.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/errors.js';
import { accessibleFor } from '../../src/ui/io.js';
import { matchChoice, parseNumbers, plainPrompter } from '../../src/ui/plain-prompts.js';
import { terminalPrompter } from '../../src/ui/prompter.js';
import { bufferIO } from '../helpers/io.js';

/** A prompter whose standard input is `typed` (ended after it), and what it wrote. */
function typing(...typed: string[]) {
  const io = bufferIO({ tty: true, accessible: true });
  const stdin = io.stdin as PassThrough;
  stdin.end(typed.map((t) => `${t}\n`).join(''));
  return { p: plainPrompter(io), out: () => io.stdoutText() };
}

describe('the switch', () => {
  it('CHECKIN_ACCESSIBLE wins over the setting; empty leaves it to the setting', () => {
    expect(accessibleFor({}, undefined)).toBe(false);
    expect(accessibleFor({}, 'true')).toBe(true);
    expect(accessibleFor({}, 'false')).toBe(false);
    expect(accessibleFor({ CHECKIN_ACCESSIBLE: '1' }, 'false')).toBe(true);
    expect(accessibleFor({ CHECKIN_ACCESSIBLE: 'true' }, undefined)).toBe(true);
    for (const off of ['0', 'false', 'no', 'off', 'OFF']) expect(accessibleFor({ CHECKIN_ACCESSIBLE: off }, 'true'), off).toBe(false);
    expect(accessibleFor({ CHECKIN_ACCESSIBLE: '' }, 'true')).toBe(true);
  });

  it('the terminal prompter is the plain one in the accessible mode', async () => {
    const io = bufferIO({ tty: true, accessible: true });
    (io.stdin as PassThrough).end('y\n');
    expect(await terminalPrompter(io).confirm('Go on?')).toBe(true);
    expect(io.stdoutText()).toBe('Go on? (y or n; Enter alone: y): ');
  });
});

describe('plain questions', () => {
  it('select: the numbered list once, a number or words; a wrong answer is said and asked again; Enter alone the default', async () => {
    const t = typing('7', 'n');
    const choices = [
      { name: 'Yes', value: true },
      { name: 'No', value: false },
      { name: 'Skip', value: null },
    ];
    expect(await t.p.select('Did you do what you intended?', choices, { default: true })).toBe(false);
    expect(t.out()).toBe(
      'Did you do what you intended?\n  1. Yes\n  2. No\n  3. Skip\n' +
        'Type a number from 1 to 3, or its words (Enter alone picks 1, Yes): "7" is not one of them.\n' +
        'Type a number from 1 to 3, or its words (Enter alone picks 1, Yes): Chosen: 2. No\n',
    );
    const d = typing('');
    expect(await d.p.select('Did you?', choices, { default: null })).toBe(null);
    expect(d.out()).toContain('(Enter alone picks 3, Skip)');
  });

  it('search: words that fit several are listed to choose from', async () => {
    const t = typing('s', '2');
    const moods = ['😌 calm', '😴 sleepy', '😲 surprised', '🤯 stressed'].map((name) => ({ name, value: name.split(' ')[1] }));
    expect(await t.p.search('Mood', moods)).toBe('sleepy');
    expect(t.out()).toContain('"s" fits 3 of them: 2. 😴 sleepy; 3. 😲 surprised; 4. 🤯 stressed. Type one number.\n');
    expect(t.out()).toContain('Chosen: 2. 😴 sleepy\n');
    const u = typing('surp');
    expect(await u.p.search('Mood', moods)).toBe('surprised');
  });

  it('checkbox: groups as headings, picked ones say so; numbers, ranges, all, none; Enter keeps what is picked', async () => {
    const choices = [
      { name: '- **a**', value: 'a', checked: true, group: 'Planned' },
      { name: '- b', value: 'b', checked: true, group: 'Planned' },
      { name: '- c', value: 'c', checked: false, group: 'Activity' },
    ];
    const t = typing('');
    expect(await t.p.checkbox('What went on?', choices)).toEqual(['a', 'b']);
    expect(t.out()).toBe(
      'What went on?\nPlanned:\n  1. (picked) - a\n  2. (picked) - b\nActivity:\n  3. - c\n' +
        'The numbers to pick, separated by commas or spaces, or "all" or "none" (Enter alone: 1, 2): Picked 2 of 3: 1, 2.\n',
    );
    expect(await typing('3, 1').p.checkbox('?', choices)).toEqual(['a', 'c']);
    expect(await typing('2-3').p.checkbox('?', choices)).toEqual(['b', 'c']);
    expect(await typing('all').p.checkbox('?', choices)).toEqual(['a', 'b', 'c']);
    expect(await typing('none').p.checkbox('?', choices)).toEqual([]);
    const bad = typing('4', 'x', '1');
    expect(await bad.p.checkbox('?', choices)).toEqual(['a']);
    expect(bad.out()).toContain('"4" is not a list of numbers from 1 to 3.\n');
    expect(bad.out()).toContain('"x" is not a list of numbers from 1 to 3.\n');
  });

  it('confirm: y or n, Enter alone the default, anything else asked again', async () => {
    expect(await typing('').p.confirm('Delete?', { default: false })).toBe(false);
    expect(await typing('YES').p.confirm('Delete?', { default: false })).toBe(true);
    const t = typing('maybe', 'n');
    expect(await t.p.confirm('Delete?')).toBe(false);
    expect(t.out()).toBe('Delete? (y or n; Enter alone: y): "maybe": type y for yes or n for no.\nDelete? (y or n; Enter alone: y): ');
  });

  it('input: Enter alone keeps the default', async () => {
    const t = typing('');
    expect(await t.p.input('Title', { default: 'Ship it' })).toBe('Ship it');
    expect(t.out()).toBe('Title (Enter alone keeps "Ship it"): ');
    expect(await typing('New').p.input('Title', { default: 'Ship it' })).toBe('New');
  });

  it('lines: the note, never the keys; an empty line ends; each line heard as it comes', async () => {
    const heard: string[] = [];
    const t = typing('- one', '- two', '', 'not read');
    expect(await t.p.lines('What next?', { note: 'Suggested from Mon.', keys: 'Backspace: edit the line above', onInput: (x) => heard.push(x) })).toBe(
      '- one\n- two',
    );
    expect(t.out()).toBe('What next?\nSuggested from Mon.\nType the answer, one line at a time; an empty line ends it.\n');
    expect(heard).toEqual(['- one', '- one\n- two']);
  });

  it('lines that are there already: kept, added to, some kept, written anew or cleared', async () => {
    const start = { lines: ['- a', '- b', '- c'] };
    expect(await typing('').p.lines('Q', start)).toBe('- a\n- b\n- c');
    expect(await typing('2', '- d', '').p.lines('Q', start)).toBe('- a\n- b\n- c\n- d');
    expect(await typing('3', '1 3', '- d', '').p.lines('Q', start)).toBe('- a\n- c\n- d');
    expect(await typing('write', '- new', '').p.lines('Q', start)).toBe('- new');
    expect(await typing('5').p.lines('Q', start)).toBe('');
    const t = typing('1');
    await t.p.lines('Blockers?', { lines: ['Waiting on review'] });
    expect(t.out()).toBe(
      'Blockers?\nIt says now (1 line):\n  Waiting on review\n  1. Keep it as it is\n  2. Add lines after it\n  3. Keep only some of its lines, then add lines\n  4. Write it anew\n  5. Clear it\n' +
        'Type a number from 1 to 5, or its words (Enter alone picks 1, Keep it as it is): Chosen: 1. Keep it as it is\n',
    );
  });

  it('"Keep it as it is" keeps the person\'s text untouched (a joiner in Persian words stays), while what is shown is sanitised', async () => {
    const words = 'می\u200cخواهم \u001b[31mred\u001b[0m';
    const { p, out } = typing('1');
    expect(await p.lines('Previous?', { lines: [words] })).toBe(words);
    expect(out()).not.toContain('\u001b[31m');
  });

  it('the end of input (Ctrl-D) cancels, in every kind of question', async () => {
    await expect(typing().p.input('Title')).rejects.toBeInstanceOf(CancelledError);
    await expect(typing().p.confirm('Go?')).rejects.toBeInstanceOf(CancelledError);
    await expect(typing().p.select('Which?', [{ name: 'x', value: 1 }])).rejects.toBeInstanceOf(CancelledError);
    await expect(typing('- half').p.lines('Lines')).rejects.toBeInstanceOf(CancelledError);
  });

  it('what comes from outside is sanitised: no escape sequence of a choice reaches the terminal', async () => {
    const t = typing('1');
    await t.p.select('Pick \x1b[2J', [{ name: 'evil\x1b[H\x1b]0;title\x07name', value: 1 }]);
    expect(t.out()).not.toMatch(/\x1b/);
    expect(t.out()).toContain('  1. evilname\n');
  });
});

describe('parseNumbers and matchChoice', () => {
  it('numbers and ranges, separated by commas or spaces; anything else is no list', () => {
    expect(parseNumbers('1, 3 5-7')).toEqual([1, 3, 5, 6, 7]);
    expect(parseNumbers('1,,2')).toEqual([1, 2]);
    expect(parseNumbers('3-1')).toBeUndefined();
    expect(parseNumbers('one')).toBeUndefined();
  });
  it('a number, the exact words, the start, the start of a word, then anywhere', () => {
    const names = ['Send', 'Edit in $EDITOR first', 'Cancel (keep the draft)'];
    expect(matchChoice('2', names)).toEqual([1]);
    expect(matchChoice('4', names)).toEqual([]);
    expect(matchChoice('send', names)).toEqual([0]);
    expect(matchChoice('edit', names)).toEqual([1]);
    expect(matchChoice('keep', names)).toEqual([2]);
    expect(matchChoice('EDITOR', names)).toEqual([1]);
    expect(matchChoice('draft)', names)).toEqual([2]);
    expect(matchChoice('', names)).toEqual([]);
  });
});
