// For tests only: `checkin mcp` (a stdio server) served over loopback HTTP, the Streamable HTTP
// transport's minimal form, for tools that test servers by URL only (the MCP conformance package).
// Each `initialize` POST starts its own `checkin mcp` child and opens a session (Mcp-Session-Id);
// a request POSTed in a session is written to that child as one line, and answered with an SSE
// stream carrying whatever the child says until its response (notifications, the server's own
// requests, then the response); a notification or a response POSTed is written and answered 202.
// What the child says while no request is open waits for the next stream. GET (a standalone
// stream) is 405, which the transport allows; DELETE ends the session. Every wait is bounded; it
// listens on 127.0.0.1 only, and close() ends every child.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { track } from './cleanup.js';

export interface BridgeOptions {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The longest a request waits for its response (default 30 s). */
  timeoutMs?: number;
}

export interface Bridge {
  url: string;
  /** Everything the children wrote on stderr. */
  stderr: () => string;
  /** How many sessions (children) were started. */
  sessions: () => number;
  close: () => Promise<void>;
}

type Message = { id?: string | number | null; method?: string; result?: unknown; error?: unknown };

interface Stream {
  /** The id of the request this stream answers. */
  id: string | number;
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

interface Session {
  child: ChildProcessWithoutNullStreams;
  streams: Stream[];
  waiting: string[];
  exited: Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new Error('body too large'));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startBridge(opts: BridgeOptions): Promise<Bridge> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const sessions = new Map<string, Session>();
  let started = 0;
  let stderr = '';

  const sse = (res: ServerResponse, line: string) => res.write(`event: message\ndata: ${line}\n\n`);

  function open(): [string, Session] {
    const child = spawn(opts.command, opts.args, { env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    track(child);
    started++;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const session: Session = {
      child,
      streams: [],
      waiting: [],
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
    };
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      let msg: Message;
      try {
        msg = JSON.parse(line) as Message;
      } catch {
        return;
      }
      const isResponse = msg.method === undefined && msg.id !== undefined && msg.id !== null;
      const own = isResponse ? session.streams.find((s) => s.id === msg.id) : undefined;
      if (own) {
        sse(own.res, line);
        finish(session, own);
        return;
      }
      // A notification or the server's own request: on the oldest open stream, or kept for the next.
      const first = session.streams[0];
      if (first) sse(first.res, line);
      else session.waiting.push(line);
    });
    const id = randomUUID();
    sessions.set(id, session);
    return [id, session];
  }

  function finish(session: Session, stream: Stream): void {
    clearTimeout(stream.timer);
    session.streams = session.streams.filter((s) => s !== stream);
    stream.res.end();
  }

  async function end(session: Session): Promise<void> {
    for (const s of [...session.streams]) finish(session, s);
    if (session.child.exitCode === null && session.child.signalCode === null) {
      session.child.stdin.end();
      const killer = setTimeout(() => session.child.kill('SIGKILL'), 5_000);
      await session.exited;
      clearTimeout(killer);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') return void res.writeHead(404).end();
    const sid = req.headers['mcp-session-id'];
    if (req.method === 'GET') return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    if (req.method === 'DELETE') {
      const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (!session) return void res.writeHead(404).end();
      sessions.delete(sid as string);
      await end(session);
      return void res.writeHead(200).end();
    }
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    const body = await readBody(req);
    let msg: Message;
    try {
      msg = JSON.parse(body) as Message;
    } catch {
      return void res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    }
    if (Array.isArray(msg) || typeof msg !== 'object' || msg === null) return void res.writeHead(400).end();
    let id: string;
    let session: Session | undefined;
    if (msg.method === 'initialize') [id, session] = open();
    else {
      if (typeof sid !== 'string') return void res.writeHead(400).end('Mcp-Session-Id required');
      id = sid;
      session = sessions.get(sid);
      if (!session) return void res.writeHead(404).end();
    }
    const line = JSON.stringify(msg);
    if (msg.method === undefined || msg.id === undefined || msg.id === null) {
      session.child.stdin.write(`${line}\n`);
      return void res.writeHead(202, { 'mcp-session-id': id }).end();
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': id });
    const requestId = msg.id;
    const stream: Stream = {
      id: requestId,
      res,
      timer: setTimeout(() => {
        sse(res, JSON.stringify({ jsonrpc: '2.0', id: requestId, error: { code: -32001, message: `no answer in ${timeoutMs} ms` } }));
        finish(session, stream);
      }, timeoutMs),
    };
    session.streams.push(stream);
    for (const w of session.waiting.splice(0)) sse(res, w);
    session.child.stdin.write(`${line}\n`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stderr: () => stderr,
    sessions: () => started,
    close: async () => {
      await Promise.all([...sessions.values()].map(end));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
