// The width rule of every table (src/ui/table.ts), word-edge wrapping (src/ui/wrap.ts) and
// Markdown shown plainly (src/ui/markdown.ts), unit by unit; the real terminal is test/terminal/narrow.test.ts.
import { describe, expect, it } from 'vitest';
import type { CheckIn } from '../../src/api/types.js';
import { makeColors } from '../../src/ui/color.js';
import { plainInline, plainLine } from '../../src/ui/markdown.js';
import { renderCheckIn } from '../../src/ui/render.js';
import { displayWidth, layoutOf, NAME_MIN, table, tableStream, TEXT_MIN, truncate, type Column } from '../../src/ui/table.js';
import { checkInRowStream, checkInRows, teamDayView, type View } from '../../src/ui/views.js';
import { sentences, wrap } from '../../src/ui/wrap.js';

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const COLORS = { 0: await makeColors(0), 1: await makeColors(1) };
const view = (width: number, level: 0 | 1 = 0): View => ({ c: COLORS[level], rich: true, width, now: new Date('2026-11-20T12:00:00Z') });

describe('truncate: free text at a word edge, names at a character', () => {
  it('keeps the longest run of whole words that fits, then …', () => {
    expect(truncate('Fix the flaky checkout test', 100)).toBe('Fix the flaky checkout test');
    expect(truncate('Fix the flaky checkout test', 27)).toBe('Fix the flaky checkout test');
    expect(truncate('Fix the flaky checkout test', 26)).toBe('Fix the flaky checkout…');
    expect(truncate('Fix the flaky checkout test', 15)).toBe('Fix the flaky…'); // "Fix the flaky " fits: an edge
    expect(truncate('Fix the flaky checkout test', 14)).toBe('Fix the flaky…');
    expect(truncate('Fix the flaky checkout test', 13)).toBe('Fix the…');
    // A hyphen is inside a word; punctuation left hanging before the cut goes with the space.
    expect(truncate('Fix the time-zone bug', 16)).toBe('Fix the…');
    expect(truncate('Ship it, see the PR', 12)).toBe('Ship it…');
    expect(truncate('Waiting on review — @linus', 21)).toBe('Waiting on review…');
  });
  it('cuts inside only a first word longer than the room', () => {
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    expect(truncate('https://example.com/very/long', 12)).toBe('https://exa…');
  });
  it('never splits a picture, and counts it as two cells', () => {
    expect(truncate('🎉🎉🎉 party', 5)).toBe('🎉🎉…');
    expect(displayWidth(truncate('🎉🎉🎉 party', 5))).toBe(5);
  });
  it('names are cut at the last character that fits', () => {
    expect(truncate('Margaret Hamilton', 11, false)).toBe('Margaret H…');
    expect(truncate('Ada Lovelace', 11, false)).toBe('Ada Lovela…');
  });
});

describe('display width', () => {
  it('a text symbol (⚠, ✓, ●) is one cell; an emoji picture two; colour none', () => {
    expect(displayWidth('⚠ blocked')).toBe(9);
    expect(displayWidth('✓ filled')).toBe(8);
    expect(displayWidth('●')).toBe(1);
    expect(displayWidth('🧐')).toBe(2);
    expect(displayWidth('❤️')).toBe(2); // asked for as a picture
    expect(displayWidth('\u001b[31m⚠ blocked\u001b[39m')).toBe(9);
  });
});

/** A list-like table: the columns `checkin list` has. */
const COLUMNS: Column[] = [
  { title: 'DATE', kind: 'whole' },
  { title: 'PERSON', kind: 'name' },
  { title: 'MOOD', kind: 'state' },
  { title: 'STATE', kind: 'state' },
  { title: 'ID', kind: 'whole', drop: 1 },
  { title: 'INTENTIONS', kind: 'text' },
];
const ID = '3308a89a-1006-5ad0-94a3-d9510e51aecb';
const ROWS = [
  ['2026-11-19', 'Margaret Hamilton', '😴', '✓ filled', ID, 'Triage the mobile crash reports from the weekend'],
  ['2026-11-19', 'Linus Torvalds', '🤯', '⚠ blocked', ID, 'Fix the flaky checkout test before the release'],
  ['2026-11-19', 'Ada Lovelace', ' ', '· pending', ID, ''],
];

describe('the width rule', () => {
  it('at every width from 40 to 160: no line wider than the terminal, state whole on every row, every column under a header, ids whole or absent, free text a run of whole words', () => {
    for (let width = 40; width <= 160; width++) {
      const lines = table(ROWS, width, { columns: COLUMNS }).trimEnd().split('\n');
      expect(lines).toHaveLength(ROWS.length + 1);
      const header = lines[0]!.split(/ {2,}/);
      for (const line of lines) expect(displayWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
      ROWS.forEach((row, r) => {
        const line = lines[r + 1]!;
        expect(line).toContain(row[3]); // the state, whole
        expect(line.startsWith(row[0]!)).toBe(true);
        expect(line.includes(ID)).toBe(header.includes('ID'));
        if (header.includes('INTENTIONS') && row[5]) {
          const shown = line.slice(line.lastIndexOf('  ') + 2);
          if (shown.endsWith('…')) expect(row[5]!.startsWith(shown.slice(0, -1) + ' ')).toBe(true);
          else expect(shown).toBe(row[5]);
        }
      });
      // The state columns are there at every width, and always under their header.
      expect(header).toEqual(expect.arrayContaining(['DATE', 'PERSON', 'MOOD', 'STATE']));
    }
  });

  it('gives way in order: the id, then names shrink for the free text, then the free text, then names again', () => {
    const at = (width: number) => {
      const { keep, widths } = layoutOf([COLUMNS.map((c) => c.title), ...ROWS], width, { columns: COLUMNS });
      return Object.fromEntries(keep.map((i) => [COLUMNS[i]!.title, widths[i]]));
    };
    // Everything fits (the free text has 24 cells or more).
    expect(at(120)).toEqual({ DATE: 10, PERSON: 17, MOOD: 4, STATE: 9, ID: 36, INTENTIONS: 34 });
    // 1. The id goes first.
    expect(at(90)).toEqual({ DATE: 10, PERSON: 17, MOOD: 4, STATE: 9, INTENTIONS: 42 });
    expect(at(60)).toEqual({ DATE: 10, PERSON: 17, MOOD: 4, STATE: 9, INTENTIONS: TEXT_MIN });
    // 2. Names give way so that the free text keeps TEXT_MIN cells…
    expect(at(57)).toEqual({ DATE: 10, PERSON: 14, MOOD: 4, STATE: 9, INTENTIONS: TEXT_MIN });
    expect(at(51)).toEqual({ DATE: 10, PERSON: NAME_MIN, MOOD: 4, STATE: 9, INTENTIONS: TEXT_MIN });
    // 3. …then the free text goes (never the state), and the names take the room back.
    expect(at(50)).toEqual({ DATE: 10, PERSON: 17, MOOD: 4, STATE: 9 });
    // 4. Names are cut until the row fits.
    expect(at(40)).toEqual({ DATE: 10, PERSON: 11, MOOD: 4, STATE: 9 });
    expect(at(37)).toEqual({ DATE: 10, PERSON: NAME_MIN, MOOD: 4, STATE: 9 });
  });

  it('a column that left early comes back when a later one made room (the due date, once the id is gone)', () => {
    const columns: Column[] = [
      { title: 'ID', kind: 'whole', drop: 2 },
      { title: 'PROGRESS', kind: 'state' },
      { title: 'DUE', kind: 'whole', drop: 1 },
      { title: 'GOAL', kind: 'text' },
    ];
    const rows = [[ID, ' 35%', '2026-12-30', 'Ship the v2 billing API']];
    expect(table(rows, 60, { columns })).toBe('PROGRESS  DUE         GOAL\n 35%      2026-12-30  Ship the v2 billing API\n');
    expect(table(rows, 80, { columns })).toBe(`ID                                    PROGRESS  GOAL\n${ID}   35%      Ship the v2 billing API\n`);
  });

  it('below the floor a row is folded between two cells, never cut: the state is still there, whole', () => {
    const out = table([ROWS[1]!], 30, { columns: COLUMNS });
    expect(out).toBe('DATE        PERSON    MOOD\nSTATE\n2026-11-19  Linus T…  🤯\n⚠ blocked\n');
  });

  it('state and free text cannot be marked to go; every column has a header', () => {
    expect(() => table(ROWS, 80, { columns: [{ title: 'STATE', kind: 'state', drop: 1 }] })).toThrow(/never dropped/);
    expect(() => table(ROWS, 80, { columns: [{ title: 'X', kind: 'text', drop: 1 }] })).toThrow(/never dropped/);
    expect(() => table(ROWS, 80, { columns: [{ title: '', kind: 'whole' }] })).toThrow(/header/);
  });

  it('pages after the first keep the columns; a state column as wide as its widest word never cuts it', () => {
    const columns: Column[] = [
      { title: 'DATE', kind: 'whole' },
      { title: 'STATE', kind: 'state', min: displayWidth('⚠ blocked') },
      { title: 'INTENTIONS', kind: 'text' },
    ];
    const part = tableStream(40, { columns });
    expect(part([['2026-11-20', '✓ filled', 'Ship it']])).toBe('DATE        STATE      INTENTIONS\n2026-11-20  ✓ filled   Ship it\n');
    expect(part([['2026-11-19', '⚠ blocked', 'Fix the flaky checkout test before the release']])).toBe('2026-11-19  ⚠ blocked  Fix the flaky…\n');
  });
});

describe('views under the rule', () => {
  const checkIn = (over: Partial<CheckIn>): CheckIn =>
    ({
      id: ID,
      date: '2026-11-19',
      person: { id: 'p', name: 'Linus Torvalds' },
      mood: 'stressed',
      completed_at: '2026-11-19T09:00:00Z',
      blocked: false,
      intentions: null,
      ...over,
    }) as CheckIn;
  it('list: the state in words, the first line of intentions without its Markdown', () => {
    const rows = [
      checkIn({ blocked: true, intentions: '- Fix the __flaky__ `checkout` test, see [#409](https://x.test/409)\n- More' }),
      checkIn({ mood: null, completed_at: null, person: { id: 'a', name: 'Ada Lovelace' } }),
    ];
    // Changed on purpose (issue 32): at 75 columns the id is shown short rather than left out.
    expect(checkInRows(view(75), rows)).toBe(
      'DATE        PERSON          MOOD  STATE      ID        INTENTIONS\n' +
        '2026-11-19  Linus Torvalds  🤯    ⚠ blocked  3308a89a  Fix the flaky…\n' +
        '2026-11-19  Ada Lovelace          · pending  3308a89a\n',
    );
    // At 60 the short id outlasts the free text: it is what `checkin checkin <id>` takes.
    expect(checkInRows(view(60), rows)).toBe(
      'DATE        PERSON          MOOD  STATE      ID\n' +
        '2026-11-19  Linus Torvalds  🤯    ⚠ blocked  3308a89a\n' +
        '2026-11-19  Ada Lovelace          · pending  3308a89a\n',
    );
    // Where the row does not fit even without it, it goes too (then names are cut).
    expect(checkInRows(view(40), rows).split('\n')[0]).toBe('DATE        PERSON       MOOD  STATE');
  });
  it('list --all: a blocked check-in on a later page than the first is whole and aligned (it crashed the run: a column 0 wide)', () => {
    const part = checkInRowStream(view(120));
    const first = part([checkIn({ intentions: '- Ship it' })]);
    expect(first).toBe(
      `DATE        PERSON          MOOD  STATE      ID                                    INTENTIONS\n2026-11-19  Linus Torvalds  🤯    ✓ filled   ${ID}  Ship it\n`,
    );
    const later = part([
      checkIn({ blocked: true, person: { id: 'm', name: 'Margaret Hamilton' }, intentions: '- Triage the mobile crash reports from the weekend' }),
    ]);
    expect(later).toBe(`2026-11-19  Margaret Hami…  🤯    ⚠ blocked  ${ID}  Triage the mobile crash reports from…\n`);
  });
  it('team: the members under PERSON and STATE headers; every state in the words of the one vocabulary; the blocker wrapped under the name', () => {
    const out = teamDayView(view(40), [
      {
        team: { id: 't', name: 'Platform' },
        date: '2026-11-19',
        members: [
          {
            person: { id: 'l', name: 'Linus Torvalds' },
            state: 'blocked',
            check_in: checkIn({ blocked: true, blockers: 'Waiting on the **security review** of the webhooks' }),
          },
          { person: { id: 'a', name: 'Alan Turing' }, state: 'nothing-scheduled', check_in: null },
        ],
      },
    ]);
    expect(out).toBe(
      'Platform — 2026-11-19  1 blocked, 1\nnothing scheduled\n' +
        '  PERSON          STATE\n' +
        '  Linus Torvalds  ⚠ blocked\n' +
        '  Alan Turing     ○ nothing scheduled\n' +
        '    Linus Torvalds: Waiting on the\n' +
        '    security review of the webhooks\n\n',
    );
  });
});

describe('wrap: at word edges, hanging under the text', () => {
  it("sentences: at a terminal's width, the space a question ends with kept; piped, as they are", () => {
    const terminal = { stdoutIsTTY: true, columns: 20 };
    expect(sentences('Streak: 6 days (from Sat 19 Sep).\n', terminal)).toBe('Streak: 6 days (from\nSat 19 Sep).\n');
    expect(sentences('The numbers to pick (Enter alone: all): ', terminal)).toBe('The numbers to pick\n(Enter alone: all): ');
    expect(sentences('  12. (picked) - Review the webhooks\n', terminal)).toBe('  12. (picked) -\n      Review the\n      webhooks\n');
    expect(sentences('Streak: 6 days (from Sat 19 Sep).\n', { stdoutIsTTY: false, columns: 20 })).toBe('Streak: 6 days (from Sat 19 Sep).\n');
  });

  it('leaves a line that fits alone', () => {
    expect(wrap('  - short', 20)).toBe('  - short');
  });
  it('a bullet hangs under its text; a numbered item too; a plain line under its indent', () => {
    expect(wrap('  - Waiting on the security review of the webhooks', 24)).toBe('  - Waiting on the\n    security review of\n    the webhooks');
    expect(wrap('10. Waiting on the security review', 22)).toBe('10. Waiting on the\n    security review');
    expect(wrap('    Linus: waiting on the review', 22)).toBe('    Linus: waiting on\n    the review');
  });
  it('a word wider than the room keeps a line of its own (a link stays one link)', () => {
    expect(wrap('see https://example.com/a/very/long/path now', 20)).toBe('see\nhttps://example.com/a/very/long/path\nnow');
  });
  it('a hang given by the view instead of the line own', () => {
    expect(wrap('  1  Grace Hopper reacted 🎉 tada · 3 days ago', 30, 5)).toBe('  1  Grace Hopper reacted 🎉\n     tada · 3 days ago');
  });
  it('closes a colour before a break and opens it again after the indent', () => {
    const c = COLORS[1];
    const out = wrap(`  - ${c.underline('security review of the webhooks')} today`, 20);
    expect(plain(out)).toBe('  - security review\n    of the webhooks\n    today');
    expect(out.split('\n')).toEqual(['  - \u001b[4msecurity review\u001b[24m', '    \u001b[4mof the webhooks\u001b[24m', '    today']);
  });
});

describe('Markdown shown plainly', () => {
  it('plainInline: the words stay, the markers go', () => {
    expect(plainInline('Shipped **billing** with __care__, *joy* and _speed_')).toBe('Shipped billing with care, joy and speed');
    expect(plainInline('- [Add invoices endpoint (#412)](https://github.com/engines/billing/pull/412) (GitHub PR)')).toBe(
      '- Add invoices endpoint (#412) (GitHub PR)',
    );
    expect(plainInline('See ![the chart](https://x.test/c.png "Chart") and <https://x.test/a_b_c>')).toBe('See the chart and https://x.test/a_b_c');
    expect(plainInline('Run `make **all**` then ~~skip~~ drop it')).toBe('Run make **all** then skip drop it');
    expect(plainInline('Not \\*emphasis\\*, 2*3*4, some_var_name, ada@example.com, @linus')).toBe(
      'Not *emphasis*, 2*3*4, some_var_name, ada@example.com, @linus',
    );
    expect(plainInline('Wiki [Ada](https://en.wikipedia.org/wiki/Ada_(language)) rocks')).toBe('Wiki Ada rocks');
  });
  it('plainInline keeps line breaks and removes what a terminal would act on', () => {
    expect(plainInline('**a**\n_b_\u001b[2J')).toBe('a\nb');
  });
  it('plainLine: a cell: a bullet, a heading or a quote marker goes too, a number stays', () => {
    expect(plainLine('- Fix the **flaky** test')).toBe('Fix the flaky test');
    expect(plainLine('## Done today')).toBe('Done today');
    expect(plainLine('> quoted *text*')).toBe('quoted text');
    expect(plainLine('1. First [step](https://x.test)')).toBe('1. First step');
    expect(plainLine('- [x] Ticked')).toBe('[x] Ticked');
  });
});

describe('the check-in preview', () => {
  const c = {
    id: ID,
    date: '2026-11-20',
    person: { id: 'a', name: 'Ada Lovelace' },
    teams: [{ id: 't', name: 'Platform' }],
    completed_at: null,
    blocked: false,
    mood: 'focused',
    previous: '- Reviewed the **billing webhooks** pull request with [Grace](https://x.test/grace) and merged it',
    intentions: '- Short',
    blockers: null,
  } as unknown as CheckIn;
  it('renders the Markdown and wraps long bullets at word edges, hanging under the bullet text', () => {
    expect(plain(renderCheckIn(c, COLORS[1], true, 40))).toBe(
      'Check-in 2026-11-20 · Ada Lovelace ·\nPlatform\nnot filled in yet · mood: 🧐 focused\n\n' +
        'Previous\n  - Reviewed the billing webhooks pull\n    request with Grace\n    (https://x.test/grace) and merged it\n' +
        'Intentions\n  - Short\nBlockers\n  —\n',
    );
  });
  it('without a width, or piped, the lines are left as they are', () => {
    expect(renderCheckIn(c, COLORS[0], true)).toContain('  - Reviewed the billing webhooks pull request with Grace (https://x.test/grace) and merged it\n');
    expect(renderCheckIn(c, COLORS[0], false, 40)).toContain(`  ${c.previous}\n`);
  });
});
