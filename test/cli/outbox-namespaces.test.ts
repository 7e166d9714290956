// Issue 48, case 1: one home shared by two pid namespaces (a container and the host), two senders
// of one kept comment, each started by `unshare --pid --fork --mount-proc`: both are pid 1, and
// neither can see the other's pid. Each sender asks the service who it is (GET /me: its own cache,
// the entry kept without the token's mark) while it holds the claim, and the service holds that
// answer until the other sender has asked too or ended — the window in which a second claim would
// need to take the first one back. Exactly one POST reaches the service, the entry is gone, and the
// sender that did not get the claim exits non-zero with one sentence. Nothing waits on a clock.
// CHECKIN_TEST_NS_ROUNDS sets how many rounds (the closing note: 10). Needs root (unshare); says it skipped without.
import { spawnSync } from 'node:child_process';
import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { checkInId } from '../../src/sandbox/ids.js';
import { startSandbox, type RecordedRequest } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { BIN, cleanEnv, outcome, runCli, type CliResult } from '../helpers/cli.js';
import { spawn } from 'node:child_process';
import { outboxDb, outboxRows } from '../helpers/outbox.js';
import { patient } from '../helpers/patience.js';

const ROUNDS = Number(process.env.CHECKIN_TEST_NS_ROUNDS ?? 2);
/** Whether this machine lets us make pid namespaces (root, and unshare there). */
const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { timeout: patient(10_000) });
const canUnshare = unshare.status === 0;
if (!canUnshare)
  console.log(`outbox namespaces: skipped: \`unshare --pid --fork --mount-proc\` is not allowed here (${String(unshare.error ?? unshare.stderr).trim()})`);

/** `checkin <args>` as pid 1 of a pid namespace of its own, with its own /proc; `checkin` is the pid of that process as seen here. */
function inOwnNamespace(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> & { checkin: () => number } {
  const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', process.execPath, BIN, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = outcome(child, `checkin ${args.join(' ')} (own pid namespace)`, 60_000);
  child.stdin!.end();
  // unshare's one child (it forks, then runs node there).
  const checkin = () => Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim());
  return Object.assign(done, { checkin });
}

/**
 * The sandbox behind a proxy that fails POSTs while `failing` and hands each GET /me to `onMe` (which
 * forwards it when it likes); one home whose drafts and settings are shared (XDG_STATE_HOME,
 * XDG_CONFIG_HOME), each sender giving its own cache (a container's is not the host's); `keep` keeps
 * comments while the service is down, as a checkin whose token sat in the keychain keeps them (the
 * person known, the token's mark not), so a sender asks who it is (GET /me) while it holds the claim.
 */
async function sharedHome() {
  const created: RecordedRequest[] = [];
  const sb = await startSandbox({ rateLimit: false, onRequest: (r) => r.method === 'POST' && r.status === 201 && created.push(r) });
  const to = new URL(sb.url);
  const o = { failing: true, onMe: (go: () => void) => go() };
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && o.failing) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable","message":"down"}');
        return;
      }
      const forward = () => {
        const r = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
          const out: Buffer[] = [];
          up.on('data', (c: Buffer) => out.push(c));
          up.on('end', () => res.writeHead(up.statusCode ?? 502, up.headers).end(Buffer.concat(out)));
        });
        r.end(Buffer.concat(chunks));
      };
      if (o.failing || !(req.method === 'GET' && /\/me$/.test(req.url ?? ''))) return forward();
      o.onMe(forward);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${to.pathname}`;
  const home = tempDir('checkin-ns-home-');
  const env = cleanEnv({
    CHECKIN_API_URL: url,
    CHECKIN_TOKEN: sb.token,
    CHECKIN_CONFIG_DIR: undefined,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
  });
  const state = join(home, 'state', 'checkin');
  const me = (await (await fetch(`${sb.url}/me`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as { id: string };
  const on = checkInId(me.id, new Date().toISOString().slice(0, 10));
  return {
    o,
    created,
    state,
    posts: (body: string) => created.filter((r) => (r.body as { body?: string }).body === body).length,
    async keep(bodies: string[]) {
      for (const body of bodies) {
        const r = await runCli(['comments', on, '--add', body], { env });
        expect(r.code, r.stderr).toBe(1);
      }
      const db = new DatabaseSync(outboxDb(state));
      db.prepare("UPDATE entries SET data = json_remove(json_set(data, '$.account.person_id', ?), '$.account.token')").run(me.id);
      db.close();
      o.failing = false;
      const rows = outboxRows(state);
      expect(rows).toHaveLength(bodies.length);
      return rows;
    },
    /** `drafts send <id>` from a pid namespace of its own, with a cache of its own. */
    send: (id: string) => inOwnNamespace(['drafts', 'send', id], { ...env, XDG_CACHE_HOME: tempDir('checkin-ns-cache-') }),
    async close() {
      await new Promise((r) => proxy.close(r));
      proxy.closeAllConnections();
      await sb.close();
    },
  };
}

describe('two senders in two pid namespaces sharing one home', () => {
  it.skipIf(!canUnshare)(
    `${ROUNDS} kept comments, each sent by two at once: one POST each, the other refused in one sentence`,
    { timeout: patient(60_000 + ROUNDS * 30_000) },
    async () => {
      const h = await sharedHome();
      try {
        const bodies = Array.from({ length: ROUNDS }, (_, i) => `namespace word N${i}`);
        const rows = await h.keep(bodies);
        const outcomes: Array<{ codes: number[]; refused: string[] }> = [];
        for (const row of rows) {
          // GET /me held, let go once both senders of the round have asked or ended: the first holds the claim meanwhile.
          const held: Array<() => void> = [];
          let settled = 0;
          const release = () => {
            if (settled + held.length >= 2) for (const go of held.splice(0)) go();
          };
          h.o.onMe = (go) => {
            held.push(go);
            release();
          };
          const both = await Promise.all(
            [h.send(row.id), h.send(row.id)].map((p) =>
              p.finally(() => {
                settled++;
                release();
              }),
            ),
          );
          outcomes.push({ codes: both.map((r) => r.code ?? -1).sort(), refused: both.filter((r) => r.code !== 0).map((r) => r.stderr) });
        }
        const posts = bodies.map(h.posts);
        console.log(
          `outbox namespaces: ${JSON.stringify({ tried: ROUNDS, posted_once: posts.filter((n) => n === 1).length, duplicated: posts.filter((n) => n > 1).length, lost: posts.filter((n) => n === 0).length })}`,
        );
        expect(posts).toEqual(bodies.map(() => 1));
        expect(outboxRows(h.state)).toEqual([]);
        for (const o of outcomes) {
          expect(o.codes).toEqual([0, 1]);
          // One sentence, in checkin's words: the other's claim named as another namespace's, nothing sent.
          expect(o.refused[0]).toMatch(
            /^error: The draft [a-z0-9]+ is being written or sent by another checkin \(process 1 of another pid namespace, since [^)]+\); it was not sent again\n/,
          );
          expect(o.refused[0]!.match(/\n/g)!.length).toBeLessThanOrEqual(2);
        }
      } finally {
        await h.close();
      }
    },
  );

  it.skipIf(!canUnshare)(
    'a sender whose lease ran out while it waited is taken over from the other namespace: it sends nothing and says so in one sentence; one POST',
    { timeout: patient(90_000) },
    async () => {
      const h = await sharedHome();
      try {
        const [row] = await h.keep(['namespace word stale']);
        const held: Array<() => void> = [];
        let asked!: () => void;
        let next = new Promise<void>((r) => (asked = r));
        h.o.onMe = (go) => {
          held.push(go);
          asked();
        };
        const first = h.send(row!.id);
        await next;
        // The first sender holds the claim and waits for its answer; it is paused (SIGSTOP: it renews
        // nothing) and its lease runs out: set in its row, as the clock would make it.
        const paused = first.checkin();
        process.kill(paused, 'SIGSTOP');
        const db = new DatabaseSync(outboxDb(h.state));
        db.prepare("UPDATE entries SET holder = json_set(holder, '$.until', ?)").run(new Date(Date.now() - 1000).toISOString());
        db.close();
        next = new Promise<void>((r) => (asked = r));
        const second = h.send(row!.id);
        await next;
        // Both asked: the first's claim is the second's now. The first goes on, then both get their answer.
        h.o.onMe = (go) => go();
        process.kill(paused, 'SIGCONT');
        for (const go of held.splice(0)) go();
        const [a, b] = await Promise.all([first, second]);
        expect(b.code, b.stderr).toBe(0);
        expect(a.code).toBe(1);
        expect(a.stderr).toMatch(
          new RegExp(
            `^error: Nothing was sent: another checkin took over the draft ${row!.id} while this one held it \\(this one's hold had run out\\); it is left to that one\n`,
          ),
        );
        expect(a.stderr.match(/Nothing was sent/g)).toHaveLength(1);
        expect(h.posts('namespace word stale')).toBe(1);
        expect(outboxRows(h.state)).toEqual([]);
      } finally {
        await h.close();
      }
    },
  );
});
