// The questions of `checkin today` on a terminal: each answer kept as a draft as soon as it is
// given (Ctrl-C at the next prompt loses nothing, and says so), a preview, then send, edit or
// cancel. Loaded only when a person is asked.

import { MOODS, MOOD_NAMES, type CheckIn, type CheckInAnswers, type Mood } from '../../api/types.js';
import type { Context } from '../../context.js';
import { answersOf, buildTemplate } from '../../core/answers.js';
import { CancelledError } from '../../errors.js';
import { viewFor } from '../../ui/output.js';
import { renderCheckIn } from '../../ui/render.js';
import { sanitize, sanitizeDeep } from '../../ui/sanitize.js';
import { editAnswers } from './checkin-edit.js';
import { earlierPrefill, fetchOrNull, reportNone, sendAnswers, type Target } from './checkin-target.js';
import { keep } from './drafts.js';

export async function wizard(ctx: Context, target: Target): Promise<void> {
  const { io } = ctx;
  const p = ctx.prompter();
  const { c } = await viewFor(io, ctx.now());
  const current = await fetchOrNull(ctx, target);
  if (!current) return reportNone(ctx, target, false);
  const api = await ctx.api();
  const drafts = ctx.drafts();
  const draftTarget = { kind: 'check-in', key: target.key } as const;
  let kept = false;
  const cancelled = () =>
    new CancelledError(
      kept
        ? `Not sent. Your answers are kept as a draft: \`${target.resumeCommand} --resume\` sends them, \`${target.resumeCommand}\` goes through them again.`
        : 'Not sent; nothing was typed.',
    );

  try {
    let answers: CheckInAnswers = answersOf(current);
    const pending = drafts.get(api.baseUrl, draftTarget);
    if (pending?.content.kind === 'answers') {
      kept = true;
      const when = new Date(pending.saved_at).toLocaleString();
      const choice = await p.select(`You have an unsent draft for ${target.label} (saved ${when}). What now?`, [
        { name: 'Send the draft', value: 'send' },
        { name: 'Go through the questions with the draft filled in', value: 'edit' },
        { name: 'Discard the draft', value: 'discard' },
      ]);
      if (choice === 'send') {
        await sendAnswers(ctx, target, pending.content.answers, false, true);
        return;
      }
      if (choice === 'discard') {
        drafts.delete(api.baseUrl, draftTarget);
        kept = false;
      } else answers = { ...answers, ...pending.content.answers };
    }
    if (current.completed_at) {
      io.err(c.dim('Already filled in — answering again updates it:\n'));
      io.out(renderCheckIn(sanitizeDeep(current), c, true));
    }

    answers.previous ??= await earlierPrefill(ctx, current);
    const step = async (update: CheckInAnswers) => {
      answers = { ...answers, ...update };
      kept = (await keep(ctx, draftTarget, { kind: 'answers', answers })) || kept; // Ctrl-C at the next prompt keeps what was typed
    };
    await step({ previous: await askText(ctx, 'What did you do previously?', answers.previous) });
    await step({ intentions: await askText(ctx, 'What do you intend to do next?', answers.intentions) });
    await step({ blockers: await askText(ctx, 'Are you blocked by anything? (empty: no)', answers.blockers) });
    const mood = await p.select<Mood | null>(
      'Mood',
      [{ name: '— none', value: null }, ...MOOD_NAMES.map((m) => ({ name: `${MOODS[m]} ${m}`, value: m }))],
      { default: answers.mood ?? null },
    );
    await step({ mood });
    const done = await p.select<boolean | null>(
      'Did you do what you intended?',
      [
        { name: 'Yes', value: true },
        { name: 'No', value: false },
        { name: 'Skip', value: null },
      ],
      { default: answers.previous_completed ?? true },
    );
    await step({ previous_completed: done });

    for (;;) {
      io.err(c.dim('\nPreview (not sent yet):\n'));
      io.out(renderCheckIn(sanitizeDeep({ ...current, ...answers, blocked: Boolean(answers.blockers), teams: current.teams } as CheckIn), c, true));
      const next = await p.select('Send it?', [
        { name: 'Send', value: 'send' },
        { name: 'Edit in $EDITOR first', value: 'edit' },
        { name: 'Cancel (keep the draft)', value: 'cancel' },
      ]);
      if (next === 'send') break;
      if (next === 'cancel') throw cancelled();
      const edited = await editAnswers(ctx, target, buildTemplate(answers, current.date));
      if (!edited) throw new CancelledError(`Nothing was written in the editor. Your earlier answers are kept as a draft: \`${target.resumeCommand} --resume\` sends them.`);
      await step(edited);
    }
    await sendAnswers(ctx, target, withoutNulls(answers), false, true);
  } catch (err) {
    if (err instanceof CancelledError && err.message === 'Cancelled') throw cancelled();
    throw err;
  }
}

/**
 * One text answer. A one-line suggestion is the prompt's default; a longer one is shown above
 * the prompt, kept with Enter, and cleared with "-" (the prompt itself is a single line).
 */
async function askText(ctx: Context, message: string, suggestion: string | null | undefined): Promise<string> {
  const p = ctx.prompter();
  if (!suggestion || !suggestion.includes('\n')) return p.input(message, { default: suggestion ?? '' });
  const { c } = await viewFor(ctx.io, ctx.now());
  ctx.io.out(c.dim(sanitize(suggestion).replace(/^/gm, '  ')) + '\n');
  const typed = await p.input(`${message} (Enter keeps the text above, - clears it)`);
  return typed === '' ? suggestion : typed === '-' ? '' : typed;
}

/** What the prompts produced, as the PATCH body: the answer fields only. */
function withoutNulls(a: CheckInAnswers): CheckInAnswers {
  const out: CheckInAnswers = {};
  if (a.previous !== undefined && a.previous !== null) out.previous = a.previous;
  if (a.intentions !== undefined && a.intentions !== null) out.intentions = a.intentions;
  out.blockers = a.blockers ?? '';
  out.mood = a.mood ?? null;
  if (a.previous_completed !== undefined && a.previous_completed !== null) out.previous_completed = a.previous_completed;
  if (a.team_ids) out.team_ids = a.team_ids;
  return out;
}
