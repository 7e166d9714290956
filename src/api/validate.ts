// Answers checked at the API boundary: a body of the wrong shape is one clear "unexpected
// answer" error (exit 1), never a TypeError later, and never a draft deleted on a malformed 200.
// Only what checkin reads is checked; fields it does not use may be anything.

import { ApiError } from './errors.js';

/** A check: undefined when `v` is fine, else what is wrong (`at` names the place). */
export type Check = (v: unknown, at: string) => string | undefined;

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

export const str: Check = (v, at) => (typeof v === 'string' ? undefined : `${at} is ${kind(v)}, not a string`);
export const num: Check = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? undefined : `${at} is ${kind(v)}, not a number`);
export const bool: Check = (v, at) => (typeof v === 'boolean' ? undefined : `${at} is ${kind(v)}, not true or false`);

/** `check`, or null. */
export const orNull =
  (check: Check): Check =>
  (v, at) =>
    v === null ? undefined : check(v, at);

/** `check` when present (undefined is fine). */
export const optional =
  (check: Check): Check =>
  (v, at) =>
    v === undefined ? undefined : check(v, at);

export const arrayOf =
  (check: Check): Check =>
  (v, at) => {
    if (!Array.isArray(v)) return `${at} is ${kind(v)}, not a list`;
    for (let i = 0; i < v.length; i++) {
      const problem = check(v[i], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };

export const object =
  (fields: Record<string, Check>): Check =>
  (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${at} is ${kind(v)}, not an object`;
    for (const [name, check] of Object.entries(fields)) {
      const problem = check((v as Record<string, unknown>)[name], `${at}.${name}`);
      if (problem) return problem;
    }
    return undefined;
  };

const ref = object({ id: str, name: str });
const optRef = optional(orNull(ref));
const text = optional(orNull(str));

export const PERSON = object({ id: str, name: str, username: optional(orNull(str)), title: text, time_zone: text, teams: optional(arrayOf(ref)) });
export const ME = object({ id: str, name: str, username: optional(orNull(str)), teams: optional(arrayOf(ref)), time_zone: text });
export const TEAM = object({ id: str, name: str, people: optional(arrayOf(ref)) });
export const CHECK_IN = object({
  id: str,
  date: str,
  person: optRef,
  teams: optional(arrayOf(ref)),
  previous: text,
  intentions: text,
  blockers: text,
  mood: text,
  previous_completed: optional(orNull(bool)),
  blocked: optional(bool),
  completed_at: text,
  url: text,
});
export const COMMENT = object({ id: str, body: str, person: optRef, created_at: str });
export const REACTION = object({ id: str, name: str, emoji: str, person: optRef, created_at: str });
export const GOAL = object({ id: str, title: str, progress: optional(orNull(num)), confidence: optional(orNull(num)), confidence_description: text, end_date: text, owner: optRef, teams: optional(arrayOf(ref)) });
export const GOAL_UPDATE = object({
  id: str,
  title: str,
  body: optional(orNull(str)),
  progress: num,
  confidence: num,
  confidence_description: optional(orNull(str)),
  created_at: str,
  person: optRef,
  goal: optional(orNull(object({ id: str, title: optional(str) }))),
});
export const ACTIVITY = object({ id: str, kind: str, group: text, title: text, description: text, recorded_at: str, url: text, person: optRef });

/** `data` as T, or an invalid-response ApiError naming the request and the first problem. */
export function expectShape<T>(data: unknown, check: Check, method: string, path: string, what: string): T {
  const problem = check(data, what);
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
