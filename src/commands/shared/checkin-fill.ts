// Filling in a check-in: answers from flags, --from-file, $EDITOR, --resume or (on a terminal)
// the questions; then the one PATCH. With nothing to send and nobody to ask, it is shown.
// `checkin today` uses it for today's date key; `checkin checkin <key>` for any key.

import type { CheckInAnswers } from '../../api/types.js';
import type { Context } from '../../context.js';
import { answersOf, buildTemplate, isBlankTemplate, isEmptyAnswers, parseTemplate } from '../../core/answers.js';
import { CancelledError, UsageError } from '../../errors.js';
import { printCheckIn } from '../../ui/output.js';
import { answersFromFlags, type AnswerOptions } from './checkin-answers.js';
import { earlierPrefill, fetchOrNull, reportNone, sendAnswers, type Target } from './checkin-target.js';

export async function fillCheckIn(ctx: Context, target: Target, flags: AnswerOptions, ask: boolean): Promise<void> {
  if (flags.resume) {
    const api = await ctx.api();
    const draft = ctx.drafts().get(api.baseUrl, { kind: 'check-in', key: target.key });
    if (draft?.content.kind !== 'answers') throw new UsageError(`There is no draft for ${target.label}`);
    const { answers } = await answersFromFlags(ctx, flags);
    return sendAnswers(ctx, target, { ...draft.content.answers, ...answers }, flags.json, true);
  }

  const { answers, typed } = await answersFromFlags(ctx, flags);
  if (flags.edit) return editAndSend(ctx, target, answers, flags.json);
  if (!isEmptyAnswers(answers)) return sendAnswers(ctx, target, answers, flags.json, typed);
  if (ask && ctx.io.canPrompt && !flags.json) {
    const { wizard } = await import('./checkin-wizard.js');
    return wizard(ctx, target);
  }

  // Nothing to send and nobody to ask: show it.
  const c = await fetchOrNull(ctx, target);
  if (!c) return reportNone(ctx, target, flags.json);
  await printCheckIn(ctx.io, ctx.now(), c, flags.json);
}

async function editAndSend(ctx: Context, target: Target, given: CheckInAnswers, json: boolean | undefined): Promise<void> {
  const current = await fetchOrNull(ctx, target);
  if (!current) return reportNone(ctx, target, json);
  const prefill = { ...answersOf(current), previous: current.previous ?? (await earlierPrefill(ctx, current)), ...given };
  const text = await ctx.editor().edit(buildTemplate(prefill, current.date));
  const edited = parseTemplate(text);
  if (isBlankTemplate(edited)) throw new CancelledError('Nothing was written; the check-in was not sent');
  await sendAnswers(ctx, target, { ...edited, ...(given.team_ids && { team_ids: given.team_ids }) }, json, true);
}
