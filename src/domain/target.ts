// The check-in a command works on: keys resolved to what goes in the path, and fetching it (or
// learning there is none). Shared by the check-in, comments and status commands.
//
// "No check-in scheduled" is said only when a 404 comes from a service known to speak API v2 at
// this URL: its 404 is JSON, and GET /me answered there (the cached `me` already proves it).
// Anything else — an HTML 404, a URL where /me is missing — is an error naming the URL.

import { getCheckIn, listCheckIns } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import type { CheckIn } from '../api/types.js';
import { loggedInToken, type Context } from '../context.js';
import { addDays } from '../core/datekey.js';
import { parseKey } from '../core/keys.js';
import { type CliError, terminal, UsageError } from '../errors.js';
import { cachedMe, me, resolvePeople, splitValues } from './account.js';
import { today, todayWithoutRequest } from './days.js';
import { resolveId } from './short-ids.js';
import { sanitizeLine } from '../ui/sanitize.js';

export interface Target {
  /** What goes into the path: a date key or a UUID. */
  key: string;
  /** How messages name it: "today (2026-11-21)", "2026-11-20"… */
  label: string;
  /** Addressed as today (not by its date): a face names it so (the CLI: `checkin today`). */
  today?: boolean;
  /** The check-in itself, when finding the key already fetched it (`last`, a teammate's day). */
  known?: CheckIn;
  /** Known to have none (a teammate's day the list answered empty): nothing to fetch or send. */
  absent?: boolean;
}

export async function todayTarget(ctx: Context): Promise<Target> {
  const date = await today(ctx);
  return { key: date, label: `today (${date})`, today: true };
}

/**
 * The target as far as it is known without a request (today in the cached or machine's zone), for
 * keeping typed text before the first request; undefined for `last`, which takes one.
 */
export function guessCheckInKey(ctx: Context, input: string | undefined): Target | undefined {
  const t = todayWithoutRequest(ctx);
  if (input === undefined) return { key: t, label: `today (${t})`, today: true };
  let key: ReturnType<typeof parseKey>;
  try {
    key = parseKey(input, t);
  } catch {
    return undefined; // resolving it says what is wrong
  }
  if (key.kind === 'uuid') return { key: key.id, label: key.id };
  if (key.kind === 'date') return { key: key.date, label: key.date };
  return undefined;
}

/** A check-in key as the path takes it; `last` costs one list request. */
export async function resolveCheckInKey(ctx: Context, input: string): Promise<Target> {
  const t = await today(ctx);
  const key = parseKey(input, t);
  if (key.kind === 'uuid') return { key: key.id, label: key.id };
  if (key.kind === 'date') return { key: key.date, label: key.date === t ? `today (${t})` : key.date };
  if (key.kind === 'prefix') {
    const id = await resolveId(ctx, 'check-in', key.prefix);
    return { key: id, label: id };
  }
  const last = await lastCheckIn(ctx);
  return { key: last.date, label: last.date, known: last };
}

/**
 * Someone's check-in by day (a date key, a day word or `last`): one list request for that person
 * and day. `known` is the check-in, or absent when there is none (the key is then the date and the
 * label names the person). A UUID or its start already names one check-in: refused.
 */
export async function personCheckInTarget(ctx: Context, input: string, person: { id: string; name: string }): Promise<Target> {
  const t = await today(ctx);
  const key = parseKey(input, t);
  if (key.kind === 'uuid' || key.kind === 'prefix')
    throw new UsageError(`"${input}" names one check-in already; a person goes with a day (today, friday, 2026-11-20, last)`);
  const api = await ctx.api();
  const name = sanitizeLine(person.name);
  if (key.kind === 'last') {
    const [last] = await listCheckIns(api, { people_ids: [person.id], until: addDays(t, -1), per_page: 1 });
    if (!last) throw new UsageError(`${name} has no check-in before today`);
    return { key: last.id, label: `${name}'s ${last.date}`, known: last };
  }
  const [found] = await listCheckIns(api, { people_ids: [person.id], since: key.date, until: key.date });
  if (!found) return { key: key.date, label: `${name} on ${key.date}`, absent: true };
  return { key: found.id, label: `${name}'s ${found.date}`, known: found };
}

/**
 * Someone's check-in on a day, the person named as people name them (a name, @username, UUID or
 * me): their id from the directory (cached; a name not there, one look-up), then personCheckInTarget.
 */
export async function teammateCheckInTarget(ctx: Context, input: string, person: string): Promise<Target> {
  const values = splitValues([person]);
  if (values.length !== 1) throw new UsageError(`Name one person; "${person}" names ${values.length}`);
  const [id] = await resolvePeople(ctx, values);
  const api = await ctx.api();
  const known = ctx
    .config()
    .cached(api.baseUrl, loggedInToken(ctx).value, 'directory')
    ?.people.find((p) => p.id === id);
  return personCheckInTarget(ctx, input, { id: id!, name: known?.name ?? values[0]!.replace(/^@/, '') });
}

/** My most recent check-in before today (one list request). */
async function lastCheckIn(ctx: Context): Promise<CheckIn> {
  const { id } = await me(ctx);
  const [last] = await listCheckIns(await ctx.api(), { people_ids: [id], until: addDays(await today(ctx), -1), per_page: 1 });
  if (!last) throw new UsageError('You have no check-in before today');
  return last;
}

function wrongUrl(ctx: Context, baseUrl: string, first: ApiError, meError?: ApiError): CliError {
  const what = (e: ApiError) => `${e.method} ${e.path} answered ${e.status || e.kind}${e.jsonBody ? '' : ' (not JSON)'}`;
  return new UsageError(
    `No check-in service (API v2) at ${baseUrl}: ${what(first)}${meError ? `, and ${what(meError)}` : ''}`,
    terminal(
      `Check CHECKIN_API_URL${ctx.advice ? ` (or the URL stored by \`${ctx.advice.login()}\`)` : ''}: it is the API v2 base, e.g. https://service.steady.space/api/v2.`,
    ),
  );
}

/**
 * True when `err` means "there is no check-in there" (absent, or not scheduled): a JSON 404 from a
 * service that answered GET /me at this URL. A 404 from anything else throws an error naming the
 * URL; every other error is thrown as it is.
 */
export async function isNoCheckIn(ctx: Context, err: unknown): Promise<boolean> {
  if (!(err instanceof ApiError) || !err.notFound) throw err;
  const api = await ctx.api();
  if (!err.jsonBody) throw wrongUrl(ctx, api.baseUrl, err);
  const token = loggedInToken(ctx).value;
  if (cachedMe(ctx, token)) return true;
  try {
    await me(ctx);
  } catch (meErr) {
    if (meErr instanceof ApiError && (meErr.notFound || meErr.kind === 'invalid-response')) throw wrongUrl(ctx, api.baseUrl, err, meErr);
    throw meErr;
  }
  return true;
}

/**
 * When a write was answered with something that is not the API's JSON (an HTML page, any status):
 * the error naming the URL if GET /me there is no API v2 either (a web server, the web app), else
 * undefined (the service itself is in trouble: its own error stands).
 */
export async function notTheService(ctx: Context, err: unknown): Promise<CliError | undefined> {
  if (!(err instanceof ApiError) || err.jsonBody || !(err.kind === 'http' || err.kind === 'invalid-response')) return undefined;
  const api = await ctx.api();
  try {
    await me(ctx, { refresh: true });
  } catch (meErr) {
    if (meErr instanceof ApiError && !meErr.jsonBody && (meErr.kind === 'http' || meErr.kind === 'invalid-response'))
      return wrongUrl(ctx, api.baseUrl, err, meErr);
  }
  return undefined;
}

/** The check-in, or null when the service has none for that date (absent or not scheduled). */
export async function fetchOrNull(ctx: Context, target: Target): Promise<CheckIn | null> {
  if (target.known) return target.known;
  if (target.absent) return null;
  try {
    return await getCheckIn(await ctx.api(), target.key);
  } catch (err) {
    if (await isNoCheckIn(ctx, err)) return null;
    throw err;
  }
}
