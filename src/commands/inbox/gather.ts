// What happened to my check-ins and goal updates: the comments and reactions others left on them.
// Shared by `checkin inbox` (the list, replies) and `checkin status` (one line about unread ones).
//
// Requests: my check-ins of the period (one list, paged), my goals (one list) and each goal's
// newest updates (one each), then the comments and the reactions of each check-in and update of
// mine in the period (two each, overlapped within the rate budget). For a week of daily
// check-ins and no goals: 1 + 1 + 2 × 5 = 12.

import { allCheckIns, allGoals, newestCommentsAndReactionsOf, newestUpdatesOf, type Commentable } from '../../api/endpoints.js';
import type { Ref } from '../../api/types.js';
import { normalizeApiUrl, type InboxMarker } from '../../config/store.js';
import type { Context } from '../../context.js';
import { addDays } from '../../core/datekey.js';
import { me } from '../../services/account.js';
import { today } from '../../services/days.js';

/** How far back an inbox looks when no --since is given: check-ins and updates of the last two weeks. */
export const INBOX_DAYS = 14;

export interface InboxItem {
  kind: 'comment' | 'reaction';
  id: string;
  person: Ref;
  created_at: string;
  /** The comment's Markdown; for a reaction its emoji and name. */
  body?: string;
  emoji?: string;
  name?: string;
}

export interface InboxThread {
  on: Commentable;
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

/** Where the marker of this account is kept: per API URL and person. */
export async function inboxKey(ctx: Context): Promise<string> {
  const api = await ctx.api();
  const person = await me(ctx);
  return `${normalizeApiUrl(api.baseUrl)} ${person.id}`;
}

export function readMarker(ctx: Context, key: string): InboxMarker | undefined {
  return ctx.config().read().inbox?.[key];
}

/** Best effort, like the cache: a marker that cannot be written means the same items show again. */
export async function writeMarker(ctx: Context, key: string, marker: InboxMarker): Promise<void> {
  try {
    await ctx.config().update((c) => {
      c.inbox = { ...c.inbox, [key]: marker };
    });
  } catch {
    // shown again next time
  }
}

/**
 * The comments and reactions of others on my check-ins and goal updates from `since` on (default:
 * the last INBOX_DAYS days), newest thread first and newest item first; only those after `seenAt`
 * when it is given (`inbox --all` leaves it out).
 */
export async function gatherInbox(ctx: Context, opts: { since?: string; seenAt?: string; onPause?: (ms: number) => void }): Promise<Inbox> {
  const api = await ctx.api();
  const person = await me(ctx);
  const since = opts.since ?? addDays(await today(ctx), -(INBOX_DAYS - 1));
  const [checkIns, goals] = await Promise.all([allCheckIns(api, { people_ids: [person.id], since }), allGoals(api, { people_ids: [person.id] })]);
  const updateLists = await newestUpdatesOf(api, goals.map((g) => g.id), opts);
  const threads: InboxThread[] = [
    ...checkIns.filter((c) => c.person?.id === person.id && c.completed_at).map((c) => ({ on: { kind: 'check-in' as const, id: c.id }, date: c.date, url: c.url, items: [] })),
    ...updateLists
      .flat()
      .filter((u) => u.person?.id === person.id && u.created_at.slice(0, 10) >= since)
      .map((u) => ({ on: { kind: 'goal-update' as const, id: u.id }, title: u.title, url: u.url, items: [] })),
  ];
  // The comments and reactions of every thread, in one budget.
  const lists = await newestCommentsAndReactionsOf(api, threads.map((t) => t.on), opts);
  const comments = lists.map((l) => l.comments);
  const reactions = lists.map((l) => l.reactions);
  let newest: string | undefined;
  threads.forEach((t, i) => {
    const all: InboxItem[] = [
      ...comments[i]!.map((c) => ({ kind: 'comment' as const, id: c.id, person: c.person, created_at: c.created_at, body: c.body })),
      ...reactions[i]!.map((r) => ({ kind: 'reaction' as const, id: r.id, person: r.person, created_at: r.created_at, emoji: r.emoji, name: r.name })),
    ].filter((item) => item.person?.id !== person.id);
    for (const item of all) if (!newest || item.created_at > newest) newest = item.created_at;
    t.items = all.filter((item) => !opts.seenAt || item.created_at > opts.seenAt).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  });
  const shown = threads.filter((t) => t.items.length > 0).sort((a, b) => (a.items[0]!.created_at < b.items[0]!.created_at ? 1 : -1));
  return { since, ...(opts.seenAt && { seenAt: opts.seenAt }), threads: shown, ...(newest && { newest }) };
}
