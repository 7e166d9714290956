import * as z from 'zod';

import { AGENT_INBOX } from '../../core/shapes.js';
import { rangeDay } from '../../domain/days.js';
import { gatherInbox, inboxKey, inboxThreads, readMarker } from '../../domain/inbox-gather.js';
import { RANGE_DAY } from '../args.js';
import { done, plainView } from '../kit.js';
import { markedInbox } from '../marked.js';
import { READS, tool } from '../tool.js';

export const inboxTool = tool({
  name: 'inbox',
  title: 'Inbox',
  description:
    "Comments and reactions others left on my check-ins and goal updates: what is new since I last looked with `checkin inbox` (all: everything of the last two weeks). Reading it here does not mark anything as seen. Reply with draft_comment on a thread's type and id.",
  input: () => ({
    all: z.boolean().optional().describe('everything, not only what is new'),
    since: RANGE_DAY().optional().describe('look at check-ins and updates from this day on'),
  }),
  output: AGENT_INBOX,
  hints: READS,
  run: async (served, { all, since }) => {
    const { ctx } = served;
    const marker = readMarker(ctx, await inboxKey(ctx));
    const from = await rangeDay(ctx, since, 'since');
    const inbox = await gatherInbox(ctx, { ...(from && { since: from }), ...(marker?.seen_at && !all && { seenAt: marker.seen_at }) });
    const threads = inboxThreads(inbox);
    const text =
      inbox.threads.length === 0
        ? `Nothing ${marker?.seen_at && !all ? 'new ' : ''}on your check-ins and goal updates since ${marker?.seen_at && !all ? marker.seen_at : inbox.since}.`
        : markedInbox(await plainView(ctx), inbox);
    return done(text, { since: inbox.since, seen_before: marker?.seen_at ?? null, threads });
  },
});
