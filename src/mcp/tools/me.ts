import { described, object, project, str } from '../../api/validate.js';
import { ME_RECORD } from '../../core/shapes.js';
import { me } from '../../domain/account.js';
import { today } from '../../domain/days.js';
import { done, plainView } from '../kit.js';
import { markedMe } from '../marked.js';
import { READS, tool } from '../tool.js';

export const meTool = tool({
  name: 'me',
  title: 'Me',
  description: 'Who the token belongs to: id, name, @username (for mentions), time zone, teams; and the date of my today.',
  input: () => ({}),
  output: object({ me: ME_RECORD, today: described(str, "the date of the person's today") }),
  hints: READS,
  run: async (served) => {
    const { ctx } = served;
    const person = await me(ctx);
    const day = await today(ctx);
    return done(markedMe(await plainView(ctx), person, day), { me: project(ME_RECORD, person), today: day });
  },
});
