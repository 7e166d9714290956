// What `goal create` and `goal edit` share: the goal's fields as flags, a JSON body from a file
// or standard input (--input), the people and teams in it named as people name them (me, a name,
// @username) and turned into ids, and the interactive questions asked on a terminal.
import { type Command, type OptionValues } from '@commander-js/extra-typings';
import { UUID_RE, type GoalInput } from '../../api/types.js';
import { resumeEach, sendWithDraft, type DraftTarget } from '../../domain/outbox.js';
import type { Context } from '../../context.js';
import { isDateKey } from '../../core/datekey.js';
import { UsageError } from '../../errors.js';
import { resolveGoalNames, splitValues } from '../../domain/account.js';
import { JSON_FIELDS, jsonOption, type JsonFlag } from '../../ui/output.js';
import { collect, noPipeWithResume } from '../flags.js';

export interface GoalFieldOptions {
  title?: string;
  description?: string;
  edit?: boolean;
  startDate?: string;
  endDate?: string;
  owner?: string;
  team?: string[];
  contributor?: string[];
  parent?: string;
  input?: string;
  resume?: boolean;
  json?: JsonFlag;
}

export function goalFieldOptions<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option('--title <text>', 'the title')
    .option('--description <markdown>', 'the description (- reads standard input)')
    .option('-e, --edit', 'write the description in $EDITOR')
    .option('--start-date <date>', 'the start date, YYYY-MM-DD (none: no start date)')
    .option('--end-date <date>', 'the due date, YYYY-MM-DD (none: no due date)')
    .option('--owner <who>', 'the owner: UUID, me, a name or @username')
    .option('--team <team>', 'a team: UUID or name (repeatable, or a,b; none: no team)', collect)
    .option('--contributor <who>', 'a contributor: UUID, me, a name or @username (repeatable, or a,b; none: nobody)', collect)
    .option('--parent <goal-id>', 'the parent goal (none: no parent)')
    .option('--input <file>', 'the JSON body to send, from a file or standard input (-); the flags win over its fields')
    .option('--resume', 'send what was kept from a failed attempt')
    .addOption(jsonOption(JSON_FIELDS.goal, 'print the goal as JSON'));
}

const NONE = 'none';

/** YYYY-MM-DD, or none (null: clear it). */
export function parseGoalDate(value: string, flag: string): string | null {
  const v = value.trim();
  if (v.toLowerCase() === NONE) return null;
  if (!isDateKey(v)) throw new UsageError(`${flag} takes a date written YYYY-MM-DD, or none; got "${value}"`);
  return v;
}

/** A goal id (UUID), or none (null). */
export function parseParent(value: string, flag = '--parent'): string | null {
  const v = value.trim();
  if (v.toLowerCase() === NONE) return null;
  if (!UUID_RE.test(v)) throw new UsageError(`${flag} takes a goal id (a UUID) or none; got "${value}"`, 'List goals and their ids with `checkin goals`.');
  return v.toLowerCase();
}

/** Which option reads standard input, if any; two at once is refused. */
function stdinReader(flags: GoalFieldOptions): 'description' | 'input' | undefined {
  const readers = (['description', 'input'] as const).filter((k) => flags[k] === '-');
  if (readers.length > 1) throw new UsageError('Only one option can read standard input ("-"): --description or --input');
  return readers[0];
}

/** The --input body: a JSON object, read from the file or standard input. */
export async function readInputBody(ctx: Context, source: string): Promise<GoalInput> {
  let raw: string;
  const name = source === '-' ? 'Standard input' : source;
  if (source === '-') raw = await ctx.io.readStdin();
  else {
    try {
      raw = await (await import('node:fs/promises')).readFile(source, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        `Cannot read ${source}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message}`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new UsageError(
      `${name} is not JSON: ${(err as Error).message}`,
      'Give a JSON object, e.g. {"title": "Reduce p95 API latency", "end_date": "2027-06-30"}.',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(
      `${name} must hold a JSON object (the goal's fields), not ${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`}`,
    );
  return parsed as GoalInput;
}

/**
 * The fields the flags give (and --input, under them), people and teams as typed: `owner_id`,
 * `contributor_ids` and `team_ids` may still hold names or `me` (see resolveNames). The
 * description piped on standard input is read here.
 */
export async function givenFields(ctx: Context, flags: GoalFieldOptions): Promise<{ input: GoalInput; piped: boolean }> {
  const reader = stdinReader(flags);
  const input: GoalInput = flags.input !== undefined ? await readInputBody(ctx, flags.input) : {};
  // Checked before standard input is read: a bad flag does not swallow what was piped.
  const dates = {
    ...(flags.startDate !== undefined && { start_date: parseGoalDate(flags.startDate, '--start-date') }),
    ...(flags.endDate !== undefined && { end_date: parseGoalDate(flags.endDate, '--end-date') }),
  };
  const parent = flags.parent !== undefined ? { parent_id: parseParent(flags.parent) } : {};
  if (flags.title !== undefined) {
    if (flags.title.trim() === '') throw new UsageError('--title is empty');
    input.title = flags.title;
  }
  Object.assign(input, dates, parent);
  if (flags.owner !== undefined) input.owner_id = flags.owner.trim().toLowerCase() === NONE ? null : flags.owner;
  const list = (values: string[] | undefined) =>
    values === undefined ? undefined : values.some((v) => v.trim().toLowerCase() === NONE) ? [] : splitValues(values);
  const teams = list(flags.team);
  if (teams !== undefined) input.team_ids = teams;
  const contributors = list(flags.contributor);
  if (contributors !== undefined) input.contributor_ids = contributors;
  let piped = false;
  if (reader === 'description') {
    const text = (await ctx.io.readStdin()).replace(/\s+$/, '');
    if (text.trim() === '')
      throw new UsageError(
        'Nothing came on standard input for --description; nothing was sent',
        'To say there is none, give it as an empty value: --description "".',
      );
    input.description = text;
    piped = true;
  } else if (flags.description !== undefined) {
    input.description = flags.description;
  }
  return { input, piped: piped || reader === 'input' };
}

/** The fields to send, as given (`piped`: read from standard input; `fromFile`: from a file --input names, kept there). */
export async function givenGoal(ctx: Context, flags: GoalFieldOptions): Promise<{ input: GoalInput; piped: boolean; fromFile: boolean }> {
  const given = await givenFields(ctx, flags);
  return { ...given, fromFile: flags.input !== undefined && flags.input !== '-' && !given.piped };
}

/**
 * --resume: every goal (or set of changes) kept for `target`, oldest first, each sent once with
 * what is given now on top (a name fixed, say), its names resolved.
 */
export async function resumeGoals<T>(
  ctx: Context,
  target: DraftTarget,
  flags: GoalFieldOptions,
  what: string,
  resume: string,
  send: (body: GoalInput) => Promise<T>,
): Promise<T[]> {
  if (flags.input !== undefined) throw new UsageError(`--resume and --input cannot be combined: --resume sends ${what} kept earlier`);
  noPipeWithResume(resume, flags.description === '-');
  const extra = (await givenFields(ctx, flags)).input;
  const sent = await resumeEach(ctx, target, what, resume, (e, k) =>
    sendWithDraft(ctx, {
      target: e.target,
      ...k,
      send: async () => {
        if (e.content.kind !== 'goal') throw new UsageError(`The draft ${e.id} holds no goal`);
        return send(await resolveGoalNames(ctx, { ...e.content.input, ...extra }));
      },
    }),
  );
  return sent.map((s) => s.result);
}
