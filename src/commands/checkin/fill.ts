// Filling in a check-in: answers from flags, --from-file, $EDITOR, --resume or (on a terminal)
// the questions; then the one PATCH. With nothing to send and nobody to ask, it is shown.
// `checkin today` uses it for today's date key; `checkin checkin <key>` for any key.

import { getCheckIn } from '../../api/endpoints.js';
import { DATE_KEY_RE, UUID_RE, type CheckInAnswers } from '../../api/types.js';
import type { Draft } from '../../config/drafts.js';
import type { Context } from '../../context.js';
import { answersOf, buildTemplate, isEmptyAnswers, readTemplate } from '../../core/answers.js';
import { CancelledError, UsageError } from '../../errors.js';
import { fetchOrNull, type Target } from '../../services/target.js';
import { printCheckIn, printJson, type JsonFlag } from '../../ui/output.js';
import { answersFromFlags, type AnswerOptions } from './answers.js';
import { editAnswers, needTerminalForEditor, withProblems } from './edit.js';
import { reportNone, sendAndShow } from './send.js';
import { earlierPrefill, suggestionFor } from './suggest.js';

export async function fillCheckIn(ctx: Context, target: Target, flags: AnswerOptions, ask: boolean): Promise<void> {
  if (flags.web) {
    const c = await fetchOrNull(ctx, target);
    if (!c) return reportNone(ctx, target, false);
    const { openInBrowser } = await import('../../ui/browser.js');
    return openInBrowser(ctx.io, ctx.env, c.url);
  }
  if (flags.suggest || flags.fromActivity) return suggest(ctx, target, flags);
  if (flags.resume) return resume(ctx, target, flags);
  if (flags.edit) needTerminalForEditor(ctx);
  const { answers, typed } = await answersFromFlags(ctx, flags, target);
  if (flags.edit) return editAndSend(ctx, target, answers, flags.json);
  if (!isEmptyAnswers(answers)) {
    await sendAndShow(ctx, target, answers, { keepDraft: typed, json: flags.json });
    return;
  }
  if (ask && ctx.io.canPrompt && !flags.json) {
    const { wizard } = await import('./wizard.js');
    return wizard(ctx, target);
  }

  // Nothing to send and nobody to ask: show it.
  const c = await fetchOrNull(ctx, target);
  if (!c) return reportNone(ctx, target, flags.json);
  ctx.io.page();
  await printCheckIn(ctx.io, ctx.now(), c, flags.json);
}

/** The draft kept for this check-in, however it was addressed (by date or by UUID). */
async function findDraft(ctx: Context, target: Target): Promise<Draft | undefined> {
  const api = await ctx.api();
  const drafts = ctx.drafts();
  const exact = drafts.get(api.baseUrl, { kind: 'check-in', key: target.key });
  if (exact) return exact;
  // Kept under the other name of the same check-in? One GET tells its id and date.
  const otherForm = UUID_RE.test(target.key) ? DATE_KEY_RE : UUID_RE;
  const candidates = drafts.list(api.baseUrl).filter((d) => d.target.kind === 'check-in' && otherForm.test(d.target.key));
  if (candidates.length === 0) return undefined;
  const c = target.known ?? (await getCheckIn(api, target.key).catch(() => undefined));
  if (!c) return undefined;
  return candidates.find((d) => d.target.kind === 'check-in' && (d.target.key === c.id || d.target.key === c.date));
}

async function noDraft(ctx: Context, target: Target): Promise<UsageError> {
  const api = await ctx.api();
  const others = ctx
    .drafts()
    .list(api.baseUrl)
    .flatMap((d) => (d.target.kind === 'check-in' ? [d.target.key] : []));
  if (others.length === 0) return new UsageError(`There is no draft for ${target.label}`);
  const one = others[others.length - 1]!;
  return new UsageError(
    `There is no draft for ${target.label}; there ${others.length === 1 ? 'is one' : `are ${others.length}`} for ${others.join(', ')}`,
    `Send it with \`checkin checkin ${one} --resume\`${others.length > 1 ? ' (and likewise for the others)' : ''}.`,
  );
}

async function resume(ctx: Context, target: Target, flags: AnswerOptions): Promise<void> {
  const draft = await findDraft(ctx, target);
  if (!draft) throw await noDraft(ctx, target);
  const { answers: extra } = await answersFromFlags(ctx, { ...flags, resume: false });
  let kept: CheckInAnswers;
  if (draft.content.kind === 'answers') kept = draft.content.answers;
  else if (draft.content.kind === 'text') {
    const read = readTemplate(draft.content.text);
    if (read.problems.length === 0) kept = read.answers;
    else if (ctx.io.canPrompt) {
      const edited = await editAnswers(ctx, target, withProblems(draft.content.text, read.problems));
      if (!edited) throw new CancelledError('Nothing was written; the kept draft was not sent and is still kept');
      kept = edited;
    } else {
      throw new UsageError(`The kept draft cannot be sent as it is: ${read.problems.slice(0, 3).join('; ')}`, `Fix it in the editor with \`${target.resumeCommand} -e\` (it opens the kept text).`);
    }
  } else throw await noDraft(ctx, target);
  const sent = await sendAndShow(ctx, target, { ...kept, ...extra }, { keepDraft: true, json: flags.json });
  // Found under the check-in's other name: that one is sent too.
  if (sent && draft.target.kind === 'check-in' && draft.target.key !== target.key) ctx.drafts().delete((await ctx.api()).baseUrl, draft.target);
}

async function editAndSend(ctx: Context, target: Target, given: CheckInAnswers, json: JsonFlag): Promise<void> {
  const current = await fetchOrNull(ctx, target);
  if (!current) return reportNone(ctx, target, json);
  // A draft kept earlier is where writing starts again.
  const draft = await findDraft(ctx, target);
  let text: string;
  if (draft?.content.kind === 'text') text = draft.content.text;
  else {
    const kept = draft?.content.kind === 'answers' ? draft.content.answers : {};
    const prefill = { ...answersOf(current), previous: current.previous ?? (await earlierPrefill(ctx, current)), ...kept, ...given };
    text = buildTemplate(prefill, current.date);
  }
  const edited = await editAnswers(ctx, target, text);
  if (!edited) throw new CancelledError(`Nothing was written; the check-in was not sent${draft ? ' (the earlier draft is still kept)' : ''}`);
  await sendAndShow(ctx, target, { ...edited, ...(given.team_ids && { team_ids: given.team_ids }) }, { keepDraft: true, json });
}

/**
 * --suggest prints the suggestion for *previous* (last intentions, then activities and commits
 * since the last check-in); --from-activity sends it as *previous*, with the other flags' answers.
 */
async function suggest(ctx: Context, target: Target, flags: AnswerOptions): Promise<void> {
  if (flags.suggest && flags.fromActivity) throw new UsageError('--suggest prints the suggestion, --from-activity sends it: give one');
  if (flags.fromActivity && flags.previous !== undefined) throw new UsageError('--from-activity fills in previous; leave out --previous');
  if (flags.fromActivity && (flags.edit || flags.resume)) throw new UsageError('--from-activity sends without questions; it does not go with --edit or --resume');
  // Typed answers are kept before any request (they go out with the suggestion).
  const { answers, typed } = flags.fromActivity ? await answersFromFlags(ctx, flags, target) : { answers: {}, typed: false };
  const found = await suggestionFor(ctx, target);
  if (!found) return reportNone(ctx, target, flags.json);
  const { text, last, work } = found;
  for (const note of work.notes) ctx.io.err(`note: ${note}\n`);
  if (flags.suggest) {
    if (flags.json) return printJson(ctx.io, { previous: text, intentions_from: last?.date ?? null, since_last_check_in: work.bullets }, flags.json);
    if (text === null) ctx.io.err('Nothing to suggest: no earlier intentions, activities or commits.\n');
    else ctx.io.out(`${text}\n`);
    return;
  }
  if (text === null) throw new UsageError('Nothing to fill in previous with: no earlier intentions, activities or commits', 'Give it with --previous "…".');
  await sendAndShow(ctx, target, { ...answers, previous: text }, { keepDraft: typed, json: flags.json });
}

