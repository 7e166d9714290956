// Short ids accepted wherever a whole one is (as git takes the start of a hash): the start of a
// check-in's, a goal's or a goal update's UUID, resolved against what this run or an earlier one
// listed (cache.json), else one list request; an ambiguous start names its candidates, an unknown
// one says so (the face adds what to run). Both faces call it.

import { listCheckIns, listGoals } from '../api/endpoints.js';
import { MAX_PER_PAGE, UUID_RE } from '../api/types.js';
import type { CacheEntry } from '../config/store.js';
import { loggedInToken, type Context } from '../context.js';
import { isIdPrefix, matchPrefix, shortIds, type IdKind } from '../core/short-ids.js';
import { terminal, UsageError } from '../errors.js';
import { uuidOf } from './goal-updates.js';
import { sanitizeLine } from '../ui/sanitize.js';

export type { IdKind };

/** How many ids of each kind are remembered of what was listed (the newest). */
export const SHOWN_MAX = 500;

/** What a listing of each kind shows, for the face's command that lists them (AdviceWords `listIds`). */
const LISTED: Record<IdKind, string> = { 'check-in': 'check-ins', goal: 'goals', 'goal update': "a goal's updates" };

/** The start of an id that names no id known (after the list request, where there is one); `lists` is what the face runs to list them. */
export class UnknownIdError extends UsageError {
  constructor(
    readonly kind: IdKind,
    readonly prefix: string,
    lists?: string,
  ) {
    super(
      `No ${kind} id starts with "${prefix}"`,
      ...(lists ? [terminal(`\`${lists}\` shows ${LISTED[kind]} with their ids; give one, or the start of one.`)] : []),
    );
  }
}

/** The start of an id that names several: each is named (short, with what it is where known). */
export class AmbiguousIdError extends UsageError {
  constructor(
    readonly kind: IdKind,
    readonly prefix: string,
    readonly candidates: Array<{ id: string; label?: string }>,
  ) {
    const shorts = shortIds(candidates.map((c) => c.id));
    super(
      `"${prefix}" is the start of ${candidates.length} ${kind} ids: ${candidates.map((c) => shorts.get(c.id) + (c.label ? ` (${c.label})` : '')).join(', ')}`,
      'Give more of the id.',
    );
  }
}

type Known = Array<{ id: string; label?: string }>;

const SHOWN_KEY = { 'check-in': 'check_ins', 'goal update': 'goal_updates' } as const;

/** Remembers ids just listed (newest first), for resolving their short forms later (best effort). */
export async function rememberShown(ctx: Context, kind: 'check-in' | 'goal update', ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const api = await ctx.api();
  const token = loggedInToken(ctx).value;
  const shown: NonNullable<CacheEntry['shown']> = { ...ctx.config().cached(api.baseUrl, token, 'shown') };
  const key = SHOWN_KEY[kind];
  const fresh = new Set(ids.map((id) => id.toLowerCase()));
  shown[key] = [...fresh, ...(shown[key] ?? []).filter((id) => !fresh.has(id))].slice(0, SHOWN_MAX);
  await ctx.config().cache(api.baseUrl, token, 'shown', shown);
}

function cachedKnown(ctx: Context, baseUrl: string, kind: IdKind): Known {
  const token = loggedInToken(ctx).value;
  if (kind === 'goal') return (ctx.config().cached(baseUrl, token, 'goals') ?? []).map((g) => ({ id: g.id, label: sanitizeLine(g.title) }));
  return (ctx.config().cached(baseUrl, token, 'shown')?.[SHOWN_KEY[kind]] ?? []).map((id) => ({ id }));
}

/** One list request: the newest page of goals or check-ins the token can see; goal updates have no such list (null). */
async function listed(ctx: Context, kind: IdKind): Promise<Known | null> {
  const api = await ctx.api();
  const token = loggedInToken(ctx).value;
  if (kind === 'goal') {
    const goals = await listGoals(api, { per_page: MAX_PER_PAGE });
    const old = ctx.config().cached(api.baseUrl, token, 'goals') ?? [];
    const ids = new Set(goals.map((g) => g.id));
    await ctx
      .config()
      .cache(api.baseUrl, token, 'goals', [...goals.map((g) => ({ id: g.id, title: g.title })), ...old.filter((g) => !ids.has(g.id))].slice(0, SHOWN_MAX));
    return goals.map((g) => ({ id: g.id, label: sanitizeLine(g.title) }));
  }
  if (kind === 'check-in') {
    const list = await listCheckIns(api, { per_page: MAX_PER_PAGE });
    await rememberShown(
      ctx,
      'check-in',
      list.map((c) => c.id),
    );
    return list.map((c) => ({ id: c.id, label: `${c.date} ${sanitizeLine(c.person?.name ?? '')}`.trim() }));
  }
  return null;
}

function pick(kind: IdKind, prefix: string, known: Known): string | undefined {
  const ids = matchPrefix(
    prefix,
    known.map((k) => k.id),
  );
  if (ids.length === 1) return ids[0];
  if (ids.length > 1)
    throw new AmbiguousIdError(
      kind,
      prefix,
      ids.map((id) => ({ id, label: known.find((k) => k.id.toLowerCase() === id)?.label })),
    );
  return undefined;
}

/** True when `input` could be the start of an id (hex, dashes where a UUID has them, 4 or more characters). */
export const looksLikeIdStart = isIdPrefix;

/**
 * The whole id `input` names: a UUID as it is (lower-cased, no request); the start of one from
 * what was listed before (no request), else from one list request (goals, check-ins). Throws
 * AmbiguousIdError or UnknownIdError (exit 2); `input` must be a UUID or look like the start of one.
 */
export async function resolveId(ctx: Context, kind: IdKind, input: string, opts: { cacheOnly?: boolean } = {}): Promise<string> {
  const v = input.trim();
  if (UUID_RE.test(v)) return v.toLowerCase();
  const prefix = v.toLowerCase();
  const api = await ctx.api();
  const fromCache = pick(kind, prefix, cachedKnown(ctx, api.baseUrl, kind));
  if (fromCache) return fromCache;
  // A command about to keep typed words sends nothing before they are on disk: what was listed before, or nothing.
  if (opts.cacheOnly) throw new UnknownIdError(kind, prefix, ctx.advice?.listIds(kind));
  const fresh = await listed(ctx, kind);
  const found = fresh && pick(kind, prefix, fresh);
  if (found) return found;
  throw new UnknownIdError(kind, prefix, ctx.advice?.listIds(kind));
}

/**
 * A goal's or an update's id, lower-cased, for both faces: a UUID, or its start as `goals` / `goal
 * update list` showed it (resolved as resolveId does); anything else is refused naming `what`.
 */
export async function goalIdOf(ctx: Context, value: string, what: 'The goal id' | 'The update id', opts: { cacheOnly?: boolean } = {}): Promise<string> {
  if (!looksLikeIdStart(value)) return uuidOf(value, what);
  return await resolveId(ctx, what === 'The goal id' ? 'goal' : 'goal update', value, opts);
}
