// The questions of `checkin today` on a terminal. Answers are lines (a suggestion can be kept,
// trimmed or edited line by line), the mood is found by typing, each answer is kept as a draft
// as soon as it is given (Ctrl-C loses nothing, and says so), a preview, then send, edit or
// cancel. A check-in already filled in is shown, and single answers can be changed. It only asks:
// what the person chose is the plan's answers (and the drafts it was built on), handed back to the
// command's one send (fill.ts), which says it in one line. Loaded only when a person is asked.

import { DATE_KEY_RE, MOODS, MOOD_NAMES, type CheckIn, type CheckInAnswers, type Mood } from '../../api/types.js';
import type { Context } from '../../context.js';
import {
  ANSWER_FIELDS,
  ANSWER_NAMES,
  answersOf,
  buildTemplate,
  mergeLines,
  readTemplate,
  SECTIONS,
  withTemplate,
  type AnswerField,
  type TextField,
} from '../../core/checkin-answers.js';
import { asSent, blockerRuns, daysLabel, joinBlockers } from '../../core/blockers.js';
import { shortDay } from '../../core/dayname.js';
import { CancelledError } from '../../errors.js';
import { baseOf, drop, dropOwn, keep, keepOnStop, waitingFor, whenLabel, type DraftContent, type Entry } from '../../domain/outbox.js';
import { hereCommand, keptLine } from '../flags.js';
import { fetchOrNull, type Target } from '../../domain/target.js';
import { plainInline } from '../../ui/markdown.js';
import { viewFor } from '../../ui/output.js';
import { renderCheckIn } from '../../ui/render.js';
import { sharedWith } from '../../domain/send-checkin.js';
import { sanitizeDeep, sanitizeLine } from '../../ui/sanitize.js';
import { editAnswers } from './edit.js';
import { checkInCommand, prefillTemplate, type AnswerPlan } from './given.js';
import { reportNone } from './say.js';
import { earlierCheckIns, previousSuggestion, recentActivities, recentCommits, workSince } from '../../domain/suggest.js';
import { previewHints } from '../../domain/writing-hints.js';
import { askedHere } from '../../domain/asked.js';

type Question = AnswerField;
const ALL: readonly Question[] = ANSWER_NAMES;
const KEYS_NOTE = 'Enter: next line · empty line: done · Backspace on an empty line: edit the one above';

/**
 * Asks for what the plan lacks (`plan` gives nothing): returns it filled in — the answers chosen,
 * the drafts they were built on, or the one draft to send as it is — or undefined when there is
 * nothing to send (no check-in scheduled, nothing changed; said here).
 */
export async function wizard(ctx: Context, target: Target, plan: AnswerPlan): Promise<AnswerPlan | undefined> {
  const { io } = ctx;
  const p = ctx.prompter();
  // While the check-in is fetched: the prompts load, and (for a date) the earlier check-ins that
  // "previous" is suggested from are asked for at the same time — one round trip to the first question.
  const earlier = DATE_KEY_RE.test(target.key) && !target.known ? earlierCheckIns(ctx, target.key).catch(() => undefined) : undefined;
  // What happened since the last check-in (activities now; git commits once the earlier check-ins tell since when).
  const activities = DATE_KEY_RE.test(target.key) ? recentActivities(ctx, target.key) : undefined;
  activities?.catch(() => undefined);
  const commits = DATE_KEY_RE.test(target.key) ? recentCommits(ctx, target.key) : undefined;
  // After git's start is queued: git runs on another core while the prompts load.
  p.warm?.();
  const view = await viewFor(io, ctx.now());
  const { c } = view;
  const current = await fetchOrNull(ctx, target);
  if (!current) {
    reportNone(ctx, target, false);
    return undefined;
  }
  const draftTarget = { kind: 'check-in', key: target.key } as const;
  /** Kept as typed, on the check-in as it was shown. */
  const keepHere = (content: DraftContent) => keep(ctx, draftTarget, content, 'typed', baseOf(current));
  let kept = false;
  const cancelled = () =>
    new CancelledError(
      kept
        ? `Not sent. ${keptLine(ctx, `${checkInCommand(target)} --resume`)} \`${hereCommand(ctx, checkInCommand(target))}\` goes through it again.`
        : current.completed_at
          ? 'Not sent; nothing was changed.'
          : 'Not sent; nothing was typed.',
    );
  // As it will be sent: blockers that say "none" go as none (a hint under the preview says so).
  // The teams it will be shared with, as the service will store them: the questions send no
  // team_ids, so all of the person's teams (the agent's question says the same).
  const teams = (await sharedWith(ctx, {})).teams;
  const show = (typed: CheckInAnswers) => {
    const answers = asSent(typed);
    return renderCheckIn(sanitizeDeep({ ...current, ...answers, blocked: Boolean(answers.blockers), teams } as CheckIn), c, true, view.width);
  };

  try {
    let answers: CheckInAnswers = answersOf(current);
    let questions = ALL;
    /** Drafts kept earlier that the person chose to build on: removed once this is sent. */
    let folds: Entry[] = [];
    // What waits for this check-in (a failed send, a pipe, an agent's draft): offered, the oldest first and the newest winning.
    const waiting = waitingAnswers(ctx, target, c.dim);
    if (waiting.pending.length > 0) {
      kept = true;
      const choice = await offerWaiting(ctx, target, waiting, (a) => show({ ...answers, ...a }), c.dim);
      // Sent as they are: one draft as it was kept, several as what they say together.
      if (choice === 'send')
        return waiting.pending.length === 1
          ? { ...plan, act: 'send', answers: waiting.answers, entry: waiting.pending[0]!, confirm: true }
          : { ...plan, act: 'send', answers: waiting.answers, words: 'typed', folds: waiting.pending, confirm: true };
      if (choice === 'discarded') kept = false;
      else {
        answers = { ...answers, ...waiting.answers };
        folds = waiting.pending;
      }
    } else if (current.completed_at) {
      // Filled in already: show it, and change what needs changing.
      io.err(c.dim('Already filled in:\n'));
      io.out(show(answers));
      const pick = await p.select<Question | 'all' | 'nothing'>('Change something?', [
        { name: 'Nothing', value: 'nothing' },
        ...ANSWER_FIELDS.map((f) => ({ name: f.prompt === 'yes-no' ? f.question : f.title, value: f.field })),
        { name: 'Everything', value: 'all' },
      ]);
      if (pick === 'nothing') {
        io.err('Nothing changed.\n');
        return undefined;
      }
      questions = pick === 'all' ? ALL : [pick];
    }
    // A check-in not filled in, no draft built on: the answer template fills what it does not say,
    // offered at each question as the last intentions are (its *previous* merged with them there,
    // its blockers after the last ones are followed); sent only as the preview's Send sends it.
    const template = current.completed_at || folds.length > 0 ? undefined : prefillTemplate(ctx, plan);
    answers = withTemplate(answers, template, ['previous', 'blockers']);

    const original = answersOf(current);
    /** Keeps the answers as they stand (Ctrl-C at the next prompt loses nothing); answers that change nothing leave no draft. */
    const keepAnswers = async (all: CheckInAnswers) => {
      if (sameAnswers(all, original)) {
        dropOwn(ctx, draftTarget);
        kept = folds.length > 0;
      } else kept = Boolean(keepHere({ kind: 'answers', answers: all })) || kept;
    };
    const step = async (update: CheckInAnswers) => {
      answers = { ...answers, ...update };
      await keepAnswers(answers);
    };
    /** One answer as lines; what is typed when Ctrl-C comes, the line being typed included, is kept. */
    const ask = async (field: TextField, message: string, note: string | undefined, keys: string) => {
      let typed: string | undefined;
      const changed = () => typed !== undefined && typed !== (answers[field] ?? '');
      // A stop signal (the terminal closed) while typing: the line being typed is kept too.
      const off = keepOnStop(ctx, () => {
        if (changed()) keepHere({ kind: 'answers', answers: { ...answers, [field]: typed } });
      });
      try {
        await step({ [field]: await askLines(ctx, message, answers[field], { note, keys }, (text) => (typed = text)) });
      } catch (err) {
        if (err instanceof CancelledError && changed()) await keepAnswers({ ...answers, [field]: typed });
        throw err;
      } finally {
        off();
      }
    };
    /** Before a question of lines: what it starts from (a suggestion, the last blockers followed through) and the note and keys under it. */
    const before: Partial<Record<TextField, () => Promise<{ note?: string; keys: string }>>> = {
      previous: async () => {
        if (answers.previous) return { keys: KEYS_NOTE };
        const s = await suggestPrevious(ctx, current, { earlier, activities, commits }, template?.previous);
        answers.previous = s.text;
        return { ...(s.note && { note: s.note }), keys: KEYS_NOTE };
      },
      blockers: async () => {
        if (answers.blockers == null && !current.completed_at && earlier) {
          const kept = await followBlockers(
            ctx,
            current,
            (await earlier) ?? [],
            (a) => keepHere({ kind: 'answers', answers: { ...answers, ...a } }),
            (a) => keepAnswers({ ...answers, ...a }),
          );
          if (kept !== undefined) await step({ blockers: kept });
        }
        if (!answers.blockers && template?.blockers) answers.blockers = template.blockers;
        // What Enter does depends on what is there: it keeps a blocker shown above it.
        const hint = answers.blockers ? 'Enter keeps the blockers above; Backspace takes them back to change or clear.' : 'Nothing: just press Enter.';
        return { keys: `${hint} ${KEYS_NOTE}` };
      },
    };
    for (const f of ANSWER_FIELDS) {
      if (!questions.includes(f.field)) continue;
      if (f.prompt === 'lines') {
        const help = (await before[f.field]?.()) ?? { keys: KEYS_NOTE };
        await ask(f.field, f.question, help.note, help.keys);
      } else if (f.prompt === 'mood') await step({ [f.field]: await askMood(ctx, answers.mood ?? null) });
      else await step({ [f.field]: await askYesNo(ctx, f.question, answers.previous_completed ?? true) });
    }

    for (;;) {
      io.err(c.dim('\nPreview (not sent yet):\n'));
      io.out(show(answers));
      // Hints about what would surprise once sent; they never stop the sending.
      for (const hint of await previewHints(ctx, answers)) io.err(c.yellow(`hint: ${sanitizeLine(hint.text)}`) + '\n');
      const next = await p.select(askedHere(ctx, 'Send it?'), [
        { name: 'Send', value: 'send' },
        { name: 'Edit in $EDITOR first', value: 'edit' },
        { name: 'Cancel (keep the draft)', value: 'cancel' },
      ]);
      if (next === 'send') break;
      if (next === 'cancel') throw cancelled();
      const edited = await editAnswers(ctx, target, buildTemplate(answers, current.date));
      if (!edited) throw new CancelledError(`Nothing was written in the editor. ${keptLine(ctx, `${checkInCommand(target)} --resume`)}`);
      await step(edited);
    }
    return { ...plan, act: 'send', answers: withoutNulls(answers), words: 'typed', folds, confirm: true };
  } catch (err) {
    if (err instanceof CancelledError && err.message === 'Cancelled') throw cancelled();
    throw err;
  }
}

/** What waits for this check-in, oldest first: the entries that read as answers, and what they say together (the newest winning). */
function waitingAnswers(ctx: Context, target: Target, dim: (text: string) => string): { pending: Entry[]; answers: CheckInAnswers } {
  const pending: Entry[] = [];
  let answers: CheckInAnswers = {};
  for (const e of waitingFor(ctx, { kind: 'check-in', key: target.key }).here) {
    let a: CheckInAnswers | undefined;
    if (e.content.kind === 'answers') a = e.content.answers;
    else if (e.content.kind === 'text') {
      const read = readTemplate(e.content.text);
      if (read.problems.length > 0) {
        ctx.io.err(dim(`A draft ${e.id} (saved ${whenLabel(e.created_at)}) cannot be read as answers; \`${checkInCommand(target)} --resume -e\` opens it.\n`));
        continue;
      }
      a = read.answers;
    }
    if (!a) continue;
    pending.push(e);
    answers = { ...answers, ...a };
  }
  return { pending, answers };
}

/** The drafts waiting, shown as they say it together: to be sent (one PATCH; each removed once accepted), discarded, or gone through with the questions. */
async function offerWaiting(
  ctx: Context,
  target: Target,
  waiting: { pending: Entry[]; answers: CheckInAnswers },
  show: (a: CheckInAnswers) => string,
  dim: (text: string) => string,
): Promise<'send' | 'discarded' | 'edit'> {
  const { pending } = waiting;
  const last = pending.at(-1)!;
  ctx.io.err(
    dim(
      pending.length === 1
        ? `An unsent draft for ${target.label}, saved ${whenLabel(last.created_at)}:\n`
        : `${pending.length} unsent drafts for ${target.label}, the newest saved ${whenLabel(last.created_at)}; together they say:\n`,
    ),
  );
  ctx.io.out(show(waiting.answers));
  const them = pending.length === 1 ? 'the draft' : 'the drafts';
  const choice = await ctx.prompter().select('What now?', [
    { name: `Send ${them}`, value: 'send' },
    { name: `Go through the questions with ${them} filled in`, value: 'edit' },
    { name: `Discard ${them}`, value: 'discard' },
  ]);
  if (choice === 'send') return 'send';
  if (choice === 'discard') {
    for (const e of pending) drop(ctx, e);
    return 'discarded';
  }
  return 'edit';
}

/** The suggestion for *previous*: the last intentions, then what went on since, picked in a checkbox; `note` says where it came from. */
async function suggestPrevious(
  ctx: Context,
  current: CheckIn,
  started: {
    earlier: Promise<CheckIn[] | undefined> | undefined;
    activities: ReturnType<typeof recentActivities> | undefined;
    commits: ReturnType<typeof recentCommits> | undefined;
  },
  fromTemplate?: string | null,
): Promise<{ text: string | null; note: string | undefined }> {
  const { c } = await viewFor(ctx.io, ctx.now());
  const s = await previousSuggestion(ctx, current, started.earlier);
  // The order the help topic gives: the template's lines, then the last intentions, then what went on since; each line once.
  let text = fromTemplate ? mergeLines(fromTemplate, s.text) : s.text;
  const from = s.from;
  let more = false;
  // Activities and commits since the last check-in: picked in a checkbox, then edited with the rest.
  const work = await workSince(
    ctx,
    current,
    (await started.earlier) ?? (await earlierCheckIns(ctx, current.date)),
    started.activities ?? recentActivities(ctx, current.date),
    started.commits ?? recentCommits(ctx, current.date),
  );
  for (const note of work.notes) ctx.io.err(c.dim(`note: ${note}\n`));
  const lines = (t: string | null | undefined) => (t ?? '').split('\n').filter((l) => l.trim() !== '');
  const templated = lines(fromTemplate);
  const intended = lines(s.text).filter((l) => !templated.some((t) => t.trim() === l.trim()));
  const planned = [...templated, ...intended];
  const extra = work.bullets.filter((b) => !planned.some((l) => l.trim() === b.trim()));
  if (extra.length > 0) {
    const picked = await pickWork(ctx, { templated, intended }, work.groups, from);
    text = picked.length > 0 ? picked.join('\n') : null;
    more = picked.some((l) => extra.includes(l));
  }
  const sources = [templated.length > 0 && 'your template', from && `what you intended on ${shortDay(from)}`, more && 'what went on since'].filter(
    (x): x is string => Boolean(x),
  );
  const source = sources.length > 1 ? `${sources.slice(0, -1).join(', ')}, and ${sources.at(-1)}` : sources[0];
  return { text, note: source ? `Suggested from ${source}.` : undefined };
}

/**
 * The blockers of my previous check-in, each with how long it has stood: still, resolved or
 * changed. From the earlier check-ins fetched for "previous" already: no request of its own.
 * Undefined when there were none to follow; else the blockers kept. `keepNow` keeps what is being
 * typed on a stop signal, `keepOnCancel` on Ctrl-C.
 */
async function followBlockers(
  ctx: Context,
  current: CheckIn,
  before: CheckIn[],
  keepNow: (a: CheckInAnswers) => void,
  keepOnCancel: (a: CheckInAnswers) => Promise<void>,
): Promise<string | undefined> {
  const p = ctx.prompter();
  const { c } = await viewFor(ctx.io, ctx.now());
  const last = before.filter((x) => x.completed_at && !x.absent && x.date < current.date).sort((a, b) => (a.date < b.date ? 1 : -1))[0];
  const runs = last ? blockerRuns(last, before) : [];
  if (runs.length === 0) return undefined;
  ctx.io.err(
    c.dim(`Your blockers on ${DATE_KEY_RE.test(last!.date) ? shortDay(last!.date) : sanitizeLine(last!.date)} — still there, resolved, or changed?\n`),
  );
  const kept: string[] = [];
  for (const run of runs) {
    const since = DATE_KEY_RE.test(run.since) ? shortDay(run.since) : sanitizeLine(run.since);
    const stood = `${daysLabel(run)}${run.days > 1 ? `, since ${since}${run.at_least ? ' or earlier' : ''}` : ''}`;
    const what = plainInline(run.text.replace(/^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/, ''))
      .replace(/\s+/g, ' ')
      .trim();
    const choice = await p.select<'still' | 'resolved' | 'changed'>(`${what} (${stood})`, [
      { name: 'Still blocked', value: 'still' },
      { name: 'Resolved', value: 'resolved' },
      { name: 'Changed: edit it', value: 'changed' },
    ]);
    if (choice === 'still') kept.push(run.text);
    else if (choice === 'changed') {
      // What is typed is kept as the draft's blockers if Ctrl-C or a stop signal comes while typing.
      let typed: string | undefined;
      const withTyped = () => ({ blockers: joinBlockers([...kept, typed ?? '']) });
      const off = keepOnStop(ctx, () => {
        if (typed !== undefined) keepNow(withTyped());
      });
      try {
        const edited = await askLines(ctx, 'The blocker now:', run.text, { note: undefined, keys: KEYS_NOTE }, (text) => (typed = text));
        if (edited.trim() !== '') kept.push(edited.replace(/\s+$/, ''));
      } catch (err) {
        if (err instanceof CancelledError && typed !== undefined) await keepOnCancel(withTyped());
        throw err;
      } finally {
        off();
      }
    }
  }
  return joinBlockers(kept);
}

/** The mood, found by typing; the current one first, so Enter keeps it. */
async function askMood(ctx: Context, now: Mood | null): Promise<Mood | null> {
  const choices = [{ name: '— none', value: null as Mood | null }, ...MOOD_NAMES.map((m) => ({ name: `${MOODS[m]} ${m}`, value: m as Mood | null }))];
  const ordered = now ? [choices.find((x) => x.value === now)!, ...choices.filter((x) => x.value !== now)] : choices;
  return ctx.prompter().search<Mood | null>('Mood', ordered);
}

/** A yes or no, or skip. */
async function askYesNo(ctx: Context, question: string, start: boolean): Promise<boolean | null> {
  return ctx.prompter().select<boolean | null>(
    question,
    [
      { name: 'Yes', value: true },
      { name: 'No', value: false },
      { name: 'Skip', value: null },
    ],
    { default: start },
  );
}

/** What fits on a screen of the checkbox beside the planned lines: the newest of each source, in turn. */
const OFFERED = 10;
const MORE = '\u0000more';

/**
 * What went on since the last check-in, picked in a checkbox: the planned lines, then the newest of
 * each source under its heading — a screenful, and "… and N more" to choose from the rest.
 */
async function pickWork(
  ctx: Context,
  start: { templated: string[]; intended: string[] },
  groups: Array<{ title: string; bullets: string[] }>,
  from: string | undefined,
): Promise<string[]> {
  const p = ctx.prompter();
  const seen = new Set([...start.templated, ...start.intended].map((l) => l.trim()));
  const sources = groups.map((g) => ({ title: g.title, bullets: g.bullets.filter((b) => !seen.has(b.trim())) })).filter((g) => g.bullets.length > 0);
  // Round robin over the sources, newest first in each, up to a screenful.
  const shown = new Map<string, string[]>(sources.map((g) => [g.title, []]));
  let offered = 0;
  for (let i = 0; offered < OFFERED && sources.some((g) => g.bullets.length > i); i++) {
    for (const g of sources) {
      if (offered < OFFERED && g.bullets[i] !== undefined) {
        shown.get(g.title)!.push(g.bullets[i]!);
        offered++;
      }
    }
  }
  const rest = sources.flatMap((g) => g.bullets.filter((b) => !shown.get(g.title)!.includes(b)).map((b) => ({ b, title: g.title })));
  const intended = from ? `What you intended on ${shortDay(from)}` : 'What you intended';
  const picked = await p.checkbox<string>('What went on since your last check-in?', [
    ...start.templated.map((l) => ({ name: l, value: l, checked: true, group: 'From your template' })),
    ...start.intended.map((l) => ({ name: l, value: l, checked: true, group: intended })),
    ...sources.flatMap((g) => shown.get(g.title)!.map((b) => ({ name: b, value: b, checked: true, group: g.title }))),
    ...(rest.length > 0 ? [{ name: `… and ${rest.length} more (pick this to choose from them)`, value: MORE, checked: false, group: 'Older' }] : []),
  ]);
  if (!picked.includes(MORE)) return picked;
  const older = await p.checkbox<string>(
    'The rest, newest first',
    rest.map(({ b, title }) => ({ name: b, value: b, checked: false, group: title })),
  );
  return [...picked.filter((x) => x !== MORE), ...older];
}

/** One answer, as lines, starting from what it holds (or a suggestion). */
async function askLines(
  ctx: Context,
  message: string,
  start: string | null | undefined,
  help: { note: string | undefined; keys: string },
  onInput: (text: string) => void,
): Promise<string> {
  const lines = start ? start.replace(/\s+$/, '').split('\n') : [];
  return ctx.prompter().lines(message, { lines, ...(help.note && { note: help.note }), keys: help.keys, onInput });
}

/** Whether `a` says the same as the check-in's own answers (an untouched pass). */
function sameAnswers(a: CheckInAnswers, original: CheckInAnswers): boolean {
  const text = (v: string | null | undefined) => (v ?? '').trim();
  return (
    SECTIONS.every((s) => text(a[s.field]) === text(original[s.field])) &&
    (a.mood ?? null) === (original.mood ?? null) &&
    (a.previous_completed ?? null) === (original.previous_completed ?? null)
  );
}

/** What the prompts produced, as the PATCH body: the answer fields only; blockers and mood are always sent (nothing and none when not given). */
function withoutNulls(a: CheckInAnswers): CheckInAnswers {
  const out: CheckInAnswers = {};
  for (const s of SECTIONS) {
    const v = a[s.field];
    if (v !== undefined && v !== null) out[s.field] = v;
  }
  out.blockers = a.blockers ?? '';
  out.mood = a.mood ?? null;
  if (a.previous_completed !== undefined && a.previous_completed !== null) out.previous_completed = a.previous_completed;
  if (a.team_ids) out.team_ids = a.team_ids;
  return out;
}
