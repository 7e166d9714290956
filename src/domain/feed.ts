// What is new for the person since a time: the service's own feed (GET /digest, every category:
// comments on my things and @mentions of me, my teams' check-ins, others' updates of my goals),
// newest first. Requests: GET /digest?since=…&per_page=… — one page for up to 50 entries, more
// only while pages come back full and more were asked for. A service without a digest (404) gets
// my teams' check-ins since then instead (one list, GET /check-ins?since=&team_ids[]=…), and says so.
import { allCheckIns, digestPage, type Commentable } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { MAX_PER_PAGE, type DigestEntry } from '../api/types.js';
import type { Feed, FeedItem } from '../core/shapes.js';
import type { Context } from '../context.js';
import { SECTIONS } from '../core/checkin-answers.js';
import { UsageError } from '../errors.js';
import { me } from './account.js';
import { rangeDay } from './days.js';

/** The most entries one read of the feed returns. */
export const MAX_FEED_ENTRIES = 200;

/** The feed and its entries: core/shapes.ts FEED and FEED_ITEM (what the agent's feed answers with). */
export type { Feed, FeedItem };

const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/;

/**
 * The start of a feed: an ISO 8601 instant as given, or a day (a date or day word: its start, UTC
 * midnight, as the inbox counts days). `name` is the asker's word for it, for the error.
 */
export async function feedStart(ctx: Context, value: string, name: string): Promise<string> {
  if (INSTANT.test(value)) {
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) throw new UsageError(`${name} ${JSON.stringify(value)} is not a time`);
    return at.toISOString();
  }
  return `${await rangeDay(ctx, value, name)}T00:00:00.000Z`;
}

/** What a reply to a feed entry goes on: the last UUID of its link, a goal update's or a check-in's. */
function replyOn(e: DigestEntry): Commentable | undefined {
  const url = e.resource?.url ?? '';
  const id = [...url.matchAll(UUID_IN)].at(-1)?.[0];
  if (!id) return undefined;
  return { kind: e.resource?.goal || /goal[_-]updates?\//.test(url) ? 'goal-update' : 'check-in', id: id.toLowerCase() };
}

/** The feed from `since` (an ISO instant), newest first, at most `limit` entries (default 50). */
export async function readFeed(ctx: Context, input: { since: string; limit?: number }): Promise<Feed> {
  const limit = Math.max(1, Math.min(input.limit ?? MAX_PER_PAGE, MAX_FEED_ENTRIES));
  const perPage = Math.min(limit, MAX_PER_PAGE);
  const api = await ctx.api();
  const entries: DigestEntry[] = [];
  try {
    for (let page = 1; entries.length < limit; page++) {
      const answer = await digestPage(api, { since: input.since, page, per_page: perPage });
      if (answer === 'unchanged') break;
      entries.push(...answer.data);
      if (answer.data.length < perPage) break;
    }
  } catch (err) {
    if (!(err instanceof ApiError && err.notFound)) throw err;
    return fromCheckIns(ctx, input.since, limit);
  }
  const items = entries.slice(0, limit).map((e): FeedItem => {
    const r = e.resource;
    const on = replyOn(e);
    return {
      id: e.id,
      category: e.category,
      published_at: e.published_at,
      by: r?.person ?? null,
      title: r?.title ?? null,
      body: r?.body ?? null,
      url: r?.url ?? null,
      goal: r?.goal ? { id: r.goal.id, title: r.goal.title ?? null } : null,
      ...(on && { reply_on: { type: on.kind, id: on.id } }),
    };
  });
  return { since: input.since, source: 'digest', items, more_may_follow: entries.length >= limit };
}

/** Without a digest: my teams' filled-in check-ins (not mine) from the day `since` falls on. */
async function fromCheckIns(ctx: Context, since: string, limit: number): Promise<Feed> {
  const person = await me(ctx);
  const teamIds = person.teams.map((t) => t.id);
  if (teamIds.length === 0) return { since, source: 'check-ins', items: [], more_may_follow: false };
  const seen = new Set<string>();
  const list = (await allCheckIns(await ctx.api(), { since: since.slice(0, 10), team_ids: teamIds }))
    .filter((c) => !seen.has(c.id) && seen.add(c.id))
    .filter((c) => c.person?.id !== person.id && c.completed_at && c.completed_at >= since)
    .sort((a, b) => ((a.completed_at ?? '') < (b.completed_at ?? '') ? 1 : -1));
  const items = list.slice(0, limit).map((c): FeedItem => ({
    id: c.id,
    category: 'check-in',
    published_at: c.completed_at!,
    by: c.person ?? null,
    title: `${c.person?.name ?? 'Someone'}'s check-in for ${c.date}`,
    body:
      SECTIONS.map((s) => [s.title, c[s.field]] as const)
        .filter(([, t]) => t && t.trim() !== '')
        .map(([q, t]) => `**${q}**\n${t}`)
        .join('\n\n') || null,
    url: c.url ?? null,
    goal: null,
    reply_on: { type: 'check-in', id: c.id },
  }));
  return { since, source: 'check-ins', items, more_may_follow: list.length > limit };
}
