// `checkin doctor`'s webhook check: the chat webhook `report --post` would post to (the profile's,
// or CHECKIN_WEBHOOK), reached WITHOUT posting. Discord: GET of the webhook (its API's "get webhook
// with token": the webhook's own record, nothing posted) — 200 is a webhook Discord knows, 401/404
// one it does not. Slack and Mattermost have no such read: a HEAD (no body, nothing posted) says
// the host answers, and no more — whether the chat takes a post is known only by posting. One
// request, within the doctor's time limit; the URL is never said (the chat and its host are).
import { nodeTransport, TIMEOUT_CODE, type TransportError } from '../api/transport.js';
import { readWebhook } from '../config/webhook-store.js';
import type { AdviceWords, Context } from '../context.js';
import { CliError } from '../errors.js';
import { USER_AGENT } from '../version.js';
import { CHAT_NAMES, webhookOf } from './webhook.js';

export interface WebhookCheck {
  id: 'webhook';
  status: 'ok' | 'warning' | 'problem';
  message: string;
  fix: string | null;
}

export async function webhookCheck(ctx: Context, timeoutMs: number, w: AdviceWords): Promise<WebhookCheck> {
  const SET_AGAIN = `Set it again: \`${w.setSetting('webhook', '-')}\` (reads it from standard input), or \`${w.unsetSetting('webhook')}\`.`;
  const said: string[] = [];
  const kept = readWebhook(ctx.config(), ctx.env, (line) => said.push(line));
  if (!kept) {
    if (said.length > 0) return { id: 'webhook', status: 'warning', message: said[0]!, fix: SET_AGAIN };
    return { id: 'webhook', status: 'ok', message: 'none set', fix: null };
  }
  let hook;
  try {
    hook = webhookOf(kept.url, kept.where);
  } catch (err) {
    return {
      id: 'webhook',
      status: 'problem',
      message: `the webhook ${kept.where === 'env' ? 'in CHECKIN_WEBHOOK' : 'kept'} cannot be posted to: ${(err as CliError).message}`,
      fix: SET_AGAIN,
    };
  }
  const method = hook.service === 'discord' ? 'GET' : 'HEAD';
  const transport = nodeTransport(ctx.env);
  try {
    const answer = await transport.send({
      method,
      url: hook.url,
      headers: { 'user-agent': USER_AGENT },
      timeoutMs: Math.min(timeoutMs, 10_000),
      maxBodyBytes: 64 * 1024,
    });
    const s = answer.status;
    if (hook.service === 'discord') {
      if (s >= 200 && s < 300)
        return { id: 'webhook', status: 'ok', message: `${hook.label}: Discord knows it (GET answered ${s}; nothing posted)`, fix: null };
      if (s === 401 || s === 404)
        return {
          id: 'webhook',
          status: 'problem',
          message: `${hook.label}: Discord does not know it (GET answered ${s}): deleted, or its token changed`,
          fix: SET_AGAIN,
        };
      return { id: 'webhook', status: 'warning', message: `${hook.label}: GET answered ${s} (nothing posted)`, fix: null };
    }
    if (s >= 500)
      return {
        id: 'webhook',
        status: 'warning',
        message: `${hook.label}: ${CHAT_NAMES[hook.service]} answered HEAD with ${s} (nothing posted); a post now may be refused`,
        fix: null,
      };
    return {
      id: 'webhook',
      status: 'ok',
      message: `${hook.label}: reachable (HEAD answered ${s}; nothing posted — whether it takes a post is known only by posting)`,
      fix: null,
    };
  } catch (err) {
    const e = err as TransportError;
    const why = e.code === TIMEOUT_CODE ? `no answer within ${Math.min(timeoutMs, 10_000) / 1000} s` : (e.code ?? 'failed');
    return {
      id: 'webhook',
      status: 'problem',
      message: `${hook.label}: cannot be reached (${why})`,
      fix: 'Check the network (a proxy: HTTPS_PROXY), or set the webhook again.',
    };
  } finally {
    await transport.close();
  }
}
