// What commands are handed: streams, environment, clock — and lazily built services, so
// `checkin --help` never reads config or builds an HTTP client (gh's cmdutil.Factory).

import { ApiClient } from './api/client.js';
import { getMe } from './api/endpoints.js';
import type { Me } from './api/types.js';
import { ConfigStore, type CachedMe } from './config/store.js';
import { AuthError, UsageError } from './errors.js';
import type { Colors } from './ui/color.js';
import type { IO } from './ui/io.js';
import type { View } from './ui/views.js';
import { inquirerPrompter, type Prompter } from './ui/prompter.js';

export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** The current instant (tests inject a fixed one). */
  now: () => Date;
  config(): ConfigStore;
  /** The API client for the resolved URL and token; throws AuthError when there is no token. */
  api(): Promise<ApiClient>;
  /** The authenticated person, from the cache when it holds one for this URL and token. */
  me(opts?: { refresh?: boolean }): Promise<CachedMe>;
  prompter(): Prompter;
  /** chalk at the computed level; loaded on first use (machine output never needs it). */
  colors(): Promise<Colors>;
  /** How lists and objects are shown: rich on a terminal, plain when piped. */
  view(): Promise<View>;
  /** Opens $EDITOR on `text` and returns what was saved. */
  editText(text: string): Promise<string>;
  /** Releases what was built (keep-alive sockets), so the process exits at once. */
  close(): Promise<void>;
}

export interface ContextParts {
  io: IO;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  prompter?: Prompter;
  editText?: (text: string) => Promise<string>;
}

export function toCachedMe(me: Me, now: Date): CachedMe {
  return {
    id: me.id,
    name: me.name,
    username: me.username,
    teams: (me.teams ?? []).map((t) => ({ id: t.id, name: t.name })),
    fetched_at: now.toISOString(),
  };
}

function timeoutFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.CHECKIN_TIMEOUT;
  if (raw === undefined || raw === '') return undefined;
  const s = Number(raw);
  if (!Number.isFinite(s) || s <= 0) throw new UsageError(`CHECKIN_TIMEOUT must be a number of seconds, got "${raw}"`);
  return Math.round(s * 1000);
}

export function createContext(parts: ContextParts): Context {
  const { io, env } = parts;
  const now = parts.now ?? (() => new Date());
  let config: ConfigStore | undefined;
  let client: ApiClient | undefined;
  let colors: Colors | undefined;
  let prompter = parts.prompter;

  const ctx: Context = {
    io,
    env,
    now,
    config: () => (config ??= new ConfigStore(env)),
    async api() {
      if (client) return client;
      const cfg = ctx.config();
      const token = cfg.token();
      if (!token) {
        throw new AuthError('Not logged in: no token found', 'Run `checkin login`, or set CHECKIN_TOKEN (STEADY_TOKEN works too).');
      }
      if (token.value === '') throw new AuthError(`The token in ${token.name ?? cfg.file} is empty`);
      const timeoutMs = timeoutFrom(env);
      client = new ApiClient({
        baseUrl: cfg.apiUrl().value,
        token: token.value,
        env,
        userAgent: 'checkin/0.1.0',
        ...(timeoutMs !== undefined && { timeoutMs }),
        onRetry: ({ delayMs, why }) => io.err(`${why}; retrying in ${(delayMs / 1000).toFixed(delayMs < 1000 ? 1 : 0)} s…\n`),
      });
      return client;
    },
    async me(opts = {}) {
      const cfg = ctx.config();
      const api = await ctx.api();
      const token = cfg.token()!.value;
      const cached = opts.refresh ? undefined : cfg.cachedMe(api.baseUrl, token);
      if (cached) return cached;
      const fresh = toCachedMe(await getMe(api), now());
      await cfg.cacheMe(api.baseUrl, token, fresh);
      return fresh;
    },
    prompter: () => (prompter ??= inquirerPrompter(io)),
    async colors() {
      if (!colors) {
        const { makeColors } = await import('./ui/color.js');
        colors = makeColors(io.colorLevel);
      }
      return colors;
    },
    async view() {
      return { c: await ctx.colors(), rich: io.stdoutIsTTY, width: io.columns, now: now() };
    },
    async editText(text) {
      if (parts.editText) return parts.editText(text);
      const { editText } = await import('./ui/editor.js');
      return editText(text, env);
    },
    async close() {
      await client?.close();
    },
  };
  return ctx;
}
