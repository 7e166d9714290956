// Where checkin keeps its settings (config.json), its cache of the service (cache.json) and the
// inbox marker (state.json); drafts are one file each (./drafts.ts). All three are read as plain
// JSON and written whole through ./files.ts (writeDurably: a new file, fsynced, renamed over).
// The folders: ./paths.ts. Earlier versions kept the cache and the marker in config.json: they
// are read from there until the first write of each moves them.

import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_API_URL, type CheckIn, type Ref } from '../api/types.js';
import { sha256Hex } from './sha256.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { fsReason, readJson, writeDurably } from './files.js';
import { checkinPaths, type CheckinPaths } from './paths.js';
import { osKeychain, reasonOf, type SecretStore } from './secrets.js';
import { chooseProfile, DEFAULT_PROFILE, findDirectoryFile, profileOrigin, profileToName, type DirectoryFile, type ProfileChoice } from './profiles.js';

export interface CachedMe {
  id: string;
  name: string;
  username: string;
  time_zone?: string | null;
  teams: Ref[];
  fetched_at: string;
  /** The profile zone's offsets for a year (see core/zone.ts), so "today" needs no ICU. */
  zone?: { name: string; iana: string; from: number; until: number; offsets: Array<[number, number]> };
}

/** People and teams of the account, for resolving names; refreshed when a name is not found. */
export interface Directory {
  /** team_ids: the person's teams, as /people said (absent in a directory cached by an earlier version); time_zone: their profile's zone (stats). */
  people: Array<{ id: string; name: string; username: string; team_ids?: string[]; time_zone?: string }>;
  teams: Ref[];
  fetched_at: string;
}

/** What is cached of one account (API URL + token): who I am, and who the others are. */
export interface CacheEntry {
  me?: CachedMe;
  directory?: Directory;
  /** The goals last listed (ids and titles), for completing goal ids and resolving short ones. */
  goals?: Array<{ id: string; title: string }>;
  /** Ids of check-ins and goal updates listed lately (newest first, at most SHOWN_MAX each), for resolving short ids. */
  shown?: { check_ins?: string[]; goal_updates?: string[] };
  /** `checkin status`'s last answer for today's check-in and its ETag (sent again with If-None-Match). */
  today?: { key: string; etag: string; check_in: CheckIn };
  /** Teammates blocked on me on `date`, as last asked at `checked_at` (status and inbox ask again after ten minutes). */
  blocked_on_me?: { date: string; checked_at: string; list: BlockedOnMe[] };
}

/** A teammate's open blocker that @mentions me: who, the words, and since when (days in a row). */
export interface BlockedOnMe {
  person: { id: string; name: string } | null;
  blockers: string;
  since: string;
  days: number;
  at_least: boolean;
  check_in_id: string;
}

/**
 * What a run reads of config.json: the profile in use (its service, token and account settings)
 * over the settings that are the person's on every profile (editor, pager, color, prompt,
 * accessible). Written back through ConfigStore.update, which puts each key where it belongs.
 */
export interface StoredConfig {
  api_url?: string;
  /** The token, when it is kept in this file (mode 0600) rather than the keychain. */
  token?: string;
  /** "keychain": the token for this profile is in the OS keychain (nothing else says so: it is read only then). */
  token_store?: 'keychain';
  /** The keychain entry's account name: "<profile> <API URL>"; absent for a login made before profiles (then the API URL). */
  keychain_account?: string;
  /** Earlier versions: the cache, now in cache.json (read until the first write moves it). */
  cache?: Record<string, CacheEntry>;
  /** Folders whose git commits are offered for *previous* (default: the current repository); CHECKIN_GIT_REPOS wins. */
  git_repos?: string[];
  /** Earlier versions: the inbox markers, now in state.json (read until the first write moves them). */
  inbox?: Record<string, InboxMarker>;
}

/** The keys of config.json that belong to one profile; every other key is the person's, on every profile. */
export const PROFILE_KEYS: readonly string[] = [
  'api_url',
  'token',
  'token_store',
  'keychain_account',
  'team',
  'git_repos',
  'template',
  // The chat webhook `report --post` posts to (config/webhook-store.ts): a secret like the token.
  'webhook',
  'webhook_store',
  'webhook_account',
];

/** config.json as a whole: the default profile's name, each profile's keys, and the shared settings. */
export interface ConfigFile extends Record<string, unknown> {
  profile?: string;
  profiles: Record<string, StoredConfig & Record<string, unknown>>;
}

/**
 * config.json in its present shape. One made before profiles (8dfe64c and earlier) holds one
 * account at the top level: read as the profile "default", and written in this shape by the first
 * write. Profile keys found at the top level of a file that has profiles were written there by an
 * earlier build since: they are the newest words of "default", and go into it.
 */
export function configFileOf(raw: Record<string, unknown>): ConfigFile {
  const { profile, profiles, ...rest } = raw;
  const out: ConfigFile = { profiles: {} };
  if (typeof profile === 'string') out.profile = profile;
  for (const [name, record] of Object.entries(recordOf<Record<string, unknown>>(profiles))) {
    if (typeof record === 'object' && record !== null && !Array.isArray(record)) out.profiles[name] = { ...record };
  }
  const legacy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (PROFILE_KEYS.includes(key)) legacy[key] = value;
    else out[key] = value;
  }
  if (Object.keys(legacy).length > 0) out.profiles[DEFAULT_PROFILE] = { ...out.profiles[DEFAULT_PROFILE], ...legacy };
  return out;
}

/** cache.json: cached answers of the service, keyed by API URL + a hash of the token (see cacheKey). */
interface CacheFile {
  cache?: Record<string, CacheEntry>;
  /**
   * Per profile and service ("<profile> <API URL>"): the key of the entry last written with that
   * profile's token as read from the keychain. How a run that never asks the keychain (an agent's
   * hook; `auth status`, for every profile) finds that account's entry. No secret: the key is the
   * entry's name in this same file.
   */
  profiles?: Record<string, string>;
}

/** state.json: `checkin inbox`'s marker of what was seen, per API URL and person id. */
interface StateFile {
  inbox?: Record<string, InboxMarker>;
}

/** One numbered item of a listing: what `checkin inbox --reply <n>` answers. */
export interface ListedItem {
  /** What the reply goes on. */
  kind: 'check-in' | 'goal-update';
  id: string;
  /** Who wrote the item and what (its start), quoted when replying in the editor. */
  quote?: string;
  /** The item's author, what it is ("comment", "🚀 rocket reaction") and the thread's label as listed: named when replying. */
  by?: string;
  what?: string;
  thread?: string;
}

/** A listing as shown in one terminal: when, and its items in its numbering (null: an item no reply can go on). */
export interface InboxListing {
  at: string;
  items: Array<ListedItem | null>;
}

/** The most terminals whose last listing is kept (per API URL and person); the oldest goes first. */
export const MAX_LISTINGS = 20;

export interface InboxMarker {
  /** Comments and reactions up to this moment were seen. */
  seen_at?: string;
  /**
   * The last listing shown in each terminal (by ui/io.ts's terminal key), at most MAX_LISTINGS:
   * `--reply <n>` answers item n of this terminal's. Written only through setInboxMarker's
   * `listing`, against the file as it is then (another terminal's listing is never lost).
   */
  listings?: Record<string, InboxListing>;
  /** `checkin status`: new comments when it last looked (from the digest), and when that was. */
  unread?: number;
  /** The count is a full page: there are at least that many. */
  unread_more?: boolean;
  checked_at?: string;
  /** The digest request status last sent, and the ETag of its answer (sent again with If-None-Match). */
  digest?: { query: string; etag?: string };
  /** The service answered GET /digest with 404: no line, and no request, until checked_at is old. */
  no_digest?: boolean;
  /** `checkin notify`'s own place (domain/notices.ts), kept when the inbox or status write theirs. */
  notify?: NotifyMarker;
}

/** What `checkin notify` has looked at, so that no notice is shown twice (domain/notices.ts). */
export interface NotifyMarker {
  /** Feed entries up to this moment were looked at (shown, or the person's own). */
  at?: string;
  /** The feed request last sent (GET /digest?per_page=1) and its ETag, sent again with If-None-Match. */
  digest?: { query: string; etag?: string };
  /** A day and whether a check-in is scheduled on it (not when the person is marked absent that day: `absent`): asked once a day. */
  day?: { date: string; scheduled: boolean; absent?: boolean };
  /** When teammates blocked on me were last asked (at most hourly), and those already told (person id and since). */
  blocked_at?: string;
  blocked?: string[];
  /** When the service last answered GET /digest with 404 (asked again a day later). */
  no_digest_at?: string;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  return checkinPaths(env).config;
}

/** An API URL as one string per service: scheme and host in lower case, loopback as 127.0.0.1, no default port, no trailing slash. */
export function normalizeApiUrl(apiUrl: string): string {
  try {
    const u = new URL(apiUrl);
    // localhost, 127.0.0.1 and ::1 are this machine: one service, one name.
    if (u.hostname === 'localhost' || u.hostname === '[::1]') u.hostname = '127.0.0.1';
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return apiUrl.replace(/\/+$/, '');
  }
}

/** SHA-256 of the text's UTF-8, in hex (in JavaScript: a run that only hashes a token never loads node:crypto; config/sha256.ts). */
export function sha256(text: string): string {
  return sha256Hex(text);
}

/** Cache key of an account: another token (or another service) never reuses someone else's id. */
export function cacheKey(apiUrl: string, token: string): string {
  return `${normalizeApiUrl(apiUrl)} ${sha256(token).slice(0, 16)}`;
}

export interface Resolved<T> {
  value: T;
  /** The environment variable it came from, if one did. */
  name?: string;
  /** Where a token is kept: an environment variable, the keychain or the config file. */
  where?: 'env' | 'keychain' | 'file';
}

/** A JSON object's field when it is an object (not an array, a string…), else {}: what a file says is not trusted to have its shape. */
function recordOf<T>(v: unknown): Record<string, T> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, T>) : {};
}

export class ConfigStore {
  readonly dir: string;
  readonly paths: CheckinPaths;
  /** config.json as read (once a run), in its present shape. */
  private whole: ConfigFile | undefined;
  private chosen: ProfileChoice | undefined;
  private unknownOk = false;
  private dirFile: DirectoryFile | null | undefined;
  private cacheData: Required<CacheFile> | undefined;
  /** The inbox markers this run set but could not write to state.json (by key): kept for the run, over the file. */
  private unwritten: Record<string, InboxMarker> = {};

  private damaged: string | undefined;
  /** cache.json or state.json, when this run was told it could not be read (told once). */
  private readonly unreadSaid = new Set<string>();
  /** Each account's cache key, worked out once a run: a run looks its account up several times (`today` with TZ unset: 4), and each is a SHA-256 in JavaScript. */
  private readonly keys = new Map<string, string>();

  private keychainToken: Resolved<string> | null | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** Told of a damaged settings file (one line). */
    private readonly warn: (message: string) => void = () => undefined,
    /** The OS keychain (or why there is none); loaded only when a token is kept there. */
    readonly secrets: () => SecretStore | string = () => osKeychain(env),
    /** The --profile of this run, once the command line is read (the profile is chosen when first asked for). */
    private readonly flag: () => string | undefined = () => undefined,
    /** The error of a profile named by --profile or CHECKIN_PROFILE that config.json does not hold (`names`: those it does). */
    private readonly unknownProfile: (chosen: ProfileChoice, names: string[]) => Error = (chosen, names) =>
      new UsageError(`No profile named ${chosen.name} (from ${profileOrigin(chosen)}); profiles: ${names.length > 0 ? names.join(', ') : 'none yet'}`),
  ) {
    this.paths = checkinPaths(env);
    this.dir = this.paths.config;
  }

  get file(): string {
    return join(this.dir, 'config.json');
  }
  get cacheFile(): string {
    return join(this.paths.cache, 'cache.json');
  }
  get stateFile(): string {
    return join(this.paths.state, 'state.json');
  }
  get draftsDir(): string {
    return join(this.paths.state, 'drafts');
  }

  /** config.json as a whole, read once a run (see configFileOf for files made before profiles). */
  readFile(): ConfigFile {
    if (!this.whole) {
      // A damaged file never blocks a run: it is read as empty (CHECKIN_TOKEN still works), and set
      // aside before anything is written over it.
      const { value, damaged } = readJson(this.file);
      if (damaged) {
        this.damaged = damaged;
        this.warn(`${this.file} cannot be read (${damaged}); going on without it`);
      }
      this.whole = configFileOf(value);
    }
    return this.whole;
  }

  /**
   * The profile this run uses: --profile > CHECKIN_PROFILE > the folder's .checkin.json > config.json's default > "default".
   * One named by --profile or CHECKIN_PROFILE that config.json does not hold (a typo, another machine's
   * name) is a usage error, with the names it holds and the nearest, unless the command makes one
   * (acceptUnknownProfile: `login`, `config set`) or says so itself (`doctor`). "default" is always one.
   */
  get profile(): ProfileChoice {
    const chosen = (this.chosen ??= chooseProfile({
      flag: this.flag(),
      env: this.env,
      directory: () => this.directory(),
      configured: this.readFile().profile,
      configFile: this.file,
    }));
    if (!this.unknownOk && (chosen.origin === 'flag' || chosen.origin === 'env') && chosen.name !== DEFAULT_PROFILE) {
      const names = this.profileNames();
      if (!names.includes(chosen.name)) throw this.unknownProfile(chosen, names);
    }
    return chosen;
  }

  /** The profile chosen earlier in this run (`checkin mcp`'s first answer, mcp/first.ts), kept: a change of the settings since does not move it. */
  keepProfile(choice: ProfileChoice): void {
    this.chosen = choice;
  }

  /** This command makes the profile it is given (`login`, `config set`), or says itself that there is none (`doctor`): a name config.json lacks is taken. */
  acceptUnknownProfile(): void {
    this.unknownOk = true;
  }

  /** The nearest .checkin.json at or above the current folder (read once a run), if any. */
  directory(): DirectoryFile | undefined {
    if (this.dirFile === undefined) this.dirFile = findDirectoryFile(process.cwd(), this.warn) ?? null;
    return this.dirFile ?? undefined;
  }

  /** The profile in use, when it is worth naming (profiles.ts profileToName): several profiles, or one chosen or not "default". */
  profileToName(): string | undefined {
    return profileToName(this.profile, this.profileNames());
  }

  /** The profiles config.json names, in its order. */
  profileNames(): string[] {
    return Object.keys(this.readFile().profiles);
  }

  /** What config.json holds for the profile `name` (default: the one in use) with the shared settings: what a run reads. */
  read(name: string = this.profile.name): StoredConfig {
    const { profile: _default, profiles, ...shared } = this.readFile();
    return { ...shared, ...profiles[name] } as StoredConfig;
  }

  /** CHECKIN_TOKEN > STEADY_TOKEN > file (or the keychain it names). */
  token(): Resolved<string> | undefined {
    for (const name of ['CHECKIN_TOKEN', 'STEADY_TOKEN']) {
      const v = this.env[name];
      if (v !== undefined && v !== '') return { value: v.trim(), name, where: 'env' };
    }
    const stored = this.read();
    if (stored.token) return { value: stored.token, where: 'file' };
    const account = keychainAccount(stored);
    if (account) return this.fromKeychain(account) ?? undefined;
    return undefined;
  }

  /** The login that stores this profile's token again. */
  private loginWords(): string {
    return this.profile.name === DEFAULT_PROFILE ? 'checkin login' : `checkin login --profile ${this.profile.name}`;
  }

  /** This run never asks the keychain (an agent's hook: a native addon and a call that may wait): a token kept there is as if there were none, said nowhere. */
  skipKeychain(): void {
    this.keychainToken ??= null;
  }

  /** The keychain is asked once a run, and only when the config says the token is there. */
  private fromKeychain(account: string): Resolved<string> | null {
    if (this.keychainToken !== undefined) return this.keychainToken;
    const store = this.secrets();
    if (typeof store === 'string') {
      this.warn(`your token is in the keychain, but ${store}; run \`${this.loginWords()}\` again, or set CHECKIN_TOKEN`);
      return (this.keychainToken = null);
    }
    try {
      const value = store.get(account);
      this.keychainToken = value ? { value, where: 'keychain' } : null;
      if (!value) this.warn(`your token is no longer in ${store.name}; run \`${this.loginWords()}\` again, or set CHECKIN_TOKEN`);
    } catch (err) {
      this.warn(`your token is in ${store.name}, which cannot be read (${reasonOf(err)}); run \`checkin login --insecure-storage\`, or set CHECKIN_TOKEN`);
      this.keychainToken = null;
    }
    return this.keychainToken;
  }

  /**
   * Stores a token for `apiUrl`: in the keychain where there is one (unless `file`), else in the
   * config file (0600). Says where it went.
   */
  async storeToken(apiUrl: string, token: string, opts: { file?: boolean } = {}): Promise<{ where: 'keychain' | 'file'; why?: string; name?: string }> {
    let why: string | undefined = opts.file ? 'as asked (--insecure-storage)' : undefined;
    const before = keychainAccount(this.read());
    if (!opts.file) {
      const store = this.secrets();
      if (typeof store === 'string') why = store;
      else {
        try {
          // Under the profile's name and its service: two profiles, or two services, never share an entry.
          const account = `${this.profile.name} ${normalizeApiUrl(apiUrl)}`;
          store.set(account, token);
          // The profile's token from now on, as if read from there (cache.json's alias for its entry is written with it).
          this.keychainToken = { value: token, where: 'keychain' };
          await this.update((c) => {
            delete c.token;
            c.token_store = 'keychain';
            c.keychain_account = account;
            c.api_url = apiUrl;
          });
          if (before && before !== account) this.dropKeychainEntry(before);
          return { where: 'keychain', name: store.name };
        } catch (err) {
          why = `${store.name} cannot be used (${reasonOf(err)})`;
        }
      }
    }
    await this.update((c) => {
      c.token = token;
      delete c.token_store;
      delete c.keychain_account;
      c.api_url = apiUrl;
    });
    if (before) this.dropKeychainEntry(before);
    return { where: 'file', ...(why !== undefined && { why }) };
  }

  /** Best effort: the profile's earlier keychain entry, once its token is kept elsewhere. */
  private dropKeychainEntry(account: string): void {
    const store = this.secrets();
    if (typeof store === 'string') return;
    try {
      store.delete(account);
    } catch {
      // an entry left behind holds a token no profile names
    }
  }

  /** Removes the stored token, from the keychain and from the file. Says from where. */
  async forgetToken(): Promise<string | undefined> {
    const stored = this.read();
    let from: string | undefined;
    const account = keychainAccount(stored);
    if (account) {
      const store = this.secrets();
      if (typeof store !== 'string') {
        try {
          store.delete(account);
          from = store.name;
        } catch (err) {
          this.warn(`the token could not be removed from ${store.name} (${reasonOf(err)})`);
        }
      }
    }
    if (stored.token || stored.token_store) {
      await this.update((c) => {
        delete c.token;
        delete c.token_store;
        delete c.keychain_account;
      });
      from ??= this.file;
    }
    return from;
  }

  /**
   * Points the profile `name` (not necessarily the one in use) at a service and its token, kept in
   * this file: for a demo token (`checkin sandbox`), which is no secret. Its other settings stay.
   */
  async setProfileService(name: string, apiUrl: string, token: string): Promise<void> {
    await this.updateFile((file) => {
      const { token_store: _store, keychain_account: _account, ...rest } = file.profiles[name] ?? {};
      file.profiles[name] = { ...rest, api_url: apiUrl, token };
    });
  }

  /** Makes `name` the default profile (`checkin auth switch`): the one a run uses when nothing else names one. */
  async setDefaultProfile(name: string): Promise<void> {
    await this.updateFile((file) => {
      file.profile = name;
    });
  }

  /**
   * A profile's stored token goes only to the service it was stored with: when CHECKIN_API_URL names
   * another one (the sandbox's export line left in a shell) and no token comes from the environment,
   * the profile, its own service and the one named, to refuse before any request (and before the
   * keychain is read). A token stored before profiles without an API URL is the default service's.
   */
  foreignService(): { profile: string; own: string; named: string } | undefined {
    const url = this.apiUrl();
    if (url.name !== 'CHECKIN_API_URL') return undefined;
    if (['CHECKIN_TOKEN', 'STEADY_TOKEN'].some((n) => this.env[n] !== undefined && this.env[n] !== '')) return undefined;
    const stored = this.read();
    if (!stored.token && stored.token_store !== 'keychain') return undefined;
    const own = stored.api_url || DEFAULT_API_URL;
    if (normalizeApiUrl(own) === normalizeApiUrl(url.value)) return undefined;
    return { profile: this.profile.name, own, named: url.value };
  }

  /** flag > CHECKIN_API_URL > file > https://service.steady.space/api/v2. */
  apiUrl(flag?: string): Resolved<string> {
    if (flag) return { value: flag };
    const v = this.env.CHECKIN_API_URL;
    if (v) return { value: v, name: 'CHECKIN_API_URL' };
    return { value: this.read().api_url || DEFAULT_API_URL };
  }

  /**
   * The object in cache.json or state.json, {} when it is missing or damaged: only a cache, or a
   * marker, written anew on the next write (a rename: it replaces a FIFO without opening it). A file that
   * cannot be read at all (a FIFO, a folder, too large, permission denied) is said, once a run.
   */
  private readOwn(file: string): Record<string, unknown> {
    const { value, damaged, unreadable } = readJson(file);
    if (unreadable && !this.unreadSaid.has(file)) {
      this.unreadSaid.add(file);
      this.warn(`${file} cannot be read (${damaged}); going on without it`);
    }
    return value;
  }

  /** cache.json as read (once a run; a damaged cache is only a cache: read as empty, and written anew on the next write). */
  private cacheFileData(): Required<CacheFile> {
    if (!this.cacheData) {
      const { cache, profiles } = this.readOwn(this.cacheFile);
      const keys = recordOf<unknown>(profiles);
      this.cacheData = {
        cache: recordOf<CacheEntry>(cache),
        profiles: Object.fromEntries(Object.entries(keys).filter((e): e is [string, string] => typeof e[1] === 'string')),
      };
    }
    return this.cacheData;
  }

  /** Everything cached, by account (cache.json's entries over what an earlier version left in config.json). */
  cacheEntries(): Record<string, CacheEntry> {
    return { ...recordOf<CacheEntry>(this.read().cache), ...this.cacheFileData().cache };
  }

  /** What is cached of `kind` for this account, if anything. */
  cached<K extends keyof CacheEntry>(apiUrl: string, token: string, kind: K): CacheEntry[K] | undefined {
    return this.cacheEntries()[this.keyOf(apiUrl, token)]?.[kind];
  }

  /** The key of the entry the profile `name`'s keychain token last wrote at `apiUrl` (cache.json's `profiles`), read without the keychain. */
  keychainAccountKey(name: string, apiUrl: string): string | undefined {
    return this.cacheFileData().profiles[`${name} ${normalizeApiUrl(apiUrl)}`];
  }

  /** Where cache.json's `profiles` keeps the entry of `token` at `apiUrl`: when it is the profile's token as read from (or just stored in) the keychain. */
  private keychainAlias(apiUrl: string, token: string): string | undefined {
    return this.keychainToken?.value === token ? `${this.profile.name} ${normalizeApiUrl(apiUrl)}` : undefined;
  }

  private keyOf(apiUrl: string, token: string): string {
    const both = `${apiUrl}\n${token}`;
    let key = this.keys.get(both);
    if (key === undefined) this.keys.set(both, (key = cacheKey(apiUrl, token)));
    return key;
  }

  /** Best effort: a cache that cannot be written (a read-only folder) only means asking again next time. */
  async cache<K extends keyof CacheEntry>(apiUrl: string, token: string, kind: K, value: CacheEntry[K]): Promise<void> {
    const key = this.keyOf(apiUrl, token);
    const alias = this.keychainAlias(apiUrl, token);
    const { profiles } = this.cacheFileData();
    // Unchanged (the usual case: the same goals, teams, people as last time), and found by its alias: no write.
    if ((alias === undefined || profiles[alias] === key) && JSON.stringify(this.cached(apiUrl, token, kind)) === JSON.stringify(value)) return;
    const entries = this.cacheEntries();
    const next = { ...entries, [key]: { ...entries[key], [kind]: value } };
    if (this.writeCache(next, alias === undefined ? profiles : { ...profiles, [alias]: key })) await this.dropLegacy('cache');
  }

  /** Replaces all that is cached for the account of `token` at `apiUrl` (login: only `me`), or forgets it (logout: undefined). */
  async replaceCache(apiUrl: string, token: string, entry: CacheEntry | undefined): Promise<void> {
    const key = this.keyOf(apiUrl, token);
    const entries = this.cacheEntries();
    const alias = this.keychainAlias(apiUrl, token);
    let profiles = this.cacheFileData().profiles;
    if (entry) {
      entries[key] = entry;
      if (alias !== undefined) profiles = { ...profiles, [alias]: key };
    } else if (key in entries) {
      delete entries[key];
      // No alias leads to an entry that is gone.
      profiles = Object.fromEntries(Object.entries(profiles).filter(([, k]) => k !== key));
    } else return;
    if (this.writeCache(entries, profiles)) await this.dropLegacy('cache');
    // Not written (a read-only folder): an earlier version's copy in config.json is dropped there.
    else if (this.read().cache?.[key]) await this.update((c) => void delete c.cache?.[key]).catch(() => undefined);
  }

  /** Writes cache.json (no fsync: a cache lost in a crash is only asked again); false when it cannot. */
  private writeCache(cache: Record<string, CacheEntry>, profiles: Record<string, string>): boolean {
    this.cacheData = { cache, profiles };
    try {
      writeDurably(this.cacheFile, JSON.stringify(Object.keys(profiles).length > 0 ? this.cacheData : { cache }) + '\n', { sync: false });
      return true;
    } catch {
      return false; // kept for this run only
    }
  }

  /** `checkin inbox`'s marker for this key (API URL and person), if any. */
  inboxMarker(key: string): InboxMarker | undefined {
    // Read anew each time (a small file): a long-lived `checkin mcp` sees the looks a terminal made
    // since it started. Only a marker this run could not write is kept from memory.
    return { ...recordOf<InboxMarker>(this.read().inbox), ...recordOf<InboxMarker>(this.readOwn(this.stateFile).inbox), ...this.unwritten }[key];
  }

  /**
   * Best effort, like the cache: a marker that cannot be written means the same items show again.
   * The listings are the file's as it is now (whatever `marker` holds of them), with `listing` put
   * in as this terminal's last: a run that read the marker earlier never drops another's listing.
   */
  async setInboxMarker(key: string, marker: InboxMarker, listing?: { terminal: string; listing: InboxListing }): Promise<void> {
    return this.putInboxMarker(key, marker, listing);
  }

  /**
   * `checkin notify`'s place in the marker (domain/notices.ts), the rest as the file has it now. Only
   * this writes it: another run's marker (status, inbox) read before notify moved its place keeps it.
   */
  async setNotifyMarker(key: string, notify: NotifyMarker): Promise<void> {
    return this.putInboxMarker(key, { ...this.inboxMarker(key), notify }, undefined, true);
  }

  private async putInboxMarker(key: string, marker: InboxMarker, listing?: { terminal: string; listing: InboxListing }, ownNotify = false): Promise<void> {
    // Re-read just before writing: another run may have moved its own marker in since.
    const now = recordOf<InboxMarker>(this.readOwn(this.stateFile).inbox);
    const all = { ...recordOf<InboxMarker>(this.read().inbox), ...now, ...this.unwritten };
    const listings = recordOf<InboxListing>(all[key]?.listings);
    if (listing) {
      delete listings[listing.terminal];
      listings[listing.terminal] = listing.listing;
    }
    // The newest MAX_LISTINGS, by when they were shown.
    const kept = Object.entries(listings)
      .filter(([, l]) => typeof l?.at === 'string' && Array.isArray(l.items))
      .sort(([, a], [, b]) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
      .slice(0, MAX_LISTINGS);
    // An earlier version's one listing for every terminal (`listed`) is not carried on.
    const { listings: _mine, listed: _old, notify: carried, ...rest } = marker as InboxMarker & { listed?: unknown };
    const notify = ownNotify ? carried : all[key]?.notify;
    const next: StateFile = {
      inbox: {
        ...all,
        [key]: { ...rest, ...(notify && { notify }), ...(kept.length > 0 && { listings: Object.fromEntries(kept) }) },
      },
    };
    try {
      writeDurably(this.stateFile, JSON.stringify(next, null, 2) + '\n');
      this.unwritten = {};
    } catch {
      this.unwritten[key] = next.inbox![key]!;
      return;
    }
    await this.dropLegacy('inbox');
  }

  /** Once what an earlier version kept in config.json is written to its own file, it leaves config.json. */
  private async dropLegacy(field: 'cache' | 'inbox'): Promise<void> {
    if (this.read()[field] === undefined) return;
    try {
      await this.update((c) => {
        delete c[field];
      });
    } catch {
      // stays there, and is still read under the new file's
    }
  }

  /**
   * Changes the profile in use (and the shared settings) as `mutate` changes what read() gives:
   * each key goes back where it belongs (./profiles.ts), so a command never writes another profile's.
   */
  async update(mutate: (config: StoredConfig) => void): Promise<void> {
    const name = this.profile.name;
    await this.updateFile((file) => {
      const { profile: _default, profiles, ...shared } = file;
      const view = { ...shared, ...profiles[name] } as StoredConfig & Record<string, unknown>;
      mutate(view);
      for (const key of Object.keys(shared)) delete file[key];
      const own: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(view)) {
        if (PROFILE_KEYS.includes(key)) own[key] = value;
        else file[key] = value;
      }
      // A profile that holds nothing and was not there is not made by a shared setting's change.
      if (Object.keys(own).length > 0 || name in profiles) profiles[name] = own;
    });
  }

  /** Changes config.json as a whole; it stays mode 0600 (it holds tokens). */
  async updateFile(mutate: (file: ConfigFile) => void): Promise<void> {
    this.readFile();
    if (this.damaged) {
      const aside = `${this.file}.damaged-${Date.now()}`;
      try {
        renameSync(this.file, aside);
        this.warn(`the damaged ${this.file} was set aside as ${aside}`);
      } catch (err) {
        throw new CliError(`Cannot set the damaged ${this.file} aside: ${(err as Error).message}`);
      }
      this.damaged = undefined;
    }
    // Read afresh (another run may have changed it since), changed, and written whole: a new file
    // (mode 0600: it may hold the token) renamed over the old one.
    const next = configFileOf(structuredClone(readJson(this.file).value));
    mutate(next);
    if (Object.keys(next.profiles).length === 0) delete (next as Partial<ConfigFile>).profiles;
    try {
      // The folder holds the token: only its owner may look inside (an existing one is left as it is).
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeDurably(this.file, JSON.stringify(next, undefined, '\t'));
    } catch (err) {
      throw new CliError(
        `Cannot write ${this.file} (${fsReason(err)})`,
        EXIT.FAILURE,
        'Make that folder writable, or set CHECKIN_CONFIG_DIR to a folder you can write.',
      );
    }
    this.whole = next;
  }
}

/** The keychain entry that holds a profile's token, when config.json says it is there. */
export function keychainAccount(stored: StoredConfig): string | undefined {
  if (stored.token_store !== 'keychain' || !stored.api_url) return undefined;
  return stored.keychain_account ?? normalizeApiUrl(stored.api_url);
}
