// What the client tells a trace hook of each HTTP exchange (CHECKIN_DEBUG=api, --debug), with every
// secret already taken out: the Authorization header, cookies, the token wherever it appears, and
// the values of secret-looking fields (token, password, secret…) of a JSON body. The hook decides
// where the lines go; this file knows HTTP, nothing of terminals.

import type { Headers } from './transport.js';

export interface TraceEvent {
  method: string;
  url: string;
  /** 1 for the first try, 2… for retries. */
  attempt: number;
  requestHeaders: Record<string, string>;
  /** The body sent, redacted; undefined when none. */
  requestBody?: string;
  /** The answer's status; undefined when none came (see `error`). */
  status?: number;
  responseHeaders?: Headers;
  responseBody?: string;
  /** Why no answer came (connection refused, timeout…). */
  error?: string;
  /** From sending to the answer's last byte (or the failure), in ms. */
  ms: number;
}

export type TraceHook = (event: TraceEvent) => void;

export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
const SECRET_FIELD = /token|secret|password|passwd|api[_-]?key|authorization|credential/i;

/** `text` with every occurrence of each secret (at least 4 characters) replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out;
}

/** Headers with secret values replaced (the scheme of an Authorization header is kept: "Bearer [redacted]"). */
export function redactHeaders<H extends Headers>(headers: H, secrets: readonly string[]): H {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (SECRET_HEADERS.has(name.toLowerCase())) {
      const one = (v: string) => (/^authorization$/i.test(name) && /^\S+\s/.test(v) ? `${v.split(/\s/)[0]} ${REDACTED}` : REDACTED);
      out[name] = Array.isArray(value) ? value.map(one) : one(value);
    } else {
      out[name] = Array.isArray(value) ? value.map((v) => redactText(v, secrets)) : redactText(value, secrets);
    }
  }
  return out as H;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) && v !== null && typeof v !== 'object' ? REDACTED : redactValue(v);
    return out;
  }
  return value;
}

/** A body with secret-looking JSON fields and the secrets themselves replaced (a body that is not JSON: the secrets only). */
export function redactBody(text: string, secrets: readonly string[]): string {
  let out = text;
  if (SECRET_FIELD.test(text)) {
    try {
      out = JSON.stringify(redactValue(JSON.parse(text)));
    } catch {
      // not JSON: only the known secrets are taken out
    }
  }
  return redactText(out, secrets);
}
