// `checkin api` against what a security review tried: headers that are the client's own (Host, the
// body's framing, Authorization), inputs and lists without end, a service that echoes the token in
// its errors and headers (plain, percent-encoded, base64), and a non-JSON answer with escapes.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { fetchAll, walkAll, type PageSource } from '../../src/api/paginate.js';
import { redactBody, redactHeaders, redactText, secretForms } from '../../src/api/trace.js';
import type { Shape } from '../../src/api/validate.js';
import { readInput } from '../../src/commands/api/api.js';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { InputTooLarge, readText } from '../../src/ui/io.js';
import { spawnCli } from '../helpers/cli.js';
import { useWorld } from '../helpers/harness.js';
import { bufferIO } from '../helpers/io.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import type { Sandbox } from '../../src/sandbox/server.js';

const w = useWorld({ size: { people: 10, days: 1 } });
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const withId = ((v: unknown, at: string) =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' ? undefined : `${at} has no "id"`) as Shape<{ id: string }>;

/** A node:http server on 127.0.0.1 that answers every request with `handler`; closed after the test. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler!(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(
    () => new Promise((r) => server.close(r)),
    () => server.closeAllConnections(),
  );
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/api/v2`, hits };
}

describe("-H cannot set what is the client's own", () => {
  it('refuses Host, the framing headers and Authorization (any case), exit 2, naming the header, sending nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkin-api-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // What smuggled a DELETE on the keep-alive connection: the body past the declared length is a second request.
    const body = join(dir, 'body.txt');
    writeFileSync(body, `x\r\n\r\nDELETE /api/v2/goals/${w.sb.service.data.goals[0]!.id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    for (const h of [
      'Host: other.example',
      'Content-Length: 1',
      'transfer-encoding: chunked',
      'Connection: close',
      'Upgrade: h2c',
      'TE: trailers',
      'Trailer: x',
      'Keep-Alive: 5',
      'Expect: 100-continue',
      'Authorization: Bearer other',
      'proxy-authorization: Basic eA==',
    ]) {
      const r = await w.cli(['api', 'me', '-H', h, '--input', body]);
      const name = h.slice(0, h.indexOf(':'));
      expect([h, r.code, r.stderr.split('\n')[0]]).toEqual([h, 2, `error: -H ${name}: checkin sets this header itself; it cannot be given`]);
    }
    expect(w.sent()).toEqual([]);
    // Other headers still go out.
    expect((await w.cli(['api', 'me', '-H', 'X-Request-Id: 7'])).code).toBe(0);
    expect(w.sb.requests[0]!.headers['x-request-id']).toBe('7');
  });

  it('the client refuses them from any caller: the token and the framing are never replaced', async () => {
    const { url, hits } = await serve((_req, res) => res.end('{}'));
    const api = new ApiClient({ baseUrl: url, token: 'steady_pat_own' });
    cleanups.push(() => api.close());
    for (const name of ['Host', 'content-length', 'AUTHORIZATION', 'Transfer-Encoding']) {
      await expect(api.raw({ method: 'POST', url: `${url}/me`, headers: { [name]: '1' }, body: 'x' })).rejects.toThrow(
        new UsageError(`The ${name} header is checkin's own to set; it cannot be given`),
      );
    }
    expect(hits).toEqual([]);
  });
});

describe('inputs are read up to the limit, no further', () => {
  /** A stream without end: 64 KiB chunks, counted. */
  const endless = () => {
    let made = 0;
    const stream = new Readable({
      read() {
        made++;
        this.push(Buffer.alloc(65536, 48));
      },
    });
    return { stream, made: () => made };
  };

  it('readText stops as soon as the limit passes, lets the stream go, and fails with InputTooLarge', async () => {
    const e = endless();
    await expect(readText(e.stream, 1024 * 1024)).rejects.toBeInstanceOf(InputTooLarge);
    expect(e.stream.destroyed).toBe(true);
    // 16 chunks make 1 MiB; the 17th passes it (a few more may be buffered ahead, never many).
    expect(e.made()).toBeGreaterThanOrEqual(17);
    expect(e.made()).toBeLessThan(40);
    // Under the limit, the text.
    expect(await readText(Readable.from([Buffer.from('héllo '), Buffer.from('world')]), 12)).toBe('héllo world');
  });

  it('--input - and -F k=@- say so (exit 2) without reading everything; a file is checked before it is read', async () => {
    const io = bufferIO();
    const e = endless();
    io.readStdin = (max) => readText(e.stream, max);
    const ctx = { io } as unknown as Context;
    await expect(readInput(ctx, '-', '--input', 1024 * 1024)).rejects.toThrow(new UsageError('--input: standard input holds more than 1 MiB'));
    expect(e.made()).toBeLessThan(40);

    const dir = mkdtempSync(join(tmpdir(), 'checkin-api-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'big.json');
    writeFileSync(file, 'x'.repeat(2048));
    await expect(readInput(ctx, file, '-F k', 1024)).rejects.toThrow(new UsageError(`-F k: ${file} is more than 1024 bytes`));
    expect(await readInput(ctx, file, '-F k', 2048)).toBe('x'.repeat(2048));
  });
});

describe('the built CLI: a 17 MiB standard input', () => {
  let sb!: Sandbox;
  let env!: NodeJS.ProcessEnv;
  useSandboxEnv((s, e) => {
    sb = s;
    env = e;
  });

  // `api --input -` names its flag; every other command that reads standard input (answers,
  // comments, bodies) reads at most as much. It stops reading: the writer may see EPIPE.
  const readers: Array<[args: string[], line: string]> = [
    [['api', 'activities', '--input', '-'], 'error: --input: standard input holds more than 16 MiB\n'],
    ...[
      ['log', '-'],
      ['today', '-p', '-'],
      ['inbox', '--reply', '1', '-'],
    ].map((args): [string[], string] => [args, 'error: Standard input holds more than 16 MiB; checkin reads at most that\n']),
  ];
  for (const [args, line] of readers)
    it(`checkin ${args.join(' ')} refuses it with one line, exit 2, nothing sent`, async () => {
      const child = spawnCli(args, env);
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.stdout!.resume();
      child.stdin!.on('error', () => {});
      child.stdin!.end(Buffer.alloc(17 * 1024 * 1024, 48));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe(line);
      expect(code).toBe(2);
      expect(sb.requests).toEqual([]);
    });
});

describe('a list walk is bounded in bytes, all pages together', () => {
  it('walkAll fails once the pages come to more than maxBytes, asking for no more', async () => {
    let asked = 0;
    const source: PageSource = {
      get: async (_path, query) => {
        asked++;
        const page = Number(query.page);
        return { headers: {}, data: Array.from({ length: 50 }, (_, i) => ({ id: `${page}-${i}` })) as never, bytes: 1024 * 1024 };
      },
      refuseLongWait: () => {},
      sleep: async () => {},
      now: () => 0,
      warn: () => {},
    };
    const err = await walkAll(source, '/people', withId, {}, () => {}, { maxBytes: 4 * 1024 * 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toContain('its pages came to more than 4 MiB by page 5; checkin stopped reading');
    expect(asked).toBeLessThanOrEqual(5 + 8);
  });

  it("the client counts each page's body: a hostile service of full pages of large items is cut off (fetchAll)", async () => {
    const big = 'x'.repeat(20_000);
    const { url, hits } = await serve((req, res) => {
      const page = new URL(req.url!, 'http://x').searchParams.get('page');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: `${page}-${i}`, big }))));
    });
    const api = new ApiClient({ baseUrl: url, token: 'steady_pat_own' });
    cleanups.push(() => api.close());
    const err = await fetchAll(api.pages, 'people', withId, {}, { maxBytes: 3 * 1024 * 1024 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/its pages came to more than 3 MiB by page 4; checkin stopped reading/);
    expect(hits.length).toBeLessThanOrEqual(4 + 8);
  });

  it('api --paginate against such a service: one line, exit 1, at 64 MiB', async () => {
    const big = 'x'.repeat(200_000);
    const { url, hits } = await serve((req, res) => {
      const page = new URL(req.url!, 'http://x').searchParams.get('page');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: `${page}-${i}`, big }))));
    });
    const r = await w.cli(['api', 'people', '--paginate'], { env: { CHECKIN_API_URL: url } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/its pages came to more than 64 MiB by page 7; checkin stopped reading/);
    expect(r.stdout).toBe('');
    expect(hits.length).toBeLessThanOrEqual(7 + 8);
  });
});

describe('the token never reaches an error line or the trace, in any form', () => {
  it('a 401 or a 422 that echoes the token: redacted in the error', async () => {
    const token = w.sb.token;
    w.sb.inject({ path: '/me', status: 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: `bad Bearer ${token}` }) });
    const r = await w.cli(['api', 'me']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('bad Bearer [redacted]');
    expect(r.stderr).not.toContain(token);
    w.sb.inject({
      method: 'POST',
      path: '/goals',
      status: 422,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: `nope ${encodeURIComponent(token)}`, errors: { title: [`is ${token}`] } }),
    });
    const api = await w.cli(['api', 'goals', '-f', 'title=x']);
    expect(api.code).toBe(2);
    expect(api.stderr).toContain('nope [redacted]');
    expect(api.stderr).not.toContain(token);
  });

  it('secretForms: the token, percent-encoded, JSON-escaped, and the base64 of it at any alignment', () => {
    const token = 'steady+pat/SE"CRET\\123=';
    const forms = secretForms(token);
    for (const prefix of ['', 'u', 'us', 'user:']) {
      const basic = Buffer.from(`${prefix}${token}`).toString('base64');
      expect(redactHeaders({ 'x-forwarded': `Basic ${basic}`, 'x-url': Buffer.from(`${prefix}${token}`).toString('base64url') }, forms)).toEqual({
        'x-forwarded': '[redacted]',
        'x-url': '[redacted]',
      });
      expect(redactText(`seen ${basic}`, forms)).not.toContain(Buffer.from(token).toString('base64').slice(4, -4));
    }
    expect(redactText(`https://h/x?t=${encodeURIComponent(token)}`, forms)).toBe('https://h/x?t=[redacted]');
    expect(redactBody(JSON.stringify({ note: `yours: ${token}` }), forms)).toBe('{"note":"yours: [redacted]"}');
    // Authorization-like names are redacted whatever they hold.
    expect(redactHeaders({ 'X-Auth-Token': 'abc', 'proxy-authorization': 'Basic abc', 'x-api-key': 'k', accept: '*/*' }, forms)).toEqual({
      'X-Auth-Token': '[redacted]',
      'proxy-authorization': 'Basic [redacted]',
      'x-api-key': '[redacted]',
      accept: '*/*',
    });
  });

  it("a secret-looking key's value is taken out whole, an object or an array too", () => {
    expect(redactBody(JSON.stringify({ token: { value: 'v', nested: ['w'] }, secrets: ['a', 'b'], password: null, name: 'n' }), [])).toBe(
      '{"token":"[redacted]","secrets":"[redacted]","password":null,"name":"n"}',
    );
  });

  it('the trace of an answer that echoes the token in a Basic header, a query and a body', async () => {
    const token = w.sb.token;
    const basic = Buffer.from(`ada:${token}`).toString('base64');
    w.sb.inject({
      path: '/teams',
      status: 200,
      headers: { 'content-type': 'application/json', 'x-echo': `Basic ${basic}`, location: `/x?t=${encodeURIComponent(token)}` },
      body: JSON.stringify({ token: { value: token }, b64: basic }),
    });
    const r = await w.cli(['api', 'teams', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('< x-echo: [redacted]');
    expect(r.stderr).toContain('< {"token":"[redacted]","b64":"');
    for (const secret of [token, basic, encodeURIComponent(token), Buffer.from(token).toString('base64').slice(4, -4)]) expect(r.stderr).not.toContain(secret);
  });
});

describe("piped, a non-JSON answer is the service's bytes exactly", () => {
  it('escapes and all, as gh writes them: a file or a program downstream gets what was sent', async () => {
    const body = 'plain \u001b[8mHIDDEN\u001b[0m \u001b]0;title\u0007 \u202eend\r\n';
    w.sb.inject({ path: '/teams', status: 200, headers: { 'content-type': 'text/plain' }, body });
    const r = await w.cli(['api', 'teams']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(body);
    // On a terminal, sanitised.
    w.sb.inject({ path: '/teams', status: 200, headers: { 'content-type': 'text/plain' }, body });
    const tty = await w.cli(['api', 'teams'], { tty: true });
    expect(tty.stdout).toBe('plain HIDDEN  end\n');
  });
});

describe('refusing another origin names what was given', () => {
  it('a host:port without a scheme', async () => {
    const r = await w.cli(['api', 'evil.example:80/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Refusing to send the token to "evil.example:80/x"');
    expect(r.stderr).not.toContain('null');
    expect(w.sent()).toEqual([]);
  });
});
