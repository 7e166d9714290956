// `checkin teams`: the account's teams, mine marked.
import { Command } from '@commander-js/extra-typings';
import { allTeams } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { me } from '../../domain/account.js';
import { JSON_FIELDS, jsonOption, printList, type JsonFlag } from '../../ui/output.js';
import { teamRows } from '../../ui/views.js';
import type { Run } from '../flags.js';

export interface TeamsOptions {
  json?: JsonFlag;
}

export function teamsCommand(ctx: Context, run: Run<TeamsOptions> = runTeams) {
  return new Command('teams')
    .description('List the teams (● marks yours)')
    .addOption(jsonOption(JSON_FIELDS.team))
    .action((opts) => run(ctx, opts));
}

export async function runTeams(ctx: Context, opts: TeamsOptions): Promise<void> {
  const [list, mine] = await Promise.all([allTeams(await ctx.api()), me(ctx)]);
  const ids = new Set(mine.teams.map((t) => t.id));
  await printList(ctx.io, ctx.now(), list, opts.json, 'No teams.', (v, l) => teamRows(v, l, ids));
}
