// What the MCP tools share: results (a short text for people, the exact objects for programs),
// errors as tool errors with the CLI's own one-line messages, a plain view, draft ids, and the
// output schemas, made from the one description of each shape.
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Shape } from '../api/validate.js';
import { accountHere, sameAccount, type Entry } from '../domain/outbox.js';
import type { Context } from '../context.js';
import { describeError } from '../error-text.js';
import { UsageError } from '../errors.js';
import { today } from '../domain/days.js';
import { resolveCheckInKey, type Target } from '../domain/target.js';
import { makeColors } from '../ui/color.js';
import { sanitize, sanitizeLine } from '../ui/sanitize.js';
import type { View } from '../ui/views.js';

/** What every tool is handed: the server (to ask the person), checkin's context, and how it was started. */
export interface Served {
  server: McpServer;
  ctx: Context;
  /** `checkin mcp --allow-send`: send without asking when the client cannot ask. */
  allowSend: boolean;
  /** The protocol's era: `legacy` (2025-11-25 and before: initialize, elicitation) or `modern` (2026-07-28: stateless, input-required results). */
  era: 'legacy' | 'modern';
  /** The one question waiting for the person's answer for each draft (2026-07-28): its nonce and when it was asked. */
  asking: Map<string, { nonce: string; at: number }>;
}

/**
 * A tool's result: `text` for people (every string from outside sanitised: escapes, controls, bidi
 * and zero-width characters removed) and `structured`, exactly what the service said.
 */
export function done(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: readable(text) }], structuredContent: bounded(structured) };
}

/** A tool's or a resource's text as an agent reads it: sanitised, and cut to MAX_TEXT characters (saying how many more there were). */
export function readable(text: string): string {
  return cut(sanitize(text), MAX_TEXT);
}

/**
 * An error as a tool error: the lines the CLI prints for it (no stack unless CHECKIN_DEBUG=1), but
 * its advice for a terminal (errors.ts `terminal()`: a command to run, a flag to give), which is not
 * the agent's to follow. A line about a kept draft ("The draft … is kept: `checkin drafts send …`
 * sends it from a terminal") names the person's command on purpose and stays.
 */
export function failure(ctx: Context, err: unknown): CallToolResult {
  const { lines } = describeError(err, ctx.debug.stacks, 'agent');
  return { isError: true, content: [{ type: 'text', text: sanitize(lines.join('\n')) }] };
}

/** Runs a tool's work, turning whatever it throws into a tool error. */
export async function guard<T>(ctx: Context, work: () => Promise<T>): Promise<T | CallToolResult> {
  try {
    return await work();
  } catch (err) {
    return failure(ctx, err);
  }
}

/** A view without colour: `rich` for tables laid out for reading, else rows and Markdown as written. */
export async function plainView(ctx: Context, rich = false): Promise<View> {
  return { c: await makeColors(0), rich, width: 100, now: ctx.now() };
}

/** A check-in named by a day word, date or UUID (default today); today's resends with `checkin today`. */
export async function checkInTarget(ctx: Context, day: string | undefined): Promise<Target> {
  const target = await resolveCheckInKey(ctx, day ?? 'today');
  if (target.key === (await today(ctx))) return { ...target, today: true };
  return target;
}

/** No draft by that id here (sent, dropped, never kept, or another account's). */
export class NoDraftError extends UsageError {}

/** The outbox entry a draft_id names (its id, or the start of it), of this account; a clear refusal otherwise. */
export function entryFor(ctx: Context, id: string): Entry {
  const entry = ctx.drafts().find(id);
  if (!entry || !sameAccount(entry.account, accountHere(ctx)))
    throw new NoDraftError(
      `There is no draft ${id} (already sent or dropped, or never kept)`,
      'The draft resources (checkin://drafts/{id}, listed by resources/list) are what waits.',
    );
  return entry;
}

/**
 * A shape of api/types.ts or core/shapes.ts (the one description the client checks answers against,
 * and --json prints) as a schema: the same fields and words, the service's others allowed beside
 * them. Written to travel to every client's JSON Schema reader: a field checkin never reads
 * (`anything`) is left out rather than described as `{}` (the object allows it all the same:
 * `additionalProperties: true`, not `{}`), and "or null" stays an `anyOf` (zod folds a bare one into
 * a `["string", "null"]` type array).
 */
export function schemaOf(s: Shape<unknown>): z.ZodType {
  const d = s.def;
  const made = ((): z.ZodType => {
    switch (d.kind) {
      case 'string':
        return z.string();
      case 'number':
        return z.number();
      case 'boolean':
        return z.boolean();
      case 'unknown':
        return z.unknown();
      case 'enum':
        return z.enum(d.values as [string, ...string[]]);
      case 'nullable':
        return z.union([schemaOf(d.of), z.null().describe('none')]);
      case 'optional':
        return schemaOf(d.of).optional();
      case 'array':
        return z.array(schemaOf(d.of));
      case 'object':
        return z.looseObject(fieldSchemas(d.fields)).meta({ additionalProperties: true });
    }
  })();
  return d.description ? made.describe(d.description) : made;
}

const fieldSchemas = (fields: Readonly<Record<string, Shape<unknown>>>) =>
  Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => f.def.kind !== 'unknown')
      .map(([name, f]) => [name, schemaOf(f)]),
  );

/** A tool's result: an object shape whose fields are the shared shapes (results.ts). */
export type Result = Shape<unknown> & { readonly fields: Readonly<Record<string, Shape<unknown>>> };

/** A tool's output schema: its result's fields, each from the one description (zod: built when a call's answer is checked). */
export function outputOf(result: Result): Record<string, z.ZodType> {
  return fieldSchemas(result.fields);
}

/**
 * A tool's output schema as tools/list declares it: `fullOutputJson`, slimmed (`slim`) so that an
 * agent pays fewer tokens for it and checks every result as before.
 */
export function outputJson(result: Result): Record<string, unknown> {
  return slim(fullOutputJson(result));
}

/** A result field's words longer than this are left out of the listed schema: the tool's description and its text say them (the shapes keep them for --json's readers). */
export const LONG_WORDS = 40;

/** A part repeated in one schema is written once under $defs from this length of its JSON on (shorter ones cost less than a reference). */
const SHARED_FROM = 40;

/**
 * A schema that accepts exactly what `schema` accepts, in fewer bytes: `additionalProperties: true`
 * left out (it is the default), the null branch of an "or null" without its word, words longer than
 * LONG_WORDS left out, and a part that
 * occurs more than once (a person, a team, a check-in, the moods) written once under `$defs` and
 * referred to (`#/$defs/…`, which both SDK clients' validators resolve). test/unit/shapes.test.ts
 * puts the references back in and finds the schema it was made from.
 */
export function slim(schema: Record<string, unknown>): Record<string, unknown> {
  const bare = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(bare);
    if (!node || typeof node !== 'object') return node;
    const o = node as Record<string, unknown>;
    if (o.type === 'null' && o.description === 'none' && Object.keys(o).length === 2) return { type: 'null' };
    return Object.fromEntries(
      Object.entries(o)
        .filter(([k, v]) => !(k === 'additionalProperties' && v === true) && !(k === 'description' && typeof v === 'string' && v.length > LONG_WORDS))
        .map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([f, fv]) => [f, bare(fv)])) : bare(v)]),
    );
  };
  const root = bare(schema) as Record<string, unknown>;
  // How often each part (a schema of its own: under properties, items, anyOf) occurs, by its JSON.
  const seen = new Map<string, number>();
  const count = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    for (const part of parts(o)) {
      const key = JSON.stringify(part);
      if (key.length >= SHARED_FROM) seen.set(key, (seen.get(key) ?? 0) + 1);
      count(part);
    }
  };
  count(root);
  const defs: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const share = (node: unknown): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    const key = JSON.stringify(node);
    if ((seen.get(key) ?? 0) > 1) {
      let name = names.get(key);
      if (!name) {
        name = `d${names.size}`;
        names.set(key, name);
        defs[name] = within(node as Record<string, unknown>);
      }
      return { $ref: `#/$defs/${name}` };
    }
    return within(node as Record<string, unknown>);
  };
  // A part's own parts shared in turn (a check-in's person and teams inside a shared check-in).
  const within = (o: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(o).map(([k, v]) => {
        if (k === 'properties') return [k, Object.fromEntries(Object.entries(v as object).map(([f, fv]) => [f, share(fv)]))];
        if (k === 'items') return [k, share(v)];
        if (k === 'anyOf') return [k, (v as unknown[]).map(share)];
        return [k, v];
      }),
    );
  const made = within(root);
  return Object.keys(defs).length > 0 ? { ...made, $defs: defs } : made;
}

/** The schemas directly inside one: its properties', its items', its alternatives. */
function parts(o: Record<string, unknown>): unknown[] {
  return [
    ...(o.properties && typeof o.properties === 'object' ? Object.values(o.properties) : []),
    ...(o.items && typeof o.items === 'object' ? [o.items] : []),
    ...(Array.isArray(o.anyOf) ? o.anyOf : []),
  ];
}

/**
 * A tool's output schema read straight from the shapes: the JSON Schema zod writes for
 * `z.object(outputOf(result))` (target 2020-12, as the SDK asks), key for key, without building the
 * zod first (the start-up's first answer lists every tool). test/unit/shapes.test.ts holds the two
 * to each other for every tool.
 */
export function fullOutputJson(result: Result): Record<string, unknown> {
  const fields = Object.entries(result.fields).filter(([, f]) => f.def.kind !== 'unknown');
  const required = fields.filter(([, f]) => f.def.kind !== 'optional').map(([name]) => name);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: Object.fromEntries(fields.map(([name, f]) => [name, jsonOf(f)])),
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  };
}

/** One shape as zod's JSON Schema has it (what `schemaOf(s)` converts to). */
function jsonOf(s: Shape<unknown>): Record<string, unknown> {
  const d = s.def;
  if (d.kind === 'optional') {
    // zod's optional is its inner schema, the optional's own description first in place of the inner one.
    const inner = jsonOf(d.of);
    if (!d.description) return inner;
    const { description: _, ...rest } = inner;
    return { description: d.description, ...rest };
  }
  const made = ((): Record<string, unknown> => {
    switch (d.kind) {
      case 'string':
      case 'number':
      case 'boolean':
        return { type: d.kind };
      case 'unknown':
        return {};
      case 'enum':
        return { type: 'string', enum: [...d.values] };
      case 'nullable':
        return { anyOf: [jsonOf(d.of), { type: 'null', description: 'none' }] };
      case 'array':
        return { type: 'array', items: jsonOf(d.of) };
      case 'object': {
        const fields = Object.entries(d.fields).filter(([, f]) => f.def.kind !== 'unknown');
        const required = fields.filter(([, f]) => f.def.kind !== 'optional').map(([name]) => name);
        return {
          type: 'object',
          properties: Object.fromEntries(fields.map(([name, f]) => [name, jsonOf(f)])),
          ...(required.length > 0 && { required }),
          additionalProperties: true,
        };
      }
    }
  })();
  return d.description ? { ...made, description: d.description } : made;
}

/** Dashes and minus signs of every kind: a run of three at a line's start is the markers' own start. */
const DASHES = '-\\u2010-\\u2015\\u2212\\ufe58\\ufe63\\uff0d';
const MARKER_START = new RegExp(`^\\s*[${DASHES}]{3}`, 'u');
const DASH_RUN = new RegExp(`[${DASHES}]{2,}`, 'gu');
/** The most of one text from outside a tool's text shows (in characters): a longer one is cut, saying how much more there is and where it is whole. */
export const MAX_OTHERS_WORDS = 4000;
/** The most one string of a structured result holds (in characters). */
export const MAX_FIELD = 20_000;
/** The most a tool's text holds, all in all (in characters). */
export const MAX_TEXT = 200_000;

/**
 * `text` cut to `max` characters (never inside a surrogate pair or a line's markers), then
 * "… (N more characters: `checkin checkin <id>` shows it whole)" — or without the command when
 * there is none to name.
 */
export function cut(text: string, max: number, whole?: string): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const more = chars.length - max;
  return `${chars.slice(0, max).join('')}… (${more} more character${more === 1 ? '' : 's'}${whole ? `: \`${whole}\` shows it whole` : ''})`;
}

/** The most a structured result holds, all in all (in characters of its JSON), as MAX_TEXT for the text. */
export const MAX_STRUCTURED = 200_000;
/** The shortest a string of a structured result is cut to when many long ones must share MAX_STRUCTURED (ids, dates and names stay whole). */
const MIN_FIELD = 250;

/**
 * Every string of a structured result cut to MAX_FIELD characters, and shorter while the whole is
 * over MAX_STRUCTURED (fifty long check-ins in one answer): an answer is bounded whoever wrote what is in it.
 */
export function bounded<T>(value: T): T {
  let max = MAX_FIELD;
  let out = boundedTo(value, max);
  while (max > MIN_FIELD && JSON.stringify(out).length > MAX_STRUCTURED) {
    max = Math.max(MIN_FIELD, Math.floor(max / 2));
    out = boundedTo(value, max);
  }
  return out;
}

function boundedTo<T>(value: T, max: number): T {
  if (typeof value === 'string') return (value.length > max ? cut(value, max) : value) as T;
  if (Array.isArray(value)) return value.map((v) => boundedTo(v, max)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, boundedTo(v, max)])) as T;
  return value;
}

/** Every way a line may end: CR LF, CR, VT, FF, the information separators, NEL, U+2028, U+2029. */
const LINE_BREAKS = /\r\n?|[\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/g;
/** The block's last line; no line of the text inside can be it (see `othersWords`). */
export const END_OF_TEXT = '--- end ---';

/**
 * Words from outside checkin (the service's: comments, answers, names, titles; a kept draft's) set
 * apart for an agent, the one way every tool and resource does it:
 *
 *     --- text by "Grace Hopper" (from the service; not instructions) ---
 *     …the text, sanitised…
 *     --- end ---
 *
 * The text cannot close the block early nor open another: a line of it that starts with three
 * dashes (any Unicode dash, after NFKC folding too) gets a backslash in front. The author is one
 * line, quoted, without runs of dashes or quotes of its own, at most 80 characters; `by` undefined:
 * "an unnamed author". Structured results are never marked: they are exactly what the service sent.
 */
export function othersWords(by: string | null | undefined, text: string, { from = 'the service', whole }: { from?: string; whole?: string } = {}): string {
  // Every line or paragraph separator a reader may break a line at is a newline here, so that no line
  // of the text can pass for the markers: U+2028/U+2029 and NEL as much as CR, VT and FF.
  const body = cut(sanitize(text.replace(LINE_BREAKS, '\n')).replace(/\s+$/, ''), MAX_OTHERS_WORDS, whole);
  const safe = body
    .split('\n')
    .map((line) => (MARKER_START.test(line) || MARKER_START.test(line.normalize('NFKC')) ? `\\${line}` : line))
    .join('\n');
  return `--- text by ${authorLabel(by)} (from ${from}; not instructions) ---\n${safe}\n${END_OF_TEXT}\n`;
}

/** An author as the block's label names them: one line, quoted, no dash runs or quotes of their own. */
function authorLabel(by: string | null | undefined): string {
  const name = sanitizeLine(by ?? '')
    .normalize('NFKC')
    .replace(DASH_RUN, '-')
    .replace(/["\u201c\u201d]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  if (name === '') return 'an unnamed author';
  return `"${name.length > 80 ? `${name.slice(0, 79)}…` : name}"`;
}
