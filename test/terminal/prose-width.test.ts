// Prose for a terminal (issue 40): every paragraph checkin prints wraps at word edges to the
// terminal's width. The built CLI in an 80-column pseudo-terminal: `checkin help <each topic>` and
// `checkin doctor` print no line longer than 80 columns, and no word is cut (the words on the
// screen, in order, are the words of the same text unwrapped). A topic renders its Markdown
// (no # before a heading, no ``` fences, no [text](url) brackets), through the pager when it is
// longer than the screen, and is the Markdown as written when piped.
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../src/help-topics.js';
import { makeColors } from '../../src/ui/color.js';
import { renderTopic } from '../../src/ui/topic.js';
import { displayWidth } from '../../src/ui/width.js';
import { cleanEnv } from '../helpers/cli.js';
import { Screen } from '../helpers/terminal.js';

const COLS = 80;

/** What the program wrote, as the lines it ended with newlines (escape sequences gone). */
function writtenLines(raw: string): string[] {
  return raw
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\r/g, '')
    .split('\n');
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

async function run(args: string[], env: NodeJS.ProcessEnv, rows = 40, pipe?: string): Promise<Screen> {
  const s = new Screen(args, env, { cols: COLS, rows }, pipe);
  await s.exit();
  return s;
}

describe('help topics in an 80-column terminal', () => {
  const env = cleanEnv();
  for (const name of Object.keys(TOPICS)) {
    it(`checkin help ${name}: no line longer than 80, no word cut, Markdown rendered`, async () => {
      const s = await run(['help', name], env, 2000);
      const lines = writtenLines(s.raw);
      expect(lines.filter((l) => displayWidth(l) > COLS)).toEqual([]);
      // Every word of the text as rendered without a width, in order: none cut, none lost.
      const whole = renderTopic(TOPICS[name]!.text, await makeColors(0), Infinity);
      expect(words(lines.join('\n'))).toEqual(words(whole));
      expect(lines.filter((l) => /^#{1,6} |^\s*```/.test(l))).toEqual([]);
      // A link shows as its text (and an address leaving the docs after it), never as [text](target).
      expect(lines.join('\n')).not.toMatch(/\]\((?:https?:|\.{0,2}\/|#|[\w.-]+\.md)/);
    });
  }

  it('longer than the screen: through the pager; piped: the Markdown as it is written', async () => {
    const paged = await run(['help', 'speed'], { ...env, CHECKIN_PAGER: 'sed s/^/paged:/' }, 24);
    const lines = writtenLines(paged.raw).filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(24);
    expect(lines.every((l) => l.startsWith('paged:'))).toBe(true);
    const piped = await run(['help', 'speed'], { ...env, CHECKIN_PAGER: 'sed s/^/paged:/' }, 24, '| cat');
    expect(writtenLines(piped.raw).join('\n').trim()).toBe(TOPICS.speed!.text.trim());
  });

  it('shorter than the screen: printed as it is, no pager', async () => {
    const s = await run(['help', 'exit-codes'], { ...env, CHECKIN_PAGER: 'sed s/^/paged:/' }, 200);
    expect(writtenLines(s.raw).some((l) => l.startsWith('paged:'))).toBe(false);
  });
});

describe('checkin doctor in an 80-column terminal', () => {
  it('no line longer than 80, no word cut: each message hangs under the message, each fix under the fix', async () => {
    const env = cleanEnv({ CHECKIN_API_URL: 'http://127.0.0.1:9/api/v2', CHECKIN_TOKEN: 'not-a-real-token' });
    const s = await run(['doctor'], env, 200);
    const lines = writtenLines(s.raw);
    expect(lines.filter((l) => displayWidth(l) > COLS)).toEqual([]);
    const piped = await run(['doctor'], env, 200, '| cat');
    // The same words as the one line per check that a pipe gets.
    expect(words(lines.join('\n'))).toEqual(words(writtenLines(piped.raw).join('\n')));
    expect(lines.some((l) => /^\s{20,}\S/.test(l))).toBe(true);
  });
});
