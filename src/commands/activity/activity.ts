// `checkin activity`: pull requests, issues… recorded by integrations, filtered.
import { Command } from '@commander-js/extra-typings';
import { allActivities } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { resolvePeople, resolveTeams, splitValues } from '../../domain/account.js';
import { dayRange } from '../../domain/days.js';
import { JSON_FIELDS, jsonOption, printList, type JsonFlag } from '../../ui/output.js';
import { activityRows } from '../../ui/views.js';
import { collect, whoOptions, type Run, type WhoOptions } from '../flags.js';

export interface ActivityOptions extends WhoOptions {
  kind?: string[];
  since?: string;
  until?: string;
  json?: JsonFlag;
}

export function activityCommand(ctx: Context, run: Run<ActivityOptions> = runActivity) {
  return whoOptions(new Command('activity'))
    .description('List activities (pull requests, issues…)')
    .option('--kind <kind>', 'github_pr, jira, linear… (repeatable)', collect)
    .option('--since <day>', 'from this day')
    .option('--until <day>', 'up to this day, inclusive')
    .addOption(jsonOption(JSON_FIELDS.activity))
    .action((opts) => run(ctx, opts));
}

/** An instant of a local day, as the ISO timestamp /activities wants. */
function atTime(day: string, time: '00:00:00' | '23:59:59'): string {
  return new Date(`${day}T${time}`).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export async function runActivity(ctx: Context, opts: ActivityOptions): Promise<void> {
  const { since, until } = await dayRange(ctx, opts, { since: '--since', until: '--until' });
  const query = {
    kinds: splitValues(opts.kind),
    team_ids: await resolveTeams(ctx, opts.team),
    people_ids: await resolvePeople(ctx, opts.person),
    // Dates become timestamps here: from the start of `since` to the end of `until`, local time.
    ...(since && { since: atTime(since, '00:00:00') }),
    ...(until && { until: atTime(until, '23:59:59') }),
  };
  const list = await allActivities(await ctx.api(), query);
  await printList(ctx.io, ctx.now(), list, opts.json, 'No activity matches.', activityRows);
}
