// Issue 39, case 1: one kept comment, eight senders at once — six `checkin drafts send <id>` processes
// and two agents' `send_comment` calls (each through its own `checkin mcp` server, the SDK's client)
// — against a slow service: it holds each POST until every other sender of that entry has ended,
// so the window in which a second claim could slip in stays open as long as it can. A claim is one
// transaction: exactly one POST per entry, every other sender refused (busy, or gone), the outbox
// empty after. Nothing waits on a clock: the service releases a POST when the others have settled.
// CHECKIN_TEST_RACE_ENTRIES sets how many entries (the closing run: 100).
import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { patient } from '../helpers/patience.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { startSandbox, type RecordedRequest } from '../../src/sandbox/server.js';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { draftEntries, outboxRows } from '../helpers/outbox.js';

const ENTRIES = Number(process.env.CHECKIN_TEST_RACE_ENTRIES ?? 4);
const TERMINALS = 6;
const AGENTS = 2;

describe('eight senders of one kept entry at once, against a slow service', () => {
  it(
    `${ENTRIES} entries × (${TERMINALS} terminals + ${AGENTS} agents): one POST each, the others refused, nothing left`,
    { timeout: patient(60_000 + ENTRIES * 6_000) },
    async () => {
      const created: RecordedRequest[] = [];
      const sb = await startSandbox({ rateLimit: false, onRequest: (r) => r.method === 'POST' && r.status === 201 && created.push(r) });
      const to = new URL(sb.url);
      let failing = true;
      /** POSTs held, and a check that lets them go once every other sender of the round has settled. */
      const held: Array<() => void> = [];
      let settled = 0;
      const release = () => {
        if (settled + held.length >= TERMINALS + AGENTS) for (const go of held.splice(0)) go();
      };
      const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (req.method === 'POST' && failing) {
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
          if (req.method !== 'POST') return forward();
          held.push(forward);
          release();
        });
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${to.pathname}`;
      const env = cleanEnv({ CHECKIN_API_URL: url, CHECKIN_TOKEN: sb.token });
      const agents: Client[] = [];
      try {
        // The person's comments, kept when the service was down (one entry each).
        const me = (await (await fetch(`${sb.url}/me`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as { id: string; timezone?: string };
        const on = checkInId(me.id, new Date().toISOString().slice(0, 10));
        for (let i = 0; i < ENTRIES; i++) {
          const r = await runCli(['comments', on, '--add', `race word R${i}`], { env });
          expect(r.code, r.stderr).toBe(1);
        }
        const entries = draftEntries<{ id: string; content: { body: string } }>(env.CHECKIN_CONFIG_DIR!);
        expect(entries).toHaveLength(ENTRIES);
        failing = false;
        for (let a = 0; a < AGENTS; a++) {
          const client = new Client({ name: `race-agent-${a}`, version: '1.0.0' });
          await client.connect(
            new StdioClientTransport({
              command: process.execPath,
              args: [BIN, 'mcp', '--allow-send', '--toolsets', 'comments'],
              env: env as Record<string, string>,
              stderr: 'ignore',
            }),
          );
          agents.push(client);
        }
        const outcomes: string[] = [];
        for (const e of entries) {
          settled = 0;
          const done = <T>(p: Promise<T>) =>
            p.finally(() => {
              settled++;
              release();
            });
          const terminals = Array.from({ length: TERMINALS }, () => done(runCli(['drafts', 'send', e.id], { env })));
          const calls = agents.map((c) =>
            done(c.callTool({ name: 'send_comment', arguments: { draft_id: e.id } }) as Promise<{ isError?: boolean; content: Array<{ text: string }> }>),
          );
          const [t, m] = await Promise.all([Promise.all(terminals), Promise.all(calls)]);
          const ok = t.filter((r) => r.code === 0).length + m.filter((r) => !r.isError).length;
          outcomes.push(`${e.id}: ${ok} sent`);
          for (const r of t.filter((x) => x.code !== 0))
            expect(r.stderr).toMatch(/is being written or sent by another checkin|is gone \(sent or dropped by another checkin\)|There is no draft/);
          for (const r of m.filter((x) => x.isError)) expect(r.content[0]!.text).toMatch(/is being written or sent by another checkin|is gone|no draft/i);
        }
        const posts = (body: string) => created.filter((r) => (r.body as { body?: string }).body === body).length;
        const table = entries.map((e) => posts(e.content.body));
        console.log(
          `outbox race: ${JSON.stringify({ entries: ENTRIES, senders_each: TERMINALS + AGENTS, tried: ENTRIES, posted_once: table.filter((n) => n === 1).length, duplicated: table.filter((n) => n > 1).length, lost: table.filter((n) => n === 0).length })}`,
        );
        expect(outcomes).toEqual(entries.map((e) => `${e.id}: 1 sent`));
        expect(table).toEqual(entries.map(() => 1));
        expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toEqual([]);
      } finally {
        for (const c of agents) await c.close().catch(() => undefined);
        await new Promise((r) => proxy.close(r));
        proxy.closeAllConnections();
        await sb.close();
      }
    },
  );
});
