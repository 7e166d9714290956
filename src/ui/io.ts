// The one object that owns the process's streams: TTY checks, colour level, "can prompt?".
// Tests hand commands a buffered IO instead. Nothing else in src/ touches process.std*.

import { fstatSync, read, readFileSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { pagerCommand, splitCommand, startPager, type Pager } from './pager.js';
import { guardTerminal } from './sanitize.js';
import { wrapProse } from './wrap.js';

export type ColorLevel = 0 | 1 | 2 | 3;

/** The settings of `checkin config` that the streams follow (read when first needed; environment variables win). */
export interface IOPreferences {
  color?: 'auto' | 'always' | 'never';
  prompt?: 'enabled' | 'disabled';
  pager?: string;
  accessible?: 'true' | 'false';
}

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** Terminal width of stdout (80 when it is not a terminal). */
  columns: number;
  /** Terminal height of stdout (24 when it is not a terminal, or not known). */
  rows?: number;
  /** Colour level for stdout (0 = none). */
  colorLevel: ColorLevel;
  /**
   * Which terminal this run was started in, as a key (see terminalKey): what `checkin inbox` keeps
   * its numbering under. Undefined when there is none (cron, a service, a detached script).
   */
  readonly terminal: string | undefined;
  /** Prompts are allowed: stdin and stdout are TTYs, CHECKIN_NO_PROMPT is unset and prompts are not disabled (checkin config). */
  canPrompt: boolean;
  /**
   * The accessible mode (CHECKIN_ACCESSIBLE, then the `accessible` setting): questions asked as plain
   * lines read back as lines, and nothing redrawn — no cursor movement, no screen cleared.
   */
  accessible: boolean;
  out(text: string): void;
  /** Writes `text` to stdout as it is, past the terminal guard: only for bytes that must arrive exactly (`api`'s piped answer). */
  raw(text: string): void;
  /** Writes to stderr; on a terminal, prose wraps at word edges to its width (`asIs`: data, as it is, such as the --debug trace). */
  err(text: string, opts?: { asIs?: boolean }): void;
  /**
   * Reads all of standard input (only ever called when the user asked for `-`); read once, the same
   * text after. With `maxBytes`, fails with InputTooLarge as soon as more than that has come.
   */
  readStdin(maxBytes?: number): Promise<string>;
  /** Runs `handler` on Ctrl-C / SIGTERM; returns a function that removes it. */
  onInterrupt(handler: () => void): () => void;
  /**
   * From now on, SIGINT, SIGTERM or SIGHUP print `line()` (when it says something) on stderr and
   * end the process by that signal; a second signal ends it at once. The latest `line` counts.
   */
  onStop(line: () => string | undefined): void;
  /**
   * While `child` runs (a program that has the terminal: the editor), a stop signal waits: the
   * program gets it too and ends on its own, and then checkin stops — saying its stop line on the
   * terminal the program gave back.
   */
  hold<T>(child: Promise<T>): Promise<T>;
  /** From now on, nothing is written to stdout or stderr (`status --quiet`). */
  silence(): void;
  /**
   * What is written to stdout from now on goes through the pager (ui/pager.ts), started with the
   * first write, when stdout is a terminal and a pager is set. Only for output that is read, never
   * for prompts, the editor or anything interactive.
   */
  page(): void;
  /** No pager in this run (--no-pager). */
  noPager(): void;
  /** Ends the pager's input and waits until it has exited (at once when none was started). */
  endPager(): Promise<void>;
  /**
   * Waits until what was written to stdout and stderr has been taken, and hands over how each
   * failed since last asked, if it did: its error (a full disk, an I/O error), never its reader gone
   * (EPIPE: `checkin list | head -1`). Handed over once: the CLI says it and fails the run by it
   * (main.ts), unless a command that answers for its own output took it first (`checkin hook`).
   */
  written(): Promise<{ stdout: unknown; stderr: unknown }>;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** NO_COLOR, then FORCE_COLOR, then the `color` setting (always / never), then whether stdout is a terminal. */
export function colorLevelFor(env: NodeJS.ProcessEnv, isTTY: boolean, setting: IOPreferences['color'] = 'auto'): ColorLevel {
  if ('NO_COLOR' in env && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '' || force === 'true' || force === '1') return 1;
    if (force === '0' || force === 'false') return 0;
    const n = Number(force);
    if (n >= 1 && n <= 3) return n as ColorLevel;
    return 1;
  }
  if (setting === 'never') return 0;
  if (setting !== 'always' && (!isTTY || env.TERM === 'dumb')) return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  return /256/.test(env.TERM ?? '') ? 2 : 1;
}

/**
 * CHECKIN_ACCESSIBLE when it is set and not empty (0, false, no or off: off; anything else: on),
 * else the `accessible` setting, else off.
 */
export function accessibleFor(env: NodeJS.ProcessEnv, setting: IOPreferences['accessible']): boolean {
  const raw = env.CHECKIN_ACCESSIBLE?.trim().toLowerCase();
  if (raw) return !['0', 'false', 'no', 'off'].includes(raw);
  return setting === 'true';
}

/** The most any command reads from standard input unless it says otherwise: answers, comments and bodies are text. */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** More than the most a read takes came: the stream was let go at once (a usage error: exit 2). */
export class InputTooLarge extends UsageError {
  constructor(readonly maxBytes: number) {
    super(`Standard input holds more than ${maxBytes >= 1024 * 1024 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`}; checkin reads at most that`);
  }
}

/** A stream's text; past `maxBytes`, the stream is destroyed and the promise fails with InputTooLarge, at once. */
export function readText(stream: Readable, maxBytes = Infinity): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer | string) => {
      const chunk = typeof c === 'string' ? Buffer.from(c) : c;
      size += chunk.length;
      if (size > maxBytes) {
        stream.off('data', onData);
        chunks.length = 0;
        stream.destroy();
        reject(new InputTooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    stream.on('data', onData);
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
  });
}

/** Whether a write's error is its reader gone (EPIPE: `checkin list | head -1`, a client that closed its end): the end of the writing, not a failure. */
export const readerGone = (err: unknown): boolean => (err as NodeJS.ErrnoException | null | undefined)?.code === 'EPIPE';

/** A standard stream's writes, and what became of them. */
interface Sink {
  write(text: string): void;
  /** Waits until every write so far has been taken; resolves to the stream's failure not handed over yet, else undefined. */
  written(): Promise<unknown>;
}

/**
 * Standard input read from its descriptor, for a run that must be quick and reads a little (the
 * hooks' own bundle, commands/hook/fast.ts): no stream set up (process.stdin costs about a fifth of
 * Node's own start in instructions), one read at a time in Node's thread pool. A terminal is not read.
 * More than `maxBytes` is as nothing (readText's limit); input not ended within `waitMs` too, and its
 * read is left waiting (`open`: only the process's end stops it). A descriptor that would block is
 * tried again every few milliseconds until then.
 */
export function readInputNow(maxBytes: number, waitMs: number): Promise<{ text: string | undefined; open: boolean }> {
  if (isTerminal(0)) return Promise.resolve({ text: undefined, open: false });
  return new Promise((resolve) => {
    const buf = Buffer.alloc(maxBytes + 1);
    let size = 0;
    let settled = false;
    const settle = (text: string | undefined, open: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ text, open });
    };
    const timer = setTimeout(() => settle(undefined, true), waitMs);
    const next = () =>
      read(0, buf, size, buf.length - size, null, (err, n) => {
        if (settled) return;
        if ((err as NodeJS.ErrnoException | null)?.code === 'EAGAIN') return void setTimeout(next, 5);
        if (err) return settle(undefined, false);
        size += n;
        if (size > maxBytes) return settle(undefined, false);
        if (n === 0) return settle(buf.toString('utf8', 0, size), false);
        next();
      });
    next();
  });
}

/** `text` on standard output at once, through the terminal guard (as IO's out); a reader gone, or any failure, is nothing said. */
export function printNow(text: string): void {
  try {
    for (let rest = Buffer.from(guardTerminal(text)); rest.length > 0;) {
      try {
        rest = rest.subarray(writeSync(1, rest));
      } catch (err) {
        // A descriptor that would block (shared with a process that made it so): its reader drains it.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      }
    }
  } catch {
    // EPIPE (the reader has gone), a closed descriptor: as the writer below, quietly nothing
  }
}

/**
 * A stream's writes, which stop quietly once the reader has gone (`checkin list | head -1`): no
 * EPIPE crash. Any other failure (a full disk: ENOSPC, EIO) stops them too, and is kept for the CLI
 * to say and end with (main.ts): never thrown from the stream's event (an uncaught crash, with a
 * stack). The stream is only set up on the first write (a run that prints nothing on stderr never
 * opens it).
 */
function sink(streamOf: () => NodeJS.WriteStream): Sink {
  let stream: NodeJS.WriteStream | undefined;
  let gone = false;
  let failure: unknown;
  let pending = 0;
  let waiting: (() => void)[] = [];
  // The first error ends the writing; the ones after it (writes already under way) say nothing new.
  const fail = (err: unknown) => {
    if (gone) return;
    gone = true;
    if (!readerGone(err)) failure = err;
  };
  const done = (err?: Error | null) => {
    if (err) fail(err);
    if (--pending > 0) return;
    const ready = waiting;
    waiting = [];
    for (const resolve of ready) resolve();
  };
  return {
    write(text) {
      if (gone) return;
      if (!stream) {
        stream = streamOf();
        stream.on('error', fail);
      }
      pending++;
      stream.write(text, done);
    },
    async written() {
      if (pending > 0) await new Promise<void>((resolve) => waiting.push(resolve));
      const failed = failure;
      failure = undefined;
      return failed;
    },
  };
}

/** A write to `to` that passes the terminal guard (checkin's colours kept, every other control removed). */
function writer(to: Sink, silenced: () => boolean, guard = true): (text: string) => void {
  return (text) => {
    if (!silenced()) to.write(guard ? guardTerminal(text) : text);
  };
}

/**
 * Whether `fd` is a terminal. Only a character device can be one: a pipe or a file (scripts, cron,
 * CI) is told by fstat alone, without loading node:tty (~3 ms a run); /dev/null and terminals are
 * then told apart by isatty.
 */
function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/**
 * The terminal a run belongs to, as a key: its device number (the controlling terminal's on Linux,
 * read from /proc/self/stat; else that of the first of stdin, stdout and stderr that is a
 * terminal) and, on Linux, the session (the shell that terminal runs), so that a device number
 * reused by a terminal opened later is another key. `checkin inbox | less` and a run whose streams
 * are all redirected, typed in a terminal, belong to that terminal. Undefined when there is none,
 * and on Windows outside Windows Terminal (its consoles have no device number: WT_SESSION tells
 * its tabs apart).
 */
export function terminalKey(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform === 'win32') return env.WT_SESSION ? `wt ${env.WT_SESSION}` : undefined;
  let session: string | undefined;
  let controlling = 0;
  try {
    // pid (comm) state ppid pgrp session tty_nr …; comm may hold spaces and parentheses.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    session = fields[3];
    controlling = Number(fields[4]) || 0;
  } catch {
    // no /proc (macOS, the BSDs): the streams alone
  }
  let device = controlling;
  for (let fd = 0; device === 0 && fd <= 2; fd++) if (isTerminal(fd)) device = fstatSync(fd).rdev;
  if (device === 0) return undefined;
  return `tty ${device}${session ? ` session ${session}` : ''}`;
}

export function processIO(env: NodeJS.ProcessEnv = process.env, preferences: () => IOPreferences = () => ({})): IO {
  // Not process.stdin.isTTY: setting up stdin (a stream most runs never read) costs milliseconds;
  // the streams are made when first used.
  let stdinTerminal: boolean | undefined;
  const stdinIsTTY = () => (stdinTerminal ??= isTerminal(0));
  const stdoutIsTTY = isTerminal(1);
  let silent = false;
  let stdinText: Promise<string> | undefined;
  let stopLine: (() => string | undefined) | undefined;
  let prefs: IOPreferences | undefined;
  const pref = () => (prefs ??= preferences());
  let colorLevel: ColorLevel | undefined;
  let terminal: { key: string | undefined } | undefined;
  let canPrompt: boolean | undefined;
  let accessible: boolean | undefined;
  const stdoutSink = sink(() => process.stdout);
  const stderrSink = sink(() => process.stderr);
  const out = writer(stdoutSink, () => silent);
  const errRaw = writer(stderrSink, () => silent);
  // On a terminal, what checkin says on stderr (errors, hints, notes, warnings) wraps at word edges to its width.
  let errColumns: number | undefined;
  const err = (text: string, opts?: { asIs?: boolean }) =>
    errRaw(!opts?.asIs && (errColumns ??= (isTerminal(2) && process.stderr.columns) || 0) > 0 ? wrapProse(text, errColumns) : text);
  const rawOut = writer(stdoutSink, () => silent, false);
  let paging: 'no' | 'wanted' | 'off' = 'no';
  let pager: Pager | undefined;
  const startPaging = (): Pager | undefined => {
    paging = 'off';
    let words: string[] = [];
    try {
      // The accessible mode has no default pager (less redraws its screen and prompt line); one
      // chosen (CHECKIN_PAGER, the setting, PAGER) is still used.
      const { command } = pagerCommand(env, pref().pager, accessibleFor(env, pref().accessible) ? '' : undefined);
      if (command) words = splitCommand(command);
    } catch (e) {
      err(`warning: ${(e as Error).message}; printing without a pager\n`);
    }
    if (words.length === 0) return undefined;
    const started = startPager(words, env, out, (why) => err(`warning: ${why}; printing without a pager\n`));
    // A signal while the pager runs (Ctrl-C reaches both): checkin stops writing, waits for the
    // pager to exit (it is the pager's to end), then ends by that signal — as git does.
    let caught: NodeJS.Signals | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      caught ??= signal;
      started.close();
    };
    for (const s of STOP_SIGNALS) process.on(s, onSignal);
    void started.exited.then(() => {
      for (const s of STOP_SIGNALS) process.off(s, onSignal);
      if (caught) process.kill(process.pid, caught);
    });
    return started;
  };
  let holding = 0;
  let held: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    // The first signal waits for the program that has the terminal; a second one does not.
    if (holding > 0 && !held) {
      held = signal;
      return;
    }
    const line = stopLine?.();
    stopLine = undefined;
    // Written at once (the process ends next), and only once: a second signal finds nothing to say.
    if (line && !silent) {
      try {
        writeSync(2, guardTerminal(`\n${line}\n`));
      } catch {
        // stderr gone: the draft is kept all the same
      }
    }
    for (const s of STOP_SIGNALS) process.off(s, stop);
    // The signal's own ending (exit status 128 + its number), as if checkin had not caught it.
    process.kill(process.pid, signal);
  };
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdinIsTTY() {
      return stdinIsTTY();
    },
    stdoutIsTTY,
    columns: (stdoutIsTTY && process.stdout.columns) || 80,
    rows: (stdoutIsTTY && process.stdout.rows) || 24,
    // Worked out when first asked (only `checkin inbox` asks).
    get terminal() {
      return (terminal ??= { key: terminalKey(env) }).key;
    },
    // Worked out when first asked (a run that never shows anything never reads the settings).
    get colorLevel() {
      return (colorLevel ??= colorLevelFor(env, stdoutIsTTY, pref().color));
    },
    get canPrompt() {
      return (canPrompt ??= stdoutIsTTY && stdinIsTTY() && !env.CHECKIN_NO_PROMPT && pref().prompt !== 'disabled');
    },
    get accessible() {
      return (accessible ??= accessibleFor(env, pref().accessible));
    },
    out(text) {
      if (silent) return;
      if (paging === 'wanted') pager = startPaging();
      if (pager) pager.write(guardTerminal(text));
      else out(text);
    },
    raw(text) {
      if (silent) return;
      rawOut(text);
    },
    err,
    page() {
      if (paging === 'no' && stdoutIsTTY) paging = 'wanted';
    },
    noPager() {
      paging = 'off';
    },
    async endPager() {
      await pager?.end();
    },
    async written() {
      const [stdout, stderr] = await Promise.all([stdoutSink.written(), stderrSink.written()]);
      return { stdout, stderr };
    },
    readStdin: (maxBytes) => {
      // Waiting on a terminal for text that never comes looks like a hang: say what is going on.
      if (stdinText) return stdinText;
      if (stdinIsTTY()) errRaw('Reading standard input: type the text, then press Ctrl-D on an empty line.\n');
      return (stdinText = readText(process.stdin, maxBytes ?? MAX_STDIN_BYTES));
    },
    hold(child) {
      holding++;
      return child.finally(() => {
        holding--;
        const signal = held;
        if (holding === 0 && signal) {
          held = undefined;
          stop(signal);
        }
      });
    },
    onStop(line) {
      if (!stopLine) for (const s of STOP_SIGNALS) process.on(s, stop);
      stopLine = line;
    },
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
    silence() {
      silent = true;
    },
  };
}

/**
 * For a protocol spoken on stdin and stdout (`checkin mcp`): the streams the protocol owns, and the
 * IO everything else writes through. stdout carries the protocol's messages and nothing else: from
 * now on any other write to it (a library's console.log) goes to stderr instead; what commands
 * print (`io.out`) goes to stderr too; nothing prompts, and standard input is never read as text.
 * The client going away (EPIPE) ends the conversation quietly; stdout failing otherwise is never
 * thrown from the stream's event (an uncaught crash, with a stack): `failed` is then that error, for
 * the conversation to end with and the CLI's error boundary to say (commands/mcp/mcp.ts, main.ts).
 */
export function protocolIO(io: IO): { io: IO; input: Readable; output: Writable; failed: Promise<unknown> } {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout);
  let gone = false;
  let fail: (err: unknown) => void = () => undefined;
  const failed = new Promise<unknown>((resolve) => (fail = resolve));
  stdout.on('error', (err) => {
    gone = true;
    if (!readerGone(err)) fail(err);
  });
  const output = new (process.getBuiltinModule('node:stream').Writable)({
    write(chunk: Buffer, _encoding, done) {
      if (gone) return done();
      write(chunk, () => done());
    },
  });
  stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) =>
    (process.stderr.write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  // Own values over the process's (some of which are getters there: assigning would throw).
  const own = {
    out: (text: string) => io.err(text),
    raw: (text: string) => io.err(text),
    canPrompt: false,
    accessible: false,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    colorLevel: 0 as ColorLevel,
    readStdin: () => Promise.reject(new Error('standard input carries the protocol; it is not read as text')),
  };
  const quiet = Object.create(io, Object.fromEntries(Object.entries(own).map(([k, value]) => [k, { value, enumerable: true }]))) as IO;
  return { io: quiet, input: process.stdin, output, failed };
}
