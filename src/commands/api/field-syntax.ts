// `checkin api`'s fields, as gh api takes them: `-f key=value` a string, `-F key=value` typed
// (true, false, null, a JSON number, `@file` a file's text, `@-` standard input, anything else a
// string); `key[]=v` appends to an array, `key[sub]=v` sets in an object (`a[][k]=v` objects in an
// array), `-F key[]` alone an empty array. They become a JSON body, or a query for a GET.

import { UsageError } from '../../errors.js';

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };
export type Fields = Record<string, Value>;

/** A field as typed: its key split into its name and bracketed parts ('' for `[]`), and its value (undefined: `-F key[]`). */
export interface Field {
  flag: '-f' | '-F';
  raw: string;
  path: string[];
  value?: Value;
}

const KEY = /^([^[\]=]+)((?:\[[^[\]]*\])*)$/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Splits `key=value`; `key` alone only for an empty array (`-F key[]`). */
export function splitField(flag: '-f' | '-F', raw: string): { path: string[]; text?: string } {
  const eq = raw.indexOf('=');
  const key = eq === -1 ? raw : raw.slice(0, eq);
  const m = KEY.exec(key);
  if (!m) throw new UsageError(`${flag} ${raw}: the key must be a name, then [] or [name] parts (e.g. people_ids[]=me, goal[title]=Ship)`);
  const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((p) => p[1]!)];
  if (eq === -1) {
    if (flag === '-F' && path[path.length - 1] === '') return { path };
    throw new UsageError(`${flag} ${raw}: expected key=value`);
  }
  return { path, text: raw.slice(eq + 1) };
}

/** A -F value's type: true, false, null, a JSON number, or the text itself (`@file` is read by the caller). */
export function typedValue(text: string): Value {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (NUMBER.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n) && (Number.isSafeInteger(n) || !/^-?\d+$/.test(text))) return n;
  }
  return text;
}

const isObject = (v: Value | undefined): v is { [key: string]: Value } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Puts `value` at `path` in `into` (undefined value: an empty array at a path ending in []). */
function place(into: Fields | Value[], path: string[], value: Value | undefined, raw: string): void {
  const [seg, ...rest] = path as [string, ...string[]];
  if (Array.isArray(into)) {
    if (seg !== '') throw new UsageError(`${raw}: [${seg}] names a field of an array`);
    if (rest.length === 0) {
      if (value !== undefined) into.push(value);
      return;
    }
    if (rest[0] === '') throw new UsageError(`${raw}: arrays of arrays are not supported`);
    // a[][k]=v: into the last object while it does not have k yet, else a new object.
    const last = into[into.length - 1];
    if (isObject(last) && !(rest[0]! in last)) return place(last, rest, value, raw);
    const fresh: Fields = {};
    into.push(fresh);
    return place(fresh, rest, value, raw);
  }
  if (seg === '') throw new UsageError(`${raw}: [] after a name of an object`);
  if (rest.length === 0) {
    into[seg] = value === undefined ? [] : value;
    return;
  }
  const wantArray = rest[0] === '';
  const existing = into[seg];
  if (existing === undefined) into[seg] = wantArray ? [] : {};
  else if (wantArray ? !Array.isArray(existing) : !isObject(existing)) {
    throw new UsageError(`${raw}: "${seg}" is already ${Array.isArray(existing) ? 'an array' : isObject(existing) ? 'an object' : 'a value'}`);
  }
  if (rest.length === 1 && wantArray && value === undefined) return;
  place(into[seg] as Fields | Value[], rest, value, raw);
}

/** The fields, in the order given, as one object. */
export function buildFields(fields: Field[]): Fields {
  const out: Fields = {};
  for (const f of fields) place(out, f.path, f.value, `${f.flag} ${f.raw}`);
  return out;
}

/** The fields as a query, arrays repeated as `name[]=v` and objects as `name[key]=v`; null is `name=`. */
export function fieldsQuery(fields: Fields): string {
  const parts: string[] = [];
  const walk = (name: string, v: Value) => {
    if (Array.isArray(v)) for (const item of v) walk(`${name}[]`, item);
    else if (isObject(v)) for (const [k, item] of Object.entries(v)) walk(`${name}[${encodeURIComponent(k)}]`, item);
    else parts.push(`${name}=${v === null ? '' : encodeURIComponent(String(v))}`);
  };
  for (const [k, v] of Object.entries(fields)) walk(encodeURIComponent(k), v);
  return parts.join('&');
}
