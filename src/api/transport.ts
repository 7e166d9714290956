// One HTTP exchange. The client above decides retries and errors; a transport only sends a request
// and reads the whole answer.
//
// node:http / node:https: Node's native parser, no Wasm to compile. A keep-alive agent (at most 8
// sockets, for the requests a command sends together) serves a command's requests (--all walks many
// pages on one socket) and is destroyed when the command is done, so the process exits at once.
// Through a proxy (HTTPS_PROXY / HTTP_PROXY, NO_PROXY honoured: proxyFor below) an https URL goes in
// a CONNECT tunnel, TLS end to end (the proxy sees only host:port); an http URL is asked of the proxy
// whole. No package: undici (~520 KB) made every run read twice what it runs (CONTRIBUTING.md,
// "Start-up"); the tests still use its MockAgent, through a transport of their own.

import type * as http from 'node:http';
import type * as https from 'node:https';
import type { Duplex } from 'node:stream';

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
  /**
   * Where the answer's body goes instead of `text` (a download streamed to disk, never held whole):
   * asked once when the answer's status is known; returning undefined keeps the body as `text`. A
   * sink that throws ends the exchange with that error.
   */
  sink?: (status: number, headers: Headers) => ((chunk: Buffer) => void) | undefined;
}

/** A failed exchange: `code` as Node names it; `written` when the request had gone out whole. */
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

export function transportError(err: unknown, written: boolean): TransportError {
  const e = err as Error & { code?: string; cause?: { code?: string } };
  const out = (e instanceof Error ? e : new Error(String(err))) as TransportError;
  out.code = e.code ?? e.cause?.code ?? 'UNKNOWN';
  out.written = written;
  return out;
}

export function nodeTransport(env: NodeJS.ProcessEnv = {}): Transport {
  const agents = new Map<string, http.Agent>();
  return {
    async send(req) {
      const url = new URL(req.url);
      const proxy = proxyFor(req.url, env);
      const via = proxy === undefined ? undefined : new URL(proxy);
      // An http URL through a proxy: the request goes to the proxy, naming the whole URL.
      const to = via && url.protocol === 'http:' ? via : url;
      const mod = (to.protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http')) as typeof http;
      const key = `${url.protocol} ${proxy ?? ''}`;
      let agent = agents.get(key);
      if (!agent) {
        const options = { keepAlive: true, maxSockets: 8 }; // as many as the pager keeps in flight
        agent = via && url.protocol === 'https:' ? tunnelAgent(via, options, req.timeoutMs) : new mod.Agent(options);
        agents.set(key, agent);
      }
      const headers = via && to === via ? { ...req.headers, ...proxyAuthorization(via) } : req.headers;
      return new Promise<Exchange>((resolve, reject) => {
        let written = false;
        let deadline: NodeJS.Timeout | undefined;
        const fail = (err: unknown, sent: boolean) => {
          clearTimeout(deadline);
          reject(transportError(err, sent));
        };
        let r: http.ClientRequest;
        try {
          r = mod.request(to, { method: req.method, headers, agent, ...(to === via && { path: url.href, headers: { ...headers, host: url.host } }) }, (res) => {
            const chunks: Buffer[] = [];
            let sink: ((chunk: Buffer) => void) | undefined;
            try {
              sink = req.sink?.(res.statusCode ?? 0, res.headers);
            } catch (err) {
              r.destroy(err as Error);
              return;
            }
            let size = 0;
            res.on('data', (c: Buffer) => {
              size += c.length;
              if (size > req.maxBodyBytes) r.destroy(Object.assign(new Error(`answer larger than ${req.maxBodyBytes} bytes`), { code: TOO_BIG_CODE }));
              else if (!sink) chunks.push(c);
              else
                try {
                  sink(c);
                } catch (err) {
                  r.destroy(err as Error);
                }
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

/**
 * An https agent whose connections are CONNECT tunnels through `proxy`, TLS to the service inside.
 * A CONNECT unanswered within `timeoutMs` fails as a timeout (a request waiting for its socket
 * cannot be ended by its own deadline).
 */
function tunnelAgent(proxy: URL, options: https.AgentOptions, timeoutMs: number): https.Agent {
  const https = process.getBuiltinModule('node:https') as typeof import('node:https');
  const agent = new https.Agent(options);
  // A CONNECT still unanswered when the command is done (its deadline passed) ends with the agent.
  const pending = new Set<http.ClientRequest>();
  const destroy = agent.destroy.bind(agent);
  agent.destroy = () => {
    for (const c of pending) c.destroy();
    destroy();
  };
  agent.createConnection = (opts, done) => {
    const target = `${opts.host}:${opts.port}`;
    const mod = (proxy.protocol === 'https:' ? https : process.getBuiltinModule('node:http')) as typeof http;
    const connect = mod.request(proxy, { method: 'CONNECT', path: target, headers: { host: target, ...proxyAuthorization(proxy) }, agent: false });
    connect.setTimeout(timeoutMs, () =>
      connect.destroy(Object.assign(new Error(`the proxy ${proxy.host} did not answer CONNECT ${target} within ${timeoutMs} ms`), { code: TIMEOUT_CODE })),
    );
    pending.add(connect);
    connect.once('close', () => pending.delete(connect));
    connect.once('connect', (res, socket) => {
      pending.delete(connect);
      if (res.statusCode !== 200) {
        socket.destroy();
        done!(
          Object.assign(new Error(`the proxy ${proxy.host} answered ${res.statusCode} to CONNECT ${target}`), { code: 'EPROXY' }),
          undefined as unknown as Duplex,
        );
        return;
      }
      const tls = process.getBuiltinModule('node:tls') as typeof import('node:tls');
      done!(null, tls.connect({ ...(opts as import('node:tls').ConnectionOptions), socket }));
    });
    connect.once('error', (err) => done!(err, undefined as unknown as Duplex));
    connect.end();
    return undefined;
  };
  return agent;
}

/** Proxy-Authorization for a proxy URL with a user (http://user:secret@proxy:3128). */
function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const basic = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64');
  return { 'proxy-authorization': `Basic ${basic}` };
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
  const proxy = protocol === 'https:' ? (httpsProxy ?? httpProxy) : httpProxy;
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
