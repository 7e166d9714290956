import * as z from 'zod';
import { ACTIVITY } from '../../api/types.js';
import { bool, described, object, optional, str } from '../../api/validate.js';
import { activityInput, MAX_DESCRIPTION } from '../../domain/activity-input.js';
import { type Entry } from '../../domain/outbox.js';
import { logActivityKept } from '../../domain/writes.js';
import { CliError } from '../../errors.js';
import { activityQuestion, cannotAsk, cannotRecord, GATED, keepDraft, personSaysYes, readState, sendCommand, sendFailed } from '../ask.js';
import { done } from '../kit.js';
import { fromService } from '../results.js';
import { SENDS, tool } from '../tool.js';

/** Where a refused activity waits, and what the person can do with it. */
const keptAs = (entry: Entry) =>
  `Kept as draft ${entry.id}: \`${sendCommand(entry)}\` records it from a terminal (shown whole, asked first), \`checkin drafts drop ${entry.id}\` drops it.`;

export const logActivityTool = tool({
  name: 'log_activity',
  title: 'Log an activity',
  description: `Records an activity of mine on the service (POST /activities): it shows in the web app and in tomorrow's suggestion for previous. One short line (at most ${MAX_DESCRIPTION} characters) of what was done, with a link when there is one. ${GATED} It keeps the activity as a draft, asks the person (they see the text exactly as it will be sent, under their name), and records it only on their yes; on no, nothing is recorded and the draft stays for the person (\`checkin drafts\`).`,
  input: () => ({
    description: z.string().describe(`what was done, at most ${MAX_DESCRIPTION} characters`),
    url: z.string().optional().describe('an https:// link to it (a pull request, an issue…)'),
    group: z.string().optional().describe('the label it is shown under (default checkin)'),
  }),
  output: object({
    sent: described(bool, 'recorded on the service'),
    draft_id: optional(described(str, 'the draft it was kept as while the person was asked')),
    draft_kept: described(bool, 'the draft is still on disk (not recorded): `checkin drafts send <draft_id>` sends it from a terminal'),
    reason: optional(described(str, 'why nothing was recorded: declined, cancelled, no answer, stale answer')),
    activity: optional(fromService(ACTIVITY, 'an activity')),
  }),
  hints: SENDS,
  run: async (served, { description, url, group }, rctx) => {
    const { ctx } = served;
    const input = activityInput({ text: description, url, group: group ?? 'checkin' }, { url: 'url', group: 'group' });
    const target = { kind: 'activity' } as const;
    const content = { kind: 'activity', input } as const;
    const question = await activityQuestion(served, input);
    // 2026-07-28's retry names the entry its question was about: the same entry, never a new one.
    const retried = served.era === 'modern' ? rctx.mcpReq.requestState() : undefined;
    let entry: Entry | undefined;
    if (retried !== undefined) {
      const id = readState(retried)?.d;
      entry = id ? ctx.drafts().find(id) : undefined;
      if (!entry || entry.target.kind !== 'activity')
        return done('Not recorded: the answer was not to this question (its draft is gone, or the state is not one this server gave). Nothing was sent.', {
          sent: false,
          draft_kept: false,
          reason: 'stale answer',
        });
    } else {
      // A new entry for each call, held by it from the start: another process's resume leaves it
      // alone while the person is asked, and this long-lived process's earlier one (a send that
      // failed) is never changed. Under 2026-07-28 the question goes back to the client: the entry
      // waits (not held) for the retry.
      try {
        entry = keepDraft(served, target, content, { hold: served.era !== 'modern' }).entry;
      } catch (err) {
        if (!(err instanceof CliError)) throw err;
      }
    }
    const claim = entry ? ctx.drafts().take(entry) : undefined;
    try {
      const said = await personSaysYes(served, rctx, entry?.id ?? 'activity', question, entry ? cannotAsk(entry) : cannotRecord);
      if ('ask' in said) return said.ask;
      if (!said.yes) {
        // Kept on every no: a client may decline for the person without asking them (one that
        // advertises elicitation and answers it itself), and words no one saw are never lost. The
        // person sends it at a terminal, which shows it whole and asks (an agent's draft), or drops it.
        const what = entry ? keptAs(entry) : 'Nothing was kept or sent.';
        return done(`Not recorded: ${said.words}. ${what}`, {
          sent: false,
          ...(entry && { draft_id: entry.id }),
          draft_kept: Boolean(entry),
          reason: said.reason,
        });
      }
      await ctx.api(); // not logged in: said before anything is sent
      const resume = entry ? sendCommand(entry) : undefined;
      let activity;
      try {
        activity = await logActivityKept(ctx, input, { ...(entry && claim ? { entry, claim, resume } : { made: 'agent' as const }), quiet: true });
      } catch (err) {
        throw entry && resume ? sendFailed(served, err, entry, resume) : err;
      }
      return done(`Recorded the activity: ${input.description}`, { sent: true, ...(entry && { draft_id: entry.id }), draft_kept: false, activity });
    } finally {
      claim?.release();
    }
  },
});
