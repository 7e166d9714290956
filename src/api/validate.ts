// Shapes: one description of an object gives its TypeScript type (Infer), the check run on what
// the service sent, and the MCP tools' schemas (src/mcp/kit.ts reads each shape's `def`). A body of
// the wrong shape is one clear "unexpected answer" error (exit 1), never a TypeError later, and
// never a draft deleted on a malformed 200. The descriptions of the service's objects are in
// types.ts, each beside its type.
//
// Why not zod here: zod/mini, as the description and the check, cost a one-request command ~6 ms
// of CPU a run (1.07–1.08× paired, Node 24); these few words cost nothing measurable. zod stays in
// the MCP server's bundle, which builds its schemas from the same descriptions.
//
// The check only looks (what the client hands on is the service's own object), stops at the first
// problem, and walks only the fields and items described: bounded by the answer, which the client
// has already bounded in bytes.

import { ApiError } from './errors.js';

/** What a shape describes, as data: what the MCP schemas are built from (with its words for a reader, when it has them). */
export type Def = (
  | { readonly kind: 'string' | 'number' | 'boolean' | 'unknown' }
  | { readonly kind: 'nullable' | 'optional' | 'array'; readonly of: Shape<unknown> }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Shape<unknown>>>; readonly from?: Shape<unknown> }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
) & { readonly description?: string };

/**
 * A check that also carries the type it proves: undefined when `v` is a T, else what is wrong
 * (`at` names the place). `def` says what it checks; `__type` is never set, it only carries T for Infer.
 */
export interface Shape<T> {
  (v: unknown, at: string): string | undefined;
  readonly def: Def;
  readonly __type?: T;
}

/** The type a shape proves. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

const shape = <T>(def: Def, check: (v: unknown, at: string) => string | undefined): Shape<T> => Object.assign(check, { def }) as Shape<T>;

const kind = (v: unknown) =>
  v === undefined ? 'missing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

export const str = shape<string>({ kind: 'string' }, (v, at) => (typeof v === 'string' ? undefined : `${at} is ${kind(v)}, not a string`));
export const num = shape<number>({ kind: 'number' }, (v, at) =>
  typeof v === 'number' ? (Number.isFinite(v) ? undefined : `${at} is ${v}, not a finite number`) : `${at} is ${kind(v)}, not a number`,
);
export const bool = shape<boolean>({ kind: 'boolean' }, (v, at) => (typeof v === 'boolean' ? undefined : `${at} is ${kind(v)}, not true or false`));
/** Not checked: a field checkin keeps or passes on (--json) but never reads. */
export const anything = shape<unknown>({ kind: 'unknown' }, () => undefined);

/** One of these words. */
export const oneOf = <const V extends string>(values: readonly V[]) =>
  shape<V>({ kind: 'enum', values }, (v, at) =>
    typeof v === 'string' && (values as readonly string[]).includes(v) ? undefined : `${at} is ${kind(v)}, not one of ${values.join(', ')}`,
  );

/** `s`, or null. */
export const orNull = <T>(s: Shape<T>) => shape<T | null>({ kind: 'nullable', of: s }, (v, at) => (v === null ? undefined : s(v, at)));

/** `s` when present: in an object, a field that may be left out. */
export const optional = <T>(s: Shape<T>) => shape<T | undefined>({ kind: 'optional', of: s }, (v, at) => (v === undefined ? undefined : s(v, at)));

export const arrayOf = <T>(s: Shape<T>) =>
  shape<T[]>({ kind: 'array', of: s }, (v, at) => {
    if (!Array.isArray(v)) return `${at} is ${kind(v)}, not a list`;
    for (let i = 0; i < v.length; i++) {
      const problem = s(v[i], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  });

type Fields = Record<string, Shape<unknown>>;
/** The fields whose shape accepts undefined: optional properties of the type. */
type OptionalKeys<F extends Fields> = { [K in keyof F]: undefined extends Infer<F[K]> ? K : never }[keyof F];
type Flat<T> = { [K in keyof T]: T[K] };
export type ObjectOf<F extends Fields> = Flat<{ [K in Exclude<keyof F, OptionalKeys<F>>]: Infer<F[K]> } & { [K in OptionalKeys<F>]?: Infer<F[K]> }>;

/** An object shape that keeps its fields' shapes in its type: pick, omit and fieldsOf read them. */
export type ObjectShape<F extends Fields> = Shape<ObjectOf<F>> & { readonly fields: F };

/** An object with these fields (others may be there, unchecked, and are kept); `from`: the shape it was cut from (pick, omit). */
export const object = <F extends Fields>(fields: F, from?: Shape<unknown>): ObjectShape<F> =>
  Object.assign(
    shape<ObjectOf<F>>({ kind: 'object', fields, ...(from && { from }), ...(from?.def.description && { description: from.def.description }) }, (v, at) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${at} is ${kind(v)}, not an object`;
      for (const [name, check] of Object.entries(fields)) {
        const problem = check((v as Record<string, unknown>)[name], `${at}.${name}`);
        if (problem) return problem;
      }
      return undefined;
    }),
    { fields },
  );

/** `s` with words for a reader (an MCP schema's description): the same check. */
export const described = <S extends Shape<unknown>>(s: S, description: string): S =>
  Object.assign((v: unknown, at: string) => s(v, at), s, { def: { ...s.def, description } });

/** The fields of an object shape, in its order (what --json can name). */
export const fieldsOf = <F extends Fields>(s: ObjectShape<F>) => Object.keys(s.fields) as Array<keyof F & string>;

/** The same object with only these fields (a face that carries less of one description). */
export const pick = <F extends Fields, K extends keyof F & string>(s: ObjectShape<F>, keys: readonly K[]) =>
  object(Object.fromEntries(keys.map((k) => [k, s.fields[k]])) as Pick<F, K>, s);

/** The same object without these fields. */
export const omit = <F extends Fields, K extends keyof F & string>(s: ObjectShape<F>, keys: readonly K[]) =>
  object(Object.fromEntries(Object.entries(s.fields).filter(([k]) => !(keys as readonly string[]).includes(k))) as Omit<F, K>, s);

/** `value` with only the fields `s` describes, in its order (what a face prints of an object checkin built). */
export function project<F extends Fields>(s: ObjectShape<F>, value: ObjectOf<F>): ObjectOf<F> {
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(s.fields).flatMap((k) => (Object.hasOwn(record, k) ? [[k, record[k]]] : []))) as ObjectOf<F>;
}

/** `data` as T, or an invalid-response ApiError naming the request and the first problem. */
export function expectShape<T>(data: unknown, s: Shape<T>, method: string, path: string, what: string): T {
  const problem = s(data, what);
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

/** How deep a JSON answer may nest: the service's deepest shape is a few levels; anything deeper is not read. */
export const MAX_JSON_DEPTH = 64;

/**
 * JSON text parsed with a bound on its nesting (its size is bounded where it is read: the
 * transport stops at its limit): undefined for text nested deeper than `max`, which is never
 * parsed, so that no later walk over it runs out of stack. Throws JSON.parse's SyntaxError.
 */
export function parseJsonBounded(text: string, max = MAX_JSON_DEPTH): { value: unknown } | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return undefined;
    } else if (c === 93 || c === 125) depth--;
  }
  return { value: JSON.parse(text) as unknown };
}
