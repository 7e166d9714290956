// How `comments` and `reactions` name what they are on: a check-in key, or --goal-update (domain/comment-target.ts finds it).
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Commentable } from '../../api/endpoints.js';
import { UUID_RE } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { commentTarget } from '../../domain/comment-target.js';
import { jsonOption, type JsonFlag } from '../../ui/output.js';
import { isIdPrefix } from '../../core/short-ids.js';

export interface CommentableOptions {
  key?: string;
  /** Whose check-in on that day (a name, @username, UUID or me); mine when absent. */
  person?: string;
  goalUpdate?: string;
  json?: JsonFlag;
}

/** `[key] [person]`, --goal-update and --json (with the fields of what is printed): how comments and reactions name what they are on. */
export function commentableOptions<O extends OptionValues>(cmd: Command<[], O>, jsonFields: readonly string[]) {
  return (
    cmd
      // [person] is read from the arguments after [key] rather than declared (personOf), as `checkin
      // checkin` does: declared, it would widen the column of every command in `checkin --help`.
      .argument(
        '[key]',
        'the check-in: UUID, YYYY-MM-DD, today, yesterday, a weekday or last; then, optionally, whose: a name, @username or UUID (yours when left out)',
      )
      .usage('[options] [key] [person]')
      .allowExcessArguments()
      .option('--goal-update <id>', 'a goal update instead of a check-in')
      .addOption(jsonOption(jsonFields))
  );
}

/** The person named after the key (`checkin comments today @grace`), from the command's arguments. */
export function personOf(args: string[]): string | undefined {
  const [, person, ...more] = args;
  if (more.length) throw new UsageError('Too many arguments: a key and, optionally, a person (quote a name with spaces: "Grace Hopper")');
  return person;
}

/** The check-in or goal update; undefined when a date has no check-in (said on stderr; `[]` for --json). */
export async function commentable(ctx: Context, opts: CommentableOptions): Promise<Commentable | undefined> {
  const { key } = opts;
  if (opts.goalUpdate !== undefined && key !== undefined) throw new UsageError('Give either a check-in key or --goal-update, not both');
  if (opts.goalUpdate !== undefined && !UUID_RE.test(opts.goalUpdate) && !isIdPrefix(opts.goalUpdate))
    throw new UsageError(`--goal-update takes a goal update's UUID (or its start); "${opts.goalUpdate}" is not one`);
  if (opts.goalUpdate === undefined && key === undefined)
    throw new UsageError('Give a check-in key (UUID, YYYY-MM-DD, today, yesterday, a weekday or last), or --goal-update ID');
  const found = await commentTarget(
    ctx,
    opts.goalUpdate !== undefined ? { goalUpdate: opts.goalUpdate } : { checkIn: key!, ...(opts.person !== undefined && { person: opts.person }) },
  );
  if ('kind' in found) return found;
  ctx.io.err(`No check-in scheduled for ${found.none}\n`);
  if (opts.json) ctx.io.out('[]\n');
  return undefined;
}
