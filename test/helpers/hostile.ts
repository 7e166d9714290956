// A hostile service on 127.0.0.1: it speaks the shapes of API v2 but every string it sends —
// ids, dates, names, answers, emoji — carries terminal escapes (OSC title and clipboard writes,
// clear-screen, C1 CSI), bidi overrides and zero-width characters; and on request it misbehaves:
// trickles, floods, ignores paging, sends wrong shapes or asks for absurd waits.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export const POISON = '\u001b]0;pwned\u0007\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u001b[31m\u202e\u200b\u009b31m\u0007';
/** What must never reach a terminal: escapes other than checkin's own colours, C0 (but \n, \t), C1, bidi, zero-width. */
export const FORBIDDEN = /\u001b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b\u200c\u200e\u200f\ufeff]/;

const p = (s: string) => `${s}${POISON}`;
const ref = (name: string) => ({ id: p('id'), name: p(name) });

export function hostileObjects() {
  const person = { id: p('person'), type: p('Person'), name: p('Eve'), username: p('eve'), title: p('Title'), time_zone: p('UTC'), teams: [ref('Team')] };
  const checkIn = {
    type: p('CheckIn'),
    id: p('checkin'),
    date: p('2026-11-22'),
    person: ref('Eve'),
    teams: [ref('Team')],
    previous: p('- did'),
    intentions: p('- will\n- more'),
    blockers: p('blocked'),
    mood: p('focused'),
    previous_completed: true,
    blocked: true,
    absent: false,
    completed_at: p('2026-11-22T09:00:00Z'),
    updated_at: p('x'),
    url: p('https://x/'),
  };
  const comment = {
    id: p('comment'),
    body: p('nice'),
    person: ref('Eve'),
    resource: { type: p('CheckIn'), id: p('x') },
    created_at: p('2026-11-22T09:00:00Z'),
  };
  const reaction = { id: p('reaction'), name: p('tada'), emoji: p('🎉'), person: ref('Eve'), resource: { type: p('x'), id: p('x') }, created_at: p('2026') };
  const goal = {
    id: p('goal'),
    title: p('Goal'),
    parent: null,
    end_date: p('2026-12-31'),
    progress: 50,
    confidence: 60,
    confidence_description: p('At risk'),
    owner: ref('Eve'),
    teams: [ref('Team')],
    contributors: [ref('Eve')],
    url: p('u'),
  };
  const update = {
    id: p('update'),
    goal: { id: p('goal'), title: p('Goal') },
    person: ref('Eve'),
    title: p('Update'),
    body: p('body'),
    progress: 50,
    confidence: 60,
    confidence_description: p('At risk'),
    created_at: p('2026-11-22T09:00:00Z'),
    updated_at: p('x'),
    url: p('u'),
  };
  const team = { ...ref('Team'), type: p('Team'), people: [ref('Eve')] };
  const activity = {
    id: p('activity'),
    kind: p('github_pr'),
    group: p('GitHub PR'),
    title: p('PR'),
    description: p('d'),
    url: p('https://x/'),
    recorded_at: p('2026-11-22T09:00:00Z'),
    person: ref('Eve'),
  };
  return { person, checkIn, comment, reaction, goal, update, team, activity };
}

export interface HostileOptions {
  /** Answer GET /check-ins/{key} with this instead of a check-in. */
  checkInBody?: string;
  /** Answer PATCH /check-ins/{key} with this (status 200). */
  patchBody?: string;
  /** Send the check-in one byte every `ms`. */
  trickleMs?: number;
  /** Send a body of this many bytes. */
  hugeBytes?: number;
  /** Lists ignore `page`: every page is the same full page. */
  ignorePage?: boolean;
  /** Lists never end: every page is full of new items. */
  endless?: boolean;
  /** Every GET first answers 503 with this Retry-After, once. */
  retryAfter?: string;
  /** The RateLimit header's reset, in seconds, with nothing left. */
  rateLimitReset?: number;
  /** Answer the first GET with a 503 whose message is poisoned. */
  poisonedRetry?: boolean;
  /** Every PATCH and POST fails with a 500. */
  failWrites?: boolean;
  /**
   * With failWrites: each PATCH or POST is held until this many are, then all fail at once (the
   * processes that sent them go on at the same moment: their drafts are kept side by side).
   */
  failTogether?: number;
}

export async function startHostile(opts: HostileOptions = {}) {
  const o = hostileObjects();
  const requests: string[] = [];
  let retried = false;
  let poisonedOnce = false;
  let held: Array<() => void> = [];
  const page = (item: object, n: number, pageNo: number) =>
    Array.from({ length: n }, (_, i) => ({
      ...item,
      id: opts.ignorePage ? `${(item as { id: string }).id}${i}` : `${(item as { id: string }).id}-${pageNo}-${i}`,
    }));

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/api\/v2/, '');
    requests.push(`${req.method} ${path}${url.search}`);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
    };
    req.resume();
    if (opts.failWrites && (req.method === 'PATCH' || req.method === 'POST')) {
      held.push(() => json(500, { message: 'down' }));
      if (held.length >= (opts.failTogether ?? 1)) for (const fail of held.splice(0)) fail();
      return;
    }
    if (opts.poisonedRetry && !poisonedOnce && req.method === 'GET') {
      poisonedOnce = true;
      return json(503, { message: p('maintenance') });
    }
    if (opts.retryAfter && !retried && req.method === 'GET') {
      retried = true;
      return json(503, { message: 'later' }, { 'retry-after': opts.retryAfter });
    }
    if (opts.hugeBytes) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < opts.hugeBytes!) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      return pump();
    }
    const pageNo = Number(url.searchParams.get('page') ?? '1');
    const perPage = Number(url.searchParams.get('per_page') ?? '50');
    const list = (item: object) => {
      const headers: Record<string, string> = opts.rateLimitReset !== undefined ? { ratelimit: `"burst";r=0;t=${opts.rateLimitReset}` } : {};
      if (opts.ignorePage || opts.endless) return json(200, page(item, perPage, pageNo), headers);
      return json(200, [item], headers);
    };
    const m = (re: RegExp) => re.exec(path);
    if (path === '/me') return json(200, o.person);
    if (m(/^\/check-ins\/[^/]+\/comments$/)) return req.method === 'POST' ? json(201, o.comment) : list(o.comment);
    if (m(/^\/(check-ins|goal-updates)\/[^/]+\/reactions$/)) return list(o.reaction);
    if (m(/^\/goal-updates\/[^/]+\/comments$/)) return req.method === 'POST' ? json(201, o.comment) : list(o.comment);
    if (m(/^\/check-ins\/[^/]+$/)) {
      if (req.method === 'PATCH') return json(200, opts.patchBody ?? o.checkIn);
      if (opts.checkInBody !== undefined) return json(200, opts.checkInBody);
      if (opts.trickleMs) {
        const body = JSON.stringify(o.checkIn);
        res.writeHead(200, { 'content-type': 'application/json' });
        let i = 0;
        const timer = setInterval(() => {
          if (res.destroyed || i >= body.length) {
            clearInterval(timer);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(body[i++]!);
        }, opts.trickleMs);
        res.on('close', () => clearInterval(timer));
        return;
      }
      return json(200, o.checkIn);
    }
    if (path === '/check-ins') return list(o.checkIn);
    if (path === '/goals') return list(o.goal);
    if (m(/^\/goals\/[^/]+\/goal-updates$/)) return req.method === 'POST' ? json(201, o.update) : list(o.update);
    if (m(/^\/goals\/[^/]+$/)) return json(200, o.goal);
    if (m(/^\/goal-updates\/[^/]+$/)) return json(200, o.update);
    if (path === '/people') return list(o.person);
    if (path === '/teams') return list(o.team);
    if (m(/^\/teams\/[^/]+$/)) return json(200, o.team);
    if (path === '/activities') return req.method === 'POST' ? json(201, o.activity) : list(o.activity);
    return json(404, { error: 'not_found', message: p('nope') });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v2`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
