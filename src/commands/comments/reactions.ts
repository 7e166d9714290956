// `checkin reactions <key>`: the reactions on a check-in (or, with --goal-update, a goal update).
import { Command } from '@commander-js/extra-typings';
import { allReactions } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { JSON_FIELDS, printList } from '../../ui/output.js';
import { reactionRows } from '../../ui/views.js';
import type { Run } from '../flags.js';
import { commentable, commentableOptions, personOf, type CommentableOptions } from './commentable.js';

export type ReactionsOptions = CommentableOptions;

export function reactionsCommand(ctx: Context, run: Run<ReactionsOptions> = runReactions) {
  return commentableOptions(new Command('reactions'), JSON_FIELDS.reaction)
    .description('List the reactions on a check-in (or goal update)')
    .addHelpText(
      'after',
      '\nAPI v2 lists reactions but has no way to add or remove one: a comment is how to answer (checkin comments <key> --add "…").\n\nExamples:\n  checkin reactions last\n  checkin reactions today @grace\n  checkin reactions --goal-update <update-id> --json',
    )
    .action((key, opts, cmd) => {
      const person = personOf(cmd.args);
      return run(ctx, { ...opts, ...(key !== undefined && { key }), ...(person !== undefined && { person }) });
    });
}

export async function runReactions(ctx: Context, opts: ReactionsOptions): Promise<void> {
  const target = await commentable(ctx, opts);
  if (!target) return;
  const list = await allReactions(await ctx.api(), target);
  await printList(ctx.io, ctx.now(), list, opts.json, 'No reactions yet.', reactionRows);
}
