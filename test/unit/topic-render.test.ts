// `checkin help <topic>` at a terminal renders the topic's Markdown (src/ui/topic.ts): where a list
// item starts is where CommonMark says — a bullet with text starts one anywhere, a number only at
// a block's start, as the next item of an ordered list, or when it is 1 (the only number that may
// interrupt a paragraph). "made with mode\n  0700) — and only…" is one item's text.
import { describe, expect, it } from 'vitest';
import { makeColors } from '../../src/ui/color.js';
import { renderTopic } from '../../src/ui/topic.js';

const render = async (md: string, width = 200) => renderTopic(md, await makeColors(0), width);

describe('list items in a rendered topic', () => {
  it('a number inside a list item continues its text', async () => {
    const md = '- **Compiled once.** In your cache folder (made with mode\n  0700) and only when it is yours.\n- Next item.\n';
    expect(await render(md)).toBe('- Compiled once. In your cache folder (made with mode 0700) and only when it is yours.\n- Next item.\n');
    // Wrapped: each continuation hangs under the item's text, none as a list of its own.
    expect(await render(md, 40)).toBe('- Compiled once. In your cache folder\n  (made with mode 0700) and only when it\n  is yours.\n- Next item.\n');
  });

  it('a number other than 1 does not interrupt a paragraph; 1 does, and a bullet does', async () => {
    expect(await render('The number of windows in my house is\n14. The number of doors is 6.\n')).toBe(
      'The number of windows in my house is 14. The number of doors is 6.\n',
    );
    expect(await render('Steps:\n1. one\n2. two\n')).toBe('Steps:\n1. one\n2. two\n');
    expect(await render('Notes:\n- one\n- two\n')).toBe('Notes:\n- one\n- two\n');
  });

  it('an ordered list: each number after the first is its next item; one indented into the text continues it', async () => {
    expect(await render('3. three\n4. four\n')).toBe('3. three\n4. four\n');
    expect(await render('3. three, made\n   2026) here\n')).toBe('3. three, made 2026) here\n');
    expect(await render('- a bullet\n2. not a list\n')).toBe('- a bullet 2. not a list\n');
  });

  it('a list after a blank line, or first in a block, starts with any number', async () => {
    expect(await render('Text.\n\n7. seven\n8. eight\n')).toBe('Text.\n\n7. seven\n8. eight\n');
  });
});

describe('code blocks in a rendered topic', () => {
  it('a command with a comment lined up after it, too wide: the command whole, then the comment further in (a comment alone under it too)', async () => {
    const md = [
      '```sh',
      'checkin report --person me                                   # this week (since Monday), Markdown',
      'checkin goal update <goal-id>                   # on a terminal: the latest update, then title,',
      '                                                # progress and confidence, a preview',
      'checkin today -e       # fits',
      '```',
      '',
    ].join('\n');
    expect(await render(md, 60)).toBe(
      [
        '    checkin report --person me',
        '        # this week (since Monday), Markdown',
        '    checkin goal update <goal-id>',
        '        # on a terminal: the latest update, then title,',
        '        # progress and confidence, a preview',
        '    checkin today -e       # fits',
        '',
      ].join('\n'),
    );
    // A comment longer than the room continues under its own words.
    expect(await render('```\nx  # one two three four five six seven eight nine ten eleven twelve thirteen\n```\n', 40)).toBe(
      '    x\n        # one two three four five six\n          seven eight nine ten eleven\n          twelve thirteen\n',
    );
  });
});

describe('inline Markdown in a rendered topic', () => {
  it('bold around a code span is bold, its text as written; a span in two back-ticks holds one, its edge spaces taken off', async () => {
    expect(await render('- **`Not logged in: no token found`** (exit 4) — run `checkin login`.\n')).toBe(
      '- Not logged in: no token found (exit 4) — run checkin login.\n',
    );
    expect(await render("(`` Today's check-in is pending: run `checkin today` ``).\n")).toBe("(Today's check-in is pending: run `checkin today`).\n");
    // Inside a span nothing is read: no emphasis, no escape, no link.
    expect(await render('`**a** \\* [b](c.md)` and \\*d\\*\n')).toBe('**a** \\* [b](c.md) and *d*\n');
  });

  it('colours: the span cyan, the bold around it bold', async () => {
    const out = renderTopic('**`x`**\n', await makeColors(1), 80);
    expect(out).toContain('\u001b[1m');
    expect(out).toContain('\u001b[36mx');
  });
});
