// `checkin people`: the people of the account.
import { Command } from '@commander-js/extra-typings';
import { allPeople } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { JSON_FIELDS, jsonOption, printList, type JsonFlag } from '../../ui/output.js';
import { peopleRows } from '../../ui/views.js';
import type { Run } from '../flags.js';

export interface PeopleOptions {
  json?: JsonFlag;
}

export function peopleCommand(ctx: Context, run: Run<PeopleOptions> = runPeople) {
  return new Command('people')
    .description('List the people of the account')
    .addOption(jsonOption(JSON_FIELDS.person))
    .action((opts) => run(ctx, opts));
}

export async function runPeople(ctx: Context, opts: PeopleOptions): Promise<void> {
  const list = await allPeople(await ctx.api());
  await printList(ctx.io, ctx.now(), list, opts.json, 'No people.', peopleRows);
}
