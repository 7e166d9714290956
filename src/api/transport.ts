// One HTTP exchange, two ways. The client above decides retries and errors; a transport only
// sends a request and reads the whole answer.
//
// - node:http / node:https for direct connections: Node's native parser, no Wasm to compile. A
//   keep-alive agent (at most 8 sockets: as many as a listing keeps in flight) serves a
//   command's requests (--all's pages reuse its sockets) and is destroyed when the command is
//   done, so the process exits at once.
// - undici for everything a proxy is involved in (HTTPS_PROXY / HTTP_PROXY, NO_PROXY honoured by
//   its EnvHttpProxyAgent), and for a dispatcher handed in (tests use MockAgent). Loaded only then.

import type * as http from 'node:http';
import type { Dispatcher } from 'undici';

/** Response headers as received (a repeated header as a list). */
export type Headers = Record<string, string | string[] | undefined>;

export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
}

export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole exchange — connecting, sending, the answer to its last byte — within this. */
  timeoutMs: number;
  /** Stop reading (and fail) past this many bytes. */
  maxBodyBytes: number;
}

/** A failed exchange: `code` as Node/undici name it; `written` when the request had gone out whole. */
export interface TransportError extends Error {
  code: string;
  written: boolean;
}

export interface Transport {
  send(req: Outgoing): Promise<Exchange>;
  close(): Promise<void>;
}

export const TIMEOUT_CODE = 'ETIMEDOUT';
export const TOO_BIG_CODE = 'ETOOBIG';
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function transportError(err: unknown, written: boolean): TransportError {
  const e = err as Error & { code?: string; cause?: { code?: string } };
  const out = (e instanceof Error ? e : new Error(String(err))) as TransportError;
  out.code = e.code ?? e.cause?.code ?? 'UNKNOWN';
  out.written = written;
  return out;
}

export function nodeTransport(): Transport {
  const agents = new Map<string, http.Agent>();
  return {
    async send(req) {
      const url = new URL(req.url);
      const mod = (url.protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http')) as typeof http;
      let agent = agents.get(url.protocol);
      if (!agent) {
        agent = new mod.Agent({ keepAlive: true, maxSockets: 8 }); // paginate.ts keeps at most 8 requests in flight
        agents.set(url.protocol, agent);
      }
      return new Promise<Exchange>((resolve, reject) => {
        let written = false;
        let deadline: NodeJS.Timeout | undefined;
        const fail = (err: unknown, sent: boolean) => {
          clearTimeout(deadline);
          reject(transportError(err, sent));
        };
        let r: http.ClientRequest;
        try {
          r = mod.request(url, { method: req.method, headers: req.headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > req.maxBodyBytes) r.destroy(Object.assign(new Error(`answer larger than ${req.maxBodyBytes} bytes`), { code: TOO_BIG_CODE }));
            else chunks.push(c);
          });
          res.on('end', () => {
            clearTimeout(deadline);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', (err) => fail(err, true));
          res.on('aborted', () => fail(Object.assign(new Error('connection closed mid-answer'), { code: 'ECONNRESET' }), true));
          });
        } catch (err) {
          // A header value HTTP cannot carry is refused before anything is sent (and no timer is armed).
          fail(err, false);
          return;
        }
        // One deadline for the whole exchange: a body that trickles in cannot outlast it.
        deadline = setTimeout(() => r.destroy(Object.assign(new Error(`no whole answer within ${req.timeoutMs} ms`), { code: TIMEOUT_CODE })), req.timeoutMs);
        r.on('finish', () => (written = true));
        r.on('error', (err) => fail(err, written));
        r.end(req.body);
      });
    },
    async close() {
      for (const agent of agents.values()) agent.destroy();
    },
  };
}

export async function undiciTransport(opts: { dispatcher?: Dispatcher; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Transport> {
  // The whole package: its index wires the dispatcher methods ProxyAgent tunnels with.
  // Bundled, a CommonJS package is imported as its `default` only.
  const mod = await import('undici');
  const { request, EnvHttpProxyAgent } = ((mod as unknown as { default?: typeof mod }).default ?? mod) as typeof mod;
  let dispatcher = opts.dispatcher;
  const own = !dispatcher;
  if (!dispatcher) {
    const { httpsProxy, httpProxy, noProxy } = proxySettings(opts.env);
    dispatcher = new EnvHttpProxyAgent({
      connectTimeout: opts.timeoutMs,
      ...(httpsProxy !== undefined && { httpsProxy }),
      ...(httpProxy !== undefined && { httpProxy }),
      noProxy: noProxy ?? '',
    });
  }
  const d = dispatcher;
  return {
    async send(req) {
      try {
        const signal = AbortSignal.timeout(req.timeoutMs);
        const res = await request(req.url, {
          dispatcher: d,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
          signal,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > req.maxBodyBytes) {
            res.body.destroy();
            throw Object.assign(new Error(`answer larger than ${req.maxBodyBytes} bytes`), { code: TOO_BIG_CODE });
          }
          chunks.push(chunk);
        }
        return { status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
      } catch (err) {
        if ((err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError') {
          throw Object.assign(transportError(err, true), { code: TIMEOUT_CODE });
        }
        if ((err as { code?: string }).code === TOO_BIG_CODE) throw transportError(err, true);
        // undici does not say whether the request went out; only a failed connect proves it did not.
        const e = transportError(err, true);
        e.written = !CONNECT_FAILURES.has(e.code);
        if (/^UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT$/.test(e.code)) e.code = TIMEOUT_CODE;
        throw e;
      }
    },
    async close() {
      if (own) await d.destroy();
    },
  };
}

/** HTTPS_PROXY / HTTP_PROXY / NO_PROXY, upper or lower case, empty meaning unset. */
function proxySettings(env: NodeJS.ProcessEnv): { httpsProxy?: string; httpProxy?: string; noProxy?: string } {
  const pick = (...names: string[]) => names.map((n) => env[n]).find((v) => v !== undefined && v !== '');
  return { httpsProxy: pick('HTTPS_PROXY', 'https_proxy'), httpProxy: pick('HTTP_PROXY', 'http_proxy'), noProxy: pick('NO_PROXY', 'no_proxy') };
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** Whether a request to `url` goes through a proxy under the given environment. This machine never does. */
export function usesProxy(url: string, env: NodeJS.ProcessEnv): boolean {
  return proxyFor(url, env) !== undefined;
}

/** The proxy a request to `url` goes through under the given environment (as configured), if any. */
export function proxyFor(url: string, env: NodeJS.ProcessEnv): string | undefined {
  const { protocol, hostname, port } = new URL(url);
  if (LOOPBACK_HOST.test(hostname)) return undefined;
  const { httpsProxy, httpProxy, noProxy = '' } = proxySettings(env);
  const proxy = protocol === 'https:' ? httpsProxy ?? httpProxy : httpProxy;
  if (!proxy) return undefined;
  if (noProxy.trim() === '*') return undefined;
  const bypassed = noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      const [host, p] = entry.replace(/^\*?\./, '.').split(':');
      if (p && p !== (port || (protocol === 'https:' ? '443' : '80'))) return false;
      return host!.startsWith('.') ? hostname.endsWith(host!) || hostname === host!.slice(1) : hostname === host;
    });
  return bypassed ? undefined : proxy;
}
