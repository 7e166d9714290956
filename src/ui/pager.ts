// The pager long output goes through on a terminal, as gh's and git's: CHECKIN_PAGER, then the
// `pager` setting (`checkin config set pager …`), then PAGER, then `less -FRX` (which prints
// output that fits on one screen and quits). "" or "cat" means no pager. ui/io.ts starts it when a
// command asks (io.page()) and its stdout is a terminal; this file finds the command, splits it
// into words and runs it.
//
// The command is never handed to a shell. It is split into words like this: spaces and tabs
// separate words; '…' keeps everything inside as it is; "…" keeps everything inside, where a
// backslash makes the next " or \ plain; outside quotes a backslash makes the next character
// plain. Nothing else is special: no $VARIABLES, ~, globs, pipes or redirections.

import { UsageError } from '../errors.js';

/** A pager command split into words (see above); throws a UsageError on a quote left open. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | '' = '';
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = '';
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) word += command[++i];
      else word += c;
    } else if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      inWord = true;
      if (c === "'" || c === '"') quote = c;
      else if (c === '\\' && i + 1 < command.length) word += command[++i];
      else word += c;
    }
  }
  if (quote) throw new UsageError(`The command ${JSON.stringify(command)} has a ${quote === "'" ? 'single' : 'double'} quote that is never closed`);
  if (inWord) words.push(word);
  return words;
}

/** Where the pager command came from, and the command (undefined: no pager). */
export interface PagerChoice {
  command: string | undefined;
  source: string;
}

export const DEFAULT_PAGER = 'less -FRX';

/** CHECKIN_PAGER (set, even empty) > the `pager` setting > PAGER > `fallback` (less -FRX; none in the accessible mode); "" and "cat" mean none. */
export function pagerCommand(env: NodeJS.ProcessEnv, configured: string | undefined, fallback: string = DEFAULT_PAGER): PagerChoice {
  const [command, source] =
    env.CHECKIN_PAGER !== undefined
      ? [env.CHECKIN_PAGER, 'CHECKIN_PAGER']
      : configured !== undefined
        ? [configured, 'the pager setting (checkin config)']
        : env.PAGER
          ? [env.PAGER, 'PAGER']
          : [fallback, 'the default pager'];
  const trimmed = command.trim();
  return { command: trimmed === '' || trimmed === 'cat' ? undefined : trimmed, source };
}

/** What is written to a running pager: text in, and an end that waits for it to exit. */
export interface Pager {
  write(text: string): void;
  /** Ends the pager's input (nothing more is written) without waiting. */
  close(): void;
  /** Ends its input and resolves once it has exited (or, when it never started, once what was held is printed directly). */
  end(): Promise<void>;
  /** Resolves when the pager has exited (or failed to start). */
  readonly exited: Promise<void>;
}

/**
 * Starts `words` with its standard input a pipe from checkin and its output the terminal. Until it
 * has started, what is written is held; if it cannot start, `failed` is told why and what was held
 * (and everything after) goes to `direct`: no output is lost. Once it has exited (the user quit
 * early), what is still written is dropped: EPIPE is not an error.
 */
export function startPager(words: string[], env: NodeJS.ProcessEnv, direct: (text: string) => void, failed: (why: string) => void): Pager {
  // As gh: less and lv get their usual options unless the user set their own; PAGER is not passed
  // on (a program the pager starts must not page again). checkin writes UTF-8 whatever the locale
  // (its moods are emoji), so less is told so unless the user says otherwise.
  const pagerEnv: NodeJS.ProcessEnv = { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c', LESSCHARSET: env.LESSCHARSET ?? 'utf-8' };
  delete pagerEnv.PAGER;
  let state: 'starting' | 'running' | 'failed' | 'gone' = 'starting';
  let held: string[] = [];
  let ended = false;
  // node:child_process only when a pager is started (io.ts, which imports this file, is on every run's path).
  const child = process.getBuiltinModule('node:child_process').spawn(words[0]!, words.slice(1), { stdio: ['pipe', 'inherit', 'inherit'], env: pagerEnv });
  const stdin = child.stdin!;
  // The pager quitting while checkin still writes: EPIPE (or a reset pipe) only means the rest is not wanted.
  stdin.on('error', () => {
    if (state === 'running') state = 'gone';
  });
  let resolveExited!: () => void;
  const exited = new Promise<void>((resolve) => (resolveExited = resolve));
  child.once('spawn', () => {
    if (state !== 'starting') return;
    state = 'running';
    for (const text of held) stdin.write(text);
    held = [];
    if (ended) stdin.end();
  });
  child.once('error', (err: NodeJS.ErrnoException) => {
    if (state === 'starting') {
      state = 'failed';
      failed(`${words[0]} could not be started (${err.code ?? err.message})`);
      const text = held.join('');
      held = [];
      if (text) direct(text);
    } else state = 'gone';
    resolveExited();
  });
  child.once('close', () => {
    if (state === 'running') state = 'gone';
    resolveExited();
  });
  const close = () => {
    if (ended) return;
    ended = true;
    if (state === 'running') stdin.end();
  };
  return {
    write(text) {
      if (state === 'starting') held.push(text);
      else if (state === 'running' && !ended) stdin.write(text);
      else if (state === 'failed') direct(text);
    },
    close,
    // Waits for the person reading: a pager runs until they quit it (as gh and git wait).
    async end() {
      close();
      await exited;
    },
    exited,
  };
}
