// The arguments several tools take, as zod, each made when a tool's input is built (tool.ts): never
// at start-up.
import * as z from 'zod';
import { ANSWER_FIELDS, type TextField } from '../core/checkin-answers.js';

/** A check-in by its day word, date or id. */
export const DAY = () =>
  z
    .string()
    .describe('today (the default), yesterday, a weekday name (the most recent before today), last (my latest before today), YYYY-MM-DD, or a check-in UUID');
/** A day of a range (since, until, a team's day). */
export const RANGE_DAY = () => z.string().describe('YYYY-MM-DD, today, yesterday or a weekday name (the most recent on or before today)');
export const PEOPLE = () => z.array(z.string()).optional().describe('people: me, a UUID, a name or an @username');
export const TEAMS = () => z.array(z.string()).optional().describe('teams: a UUID or a name');
export const DRAFT_ID = () => z.string().describe('the draft_id a draft_* tool returned');

/** draft_checkin's answer inputs, from the answer table (core/checkin-answers.ts): a text or mood is a string, yes-no a boolean. */
export const ANSWER_INPUTS = () =>
  Object.fromEntries(ANSWER_FIELDS.map((f) => [f.field, (f.prompt === 'yes-no' ? z.boolean() : z.string()).optional().describe(f.agent)])) as Record<
    TextField | 'mood',
    z.ZodOptional<z.ZodString>
  > & {
    previous_completed: z.ZodOptional<z.ZodBoolean>;
  };
