// `checkin team --watch` in a real terminal (the built CLI in a pseudo-terminal, the screen read
// back through a headless xterm) at 60 and 120 columns: the wall appears on the alternate screen,
// a check-in filled in the sandbox (through its API) shows on the next refresh (`r`, so that no
// test waits out an interval), and q or Ctrl-C give the main screen back as it was and exit 0.
// Piped, --watch is refused with one line (exit 2).
import type xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { cursorSequences, KEY, Screen } from '../helpers/terminal.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

/** The headless terminal behind a Screen: which buffer is active, what the main one holds. */
const termOf = (s: Screen) => (s as unknown as { term: InstanceType<typeof xterm.Terminal> }).term;
/** What a shell had printed before checkin started (the main screen it must give back). */
const BEFORE = '$ checkin team --watch';
const FRAME = '\x1b[H';
const frames = (s: Screen) => s.raw.split(FRAME).length - 1;

async function fill(intentions: string): Promise<void> {
  const res = await fetch(`${sb.url}/check-ins/${localDateKey(new Date())}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${sb.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ intentions, mood: 'focused', previous_completed: true }),
  });
  expect(res.status).toBe(200);
}

function watch(cols: number, extra: Record<string, string> = {}): Screen {
  const s = new Screen(['team', '--watch'], { ...env, ...extra }, { cols, rows: 40 });
  termOf(s).write(`${BEFORE}\r\n`);
  return s;
}

async function expectGivenBack(s: Screen): Promise<void> {
  const term = termOf(s);
  expect(term.buffer.active.type).toBe('normal');
  expect(s.text()).toContain(BEFORE);
  expect(s.text()).not.toContain('PERSON');
  expect(s.raw.endsWith('\x1b[?25h\x1b[?1049l')).toBe(true);
}

describe('team --watch in a terminal', () => {
  for (const cols of [60, 120]) {
    it(`draws the wall, shows a check-in filled meanwhile on the next refresh, and q gives the screen back (${cols} columns)`, async () => {
      const s = watch(cols);
      await s.waitFor(/updated \d\d:\d\d:\d\d/);
      const term = termOf(s);
      expect(term.buffer.active.type).toBe('alternate');
      const screen = s.text();
      expect(screen).toContain('PERSON');
      expect(screen).toContain('Goals');
      expect(screen).toMatch(/updated \d\d:\d\d:\d\d/);
      for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(cols);
      expect(screen).not.toContain('Ship the watch wall');

      await fill('Ship the watch wall today');
      const before = frames(s);
      s.type('r');
      await s.waitFor('Ship the watch');
      expect(frames(s)).toBe(before + 1);
      // Filled, in the word every face uses (yesterday's plan done is not a state of its own).
      expect(s.text()).toMatch(/Ada Lovelace +✓ filled /);
      expect(s.text()).not.toMatch(/did as planned|★/);

      s.type('q');
      expect((await s.exit()).code).toBe(0);
      await expectGivenBack(s);
    });

    it(`Ctrl-C gives the screen back and exits 0 too (${cols} columns)`, async () => {
      const s = watch(cols);
      await s.waitFor(/updated \d\d:\d\d:\d\d/);
      s.type(KEY.ctrlC);
      expect((await s.exit()).code).toBe(0);
      await expectGivenBack(s);
    });
  }

  it('SIGTERM gives the screen back before the process ends by it', async () => {
    const s = watch(80);
    await s.waitFor(/updated \d\d:\d\d:\d\d/);
    (s as unknown as { proc: { kill(signal: string): void } }).proc.kill('SIGTERM');
    const exit = await s.exit();
    expect(exit.signal).toBe(15);
    await expectGivenBack(s);
  });

  it('LANG=C and NO_COLOR: ASCII symbols, mood words, no colour', async () => {
    await fill('Plain wall');
    const s = watch(100, { LANG: 'C', NO_COLOR: '1' });
    await s.waitFor(/updated \d\d:\d\d:\d\d/);
    const screen = s.text();
    expect(screen).toMatch(/Ada Lovelace +\+ filled /);
    expect(screen).toContain('focused');
    expect(screen).not.toMatch(/[★✓⚠·–—█░…🧐]/u);
    expect(s.raw).not.toMatch(/\x1b\[[0-9;]*3\dm/);
    s.type('q');
    expect((await s.exit()).code).toBe(0);
  });
});

describe('team --watch in the accessible mode (CHECKIN_ACCESSIBLE=1)', () => {
  it('writes the wall once as lines and each change as new lines under it: no alternate screen, no redraw, no cursor movement; q ends it', async () => {
    const s = watch(120, { CHECKIN_ACCESSIBLE: '1' });
    await s.waitFor(/Keys: q quits, r refreshes now\.[\s\S]*Goals \(\d+\):/);
    expect(termOf(s).buffer.active.type).toBe('normal');
    expect(s.text()).toContain(BEFORE);
    expect(s.text()).toMatch(/\n {2}Ada Lovelace: pending\n/);
    // r with nothing new: said in a line, since it was asked for.
    s.type('r');
    await s.waitFor(/Checked at \d\d:\d\d:\d\d: nothing changed\./);
    await fill('Ship the watch wall today');
    s.type('r');
    await s.waitFor(/Changed at \d\d:\d\d:\d\d:\n {2}Platform: Ada Lovelace: filled, mood focused, intends: Ship the watch wall today \(was pending\)/);
    const before = s.text();
    s.type('q');
    expect((await s.exit()).code).toBe(0);
    // Everything stays as it was written: the lines above, the shell's line first (more lines of
    // the same change, for another team, may have come after the screen was read).
    expect(s.text().startsWith(before)).toBe(true);
    expect(s.text().split('Team Platform')).toHaveLength(2);
    expect(cursorSequences(s.raw)).toEqual([]);
  });
});

describe('team --watch off a terminal', () => {
  it('is refused with one line, exit 2, and nothing is asked of the service', async () => {
    const r = await runCli(['team', '--watch'], { env });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('error: --watch draws a live screen and needs a terminal; for a pipe or a script, run `checkin team` (or `checkin team --json`)\n');
    expect(sb.requests).toEqual([]);
  });
});
