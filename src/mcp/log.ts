// What checkin says on stderr while it answers a request — a warning (a damaged or unreadable file,
// a draft that could not be kept or moved) or a wait before a retry (the service's rate limit) — told
// to the client too, as the protocol's log messages (`notifications/message`, logger "checkin"),
// through the SDK's own `ctx.mcpReq.log`, which keeps each revision's rule:
// - 2025-11-25: the client sets a level with `logging/setLevel`; until it does, nothing is told (the
//   revision lets a server choose; checkin chooses silence), then only what is at that level or above;
// - 2026-07-28 (setLevel is gone, logging deprecated but in the revision): a request carries its level
//   in `_meta` (`io.modelcontextprotocol/logLevel`); one that does not is told nothing, and what is
//   told goes on that request's own response stream, before its answer.
// Only what is said while a request is being answered is told (to that request's client); what the
// server says between requests (the outbox watcher) stays on stderr. Each message is one sanitised
// line, the home folder written as ~, at most MAX_LOG_CHARS long, and at most MAX_LOGS a request.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpServer } from '@modelcontextprotocol/server';
import type { IO } from '../ui/io.js';
import { sanitizeLine } from '../ui/sanitize.js';
import { home } from '../config/paths.js';
import type { Served } from './kit.js';

type Level = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
type Tell = (level: Level, line: string) => void;

/** The longest message told (a longer line is cut, with an ellipsis). */
export const MAX_LOG_CHARS = 500;
/** The most messages one request is told. */
export const MAX_LOGS = 20;

const current = new AsyncLocalStorage<Tell>();

/** What a line on stderr is to the client: a warning, a wait before a retry (info), or nothing it is told. */
export function logLevelOf(line: string): { level: Level; text: string } | undefined {
  if (line.startsWith('warning: ')) return { level: 'warning', text: line.slice('warning: '.length) };
  if (/; retrying in [\d.]+ s…$/.test(line)) return { level: 'info', text: line };
  return undefined;
}

/** One line as the client is told it: sanitised, one line (no line or paragraph separator either), the home folder as ~, bounded. */
export function loggable(text: string, env: NodeJS.ProcessEnv): string {
  const dir = home(env);
  let line = sanitizeLine(text)
    .replace(/[\u0085\u2028\u2029]+/g, ' ')
    .trim();
  if (dir && dir !== '/') line = line.split(dir).join('~');
  return line.length > MAX_LOG_CHARS ? `${line.slice(0, MAX_LOG_CHARS - 1)}…` : line;
}

/** An IO whose stderr also tells the client of the request being answered (when it asked to be told). */
export function tellingIO(io: IO, env: NodeJS.ProcessEnv): IO {
  const err = (text: string) => {
    io.err(text);
    const tell = current.getStore();
    if (!tell) return;
    for (const raw of text.split('\n')) {
      const found = logLevelOf(raw);
      if (found) tell(found.level, loggable(found.text, env));
    }
  };
  return Object.create(io, { err: { value: err, enumerable: true } }) as IO;
}

interface HandlerContext {
  mcpReq?: { log?: (level: Level, data: unknown, logger?: string) => Promise<void> };
}

/**
 * Every request handler of `server` (registered by now) answers inside its own telling: what is said
 * on stderr meanwhile reaches `ctx.mcpReq.log`. Under 2025-11-25 nothing is told before the client
 * set a level.
 */
export function tellRequests(server: McpServer, era: Served['era']): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, (request: { method?: string }, ctx: HandlerContext) => unknown> })
    ._requestHandlers;
  if (!handlers) return;
  let levelSet = false;
  for (const [method, handler] of handlers) {
    handlers.set(method, (request, ctx) => {
      if (method === 'logging/setLevel') levelSet = true;
      const log = ctx?.mcpReq?.log;
      if (!log || (era !== 'modern' && !levelSet)) return handler(request, ctx);
      let told = 0;
      const tell: Tell = (level, line) => {
        if (line === '' || told >= MAX_LOGS) return;
        told++;
        void log(level, line, 'checkin').catch(() => undefined);
      };
      return current.run(tell, () => handler(request, ctx));
    });
  }
}
