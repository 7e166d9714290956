// Shapes: one description of an object gives its TypeScript type (Infer), the check run on what
// the service sent, and (src/mcp/) the MCP tools' schemas. A description is a zod/mini schema, built
// with the few words below. A body of the wrong shape is one clear "unexpected answer" error (exit
// 1), never a TypeError later, and never a draft deleted on a malformed 200. The descriptions of
// the service's objects are in types.ts, each beside its type.
//
// The check only looks: what the client hands on is the service's own object, not zod's copy. It
// generates no code (jitless: nothing is compiled at run time), and it is bounded by the answer,
// which the client has already bounded in bytes.

import * as z from 'zod/mini';
import { ApiError } from './errors.js';

z.config({ jitless: true });

/** A description that proves T (a zod/mini schema). */
export type Shape<T = unknown> = z.ZodMiniType<T>;

/** The type a shape proves. */
export type Infer<S extends Shape> = z.output<S>;

export const str = z.string();
/** A finite number (NaN and Infinity are refused). */
export const num = z.number();
export const bool = z.boolean();
/** Not checked: a field checkin keeps or passes on (--json) but never reads. */
export const anything = z.optional(z.unknown());

/** `s`, or null. */
export const orNull = z.nullable;

/** `s` when present: in an object, a field that may be left out. */
export const optional = z.optional;

export const arrayOf = z.array;

/** One of these words. */
export const oneOf = z.enum;

type Fields = Record<string, Shape>;

/**
 * An object with these fields; others may be there, unchecked, and are kept (MCP's schemas say so:
 * additional properties allowed). Typed with the named fields only: checkin reads nothing else.
 */
export const object = <F extends Fields>(fields: F) => z.looseObject(fields) as unknown as z.ZodMiniObject<F, z.core.$strip>;

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

const EXPECTED: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', array: 'a list', object: 'an object' };

/** Undefined when `v` is what `s` describes, else the first thing wrong, named from `at` ("the answer.person.name is a undefined, not a string"). */
export function problemIn(s: Shape, v: unknown, at: string): string | undefined {
  const result = z.safeParse(s, v);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  let here: unknown = v;
  let place = at;
  for (const key of issue.path) {
    here = typeof here === 'object' && here !== null && Object.prototype.hasOwnProperty.call(here, key) ? (here as Record<PropertyKey, unknown>)[key] : undefined;
    place += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  if (typeof here === 'number' && !Number.isFinite(here)) return `${place} is ${here}, not a finite number`;
  const expected = issue.code === 'invalid_type' ? EXPECTED[issue.expected] : undefined;
  return `${place} is ${kind(here)}, not ${expected ?? 'what checkin reads'}`;
}

/** `data` as T, or an invalid-response ApiError naming the request and the first problem. */
export function expectShape<T>(data: unknown, s: Shape<T>, method: string, path: string, what: string): T {
  const problem = problemIn(s, data, what);
  if (problem) {
    throw new ApiError({
      kind: 'invalid-response',
      method,
      path,
      detail: `unexpected answer: ${problem}`,
      suggestion: 'The service answered with something checkin does not understand; check CHECKIN_API_URL, or try again later.',
    });
  }
  return data as T;
}
