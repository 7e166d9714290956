// What is new for the person since `checkin notify` last looked, as data: others' comments on their
// check-ins and goal updates, @mentions of them, teammates newly blocked on them. Printing nothing
// and showing nothing: commands/notify/ words and shows it (system/notifier.ts).
//
// Requests, per look (the person's `me` known, as after the first run):
// - within quiet hours: none (the clock decides);
// - the first look of a day: GET /check-ins/<today> (with the ETag status keeps) — a day with
//   nothing scheduled, or one the person is marked absent, is then silent without any further
//   request until the next day;
// - then ONE GET /digest?category=comment&since=<marker>&per_page=1, with If-None-Match where the
//   service gave an ETag: when nothing is newer than the marker, that is all;
// - when something is: the inbox's reading (domain/inbox-gather.ts: one page of the feed for most days);
// - teammates blocked on me: at most once an hour (domain/blockers.ts, one or two requests).
// The marker is the inbox's own, per account (config/store.ts InboxMarker): a notice is never shown
// for what `checkin inbox` already showed, nor twice, nor for the person's own words.
import { digestPage } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { Commentable } from '../api/endpoints.js';
import type { NotifyMarker } from '../config/store.js';
import { fsReason } from '../config/files.js';
import { openNoticeClaims } from '../config/notice-claims.js';
import { checkinPaths } from '../config/paths.js';
import { loggedInToken, type Context } from '../context.js';
import { isDateKey } from '../core/datekey.js';
import { shortDay } from '../core/dayname.js';
import { webLink } from './web-link.js';
import { inQuietHours, type QuietHours } from '../core/quiet-hours.js';
import { cachedMe, me } from './account.js';
import { blockedOnMeKept } from './blockers.js';
import { startOfDay, today } from './days.js';
import { gatherInbox, inboxKey, readMarker, type InboxThread } from './inbox-gather.js';
import { todayState } from './today-state.js';
import { memberState } from '../core/member-states.js';
import { showingAtMostMs } from '../system/notifier.js';

/** Teammates blocked on me are asked at most this often. */
export const BLOCKED_EVERY_MS = 60 * 60_000;
/** The most notices one look shows: past it, the newest and one that counts the rest. */
export const MAX_NOTICES = 5;
/** How long a service that has no feed (404) is left alone. */
const NO_DIGEST_AGAIN_MS = 24 * 60 * 60_000;
/** How much of a comment a notice quotes. */
const QUOTE_CHARS = 140;
/**
 * How much of a name, or of what a notice is about (a goal update's title), a notice says: the
 * sentence stays short whatever the service sends (one too long for the notifier's argument would
 * fail every run, and none would be marked as seen).
 */
const NAME_CHARS = 80;
const ABOUT_CHARS = 160;

export type NoticeKind = 'comment' | 'mention' | 'blocked' | 'more';

/** One notice: the sentence shown, and what it is about (as data, for --json and agents). */
export interface Notice {
  kind: NoticeKind;
  /** The comment's id, or "<person id> <since>" for a blocker ('more': null). */
  id: string | null;
  /** When it happened (ISO), or the blocker's first day. */
  at: string;
  person: { id: string; name: string } | null;
  /** Which check-in or goal update, in words ("your check-in for Sat 21 Nov"). */
  about: string;
  /** The check-in or goal update it is on, where known. */
  on: Commentable | null;
  /**
   * Its page in the service's web app (what a click on the notice opens): the service's `url` for
   * it, checked by domain/web-link.ts (https, or http to this machine; no query, no user, never the
   * token); null when the service gave none fit to open, and for a blocker (the kept list has none).
   */
  url: string | null;
  /** The sentence: who, what, which check-in. Not yet sanitised (the face does, before showing). */
  text: string;
}

/** Why a look showed nothing without asking the service (or asked only whether today is scheduled). */
export type Silence = 'quiet-hours' | 'nothing-scheduled' | 'absent' | 'no-digest';

export interface Look {
  notices: Notice[];
  silent: Silence | null;
  /** What to write once the notices are shown (undefined: nothing to write). */
  next?: { key: string; notify: NotifyMarker };
}

/** The minute of the day now, in the person's zone as far as is known without a request (TZ, the cached profile's zone, else the machine's). */
export function minuteOfDay(ctx: Context): number {
  const now = ctx.now();
  const zone = ctx.env.TZ ? undefined : cachedMe(ctx)?.zone;
  if (zone && now.getTime() >= zone.from && now.getTime() < zone.until) {
    let offset = zone.offsets[0]?.[1] ?? 0;
    for (const [from, minutes] of zone.offsets) if (from <= now.getTime()) offset = minutes;
    const shifted = new Date(now.getTime() + offset * 60_000);
    // As core/datekey.ts dateKeyAtOffset reads the day: the shifted clock read as UTC.
    return shifted.getUTCHours() * 60 + shifted.getUTCMinutes();
  }
  return now.getHours() * 60 + now.getMinutes();
}

const later = (...xs: Array<string | undefined>): string | undefined =>
  xs
    .filter((x): x is string => Boolean(x))
    .sort()
    .at(-1);

/** Words from the service in one line, cut at `max` characters (a comment: QUOTE_CHARS). */
function quote(body: string, max = QUOTE_CHARS): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** "your check-in for Sat 21 Nov" from the feed's "Comment on your check-in for 2026-11-21". */
function aboutOf(t: InboxThread): string {
  let about =
    t.label?.replace(/^Comment on /, '') ??
    (t.on?.kind === 'goal-update' ? `the goal update “${t.title ?? ''}”` : `your check-in${t.date ? ` for ${t.date}` : ''}`);
  const date = / for (\d{4}-\d\d-\d\d)$/.exec(about)?.[1];
  if (date && isDateKey(date)) about = `${about.slice(0, -date.length)}${shortDay(date)}`;
  return about;
}

/**
 * Looks once for what is new (see the top of this file for the requests). Writes nothing: `done`
 * does, once the notices are shown. `quiet`: the person's quiet hours (nothing asked within them).
 */
export async function lookForNotices(ctx: Context, opts: { quiet?: QuietHours } = {}): Promise<Look> {
  if (opts.quiet && inQuietHours(opts.quiet, minuteOfDay(ctx))) return { notices: [], silent: 'quiet-hours' };
  const now = ctx.now();
  const api = await ctx.api();
  const person = await me(ctx);
  const key = await inboxKey(ctx);
  const marker = readMarker(ctx, key);
  const state: NotifyMarker = { ...marker?.notify };
  const date = await today(ctx);

  // A day with nothing scheduled, or one the person is marked absent: asked once (today's check-in,
  // with the ETag status keeps, or the copy status kept of it), then known all day.
  if (state.day?.date !== date) {
    const held = ctx.config().cached(api.baseUrl, loggedInToken(ctx).value, 'today');
    const day = held?.key === date ? memberState(held.check_in) : (await todayState(ctx, date)).state;
    state.day = { date, scheduled: day !== 'nothing-scheduled' && day !== 'absent', ...(day === 'absent' && { absent: true }) };
  }
  if (!state.day.scheduled) return { notices: [], silent: state.day.absent ? 'absent' : 'nothing-scheduled', next: { key, notify: state } };
  if (state.no_digest_at && now.getTime() - Date.parse(state.no_digest_at) < NO_DIGEST_AGAIN_MS) return { notices: [], silent: 'no-digest' };

  const notices: Notice[] = [];
  const secrets = [loggedInToken(ctx).value];
  // Since when: what the inbox showed, or what notify looked at, whichever is later; a first look starts today, at the person's midnight.
  const floor = later(marker?.seen_at, state.at) ?? (await startOfDay(ctx, date));
  const query = { category: 'comment' as const, since: floor, per_page: 1 };
  const queryText = JSON.stringify(query);
  const etag = state.digest?.query === queryText ? state.digest.etag : undefined;
  let page: Awaited<ReturnType<typeof digestPage>>;
  try {
    page = await digestPage(api, query, etag);
  } catch (err) {
    if (!(err instanceof ApiError && err.notFound)) throw err;
    return { notices: [], silent: 'no-digest', next: { key, notify: { ...state, no_digest_at: now.toISOString() } } };
  }
  delete state.no_digest_at;
  // The first look's floor (the person's midnight) is kept: the looks of later days go on from it, not
  // from their own midnight, which would pass over what came meanwhile (an evening's quiet hours, a
  // day off, a night the machine slept) while nothing new had moved the marker yet.
  state.at ??= floor;
  const newest = page === 'unchanged' ? undefined : page.data[0]?.published_at;
  if (page !== 'unchanged') state.digest = { query: queryText, ...(page.etag && { etag: page.etag }) };
  if (newest && newest > floor) {
    // Something is newer than the marker: the inbox's reading, from the marker on.
    const inbox = await gatherInbox(ctx, { seenAt: floor });
    const mention = new RegExp(`(?<![\\w@.])@${person.username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i');
    for (const t of inbox.threads) {
      const about = quote(aboutOf(t), ABOUT_CHARS);
      for (const item of t.items) {
        if (item.kind !== 'comment' || item.person?.id === person.id) continue;
        const who = quote(item.person?.name || 'Someone', NAME_CHARS);
        const mentioned = !/^your /.test(about) && mention.test(item.body ?? '');
        notices.push({
          kind: mentioned ? 'mention' : 'comment',
          id: item.id,
          at: item.created_at,
          person: item.person ?? null,
          about,
          on: t.on ?? null,
          url: webLink(t.url, secrets),
          text: `${who} ${mentioned ? 'mentioned you on' : 'commented on'} ${about}: “${quote(item.body ?? '')}”`,
        });
      }
    }
    state.at = later(floor, newest, inbox.newest);
    // The next look asks from the new marker on: its own query, no ETag yet.
    delete state.digest;
  }

  // Teammates newly blocked on me: asked at most hourly; each run of days told once.
  if (!state.blocked_at || !(now.getTime() - Date.parse(state.blocked_at) < BLOCKED_EVERY_MS)) {
    const list = await blockedOnMeKept(ctx, date).catch(() => undefined);
    if (list) {
      const told = new Set(state.blocked ?? []);
      const keys: string[] = [];
      for (const b of list) {
        const id = `${b.person?.id ?? ''} ${b.since}`;
        keys.push(id);
        if (told.has(id) || b.person?.id === person.id) continue;
        const who = quote(b.person?.name || 'A teammate', NAME_CHARS);
        const since = isDateKey(b.since) ? shortDay(b.since) : b.since;
        notices.push({
          kind: 'blocked',
          id,
          at: b.since,
          person: b.person,
          about: `${b.person ? `${who}'s` : 'a'} check-in`,
          on: { kind: 'check-in', id: b.check_in_id },
          // The kept list of blockers (core/shapes.ts BLOCKED_ON_ME) has no web link: no link.
          url: null,
          text: `${who} is blocked on you${b.days > 1 ? ` (since ${since}, ${b.days}${b.at_least ? '+' : ''} days)` : ''}: “${quote(b.blockers)}”`,
        });
      }
      state.blocked = keys;
      state.blocked_at = now.toISOString();
    }
  }

  // Newest first; past MAX_NOTICES, one more counts the rest.
  notices.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const shown = notices.length > MAX_NOTICES ? notices.slice(0, MAX_NOTICES - 1) : notices;
  if (shown.length < notices.length) {
    const rest = notices.length - shown.length;
    shown.push({
      kind: 'more',
      id: null,
      at: now.toISOString(),
      person: null,
      about: 'your check-ins and goal updates',
      on: null,
      url: null,
      text: `${rest} more new ${rest === 1 ? 'thing' : 'things'} on your check-ins and goal updates: checkin inbox lists them.`,
    });
  }
  return { notices: shown, silent: null, next: { key, notify: state } };
}

/** Once the notices are shown: the marker moves on, so none is shown again (`shown: false`, none could be: it stays). Best effort, like the inbox's. */
export async function lookDone(ctx: Context, look: Look, { shown = true }: { shown?: boolean } = {}): Promise<void> {
  if (!look.next) return;
  if (shown) return ctx.config().setNotifyMarker(look.next.key, look.next.notify);
  const marker = readMarker(ctx, look.next.key);
  // None could be shown (no notifier, or it failed): the marker stays before them, so the next run
  // shows them. Only the day's schedule is kept (no request again today); the feed's ETag is
  // dropped, or the next look would be told "unchanged" and never read them.
  const { digest: _etag, ...before } = marker?.notify ?? {};
  await ctx.config().setNotifyMarker(look.next.key, { ...before, ...(look.next.notify.day && { day: look.next.notify.day }) });
}

/** What a look's notices are, claimed: those this run shows, and `settle`, told which of them were shown. */
export interface Claimed {
  notices: Notice[];
  /** How many another run (at the same moment) is showing instead (not those shown already). */
  elsewhere: number;
  /** Which of `notices` were shown (by index): those are remembered as shown, the rest let go for the next run. */
  settle(shown: boolean[]): void;
}

/**
 * Of a look's notices, those this run shows: each claimed first (config/notice-claims.ts, a
 * compare-and-set per notice), so that runs at the same moment show each notice once. Claims that
 * cannot be made (the state folder cannot be written) leave every notice to this run, said once:
 * shown twice rather than never.
 */
export function claimNotices(ctx: Context, look: Look): Claimed {
  const all: Claimed = { notices: look.notices, elsewhere: 0, settle: () => undefined };
  if (!look.next || look.notices.length === 0) return all;
  // The one that counts the rest is that look's: named by the notices beside it, not by its words ("3 more …" again is another).
  const named = (n: Notice) => `${n.kind} ${n.id ?? n.text}`;
  const others = look.notices.filter((n) => n.kind !== 'more').map(named);
  const idOf = (n: Notice) => (n.kind === 'more' ? `more ${others.join(' ')}` : named(n));
  let claims;
  let mine: Set<string>;
  let showing: Set<string>;
  try {
    claims = openNoticeClaims(
      checkinPaths(ctx.env).state,
      look.next.key,
      () => ctx.now(),
      // The same lease for every run, however many it shows: another's is known by its length.
      showingAtMostMs(MAX_NOTICES),
      (line) => ctx.io.err(`warning: ${line}\n`),
    );
    ({ mine, showing } = claims.claim(look.notices.map(idOf)));
  } catch (err) {
    claims?.close();
    ctx.io.err(`warning: which notices another checkin is showing cannot be known (${fsReason(err)}): each is shown here\n`);
    return all;
  }
  const notices = look.notices.filter((n) => mine.has(idOf(n)));
  return {
    notices,
    elsewhere: showing.size,
    settle: (shown) => {
      try {
        claims.settle(notices.filter((_, i) => shown[i]).map(idOf), notices.filter((_, i) => !shown[i]).map(idOf));
      } catch {
        // Not written: a shown one's lease runs out (the marker has moved past it); an unshown one's too, then it is shown.
      } finally {
        claims.close();
      }
    },
  };
}
