// What the person sees of what came of a check-in's plan (commands/checkin/fill.ts carries it out
// and hands back each outcome as data): the check-in sent, or one line at the prompts; the
// check-in shown; the suggestion; and the note when no check-in is scheduled. Said once, at the end.

import { UUID_RE, type CheckIn, type CheckInAnswers } from '../../api/types.js';
import { loggedInToken, type Context } from '../../context.js';
import { cachedMe } from '../../domain/account.js';
import { isNoBlockers, noBlockersNote } from '../../core/blockers.js';
import { isDateKey } from '../../core/datekey.js';
import { shortDay } from '../../core/dayname.js';
import { SUGGESTION } from '../../core/shapes.js';
import { project } from '../../api/validate.js';
import { UsageError } from '../../errors.js';
import { keptLine } from '../flags.js';
import type { Suggestion } from '../../domain/suggest.js';
import type { Target } from '../../domain/target.js';
import { printCheckIn, printJson, type JsonFlag } from '../../ui/output.js';
import { sayDone } from '../../ui/success.js';
import { sanitizeLine } from '../../ui/sanitize.js';

/** What came of carrying out a plan, as data: the face says it (`say`). */
export type Outcome =
  /** Sent: the check-in as the service answered, and the answers that went. */
  | { kind: 'sent'; checkIn: CheckIn; answers: CheckInAnswers }
  /** No check-in scheduled; `kept`: the command that sends what was kept for it. */
  | { kind: 'none'; kept?: string }
  /** Nothing to send: the check-in as it stands. */
  | { kind: 'shown'; checkIn: CheckIn }
  /** --suggest: the suggestion for previous. */
  | { kind: 'suggestion'; found: Suggestion };

/** How it is said: as JSON, or (at the prompts, where the preview showed it) in one line. */
export interface Saying {
  json?: JsonFlag;
  confirm?: boolean;
}

export async function say(ctx: Context, target: Target, outcome: Outcome, how: Saying): Promise<void> {
  switch (outcome.kind) {
    case 'none':
      return reportNone(ctx, target, how.json, outcome.kept ? `. ${keptLine(ctx, outcome.kept)}` : '');
    case 'shown':
      ctx.io.page();
      return printCheckIn(ctx.io, ctx.now(), outcome.checkIn, how.json);
    case 'suggestion':
      return saySuggestion(ctx, outcome.found, how.json);
    case 'sent':
      return saySent(ctx, outcome.checkIn, outcome.answers, how);
  }
}

/** The normal outcome of a date with no check-in: a note on stderr, `null` for --json, exit 0. */
export function reportNone(ctx: Context, target: Target, json: JsonFlag, extra = ''): void {
  if (UUID_RE.test(target.key)) throw new UsageError(`No check-in ${target.key}`);
  ctx.io.err(`No check-in scheduled for ${target.label}${extra}\n`);
  if (json) ctx.io.out('null\n');
}

/** What was sent: the check-in (or its JSON), or at the prompts one line. */
async function saySent(ctx: Context, result: CheckIn, answers: CheckInAnswers, how: Saying): Promise<void> {
  // Someone else's (an administrator's change): one line says whose, before anything else.
  const mine = cachedMe(ctx, loggedInToken(ctx).value)?.id;
  if (mine && result.person && result.person.id !== mine)
    ctx.io.err(`note: this is ${sanitizeLine(result.person.name)}'s check-in, not yours: you changed it for them\n`);
  // At the prompts the preview was the check-in; elsewhere it is shown (or printed as JSON).
  if (!how.confirm || how.json) await printCheckIn(ctx.io, ctx.now(), result, how.json);
  // At the prompts the preview said it already.
  if (!how.confirm && isNoBlockers(answers.blockers)) ctx.io.err(`note: ${noBlockersNote(answers.blockers!)}\n`);
  await sayDone(ctx.io, ctx.now(), `Checked in for ${isDateKey(result.date) ? shortDay(result.date) : result.date}`, { link: result.url, json: how.json });
}

/** --suggest: the suggestion for *previous*, printed (or its JSON), with where it came from. */
function saySuggestion(ctx: Context, found: Suggestion, json: JsonFlag | undefined): void {
  const { text, last, work } = found;
  for (const note of work.notes) ctx.io.err(`note: ${note}\n`);
  if (json) return printJson(ctx.io, project(SUGGESTION, { previous: text, intentions_from: last?.date ?? null, since_last_check_in: work.bullets }), json);
  if (text === null) ctx.io.err('Nothing to suggest: no earlier intentions, activities or commits.\n');
  else ctx.io.out(`${text}\n`);
}
