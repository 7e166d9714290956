// What `checkin status` and the reminder tell, printing nothing: today's check-in and its state
// (asked with the ETag of the copy seen last), and how many new comments wait in the inbox.
import { digestPage, getCheckInIfChanged } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { CHECK_IN, type CheckIn } from '../api/types.js';
import { loggedInToken, type Context } from '../context.js';
import { cachedMe } from './account.js';
import { today } from './days.js';
import { inboxKey, readMarker, writeMarker } from './inbox-gather.js';
import { isNoCheckIn } from './target.js';
import { memberState, type MemberState } from '../core/member-states.js';

/** How old a count of new comments may be before status looks again. */
export const UNREAD_TTL_MS = 10 * 60 * 1000;
/** One page of the digest: enough to say "N new" (or "50+"). */
const DIGEST_PAGE = 50;

export interface Unread {
  count: number;
  more: boolean;
}

/**
 * New comments on my check-ins and goal updates (and @mentions of me) since `checkin inbox` last
 * showed them: at most one request, GET /digest?category=comment, sent with the last ETag and only
 * when the count is more than ten minutes old. A service without a digest (404): no line, never a walk.
 */
export async function unread(ctx: Context): Promise<Unread | undefined> {
  try {
    // Only for an account whose `me` is known (after `checkin login`, or any command that needed
    // it): status never asks for /me just for this.
    const api = await ctx.api();
    const person = cachedMe(ctx, loggedInToken(ctx).value);
    if (!person) return undefined;
    const key = await inboxKey(ctx);
    const marker = readMarker(ctx, key);
    const known = (m: typeof marker) => (m?.no_digest || m?.unread === undefined ? undefined : { count: m.unread, more: Boolean(m.unread_more) });
    if (marker?.checked_at && ctx.now().getTime() - Date.parse(marker.checked_at) < UNREAD_TTL_MS) return known(marker);
    const query = { category: 'comment' as const, per_page: DIGEST_PAGE, ...(marker?.seen_at && { since: marker.seen_at }) };
    const queryText = JSON.stringify(query);
    const etag = marker?.digest?.query === queryText && marker.unread !== undefined ? marker.digest.etag : undefined;
    const checked_at = ctx.now().toISOString();
    let page: Awaited<ReturnType<typeof digestPage>>;
    try {
      page = await digestPage(api, query, etag);
    } catch (err) {
      if (err instanceof ApiError && err.notFound) {
        await writeMarker(ctx, key, { ...marker, no_digest: true, checked_at });
        return undefined;
      }
      throw err;
    }
    if (page === 'unchanged') {
      await writeMarker(ctx, key, { ...marker, checked_at });
      return known(marker);
    }
    const fresh = page.data.filter((e) => (!marker?.seen_at || e.published_at > marker.seen_at) && e.resource?.person?.id !== person.id);
    const result = { count: fresh.length, more: page.data.length >= DIGEST_PAGE };
    const { no_digest: _, ...rest } = marker ?? {};
    await writeMarker(ctx, key, {
      ...rest,
      unread: result.count,
      unread_more: result.more,
      checked_at,
      digest: { query: queryText, ...(page.etag && { etag: page.etag }) },
    });
    return result;
  } catch {
    return undefined;
  }
}

/**
 * Today's check-in, asked with the ETag of the copy status saw last (a shell prompt asks often): a
 * 304 costs no parsing and the copy is used; a new answer replaces it. Best effort, like every cache.
 */
async function todaysCheckIn(ctx: Context, date: string): Promise<CheckIn> {
  const api = await ctx.api();
  const cfg = ctx.config();
  const token = loggedInToken(ctx).value;
  const copy = cfg.cached(api.baseUrl, token, 'today');
  // Only a copy for this day that still has the shape of a check-in (the cache is a file anyone may have edited).
  const held = copy?.key === date && typeof copy.etag === 'string' && CHECK_IN(copy.check_in, 'the copy') === undefined ? copy : undefined;
  const answer = await getCheckInIfChanged(api, date, held?.etag);
  if (answer === 'unchanged') return held!.check_in;
  if (answer.etag) await cfg.cache(api.baseUrl, token, 'today', { key: date, etag: answer.etag, check_in: answer.data }).catch(() => undefined);
  return answer.data;
}

export interface TodayState {
  date: string;
  /** In the one vocabulary of states (core/member-states.ts). */
  state: MemberState;
  checkIn: CheckIn | null;
}

/** What status tells, printing nothing: today's date key, its check-in (null: none scheduled) and its state. */
export async function todayState(ctx: Context, date?: string): Promise<TodayState> {
  date ??= await today(ctx);
  let checkIn: CheckIn | null = null;
  try {
    checkIn = await todaysCheckIn(ctx, date);
  } catch (err) {
    if (!(await isNoCheckIn(ctx, err))) throw err;
  }
  return { date, state: memberState(checkIn), checkIn };
}
