// Prose for a terminal (issue 40): every paragraph checkin prints wraps at word edges to the
// terminal's width. At 80 and 40 columns: `checkin help <each topic>`, every `--help` and
// `checkin doctor` print no line longer than the terminal, and no word is cut (the words on the
// screen, in order, are the words of the same text unwrapped). A topic renders its Markdown
// (no # before a heading, no ``` fences, no [text](url) brackets), through the pager when it is
// longer than the screen, and is the Markdown as written when piped.
// The built CLI in a pseudo-terminal (node-pty) proves that the terminal's own width is the one laid
// out to: help topics, the speed topic, the pager, two commands' --help and doctor. Each topic and
// every command's --help at both widths (a layout of the text for the width the terminal has, ~130
// runs) run in-process, at a terminal of that width and piped: the same layout, without a process each.
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../src/help-topics.js';
import { manualProgram } from '../../src/main.js';
import { makeColors } from '../../src/ui/color.js';
import { colorLevelFor } from '../../src/ui/io.js';
import { renderTopic } from '../../src/ui/topic.js';
import { displayWidth } from '../../src/ui/width.js';
import { cleanEnv } from '../helpers/cli.js';
import { FakeClock, runIn, START } from '../helpers/harness.js';
import { Screen } from '../helpers/terminal.js';

const COLS = 80;

/** Printed by the terminal's shell once the commands are done: everything before it has reached the screen. */
const END = '[end of output]';

/** What the program wrote, as the lines it ended with newlines (escape sequences gone), up to END. */
function writtenLines(raw: string): string[] {
  const lines = raw
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\r/g, '')
    .split('\n');
  const end = lines.lastIndexOf(END);
  return end < 0 ? lines : lines.slice(0, end);
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * The commands typed in one terminal, then END printed and the shell held until the test has seen it
 * (a pseudo-terminal's last output can otherwise arrive after its process is gone, and be lost).
 */
async function run(args: string[] | { script: string }, env: NodeJS.ProcessEnv, rows = 40, pipe?: string, cols = COLS, timeoutMs?: number): Promise<Screen> {
  const line = Array.isArray(args) ? `checkin ${args.map((a) => `'${a}'`).join(' ')} ${pipe ?? ''}` : args.script;
  const s = new Screen({ script: `${line}\nprintf '%s\\n' '${END}'\nread done` }, env, { cols, rows });
  await s.waitFor(END, timeoutMs);
  s.type('\r');
  await s.exit(timeoutMs);
  return s;
}

/**
 * checkin in-process at a terminal `cols` wide (the colours the pseudo-terminal's TERM gets), or
 * piped when `cols` is undefined: what it wrote to stdout, as lines (escape sequences gone).
 */
async function shownIn(args: string[], env: NodeJS.ProcessEnv, cols?: number): Promise<string[]> {
  const tty = cols !== undefined && { tty: true, columns: cols, color: colorLevelFor({ ...env, TERM: 'xterm-256color' }, true) };
  const r = await runIn(args, env, new FakeClock(START), tty || {});
  expect(r.stderr).toBe('');
  return writtenLines(r.stdout);
}

describe('help topics in an 80- and a 40-column terminal', () => {
  const env = cleanEnv();
  for (const cols of [COLS, 40]) {
    for (const name of Object.keys(TOPICS)) {
      it(`checkin help ${name} at ${cols} columns: no line longer, no word cut, Markdown rendered`, async () => {
        const lines = await shownIn(['help', name], env, cols);
        // Wider only when a line is one word wider than the terminal (a path, an address: kept whole, one link).
        expect(lines.filter((l) => displayWidth(l) > cols && words(l).length > 1)).toEqual([]);
        // Every word of the text as rendered without a width, in order: none cut, none lost.
        const whole = renderTopic(TOPICS[name]!.text, await makeColors(0), Infinity);
        expect(words(lines.join('\n'))).toEqual(words(whole));
        expect(lines.filter((l) => /^#{1,6} |^\s*```/.test(l))).toEqual([]);
        // A link shows as its text (and an address leaving the docs after it), never as [text](target).
        expect(lines.join('\n')).not.toMatch(/\]\((?:https?:|\.{0,2}\/|#|[\w.-]+\.md)/);
        // No emphasis marker or escaped back-tick left outside what a topic shows to be typed (its code
        // spans, whose text is as written: `**bold**`): bold around a span is bold ("**`Not logged in`**").
        const flat = (t: string) => t.replace(/\s+/g, ' ');
        let shown = flat(lines.join(' '));
        for (const m of TOPICS[name]!.text.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) shown = shown.split(flat(m[2]!.trim())).join(' ');
        expect(shown.match(/\S*(?:\*\*|\\`)\S*/g) ?? []).toEqual([]);
      });
    }

    it(`checkin help speed at ${cols} columns: "(made with mode 0700)" is the text of its item, not an item of its own`, async () => {
      const lines = writtenLines((await run(['help', 'speed'], env, 2000, undefined, cols)).raw);
      const start = lines.findIndex((l) => l.startsWith('- Compiled once, by Node.'));
      const end = lines.findIndex((l, k) => k > start && !l.startsWith('  '));
      expect(start).toBeGreaterThanOrEqual(0);
      const item = lines.slice(start, end);
      // Every line after the first hangs under the item's text (two columns in), "0700)" among them.
      expect(item.slice(1).every((l) => /^ {2}\S/.test(l))).toBe(true);
      expect(words(item.join(' ')).join(' ')).toContain('made with mode 0700) — and only when that folder is yours');
    });

    it(`checkin help topics at ${cols} columns: a list, a topic a line (its title wrapped under it, its Markdown rendered), the words piped`, async () => {
      const lines = writtenLines((await run(['help', 'topics'], env, 200, undefined, cols)).raw).filter((l) => l !== '');
      expect(lines[0]).toBe('Topics (checkin help <topic>):');
      expect(lines.filter((l) => displayWidth(l) > cols)).toEqual([]);
      // Each topic starts a line of its own, in order; every other line is the rest of a title.
      const names = lines.slice(1).flatMap((l) => /^ {2}([a-z-]+) {2,}\S/.exec(l)?.[1] ?? []);
      expect(names).toEqual(Object.keys(TOPICS));
      expect(lines.slice(1).every((l) => /^ {2}[a-z-]+ {2,}\S/.test(l) || /^ {4,}\S/.test(l))).toBe(true);
      // A title is its topic's heading, rendered as the heading is: a code span as code, without its back-ticks.
      expect(lines.join('\n')).not.toContain('`');
      const width = Math.max(...Object.keys(TOPICS).map((n) => n.length));
      if (cols === COLS) expect(lines).toContain(`  ${'checking-in'.padEnd(width)}  Checking in: checkin today in depth`);
      // Piped, as written.
      const piped = writtenLines((await run(['help', 'topics'], env, 200, '| cat', cols)).raw).join('\n');
      expect(piped).toContain('Checking in: `checkin today` in depth');
      expect(words(lines.join('\n'))).toEqual(words(piped.replace(/`/g, '')));
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

/** Every command's words from the root ([] for checkin itself), as the help lists them. */
async function commandPaths(): Promise<string[][]> {
  const out: string[][] = [[]];
  const walk = (cmd: Awaited<ReturnType<typeof manualProgram>>, path: string[]) => {
    for (const sub of cmd.commands) {
      out.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(await manualProgram(), []);
  return out;
}

describe("every command's --help in an 80- and a 40-column terminal", () => {
  const env = cleanEnv({ CHECKIN_PAGER: '' });
  /** Each command's --help, run one after another in the one terminal, each after a line naming it (the two commands in a pseudo-terminal, below). */
  const script = (paths: string[][]) => paths.map((p) => `printf '@@@ %s\\n' '${p.join(' ')}'; checkin ${p.join(' ')} --help --no-pager`).join('\n');
  /** What the script printed, by command. */
  const byCommand = (raw: string) => {
    const out = new Map<string, string[]>();
    let current: string[] = [];
    for (const line of writtenLines(raw)) {
      const name = /^@@@ (.*)$/.exec(line);
      if (name) out.set(name[1]!, (current = []));
      else current.push(line);
    }
    return out;
  };
  /** Every command's --help, in-process: at a terminal `cols` wide, or piped (undefined). */
  const helpOf = async (paths: string[][], cols?: number) => {
    const out = new Map<string, string[]>();
    for (const p of paths) out.set(p.join(' '), await shownIn([...p, '--help', '--no-pager'], env, cols));
    return out;
  };

  // A pipe is no terminal: what --help prints there does not follow the terminal's width (stats'
  // epilogue is wider than 80 piped, below), so both widths are held to one piped run of every
  // command (issue 49).
  let pipedOnce: Promise<Map<string, string[]>> | undefined;
  const pipedHelp = (paths: string[][]) => (pipedOnce ??= helpOf(paths));

  for (const cols of [COLS, 40]) {
    it(`at ${cols} columns: no line longer than the terminal, no word cut (the words of the piped help, in order)`, async () => {
      const paths = await commandPaths();
      expect(paths.length).toBeGreaterThan(40);
      const shown = await helpOf(paths, cols);
      const piped = await pipedHelp(paths);
      expect([...shown.keys()]).toEqual(paths.map((p) => p.join(' ')));
      for (const [name, lines] of shown) {
        expect(
          lines.some((l) => l.startsWith('Usage: checkin')),
          name,
        ).toBe(true);
        expect(
          lines.filter((l) => displayWidth(l) > cols),
          `checkin ${name} --help`,
        ).toEqual([]);
        expect(words(lines.join('\n')), `checkin ${name} --help`).toEqual(words(piped.get(name)!.join('\n')));
      }
      // The reviewer's: stats' epilogue was 109 wide piped; the root's Environment block (118 and 116)
      // is laid out at 80 columns piped, as commander lays out its own part.
      expect(Math.max(...(piped.get('stats') ?? []).map(displayWidth))).toBeGreaterThan(cols);
      expect(Math.max(...(piped.get('') ?? []).map(displayWidth))).toBeLessThanOrEqual(80);
    });
  }

  it('an example that fits stays whole; one that does not continues further in (the terminal shows what the runs above lay out)', async () => {
    const shown = byCommand((await run({ script: script([['today'], ['report']]) }, env, 50, undefined, 40)).raw);
    const trimmed = (lines: string[] | undefined) => lines?.join('\n').trimEnd();
    const laidOut = await helpOf([['today'], ['report']], 40);
    for (const name of ['today', 'report']) expect(trimmed(shown.get(name))).toBe(trimmed(laidOut.get(name)));
    expect(shown.get('today')).toContain('  checkin today --json | jq .intentions');
    expect(shown.get('today')).toContain('  checkin today');
    const report = shown.get('report')!;
    const at = report.indexOf('  checkin report --person me');
    expect(at).toBeGreaterThan(0);
    expect(report.slice(at, at + 8)).toEqual([
      '  checkin report --person me',
      '  checkin report --last-week --format',
      '      csv > week.csv',
      '  checkin report --team Platform --since',
      '      monday --until friday',
      '  checkin report --team Platform',
      '      --last-week --format html >',
      '      week.html',
    ]);
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
