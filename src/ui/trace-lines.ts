// The HTTP trace on stderr (CHECKIN_DEBUG=api, --debug), in the manner of gh's GH_DEBUG=api:
// `>` lines for the request, `<` lines for the answer, `*` lines about the exchange. What it is
// handed has had its secrets taken out already (src/api/trace.ts); here every line is sanitised
// (the service's headers and bodies may carry escape sequences) and bodies are cut at 1 KB.

import type { TraceEvent } from '../api/types.js';
import { sanitizeLine } from './sanitize.js';

/** Bodies longer than this (in UTF-16 units, about bytes) are cut. */
export const TRACE_BODY_LIMIT = 1024;

function bodyLines(prefix: string, body: string | undefined): string[] {
  if (body === undefined || body === '') return [];
  const cut = body.length > TRACE_BODY_LIMIT;
  const shown = cut ? body.slice(0, TRACE_BODY_LIMIT) : body;
  const lines = shown.split(/\r?\n/).map((l) => `${prefix}${sanitizeLine(l)}`);
  if (cut) lines.push(`* body cut at ${TRACE_BODY_LIMIT} of ${Buffer.byteLength(body)} bytes`);
  return lines;
}

const header = (prefix: string, name: string, value: string | string[] | undefined) =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => `${prefix}${sanitizeLine(name)}: ${sanitizeLine(v)}`);

/** The lines of one exchange, each ending in a newline. */
export function formatTrace(e: TraceEvent): string {
  const lines: string[] = [];
  lines.push(`> ${sanitizeLine(e.method)} ${sanitizeLine(e.url)}${e.attempt > 1 ? ` (try ${e.attempt})` : ''}`);
  for (const [name, value] of Object.entries(e.requestHeaders)) lines.push(...header('> ', name, value));
  lines.push(...bodyLines('> ', e.requestBody));
  if (e.status !== undefined) {
    lines.push(`< ${e.status}`);
    for (const [name, value] of Object.entries(e.responseHeaders ?? {})) lines.push(...header('< ', name, value));
    lines.push(...bodyLines('< ', e.responseBody));
    lines.push(`* ${sanitizeLine(e.method)} ${sanitizeLine(e.url)}: ${e.status} in ${e.ms} ms`);
  } else {
    lines.push(`* ${sanitizeLine(e.method)} ${sanitizeLine(e.url)}: no answer after ${e.ms} ms (${sanitizeLine(e.error ?? 'failed')})`);
  }
  return lines.map((l) => `${l}\n`).join('') + '\n';
}
