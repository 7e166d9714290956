// Typed errors of the API client: the status, the service's own message, and a suggestion
// for the user. The client knows nothing about exit codes; main.ts maps `kind` and `status`.

export type ApiErrorKind =
  /** The service answered with a non-2xx status. */
  | 'http'
  /** No answer: connection refused or reset, DNS, TLS… */
  | 'network'
  /** The service did not answer within the time limit. */
  | 'timeout'
  /** A 2xx whose body was not the JSON the endpoint returns. */
  | 'invalid-response'
  /** Refused before sending: a token over plain http to a host that is not this machine. */
  | 'insecure';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status = 0,
    readonly suggestion?: string,
    /** The service's own message, when it sent one. */
    readonly serviceMessage?: string,
    /** Field errors of a 422, as the service sent them. */
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reason(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

/** Pulls a human-readable message out of whatever body an error response carried. */
export function serviceMessageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'error', 'detail', 'title']) {
    const v = b[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (typeof v === 'object' && v !== null && typeof (v as { message?: unknown }).message === 'string') {
      return (v as { message: string }).message;
    }
  }
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    return b.errors.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('; ');
  }
  return undefined;
}

export function suggestionFor(status: number, retryAfter?: number): string | undefined {
  if (status === 401) return 'Run `checkin login` with a valid token, or set CHECKIN_TOKEN.';
  if (status === 403) return 'Writes need a token with the "Read + write" scope: make one in the service\'s integrations settings, then run `checkin login`.';
  if (status === 429) return `The service is rate limiting this token; try again${retryAfter ? ` in ${retryAfter} s` : ' in a minute'}.`;
  if (status >= 500) return 'The service is having trouble; try again in a few minutes.';
  return undefined;
}
