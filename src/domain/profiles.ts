// The profiles config.json holds, as `checkin auth status` lists them and `checkin auth switch`
// offers them: each one's service, who its token belongs to as last cached, and where its token is
// kept. Read from config.json and cache.json only: a profile not in use costs no request, and its
// keychain entry is not read (config.json says whether there is one).

import { DEFAULT_API_URL } from '../api/types.js';
import { DEFAULT_PROFILE } from '../config/profiles.js';
import type { ConfigStore } from '../config/store.js';
import { profileMe } from './account.js';
import type { AuthProfile } from '../core/shapes.js';

/** Every profile config.json names (and the one in use, when it names none yet), in its order. */
export function profileSummaries(cfg: ConfigStore): AuthProfile[] {
  const active = cfg.profile.name;
  const names = cfg.profileNames();
  if (!names.includes(active)) names.push(active);
  return names.map((name) => {
    const stored = cfg.read(name);
    const apiUrl = stored.api_url || DEFAULT_API_URL;
    const me = stored.token || stored.token_store === 'keychain' ? profileMe(cfg, name, apiUrl, stored.token) : undefined;
    return {
      name,
      api_url: apiUrl,
      person: me ? { id: me.id, name: me.name, username: me.username } : null,
      token: stored.token ? 'file' : stored.token_store === 'keychain' ? 'keychain' : 'none',
      active: name === active,
    };
  });
}

/** Whether a person could mistake the profile in use: the words they read name it (config/profiles.ts profileToName). */
export function profilesMatter(cfg: ConfigStore): boolean {
  return cfg.profileToName() !== undefined;
}

/** The profile a run uses when nothing names one: config.json's "profile" (what `checkin auth switch` sets), else "default". */
export function defaultProfile(cfg: ConfigStore): string {
  return cfg.readFile().profile ?? DEFAULT_PROFILE;
}

/**
 * The profile a folder's .checkin.json chose for this run, if that is how it was chosen: `login` and
 * `logout` change a profile only when the person named it (a cloned repository must not make a login
 * overwrite another of the person's accounts).
 */
export function chosenByFolder(cfg: ConfigStore): { name: string; file: string } | undefined {
  const { name, origin, file } = cfg.profile;
  return origin === 'directory' && file ? { name, file } : undefined;
}
