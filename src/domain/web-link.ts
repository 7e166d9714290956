// A web link the service gave (a check-in's or goal update's `url`), made fit to hand to the desktop
// (a notice's "Open the check-in"): https, or http to this machine only (the sandbox, tests); no
// user or password, no query and no fragment (where a token would travel: a page's link needs
// neither), and never one that carries a secret the caller names (the token in use). Anything else
// (javascript:, file:, data:, a string that is not a URL) is left out: null. Pure: no IO.
import { isLoopback } from '../api/unreached.js';

/** The link as the WHATWG URL parser writes it back (a quote or space in its path percent-encoded), or null. */
export function webLink(raw: unknown, secrets: readonly string[] = []): string | null {
  if (typeof raw !== 'string' || raw.length > 2048) return null;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname))) return null;
  if (u.username || u.password) return null;
  u.search = '';
  u.hash = '';
  const href = u.href;
  for (const s of secrets) if (s && (href.includes(s) || raw.includes(s) || href.includes(encodeURIComponent(s)))) return null;
  return href;
}
