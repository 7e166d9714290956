// Wire types and constants of the check-in service, API v2 (docs/api.md):
// the objects' shapes, the moods, the confidence levels, paging and id formats. The client, the
// local service (src/sandbox), the views and the MCP tools' schemas (src/mcp/) all read them from
// here. Beside the shapes (descriptions that validate.ts runs), two small helpers of the vocabulary:
// isMood and nearestConfidence.

import { anything, arrayOf, bool, num, object, oneOf, optional, orNull, str, type Infer } from './validate.js';

// Each answer's shape is described once, and its type is inferred from that description: what the
// type promises is what the client checked. A field checkin reads is checked as loosely as the
// service allows (docs/api.md § Check-ins: everything of a check-in but id and date may be null or absent), and
// required only where the spec's schema requires it and checkin cannot do without it (a comment's
// or reaction's author, a goal update's body); a field checkin never reads is `anything` (type
// unknown): kept for --json, not checked.

const text = optional(orNull(str));

export const REF = object({ id: str, name: str });
export interface Ref extends Infer<typeof REF> {}
/** A person or team that may be missing or null. */
const maybeRef = optional(orNull(REF));
/** A goal or question referred to by id with its title (either may be missing or null but the id). */
const maybeTitled = optional(orNull(object({ id: str, title: text })));

const PERSON_FIELDS = {
  type: anything,
  id: str,
  name: str,
  /** The @mention handle, without the @. */
  username: text,
  email: anything,
  time_zone: text,
  title: text,
  location: anything,
  bio: anything,
  administrator: anything,
  kind: anything,
  account: anything,
  /** The person's teams (on /me and on /people items alike). */
  teams: optional(arrayOf(REF)),
  created_at: anything,
  updated_at: anything,
  /** The person's page in the web app. */
  url: anything,
};
export const PERSON = object(PERSON_FIELDS);
export interface Person extends Infer<typeof PERSON> {}

/** GET /me: the token's person (its teams, though the spec says they are there, are not required: checkin does without). */
export const ME = PERSON;
export interface Me extends Infer<typeof ME> {}

export const TEAM = object({ type: anything, id: str, name: str, people: optional(arrayOf(REF)) });
export interface Team extends Infer<typeof TEAM> {}

export const CHECK_IN = object({
  type: anything,
  id: str,
  date: str,
  person: maybeRef,
  teams: optional(arrayOf(REF)),
  previous: text,
  intentions: text,
  blockers: text,
  /** Text, not only the moods below: "the service may add" names (docs/api.md § Check-ins); views show an unknown one as it is. */
  mood: text,
  previous_completed: optional(orNull(bool)),
  blocked: optional(bool),
  absent: anything,
  completed_at: text,
  updated_at: anything,
  url: text,
});
export interface CheckIn extends Infer<typeof CHECK_IN> {}

export const COMMENT = object({ type: anything, id: str, body: str, person: REF, resource: anything, created_at: str });
export interface Comment extends Infer<typeof COMMENT> {}

export const REACTION = object({ id: str, name: str, emoji: str, person: REF, resource: anything, created_at: str });
export interface Reaction extends Infer<typeof REACTION> {}

export const GOAL = object({
  type: anything,
  id: str,
  title: str,
  description: anything,
  /** The parent goal: its id (and title when the token can see it), or null. */
  parent: anything,
  start_date: anything,
  end_date: text,
  progress: optional(orNull(num)),
  confidence: optional(orNull(num)),
  confidence_description: text,
  owner: maybeRef,
  teams: optional(arrayOf(REF)),
  contributors: anything,
  update_cadence: anything,
  private: anything,
  archived: anything,
  url: anything,
});
export interface Goal extends Infer<typeof GOAL> {}

/** The fields a client may send on POST /goals and PATCH /goals/{id}. */
export const GOAL_INPUT = object({
  title: optional(str),
  description: optional(orNull(str)),
  start_date: optional(orNull(str)),
  end_date: optional(orNull(str)),
  owner_id: optional(orNull(str)),
  team_ids: optional(arrayOf(str)),
  contributor_ids: optional(arrayOf(str)),
  update_cadence: optional(orNull(str)),
  parent_id: optional(orNull(str)),
  private: optional(bool),
  archived: optional(bool),
});
export interface GoalInput extends Infer<typeof GOAL_INPUT> {}

export const GOAL_UPDATE = object({
  type: anything,
  id: str,
  goal: optional(orNull(object({ id: str, title: optional(str) }))),
  person: maybeRef,
  title: str,
  body: str,
  progress: num,
  confidence: num,
  confidence_description: text,
  created_at: str,
  updated_at: anything,
  url: text,
});
export interface GoalUpdate extends Infer<typeof GOAL_UPDATE> {}

/** The fields a client may send on POST /goals/{id}/updates (what draft_goal_update keeps). */
export const GOAL_UPDATE_INPUT = object({ title: optional(str), body: optional(str), progress: optional(num), confidence: optional(num) });
export interface GoalUpdateInput extends Infer<typeof GOAL_UPDATE_INPUT> {}

/**
 * One entry of the person's feed (GET /digest), as Steady's own clients decode it: the thing it is
 * about in `resource` (nulls allowed throughout).
 */
export const DIGEST_ENTRY = object({
  id: str,
  category: str,
  published_at: str,
  read_at: anything,
  resource: optional(
    orNull(
      object({
        type: text,
        title: text,
        body: text,
        url: text,
        goal: maybeTitled,
        person: maybeRef,
      }),
    ),
  ),
});
export interface DigestEntry extends Infer<typeof DIGEST_ENTRY> {}

export const ACTIVITY = object({
  id: str,
  kind: str,
  /** A display label: "GitHub PR", "Jira", "Asana", "Claude Code"… */
  group: text,
  title: text,
  description: text,
  url: text,
  recorded_at: str,
  person: maybeRef,
});
export interface Activity extends Infer<typeof ACTIVITY> {}

/** POST /activities: recorded for the token's person. */
export const ACTIVITY_INPUT = object({
  /** At most 256 characters. */
  description: str,
  url: optional(str),
  /** The label it shows under. */
  group: str,
});
export interface ActivityInput extends Infer<typeof ACTIVITY_INPUT> {}

/** POST /check-ins/{id}/comments and /goal-updates/{id}/comments. */
export const COMMENT_INPUT = object({ body: str });
export interface CommentInput extends Infer<typeof COMMENT_INPUT> {}

/** An echo question (GET /echo/questions items, the answer to POST): a prompt answered on a schedule. */
export const ECHO_QUESTION = object({
  id: str,
  prompt: text,
  title: text,
  /** "weekly" */
  answer_frequency: text,
  /** "monday" */
  answer_day: text,
  /** "09:30" */
  answer_time: text,
  answer_time_zone: text,
  next_answer_at: text,
  paused_at: text,
  created_at: anything,
  updated_at: anything,
  url: text,
});
export interface EchoQuestion extends Infer<typeof ECHO_QUESTION> {}

/** The fields a client may send on POST /echo/questions (the body starts with `prompt`). */
export const ECHO_QUESTION_INPUT = object({
  prompt: str,
  title: optional(str),
  answer_frequency: optional(str),
  answer_day: optional(str),
  answer_time: optional(str),
  answer_time_zone: optional(str),
});
export interface EchoQuestionInput extends Infer<typeof ECHO_QUESTION_INPUT> {}

/**
 * Words checkin keeps and sends, by what they are for: each body as its request carries it, or
 * editor text kept exactly as written (e.g. when it could not be read as answers). The outbox keeps
 * it (config/outbox-files.ts DraftContent); a person's yes shows it (ui/as-sent.ts).
 */
export type BodyContent =
  | { kind: 'answers'; answers: CheckInAnswers }
  | { kind: 'comment'; body: string }
  | { kind: 'goal-update'; input: GoalUpdateInput }
  | { kind: 'activity'; input: ActivityInput }
  | { kind: 'goal'; input: GoalInput }
  | { kind: 'echo-question'; input: EchoQuestionInput }
  | { kind: 'text'; text: string };

/** GET /echo/answers/{id}: an answer with its question. */
export const ECHO_ANSWER = object({
  id: str,
  question: maybeTitled,
  title: text,
  /** Markdown; null while the summary is being written. */
  body: text,
  published_at: text,
  url: text,
});
export interface EchoAnswer extends Infer<typeof ECHO_ANSWER> {}

/** Error bodies of the service (the sandbox's shape; the real service's is not specified). */
export interface ErrorBody {
  error: string;
  message: string;
  errors?: Record<string, string[]>;
}

/** The 21 moods of docs/api.md § Check-ins, with the emoji Steady shows for them. */
export const MOODS = {
  calm: '😌',
  happy: '🙂',
  excited: '🤗',
  celebratory: '🤩',
  joyful: '😂',
  confident: '😎',
  focused: '🧐',
  goofy: '🤪',
  nerdy: '🤓',
  thoughtful: '🤔',
  meh: '😐',
  confused: '😕',
  flustered: '😳',
  surprised: '😲',
  tired: '😴',
  disappointed: '🙁',
  worried: '😟',
  annoyed: '🙄',
  stressed: '🤯',
  angry: '😠',
  sick: '🤒',
} as const;

export type Mood = keyof typeof MOODS;
export const MOOD_NAMES = Object.keys(MOODS) as Mood[];

/** The fields a client may send on PATCH /check-ins/{key} (what draft_checkin keeps). */
export const CHECK_IN_ANSWERS = object({
  previous: text,
  intentions: text,
  blockers: text,
  mood: optional(orNull(oneOf(MOOD_NAMES))),
  previous_completed: optional(orNull(bool)),
  team_ids: optional(arrayOf(str)),
});
export interface CheckInAnswers extends Infer<typeof CHECK_IN_ANSWERS> {}

/** The answers written as text (a string or nothing), as a type. */
export type TextAnswerKey = { [K in keyof CheckInAnswers]-?: string extends NonNullable<CheckInAnswers[K]> ? K : never }[keyof CheckInAnswers];
const answerShapes = CHECK_IN_ANSWERS.def.kind === 'object' ? CHECK_IN_ANSWERS.def.fields : {};
/** The fields a PATCH of a check-in may carry, read from CHECK_IN_ANSWERS (the sandbox holds a PATCH to them). */
export const CHECK_IN_ANSWER_KEYS = Object.keys(answerShapes) as Array<keyof CheckInAnswers>;
/** Of them, the answers written as text: those whose shape is `text`. */
export const TEXT_ANSWER_KEYS = CHECK_IN_ANSWER_KEYS.filter((k) => answerShapes[k] === text) as TextAnswerKey[];

export function isMood(value: unknown): value is Mood {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(MOODS, value);
}

/** A mood's emoji, or '' for one the service added since (never a property every object has: "toString" is a mood's name too). */
export const moodEmoji = (mood: string | null | undefined): string => (isMood(mood) ? MOODS[mood] : '');

/** Goal-update confidence: the service snaps every saved value to one of these. */
export const CONFIDENCE_LEVELS = [
  { value: 30, label: 'Off track', slug: 'off-track' },
  { value: 60, label: 'At risk', slug: 'at-risk' },
  { value: 90, label: 'On track', slug: 'on-track' },
] as const;

export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];

/** The level the service snaps `value` to: the nearest, a tie going to the higher level. */
export function nearestConfidence(value: number): ConfidenceLevel {
  let best: ConfidenceLevel = CONFIDENCE_LEVELS[0];
  for (const level of CONFIDENCE_LEVELS) {
    if (Math.abs(level.value - value) <= Math.abs(best.value - value)) best = level;
  }
  return best;
}

export const MAX_PER_PAGE = 50;
export const DEFAULT_API_URL = 'https://service.steady.space/api/v2';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DATE_KEY_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What the client tells a trace hook of one HTTP exchange (CHECKIN_DEBUG=api, --debug), its secrets
 * already taken out (trace.ts); ui/trace-lines.ts turns it into lines.
 */
export interface TraceEvent {
  method: string;
  url: string;
  /** 1 for the first try, 2… for retries. */
  attempt: number;
  requestHeaders: Record<string, string>;
  /** The body sent, redacted; undefined when none. */
  requestBody?: string;
  /** The answer's status; undefined when none came (see `error`). */
  status?: number;
  responseHeaders?: Record<string, string | string[] | undefined>;
  responseBody?: string;
  /** Why no answer came (connection refused, timeout…). */
  error?: string;
  /** From sending to the answer's last byte (or the failure), in ms. */
  ms: number;
}

export type TraceHook = (event: TraceEvent) => void;
