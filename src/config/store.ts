// Where checkin keeps its settings, the cached `me` and drafts — with `conf`.
// Reads are a plain JSON read of conf's file (start-up stays lean); conf is loaded only to write.
// Location: $CHECKIN_CONFIG_DIR, else $XDG_CONFIG_HOME/checkin, else ~/.config/checkin (every OS).

import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_API_URL, type Ref } from '../api/types.js';

export interface CachedMe {
  id: string;
  name: string;
  username: string;
  teams: Ref[];
  fetched_at: string;
}

/** People and teams of the account, for resolving names; refreshed when a name is not found. */
export interface Directory {
  people: Array<{ id: string; name: string; username: string }>;
  teams: Ref[];
  fetched_at: string;
}

export interface StoredConfig {
  api_url?: string;
  token?: string;
  /** Cached `GET /me`, keyed by API URL + a hash of the token (see meKey). */
  me?: Record<string, CachedMe>;
  /** Cached /people and /teams, keyed like `me`. */
  directory?: Record<string, Directory>;
}

export interface Draft {
  /** What the draft is for, e.g. "check-in 2026-11-21". */
  target: string;
  api_url: string;
  saved_at: string;
  /** The typed content: check-in answers, a comment body… */
  content: Record<string, unknown>;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.CHECKIN_CONFIG_DIR) return env.CHECKIN_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'checkin');
  return join(env.HOME || homedir(), '.config', 'checkin');
}

/** Cache key of `me`: another token (or another service) never reuses someone else's id. */
export function meKey(apiUrl: string, token: string): string {
  // node:crypto is loaded only here, when `me` is needed: it costs start-up time otherwise.
  const { createHash } = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  return `${apiUrl.replace(/\/+$/, '')} ${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}

export type Source = 'flag' | 'env' | 'file' | 'default';
export interface Resolved<T> {
  value: T;
  source: Source;
  /** The environment variable it came from, when source is 'env'. */
  name?: string;
}

function readJson(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    throw new Error(`${file} is not valid JSON; fix it or delete it`);
  }
}

type ConfInstance = { store: Record<string, unknown>; path: string };

export class ConfigStore {
  readonly dir: string;
  private settings: StoredConfig | undefined;
  private drafts: Record<string, Draft> | undefined;

  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
  }

  get file(): string {
    return join(this.dir, 'config.json');
  }
  get draftsFile(): string {
    return join(this.dir, 'drafts.json');
  }

  read(): StoredConfig {
    return (this.settings ??= readJson(this.file) as StoredConfig);
  }

  /** flag > CHECKIN_TOKEN > STEADY_TOKEN > file. */
  token(flag?: string): Resolved<string> | undefined {
    if (flag !== undefined) return { value: flag, source: 'flag' };
    for (const name of ['CHECKIN_TOKEN', 'STEADY_TOKEN']) {
      const v = this.env[name];
      if (v !== undefined && v !== '') return { value: v.trim(), source: 'env', name };
    }
    const t = this.read().token;
    return t ? { value: t, source: 'file' } : undefined;
  }

  /** flag > CHECKIN_API_URL > file > https://service.steady.space/api/v2. */
  apiUrl(flag?: string): Resolved<string> {
    if (flag) return { value: flag, source: 'flag' };
    const v = this.env.CHECKIN_API_URL;
    if (v) return { value: v, source: 'env', name: 'CHECKIN_API_URL' };
    const f = this.read().api_url;
    return f ? { value: f, source: 'file' } : { value: DEFAULT_API_URL, source: 'default' };
  }

  cachedMe(apiUrl: string, token: string): CachedMe | undefined {
    return this.read().me?.[meKey(apiUrl, token)];
  }

  async cacheMe(apiUrl: string, token: string, me: CachedMe): Promise<void> {
    await this.update((c) => {
      c.me = { ...c.me, [meKey(apiUrl, token)]: me };
    });
  }

  cachedDirectory(apiUrl: string, token: string): Directory | undefined {
    return this.read().directory?.[meKey(apiUrl, token)];
  }

  async cacheDirectory(apiUrl: string, token: string, dir: Directory): Promise<void> {
    await this.update((c) => {
      c.directory = { ...c.directory, [meKey(apiUrl, token)]: dir };
    });
  }

  /** Changes the settings file through conf; the file stays mode 0600 (it holds the token). */
  async update(mutate: (config: StoredConfig) => void): Promise<void> {
    const conf = await this.open('config');
    const next = structuredClone(conf.store) as StoredConfig;
    mutate(next);
    conf.store = next as Record<string, unknown>;
    chmodSync(conf.path, 0o600);
    this.settings = next;
  }

  // ---- drafts: typed text kept until the service has accepted it ----
  private readDrafts(): Record<string, Draft> {
    return (this.drafts ??= readJson(this.draftsFile) as Record<string, Draft>);
  }

  draft(key: string): Draft | undefined {
    return this.readDrafts()[key];
  }

  async saveDraft(key: string, draft: Draft): Promise<void> {
    await this.writeDrafts((d) => {
      d[key] = draft;
    });
  }

  async deleteDraft(key: string): Promise<void> {
    if (!this.readDrafts()[key]) return;
    await this.writeDrafts((d) => {
      delete d[key];
    });
  }

  private async writeDrafts(mutate: (drafts: Record<string, Draft>) => void): Promise<void> {
    const conf = await this.open('drafts');
    const next = structuredClone(conf.store) as Record<string, Draft>;
    mutate(next);
    conf.store = next as Record<string, unknown>;
    chmodSync(conf.path, 0o600);
    this.drafts = next;
  }

  private async open(configName: string): Promise<ConfInstance> {
    const { default: Conf } = await import('conf');
    try {
      // The folder holds the token: only its owner may look inside (an existing one is left as it is).
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      return new Conf({ cwd: this.dir, configName, projectName: 'checkin', configFileMode: 0o600 }) as unknown as ConfInstance;
    } catch (err) {
      throw new Error(`Cannot open ${join(this.dir, configName + '.json')}: ${(err as Error).message}`);
    }
  }
}
