// `checkin login`, `checkin logout` and `checkin me`.
import { ApiClient, checkTransport } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { getMe } from '../api/endpoints.js';
import { toCachedMe, type Context } from '../context.js';
import { meKey } from '../config/store.js';
import { AuthError, UsageError } from '../errors.js';
import { renderJson } from '../ui/render.js';
import { sanitizeLine } from '../ui/sanitize.js';

export interface LoginOptions {
  withToken?: boolean;
  apiUrl?: string;
}

export async function runLogin(ctx: Context, opts: LoginOptions): Promise<void> {
  const { io } = ctx;
  const cfg = ctx.config();
  const apiUrl = cfg.apiUrl(opts.apiUrl).value.replace(/\/+$/, '');
  try {
    checkTransport(apiUrl);
  } catch (err) {
    throw new UsageError((err as Error).message, (err as ApiError).suggestion);
  }
  let token: string;
  if (opts.withToken) {
    token = (await io.readStdin()).trim();
  } else if (io.canPrompt) {
    io.err(`Make a personal access token in the service's integrations settings (Read + write to fill in check-ins).\n`);
    token = (await ctx.prompter().password('Paste your token:')).trim();
  } else {
    throw new UsageError('No terminal to ask for the token', 'Pipe it in: `echo "$TOKEN" | checkin login --with-token`');
  }
  if (token === '') throw new UsageError('The token is empty; nothing was stored');
  if (/\s/.test(token)) throw new UsageError('The token contains spaces; paste just the token');

  const api = new ApiClient({ baseUrl: apiUrl, token, env: ctx.env, userAgent: 'checkin/0.1.0' });
  let me;
  try {
    me = await getMe(api);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw new AuthError(`The service rejected this token (401): nothing was stored`, 'Check that you copied the whole token and that it has not expired.');
    throw err;
  } finally {
    await api.close();
  }
  const cached = toCachedMe(me, ctx.now());
  await cfg.update((c) => {
    c.token = token;
    c.api_url = apiUrl;
    c.me = { ...c.me, [meKey(apiUrl, token)]: cached };
  });
  io.err(`Logged in as ${sanitizeLine(me.name)}${me.username ? ` (@${sanitizeLine(me.username)})` : ''} at ${apiUrl}\n`);
  if (ctx.env.CHECKIN_TOKEN || ctx.env.STEADY_TOKEN) {
    io.err(`Note: ${ctx.env.CHECKIN_TOKEN ? 'CHECKIN_TOKEN' : 'STEADY_TOKEN'} is set in your environment and takes precedence over the stored token.\n`);
  }
}

export async function runLogout(ctx: Context): Promise<void> {
  const cfg = ctx.config();
  const stored = cfg.read();
  if (!stored.token) {
    ctx.io.err('Not logged in: no stored token.\n');
  } else {
    await cfg.update((c) => {
      const key = meKey(c.api_url ?? cfg.apiUrl().value, c.token!);
      if (c.me) delete c.me[key];
      delete c.token;
    });
    ctx.io.err(`Logged out: the token was removed from ${cfg.file}\n`);
  }
  if (ctx.env.CHECKIN_TOKEN || ctx.env.STEADY_TOKEN) {
    ctx.io.err(`Note: ${ctx.env.CHECKIN_TOKEN ? 'CHECKIN_TOKEN' : 'STEADY_TOKEN'} is still set in your environment.\n`);
  }
}

export async function runMe(ctx: Context, opts: { json?: boolean; refresh?: boolean }): Promise<void> {
  const me = await ctx.me({ refresh: Boolean(opts.refresh) });
  if (opts.json) {
    ctx.io.out(renderJson(me));
    return;
  }
  const c = await ctx.colors();
  const teams = me.teams.map((t) => sanitizeLine(t.name)).join(', ') || 'none';
  ctx.io.out(`${c.bold(sanitizeLine(me.name))} (@${sanitizeLine(me.username)})\nid: ${me.id}\nteams: ${teams}\n`);
}
