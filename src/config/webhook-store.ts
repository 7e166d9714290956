// The chat webhook `checkin report --post` posts to, kept like the token: an incoming-webhook URL
// is a secret (whoever has it posts as the team's integration). Per profile, in the OS keychain
// (account "webhook <profile>") where there is one, else in config.json (0600) under the profile's
// `webhook`; config.json then says which (`webhook_store: "keychain"`, `webhook_account`). A
// folder's .checkin.json never holds it (config/profiles.ts refuses a key that looks like a
// secret there): it names a profile, and the profile holds the webhook. CHECKIN_WEBHOOK wins, as
// CHECKIN_TOKEN does over the stored token (a scheduled job in CI).

import { reasonOf } from './secrets.js';
import type { ConfigStore } from './store.js';

export interface StoredWebhook {
  url: string;
  /** Where it came from: the environment (CHECKIN_WEBHOOK), the keychain or config.json. */
  where: 'env' | 'keychain' | 'file';
}

interface WebhookFields {
  webhook?: string;
  webhook_store?: 'keychain';
  webhook_account?: string;
}

const fields = (cfg: ConfigStore) => cfg.read() as WebhookFields;

/** The webhook in force for the profile in use: CHECKIN_WEBHOOK > the file > the keychain entry it names; undefined when none. `warn` hears why a kept one cannot be read. */
export function readWebhook(cfg: ConfigStore, env: NodeJS.ProcessEnv, warn: (line: string) => void = () => undefined): StoredWebhook | undefined {
  const fromEnv = env.CHECKIN_WEBHOOK?.trim();
  if (fromEnv) return { url: fromEnv, where: 'env' };
  const f = fields(cfg);
  if (typeof f.webhook === 'string' && f.webhook !== '') return { url: f.webhook, where: 'file' };
  if (f.webhook_store !== 'keychain' || !f.webhook_account) return undefined;
  const store = cfg.secrets();
  if (typeof store === 'string') {
    warn(`the webhook is in the keychain, but ${store}; set it again with \`checkin config set webhook -\``);
    return undefined;
  }
  try {
    const url = store.get(f.webhook_account);
    if (url) return { url, where: 'keychain' };
    warn(`the webhook is no longer in ${store.name}; set it again with \`checkin config set webhook -\``);
  } catch (err) {
    warn(`the webhook is in ${store.name}, which cannot be read (${reasonOf(err)})`);
  }
  return undefined;
}

/** Keeps `url` as the profile's webhook: in the keychain where there is one, else config.json (0600). Says where it went. */
export async function storeWebhook(cfg: ConfigStore, url: string): Promise<{ where: 'keychain' | 'file'; name?: string; why?: string }> {
  const before = fields(cfg).webhook_account;
  const store = cfg.secrets();
  let why: string | undefined;
  if (typeof store === 'string') why = store;
  else {
    const account = `webhook ${cfg.profile.name}`;
    try {
      store.set(account, url);
      await cfg.update((c) => {
        const w = c as WebhookFields;
        delete w.webhook;
        w.webhook_store = 'keychain';
        w.webhook_account = account;
      });
      return { where: 'keychain', name: store.name };
    } catch (err) {
      why = `${store.name} cannot be used (${reasonOf(err)})`;
    }
  }
  await cfg.update((c) => {
    const w = c as WebhookFields;
    w.webhook = url;
    delete w.webhook_store;
    delete w.webhook_account;
  });
  if (before) dropEntry(cfg, before);
  return { where: 'file', ...(why !== undefined && { why }) };
}

/** Forgets the profile's webhook (the keychain entry and the file's fields); false when none was kept. */
export async function forgetWebhook(cfg: ConfigStore): Promise<boolean> {
  const f = fields(cfg);
  if (f.webhook === undefined && f.webhook_store === undefined && f.webhook_account === undefined) return false;
  if (f.webhook_account) dropEntry(cfg, f.webhook_account);
  await cfg.update((c) => {
    const w = c as WebhookFields;
    delete w.webhook;
    delete w.webhook_store;
    delete w.webhook_account;
  });
  return true;
}

function dropEntry(cfg: ConfigStore, account: string): void {
  const store = cfg.secrets();
  if (typeof store === 'string') return;
  try {
    store.delete(account);
  } catch {
    // an entry left behind is named by no profile
  }
}
