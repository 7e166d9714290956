import * as z from 'zod';
import { CHECK_IN } from '../../api/types.js';
import { arrayOf, object } from '../../api/validate.js';

import { dayRange } from '../../domain/days.js';
import { checkInFilter, checkInPage } from '../../domain/list-checkins.js';
import { RANGE_DAY } from '../args.js';
import { done, plainView } from '../kit.js';
import { markedCheckIns } from '../marked.js';
import { fromService, MORE } from '../results.js';
import { READS, tool } from '../tool.js';

export const listCheckinsTool = tool({
  name: 'list_checkins',
  title: 'List check-ins',
  description: 'Check-ins, newest first, filtered by days, blocked, people and teams; one page at a time.',
  input: () => ({
    since: RANGE_DAY().optional().describe('from this day'),
    until: RANGE_DAY().optional().describe('up to this day, inclusive'),
    blocked: z.boolean().optional().describe('only check-ins with blockers'),
    person: z.array(z.string()).optional().describe('people: me, a UUID, a name or an @username'),
    team: z.array(z.string()).optional().describe('teams: a UUID or a name'),
    page: z.number().int().min(1).max(100000).optional(),
    per_page: z.number().int().min(1).max(50).optional().describe('at most 50 (the service gives 20 by default)'),
  }),
  output: object({
    check_ins: arrayOf(fromService(CHECK_IN, 'a check-in')),
    more_may_follow: MORE('the page was full: ask for the next one'),
  }),
  hints: READS,
  run: async (served, args) => {
    const { ctx } = served;
    const days = await dayRange(ctx, args, { since: 'since', until: 'until' });
    const filter = await checkInFilter(ctx, { ...days, blocked: args.blocked, people: args.person, teams: args.team });
    const { list, full } = await checkInPage(ctx, filter, { page: args.page, perPage: args.per_page });
    const text =
      list.length === 0
        ? 'No check-ins match.'
        : `${markedCheckIns(await plainView(ctx), list)}${full ? `More may follow: page ${(args.page ?? 1) + 1}.` : ''}`;
    return done(text, { check_ins: list, more_may_follow: full });
  },
});
