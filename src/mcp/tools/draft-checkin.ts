import * as z from 'zod';
import { CHECK_IN_ANSWERS, type CheckInAnswers, REF } from '../../api/types.js';
import { arrayOf, described, object, str } from '../../api/validate.js';
import { asSent } from '../../core/blockers.js';
import { ANSWER_NAMES, answersOf, orList, parseMood, SECTIONS } from '../../core/checkin-answers.js';
import { resolveTeams } from '../../domain/account.js';

import { baseOf } from '../../domain/outbox.js';
import { sharedWith } from '../../domain/send-checkin.js';
import { fetchOrNull } from '../../domain/target.js';
import { previewHints } from '../../domain/writing-hints.js';
import { UsageError } from '../../errors.js';
import { ANSWER_INPUTS } from '../args.js';
import { checkInText, DRAFT_ONLY, keepDraft, othersNote, sendCommand } from '../ask.js';
import { checkInTarget, done } from '../kit.js';
import { KEPT } from '../results.js';
import { DRAFTS, tool } from '../tool.js';

export const draftCheckinTool = tool({
  name: 'draft_checkin',
  title: 'Draft a check-in',
  description:
    'Keeps answers for a check-in as a draft on disk and returns its preview and draft_id; sends nothing. Show the preview to the person, then send_checkin sends it once they say yes. Answers left out keep what the check-in already says. Write short Markdown bullets; give every reference its context (what a PR or ticket is about, with its link); @mention people by @username; leave blockers empty ("") when nothing blocks — never "none". ' +
    DRAFT_ONLY,
  input: () => ({
    day: z.string().optional().describe('the check-in: today (default), yesterday, a weekday name, YYYY-MM-DD or a UUID'),
    ...ANSWER_INPUTS(),
    team: z.array(z.string()).optional().describe('share with these teams only (UUIDs or names; default all my teams)'),
  }),
  output: object({
    draft_id: str,
    day: str,
    answers: described(CHECK_IN_ANSWERS, 'the answers as they will be sent (those left out keep what the check-in says)'),
    shared_with: described(arrayOf(REF), 'the teams that will see it once sent (team, else all my teams)'),
    preview: described(str, 'the check-in as it will read once sent'),
    hints: described(
      arrayOf(str),
      'writing hints to show the person with the preview (an @mention of nobody on their teams, "none" as blockers sent as none, empty intentions); they never stop sending',
    ),
    ...KEPT,
  }),
  hints: DRAFTS,
  run: async (served, args) => {
    const { ctx } = served;
    const target = await checkInTarget(ctx, args.day);
    const answers: CheckInAnswers = {};
    for (const { field } of SECTIONS) if (args[field] !== undefined) answers[field] = args[field];
    if (args.mood !== undefined) answers.mood = parseMood(args.mood);
    if (args.previous_completed !== undefined) answers.previous_completed = args.previous_completed;
    if (args.team?.length) answers.team_ids = await resolveTeams(ctx, args.team);
    if (Object.keys(answers).length === 0) throw new UsageError(`Nothing to draft: give ${orList(ANSWER_NAMES)}`);
    const current = await fetchOrNull(ctx, target);
    if (!current) throw new UsageError(`No check-in scheduled for ${target.label}: nothing to draft`);
    const draftTarget = { kind: 'check-in', key: target.key } as const;
    const shared = await sharedWith(served.ctx, answers);
    // Its base is the check-in as the agent saw it now: a send never writes over words saved after it unseen.
    const { entry, others } = keepDraft(served, draftTarget, { kind: 'answers', answers }, { base: baseOf(current) });
    // The check-in as it will read once sent ("none" as blockers is sent as none), and the writing hints under it.
    const standing = asSent({ ...answersOf(current), ...answers });
    const preview = await checkInText(served, {
      ...current,
      ...answersOf({ ...current, ...standing }),
      blocked: Boolean(standing.blockers),
      teams: shared.teams,
    });
    const hints = (await previewHints(ctx, { ...answersOf(current), ...answers })).map((h) => h.text);
    const hintText = hints.length > 0 ? `\n\nHints for the person (they do not stop sending):\n${hints.map((h) => `- ${h}`).join('\n')}` : '';
    const resume = sendCommand(entry);
    return done(
      `Draft ${entry.id} kept (not sent).${othersNote(others)} Show the person this preview; send_checkin sends it once they say yes (\`${resume}\` sends it from a terminal).\n\n${preview}${hintText}`,
      { draft_id: entry.id, day: target.label, answers, shared_with: shared.teams, preview, hints, resume_command: resume, other_drafts: others },
    );
  },
});
