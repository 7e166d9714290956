// The check-in a command works on: keys resolved to what goes in the path, fetching it (or
// learning there is none), sending answers to it with a draft, and showing it.
//
// "No check-in scheduled" is said only when a 404 comes from a service known to speak API v2 at
// this URL: its 404 is JSON, and GET /me answered there (the cached `me` already proves it).
// Anything else — an HTML 404, a URL where /me is missing — is an error naming the URL.

import { ApiError } from '../../api/errors.js';
import { getCheckIn, listCheckIns, patchCheckIn } from '../../api/endpoints.js';
import { UUID_RE, type CheckIn, type CheckInAnswers } from '../../api/types.js';
import type { Context } from '../../context.js';
import { previousPrefill } from '../../core/answers.js';
import { addDays, isDateKey } from '../../core/datekey.js';
import { parseKey } from '../../core/keys.js';
import { CliError, EXIT, HintedError, UsageError } from '../../errors.js';
import { printCheckIn, viewFor } from '../../ui/output.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { me } from './account.js';
import { today } from './days.js';
import { sendWithDraft } from './drafts.js';

export interface Target {
  /** What goes into the path: a date key or a UUID. */
  key: string;
  /** How messages name it: "today (2026-11-21)", "2026-11-20"… */
  label: string;
  /** The command that resends a draft for it. */
  resumeCommand: string;
  /** The check-in itself, when finding the key already fetched it (`last`). */
  known?: CheckIn;
}

export async function todayTarget(ctx: Context): Promise<Target> {
  const date = await today(ctx);
  return { key: date, label: `today (${date})`, resumeCommand: 'checkin today' };
}

/** A check-in key as the path takes it; `last` costs one list request. */
export async function resolveCheckInKey(ctx: Context, input: string): Promise<Target> {
  const t = await today(ctx);
  const key = parseKey(input, t);
  if (key.kind === 'uuid') return { key: key.id, label: key.id, resumeCommand: `checkin checkin ${key.id}` };
  if (key.kind === 'date') return { key: key.date, label: key.date === t ? `today (${t})` : key.date, resumeCommand: `checkin checkin ${key.date}` };
  const last = await lastCheckIn(ctx);
  return { key: last.date, label: last.date, resumeCommand: `checkin checkin ${last.date}`, known: last };
}

/** My most recent check-in before today (one list request). */
async function lastCheckIn(ctx: Context): Promise<CheckIn> {
  const { id } = await me(ctx);
  const [last] = await listCheckIns(await ctx.api(), { people_ids: [id], until: addDays(await today(ctx), -1), per_page: 1 });
  if (!last) throw new UsageError('You have no check-in before today');
  return last;
}

function wrongUrl(baseUrl: string, first: ApiError, meError?: ApiError): CliError {
  const what = (e: ApiError) => `${e.method} ${e.path} answered ${e.status || e.kind}${e.jsonBody ? '' : ' (not JSON)'}`;
  return new CliError(
    `No check-in service (API v2) at ${baseUrl}: ${what(first)}${meError ? `, and ${what(meError)}` : ''}`,
    EXIT.USAGE,
    'Check CHECKIN_API_URL (or the URL stored by `checkin login`): it is the API v2 base, e.g. https://service.steady.space/api/v2.',
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
  if (!err.jsonBody) throw wrongUrl(api.baseUrl, err);
  const token = ctx.config().token()!.value;
  if (ctx.config().cached(api.baseUrl, token, 'me')) return true;
  try {
    await me(ctx);
  } catch (meErr) {
    if (meErr instanceof ApiError && (meErr.notFound || meErr.kind === 'invalid-response')) throw wrongUrl(api.baseUrl, err, meErr);
    throw meErr;
  }
  return true;
}

/** The check-in, or null when the service has none for that date (absent or not scheduled). */
export async function fetchOrNull(ctx: Context, target: Target): Promise<CheckIn | null> {
  if (target.known) return target.known;
  try {
    return await getCheckIn(await ctx.api(), target.key);
  } catch (err) {
    if (await isNoCheckIn(ctx, err)) return null;
    throw err;
  }
}

/** The normal outcome of a date with no check-in: a note on stderr, `null` for --json, exit 0. */
export function reportNone(ctx: Context, target: Target, json: boolean | undefined, extra = ''): void {
  if (UUID_RE.test(target.key)) throw new UsageError(`No check-in ${target.key}`);
  ctx.io.err(`No check-in scheduled for ${target.label}${extra}\n`);
  if (json) ctx.io.out('null\n');
}

/** What "previous" starts from, and where it came from: this check-in's own answer, or the intentions of my latest earlier one. */
/** My latest check-ins before `date` (what "previous" is suggested from). */
export async function earlierCheckIns(ctx: Context, date: string): Promise<CheckIn[]> {
  const { id } = await me(ctx);
  return listCheckIns(await ctx.api(), { people_ids: [id], until: addDays(date, -1), per_page: 10 });
}

export async function previousSuggestion(ctx: Context, current: CheckIn, fetched?: Promise<CheckIn[] | undefined>): Promise<{ text: string | null; from?: string }> {
  if (current.previous) return { text: current.previous };
  const earlier = (await fetched) ?? (await earlierCheckIns(ctx, current.date));
  const text = previousPrefill(current, earlier);
  const source = earlier.find((c) => c.intentions === text);
  return { text, ...(source && { from: source.date }) };
}

export async function earlierPrefill(ctx: Context, current: CheckIn): Promise<string | null> {
  return (await previousSuggestion(ctx, current)).text;
}

/**
 * The one PATCH, with typed text kept as a draft until the service accepted it; then the
 * check-in is shown. False when the service has no check-in there (the draft stays).
 */
export async function sendAnswers(ctx: Context, target: Target, answers: CheckInAnswers, json: boolean | undefined, keepDraft: boolean, confirm = false): Promise<boolean> {
  const api = await ctx.api();
  const hint = `Your answers were kept as a draft; send them with \`${target.resumeCommand} --resume\`.`;
  let result: CheckIn;
  try {
    result = await sendWithDraft(ctx, {
      target: { kind: 'check-in', key: target.key },
      content: keepDraft ? { kind: 'answers', answers } : undefined,
      send: () => patchCheckIn(api, target.key, answers),
      hint,
    });
  } catch (err) {
    const inner = err instanceof HintedError ? err.inner : err;
    if (!(inner instanceof ApiError && inner.notFound)) throw err;
    let none: boolean;
    try {
      none = await isNoCheckIn(ctx, inner);
    } catch (why) {
      throw keepDraft ? new HintedError(why, hint) : why;
    }
    if (!none) throw err;
    reportNone(ctx, target, json, keepDraft ? ` (your answers are kept as a draft)` : '');
    return false;
  }
  // At the prompts, one line says it is done; elsewhere the check-in is shown (or printed as JSON).
  if (confirm && !json) ctx.io.out(await confirmation(ctx, result));
  else await printCheckIn(ctx.io, ctx.now(), result, json);
  return true;
}

async function confirmation(ctx: Context, c: CheckIn): Promise<string> {
  const { c: colors } = await viewFor(ctx.io, ctx.now());
  const day = isDateKey(c.date) ? (await import('../../core/dayname.js')).shortDay(c.date) : c.date;
  return `${colors.green('✓')} Checked in for ${sanitizeLine(day)}${c.url ? `  ${colors.dim(sanitizeLine(c.url))}` : ''}\n`;
}
