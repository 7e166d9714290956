// Turning what users type into what the service needs: keys into dates or UUIDs, `me`, names
// and @usernames into UUIDs (through the cached me and a cached directory of people and teams).

import { listCheckIns } from '../api/endpoints.js';
import { fetchAll } from '../api/paginate.js';
import { UUID_RE, type CheckIn, type Person, type Team } from '../api/types.js';
import type { Directory } from '../config/store.js';
import type { Context } from '../context.js';
import { addDays, localDateKey } from '../core/datekey.js';
import { parseKey, parseRangeDay } from '../core/keys.js';
import { nearMatches } from '../core/match.js';
import { UsageError } from '../errors.js';
import { sanitizeLine } from '../ui/sanitize.js';
import type { Target } from './fill.js';

export function today(ctx: Context): string {
  return localDateKey(ctx.now());
}

export function rangeDay(ctx: Context, value: string | undefined, flag: string): string | undefined {
  return value === undefined ? undefined : parseRangeDay(value, today(ctx), flag);
}

/** A check-in key as the path takes it; `last` costs one list request. */
export async function resolveCheckInKey(ctx: Context, input: string): Promise<Target> {
  const t = today(ctx);
  const key = parseKey(input, t);
  const resumeCommand = `checkin checkin ${input}`;
  if (key.kind === 'uuid') return { key: key.id, label: key.id, resumeCommand };
  if (key.kind === 'date') return { key: key.date, label: key.date === t ? `today (${t})` : key.date, resumeCommand: `checkin checkin ${key.date}` };
  const last = await lastCheckIn(ctx);
  return { key: last.date, label: last.date, resumeCommand: `checkin checkin ${last.date}`, known: last };
}

/** My most recent check-in before today (one list request). */
export async function lastCheckIn(ctx: Context): Promise<CheckIn> {
  const me = await ctx.me();
  const [last] = await listCheckIns(await ctx.api(), { people_ids: [me.id], until: addDays(today(ctx), -1), per_page: 1 });
  if (!last) throw new UsageError('You have no check-in before today');
  return last;
}

/** Splits repeated and comma-separated values: --person a,b --person c → [a, b, c]. */
export function splitValues(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

async function directory(ctx: Context, refresh: boolean): Promise<{ dir: Directory; fresh: boolean }> {
  const cfg = ctx.config();
  const api = await ctx.api();
  const token = cfg.token()!.value;
  const cached = refresh ? undefined : cfg.cachedDirectory(api.baseUrl, token);
  if (cached) return { dir: cached, fresh: false };
  const [people, teams] = await Promise.all([fetchAll<Person>(api, 'people', {}), fetchAll<Team>(api, 'teams', {})]);
  const dir: Directory = {
    people: people.map((p) => ({ id: p.id, name: p.name, username: p.username })),
    teams: teams.map((t) => ({ id: t.id, name: t.name })),
    fetched_at: ctx.now().toISOString(),
  };
  await cfg.cacheDirectory(api.baseUrl, token, dir);
  return { dir, fresh: true };
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
    throw new UsageError(`Several ${what === 'person' ? 'people' : 'teams'} match "${wanted}": ${hits.map((h) => `${sanitizeLine(h.name)} (${h.id})`).join(', ')}; give a UUID`);
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
    else if (v.toLowerCase() === 'me' || v.toLowerCase() === 'self') ids.push((await ctx.me()).id);
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
    const mine = (await ctx.me()).teams.filter((t) => t.name.toLowerCase() === v.toLowerCase());
    ids.push(mine.length === 1 ? mine[0]!.id : await lookUp(ctx, 'team', v, (d) => d.teams));
  }
  return [...new Set(ids)];
}
