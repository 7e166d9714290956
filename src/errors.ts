// The error vocabulary of checkin and the exit-code table. Only main.ts turns errors into exit
// codes and messages; everything else throws one of these (or an ApiError from src/api).

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

/** An error meant for the user: a one-line message, an optional hint line, an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.FAILURE,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Input that cannot be used — a bad flag value, key, mood, date, file… (exit 2). */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.USAGE, hint);
    this.name = 'UsageError';
  }
}

/** No token, or one the service rejected (exit 4). */
export class AuthError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.AUTH, hint);
    this.name = 'AuthError';
  }
}

/** The user stopped at a prompt or in the editor (exit 130). */
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
    super(
      message,
      notFound ? EXIT.USAGE : EXIT.FAILURE,
      notFound ? 'Set an editor that is installed: `checkin config set editor nano` (or "vim", "code --wait"), or VISUAL or EDITOR.' : 'Set an editor that waits until you close the file: `checkin config set editor "code --wait"`, or VISUAL or EDITOR.',
    );
    this.name = 'EditorError';
  }
}

/** Another error, with one more line of advice for the user (e.g. "your draft was kept"). */
export class HintedError extends Error {
  constructor(
    readonly inner: unknown,
    readonly hint: string,
  ) {
    super(inner instanceof Error ? inner.message : String(inner));
    this.name = 'HintedError';
  }
}

/** Ends the command with an exit code and nothing more to say (e.g. `status` when pending). */
export class ExitSignal extends Error {
  constructor(readonly exitCode: ExitCode) {
    super(`exit ${exitCode}`);
    this.name = 'ExitSignal';
  }
}
