// `checkin goals`: goals (mine by default) with their ids.
import { Command } from '@commander-js/extra-typings';
import { allGoals } from '../../api/endpoints.js';
import { loggedInToken, type Context } from '../../context.js';
import { me, resolvePeople, resolveTeams } from '../../domain/account.js';
import { JSON_FIELDS, jsonOption, printList, type JsonFlag } from '../../ui/output.js';
import { goalRows } from '../../ui/views.js';
import { whoOptions, type Run, type WhoOptions } from '../flags.js';

export interface GoalsOptions extends WhoOptions {
  json?: JsonFlag;
}

export function goalsCommand(ctx: Context, run: Run<GoalsOptions> = runGoals) {
  return whoOptions(new Command('goals'))
    .description('List goals (mine by default) with their ids')
    .addOption(jsonOption(JSON_FIELDS.goal))
    .action((opts) => run(ctx, opts));
}

export async function runGoals(ctx: Context, opts: GoalsOptions): Promise<void> {
  const team_ids = await resolveTeams(ctx, opts.team);
  // Mine by default: how users find goal ids.
  const people_ids = opts.person?.length ? await resolvePeople(ctx, opts.person) : team_ids.length ? [] : [(await me(ctx)).id];
  const api = await ctx.api();
  const list = await allGoals(api, { people_ids, team_ids });
  // Remembered for completing goal ids on Tab (best effort).
  await ctx.config().cache(api.baseUrl, loggedInToken(ctx).value, 'goals', list.map((g) => ({ id: g.id, title: g.title })));
  await printList(ctx.io, ctx.now(), list, opts.json, 'No goals match.', goalRows);
}
