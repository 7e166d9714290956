// How a request that got no answer is said: the one wording of every request checkin sends (the API
// client's, `checkin upgrade`'s). Apart from errors.ts, which the sandbox shares: the sandbox never
// sends, and what it loads is set up at each run (test/install/startup.test.ts).
import { proxyFor, TIMEOUT_CODE } from './transport.js';

/** What kept a request from its answer, by kind: each face says what to do about it in its own words. */
export interface Unreached {
  why: 'timeout' | 'plain-http' | 'certificate' | 'proxy' | 'nothing-listens' | 'network';
  /** What happened and where, in words (never a bare code): `connection refused by github.com`. */
  words: string;
}

/** A loopback address refusing or unreachable: nothing listens there. */
export const LOOPBACK_GONE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}
/** Connection failures, as said of a proxy. */
const CONNECT_CODES = new Map([
  ['ECONNREFUSED', 'connection refused'],
  ['ENOTFOUND', 'cannot resolve it'],
  ['EAI_AGAIN', 'DNS is not answering'],
  ['EHOSTUNREACH', 'unreachable'],
  ['ENETUNREACH', 'no network route'],
  ['ECONNRESET', 'connection reset'],
  ['UND_ERR_SOCKET', 'connection closed'],
]);

/** TLS failures: the handshake (a plain http server, a protocol mismatch) or the certificate. */
export function isTls(code: string): boolean {
  return /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(code);
}

/**
 * A failed exchange with `url` in words — the one wording of every request checkin sends (the API
 * client's, `checkin upgrade`'s): a timeout within `timeoutMs`, TLS, the proxy `env` sends it
 * through, nothing listening on this machine, or the network.
 */
export function unreached(e: { code: string; message?: string }, url: string, env: NodeJS.ProcessEnv, timeoutMs: number): Unreached {
  const { code } = e;
  const { host, hostname, origin } = new URL(url);
  if (code === TIMEOUT_CODE) return { why: 'timeout', words: `no whole answer from ${host} within ${timeoutMs / 1000} s` };
  if (isTls(code)) {
    return /WRONG_VERSION_NUMBER|EPROTO|packet length too long|http request/i.test(`${code} ${e.message}`)
      ? { why: 'plain-http', words: `${host} does not answer https (TLS): it looks like a plain http server` }
      : { why: 'certificate', words: `the certificate of ${host} could not be verified (${code})` };
  }
  const proxy = proxyFor(url, env);
  if (proxy && code === 'EPROXY' && e.message) return { why: 'proxy', words: e.message };
  if (proxy && CONNECT_CODES.has(code)) {
    let proxyHost = proxy;
    try {
      proxyHost = new URL(proxy).host;
    } catch {
      // as configured
    }
    return { why: 'proxy', words: `cannot reach the proxy ${proxyHost} (${CONNECT_CODES.get(code)}) on the way to ${host}` };
  }
  if (LOOPBACK_GONE.has(code) && isLoopback(hostname)) return { why: 'nothing-listens', words: `nothing is listening at ${origin}` };
  const what: Record<string, string> = {
    ECONNREFUSED: `connection refused by ${host}`,
    ECONNRESET: `connection to ${host} was reset`,
    ENOTFOUND: `cannot resolve ${host}`,
    EAI_AGAIN: `cannot resolve ${host} (DNS is not answering)`,
    UND_ERR_SOCKET: `the connection to ${host} closed before an answer came`,
    EHOSTUNREACH: `${host} is unreachable`,
    ENETUNREACH: `no network route to ${host}`,
  };
  return { why: 'network', words: what[code] ?? `${e.message ?? 'network error'} (${host})` };
}
