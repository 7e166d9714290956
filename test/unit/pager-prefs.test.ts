// The pure parts of the pager and the settings: how a pager command is split into words (no
// shell), which command is chosen, the colour level a setting gives, and what each setting takes.
import { delimiter, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePreference, preferencesOf } from '../../src/config/prefs.js';
import { colorLevelFor } from '../../src/ui/io.js';
import { pagerCommand, splitCommand } from '../../src/ui/pager.js';

describe('splitCommand: words without a shell', () => {
  it.each([
    ['less -FRX', ['less', '-FRX']],
    ['  less\t -R  ', ['less', '-R']],
    [`'/Applications/My Pager/pager' --x`, ['/Applications/My Pager/pager', '--x']],
    [`"/opt/a b/pager" "--title=\\"x\\"" 'it''s'`, ['/opt/a b/pager', '--title="x"', 'its']],
    ['my\\ pager -a', ['my pager', '-a']],
    [`""`, ['']],
    ['less $HOME ~ *.md | cat; rm -rf x', ['less', '$HOME', '~', '*.md', '|', 'cat;', 'rm', '-rf', 'x']],
    ['', []],
  ])('%s', (command, words) => {
    expect(splitCommand(command)).toEqual(words);
  });

  it('an unclosed quote is refused', () => {
    expect(() => splitCommand(`less "-R`)).toThrow('The command "less \\"-R" has a double quote that is never closed');
    expect(() => splitCommand(`less '-R`)).toThrow('has a single quote that is never closed');
  });
});

describe('pagerCommand', () => {
  it('CHECKIN_PAGER (even empty) > the setting > PAGER > less -FRX; "" and cat are none', () => {
    expect(pagerCommand({ CHECKIN_PAGER: 'a', PAGER: 'c' }, 'b')).toEqual({ command: 'a', source: 'CHECKIN_PAGER' });
    expect(pagerCommand({ CHECKIN_PAGER: '', PAGER: 'c' }, 'b')).toEqual({ command: undefined, source: 'CHECKIN_PAGER' });
    expect(pagerCommand({ PAGER: 'c' }, 'b')).toEqual({ command: 'b', source: 'the pager setting (checkin config)' });
    expect(pagerCommand({ PAGER: 'c' }, ' cat ')).toMatchObject({ command: undefined });
    expect(pagerCommand({ PAGER: 'c' }, undefined)).toEqual({ command: 'c', source: 'PAGER' });
    expect(pagerCommand({ PAGER: '' }, undefined)).toEqual({ command: 'less -FRX', source: 'the default pager' });
  });
});

describe('colorLevelFor with the color setting', () => {
  it('never and always decide unless NO_COLOR or FORCE_COLOR is set', () => {
    expect(colorLevelFor({ TERM: 'xterm-256color' }, true, 'never')).toBe(0);
    expect(colorLevelFor({ TERM: 'xterm-256color' }, false, 'always')).toBe(2);
    expect(colorLevelFor({ TERM: 'dumb' }, false, 'always')).toBe(1);
    expect(colorLevelFor({ COLORTERM: 'truecolor' }, false, 'always')).toBe(3);
    expect(colorLevelFor({}, false, 'auto')).toBe(0);
    expect(colorLevelFor({ NO_COLOR: '1' }, true, 'always')).toBe(0);
    expect(colorLevelFor({ FORCE_COLOR: '1' }, true, 'never')).toBe(1);
  });
});

describe('the settings', () => {
  it('git_repos: separated like PATH, relative folders made absolute, ~ kept; "" is none', () => {
    expect(parsePreference('git_repos', ['~/a', 'b', '/c', ''].join(delimiter))).toEqual(['~/a', resolve('b'), '/c']);
    expect(parsePreference('git_repos', '')).toEqual([]);
  });

  it('a stored value is used only when the setting takes it', () => {
    expect(preferencesOf({ color: 'never', prompt: 'maybe', editor: '', pager: '', team: 7, git_repos: ['/x', 3], token: 'secret' })).toEqual({
      color: 'never',
      pager: '',
    });
  });
});
