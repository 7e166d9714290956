import * as z from 'zod';

import { FEED } from '../../core/shapes.js';

import { feedStart, MAX_FEED_ENTRIES, readFeed } from '../../domain/feed.js';
import { done, plainView } from '../kit.js';
import { markedFeed } from '../marked.js';
import { READS, tool } from '../tool.js';

export const feedTool = tool({
  name: 'feed',
  title: 'What is new',
  description:
    "What is new for me since a time, newest first, from the service's own feed (its digest): comments on my check-ins and goal updates and @mentions of me, my teams' check-ins, others' updates of my goals. Reply to an entry with draft_comment on its reply_on. A service without a digest gives my teams' check-ins only (source says which). Reading it marks nothing as seen.",
  input: () => ({
    since: z
      .string()
      .optional()
      .describe(
        'from this time: ISO 8601 (2026-05-06T09:00:00Z), or a day — YYYY-MM-DD, today, yesterday or a weekday name — from its start (UTC); default yesterday',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_FEED_ENTRIES)
      .optional()
      .describe(`at most this many entries (default 50, the most one request brings; up to ${MAX_FEED_ENTRIES})`),
  }),
  output: FEED,
  hints: READS,
  run: async (served, { since, limit }) => {
    const { ctx } = served;
    const feed = await readFeed(ctx, { since: await feedStart(ctx, since ?? 'yesterday', 'since'), ...(limit !== undefined && { limit }) });
    const note =
      feed.source === 'check-ins' ? " This service has no feed (no digest): these are my teams' check-ins only; comments on mine are in the inbox tool." : '';
    const text =
      feed.items.length === 0
        ? `Nothing new since ${feed.since}.${note}`
        : `${feed.items.length} entr${feed.items.length === 1 ? 'y' : 'ies'} since ${feed.since}, newest first.${note}${feed.more_may_follow ? ' More may follow: ask again with since set to the oldest one shown, or a larger limit.' : ''}\n${markedFeed(await plainView(ctx), feed)}`;
    return done(text, feed);
  },
});
