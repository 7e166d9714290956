// How commands end: JSON (exactly the service's objects, or the fields named with --json a,b),
// views for people or rows for scripts, and a note on stderr when there is nothing to show (still
// exit 0). Lists, and the views a command names with io.page(), go through the pager on a
// terminal (ui/pager.ts); nothing that asks or edits does. Colour (chalk) is loaded only when
// something is shown to a person, and the colour level is not 0.
import { Option } from '@commander-js/extra-typings';
import { ACTIVITY, CHECK_IN, COMMENT, ECHO_ANSWER, ECHO_QUESTION, GOAL, GOAL_UPDATE, PERSON, REACTION, TEAM, type CheckIn } from '../api/types.js';
import { fieldsOf } from '../api/validate.js';
import { AUTH_STATUS, INBOX, ME_RECORD, STATUS, SUGGESTION, TEAM_DAY } from '../core/shapes.js';
import { UsageError } from '../errors.js';
import { makeColors } from './color.js';
import type { IO } from './io.js';
import { jsonText, renderCheckIn, renderJson } from './render.js';
import { sanitizeDeep } from './sanitize.js';
import type { View } from './views.js';

/** The view of this run's stdout: colours at its level, rich on a terminal, plain when piped. */
export async function viewFor(io: IO, now: Date): Promise<View> {
  return { c: await makeColors(io.colorLevel), rich: io.stdoutIsTTY, width: io.columns, now };
}

/** What --json was given: absent or false (no JSON), true (every field), or the fields to keep. */
export type JsonFlag = boolean | readonly string[] | undefined;

const CHECK_IN_FIELDS = fieldsOf(CHECK_IN);

/**
 * The fields --json can name, per kind of object printed: each shape's fields in its order, read
 * from its one description (the service's objects in api/types.ts, what checkin builds in
 * core/shapes.ts: the agent's output schemas are made from the same; some, as `auth status`'s, only the CLI prints).
 */
export const JSON_FIELDS = {
  checkIn: CHECK_IN_FIELDS,
  comment: fieldsOf(COMMENT),
  reaction: fieldsOf(REACTION),
  goal: fieldsOf(GOAL),
  goalUpdate: fieldsOf(GOAL_UPDATE),
  activity: fieldsOf(ACTIVITY),
  echoQuestion: fieldsOf(ECHO_QUESTION),
  echoAnswer: fieldsOf(ECHO_ANSWER),
  person: fieldsOf(PERSON),
  team: fieldsOf(TEAM),
  /** `checkin today` and `checkin checkin <key>`: the check-in; with --suggest, previous and these two. */
  answers: [...new Set([...CHECK_IN_FIELDS, ...fieldsOf(SUGGESTION)])],
  /** `checkin me`: the person as checkin keeps them. */
  me: fieldsOf(ME_RECORD),
  /** `checkin team`: one per team. */
  teamReport: fieldsOf(TEAM_DAY),
  /** `checkin status`. */
  status: fieldsOf(STATUS),
  /** `checkin auth status`. */
  authStatus: fieldsOf(AUTH_STATUS),
  /** `checkin inbox`; with --reply, the comment posted. */
  inbox: [...new Set([...fieldsOf(INBOX), ...fieldsOf(COMMENT)])],
} as const satisfies Record<string, readonly string[]>;

/** `--json [fields]` as gh has it: alone, every field; with a comma-separated list, only those (checked before any request). */
export class JsonOption extends Option<'--json [fields]', undefined, undefined, readonly string[]> {
  /** Set when the command also takes arguments: a lone unknown "field" may be one given after --json. */
  takesArguments = false;

  constructor(
    readonly fields: readonly string[],
    description = 'print as JSON',
  ) {
    super('--json [fields]', description);
    this.argParser((value: string, previous: readonly string[] | true | undefined) => {
      const named = value
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== '');
      const available = `Available fields: ${fields.join(', ')}`;
      if (named.length === 0) throw new UsageError('--json takes field names separated by commas, or nothing for every field', available);
      const unknown = named.filter((f) => !fields.includes(f));
      if (unknown.length > 0) {
        const argument = this.takesArguments && named.length === 1 ? `\nTo give ${jsonText(value)} as an argument instead, put it before --json.` : '';
        throw new UsageError(`Unknown JSON field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => jsonText(f)).join(', ')}`, available + argument);
      }
      return [...new Set([...(Array.isArray(previous) ? previous : []), ...named])];
    });
  }
}

/** The --json option of a command that prints these fields. */
export function jsonOption(fields: readonly string[], description?: string): JsonOption {
  return new JsonOption(fields, description);
}

/** The help section that names a command's JSON fields, wrapped to `width`. */
export function jsonFieldsHelp(fields: readonly string[], width = 80): string {
  const lines = [''];
  for (const [i, f] of fields.entries()) {
    const word = f + (i < fields.length - 1 ? ',' : '');
    const line = lines[lines.length - 1]!;
    if (line !== '' && 2 + line.length + 1 + word.length > width) lines.push(word);
    else lines[lines.length - 1] = line === '' ? word : `${line} ${word}`;
  }
  const example = fields
    .filter((f) => f !== 'type')
    .slice(0, 2)
    .join(',');
  return `\nJSON fields (--json prints them all, --json ${example} only those):\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/** `value` (each element of an array) narrowed to the fields --json named, in that order; all of it for plain --json. */
export function selectFields(value: unknown, json: JsonFlag): unknown {
  if (typeof json !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => selectFields(item, json));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(json.filter((f) => Object.hasOwn(record, f)).map((f) => [f, record[f]]));
}

export function printJson(io: IO, value: unknown, json: JsonFlag = true): void {
  io.out(renderJson(selectFields(value, json)));
}

/** One object: as JSON (exact), or — every string of it sanitised first — through `render` for people and scripts. */
export async function printOne<T>(io: IO, now: Date, value: T, json: JsonFlag, render: (v: View, value: T) => string): Promise<void> {
  if (json) return printJson(io, value, json);
  io.out(render(await viewFor(io, now), sanitizeDeep(value)));
}

/** A listing: on a terminal it goes through the pager (io.page()), as JSON too. */
export async function printList<T>(io: IO, now: Date, list: T[], json: JsonFlag, none: string, rows: (v: View, list: T[]) => string): Promise<void> {
  io.page();
  if (json) printJson(io, list, json);
  if (list.length === 0) io.err(`${none}\n`);
  else if (!json) io.out(rows(await viewFor(io, now), sanitizeDeep(list)));
}

/**
 * A list printed as it arrives: a JSON array written item by item (the same text as printList's),
 * or rows for people and scripts; `end` closes it (and says when there was nothing).
 */
export async function streamList<T>(io: IO, now: Date, json: JsonFlag, none: string, rows: (v: View) => (list: T[]) => string) {
  io.page();
  let n = 0;
  const part = json ? undefined : rows(await viewFor(io, now));
  return {
    add(items: T[]): void {
      if (items.length === 0) return;
      if (part) {
        io.out(part(sanitizeDeep(items)));
      } else {
        const text = items.map((item) => jsonText(selectFields(item, json)).replace(/^/gm, '  ')).join(',\n');
        io.out(`${n === 0 ? '[\n' : ',\n'}${text}`);
      }
      n += items.length;
    },
    end(): void {
      if (json) io.out(n === 0 ? '[]\n' : '\n]\n');
      if (n === 0) io.err(`${none}\n`);
    },
  };
}

export async function printCheckIn(io: IO, now: Date, c: CheckIn, json: JsonFlag): Promise<void> {
  await printOne(io, now, c, json, (v, x) => renderCheckIn(x, v.c, v.rich, v.width));
}
