// Filling in a check-in: answers from flags, --from-file, $EDITOR, --resume or (on a terminal)
// the questions; then the one PATCH. With nothing to send and nobody to ask, it is shown.
// `checkin today` uses it for today's date key; `checkin checkin <key>` for any key.

import { getCheckIn } from '../../api/endpoints.js';
import { DATE_KEY_RE, UUID_RE, type CheckIn, type CheckInAnswers } from '../../api/types.js';
import type { Context } from '../../context.js';
import { answersOf, buildTemplate, mergeLines, readTemplate, withTemplate } from '../../core/checkin-answers.js';
import { CancelledError, UsageError } from '../../errors.js';
import { allHere, entryDay, guardNewer, pickEntries, waitingFor, whenLabel, noneWaiting, type Entry } from '../../domain/outbox.js';
import { fetchOrNull, type Target } from '../../domain/target.js';
import { checkInCommand, prefillTemplate, type AnswerPlan } from './given.js';
import { hereCommand } from '../flags.js';
import { bodyOf } from '../../domain/checkin-plan.js';
import { sendAnswers, type SendOptions } from '../../domain/send-checkin.js';
import { editAnswers, needTerminalForEditor, withProblems } from './edit.js';
import type { Outcome } from './say.js';
import { earlierPrefill, suggestionFor } from '../../domain/suggest.js';
import { openInBrowser } from '../../ui/browser.js';

/**
 * Carries out the plan for the check-in: opens it in the browser, finds the suggestion, reads the
 * check-in (nothing given), sends what was kept, or makes the one PATCH of the answers given — as
 * they are, with the suggestion as previous, or as written in the editor. Says nothing of what
 * came of it: each outcome is handed back as it comes (a resume sends one after another), and the
 * command says it (say.ts).
 */
export async function* fillCheckIn(ctx: Context, target: Target, plan: AnswerPlan): AsyncGenerator<Outcome> {
  switch (plan.act) {
    case 'web':
      return yield* openCheckIn(ctx, target);
    case 'suggest': {
      const found = await suggestionFor(ctx, target);
      yield found ? { kind: 'suggestion', found } : { kind: 'none' };
      return;
    }
    case 'none': {
      const c = await fetchOrNull(ctx, target);
      yield c ? { kind: 'shown', checkIn: c } : { kind: 'none' };
      return;
    }
    case 'resume':
      if (!plan.editor) return yield* resume(ctx, target, plan);
  }
  if (plan.editor) needTerminalForEditor(ctx);
  const body = await bodyFor(ctx, target, plan);
  const keeping = { keepDraft: plan.editor || plan.words !== 'none', ...(plan.entry && { entry: plan.entry }), ...(plan.folds && { folds: plan.folds }) };
  const request =
    plan.act === 'from-activity'
      ? await withSuggestion(ctx, target, body)
      : plan.editor
        ? await written(ctx, target, body, plan.act === 'resume', plan)
        : { target, body };
  yield request ? await send(ctx, { ...keeping, ...request }) : { kind: 'none' };
}

/** What one PATCH sends: the check-in (as read, when it was), the body, and how it is kept (the drafts it was written from). */
interface Request extends Omit<SendOptions, 'resume'> {
  target: Target;
  body: CheckInAnswers;
}

/** The one send: what the service answered, or (no check-in scheduled) how what was kept is sent again. */
async function send(ctx: Context, request: Request): Promise<Outcome> {
  const { target, body, ...keeping } = request;
  const resume = `${checkInCommand(target)} --resume`;
  const sent = await sendAnswers(ctx, target, body, { ...keeping, resume });
  if (sent) return { kind: 'sent', checkIn: sent, answers: body };
  return keeping.keepDraft || keeping.entry !== undefined ? { kind: 'none', kept: resume } : { kind: 'none' };
}

async function* openCheckIn(ctx: Context, target: Target): AsyncGenerator<Outcome> {
  const c = await fetchOrNull(ctx, target);
  if (!c) {
    yield { kind: 'none' };
    return;
  }
  await openInBrowser(ctx.io, ctx.env, c.url);
}

/** The PATCH body the plan makes, --team resolved; should that fail, kept words say how to send them with a team named. */
function bodyFor(ctx: Context, target: Target, plan: AnswerPlan): Promise<CheckInAnswers> {
  return bodyOf(ctx, plan, `${checkInCommand(target)} --resume -t <team>`);
}

/** The entries waiting for this check-in (this account's, oldest first), however it was addressed (by date or by UUID). */
async function waitingForCheckIn(ctx: Context, target: Target): Promise<{ here: Entry[]; elsewhere: Entry[]; busy: Entry[]; known?: CheckIn }> {
  // Piped for `last` before it was known: kept under that name.
  const exact = await byPersonsDay(
    ctx,
    target,
    waitingFor(
      ctx,
      target.known
        ? [
            { kind: 'check-in', key: target.key },
            { kind: 'check-in', key: 'last' },
          ]
        : { kind: 'check-in', key: target.key },
    ),
  );
  // Kept under the other name of the same check-in? One GET tells its id and date.
  const otherForm = UUID_RE.test(target.key) ? DATE_KEY_RE : UUID_RE;
  if (
    !ctx
      .drafts()
      .list()
      .some((e) => e.target.kind === 'check-in' && otherForm.test(e.target.key))
  )
    return exact;
  const c = target.known ?? (await getCheckIn(await ctx.api(), target.key).catch(() => undefined));
  if (!c) return exact;
  const other = waitingFor(ctx, { kind: 'check-in', key: UUID_RE.test(target.key) ? c.date : c.id });
  const byAge = (a: Entry, b: Entry) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0);
  return {
    here: [...exact.here, ...other.here].sort(byAge),
    elsewhere: [...exact.elsewhere, ...other.elsewhere].sort(byAge),
    busy: [...exact.busy, ...other.busy],
    known: c,
  };
}

/**
 * Kept for the machine's date before the person's zone was known: an entry is for the person's
 * date when it was typed — taken in when that is this check-in's, left out when it is another's.
 */
async function byPersonsDay(ctx: Context, target: Target, w: ReturnType<typeof waitingFor>): Promise<ReturnType<typeof waitingFor>> {
  const guessed = allHere(ctx).filter((e) => e.day_guessed && e.target.kind === 'check-in');
  if (guessed.length === 0) return w;
  const days = new Map<string, string>();
  for (const e of guessed) days.set(e.id, await entryDay(ctx, e as Entry & { target: { kind: 'check-in' } }));
  const mine = (e: Entry) => (days.has(e.id) ? days.get(e.id) === target.key : true);
  const extra = guessed.filter(
    (e) => days.get(e.id) === target.key && !w.here.some((h) => h.id === e.id) && !w.busy.some((b) => b.id === e.id) && !ctx.drafts().busyElsewhere(e),
  );
  return { ...w, here: [...w.here.filter(mine), ...extra].sort((a, b) => (a.created_at < b.created_at ? -1 : 1)) };
}

/** Nothing waits for this check-in: what waits for other check-ins, or for this one elsewhere, is named. */
function noDraft(ctx: Context, target: Target, elsewhere: Entry[], busy: Entry[] = []): UsageError {
  // Held by another checkin: said in the one wording, never as "there is one for" the same day.
  if (elsewhere.length > 0 || busy.length > 0) return noneWaiting(ctx, target.label, elsewhere, busy, `${checkInCommand(target)} --resume`);
  const others = [...new Set(allHere(ctx).flatMap((e) => (e.target.kind === 'check-in' && !busy.some((b) => b.id === e.id) ? [e.target.key] : [])))];
  if (others.length === 0) return new UsageError(`There is no draft for ${target.label}`);
  const one = others[others.length - 1]!;
  return new UsageError(
    `There is no draft for ${target.label}; there ${others.length === 1 ? 'is one' : `are some`} for ${others.join(', ')}`,
    `Send it with \`${hereCommand(ctx, `checkin checkin ${one} --resume`)}\`${others.length > 1 ? ' (and likewise for the others)' : ''}.`,
  );
}

/** An entry's answers; text that cannot be read opens the editor on a terminal (the edit is kept as this run's own entry). */
async function answersOfEntry(ctx: Context, target: Target, entry: Entry): Promise<{ answers: CheckInAnswers; edited: boolean }> {
  if (entry.content.kind === 'answers') return { answers: entry.content.answers, edited: false };
  if (entry.content.kind !== 'text') throw new UsageError(`The draft ${entry.id} holds no answers`);
  const read = readTemplate(entry.content.text);
  if (read.problems.length === 0) return { answers: read.answers, edited: false };
  if (!ctx.io.canPrompt) {
    throw new UsageError(
      `The kept draft ${entry.id} cannot be sent as it is: ${read.problems.slice(0, 3).join('; ')}`,
      `Fix it in the editor with \`${checkInCommand(target)} --resume -e\` (it opens the kept text).`,
    );
  }
  const edited = await editAnswers(ctx, target, withProblems(entry.content.text, read.problems));
  if (!edited) throw new CancelledError('Nothing was written; the kept draft was not sent and is still kept');
  return { answers: edited, edited: true };
}

/** --resume: every draft waiting for the check-in, oldest first, each sent once (on a terminal with several, the person picks). */
async function* resume(ctx: Context, target: Target, plan: AnswerPlan): AsyncGenerator<Outcome> {
  const { here, elsewhere, busy, known } = await waitingForCheckIn(ctx, target);
  if (here.length === 0) throw noDraft(ctx, target, elsewhere, busy);
  const extra = await bodyFor(ctx, target, plan);
  const chosen = here.length > 1 && ctx.io.canPrompt ? await pickEntries(ctx, here, target.label) : here;
  let sentOne = false;
  for (const entry of chosen) {
    if (!ctx.drafts().find(entry.id)) {
      ctx.io.err(`note: the draft ${entry.id} was sent or dropped by another checkin meanwhile\n`);
      continue;
    }
    const read = await answersOfEntry(ctx, target, entry);
    // Never over newer words: both shown and asked on a terminal, refused without one (what this run just sent is not another's).
    const merged = sentOne ? undefined : await guardNewer(ctx, target.key, entry, read.answers, known ?? target.known);
    const [answers, edited] = merged ? [merged, true] : [read.answers, read.edited];
    const body = { ...answers, ...extra };
    const outcome = edited
      ? await send(ctx, { target, body, keepDraft: true, folds: [entry], quiet: true })
      : await send(ctx, { target, body, keepDraft: false, entry, quiet: true });
    yield outcome;
    if (outcome.kind === 'none') return;
    sentOne = true;
  }
}

/** The answers as written in the editor, starting from the check-in, the drafts kept for it and `given`; undefined when there is no check-in. */
async function written(
  ctx: Context,
  target: Target,
  given: CheckInAnswers,
  fromDrafts: boolean,
  plan: Pick<AnswerPlan, 'noTemplate'>,
): Promise<Pick<Request, 'target' | 'body' | 'folds'> | undefined> {
  const current = await fetchOrNull(ctx, target);
  if (!current) return undefined;
  // The drafts kept earlier are where writing starts again (the newest last, so it wins).
  const { here, elsewhere } = await waitingForCheckIn(ctx, target);
  if (fromDrafts && here.length === 0) throw noDraft(ctx, target, elsewhere);
  const chosen = here.length > 1 ? await pickEntries(ctx, here, target.label) : here;
  const newest = chosen.at(-1);
  if (chosen.length > 0)
    ctx.io.err(
      `Starting from ${chosen.length === 1 ? `the draft ${newest!.id} kept ${whenLabel(newest!.created_at)}` : `${chosen.length} drafts kept earlier, the newest last`}.\n`,
    );
  let text: string;
  // What the editor starts from is what the person's edit replaces: only drafts whose words are in it are done with once it is sent.
  let folds = chosen;
  if (newest?.content.kind === 'text' && chosen.length === 1) text = newest.content.text;
  else {
    let kept: CheckInAnswers = {};
    folds = [];
    for (const e of chosen) {
      const read =
        e.content.kind === 'answers' ? { answers: e.content.answers, problems: [] } : e.content.kind === 'text' ? readTemplate(e.content.text) : undefined;
      if (!read || read.problems.length > 0) continue; // left waiting: `--resume -e` on its own opens it
      kept = { ...kept, ...read.answers };
      folds.push(e);
    }
    // A check-in not filled in, no draft to go on from: the answer template fills what it does not say, and its *previous*
    // comes before the last intentions (the help topic's order).
    const template = current.completed_at || fromDrafts || folds.length > 0 ? undefined : prefillTemplate(ctx, plan);
    const previous =
      current.previous ?? (template?.previous ? mergeLines(template.previous, await earlierPrefill(ctx, current)) : await earlierPrefill(ctx, current));
    const prefill = { ...withTemplate(answersOf(current), template, ['previous']), previous, ...kept, ...given };
    text = buildTemplate(prefill, current.date);
  }
  const edited = await editAnswers(ctx, target, text);
  if (!edited) throw new CancelledError(`Nothing was written; the check-in was not sent${chosen.length > 0 ? ' (the earlier drafts are still kept)' : ''}`);
  // The check-in as read before the editor opened is what the draft is written over (its base, should the PATCH fail).
  return { target: { ...target, known: current }, body: { ...edited, ...(given.team_ids && { team_ids: given.team_ids }) }, folds };
}

/** --from-activity: the suggestion as *previous*, with the other answers given (resolved before any other request); undefined when there is no check-in. */
async function withSuggestion(ctx: Context, target: Target, answers: CheckInAnswers): Promise<Pick<Request, 'target' | 'body'> | undefined> {
  const found = await suggestionFor(ctx, target);
  if (!found) return undefined;
  for (const note of found.work.notes) ctx.io.err(`note: ${note}\n`);
  // With --template, its *previous* comes first (the help topic's order), then the suggestion, each line once.
  const previous = answers.previous ? mergeLines(answers.previous, found.text) : found.text;
  if (previous === null) throw new UsageError('Nothing to fill in previous with: no earlier intentions, activities or commits', 'Give it with --previous "…".');
  return { target: { ...target, known: found.current }, body: { ...answers, previous } };
}
