// Error classes and the exit-code table. Only main.ts turns errors into exit codes.

export const EXIT = {
  OK: 0,
  /** The service or the network failed. */
  FAILURE: 1,
  /** Bad usage, or input rejected (client-side, or 400/404-by-id/422 from the service). */
  USAGE: 2,
  /** `checkin status`: today's check-in is still pending. */
  PENDING: 3,
  /** Not logged in, or the token was rejected (401/403). */
  AUTH: 4,
  /** Cancelled at a prompt (Ctrl-C). */
  CANCELLED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error meant for the user: a one-line message, an optional hint, an exit code. */
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

export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.USAGE, hint);
    this.name = 'UsageError';
  }
}

export class AuthError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.AUTH, hint);
    this.name = 'AuthError';
  }
}

export class CancelledError extends CliError {
  constructor(message = 'Cancelled') {
    super(message, EXIT.CANCELLED);
    this.name = 'CancelledError';
  }
}

/** Another error, with one more line of advice for the user (e.g. "your draft was kept"). */
export class HintedError extends Error {
  constructor(
    readonly inner: unknown,
    readonly hint: string,
  ) {
    super((inner as Error)?.message ?? String(inner));
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
