// A real terminal for the tests: the built CLI runs in a pseudo-terminal (node-pty) and what it
// draws is rendered by a headless xterm, so tests read the screen a person would see and type
// the keys a person would press. Waiting is event-driven (on each rendered write) and bounded.
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { trackExit } from './cleanup.js';
import { BINARY, CLI_WORDS } from './cli.js';
import { patient } from './patience.js';

export const KEY = { enter: '\r', down: '\u001b[B', up: '\u001b[A', ctrlC: '\u0003', escape: '\u001b', backspace: '\u007f' } as const;

export interface Exit {
  code: number;
  signal: number | undefined;
}

export class Screen {
  private readonly term: InstanceType<typeof xterm.Terminal>;
  private readonly proc: pty.IPty;
  private waiters: Array<() => void> = [];
  /** Everything the program wrote, raw (escape sequences included). */
  raw = '';
  readonly exited: Promise<Exit>;

  /**
   * `pipe`: a shell pipeline checkin's output goes through (`| cat`), as a person would type it.
   * `{ script }`: several commands typed in the one terminal, run by /bin/sh, where `checkin` is
   * the built CLI. The single binary instead of `node bin/checkin.js` when CHECKIN_TEST_BINARY is set.
   */
  constructor(args: string[] | { script: string }, env: NodeJS.ProcessEnv, size = { cols: 100, rows: 40 }, pipe?: string) {
    this.term = new xterm.Terminal({ cols: size.cols, rows: size.rows, allowProposedApi: true });
    const define = BINARY ? 'bin="$0"; checkin() { "$bin" "$@"; }' : 'node="$0" bin="$1"; checkin() { "$node" "$bin" "$@"; }';
    const [file, argv] = !Array.isArray(args)
      ? ['/bin/sh', ['-c', `${define}\n${args.script}`, ...CLI_WORDS]]
      : pipe
        ? ['/bin/sh', ['-c', `"$0" "$@" ${pipe}`, ...CLI_WORDS, ...args]]
        : [CLI_WORDS[0]!, [...CLI_WORDS.slice(1), ...args]];
    this.proc = pty.spawn(file, argv, {
      name: 'xterm-256color',
      cols: size.cols,
      rows: size.rows,
      env: { ...env, TERM: 'xterm-256color' } as Record<string, string>,
    });
    this.proc.onData((data) => {
      this.raw += data;
      this.term.write(data, () => this.wake());
    });
    this.exited = new Promise((resolve) =>
      this.proc.onExit(({ exitCode, signal }) => {
        // Let the last writes render before anyone reads the screen.
        this.term.write('', () => {
          resolve({ code: exitCode, signal });
          this.wake();
        });
      }),
    );
    // Killed when the test ends, if it has not exited by then.
    trackExit(() => this.proc.kill('SIGKILL'), this.exited);
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  /** The screen as text: the scrollback and the visible rows, right-trimmed, trailing blank rows dropped. */
  text(): string {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\n+$/, '');
  }

  /** Resolves once the screen shows `pattern`; fails with the screen after `timeoutMs` (10 s idle, stretched by the load). */
  waitFor(pattern: string | RegExp, timeoutMs = patient(10_000)): Promise<void> {
    const matches = () => (typeof pattern === 'string' ? this.text().includes(pattern) : pattern.test(this.text()));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the screen never showed ${String(pattern)} within ${timeoutMs} ms; it shows:\n${this.text()}`)),
        timeoutMs,
      );
      const check = () => {
        if (matches()) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      check();
    });
  }

  /** Waits for `pattern`, then types `keys`. */
  async answer(pattern: string | RegExp, keys: string): Promise<void> {
    await this.waitFor(pattern);
    this.type(keys);
  }

  /** The pid of the process the terminal runs (the leader of its process group). */
  get pid(): number {
    return this.proc.pid;
  }

  type(keys: string): void {
    this.proc.write(keys);
  }

  /** The exit, or a failure with the screen after `timeoutMs` (the process is killed). */
  async exit(timeoutMs = patient(10_000)): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.proc.kill();
        reject(new Error(`no exit within ${timeoutMs} ms; the screen shows:\n${this.text()}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The sequences in `raw` that move the cursor, clear or scroll the screen, hide or show the cursor,
 * save or restore it, or switch to the alternate screen: what a screen reader reads as noise, and
 * what the accessible mode never writes. Colours (SGR, `ESC[…m`) are not among them.
 */
export function cursorSequences(raw: string): string[] {
  const found = raw.match(/\x1b\[[0-9;]*[A-HJKSTfsu]|\x1b\[\?(?:25|1049|47|1047|1048)[hl]|\x1b[78]|\x9b[0-9;]*[A-HJKSTf]/g) ?? [];
  return [...new Set(found)];
}

/**
 * `checkin drafts send <id>` typed at a terminal, each of its questions (`… (y/N)`) answered yes in
 * turn: the person's yes, which no flag stands in for. Its exit and what the screen showed.
 */
export async function sendAtTerminal(id: string, env: NodeJS.ProcessEnv, questions = 1): Promise<{ exit: Exit; screen: string }> {
  const s = new Screen(['drafts', 'send', id], env);
  for (let i = 1; i <= questions; i++) {
    await s.waitFor(new RegExp(`(\\(y/N\\)[^]*){${i}}`));
    s.type('y' + KEY.enter);
  }
  const exit = await s.exit();
  return { exit, screen: s.text() };
}
