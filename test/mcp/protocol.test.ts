// `checkin mcp` on the wire: a message over the limit (10 MiB), a line that is not JSON and one
// that is not JSON-RPC are each answered with a JSON-RPC error, and the server goes on serving —
// by a raw client writing lines to the built server's stdin, and by the SDK's own client. A
// question the server is asking the person survives a message too large. Every wait is bounded.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { TopScan } from '../../src/mcp/stdio.js';
import { CLI_WORDS, spawnCli } from '../helpers/cli.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

const MiB = 1024 * 1024;

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  env = e;
});

const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  for (const child of children.splice(0)) child.stdin?.end();
});

/** Resolves `done` with a bound: fails the test, naming `what`, past `ms`. */
function bounded<T>(done: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([done, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

interface Raw {
  child: ChildProcess;
  /** Writes `text` and a newline, waiting for the pipe to drain (a large line goes in pieces). */
  send(text: string | object): Promise<void>;
  /** The next message the server writes (bounded). */
  next(): Promise<Record<string, unknown>>;
  stderr(): string;
}

/** `checkin mcp` as a child, spoken to line by line; initialized. */
async function raw(): Promise<Raw> {
  const child = spawnCli(['mcp', '--toolsets', 'all'], env);
  children.push(child);
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    buffered += d;
    for (let i = buffered.indexOf('\n'); i !== -1; i = buffered.indexOf('\n')) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      const w = waiting.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const r: Raw = {
    child,
    send: (m) =>
      new Promise<void>((resolve, reject) => {
        const text = `${typeof m === 'string' ? m : JSON.stringify(m)}\n`;
        child.stdin!.write(text, (err) => (err ? reject(err) : resolve()));
      }),
    next: () =>
      bounded(new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift()!) : waiting.push(resolve))), 'message from checkin mcp').then(
        (l) => JSON.parse(l) as Record<string, unknown>,
      ),
    stderr: () => stderr,
  };
  await r.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  expect(await r.next()).toMatchObject({ id: 0, result: { serverInfo: { name: 'checkin' } } });
  await r.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return r;
}

/** The next request works: tools/list answers with the tools. */
async function stillServes(r: Raw, id: number): Promise<void> {
  await r.send({ jsonrpc: '2.0', id, method: 'tools/list' });
  const answer = await r.next();
  expect(answer.id).toBe(id);
  expect((answer.result as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
}

/** Peak resident memory of a process, in bytes (Linux: /proc; undefined elsewhere). */
function peakMemory(pid: number): number | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(file, 'utf8'));
  return m ? Number(m[1]) * 1024 : undefined;
}

describe('checkin mcp: messages it cannot read are answered, and it goes on', () => {
  it('an 11 MiB request is answered with -32600 under its own id (written last, as the SDK writes it), and the next request works', async () => {
    const r = await raw();
    await r.send({ method: 'tools/call', params: { name: 'me', arguments: { big: 'a'.repeat(11 * MiB) } }, jsonrpc: '2.0', id: 7 });
    expect(await r.next()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: ErrorCode.InvalidRequest, message: expect.stringMatching(/^Message too large: a message may hold at most 10 MiB/) },
    });
    await stillServes(r, 8);
    // Its id first, or a string id: the same.
    await r.send({ jsonrpc: '2.0', id: 'big "one"', method: 'tools/call', params: { name: 'me', arguments: { big: 'é'.repeat(6 * MiB) } } });
    expect(await r.next()).toMatchObject({ id: 'big "one"', error: { code: ErrorCode.InvalidRequest } });
    await stillServes(r, 9);
    expect(r.stderr()).toMatch(/warning: Message too large/);
    expect(r.child.exitCode).toBeNull();
  });

  it('a line too long whose id cannot be read is answered with id null; a notification too long is not answered', async () => {
    const r = await raw();
    await r.send('x'.repeat(11 * MiB));
    expect(await r.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest } });
    await r.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'z'.repeat(11 * MiB) } });
    await stillServes(r, 1);
  });

  it('a line that is not JSON is answered with -32700, one that is not JSON-RPC with -32600 (its id when it has one), and the next request works', async () => {
    const r = await raw();
    await r.send('{"jsonrpc":"2.0","id":3,"method":"tools/list"');
    expect(await r.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: expect.stringMatching(/^Parse error/) } });
    await r.send({ jsonrpc: '2.0', id: 'q', params: {} });
    expect(await r.next()).toMatchObject({ jsonrpc: '2.0', id: 'q', error: { code: ErrorCode.InvalidRequest } });
    await r.send('[{"jsonrpc":"2.0","id":4,"method":"ping"}]');
    expect(await r.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest } });
    await r.send('"just a string"');
    expect(await r.next()).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    // Blank lines are no message at all; a CRLF line is read as its message.
    await r.send('');
    await r.send('{"jsonrpc":"2.0","id":5,"method":"ping"}\r');
    expect(await r.next()).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    await stillServes(r, 6);
  });

  it('holds no more than the limit of a line: 128 MiB in one line raises its peak memory by less than 96 MiB (keeping it would take all 128; what it adds is the garbage of the pipe’s chunks before a collection)', async () => {
    const r = await raw();
    await stillServes(r, 1);
    const before = peakMemory(r.child.pid!);
    const piece = `{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"x":"${'b'.repeat(MiB - 60)}`;
    await r.send(`${piece}${'b'.repeat(MiB).repeat(127)}"}},"id":2}`);
    expect(await r.next()).toMatchObject({ id: 2, error: { code: ErrorCode.InvalidRequest } });
    await stillServes(r, 3);
    const after = peakMemory(r.child.pid!);
    if (before === undefined || after === undefined) return; // no /proc here: the answers above are what is checked
    console.log(`peak memory of checkin mcp: ${(before / MiB).toFixed(1)} MiB before the 128 MiB line, ${(after / MiB).toFixed(1)} MiB after`);
    expect(after - before).toBeLessThan(96 * MiB);
  });

  it("the SDK's own client: a call too large fails at once with -32600, and the same connection goes on", async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: CLI_WORDS[0]!,
        args: [...CLI_WORDS.slice(1), 'mcp', '--toolsets', 'all'],
        env: env as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const err = await bounded(
      client.callTool({ name: 'me', arguments: { big: 'c'.repeat(11 * MiB) } }).then(
        () => undefined,
        (e: unknown) => e,
      ),
      'answer to the call too large',
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.InvalidRequest);
    const me = await bounded(client.callTool({ name: 'me' }), 'answer to me');
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toMatchObject({ me: { username: 'ada' } });
  });

  it('a question the server is asking the person survives a message too large: on yes, the check-in is sent', async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    clients.push(client);
    let refused: unknown;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      // While the question waits, the client sends a message too large; the server answers it and keeps asking.
      refused = await client.callTool({ name: 'me', arguments: { big: 'd'.repeat(11 * MiB) } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      return { action: 'accept', content: {} };
    });
    await client.connect(
      new StdioClientTransport({
        command: CLI_WORDS[0]!,
        args: [...CLI_WORDS.slice(1), 'mcp', '--toolsets', 'all'],
        env: env as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    const drafted = await bounded(client.callTool({ name: 'draft_checkin', arguments: { intentions: '- one thing' } }), 'draft');
    const id = (drafted.structuredContent as { draft_id: string }).draft_id;
    sb.requests.length = 0;
    const sent = await bounded(client.callTool({ name: 'send_checkin', arguments: { draft_id: id } }), 'send');
    expect((refused as McpError).code).toBe(ErrorCode.InvalidRequest);
    expect(sent.isError).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ sent: true, draft_id: id });
    expect(sb.requests.filter((q) => q.method === 'PATCH')).toHaveLength(1);
  });
});

describe('TopScan: the id of a message too large to keep, read as it goes by', () => {
  const scan = (...pieces: string[]) => {
    const s = new TopScan();
    for (const p of pieces) s.feed(Buffer.from(p));
    return s.result();
  };
  it('finds the top-level id, method and answer keys, wherever they are and however the bytes are cut', () => {
    const text = '{"params":{"id":"inner","x":["}",{"id":2}],"s":"\\"id\\":9"},"method":"tools/call", "id" : 41 ,"jsonrpc":"2.0"';
    expect(scan(text)).toEqual({ id: 41, method: true, answer: false });
    expect(scan(...text.split(''))).toEqual({ id: 41, method: true, answer: false });
    expect(scan('{"jsonrpc":"2.0","id":"a\\"b","result":{"content":[')).toEqual({ id: 'a"b', method: false, answer: true });
    expect(scan('{"jsonrpc":"2.0","method":"notifications/x","params":{"id":1')).toEqual({ id: undefined, method: true, answer: false });
    expect(scan('{"id":{"nested":1},"method":"m"}')).toEqual({ id: null, method: true, answer: false });
    expect(scan(`{"id":"${'i'.repeat(300)}","method":"m"}`)).toEqual({ id: null, method: true, answer: false });
    expect(scan('[{"id":1}]')).toEqual({ id: undefined, method: false, answer: false });
    expect(scan('xxxxxxxx')).toEqual({ id: undefined, method: false, answer: false });
  });
});
