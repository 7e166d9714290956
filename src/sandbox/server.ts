// The sandbox's HTTP face: API v2 under /api/v2 on node:http, strict where the spec is.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DATE_KEY_RE, MAX_PER_PAGE, UUID_RE, type ErrorBody } from '../api/types.js';
import { isDateKey } from '../core/datekey.js';
import { validateData, type SandboxData, type TokenRecord } from './data.js';
import { DEMO_TOKEN, demoData, scaledDemoData, type DemoSize } from './demo.js';
import { DEFAULT_WINDOWS, RateLimiter, type Window } from './ratelimit.js';
import { DIGEST_CATEGORIES, SandboxService, ServiceError, type DigestCategory } from './service.js';
import { Store, type StoreIO } from './store.js';

export const API_PREFIX = '/api/v2';
const DEFAULT_PER_PAGE = 20;
const MAX_BODY_BYTES = 1024 * 1024;
/** A refused request's body up to this size is read and dropped; a larger one is never read. */
const SMALL_BODY = 64 * 1024;
/** The request log keeps the newest this many requests (memory stays bounded under any traffic). */
export const MAX_LOGGED_REQUESTS = 500;
/** Bodies larger than this are logged as a note of their size, not kept. */
const MAX_LOGGED_BODY = 16 * 1024;

export interface RecordedRequest {
  method: string;
  /** Path below the host, without the query: /api/v2/check-ins/2026-05-06 */
  path: string;
  /** The raw query string, without the '?'. */
  query: string;
  /** Decoded query pairs, in order (repeated names repeat). */
  params: Array<[string, string]>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, the raw text when it was not JSON, or undefined when empty. */
  body: unknown;
  status: number;
}

/** A canned answer for tests of clients: served instead of the real one, once per entry. */
export interface Fault {
  /** Only requests whose method and path (below /api/v2) match; default: any. */
  method?: string;
  path?: string | RegExp;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the client must time out); the socket is closed when the sandbox closes. */
  hang?: boolean;
  /** Destroy the connection without answering. */
  drop?: boolean;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** The demo person's read+write token (default: DEMO_TOKEN); ignored when a data file already exists. */
  token?: string;
  /** Initial state held in memory (default: demo data). */
  data?: SandboxData;
  /** The size of generated demo data (ignored with `data`, or a data file that exists). */
  size?: DemoSize;
  /**
   * A JSON file the state is loaded from (when it exists) and kept in: every change is appended to
   * FILE.journal and flushed before it is answered; the journal is folded into FILE at start, when it
   * outgrows FILE, and at close.
   */
  dataFile?: string;
  /** Replaces how the data file's journal is written or flushed (tests make the disk fail with it). */
  storeIO?: Partial<StoreIO>;
  /** The service's notion of now (default: the real clock). */
  clock?: () => Date;
  /** Rate-limit windows, or false to switch limits off (default: 30/10 s and 500/30 min). */
  rateLimit?: Window[] | false;
  /** Called after each request was answered (the `checkin sandbox` request log). */
  onRequest?: (request: RecordedRequest) => void;
  /** false: answer as a service without GET /digest (a route miss, 404), for clients' fallbacks. */
  digest?: boolean;
}

export interface Sandbox {
  /** Base URL of the API, e.g. http://127.0.0.1:41234/api/v2 */
  url: string;
  /** The demo person's read+write token. */
  token: string;
  port: number;
  service: SandboxService;
  /** Every request received, oldest first (tests assert on these). */
  requests: RecordedRequest[];
  /** Queue canned answers (HTML error pages, 500s, hangs…) for the next matching requests. */
  inject(...faults: Fault[]): void;
  close(): Promise<void>;
}

type Handler = (ctx: RequestContext) => unknown;
interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** Query parameters the route accepts; arrays are listed with their brackets. */
  query: string[];
  write?: boolean;
  created?: boolean;
}

interface RequestContext {
  match: string[];
  params: URLSearchParams;
  body: Record<string, unknown>;
  personId: string;
  service: SandboxService;
}

function fail(status: number, message: string): never {
  throw new ServiceError(status, message);
}

// ---- query parsing, strict as the spec ----
const single = (q: URLSearchParams, name: string): string | undefined => {
  const all = q.getAll(name);
  if (all.length > 1) fail(400, `${name} was given ${all.length} times; give it once`);
  return all[0];
};

function dateParam(q: URLSearchParams, name: string): string | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (!isDateKey(v)) fail(400, `${name} must be a date written YYYY-MM-DD, got "${v}"`);
  return v;
}

function timestampParam(q: URLSearchParams, name: string): string | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) || Number.isNaN(Date.parse(v))) {
    fail(400, `${name} must be an ISO 8601 timestamp such as 2026-05-06T00:00:00Z, got "${v}"`);
  }
  return v;
}

/** A date (from its first moment, UTC) or an ISO 8601 timestamp, as an instant. */
function instantParam(q: URLSearchParams, name: string): string | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (DATE_KEY_RE.test(v) && isDateKey(v)) return `${v}T00:00:00Z`;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) || Number.isNaN(Date.parse(v))) {
    fail(400, `${name} must be a date written YYYY-MM-DD or an ISO 8601 timestamp such as 2026-05-06T00:00:00Z, got "${v}"`);
  }
  return new Date(v).toISOString();
}

function uuidArray(q: URLSearchParams, name: string): string[] {
  const values = q.getAll(`${name}[]`);
  for (const v of values) {
    if (v.includes(',')) fail(400, `${name}[] takes one UUID per parameter; comma-separated values are not accepted (repeat ${name}[]=… instead)`);
    if (v === 'me' || v === 'self')
      fail(400, `${name}[] needs a person's UUID; "${v}" is not accepted (the UUID of the authenticated person is the id of GET /me)`);
    if (!UUID_RE.test(v)) fail(400, `${name}[] must be UUIDs, got "${v}"`);
  }
  return values.map((v) => v.toLowerCase());
}

function stringArray(q: URLSearchParams, name: string): string[] {
  const values = q.getAll(`${name}[]`);
  for (const v of values) {
    if (v.includes(',')) fail(400, `${name}[] takes one value per parameter; comma-separated values are not accepted (repeat ${name}[]=… instead)`);
    if (v === '') fail(400, `${name}[] must not be empty`);
  }
  return values;
}

/** The page asked for: 1-indexed `page`, `per_page` never above 50 (like the real service). */
function pageOf(q: URLSearchParams): { offset: number; limit: number } {
  const int = (name: string, fallback: number): number => {
    const v = single(q, name);
    if (v === undefined) return fallback;
    if (!/^\d{1,9}$/.test(v) || Number(v) < 1) fail(400, `${name} must be a positive integer, got "${v}"`);
    return Number(v);
  };
  const page = int('page', 1);
  const perPage = Math.min(int('per_page', DEFAULT_PER_PAGE), MAX_PER_PAGE);
  return { offset: (page - 1) * perPage, limit: perPage };
}

function paginate<T>(q: URLSearchParams, items: T[]): T[] {
  const { offset, limit } = pageOf(q);
  return items.slice(offset, offset + limit);
}

function booleanParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') fail(400, `${name} must be true or false, got "${v}"`);
  return v === 'true';
}

const PAGE = ['page', 'per_page'];
const ID = '([0-9A-Fa-f-]{36})';
const KEY = '([^/]+)';

function routes(): Route[] {
  const r = (method: string, path: string, query: string[], handler: Handler, extra: Partial<Route> = {}): Route => ({
    method,
    pattern: new RegExp(`^${path}$`),
    query,
    handler,
    write: method !== 'GET',
    ...extra,
  });
  const checkInKey = (ctx: RequestContext) => {
    let key: string;
    try {
      key = decodeURIComponent(ctx.match[1]!);
    } catch {
      fail(400, `The check-in key "${ctx.match[1]}" is not valid percent-encoding`);
    }
    if (!UUID_RE.test(key) && !(DATE_KEY_RE.test(key) && isDateKey(key))) {
      fail(404, `No check-in ${key}: a check-in is addressed by its UUID or by a date written YYYY-MM-DD`);
    }
    return ctx.service.resolveKey(key, ctx.personId);
  };
  const onResource = (type: 'check-in' | 'goal-update') => (ctx: RequestContext) => ctx.service.resource(type, ctx.match[1]!);
  return [
    r('GET', '/me', [], (c) => c.service.me(c.personId)),
    r('GET', '/people', PAGE, (c) =>
      paginate(
        c.params,
        c.service.data.people.map((p) => c.service.personView(p)),
      ),
    ),
    r('GET', `/people/${ID}`, [], (c) => {
      const p = c.service.person(c.match[1]!.toLowerCase());
      return p ? c.service.personView(p) : fail(404, `No person ${c.match[1]}`);
    }),
    r('GET', '/teams', PAGE, (c) =>
      paginate(
        c.params,
        c.service.data.teams.map((t) => c.service.teamView(t, false)),
      ),
    ),
    r('GET', `/teams/${ID}`, [], (c) => c.service.teamView(c.service.team(c.match[1]!.toLowerCase()), true)),
    r('GET', '/check-ins', ['since', 'until', 'blocked', 'people_ids[]', 'team_ids[]', ...PAGE], (c) => {
      const since = dateParam(c.params, 'since');
      const until = dateParam(c.params, 'until');
      const blocked = booleanParam(c.params, 'blocked');
      const filter = {
        people_ids: uuidArray(c.params, 'people_ids'),
        team_ids: uuidArray(c.params, 'team_ids'),
        ...(since !== undefined && { since }),
        ...(until !== undefined && { until }),
        ...(blocked !== undefined && { blocked }),
      };
      const { offset, limit } = pageOf(c.params);
      return c.service.listCheckIns(filter, offset, limit);
    }),
    r('GET', `/check-ins/${KEY}`, [], (c) => {
      const { personId, date } = checkInKey(c);
      return c.service.view(personId, date);
    }),
    r('PATCH', `/check-ins/${KEY}`, [], (c) => {
      const { personId, date } = checkInKey(c);
      // Another person's check-in: only with an administrator's read+write token ("appropriate token scope").
      if (personId !== c.personId && !c.service.person(c.personId)?.administrator)
        fail(403, "You can only fill in your own check-ins; an administrator can fill in others'");
      return c.service.patchCheckIn(personId, date, c.body);
    }),
    r('GET', `/check-ins/${ID}/comments`, PAGE, (c) => paginate(c.params, c.service.comments(onResource('check-in')(c)))),
    r('POST', `/check-ins/${ID}/comments`, [], (c) => c.service.addComment(onResource('check-in')(c), c.personId, c.body), { created: true }),
    r('GET', `/check-ins/${ID}/reactions`, PAGE, (c) => paginate(c.params, c.service.reactions(onResource('check-in')(c)))),
    r('GET', `/goal-updates/${ID}/comments`, PAGE, (c) => paginate(c.params, c.service.comments(onResource('goal-update')(c)))),
    r('POST', `/goal-updates/${ID}/comments`, [], (c) => c.service.addComment(onResource('goal-update')(c), c.personId, c.body), { created: true }),
    r('GET', `/goal-updates/${ID}/reactions`, PAGE, (c) => paginate(c.params, c.service.reactions(onResource('goal-update')(c)))),
    r('GET', '/goals', ['people_ids[]', 'team_ids[]', 'since', 'until', ...PAGE], (c) => {
      const since = dateParam(c.params, 'since');
      const until = dateParam(c.params, 'until');
      const span = { ...(since !== undefined && { since }), ...(until !== undefined && { until }) };
      return paginate(c.params, c.service.goals(uuidArray(c.params, 'people_ids'), uuidArray(c.params, 'team_ids'), span));
    }),
    r('GET', '/digest', ['category', 'since', ...PAGE], (c) => {
      const category = single(c.params, 'category');
      if (category !== undefined && !DIGEST_CATEGORIES.includes(category as DigestCategory)) {
        fail(400, `category must be one of ${DIGEST_CATEGORIES.join(', ')}, got "${category}"`);
      }
      const since = instantParam(c.params, 'since');
      const filter = { ...(category !== undefined && { category: category as DigestCategory }), ...(since !== undefined && { since }) };
      return paginate(c.params, c.service.digest(c.personId, filter));
    }),
    r('POST', '/goals', [], (c) => c.service.createGoal(c.personId, c.body), { created: true }),
    r('GET', `/goals/${ID}`, [], (c) => c.service.goal(c.match[1]!.toLowerCase())),
    r('PATCH', `/goals/${ID}`, [], (c) => c.service.patchGoal(c.match[1]!, c.body)),
    r('GET', `/goals/${ID}/goal-updates`, PAGE, (c) => paginate(c.params, c.service.goalUpdates(c.match[1]!.toLowerCase()))),
    r('POST', `/goals/${ID}/goal-updates`, [], (c) => c.service.createGoalUpdate(c.match[1]!.toLowerCase(), c.personId, c.body), { created: true }),
    r('GET', `/goal-updates/${ID}`, [], (c) => c.service.goalUpdate(c.match[1]!)),
    r('PATCH', `/goal-updates/${ID}`, [], (c) => c.service.patchGoalUpdate(c.match[1]!, c.personId, c.body)),
    r('DELETE', `/goal-updates/${ID}`, [], (c) => {
      c.service.deleteGoalUpdate(c.match[1]!, c.personId);
      return undefined;
    }),
    r('GET', `/activities/${ID}`, [], (c) => c.service.activity(c.match[1]!)),
    r('POST', '/activities', [], (c) => c.service.addActivity(c.personId, c.body), { created: true }),
    r('GET', '/echo/questions', PAGE, (c) => paginate(c.params, c.service.echoQuestions())),
    r('POST', '/echo/questions', [], (c) => c.service.addEchoQuestion(c.body), { created: true }),
    r('GET', `/echo/answers/${ID}`, [], (c) => c.service.echoAnswer(c.match[1]!)),
    r('GET', '/activities', ['kinds[]', 'people_ids[]', 'team_ids[]', 'since', 'until', ...PAGE], (c) => {
      const since = timestampParam(c.params, 'since');
      const until = timestampParam(c.params, 'until');
      return paginate(
        c.params,
        c.service.activities({
          kinds: stringArray(c.params, 'kinds'),
          people_ids: uuidArray(c.params, 'people_ids'),
          team_ids: uuidArray(c.params, 'team_ids'),
          ...(since !== undefined && { since }),
          ...(until !== undefined && { until }),
        }),
      );
    }),
  ];
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new ServiceError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The token record a "Bearer <token>" header names, if any. */
function tokenOf(auth: string | undefined, service: SandboxService): TokenRecord | undefined {
  const m = auth === undefined ? null : /^Bearer ([^\s]+)$/.exec(auth);
  return m ? service.tokenRecord(m[1]!) : undefined;
}

/** If-None-Match against an ETag: "*", or any listed tag, compared weakly (W/ ignored) as RFC 9110 says for GET. */
function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const weak = (t: string) => t.trim().replace(/^W\//, '');
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim());
  return tags.some((t) => t === '*' || weak(t) === weak(etag));
}

function errorCode(status: number): string {
  const codes: Record<number, string> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    405: 'method_not_allowed',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'unprocessable_entity',
    429: 'too_many_requests',
    503: 'service_unavailable',
    507: 'insufficient_storage',
  };
  return codes[status] ?? 'internal_error';
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const clock = options.clock ?? (() => new Date());
  /** The state to start from: what the data file held (when it exists), else the data given, else demo data. */
  const prepare = (loaded: SandboxData | undefined): SandboxData => {
    const data =
      loaded ??
      (options.data
        ? validateData(structuredClone(options.data))
        : options.size
          ? scaledDemoData(clock(), options.token ?? DEMO_TOKEN, options.size)
          : demoData(clock(), options.token ?? DEMO_TOKEN));
    if (options.token && !data.tokens.some((t) => t.token === options.token)) {
      // Make the requested token the demo person's read+write token.
      const demoPerson = data.tokens.find((t) => t.scope === 'write')?.person_id ?? data.people[0]?.id;
      if (demoPerson) data.tokens.push({ token: options.token, person_id: demoPerson, scope: 'write' });
    }
    return data;
  };
  let store: Store | undefined;
  let state: SandboxData;
  if (options.dataFile) {
    try {
      ({ store, data: state } = await Store.open(options.dataFile, prepare, options.storeIO));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      // A path that cannot be written fails now, not at the first write.
      if (e.code && e.code !== 'ELOCKED') {
        throw Object.assign(new Error(`Cannot write the data file ${options.dataFile}: ${e.code}`), { code: 'EDATAFILE' });
      }
      throw err;
    }
  } else {
    state = prepare(undefined);
  }
  const token = options.token ?? state.tokens.find((t) => t.scope === 'write')?.token ?? DEMO_TOKEN;

  // A change is shown to nobody before it is on disk, and a change that cannot be saved is taken
  // back. `uncommitted` is a write whose change is in memory but not yet durable: every request
  // waits for it. `busy` is that, or the journal being folded into the snapshot: writes wait for it.
  let uncommitted: Promise<void> | undefined;
  let busy: Promise<void> | undefined;
  /** Folds the journal into a new snapshot once it has grown past the snapshot's size (writes wait meanwhile). */
  const compactIfDue = () => {
    if (!store?.wantsCompaction || busy) return;
    const s = store;
    const compaction = s.compact(state).catch(() => undefined); // the journal keeps everything; it is tried again later
    busy = compaction.then(() => {
      busy = undefined;
    });
  };

  const limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? DEFAULT_WINDOWS, () => clock().getTime());
  const table = routes().filter((route) => options.digest !== false || !(route.method === 'GET' && route.pattern.test('/digest')));
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const hanging = new Set<ServerResponse>();
  let appUrl = '';
  let service!: SandboxService;

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    // Whatever arrives: a request-target that is not a URL gets a 400, never a crash.
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox');
    } catch {
      url = undefined;
    }
    const record: RecordedRequest = {
      method,
      path: url?.pathname ?? String(req.url ?? '').slice(0, 200),
      query: url?.search.replace(/^\?/, '') ?? '',
      params: url ? [...url.searchParams.entries()] : [],
      headers: { ...req.headers },
      body: undefined,
      status: 0,
    };
    requests.push(record);
    if (requests.length > MAX_LOGGED_REQUESTS) requests.splice(0, requests.length - MAX_LOGGED_REQUESTS);
    res.once('finish', () => options.onRequest?.(record));
    let limitHeaders: Record<string, string> = {};
    const send = (status: number, text: string, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, {
        ...(text !== '' && { 'Content-Type': 'application/json; charset=utf-8' }),
        ...limitHeaders,
        ...headers,
      });
      res.end(text);
    };
    const sendError = (status: number, message: string, headers: Record<string, string> = {}, errors?: Record<string, string[]>) => {
      const body: ErrorBody = { error: errorCode(status), message, ...(errors && { errors }) };
      // A body nobody will read: a small one is drained (the connection stays open for the next
      // request); a large one is not read at all — the answer says Connection: close, and the
      // socket is half-closed once it is out, so what the caller still sends never reaches memory.
      if (!req.complete) {
        const length = Number(req.headers['content-length']);
        if (Number.isFinite(length) && length <= SMALL_BODY) req.resume();
        else {
          headers = { ...headers, Connection: 'close' };
          res.once('finish', () => req.socket.end());
        }
      }
      send(status, JSON.stringify(body), headers);
    };

    // Who is asking: a person (by a valid token) or, without one, the address it comes from. Every
    // answer counts against that budget — 401, 404 and 405 too — and carries the RateLimit headers.
    const tok = tokenOf(req.headers.authorization, service);
    /** Takes one request from the caller's budget; false when it is spent (the 429 is then sent). */
    const withinLimit = (): boolean => {
      if (!limiter) return true;
      const verdict = limiter.take(tok ? `person:${tok.person_id}` : `address:${req.socket.remoteAddress ?? ''}`);
      limitHeaders = verdict.headers;
      if (verdict.allowed) return true;
      sendError(429, `Rate limit exceeded; retry in ${verdict.retryAfter} s`, { 'Retry-After': String(verdict.retryAfter) });
      return false;
    };
    if (!url) {
      if (withinLimit()) sendError(400, 'Malformed request-target: not a URL path');
      return;
    }

    let raw = '';
    /** The body, read only for a request that got past authentication and has a route. */
    const readJsonBody = async () => {
      raw = await readBody(req);
      if (raw === '') return;
      if (raw.length > MAX_LOGGED_BODY) record.body = `<${raw.length} bytes>`;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (raw.length <= MAX_LOGGED_BODY) record.body = parsed;
        return parsed;
      } catch {
        if (raw.length <= MAX_LOGGED_BODY) record.body = raw;
        return raw;
      }
    };
    try {
      const sub = url.pathname.startsWith(API_PREFIX + '/') ? url.pathname.slice(API_PREFIX.length).replace(/\/+$/, '') : undefined;

      const faultIndex = faults.findIndex(
        (f) => (!f.method || f.method === method) && (f.path === undefined || (typeof f.path === 'string' ? f.path === sub : f.path.test(sub ?? ''))),
      );
      if (faultIndex !== -1) {
        const [fault] = faults.splice(faultIndex, 1);
        await readJsonBody().catch(() => undefined); // logged like any other
        if (fault!.drop) {
          record.status = -1;
          req.socket.destroy();
          return;
        }
        if (fault!.hang) {
          record.status = -1;
          hanging.add(res);
          return;
        }
        record.status = fault!.status ?? 500;
        res.writeHead(record.status, fault!.headers ?? {});
        res.end(fault!.body ?? '');
        return;
      }

      if (!withinLimit()) return;
      if (sub === undefined) fail(404, `No route ${method} ${url.pathname}: the API lives under ${API_PREFIX}`);
      const candidates = table.map((route) => ({ route, match: route.pattern.exec(sub) })).filter((c) => c.match);
      if (candidates.length === 0) fail(404, `No route ${method} ${url.pathname}`);
      const hit = candidates.find((c) => c.route.method === method);
      if (!hit) {
        const allow = [...new Set(candidates.map((c) => c.route.method))].join(', ');
        return sendError(405, `${method} is not allowed on ${url.pathname} (allowed: ${allow})`, { Allow: allow });
      }

      // Authentication, then the token's scope.
      const auth = req.headers.authorization;
      if (!auth) return sendError(401, 'Missing Authorization header: send "Authorization: Bearer <token>"');
      if (!/^Bearer [^\s]+$/.test(auth)) return sendError(401, 'Authorization header must be "Bearer <token>"');
      if (!tok) return sendError(401, 'Invalid or expired token');
      // Authenticated, on a route: the body is read (bounded) and logged.
      const parsed = await readJsonBody();
      if (hit.route.write && tok.scope !== 'write') {
        return sendError(403, 'This token is read-only: writes need a token with the "Read + write" scope');
      }

      for (const name of new Set(url.searchParams.keys())) {
        if (hit.route.query.includes(name)) continue;
        if (hit.route.query.includes(`${name}[]`)) fail(400, `${name} is an array parameter: repeat ${name}[]=<value> for each value`);
        fail(400, `Unknown query parameter "${name}"${hit.route.query.length ? ` (accepted: ${hit.route.query.join(', ')})` : ''}`);
      }

      let body: Record<string, unknown> = {};
      if (method === 'POST' || method === 'PATCH') {
        const type = req.headers['content-type'] ?? '';
        if (raw.trim() === '') fail(400, 'Request body is empty: send a JSON object');
        if (!/^application\/json\b/i.test(type)) fail(415, `Content-Type must be application/json, got "${type}"`);
        if (typeof parsed === 'string') fail(400, 'Malformed JSON in request body');
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail(400, 'Request body must be a JSON object');
        body = parsed as Record<string, unknown>;
      }

      const ctx: RequestContext = { match: hit.match!, params: url.searchParams, body, personId: tok.person_id, service };
      let result: unknown;
      if (!hit.route.write) {
        while (uncommitted) await uncommitted;
        result = hit.route.handler(ctx);
      } else {
        while (busy) await busy;
        // From here until the change is on disk (or taken back) nobody else runs a handler.
        service.begin();
        try {
          result = hit.route.handler(ctx);
        } catch (err) {
          service.end().undo(); // a refusal half-way changes nothing
          throw err;
        }
        const tx = service.end();
        if (store && tx.changes.length > 0) {
          let release!: () => void;
          busy = uncommitted = new Promise<void>((resolve) => (release = resolve));
          let failure: NodeJS.ErrnoException | undefined;
          try {
            await store.append(tx.changes);
          } catch (err) {
            failure = err as NodeJS.ErrnoException;
            tx.undo();
          } finally {
            busy = uncommitted = undefined;
            release();
          }
          if (failure) return sendNotSaved(failure);
          compactIfDue();
        }
      }
      if (method === 'DELETE') return send(204, '');
      const text = JSON.stringify(result);
      if (method === 'GET') {
        // Every GET answer carries an ETag; If-None-Match with it gives 304 and no body (still counted).
        const etag = `W/"${createHash('sha1').update(text).digest('hex').slice(0, 20)}"`;
        if (etagMatches(req.headers['if-none-match'], etag)) return send(304, '', { ETag: etag });
        return send(200, text, { ETag: etag });
      }
      return send(hit.route.created ? 201 : 200, text);
    } catch (err) {
      if (err instanceof ServiceError) return sendError(err.status, err.message, {}, err.errors);
      return sendError(500, `Internal sandbox error: ${(err as Error).message}`);
    }

    /** The answer to a write the data file refused: nothing was changed, and the client may send it again. */
    function sendNotSaved(err: NodeJS.ErrnoException) {
      const code = err.code ?? err.message;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        return sendError(
          507,
          `Not saved: the disk holding the data file is full (${code}). Nothing was changed and reads still work; free some space and send it again.`,
        );
      }
      return sendError(503, `Not saved: the data file could not be written (${code}). Nothing was changed and reads still work; send it again later.`, {
        'Retry-After': '5',
      });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  // Listening on every address (0.0.0.0, ::): the URL given out is this machine's loopback, which
  // reaches it and which clients accept over plain http.
  const shown = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const host = shown.includes(':') ? `[${shown}]` : shown;
  const origin = `http://${host}:${address.port}`;
  appUrl = `${origin}/app`;
  service = new SandboxService(state, clock, appUrl);

  return {
    url: `${origin}${API_PREFIX}`,
    token,
    port: address.port,
    service,
    requests,
    inject: (...f: Fault[]) => void faults.push(...f),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A write being saved, or a compaction, finishes first; then one last snapshot.
      while (busy) await busy;
      await store?.close(state);
    },
  };
}
