// The profiles config.json holds, as `checkin auth status` lists them and `checkin auth switch`
// offers them: each one's service, who its token belongs to as last cached, and where its token is
// kept. Read from config.json and cache.json only: a profile not in use costs no request, and its
// keychain entry is not read (config.json says whether there is one).

import { DEFAULT_API_URL } from '../api/types.js';
import { DEFAULT_PROFILE } from '../config/profiles.js';
import { cacheKey, normalizeApiUrl, type CacheEntry, type ConfigStore } from '../config/store.js';
import type { AuthProfile } from '../core/shapes.js';

/** Every profile config.json names (and the one in use, when it names none yet), in its order. */
export function profileSummaries(cfg: ConfigStore): AuthProfile[] {
  const active = cfg.profile.name;
  const names = cfg.profileNames();
  if (!names.includes(active)) names.push(active);
  const entries = cfg.cacheEntries();
  return names.map((name) => {
    const stored = cfg.read(name);
    const apiUrl = stored.api_url || DEFAULT_API_URL;
    const me = stored.token || stored.token_store === 'keychain' ? cachedMe(entries, apiUrl, stored.token) : undefined;
    return {
      name,
      api_url: apiUrl,
      person: me ? { id: me.id, name: me.name, username: me.username } : null,
      token: stored.token ? 'file' : stored.token_store === 'keychain' ? 'keychain' : 'none',
      active: name === active,
    };
  });
}

/**
 * Who a profile's token belongs to, as cached. The cache is keyed by the token's hash: a token in
 * the file gives its key; one in the keychain is not read for this, so the person is the one the
 * cache knows at that service, when it knows only one.
 */
function cachedMe(entries: Record<string, CacheEntry>, apiUrl: string, token: string | undefined): CacheEntry['me'] {
  if (token) return entries[cacheKey(apiUrl, token)]?.me;
  const prefix = `${normalizeApiUrl(apiUrl)} `;
  const people = new Map(
    Object.entries(entries)
      .filter(([key, entry]) => key.startsWith(prefix) && entry.me)
      .map(([, entry]) => [entry.me!.id, entry.me!]),
  );
  return people.size === 1 ? [...people.values()][0] : undefined;
}

/** Whether a person could mistake the profile in use: they have several, or the one in use is not "default". */
export function profilesMatter(cfg: ConfigStore): boolean {
  const names = cfg.profileNames();
  return names.length > 1 || cfg.profile.name !== DEFAULT_PROFILE || names.some((n) => n !== DEFAULT_PROFILE);
}

/** The profile a run uses when nothing names one: config.json's "profile" (what `checkin auth switch` sets), else "default". */
export function defaultProfile(cfg: ConfigStore): string {
  return cfg.readFile().profile ?? DEFAULT_PROFILE;
}
