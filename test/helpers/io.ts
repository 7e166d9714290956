// An IO over buffers, for running commands in-process.
import { PassThrough } from 'node:stream';
import { readText, type ColorLevel, type IO } from '../../src/ui/io.js';
import { guardTerminal } from '../../src/ui/sanitize.js';

export interface BufferIO extends IO {
  stdoutText(): string;
  stderrText(): string;
}

/** The terminal an in-process run is in unless a test says otherwise (piped runs too: `checkin inbox | less` is typed in one). */
export const TEST_TERMINAL = 'tty test';

export function bufferIO(
  opts: {
    tty?: boolean;
    stdin?: string;
    color?: ColorLevel;
    prompt?: boolean;
    columns?: number;
    accessible?: boolean;
    /** null: no terminal at all (cron, a script). */ terminal?: string | null;
  } = {},
): BufferIO {
  let out = '';
  let err = '';
  let silent = false;
  let stdinText: Promise<string> | undefined;
  const stdin = new PassThrough();
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  const tty = Boolean(opts.tty);
  return {
    stdin,
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    columns: opts.columns ?? 100,
    colorLevel: opts.color ?? 0,
    canPrompt: opts.prompt ?? tty,
    accessible: opts.accessible ?? false,
    terminal: opts.terminal === null ? undefined : (opts.terminal ?? TEST_TERMINAL),
    // The same terminal guard as the process's streams.
    out: (t) => void (silent || (out += guardTerminal(t))),
    raw: (t) => void (silent || (out += t)),
    err: (t) => void (silent || (err += guardTerminal(t))),
    silence: () => void (silent = true),
    readStdin: (maxBytes) => (stdinText ??= readText(stdin, maxBytes)),
    onInterrupt: () => () => {},
    onStop: () => {},
    hold: (child) => child,
    // No terminal here, so no pager.
    page: () => {},
    noPager: () => {},
    endPager: async () => {},
    // Buffers never fail.
    written: async () => ({ stdout: undefined, stderr: undefined }),
    stdoutText: () => out,
    stderrText: () => err,
  };
}
