import { arrayOf, bool, described, object, str } from '../../api/validate.js';
import { SUGGESTION, SUGGESTION_SOURCE } from '../../core/shapes.js';
import { me } from '../../domain/account.js';
import { suggestionFor } from '../../domain/suggest.js';
import { DAY } from '../args.js';

import { checkInTarget, done, othersWords } from '../kit.js';
import { READS, tool } from '../tool.js';

export const suggestPreviousTool = tool({
  name: 'suggest_previous',
  title: 'Suggest "previous"',
  description:
    "What to answer for *previous* (what I did since my last check-in): the intentions of my last check-in, then my activities on the service (merged PRs, tickets, logged work) and my commits in local git repositories since then, each line with where it came from. Sends nothing. Use it as the start of draft_checkin's previous, with context added.",
  input: () => ({ day: DAY().optional() }),
  output: object({
    day: str,
    scheduled: described(bool, 'false when no check-in is scheduled that day (nothing is suggested)'),
    previous: SUGGESTION.fields.previous,
    sources: arrayOf(SUGGESTION_SOURCE),
    notes: described(arrayOf(str), 'sources left out, and why'),
  }),
  hints: READS,
  run: async (served, { day }) => {
    const { ctx } = served;
    const target = await checkInTarget(ctx, day);
    const found = await suggestionFor(ctx, target);
    if (!found)
      return done(`No check-in scheduled for ${target.label}: nothing to suggest.`, {
        day: target.label,
        scheduled: false,
        previous: null,
        sources: [],
        notes: [],
      });
    const { last, work, text } = found;
    const intentions = (last?.intentions ?? '').split('\n').filter((l) => l.trim() !== '');
    const sources = [
      ...(last && intentions.length > 0
        ? [{ source: 'intentions' as const, title: `The intentions of my check-in of ${last.date}`, date: last.date, lines: intentions }]
        : []),
      ...work.groups.map((g) => ({
        source: g.title.startsWith('Commits') ? ('commits' as const) : ('activity' as const),
        title: g.title,
        lines: g.bullets,
      })),
    ];
    const by = (await me(ctx)).name;
    const body =
      sources.length === 0
        ? 'Nothing to suggest: no earlier intentions, activities or commits.'
        : sources
            .map(
              (s) =>
                `${s.title}:\n${othersWords(s.source === 'commits' ? undefined : by, s.lines.join('\n'), { from: s.source === 'commits' ? 'local git repositories' : 'the service' })}`,
            )
            .join('\n');
    const notes = work.notes.map((n) => `note: ${n}`).join('\n');
    return done(`Suggestion for previous (${target.label}):\n\n${body}${notes ? `\n\n${notes}` : ''}\n`, {
      day: target.label,
      scheduled: true,
      previous: text,
      sources,
      notes: work.notes,
    });
  },
});
