import { CHECK_IN, type CheckInAnswers } from '../../api/types.js';
import { object, optional } from '../../api/validate.js';
import { readTemplate } from '../../core/checkin-answers.js';
import { baseOf, checkInNow, newerIn, whenLabel } from '../../domain/outbox.js';
import { sendAnswers, sharedWith } from '../../domain/send-checkin.js';
import { UsageError } from '../../errors.js';
import { DRAFT_ID } from '../args.js';
import {
  answersText,
  cannotAsk,
  checkInText,
  clientCanAsk,
  draftFor,
  GATED,
  keptLine,
  notSent,
  overNewer,
  overNewerQuestion,
  personSaysYes,
  sendCommand,
  sendFailed,
  withClaim,
} from '../ask.js';
import { checkInTarget, done } from '../kit.js';
import { fromService, SENT } from '../results.js';
import { tool } from '../tool.js';

export const sendCheckinTool = tool({
  name: 'send_checkin',
  title: 'Send a check-in draft',
  description: `Sends a draft_checkin draft (one PATCH of the check-in) after asking the person; nothing is sent if they say no or cannot be asked. The draft is deleted only once the service has the answers. ${GATED} A draft is sent at most once: a second send of it while one is under way is refused.`,
  input: () => ({ draft_id: DRAFT_ID() }),
  output: object({ ...SENT, check_in: optional(fromService(CHECK_IN, 'a check-in')) }),
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: async (served, { draft_id }, rctx) => {
    const { ctx } = served;
    const entry = draftFor(served, draft_id, 'check-in');
    const target = await checkInTarget(ctx, (entry.target as { key: string }).key);
    const resume = sendCommand(entry);
    let answers: CheckInAnswers;
    if (entry.content.kind === 'answers') answers = entry.content.answers;
    else if (entry.content.kind === 'text') {
      const read = readTemplate(entry.content.text);
      if (read.problems.length > 0)
        throw new UsageError(
          `The draft ${entry.id} cannot be sent as it is: ${read.problems.slice(0, 3).join('; ')}`,
          'Draft the check-in again with draft_checkin (this draft is left as it is).',
        );
      answers = read.answers;
    } else throw new UsageError(`The draft ${draft_id} holds no answers`);
    return withClaim(served, entry, async (claim) => {
      // Newer words on the service where the draft would write: the person sees them in the question, or nothing is sent.
      const seen = await checkInNow(ctx, target.key, target.known);
      const newer = seen && newerIn(entry, answers, seen);
      if (newer && !clientCanAsk(served, rctx)) throw overNewer(entry, newer);
      const shown = answersText(answers, await sharedWith(served.ctx, answers));
      const said = await personSaysYes(
        served,
        rctx,
        entry.id,
        newer ? overNewerQuestion(target.label, entry, newer, shown) : `Send your check-in for ${target.label}?\n\n${shown}`,
        cannotAsk(entry),
      );
      if ('ask' in said) return said.ask;
      if (!said.yes) return notSent(said, entry.id, resume);
      // Asked and answered within this call (2025-11-25's elicitation, up to 10 minutes): the yes
      // was to what the service held then. Changed since, nothing is sent (2026-07-28's retry
      // asks again by itself: its question no longer matches).
      if (seen && served.era === 'legacy' && clientCanAsk(served, rctx)) {
        const after = await checkInNow(ctx, target.key);
        const changed = after && newerIn({ ...entry, base: baseOf(seen) }, answers, after);
        if (changed)
          return done(
            `Not sent: the check-in was changed on the service while the person was asked (saved ${whenLabel(String(changed.now.updated_at))}). ${keptLine(resume, { draft: entry.id })} send_checkin asks again, showing what is there now.`,
            { sent: false, draft_id: entry.id, draft_kept: true, resume_command: resume, reason: 'changed while asked' },
          );
      }
      let sent;
      try {
        sent = await sendAnswers(ctx, target, answers, { keepDraft: false, entry, claim, quiet: true, resume });
      } catch (err) {
        throw sendFailed(served, err, entry, resume);
      }
      if (!sent)
        return done(`Not sent: no check-in is scheduled for ${target.label}. ${keptLine(resume, { draft: entry.id })}`, {
          sent: false,
          draft_id: entry.id,
          draft_kept: true,
          resume_command: resume,
          reason: 'no check-in scheduled',
        });
      return done(`Sent: checked in for ${target.label}.\n\n${await checkInText(served, sent)}`, {
        sent: true,
        draft_id: entry.id,
        draft_kept: false,
        resume_command: resume,
        check_in: sent,
      });
    });
  },
});
