// What the person sees of a check-in sent (domain/send-checkin.ts sends it): the check-in, its
// JSON, or one line at the prompts; and the note when no check-in is scheduled.

import { UUID_RE, type CheckInAnswers } from '../../api/types.js';
import { loggedInToken, type Context } from '../../context.js';
import { cachedMe } from '../../domain/account.js';
import { isNoBlockers, noBlockersNote } from '../../core/blockers.js';
import { isDateKey } from '../../core/datekey.js';
import { shortDay } from '../../core/dayname.js';
import { UsageError } from '../../errors.js';
import { keptLine } from '../flags.js';
import { sendAnswers, type SendOptions } from '../../domain/send-checkin.js';
import { checkInCommand } from './given.js';
import type { Target } from '../../domain/target.js';
import { printCheckIn, type JsonFlag } from '../../ui/output.js';
import { sayDone } from '../../ui/success.js';
import { sanitizeLine } from '../../ui/sanitize.js';

/** The normal outcome of a date with no check-in: a note on stderr, `null` for --json, exit 0. */
export function reportNone(ctx: Context, target: Target, json: JsonFlag, extra = ''): void {
  if (UUID_RE.test(target.key)) throw new UsageError(`No check-in ${target.key}`);
  ctx.io.err(`No check-in scheduled for ${target.label}${extra}\n`);
  if (json) ctx.io.out('null\n');
}

/** Sends, then shows what was sent: the check-in (or its JSON), or at the prompts one line. False when there was no check-in. */
export interface ShowOptions extends Omit<SendOptions, 'resume'> {
  /** The command that sends it again (default: the check-in's `--resume`, which sends all that wait for it). */
  resume?: string;
  /** Print the check-in as JSON. */
  json?: JsonFlag;
  /** At the prompts: one line saying it is done, instead of the whole check-in. */
  confirm?: boolean;
}

export async function sendAndShow(ctx: Context, target: Target, answers: CheckInAnswers, opts: ShowOptions): Promise<boolean> {
  const resume = opts.resume ?? `${checkInCommand(target)} --resume`;
  const result = await sendAnswers(ctx, target, answers, { ...opts, resume });
  if (!result) {
    reportNone(ctx, target, opts.json, opts.keepDraft || opts.entry !== undefined ? `. ${keptLine(resume)}` : '');
    return false;
  }
  // Someone else's (an administrator's change): one line says whose, before anything else.
  const mine = cachedMe(ctx, loggedInToken(ctx).value)?.id;
  if (mine && result.person && result.person.id !== mine)
    ctx.io.err(`note: this is ${sanitizeLine(result.person.name)}'s check-in, not yours: you changed it for them\n`);
  // At the prompts the preview was the check-in; elsewhere it is shown (or printed as JSON).
  if (!opts.confirm || opts.json) await printCheckIn(ctx.io, ctx.now(), result, opts.json);
  // At the prompts the preview said it already.
  if (!opts.confirm && isNoBlockers(answers.blockers)) ctx.io.err(`note: ${noBlockersNote(answers.blockers!)}\n`);
  await sayDone(ctx.io, ctx.now(), `Checked in for ${isDateKey(result.date) ? shortDay(result.date) : result.date}`, { link: result.url, json: opts.json });
  return true;
}
