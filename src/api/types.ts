// Wire types and constants of the check-in service, API v2 (api-v2-spec.md and api-notes.md):
// the objects' shapes, the moods, the confidence levels, paging and id formats. The client, the
// local service (src/sandbox) and the views all read them from here; no logic lives here.

export interface Ref {
  id: string;
  name: string;
}

export interface Person extends Ref {
  type?: string;
  username: string;
  email?: string | null;
  time_zone?: string | null;
  title?: string | null;
  location?: string | null;
  bio?: string | null;
  administrator?: boolean;
  kind?: 'human' | 'agent';
  account?: Ref;
  /** The person's teams (on /me and on /people items alike). */
  teams?: Ref[];
  created_at?: string;
  updated_at?: string;
  /** The person's page in the web app. */
  url?: string;
}

export interface Me extends Person {
  teams: Ref[];
}

export interface Team extends Ref {
  type?: string;
  people?: Ref[];
}

export interface CheckIn {
  type: string;
  id: string;
  date: string;
  person: Ref;
  teams: Ref[];
  previous: string | null;
  intentions: string | null;
  blockers: string | null;
  mood: Mood | null;
  previous_completed: boolean | null;
  blocked: boolean;
  absent: boolean;
  completed_at: string | null;
  updated_at: string;
  url: string;
}

/** The fields a client may send on PATCH /check-ins/{key}. */
export interface CheckInAnswers {
  previous?: string | null;
  intentions?: string | null;
  blockers?: string | null;
  mood?: Mood | null;
  previous_completed?: boolean | null;
  team_ids?: string[];
}

export interface ResourceRef {
  type: string;
  id: string;
}

export interface Comment {
  type?: string;
  id: string;
  body: string;
  person: Ref;
  resource: ResourceRef;
  created_at: string;
}

export interface Reaction {
  id: string;
  name: string;
  emoji: string;
  person: Ref;
  resource: ResourceRef;
  created_at: string;
}

export interface Goal {
  type?: string;
  id: string;
  title: string;
  description?: string | null;
  /** The parent goal: its id (and title when the token can see it), or null. */
  parent: { id: string; title?: string } | null;
  start_date?: string | null;
  end_date: string | null;
  progress: number | null;
  confidence: number | null;
  confidence_description: string | null;
  owner?: Ref | null;
  teams?: Ref[];
  contributors?: Ref[];
  update_cadence?: string | null;
  private?: boolean;
  archived?: boolean;
  url: string;
}

/** The fields a client may send on POST /goals and PATCH /goals/{id}. */
export interface GoalInput {
  title?: string;
  description?: string | null;
  start_date?: string | null;
  end_date?: string | null;
  owner_id?: string | null;
  team_ids?: string[];
  contributor_ids?: string[];
  update_cadence?: string | null;
  parent_id?: string | null;
  private?: boolean;
  archived?: boolean;
}

export interface GoalUpdate {
  type?: string;
  id: string;
  goal: { id: string; title: string };
  person: Ref;
  title: string;
  body: string;
  progress: number;
  confidence: number;
  confidence_description: string;
  created_at: string;
  updated_at: string;
  url: string;
}

export interface GoalUpdateInput {
  title?: string;
  body?: string;
  progress?: number;
  confidence?: number;
}

export interface Activity {
  id: string;
  kind: string;
  /** A display label: "GitHub PR", "Jira", "Asana", "Claude Code"… */
  group: string | null;
  title: string | null;
  description: string | null;
  url: string | null;
  recorded_at: string;
  person: Ref;
}

/** POST /activities: recorded for the token's person. */
export interface ActivityInput {
  group: string;
  /** At most 256 characters. */
  description: string;
  url?: string;
}

export interface EchoQuestion {
  id: string;
  prompt: string;
  title: string;
  answer_frequency: string;
  answer_day: string;
  answer_time: string;
  answer_time_zone: string;
  next_answer_at: string | null;
  paused_at: string | null;
  created_at: string;
  updated_at: string;
  url: string;
}

export interface EchoAnswer {
  id: string;
  question: { id: string; title: string };
  title: string;
  /** Markdown; null while the summary is being written. */
  body: string | null;
  published_at: string | null;
  url: string;
}

/** Error bodies of the service (the sandbox's shape; the real service's is not specified). */
export interface ErrorBody {
  error: string;
  message: string;
  errors?: Record<string, string[]>;
}

/** The 21 moods of api-notes.md, with the emoji Steady shows for them. */
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

export function isMood(value: unknown): value is Mood {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(MOODS, value);
}

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
