// Sending a check-in's answers: the one PATCH, with typed text kept as a draft until the service
// accepted it; then what the user sees of it (the check-in, its JSON, or one line at the prompts).

import { patchCheckIn } from '../../api/endpoints.js';
import { ApiError } from '../../api/errors.js';
import { UUID_RE, type CheckIn, type CheckInAnswers } from '../../api/types.js';
import { loggedInToken, type Context } from '../../context.js';
import { isDateKey } from '../../core/datekey.js';
import { shortDay } from '../../core/dayname.js';
import { UsageError, withHint } from '../../errors.js';
import { keep, keptLine, sendWithDraft, type Claim, type Entry } from '../../domain/drafts.js';
import { isNoCheckIn, notTheService, type Target } from '../../domain/target.js';
import { printCheckIn, type JsonFlag } from '../../ui/output.js';
import { sayDone } from '../../ui/success.js';
import { sanitizeLine } from '../../ui/sanitize.js';

/** The normal outcome of a date with no check-in: a note on stderr, `null` for --json, exit 0. */
export function reportNone(ctx: Context, target: Target, json: JsonFlag, extra = ''): void {
  if (UUID_RE.test(target.key)) throw new UsageError(`No check-in ${target.key}`);
  ctx.io.err(`No check-in scheduled for ${target.label}${extra}\n`);
  if (json) ctx.io.out('null\n');
}

export interface SendOptions {
  /** Keep the answers as a draft until the service has them (they were typed, piped or edited). */
  keepDraft: boolean;
  /** Or: the entry kept earlier that these answers are (sent as they are, with any flags given now). */
  entry?: Entry;
  /** The claim on `entry`, already taken (an agent's send, held while the person was asked). */
  claim?: Claim;
  /** Entries kept earlier that these answers were built on (the person's choice): removed once sent. */
  folds?: Entry[];
  /** Print the check-in as JSON. */
  json?: JsonFlag;
  /** At the prompts: one line saying it is done, instead of the whole check-in. */
  confirm?: boolean;
  /** Say nothing of other drafts still waiting (a resume sending them all). */
  quiet?: boolean;
  /** The command that sends it again (default: the check-in's `--resume`, which sends all that wait for it). */
  resume?: string;
}

/**
 * The one PATCH, with typed text kept as a draft until the service accepted it; the check-in it
 * answered, or null when the service has no check-in there (the draft stays, and the note says so).
 */
export async function sendAnswers(ctx: Context, target: Target, answers: CheckInAnswers, opts: SendOptions): Promise<CheckIn | null> {
  const api = await ctx.api();
  const resume = opts.resume ?? `${target.resumeCommand} --resume`;
  const hint = keptLine(resume);
  const kept = opts.keepDraft || opts.entry !== undefined;
  try {
    return await sendWithDraft(ctx, {
      target: { kind: 'check-in', key: target.key },
      content: opts.keepDraft && !opts.entry ? { kind: 'answers', answers } : undefined,
      ...(opts.entry && { entry: opts.entry }),
      ...(opts.claim && { claim: opts.claim }),
      ...(opts.folds && { folds: opts.folds }),
      ...(opts.quiet && { quiet: true }),
      resume,
      send: () => patchCheckIn(api, target.key, answers),
    });
  } catch (err) {
    // Not the service at all (an HTML page): said so, and the answers are kept however they were given.
    const wrong = err instanceof ApiError && !err.notFound ? await notTheService(ctx, err) : undefined;
    if (wrong) {
      if (!kept && keep(ctx, { kind: 'check-in', key: target.key }, { kind: 'answers', answers })) throw withHint(wrong, hint);
      throw kept ? withHint(wrong, hint) : wrong;
    }
    if (!(err instanceof ApiError && err.notFound)) throw err;
    let none: boolean;
    try {
      none = await isNoCheckIn(ctx, err);
    } catch (why) {
      throw kept ? withHint(why, hint) : why;
    }
    if (!none) throw err;
    reportNone(ctx, target, opts.json, kept ? `. ${hint}` : '');
    return null;
  }
}

/** Sends, then shows what was sent: the check-in (or its JSON), or at the prompts one line. False when there was no check-in. */
export async function sendAndShow(ctx: Context, target: Target, answers: CheckInAnswers, opts: SendOptions): Promise<boolean> {
  const result = await sendAnswers(ctx, target, answers, opts);
  if (!result) return false;
  // Someone else's (an administrator's change): one line says whose, before anything else.
  const api = await ctx.api();
  const mine = ctx.config().cached(api.baseUrl, loggedInToken(ctx).value, 'me')?.id;
  if (mine && result.person && result.person.id !== mine) ctx.io.err(`note: this is ${sanitizeLine(result.person.name)}'s check-in, not yours: you changed it for them\n`);
  // At the prompts the preview was the check-in; elsewhere it is shown (or printed as JSON).
  if (!opts.confirm || opts.json) await printCheckIn(ctx.io, ctx.now(), result, opts.json);
  await sayDone(ctx.io, ctx.now(), `Checked in for ${isDateKey(result.date) ? shortDay(result.date) : result.date}`, { link: result.url, json: opts.json });
  return true;
}
