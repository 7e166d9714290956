// What happened to my check-ins and goal updates: the comments others left on them, and comments
// that @mention me anywhere. Shared by `checkin inbox` (the list, replies) and `checkin status`
// (the marker of what was seen).
//
// Requests: the service's own feed, GET /digest?category=comment from the seen-marker (or the
// period's start) on — one page for most days, paged only while pages are full. A service without
// a digest (404) gets the walk instead: my check-ins of the period (one list), my goals (one list)
// and each goal's newest updates, then the comments and the reactions of each check-in and update
// (two each, overlapped within the rate budget) — for a week of daily check-ins, 1 + 1 + 2 × 5 = 12.

import { allCheckIns, allGoals, digestPage, newestCommentsAndReactionsOf, newestUpdatesOf, type Commentable } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { MAX_PER_PAGE, type DigestEntry } from '../api/types.js';
import { normalizeApiUrl, type InboxListing, type InboxMarker } from '../config/store.js';
import type { Context } from '../context.js';
import { addDays } from '../core/datekey.js';
import type { Infer } from '../api/validate.js';
import type { INBOX_ITEM, INBOX_THREAD } from '../core/shapes.js';
import { me } from './account.js';
import { today } from './days.js';

/** How far back an inbox looks when no --since is given: check-ins and updates of the last two weeks. */
export const INBOX_DAYS = 14;

/** A comment or reaction on one of my check-ins or goal updates: core/shapes.ts INBOX_ITEM. */
export type InboxItem = Infer<typeof INBOX_ITEM>;

export interface InboxThread {
  /** What a reply goes on; undefined when the feed's link does not say (the link is shown instead). */
  on?: Commentable;
  /** The feed's own title for it (the digest), used as it is. */
  label?: string;
  /** The check-in's date, or the goal update's title. */
  date?: string;
  title?: string;
  url?: string | null;
  items: InboxItem[];
}

export interface Inbox {
  since: string;
  threads: InboxThread[];
  /** The newest item of anyone but me, whether shown or not: the next marker. */
  newest?: string;
}

/** The threads as both faces print them (core/shapes.ts INBOX_THREAD); `numbered`: each item with its number in the listing (the CLI's `--reply <n>`). */
export function inboxThreads(inbox: Inbox, numbered = false): Array<Infer<typeof INBOX_THREAD>> {
  let n = 0;
  return inbox.threads.map((t) => ({
    type: t.on?.kind ?? null,
    id: t.on?.id ?? null,
    ...(t.date && { date: t.date }),
    ...(t.title && { title: t.title }),
    url: t.url ?? null,
    items: t.items.map((i) => (numbered ? { n: ++n, ...i } : i)),
  }));
}

/** Where the marker of this account is kept: per API URL and person. */
export async function inboxKey(ctx: Context): Promise<string> {
  const api = await ctx.api();
  const person = await me(ctx);
  return `${normalizeApiUrl(api.baseUrl)} ${person.id}`;
}

export function readMarker(ctx: Context, key: string): InboxMarker | undefined {
  return ctx.config().inboxMarker(key);
}

/**
 * Best effort, like the cache: a marker that cannot be written means the same items show again.
 * `listing`: the numbering just shown in a terminal (the others' listings are kept as they are).
 */
export async function writeMarker(ctx: Context, key: string, marker: InboxMarker, listing?: { terminal: string; listing: InboxListing }): Promise<void> {
  await ctx.config().setInboxMarker(key, marker, listing);
}

export interface GatherOptions {
  since?: string;
  seenAt?: string;
  onPause?: (ms: number) => void;
}

/** The most pages of the feed one inbox reads (50 entries each). */
const MAX_DIGEST_PAGES = 10;
const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Others' comments on my check-ins and goal updates (and @mentions of me) from `since` on (default:
 * the last INBOX_DAYS days), newest thread first and newest item first; only those after `seenAt`
 * when it is given (`inbox --all` leaves it out). From the feed; the walk where there is none.
 */
export async function gatherInbox(ctx: Context, opts: GatherOptions): Promise<Inbox> {
  try {
    return await fromDigest(ctx, opts);
  } catch (err) {
    if (!(err instanceof ApiError && err.notFound)) throw err;
  }
  return walkInbox(ctx, opts);
}

/** The thread a feed entry belongs to: a reply goes on the check-in or goal update its link names. */
function onOf(entry: DigestEntry): Commentable | undefined {
  const id = [...(entry.resource?.url ?? '').matchAll(UUID_IN)].at(-1)?.[0];
  if (!id) return undefined;
  return { kind: entry.resource?.goal ? 'goal-update' : 'check-in', id: id.toLowerCase() };
}

async function fromDigest(ctx: Context, opts: GatherOptions): Promise<Inbox> {
  const api = await ctx.api();
  const person = await me(ctx);
  const since = opts.since ?? addDays(await today(ctx), -(INBOX_DAYS - 1));
  const start = `${since}T00:00:00Z`;
  const from = opts.seenAt && opts.seenAt > start ? opts.seenAt : start;
  const entries: DigestEntry[] = [];
  for (let page = 1; page <= MAX_DIGEST_PAGES; page++) {
    const answer = await digestPage(api, { category: 'comment', since: from, page, per_page: MAX_PER_PAGE });
    if (answer === 'unchanged') break;
    entries.push(...answer.data);
    if (answer.data.length < MAX_PER_PAGE) break;
  }
  const threads = new Map<string, InboxThread>();
  let newest: string | undefined;
  for (const e of entries) {
    const r = e.resource;
    if (!r || r.person?.id === person.id || Number.isNaN(Date.parse(e.published_at))) continue;
    if (!newest || e.published_at > newest) newest = e.published_at;
    if ((opts.seenAt && e.published_at <= opts.seenAt) || e.published_at < start) continue;
    const on = onOf(e);
    const key = r.url ?? on?.id ?? e.id;
    let thread = threads.get(key);
    if (!thread) {
      thread = { ...(on && { on }), ...(r.title && { label: r.title }), url: r.url ?? null, items: [] };
      threads.set(key, thread);
    }
    thread.items.push({ kind: 'comment', id: e.id, person: r.person ?? { id: '', name: '' }, created_at: e.published_at, body: r.body ?? '' });
  }
  const shown = [...threads.values()];
  for (const t of shown) t.items.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  shown.sort((a, b) => (a.items[0]!.created_at < b.items[0]!.created_at ? 1 : -1));
  return { since, threads: shown, ...(newest && { newest }) };
}

/** The inbox without a feed: every check-in and goal update of mine in the period, and their comments and reactions. */
async function walkInbox(ctx: Context, opts: GatherOptions): Promise<Inbox> {
  const api = await ctx.api();
  const person = await me(ctx);
  const since = opts.since ?? addDays(await today(ctx), -(INBOX_DAYS - 1));
  const [checkIns, goals] = await Promise.all([allCheckIns(api, { people_ids: [person.id], since }), allGoals(api, { people_ids: [person.id] })]);
  const updateLists = await newestUpdatesOf(
    api,
    goals.map((g) => g.id),
    opts,
  );
  const threads: Array<InboxThread & { on: Commentable }> = [
    ...checkIns
      .filter((c) => c.person?.id === person.id && c.completed_at)
      .map((c) => ({ on: { kind: 'check-in' as const, id: c.id }, date: c.date, url: c.url, items: [] })),
    ...updateLists
      .flat()
      .filter((u) => u.person?.id === person.id && u.created_at.slice(0, 10) >= since)
      .map((u) => ({ on: { kind: 'goal-update' as const, id: u.id }, title: u.title, url: u.url, items: [] })),
  ];
  // The comments and reactions of every thread, in one budget.
  const lists = await newestCommentsAndReactionsOf(
    api,
    threads.map((t) => t.on),
    opts,
  );
  const comments = lists.map((l) => l.comments);
  const reactions = lists.map((l) => l.reactions);
  let newest: string | undefined;
  threads.forEach((t, i) => {
    const all: InboxItem[] = [
      ...comments[i]!.map((c) => ({ kind: 'comment' as const, id: c.id, person: c.person, created_at: c.created_at, body: c.body })),
      ...reactions[i]!.map((r) => ({ kind: 'reaction' as const, id: r.id, person: r.person, created_at: r.created_at, emoji: r.emoji, name: r.name })),
    ].filter((item) => item.person?.id !== person.id);
    for (const item of all) if (!newest || item.created_at > newest) newest = item.created_at;
    t.items = all
      .filter((item) => !opts.seenAt || item.created_at > opts.seenAt)
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  });
  const shown = threads.filter((t) => t.items.length > 0).sort((a, b) => (a.items[0]!.created_at < b.items[0]!.created_at ? 1 : -1));
  return { since, ...(opts.seenAt && { seenAt: opts.seenAt }), threads: shown, ...(newest && { newest }) };
}
