// The thin HTTP client: joins paths under the base URL's own path, sends the Bearer token and
// JSON, times out, retries what is safe to retry, and turns failures into ApiErrors.
// It knows HTTP and nothing about terminals.

import { nodeTransport, TOO_BIG_CODE, type Exchange, type Headers, type Transport, type TransportError } from './transport.js';
import { terminal, UsageError } from '../errors.js';
import { ApiError, serviceMessageOf, suggestionFor, type Target } from './errors.js';
import { isLoopback, isTls, LOOPBACK_GONE, unreached, type Unreached } from './unreached.js';
import type { PageSource } from './paginate.js';
import { joinUrl, type Query } from './url.js';
import { redactBody, redactHeaders, redactText, secretForms, type TraceEvent, type TraceHook } from './trace.js';
import { expectShape, MAX_JSON_DEPTH, parseJsonBounded, type Shape } from './validate.js';

/** Text that is not JSON at all (parseSuccess's marker). */
const INVALID = Symbol('not JSON');

export { encodeQuery, joinUrl, type Query, type QueryValue } from './url.js';

/** What a request addresses, for reading a refusal (see Target); default 'account'. */
export interface RequestOptions {
  target?: Target;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  why: string;
}

export interface ClientOptions {
  baseUrl: string;
  token: string;
  userAgent?: string;
  /** Per-request time limit for the headers and for each body chunk (default 30 s). */
  timeoutMs?: number;
  /** Tries in all, first included (default 3). */
  maxTries?: number;
  /** The longest wait the service may ask for (Retry-After, a rate-limit window); above it, fail at once (default 60 s). */
  maxRetryAfterS?: number;
  /** The largest answer read, in bytes (default 32 MiB). */
  maxBodyBytes?: number;
  /** Proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY); default: none. */
  env?: NodeJS.ProcessEnv;
  /** A transport to use instead of Node's (tests pass one over undici's MockAgent). */
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
  /** The clock, in ms: pauses, Retry-After dates, the trace's timings (default Date.now; tests pass the one sleep moves). */
  now?: () => number;
  onRetry?: (info: RetryInfo) => void;
  /** Told of what a person should know but that does not stop the command (one line). */
  onWarning?: (message: string) => void;
  /** Told of every exchange (CHECKIN_DEBUG=api), the token and other secrets taken out. */
  onTrace?: TraceHook;
}

interface ApiResponse {
  status: number;
  data: unknown;
  headers: Headers;
  /** The size of the answer's body, in bytes. */
  bytes: number;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/**
 * Headers the client alone sets: the token, where it goes, and how the body is framed. A caller's
 * (`checkin api -H`) would send the token to another virtual host or smuggle a second request.
 */
export const OWN_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'expect',
]);

/**
 * Refuses to send a token in clear text anywhere but this machine: a UsageError (a setting to fix,
 * exit 2), thrown where a client is configured, before any connection.
 */
export function checkTransport(baseUrl: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`The API URL "${baseUrl}" is not a valid URL`, 'Give a full URL such as https://service.steady.space/api/v2');
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return;
  if (url.protocol === 'http:') {
    throw new UsageError(
      `Refusing to send the token over plain http to ${url.host}: it would travel unencrypted`,
      'Use an https:// API URL (plain http is only allowed for localhost / 127.0.0.1).',
    );
  }
  throw new UsageError(`The API URL must start with https:// (got ${url.protocol}//)`);
}

function retryAfterSeconds(value: string | string[] | undefined, now: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\d{1,12}$/.test(v.trim())) return Number(v.trim());
  if (/^\d+$/.test(v.trim())) return Number.MAX_SAFE_INTEGER;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export class ApiClient {
  private transport: Promise<Transport> | undefined;
  private readonly timeoutMs: number;
  private readonly maxTries: number;
  /** The longest wait the service may ask for, in seconds. */
  private readonly maxWaitS: number;
  private readonly maxBodyBytes: number;
  /** How the client waits (retries, rate-limit pauses); tests inject one that does not. */
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  /** The token in every form it may be echoed in (trace.ts secretForms): taken out of the trace and of errors. */
  private readonly secrets: string[];
  /** What the pager needs of this client (see paginate.ts): GETs with their headers, the clock, the warnings. */
  readonly pages: PageSource;

  constructor(private readonly opts: ClientOptions) {
    checkTransport(opts.baseUrl);
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxTries = opts.maxTries ?? 3;
    this.maxWaitS = opts.maxRetryAfterS ?? 60;
    this.maxBodyBytes = opts.maxBodyBytes ?? 32 * 1024 * 1024;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? Date.now;
    this.secrets = secretForms(opts.token);
    this.pages = {
      get: async (path, query, shape) => {
        const res = await this.request('GET', path, { query });
        return { headers: res.headers, data: this.shaped(res.data, shape, 'GET', path), bytes: res.bytes };
      },
      refuseLongWait: (seconds, path, why) => this.checkWait(seconds, 'GET', path, why),
      sleep: this.sleep,
      now: this.now,
      warn: (message) => this.opts.onWarning?.(message),
    };
  }

  private connect(): Promise<Transport> {
    return (this.transport ??= Promise.resolve(this.opts.transport ?? nodeTransport(this.opts.env ?? {})));
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /** Refuses a wait the service asked for that is longer than the cap, saying when to try again. */
  private checkWait(seconds: number, method: string, path: string, why: string, status = 429): void {
    if (seconds <= this.maxWaitS) return;
    if (!path.startsWith('/')) path = new URL(joinUrl(this.opts.baseUrl, path)).pathname;
    const at = new Date(this.now() + seconds * 1000);
    // Another day than today: the day is said too ("after Fri Nov 27 00:07"), not the time alone.
    const day = at.toDateString() === new Date(this.now()).toDateString() ? '' : `${at.toDateString().slice(0, 10)} `;
    const until = seconds < 86_400 * 366 ? ` (after ${day}${at.toTimeString().slice(0, 5)})` : '';
    throw new ApiError({
      kind: 'http',
      method,
      path,
      status,
      detail: `${why} asks to wait ${seconds > 1e9 ? 'far too long' : `${seconds} s`}, more than the ${this.maxWaitS} s checkin waits`,
      suggestion: `Try again later${until}.`,
    });
  }

  /** GET, the answer checked to be of the shape `shape` describes. */
  get<T>(path: string, shape: Shape<T>, query?: Query, opts?: RequestOptions): Promise<T> {
    return this.request('GET', path, { query, ...opts }).then((r) => this.shaped(r.data, shape, 'GET', path));
  }
  patch<T>(path: string, shape: Shape<T>, body: unknown, opts?: RequestOptions): Promise<T> {
    return this.request('PATCH', path, { body, ...opts }).then((r) => this.shaped(r.data, shape, 'PATCH', path));
  }
  post<T>(path: string, shape: Shape<T>, body: unknown, opts?: RequestOptions): Promise<T> {
    return this.request('POST', path, { body, ...opts }).then((r) => this.shaped(r.data, shape, 'POST', path));
  }
  /**
   * A GET that sends the last ETag (If-None-Match): 'unchanged' on a 304, which costs no parsing;
   * otherwise the answer and its new ETag.
   */
  async getIfChanged<T>(
    path: string,
    shape: Shape<T>,
    query: Query | undefined,
    etag: string | undefined,
    opts?: RequestOptions,
  ): Promise<'unchanged' | { data: T; etag?: string }> {
    const r = await this.getConditional(path, shape, query, etag, opts);
    return r.unchanged ? 'unchanged' : { data: r.data, ...(r.etag !== undefined && { etag: r.etag }) };
  }
  /** getIfChanged with the answer's headers (RateLimit…): what a poller paces itself on. */
  async getConditional<T>(
    path: string,
    shape: Shape<T>,
    query: Query | undefined,
    etag: string | undefined,
    opts?: RequestOptions,
  ): Promise<{ unchanged: true; headers: Headers } | { unchanged: false; data: T; etag?: string; headers: Headers }> {
    const r = await this.request('GET', path, { query, ...opts, ...(etag !== undefined && { ifNoneMatch: etag }) });
    if (r.status === 304) return { unchanged: true, headers: r.headers };
    const tag = r.headers.etag;
    return { unchanged: false, data: this.shaped(r.data, shape, 'GET', path), ...(typeof tag === 'string' && { etag: tag }), headers: r.headers };
  }
  delete(path: string, opts?: RequestOptions): Promise<void> {
    return this.request('DELETE', path, { ...opts }).then(() => undefined);
  }

  private shaped<T>(data: unknown, shape: Shape<T>, method: string, path: string): T {
    return expectShape(data, shape, method, new URL(joinUrl(this.opts.baseUrl, path)).pathname, 'the answer');
  }

  private async request(
    method: string,
    path: string,
    { query, body, target, ifNoneMatch }: { query?: Query | undefined; body?: unknown; target?: Target | undefined; ifNoneMatch?: string },
  ): Promise<ApiResponse> {
    const url = joinUrl(this.opts.baseUrl, path, query);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {};
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
    const { res, error } = await this.exchange(method, url, headers, payload, target ?? 'account');
    if (error) throw error;
    // Not modified since the ETag sent: nothing to parse.
    if (res.status === 304) return { status: 304, data: undefined, headers: res.headers, bytes: 0 };
    return { status: res.status, data: this.parseSuccess(res, method, url), headers: res.headers, bytes: Buffer.byteLength(res.text) };
  }

  /**
   * `pathOrUrl` as a URL under the base URL: a path (a leading '/' or not) joins under the base
   * URL's own path; a whole URL must be of the base URL's origin, since the token goes with it.
   */
  urlFor(pathOrUrl: string): string {
    let url: URL;
    if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) {
      try {
        url = new URL(pathOrUrl);
      } catch {
        throw new UsageError(`"${pathOrUrl}" is not a valid URL`);
      }
      const base = new URL(this.opts.baseUrl);
      if (url.origin !== base.origin) {
        throw new UsageError(
          `Refusing to send the token to ${originOf(url, pathOrUrl)}: it goes only to the API's own origin, ${base.origin}`,
          terminal('Give a path under the API URL (e.g. `checkin api goals`), or set CHECKIN_API_URL.'),
        );
      }
    } else {
      const q = pathOrUrl.indexOf('?');
      const path = q === -1 ? pathOrUrl : pathOrUrl.slice(0, q);
      url = new URL(joinUrl(this.opts.baseUrl, path));
      if (q !== -1) url.search = pathOrUrl.slice(q);
      if (url.origin !== new URL(this.opts.baseUrl).origin) throw new UsageError(`The path "${pathOrUrl}" leaves the API's origin`);
    }
    url.hash = '';
    return url.href;
  }

  /**
   * One request as given (`checkin api`): `url` from urlFor, the caller's headers over the client's
   * Accept and User-Agent (never over OWN_HEADERS: a UsageError), the body as it is. Retried like any request of its method; the answer is handed back
   * whatever its status, with the ApiError a non-2xx status makes (the same words and exit code as
   * every command's). Network failures throw.
   */
  async raw(req: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    body?: string;
    target?: Target;
  }): Promise<{ status: number; headers: Headers; text: string; error?: ApiError }> {
    const to = new URL(req.url);
    if (to.origin !== new URL(this.opts.baseUrl).origin) throw new UsageError(`Refusing to send the token to ${originOf(to)}`);
    const { res, error } = await this.exchange(req.method, req.url, req.headers ?? {}, req.body, req.target ?? 'account');
    return { status: res.status, headers: res.headers, text: res.text, ...(error && { error }) };
  }

  /**
   * Sends one request, tried again as its method allows, and hands back the last answer: with an
   * ApiError when its status is not 2xx (nor a 304 to an If-None-Match). Network failures throw.
   */
  private async exchange(
    method: string,
    url: string,
    extra: Record<string, string>,
    payload: string | undefined,
    target: Target,
  ): Promise<{ res: Exchange; error?: ApiError }> {
    // GET, HEAD and PATCH are tried again; a POST or DELETE once its request went out, never.
    const idempotent = method === 'GET' || method === 'HEAD' || method === 'PATCH';
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.opts.token}`,
      accept: 'application/json',
      'user-agent': this.opts.userAgent ?? 'checkin',
    };
    for (const [name, value] of Object.entries(extra)) {
      if (OWN_HEADERS.has(name.toLowerCase())) throw new UsageError(`The ${name} header is checkin's own to set; it cannot be given`);
      for (const own of Object.keys(headers)) if (own.toLowerCase() === name.toLowerCase()) delete headers[own];
      headers[name] = value;
    }
    const conditional = Object.keys(headers).some((h) => h.toLowerCase() === 'if-none-match');

    const transport = await this.connect();
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.maxTries;
      let res: Exchange;
      const started = this.now(); // not performance.now(): its module costs every run ~1 ms
      try {
        res = await transport.send({
          method,
          url,
          headers,
          ...(payload !== undefined && { body: payload }),
          timeoutMs: this.timeoutMs,
          maxBodyBytes: this.maxBodyBytes,
        });
      } catch (err) {
        this.trace({ method, url, attempt, headers, payload, started, error: `${(err as TransportError).code ?? 'error'}: ${(err as Error).message}` });
        const code = (err as TransportError).code;
        // A header value HTTP cannot carry: nothing was sent, and sending again would not help.
        if (UNSENDABLE.has(code)) throw new UsageError(`${method} ${new URL(url).pathname} cannot be sent: ${(err as Error).message}`);
        const failure = this.networkError(err as TransportError, method, url);
        failure.notSent = !(err as TransportError).written;
        // Idempotent requests are tried again when the connection failed; a POST only when it
        // provably never went out. A TLS failure is the same the next time, and so is a port on this
        // machine where nothing listens (said at once, as gh does: no network is in between to recover).
        const retryable = !isTls(code) && !nothingListens(code, url) && (idempotent ? failure.kind === 'network' : !(err as TransportError).written);
        if (last || !retryable) throw failure;
        const delayMs = 250 * 2 ** (attempt - 1);
        this.opts.onRetry?.({ attempt, delayMs, why: failure.message });
        await this.sleep(delayMs);
        continue;
      }
      this.trace({ method, url, attempt, headers, payload, started, res });

      if ((res.status === 304 && conditional) || (res.status >= 200 && res.status < 300)) return { res };

      const wait = retryAfterSeconds(res.headers['retry-after'], this.now());
      const error = this.httpError(res, wait, method, url, target);
      const retryable = RETRYABLE_STATUS.has(res.status) && idempotent;
      if (last || !retryable) return { res, error };
      if (wait !== undefined && wait > this.maxWaitS) {
        this.checkWait(wait, method, new URL(url).pathname, 'Retry-After', res.status);
      }
      const delayMs = res.status === 429 ? Math.max(wait ?? 1, 0) * 1000 : wait !== undefined ? wait * 1000 : 500 * attempt;
      this.opts.onRetry?.({ attempt, delayMs, why: error.message });
      await this.sleep(delayMs);
    }
  }

  /** Tells the trace hook (when there is one) of an exchange, every secret taken out. */
  private trace(x: {
    method: string;
    url: string;
    attempt: number;
    headers: Record<string, string>;
    payload: string | undefined;
    started: number;
    res?: Exchange;
    error?: string;
  }): void {
    const hook = this.opts.onTrace;
    if (!hook) return;
    const secrets = this.secrets;
    const event: TraceEvent = {
      method: x.method,
      url: redactText(x.url, secrets),
      attempt: x.attempt,
      requestHeaders: redactHeaders(x.headers, secrets),
      ms: this.now() - x.started,
      ...(x.payload !== undefined && { requestBody: redactBody(x.payload, secrets) }),
      ...(x.res && { status: x.res.status, responseHeaders: redactHeaders(x.res.headers, secrets), responseBody: redactBody(x.res.text, secrets) }),
      ...(x.error !== undefined && { error: redactText(x.error, secrets) }),
    };
    hook(event);
  }

  private parseSuccess(res: Exchange, method: string, url: string): unknown {
    const text = res.text;
    if (res.status === 204 || text === '') return undefined;
    let parsed: { value: unknown } | undefined;
    try {
      parsed = parseJsonBounded(text);
    } catch {
      parsed = { value: INVALID };
    }
    if (parsed === undefined) {
      throw new ApiError({
        kind: 'invalid-response',
        method,
        path: new URL(url).pathname,
        status: res.status,
        detail: `answered ${res.status} with JSON nested more than ${MAX_JSON_DEPTH} levels deep; checkin did not read it`,
      });
    }
    if (parsed.value !== INVALID) return parsed.value;
    const type = String(res.headers['content-type'] ?? 'unknown type');
    throw new ApiError({
      kind: 'invalid-response',
      method,
      path: new URL(url).pathname,
      status: res.status,
      detail: `answered ${res.status} with ${describeBody(type, text)} instead of JSON`,
      suggestion: 'Check CHECKIN_API_URL: it should point at the API (…/api/v2), not at the web app.',
    });
  }

  private httpError({ status, headers, text }: Exchange, retryAfter: number | undefined, method: string, url: string, target: Target): ApiError {
    let parsed: unknown;
    try {
      parsed = text ? parseJsonBounded(text)?.value : undefined;
    } catch {
      parsed = undefined;
    }
    // What the service said reaches the error line: a service that echoes the token does not get it printed.
    const clean = (s: string) => redactText(s, this.secrets);
    const said = serviceMessageOf(parsed);
    const serviceMessage = said === undefined ? undefined : clean(said);
    const type = String(headers['content-type'] ?? '');
    const detail = serviceMessage ?? (text ? clean(describeBody(type, text)) : 'an empty body');
    const errors = parsed && typeof parsed === 'object' && 'errors' in parsed ? (parsed as { errors: unknown }).errors : undefined;
    const fields =
      errors && typeof errors === 'object' && !Array.isArray(errors)
        ? (Object.fromEntries(
            Object.entries(errors as Record<string, unknown>).map(([k, v]) => [
              clean(k),
              Array.isArray(v) ? v.map((m) => (typeof m === 'string' ? clean(m) : m)) : v,
            ]),
          ) as Record<string, string[]>)
        : undefined;
    const suggestion = suggestionFor(status, method, target, retryAfter);
    return new ApiError({
      kind: 'http',
      method,
      path: new URL(url).pathname,
      status,
      target,
      detail,
      ...(serviceMessage !== undefined && { serviceMessage }),
      ...(fields !== undefined && { fields }),
      ...(suggestion !== undefined && { suggestion }),
      jsonBody: parsed !== undefined && typeof parsed === 'object',
    });
  }

  private networkError(e: TransportError, method: string, url: string): ApiError {
    const code = e.code;
    const { pathname: path } = new URL(url);
    if (code === TOO_BIG_CODE) {
      return new ApiError({
        kind: 'invalid-response',
        method,
        path,
        detail: `answered with more than ${Math.round(this.maxBodyBytes / 1048576)} MiB; checkin stopped reading`,
        suggestion: 'Check CHECKIN_API_URL: it should point at the check-in service.',
      });
    }
    // What happened is said in the words every request of checkin's uses (unreached.ts); what to
    // do about it is the API's own.
    const u = unreached(e, url, this.opts.env ?? {}, this.timeoutMs);
    const suggestion: Record<Unreached['why'], string> = {
      timeout: 'The service may be down or unreachable; try again later, or raise CHECKIN_TIMEOUT (seconds).',
      'plain-http': 'Check CHECKIN_API_URL: a local sandbox is http://127.0.0.1:…, the service is https://.',
      certificate: 'If your network inspects TLS with its own certificate authority, point NODE_EXTRA_CA_CERTS at its certificate.',
      proxy: 'Check HTTPS_PROXY / HTTP_PROXY (or leave this host out with NO_PROXY).',
      'nothing-listens': 'Start it in another terminal (`checkin sandbox`), or check --api-url / CHECKIN_API_URL.',
      network: 'Check your network connection and CHECKIN_API_URL (or a proxy in HTTPS_PROXY).',
    };
    return new ApiError({
      kind: u.why === 'timeout' ? 'timeout' : 'network',
      method,
      path,
      // On this machine, only a local service (the sandbox) is ever asked.
      detail: u.why === 'nothing-listens' ? `${u.words} — is \`checkin sandbox\` running?` : u.words,
      suggestion: suggestion[u.why],
    });
  }

  async close(): Promise<void> {
    // Releases pooled keep-alive sockets, so the process can exit as soon as the work is done.
    if (this.transport) await (await this.transport).close();
  }
}

/** Node's and undici's codes for a request that cannot be sent as it is (a header value, a method). */
const UNSENDABLE = new Set(['ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_INVALID_HTTP_TOKEN', 'UND_ERR_INVALID_ARG']);
/** A connection to this machine refused or unreachable: nothing listens there, and trying again finds nothing either. */
function nothingListens(code: string, url: string): boolean {
  return LOOPBACK_GONE.has(code) && isLoopback(new URL(url).hostname);
}

/** Where a URL goes, in words: its origin, or the URL itself, quoted, when it has none (`evil.example:80/x` parses with the scheme "evil.example:"). */
function originOf(url: URL, given = url.href): string {
  return url.origin === 'null' ? `"${given}"` : url.origin;
}

function describeBody(contentType: string, text: string): string {
  if (/html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return `an HTML page${title ? ` ("${title.slice(0, 80)}")` : ''}`;
  }
  return contentType ? `a body of type ${contentType}` : 'a body of no stated type';
}
