// `checkin stats`: the pictures of a period — a calendar of scheduled days, streaks, mood over
// time, blocked days a week and the open blockers — for yourself, a person or a team (as a whole,
// never person by person: no ranking, no score). The accessible mode says them as sentences.
// Requests: one paged walk of the check-ins of the weeks (as `list --all`), `GET /me` and the
// directory only when not cached.
import { Command, Option } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { gatherStats, STATS_WEEKS } from '../../domain/stats.js';
import { UsageError } from '../../errors.js';
import { makeColors } from '../../ui/color.js';
import { printJson, type JsonFlag, jsonOption } from '../../ui/output.js';
import { statsSentences, statsView } from '../../ui/stats-view.js';
import { unicodeLocale } from '../../ui/wall.js';
import { sentences } from '../../ui/wrap.js';
import { intOption, pauseNotice, type Run } from '../flags.js';

export const STATS_FIELDS = [
  'kind',
  'person',
  'teams',
  'people',
  'zone',
  'since',
  'until',
  'today',
  'weeks_count',
  'streak',
  'totals',
  'days',
  'weeks',
  'open_blockers',
] as const;

export interface StatsOptions {
  person?: string;
  team?: string[] | true;
  weeks?: number;
  json?: JsonFlag;
}

const collectTeams = (value: string, previous: string[] | true | undefined): string[] => [...(Array.isArray(previous) ? previous : []), value];

export function statsCommand(ctx: Context, run: Run<StatsOptions> = runStats) {
  return new Command('stats')
    .description("Pictures of the weeks: a calendar of scheduled days, streaks, mood over time, blockers (yours, a person's or a team's)")
    .option('--person <who>', 'a person: UUID, me, a name or @username (default: me)')
    .addOption(new Option('--team [team]', 'a team as a whole (UUID or name, repeatable; alone: the team setting, else all of yours)').argParser(collectTeams))
    .addOption(intOption('--weeks <n>', `how many weeks, this one included (default ${STATS_WEEKS.default}, at most ${STATS_WEEKS.max})`, 1, STATS_WEEKS.max))
    .addOption(jsonOption(STATS_FIELDS))
    .addHelpText(
      'after',
      '\nA team is shown as a whole: how many filled each day, the mood mix, blocked days — never a ranking of people.\nStreaks: days with nothing scheduled and absences never break one; today still pending does not until the day is over.\n\nExamples:\n  checkin stats\n  checkin stats --weeks 26\n  checkin stats --team Platform\n  checkin stats --person @grace --json streak,totals',
    )
    .action((opts) => run(ctx, opts));
}

export async function runStats(ctx: Context, opts: StatsOptions): Promise<void> {
  if (opts.person !== undefined && opts.team !== undefined)
    throw new UsageError('Give --person or --team, not both: a team is shown as a whole, never person by person');
  const stats = await gatherStats(ctx, { person: opts.person, team: opts.team, weeks: opts.weeks }, { onPause: pauseNotice(ctx) });
  if (opts.json) return printJson(ctx.io, stats, opts.json);
  ctx.io.page();
  if (ctx.io.accessible) return ctx.io.out(sentences(statsSentences(stats), ctx.io));
  ctx.io.out(statsView(stats, { columns: ctx.io.columns, colors: await makeColors(ctx.io.colorLevel), unicode: unicodeLocale(ctx.env) }));
}
