import { CHECK_IN } from '../../api/types.js';
import { object, orNull } from '../../api/validate.js';

import { fetchOrNull } from '../../domain/target.js';
import { DAY } from '../args.js';

import { checkInTarget, done, plainView } from '../kit.js';
import { markedCheckIn } from '../marked.js';
import { ASKED_DAY, fromService } from '../results.js';
import { READS, tool } from '../tool.js';

export const getCheckinTool = tool({
  name: 'get_checkin',
  title: 'Get a check-in',
  description:
    "My check-in for a day (today's by default): its answers, mood, whether it is filled in, and its link. check_in is null when no check-in is scheduled that day.",
  input: () => ({ day: DAY().optional() }),
  output: object({ day: ASKED_DAY, check_in: orNull(fromService(CHECK_IN, 'a check-in')) }),
  hints: READS,
  run: async (served, { day }) => {
    const { ctx } = served;
    const target = await checkInTarget(ctx, day);
    const c = await fetchOrNull(ctx, target);
    if (!c) return done(`No check-in scheduled for ${target.label}.`, { day: target.label, check_in: null });
    return done(markedCheckIn(await plainView(ctx), c), { day: target.label, check_in: c });
  },
});
