// The error vocabulary of checkin and the exit-code table. Everything throws one of these (an
// ApiError from src/api is one too); error-text.ts says what each becomes, for main.ts (stderr and
// the exit code) and the MCP server (a tool error).

export const EXIT = {
  OK: 0,
  /** The service or the network failed. */
  FAILURE: 1,
  /** Bad usage, or input rejected (by checkin, or a 4xx from the service). */
  USAGE: 2,
  /** `checkin status`: today's check-in is still pending. */
  PENDING: 3,
  /** Not logged in, or the token was rejected (401/403). */
  AUTH: 4,
  /** Cancelled at a prompt (Ctrl-C, or "No"). */
  CANCELLED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * A line of advice that names what to run at a terminal (a command, a flag): the CLI says it; the
 * agent face leaves it out, its person not being at that terminal. Advice as data: each face words
 * what it says from what the line is, never by reading the words.
 */
export interface TerminalAdvice {
  readonly terminal: string;
}
/** A line of advice: words for anyone, or a terminal's. */
export type Hint = string | TerminalAdvice;
export const terminal = (text: string): TerminalAdvice => ({ terminal: text });
export const hintText = (h: Hint): string => (typeof h === 'string' ? h : h.terminal);
export const isTerminalAdvice = (h: Hint): h is TerminalAdvice => typeof h !== 'string';

/**
 * The one family of errors checkin says something about: a one-line message, the exit code, and
 * lines of advice after it (`hints`, each its own line; `withHint` adds one on the way out). An
 * ApiError (src/api/errors.ts) is one too. A subclass exists only where a catch site tells it
 * apart (or it carries more, as EditorError's text).
 */
export class CliError extends Error {
  readonly hints: readonly Hint[];
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.FAILURE,
    ...hints: Hint[]
  ) {
    super(message);
    this.name = 'CliError';
    this.hints = hints;
  }
}

/** Input that cannot be used — a bad flag value, key, mood, date, file… (exit 2). */
export class UsageError extends CliError {
  constructor(message: string, ...hints: Hint[]) {
    super(message, EXIT.USAGE, ...hints);
    this.name = 'UsageError';
  }
}

/** No token, or one the service rejected (exit 4). */
export class AuthError extends CliError {
  constructor(message: string, ...hints: Hint[]) {
    super(message, EXIT.AUTH, ...hints);
    this.name = 'AuthError';
  }
}

/** The user stopped at a prompt or in the editor (exit 130): said in plain words, not as an error. */
export class CancelledError extends CliError {
  constructor(message = 'Cancelled') {
    super(message, EXIT.CANCELLED);
    this.name = 'CancelledError';
  }
}

/** The editor failed or was quit with an error; `text` is what its file held then. */
export class EditorError extends CliError {
  constructor(
    message: string,
    readonly text: string,
    /** The editor could not be started at all (not installed, not runnable): a usage problem. */
    notFound = false,
  ) {
    // An editor that ran and ended with a failure status was quit on purpose (vim's :cq): a stop, not a fault.
    super(
      message,
      notFound ? EXIT.USAGE : EXIT.CANCELLED,
      ...(notFound ? [terminal('Set an editor that is installed: `checkin config set editor nano` (or "vim", "code --wait"), or VISUAL or EDITOR.')] : []),
    );
    this.name = 'EditorError';
  }
}

/** Ends the command with an exit code and nothing more to say (e.g. `status` when pending). */
export class ExitSignal extends CliError {
  constructor(exitCode: ExitCode) {
    super(`exit ${exitCode}`, exitCode);
    this.name = 'ExitSignal';
  }
}

/**
 * What nobody meant to throw (a bug, or a failure nothing names), once a hint is added to it:
 * said with its own message and "Run again with CHECKIN_DEBUG=1" (or `inner`'s stack).
 */
export class UnexpectedError extends CliError {
  constructor(readonly inner: unknown) {
    super(inner instanceof Error ? inner.message : String(inner));
    this.name = 'UnexpectedError';
  }
}

/** Any thrown value as one of the family: an error of ours as it is, anything else an UnexpectedError. */
export function asCliError(err: unknown): CliError {
  return err instanceof CliError ? err : new UnexpectedError(err);
}

/**
 * The one way to add advice to an error on its way out (e.g. "your draft was kept"): the same
 * error (same class, message, exit code and stack) with `lines` after its own hints. The error
 * caught is not changed: another holder of it says what it said.
 */
export function withHint(err: unknown, ...lines: Hint[]): CliError {
  const e = asCliError(err);
  const copy = Object.create(Object.getPrototypeOf(e), Object.getOwnPropertyDescriptors(e)) as CliError;
  // On Node 22+ an error's stack is an accessor that reads the original object's hidden slot: kept as its value.
  Object.defineProperty(copy, 'stack', { value: e.stack, writable: true, configurable: true });
  Object.defineProperty(copy, 'hints', { value: [...e.hints, ...lines], enumerable: true });
  return copy;
}
