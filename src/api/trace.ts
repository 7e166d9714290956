// What the client tells a trace hook of each HTTP exchange (CHECKIN_DEBUG=api, --debug), with every
// secret already taken out: the Authorization header, cookies, the token wherever it appears, and
// the values of secret-looking fields (token, password, secret…) of a JSON body. The hook decides
// where the lines go; this file knows HTTP, nothing of terminals.

import type { Headers } from './transport.js';
import { parseJsonBounded } from './validate.js';

export type { TraceEvent, TraceHook } from './types.js';

export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** Header names whose value is a credential whatever it holds (x-auth-token, x-api-key, x-session…; not WWW-Authenticate). */
const SECRET_HEADER_NAME = /authorization|token|secret|passw|api[_-]?key|cookie|session|credential/i;
const SECRET_FIELD = /token|secret|password|passwd|api[_-]?key|authorization|credential/i;

/**
 * The forms a token takes on the wire besides itself: percent-encoded (a query), JSON-escaped (a
 * body), and base64 / base64url at each of the three alignments it can have inside a longer
 * encoded string (`user:token` in a Basic header) — the part of the encoding that is the token's
 * alone, at least 8 characters.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  const bytes = Buffer.from(secret, 'utf8');
  for (let skip = 0; skip < 3; skip++) {
    const part = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    const b64 = part.toString('base64');
    if (b64.length >= 8) {
      forms.add(b64);
      forms.add(part.toString('base64url'));
    }
  }
  return [...forms].filter((f) => f.length >= 4);
}

/** `text` with every occurrence of each secret (at least 4 characters) replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * Headers with secret values replaced, whole: those of credential-like names and any that holds a
 * secret (`secrets`: secretForms of each); the scheme of an Authorization header is kept ("Bearer [redacted]").
 */
export function redactHeaders<H extends Headers>(headers: H, secrets: readonly string[]): H {
  const out: Headers = {};
  const holds = (v: string) => secrets.some((s) => s.length >= 4 && v.includes(s));
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (SECRET_HEADERS.has(name.toLowerCase()) || SECRET_HEADER_NAME.test(name) || (Array.isArray(value) ? value.some(holds) : holds(value))) {
      const one = (v: string) => (/^(proxy-)?authorization$/i.test(name) && /^\S+\s/.test(v) ? `${v.split(/\s/)[0]} ${REDACTED}` : REDACTED);
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
    // A secret-looking key's value is taken out whole, an object or an array as much as a string.
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) && v !== null ? REDACTED : redactValue(v);
    return out;
  }
  return value;
}

/** A body with secret-looking JSON fields and the secrets themselves replaced (a body that is not JSON: the secrets only). */
export function redactBody(text: string, secrets: readonly string[]): string {
  let out = text;
  if (SECRET_FIELD.test(text)) {
    try {
      const parsed = parseJsonBounded(text);
      if (parsed) out = JSON.stringify(redactValue(parsed.value));
    } catch {
      // not JSON: only the known secrets are taken out
    }
  }
  return redactText(out, secrets);
}
