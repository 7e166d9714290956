// `checkin config get|set|unset webhook`: the chat webhook `report --post` posts to, kept like the
// token (config/webhook-store.ts: the keychain, else config.json at 0600; per profile). Never
// printed back: `get` says the chat, its host and where it is kept, and `set -` reads the URL from
// standard input, so it lands in no shell history.
import { forgetWebhook, readWebhook, storeWebhook } from '../../config/webhook-store.js';
import type { Context } from '../../context.js';
import { webhookOf, CHAT_NAMES } from '../../domain/webhook.js';
import { profilesMatter } from '../../domain/profiles.js';
import { UsageError } from '../../errors.js';
import { printJson } from '../../ui/output.js';
import { sanitizeLine } from '../../ui/sanitize.js';

export const WEBHOOK_KEY = 'webhook';

export const WEBHOOK_HELP =
  'the chat webhook `checkin report --post` posts to (Slack, Discord or Mattermost): a secret, kept in the keychain or config.json (0600) and never printed back; `checkin config set webhook -` reads it from standard input (CHECKIN_WEBHOOK wins)';

const WHERE = { env: 'CHECKIN_WEBHOOK', keychain: 'the keychain', file: 'config.json' } as const;

/** What `get` and `list` say of the webhook: the chat, its scheme and host, and where it is kept — never its path. */
export function webhookShown(ctx: Context): { shown: string; json: { service: string; host: string; kept: string } } | undefined {
  const kept = readWebhook(ctx.config(), ctx.env, (line) => ctx.io.err(`warning: ${line}\n`));
  if (!kept) return undefined;
  let service = 'unknown';
  let origin = 'not a URL';
  let host = '';
  try {
    const u = new URL(kept.url);
    origin = u.origin;
    host = u.host;
    service = CHAT_NAMES[webhookOf(kept.url, kept.where).service];
  } catch {
    // shown as what it is not
  }
  return {
    shown: `${sanitizeLine(origin)}/… (${service}; in ${WHERE[kept.where]})`,
    json: { service, host: sanitizeLine(host), kept: kept.where },
  };
}

export async function getWebhook(ctx: Context, json?: boolean): Promise<void> {
  const w = webhookShown(ctx);
  if (json) return printJson(ctx.io, w?.json ?? null);
  if (!w) ctx.io.err('webhook is not set\n');
  else ctx.io.out(`${w.shown}\n`);
}

export async function setWebhook(ctx: Context, value: string): Promise<void> {
  let raw = value;
  if (value === '-') raw = (await ctx.io.readStdin(8 * 1024)).trim();
  else ctx.io.err('note: a webhook given as an argument stays in your shell history; `checkin config set webhook -` reads it from standard input\n');
  if (raw === '') throw new UsageError('Nothing came on standard input for the webhook; nothing was changed');
  const hook = webhookOf(raw, 'flag');
  const cfg = ctx.config();
  const kept = await storeWebhook(cfg, hook.url);
  const profile = profilesMatter(cfg) ? ` for the profile ${sanitizeLine(cfg.profile.name)}` : '';
  ctx.io.err(`The webhook${profile} is ${hook.label}, kept in ${kept.where === 'keychain' ? kept.name : `${cfg.file}${kept.why ? ` (${kept.why})` : ''}`}.\n`);
}

export async function unsetWebhook(ctx: Context): Promise<void> {
  await forgetWebhook(ctx.config());
}
