// The bash side of completion without a terminal: how the line is split, which part of the word
// readline replaces, and how a reply is quoted for it — every reply read back by a real bash.
// And the PowerShell script, which cannot be run here (no pwsh on this machine): its text.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bashReplies, offerable, quoteForBash, replacedFrom, SCRIPTS, splitShellLine } from '../../src/commands/completion/completion.js';

/** bash's COMP_WORDBREAKS: as bash starts (hostcomplete on, so `@` breaks words), and once bash-completion is loaded. */
const BREAKS = { bash: ' \t\n"\'@><=;|&(:', 'bash-completion': ' \t\n"\'><=;|&(:' };

const marks = mkdtempSync(join(tmpdir(), 'checkin-marks-'));
afterAll(() => rmSync(marks, { recursive: true, force: true }));

const NAMES = [
  `Subst$(touch ${marks}/subst)`,
  `Tick\`touch ${marks}/tick\``,
  `Semi; touch ${marks}/semi`,
  `Amp & touch ${marks}/amp | cat > ${marks}/redirect`,
  `Quote's "double" \\back`,
  'Glob*?[ab]',
  'Var ${HOME} $PATH ~ #x !!',
  "$'\\x41' {a,b} <x> (y) a=b c:d",
  '~root',
  '#hash',
  '-dash',
  '@at',
  'Bang!',
  "Last'",
  'Final "q"',
  'Back\\',
  'Spaced  out ',
  '日本語 チーム',
  'nbsp\u00a0here',
  'party 🎉',
];

/** What a person would have typed of `prefix` in a context: unquoted (backslashes), in '…' or in "…" (left open). */
function typed(prefix: string, quote: '' | "'" | '"'): string {
  if (quote === "'") return `'${prefix.replace(/'/g, `'\\''`)}`;
  if (quote === '"') return `"${prefix.replace(/[\\"$`]/g, '\\$&')}`;
  return prefix.replace(/[^A-Za-z0-9]/g, '\\$&');
}

/** The word after readline has put the one reply in place of its text (and closed the quote it was in, as it does). */
function afterReadline(raw: string, reply: string, wordBreaks: string): string {
  const { index, quote } = replacedFrom(raw, wordBreaks);
  return raw.slice(0, index) + reply + (quote && !reply.endsWith(quote) ? quote : '');
}

/** The words a real bash reads from `lines` (one printf a line): what checkin would be handed. */
function bashReads(words: string[]): string[] {
  const script = words.map((w) => `printf '<%s>\\n' ${w}`).join('\n');
  return execFileSync('bash', ['--norc', '--noprofile', '-c', script], { cwd: marks, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: marks } })
    .split('\n')
    .slice(0, -1)
    .map((l) => l.replace(/^<|>$/g, ''));
}

describe('a bash command line, split as bash reads it', () => {
  it('quotes and backslashes are taken off; nothing is expanded', () => {
    expect(splitShellLine(`checkin 'a b' "c \\"d\\" \\$e" f\\ g $'h\\ti\\x41' $(x) \`y\` $HOME ~`)).toEqual({
      words: ['checkin', 'a b', 'c "d" $e', 'f g', 'h\tiA', '$(x)', '`y`', '$HOME'],
      current: { raw: '~', value: '~' },
      open: '',
    });
  });

  it('the word at the cursor: a new empty one after a space; a quote left open stays open', () => {
    expect(splitShellLine('checkin today --team ')).toEqual({ words: ['checkin', 'today', '--team'], current: { raw: '', value: '' }, open: '' });
    expect(splitShellLine(`checkin today --team 'Plat fo`)).toEqual({
      words: ['checkin', 'today', '--team'],
      current: { raw: `'Plat fo`, value: 'Plat fo' },
      open: "'",
    });
    expect(splitShellLine('checkin x "a\\"b')).toMatchObject({ current: { raw: '"a\\"b', value: 'a"b' }, open: '"' });
  });
});

describe("readline's text: the part of the word a reply replaces", () => {
  it.each([
    ['Pl', 'bash', 0, ''],
    ["'Pl", 'bash', 1, "'"],
    ['"Pl', 'bash', 1, '"'],
    ["ab'cd", 'bash', 3, "'"],
    ['--team=Pl', 'bash', 7, ''],
    ["--team='Pl", 'bash', 8, "'"],
    // `@` breaks words only while hostcomplete is on; readline keeps it in the text (a "special prefix").
    ['@gr', 'bash', 0, ''],
    ['--person=@gr', 'bash', 9, ''],
    ['--person=@gr', 'bash-completion', 9, ''],
    ['a:b', 'bash', 2, ''],
    ['a\\:b', 'bash', 0, ''],
    ["'a:b'c", 'bash', 0, ''],
    ['"a=b"c', 'bash', 0, ''],
  ] as const)('%s (%s): from %i, in quote %j', (raw, breaks, index, quote) => {
    expect(replacedFrom(raw, BREAKS[breaks])).toEqual({ index, quote });
  });
});

describe('bash replies', () => {
  it('each hostile name, typed in part in every kind of quoting, comes back from a real bash as itself, and nothing runs', () => {
    const finals: string[] = [];
    const wanted: string[] = [];
    for (const name of NAMES) {
      for (const [breaks, wordBreaks] of Object.entries(BREAKS)) {
        for (const quote of ['', "'", '"'] as const) {
          for (const length of [0, 1, 3]) {
            for (const flag of ['', '--team=']) {
              const raw = flag + typed(name.slice(0, length), quote);
              const replies = bashReplies(`checkin today ${flag ? '' : '--team '}${raw}`, wordBreaks, (words) => {
                expect(words).toEqual(flag ? ['today', flag + name.slice(0, length)] : ['today', '--team', name.slice(0, length)]);
                return [{ value: name, description: '' }];
              });
              expect(replies, `${name} after ${raw} (${breaks})`).toHaveLength(1);
              finals.push(afterReadline(raw, replies[0]!, wordBreaks));
              wanted.push(flag + name);
            }
          }
        }
      }
    }
    expect(bashReads(finals)).toEqual(wanted);
    expect(readdirSync(marks)).toEqual([]);
  });

  it('the text readline replaces is written out in full: a partial @name, a value after --flag=, a quote', () => {
    const one = (line: string, breaks: string, value: string) => bashReplies(line, breaks, () => [{ value, description: '' }]);
    // Without bash-completion `@` breaks the word, but readline replaces it too: the reply keeps it.
    expect(one('checkin list --person @gr', BREAKS.bash, '@grace')).toEqual(['@grace']);
    expect(one('checkin list --person @gr', BREAKS['bash-completion'], '@grace')).toEqual(['@grace']);
    expect(one('checkin list --person=@gr', BREAKS.bash, '@grace')).toEqual(['@grace']);
    expect(one('checkin today --team=Pl', BREAKS.bash, 'Platform team')).toEqual(['Platform\\ team']);
    expect(one("checkin today --team 'Pl", BREAKS.bash, "Platform's")).toEqual(["Platform'\\''s"]);
    expect(one('checkin today --team "Pl', BREAKS.bash, 'Pla$(x) "y"!')).toEqual(['Pla\\$(x) \\"y\\""\\!""']);
  });

  it('replies only for candidates of the word at the cursor, after any NAME=value words and the command', () => {
    const seen: string[][] = [];
    const replies = bashReplies('CHECKIN_TOKEN=x /usr/local/bin/checkin li', BREAKS.bash, (words) => {
      seen.push(words);
      return [
        { value: 'list', description: '' },
        { value: 'log', description: '' },
      ];
    });
    expect(seen).toEqual([['li']]);
    expect(replies).toEqual(['list']);
  });

  it("no reply inside $'…' (readline and bash disagree there about where the quote ends)", () => {
    expect(bashReplies("checkin today --team $'Pl", BREAKS.bash, () => [{ value: 'Platform', description: '' }])).toEqual([]);
  });

  it('quoting, outside quotes: letters, digits, non-ASCII and -_./:=@%+, stay; everything else gets a backslash', () => {
    expect(quoteForBash('a-b_c.d/e:f=g@h%i+j,k 日本 🎉', '')).toBe('a-b_c.d/e:f=g@h%i+j,k\\ 日本\\ 🎉');
    expect(quoteForBash('$(x)`y`;&|<>*?[]{}()~#!\'"\\ \t', '')).toBe('\\$\\(x\\)\\`y\\`\\;\\&\\|\\<\\>\\*\\?\\[\\]\\{\\}\\(\\)\\~\\#\\!\\\'\\"\\\\\\ \\\t');
  });
});

describe('what can be offered', () => {
  it('not a name with a newline, a tab, a control character, an escape sequence, a bidi or zero-width character', () => {
    for (const bad of ['a\nb', 'a\tb', 'a\rb', 'a\u0007', 'a\u001b[31m', '\u009b31m', 'a\u202eb', 'a\u200bb', 'a\ufeff', ''])
      expect(offerable(bad), JSON.stringify(bad)).toBe(false);
    for (const good of NAMES) expect(offerable(good), good).toBe(true);
  });
});

describe('the PowerShell script (pwsh is not installed here: its text is checked, not run)', () => {
  const ps = SCRIPTS.powershell!;
  const code = ps.replace(/^\s*#.*$/gm, '');

  it('never evaluates: no Invoke-Expression; the words go in an environment variable, not on a command line', () => {
    expect(code).not.toMatch(/Invoke-Expression|\biex\b|\[scriptblock\]::Create|\.InvokeScript|Start-Process/i);
    expect(ps).toContain('$env:CHECKIN_COMPLETE_WORDS = $words -join "`n"');
    // The one command it runs, with fixed arguments (a .cmd shim would hand others to cmd.exe).
    expect(ps.match(/& checkin[^\n]*/g)).toEqual(['& checkin complete --shell powershell 2>$null)']);
    expect(ps).toContain('Remove-Item Env:CHECKIN_COMPLETE_WORDS');
  });

  it('is ASCII (Windows PowerShell reads a profile without a BOM in the ANSI code page)', () => {
    expect(/^[\x20-\x7e\n]*$/.test(ps)).toBe(true);
  });

  it('a value is inserted bare only when it is a plain word or flag; anything else in single quotes, every quote doubled', () => {
    const bare = new RegExp(/\$value -cmatch '([^']+)'/.exec(ps)![1]!);
    for (const plain of ['today', 'focused', '--team', '-m', '2026-11-20', 'a1b2c3d4-0000-4000-8000-000000000000']) expect(bare.test(plain), plain).toBe(true);
    for (const name of [...NAMES.filter((n) => n !== '-dash'), '@grace', 'me,you', "it's", 'a b', '--%']) expect(bare.test(name), name).toBe(false);
    // The single quotes PowerShell knows: ' and U+2018–U+201B, each doubled inside '…'.
    expect(ps).toContain(`$quotes = "'" + [char]0x2018 + [char]0x2019 + [char]0x201A + [char]0x201B`);
    expect(ps).toContain(`$text = "'" + ($value -replace "[$quotes]", '$0$0') + "'"`);
  });
});
