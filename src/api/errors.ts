// Typed errors of the API client: the status, the service's own message, and a suggestion
// for the user (its first hint). Its exit code comes from `kind`, `status` and `target`, never
// from the service's wording; error-text.ts says its lines. (A URL that must not be used is a
// setting to fix: a UsageError, thrown before any request; see checkTransport.)

import { CliError, EXIT, terminal, type ExitCode, type Hint } from '../errors.js';

export type ApiErrorKind =
  /** The service answered with a non-2xx status. */
  | 'http'
  /** No answer: connection refused or reset, DNS, TLS… */
  | 'network'
  /** The service did not answer within the time limit. */
  | 'timeout'
  /** A 2xx whose body was not the JSON the endpoint returns. */
  | 'invalid-response';

/**
 * What a request addresses, as endpoints.ts knows it from the URL it builds — how a 403 is read,
 * never from the service's wording:
 * - 'account': the token's own person or nothing in particular (GET /me, a list, a create, the
 *   token's own check-in named by its date). A refusal is the token's: read-only, or a scope.
 * - 'resource': an existing resource named by its id, which may be someone else's (PATCH
 *   /check-ins/{uuid}, /goal-updates/{id}…). A refusal is about that resource.
 */
export type Target = 'account' | 'resource';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** The request, as the service saw it: method and path (without the query). */
  method: string;
  path: string;
  /** The HTTP status; 0 when no answer came. */
  status?: number;
  /** What the request addressed (default 'account'). */
  target?: Target;
  /** What went wrong, in words, when the status alone does not say it. */
  detail?: string;
  /** The service's own message, when it sent one. */
  serviceMessage?: string;
  /** Field errors of a 422, as the service sent them. */
  fields?: Record<string, string[]>;
  /** What the user can do about it. */
  suggestion?: Hint;
  /** The answer's body was JSON (an API speaking), not an HTML page or nothing. */
  jsonBody?: boolean;
}

export class ApiError extends CliError {
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly target: Target;
  readonly serviceMessage?: string;
  readonly fields?: Record<string, string[]>;
  readonly suggestion?: Hint;
  readonly jsonBody: boolean;
  /** No answer came, and the request provably never went out (the connection failed first): nothing can have been made. */
  notSent = false;

  constructor(init: ApiErrorInit) {
    const status = init.status ?? 0;
    const said = init.serviceMessage ? `: ${init.serviceMessage}` : init.detail ? ` (${init.detail})` : '';
    const what = init.kind === 'http' ? `${status} ${reason(status)}${said}` : (init.detail ?? init.kind);
    super(`${init.method} ${init.path}: ${what}`, exitCodeOf(init.kind, status, init.target ?? 'account'), ...(init.suggestion ? [init.suggestion] : []));
    this.name = 'ApiError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = status;
    this.target = init.target ?? 'account';
    if (init.serviceMessage !== undefined) this.serviceMessage = init.serviceMessage;
    if (init.fields !== undefined) this.fields = init.fields;
    if (init.suggestion !== undefined) this.suggestion = init.suggestion;
    this.jsonBody = init.jsonBody ?? false;
  }

  /** The service answered 404: no such check-in, goal… (or a wrong API URL; see the client). */
  get notFound(): boolean {
    return this.kind === 'http' && this.status === 404;
  }
}

/**
 * The exit code of an API error, from its status and what the request addressed — never from the
 * service's wording. 401: the token (4). 403 on the token's own account or on nothing in
 * particular (GET /me, a list, a create, the own check-in by date): the token may not (read-only,
 * a scope): 4. 403 on a resource named by its id (someone else's check-in or update): a refused
 * request, 2.
 */
function exitCodeOf(kind: ApiErrorKind, status: number, target: Target): ExitCode {
  if (kind !== 'http') return EXIT.FAILURE;
  if (status === 401) return EXIT.AUTH;
  if (status === 403) return target === 'resource' ? EXIT.USAGE : EXIT.AUTH;
  if (status === 429 || status >= 500) return EXIT.FAILURE;
  if (status >= 400) return EXIT.USAGE;
  return EXIT.FAILURE;
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

/** What the user can do about an error status, given the request's method and what it addressed. */
export function suggestionFor(status: number, method: string, target: Target, retryAfter?: number): Hint | undefined {
  if (status === 401) return terminal('Run `checkin login` with a valid token, or set CHECKIN_TOKEN.');
  // Refused on a resource: that resource is not this person's to change; no new token helps.
  if (status === 403 && target === 'resource') return undefined;
  if (status === 403 && method !== 'GET')
    return terminal('Writes need a token with the "Read + write" scope: make one in the service\'s integrations settings, then run `checkin login`.');
  if (status === 403) return terminal("The service refuses this token; check it in the service's integrations settings, then run `checkin login`.");
  if (status === 429) return `The service is rate limiting this token; try again${retryAfter ? ` in ${retryAfter} s` : ' in a minute'}.`;
  if (status >= 500) return 'The service is having trouble; try again in a few minutes.';
  return undefined;
}
