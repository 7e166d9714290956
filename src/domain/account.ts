// The account as the service knows it, cached on disk per API URL and token: who I am (`me`),
// and the people and teams whose names users type. One cache, read before any request; a name
// that is not found refreshes it once. Also: turning `me`, names and @usernames into UUIDs.

import { allPeople, allTeams, getMe } from '../api/endpoints.js';
import { UUID_RE, type GoalInput, type Me } from '../api/types.js';
import { cacheKey, keychainAccount, normalizeApiUrl, type CacheEntry, type CachedMe, type ConfigStore, type Directory } from '../config/store.js';
import { loggedInToken, type Context } from '../context.js';
import { nearMatches } from '../core/match.js';
import { UsageError } from '../errors.js';
import { sanitizeLine } from '../ui/sanitize.js';

export function toCachedMe(me: Me, now: Date): CachedMe {
  return {
    id: me.id,
    name: me.name,
    username: me.username ?? '',
    time_zone: me.time_zone ?? null,
    teams: (me.teams ?? []).map((t) => ({ id: t.id, name: t.name })),
    fetched_at: now.toISOString(),
  };
}

async function account(ctx: Context) {
  const api = await ctx.api();
  return { api, cfg: ctx.config(), token: loggedInToken(ctx).value };
}

/** A GET /me under way, per run: callers that start at once share it. */
const asking = new WeakMap<Context, Promise<CachedMe>>();

/** The authenticated person: from the cache when it holds one for this URL and token. */
export async function me(ctx: Context, opts: { refresh?: boolean } = {}): Promise<CachedMe> {
  const { api, cfg, token } = await account(ctx);
  const cached = opts.refresh ? undefined : cfg.cached(api.baseUrl, token, 'me');
  if (cached) return cached;
  const pending = asking.get(ctx);
  if (pending && !opts.refresh) return pending;
  const fresh = (async () => {
    const person = toCachedMe(await getMe(api), ctx.now());
    await cfg.cache(api.baseUrl, token, 'me', person);
    return person;
  })();
  asking.set(ctx, fresh);
  try {
    return await fresh;
  } finally {
    if (asking.get(ctx) === fresh) asking.delete(ctx);
  }
}

/**
 * The person as cached for this API URL and token, without a request: undefined when there is no
 * token or nothing is cached. `token`: the one in hand (else the configured one is read).
 */
export function cachedMe(ctx: Pick<Context, 'config'>, token: string | undefined = ctx.config().token()?.value): CachedMe | undefined {
  const cfg = ctx.config();
  return token ? cfg.cached(cfg.apiUrl().value, token, 'me') : undefined;
}

/**
 * What the cache holds for the configured service under any token, the entries merged (`me`
 * included): what completion offers, read without a request and without the keychain (a Tab or
 * an agent's completion must not wait on it), so the token's own entry cannot be told apart.
 */
export function cachedForService(ctx: Pick<Context, 'config'>): CacheEntry {
  try {
    const cfg = ctx.config();
    const prefix = `${normalizeApiUrl(cfg.apiUrl().value)} `;
    const entries = Object.entries(cfg.cacheEntries()).filter(([key]) => key.startsWith(prefix));
    return Object.assign({}, ...entries.map(([, entry]) => entry)) as CacheEntry;
  } catch {
    return {};
  }
}

/**
 * The cache key of a profile's account without asking the keychain: the token's when it is at hand
 * (the environment's, the file's), else the one that profile's token, read from the keychain, last
 * wrote (config/store.ts `keychainAccountKey`); undefined when neither is known.
 */
function accountKey(cfg: ConfigStore, profile: string, apiUrl: string, token: string | undefined): string | undefined {
  return token ? cacheKey(apiUrl, token) : cfg.keychainAccountKey(profile, apiUrl);
}

/**
 * This run's account as cached, found without the keychain (an agent's hook never asks it): its
 * service, its cache key and what is cached of it; undefined when the profile has no token.
 */
export function cachedAccount(ctx: Pick<Context, 'config'>): { apiUrl: string; key: string; entry: CacheEntry } | undefined {
  const cfg = ctx.config();
  const apiUrl = cfg.apiUrl().value;
  const token = cfg.token()?.value;
  if (!token && keychainAccount(cfg.read()) === undefined) return undefined;
  const key = accountKey(cfg, cfg.profile.name, apiUrl, token);
  return key === undefined ? undefined : { apiUrl, key, entry: cfg.cacheEntries()[key] ?? {} };
}

/**
 * Who a profile's token belongs to, as cached, without a request (`checkin auth status` of every
 * profile). The cache is keyed by the token's hash: a token in the file gives its key; one in the
 * keychain is not read for this: its entry is the one it last wrote, else (a cache written before
 * that was kept) the person is the one the cache knows at that service, when it knows only one.
 */
export function profileMe(cfg: ConfigStore, profile: string, apiUrl: string, token: string | undefined): CachedMe | undefined {
  const entries = cfg.cacheEntries();
  const key = accountKey(cfg, profile, apiUrl, token);
  if (key !== undefined) return entries[key]?.me;
  const prefix = `${normalizeApiUrl(apiUrl)} `;
  const people = new Map(
    Object.entries(entries)
      .filter(([key, entry]) => key.startsWith(prefix) && entry.me)
      .map(([, entry]) => [entry.me!.id, entry.me!]),
  );
  return people.size === 1 ? [...people.values()][0] : undefined;
}

/** Keeps the zone table worked out for the cached person's zone beside it (read back by `cachedMe`). */
export async function rememberZone(ctx: Context, person: CachedMe, zone: NonNullable<CachedMe['zone']>): Promise<void> {
  const api = await ctx.api();
  await ctx.config().cache(api.baseUrl, loggedInToken(ctx).value, 'me', { ...person, zone });
}

/** A new login: the account's cache starts afresh with the person GET /me just answered. */
export async function startAccountCache(cfg: ConfigStore, apiUrl: string, token: string, person: Me, now: Date): Promise<void> {
  await cfg.replaceCache(apiUrl, token, { me: toCachedMe(person, now) });
}

async function directory(ctx: Context, refresh: boolean): Promise<{ dir: Directory; fresh: boolean }> {
  const { api, cfg, token } = await account(ctx);
  const cached = refresh ? undefined : cfg.cached(api.baseUrl, token, 'directory');
  if (cached) return { dir: cached, fresh: false };
  const [people, teams] = await Promise.all([allPeople(api), allTeams(api)]);
  const dir: Directory = {
    people: people.map((p) => ({
      id: p.id,
      name: p.name,
      username: p.username ?? '',
      ...(p.teams && { team_ids: p.teams.map((t) => t.id) }),
      ...(p.time_zone && { time_zone: p.time_zone }),
    })),
    teams: teams.map((t) => ({ id: t.id, name: t.name })),
    fetched_at: ctx.now().toISOString(),
  };
  await cfg.cache(api.baseUrl, token, 'directory', dir);
  return { dir, fresh: true };
}

/**
 * Everyone in the account with their @username and teams, from the cached directory (GET /people
 * and /teams when there is none, or with `refresh`); `fresh`: it was just asked for.
 */
export async function directoryPeople(
  ctx: Context,
  opts: { refresh?: boolean } = {},
): Promise<{ people: Directory['people']; fresh: boolean; fetchedAt: string }> {
  const { dir, fresh } = await directory(ctx, Boolean(opts.refresh));
  return { people: dir.people, fresh, fetchedAt: dir.fetched_at };
}

/** Splits repeated and comma-separated values: --person a,b --person c → [a, b, c]. */
export function splitValues(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

type Entry = { id: string; name: string; username?: string };

/** Looks names up in the cache; on a miss, once more in a fresh directory; then says which, with near matches. */
async function lookUp(ctx: Context, what: 'person' | 'team', wanted: string, pick: (d: Directory) => Entry[]): Promise<string> {
  const find = (entries: Entry[]) => {
    const w = wanted.replace(/^@/, '').toLowerCase();
    const byUser = entries.filter((e) => e.username?.toLowerCase() === w);
    return byUser.length ? byUser : entries.filter((e) => e.name.toLowerCase() === wanted.toLowerCase());
  };
  const first = await directory(ctx, false);
  let entries = pick(first.dir);
  let hits = find(entries);
  if (hits.length === 0 && !first.fresh) {
    // Someone may have joined since the cache was made: look once more in a fresh directory.
    entries = pick((await directory(ctx, true)).dir);
    hits = find(entries);
  }
  if (hits.length === 1) return hits[0]!.id;
  if (hits.length > 1) {
    throw new UsageError(
      `Several ${what === 'person' ? 'people' : 'teams'} match "${wanted}": ${hits.map((h) => `${sanitizeLine(h.name)} (${h.id})`).join(', ')}; give a UUID`,
    );
  }
  const labels = entries.map((e) => (e.username ? `${sanitizeLine(e.name)} (@${sanitizeLine(e.username)})` : sanitizeLine(e.name)));
  const near = nearMatches(wanted, labels);
  throw new UsageError(`No ${what} named "${wanted}"${near.length ? `. Did you mean ${near.join(', ')}?` : ''}`);
}

/** --person values: UUID, `me` (the cached id: the literal is never sent), a name or @username. */
export async function resolvePeople(ctx: Context, values: string[] | undefined): Promise<string[]> {
  const ids: string[] = [];
  for (const v of splitValues(values)) {
    if (UUID_RE.test(v)) ids.push(v.toLowerCase());
    else if (v.toLowerCase() === 'me' || v.toLowerCase() === 'self') ids.push((await me(ctx)).id);
    else ids.push(await lookUp(ctx, 'person', v, (d) => d.people));
  }
  return [...new Set(ids)];
}

/** --team values: UUID, or a name — my own teams first (from the cached me), then every team. */
export async function resolveTeams(ctx: Context, values: string[] | undefined): Promise<string[]> {
  const ids: string[] = [];
  for (const v of splitValues(values)) {
    if (UUID_RE.test(v)) {
      ids.push(v.toLowerCase());
      continue;
    }
    const mine = (await me(ctx)).teams.filter((t) => t.name.toLowerCase() === v.toLowerCase());
    ids.push(mine.length === 1 ? mine[0]!.id : await lookUp(ctx, 'team', v, (d) => d.teams));
  }
  return [...new Set(ids)];
}

/**
 * The body as the service takes it: people (`me`, names, @usernames) and teams (names) in
 * owner_id, contributor_ids and team_ids turned into UUIDs — from the cached account, one look-up
 * at most. UUIDs and everything else are sent as given.
 */
export async function resolveGoalNames(ctx: Context, input: GoalInput): Promise<GoalInput> {
  const out: GoalInput = { ...input };
  const named = (v: unknown): v is string => typeof v === 'string' && !UUID_RE.test(v);
  if (named(input.owner_id)) out.owner_id = (await resolvePeople(ctx, [input.owner_id]))[0]!;
  const people = (values: unknown) => (Array.isArray(values) && values.some(named) ? resolveEach(values, (v) => resolvePeople(ctx, [v])) : undefined);
  const teams = (values: unknown) => (Array.isArray(values) && values.some(named) ? resolveEach(values, (v) => resolveTeams(ctx, [v])) : undefined);
  const contributors = await people(input.contributor_ids);
  if (contributors) out.contributor_ids = contributors;
  const teamIds = await teams(input.team_ids);
  if (teamIds) out.team_ids = teamIds;
  return out;
}

/** Each value that is a name resolved (UUIDs and what is not a string kept as they are), duplicates dropped. */
async function resolveEach(values: unknown[], one: (v: string) => Promise<string[]>): Promise<string[]> {
  const out: unknown[] = [];
  for (const v of values) out.push(typeof v === 'string' && !UUID_RE.test(v) ? (await one(v))[0] : typeof v === 'string' ? v.toLowerCase() : v);
  return [...new Set(out)] as string[];
}
