import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/api/paginate.js';
import { parseDay, parseKey } from '../../src/core/keys.js';
import { nearMatches } from '../../src/core/match.js';
import { renderMarkdown } from '../../src/ui/markdown.js';
import { displayWidth, table, truncate, tsv } from '../../src/ui/table.js';

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('keys', () => {
  it('weekday names mean the most recent such day before today', () => {
    // 2026-11-21 is a Saturday.
    expect(parseDay('friday', '2026-11-21')).toBe('2026-11-20');
    expect(parseDay('Mon', '2026-11-21')).toBe('2026-11-16');
    expect(parseDay('saturday', '2026-11-21')).toBe('2026-11-14');
    expect(parseDay('yesterday', '2026-03-01')).toBe('2026-02-28');
    expect(parseDay('today', '2026-11-21')).toBe('2026-11-21');
    expect(parseDay('soon', '2026-11-21')).toBeUndefined();
  });
  it('parses UUIDs, dates and last; refuses the rest with the reason', () => {
    expect(parseKey('3308A89A-1006-5AD0-94A3-D9510E51AECB', '2026-11-21')).toEqual({ kind: 'uuid', id: '3308a89a-1006-5ad0-94a3-d9510e51aecb' });
    expect(parseKey('last', '2026-11-21')).toEqual({ kind: 'last' });
    expect(parseKey('2026-11-02', '2026-11-21')).toEqual({ kind: 'date', date: '2026-11-02' });
    expect(() => parseKey('3308a89a-1006-5ad0-94a3', '2026-11-21')).toThrow(/not a valid UUID/);
    expect(() => parseKey('21/11/2026', '2026-11-21')).toThrow(/YYYY-MM-DD/);
    expect(() => parseKey('tomorrowish', '2026-11-21')).toThrow(/Unknown key "tomorrowish"/);
  });
});

describe('near matches', () => {
  it('suggests what is a few edits away, or contains what was typed', () => {
    const labels = ['Grace Hopper (@grace)', 'Ada Lovelace (@ada)', 'Linus Torvalds (@linus)'];
    expect(nearMatches('Grace Hoper', labels)).toEqual(['Grace Hopper (@grace)']);
    expect(nearMatches('@linsu', labels)).toEqual(['Linus Torvalds (@linus)']);
    expect(nearMatches('love', labels)).toEqual(['Ada Lovelace (@ada)']);
    expect(nearMatches('zzzzzz', labels)).toEqual([]);
  });
});

describe('rate-limit header', () => {
  it('reads each window', () => {
    expect(parseRateLimit('"burst";r=27;t=8, "sustained";r=482;t=1620')).toEqual([
      { name: 'burst', remaining: 27, reset: 8 },
      { name: 'sustained', remaining: 482, reset: 1620 },
    ]);
    expect(parseRateLimit(undefined)).toEqual([]);
  });
});

describe('Markdown on a terminal', () => {
  const c = new Chalk({ level: 1 });
  it('styles bullets, emphasis, code, links and @mentions without losing text', () => {
    const md =
      '## Done\n- Shipped **billing** with _care_ and *joy*\n- Paired with @linus on `make test`\n1. See [the PR](https://x.test/pr/1)\n```\n**not bold** @nobody\n```';
    const out = renderMarkdown(md, c);
    expect(out).toContain(c.bold('billing'));
    expect(out).toContain(c.italic('care'));
    expect(out).toContain(c.italic('joy'));
    expect(out).toContain(c.magenta.bold('@linus'));
    expect(out).toContain(c.cyan('`make test`'));
    expect(out).toContain(c.cyan('**not bold** @nobody'));
    expect(plain(out)).toBe(
      '## Done\n- Shipped billing with care and joy\n- Paired with @linus on `make test`\n1. See the PR (https://x.test/pr/1)\n```\n**not bold** @nobody\n```',
    );
  });
  it('leaves e-mail addresses and snake_case alone, and strips control characters', () => {
    const out = plain(renderMarkdown('mail ada@example.com about some_var_name \u001b[2Jnow', c));
    expect(out).toBe('mail ada@example.com about some_var_name now');
  });
});

describe('tables', () => {
  it('pads by display width (emoji take two cells) and cuts the last column to the width', () => {
    expect(displayWidth('🧐 ok')).toBe(5);
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    const columns = [
      { title: 'A', kind: 'whole' },
      { title: 'B', kind: 'state' },
      { title: 'C', kind: 'text' },
    ] as const;
    expect(
      table(
        [
          ['a', '🧐', 'long text here'],
          ['bbb', '', 'x'],
        ],
        30,
        { columns: [...columns] },
      ),
    ).toBe('A    B   C\na    🧐  long text here\nbbb      x\n');
    expect(
      table(
        [
          ['a', '🧐', 'long text here'],
          ['bbb', '', 'x'],
        ],
        21,
        { columns: [...columns] },
      ),
    ).toBe('A    B   C\na    🧐  long text…\nbbb      x\n');
    // A header; a droppable column (an id) goes before anything is cut; cuts fall at a word edge.
    const rows = [['2026-11-20', 'Grace Hopper', '3308a89a-1006-5ad0-94a3-d9510e51aecb', 'Review the billing webhooks with Linus']];
    const opts = {
      columns: [
        { title: 'DATE', kind: 'whole' as const },
        { title: 'PERSON', kind: 'name' as const },
        { title: 'ID', kind: 'whole' as const, drop: 1 },
        { title: 'INTENTIONS', kind: 'text' as const },
      ],
    };
    expect(table(rows, 120, opts)).toBe(
      'DATE        PERSON        ID                                    INTENTIONS\n2026-11-20  Grace Hopper  3308a89a-1006-5ad0-94a3-d9510e51aecb  Review the billing webhooks with Linus\n',
    );
    expect(table(rows, 60, opts)).toBe('DATE        PERSON        INTENTIONS\n2026-11-20  Grace Hopper  Review the billing webhooks with…\n');
    expect(tsv([['a\tb', 'c\nd']])).toBe('a b\tc d\n');
  });
});
