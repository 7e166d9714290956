// What a goal update's inputs must be, for both faces: ids are UUIDs, confidence one of the levels.
import { CONFIDENCE_LEVELS, UUID_RE } from '../api/types.js';
import { UsageError } from '../errors.js';

/** A goal's or an update's id, lower-cased; an error naming `what` when it is not a UUID. */
export function uuidOf(value: string, what: 'The goal id' | 'The update id'): string {
  if (!UUID_RE.test(value)) throw new UsageError(`${what} must be a UUID; "${value}" is not one`);
  return value.toLowerCase();
}

/** on-track | at-risk | off-track | 30 | 60 | 90 → the value the service stores; `name` is the asker's word for it. */
export function parseConfidence(value: string, name: string): number {
  const v = value.trim().toLowerCase();
  const level = CONFIDENCE_LEVELS.find((l) => l.slug === v || String(l.value) === v || l.label.toLowerCase() === v);
  if (!level) throw new UsageError(`${name} takes on-track, at-risk, off-track, 90, 60 or 30; got "${value}"`);
  return level.value;
}
