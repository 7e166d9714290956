// The sandbox's state: what a data file (`checkin sandbox --data FILE`) holds.
// Check-ins are not stored one by one: they exist wherever a team is scheduled and the
// person is not absent (from `start_date` on); only the filled-in ones are kept here.

import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TEXT_ANSWER_KEYS, type Activity, type Mood, type Ref, type TextAnswerKey } from '../api/types.js';
import { isDateKey } from '../core/datekey.js';

export type DayName = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const DAY_NAMES: DayName[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export interface PersonRecord {
  id: string;
  name: string;
  username: string;
  email: string;
  time_zone: string;
  title: string | null;
  location: string | null;
  bio: string | null;
  administrator: boolean;
  kind: 'human' | 'agent';
  created_at?: string;
  updated_at?: string;
}

export interface TeamRecord {
  id: string;
  name: string;
  /** Weekly check-in schedule: the days a check-in is generated for each member. */
  schedule: DayName[];
  people_ids: string[];
}

export interface AbsenceRecord {
  person_id: string;
  /** First and last absent day, inclusive. */
  from: string;
  to: string;
}

export interface TokenRecord {
  token: string;
  person_id: string;
  scope: 'read' | 'write';
}

/** A check-in not answered (yet): every answer null, read from api/types.ts's answers. */
export const noAnswers = () => ({
  ...(Object.fromEntries(TEXT_ANSWER_KEYS.map((k) => [k, null])) as Record<TextAnswerKey, null>),
  mood: null,
  previous_completed: null,
  team_ids: null,
});

export interface CheckInRecord extends Record<TextAnswerKey, string | null> {
  id: string;
  person_id: string;
  date: string;
  mood: Mood | null;
  previous_completed: boolean | null;
  team_ids: string[] | null;
  completed_at: string | null;
  updated_at: string;
  /** The person turned out absent after the check-in was generated: it stays, marked `absent: true`. */
  absent?: boolean;
}

export interface CommentRecord {
  id: string;
  body: string;
  person_id: string;
  resource: { type: 'check-in' | 'goal-update'; id: string };
  created_at: string;
}

export interface ReactionRecord {
  id: string;
  name: string;
  emoji: string;
  person_id: string;
  resource: { type: 'check-in' | 'goal-update'; id: string };
  created_at: string;
}

export interface GoalRecord {
  id: string;
  title: string;
  description?: string | null;
  parent_id: string | null;
  start_date?: string | null;
  end_date: string | null;
  /** The owner (a person), the teams and the contributors of the goal (docs/api.md § Goals and goal updates: owner_id, team_ids[], contributor_ids[]). */
  owner_id: string | null;
  team_ids: string[];
  contributor_ids: string[];
  update_cadence?: string | null;
  private?: boolean;
  archived?: boolean;
  created_at?: string;
}

export interface GoalUpdateRecord {
  id: string;
  goal_id: string;
  person_id: string;
  title: string;
  body: string;
  progress: number;
  confidence: number;
  created_at: string;
  updated_at: string;
}

export type ActivityRecord = Omit<Activity, 'person'> & { person_id: string };

/** An echo question as stored: the wire object without what is worked out when it is shown (next_answer_at, url). */
export interface EchoQuestionRecord {
  id: string;
  prompt: string;
  title: string;
  answer_frequency: string;
  answer_day: string;
  answer_time: string;
  answer_time_zone: string;
  paused_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface EchoAnswerRecord {
  id: string;
  question_id: string;
  title: string;
  body: string | null;
  published_at: string | null;
}

export interface SandboxData {
  version: 1;
  account: Ref;
  /** Check-ins exist from this day on (history starts here). */
  start_date: string;
  people: PersonRecord[];
  teams: TeamRecord[];
  absences: AbsenceRecord[];
  tokens: TokenRecord[];
  check_ins: CheckInRecord[];
  comments: CommentRecord[];
  reactions: ReactionRecord[];
  goals: GoalRecord[];
  goal_updates: GoalUpdateRecord[];
  activities: ActivityRecord[];
  echo_questions: EchoQuestionRecord[];
  echo_answers: EchoAnswerRecord[];
}

const LISTS = [
  'people',
  'teams',
  'absences',
  'tokens',
  'check_ins',
  'comments',
  'reactions',
  'goals',
  'goal_updates',
  'activities',
  'echo_questions',
  'echo_answers',
] as const;

/** Checks the shape a data file must have; throws an Error naming what is wrong. */
export function validateData(raw: unknown, source = 'data'): SandboxData {
  const fail = (what: string): never => {
    throw new Error(`${source}: ${what}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('expected a JSON object');
  const d = raw as Record<string, unknown>;
  if (d.version !== 1) fail('"version" must be 1');
  if (typeof d.start_date !== 'string' || !isDateKey(d.start_date)) fail('"start_date" must be a YYYY-MM-DD date');
  const account = d.account as Ref | undefined;
  if (!account || typeof account.id !== 'string' || typeof account.name !== 'string') {
    fail('"account" must be {id, name}');
  }
  for (const key of LISTS) {
    if (d[key] === undefined) d[key] = [];
    if (!Array.isArray(d[key])) fail(`"${key}" must be an array`);
  }
  const data = d as unknown as SandboxData;
  const people = new Set(data.people.map((p) => p.id));
  for (const t of data.teams) {
    if (!Array.isArray(t.schedule) || t.schedule.some((s) => !DAY_NAMES.includes(s))) {
      fail(`team "${t.name}": "schedule" must list days among ${DAY_NAMES.join(', ')}`);
    }
    for (const id of t.people_ids ?? []) if (!people.has(id)) fail(`team "${t.name}": unknown person ${id}`);
  }
  for (const tok of data.tokens) {
    if (typeof tok.token !== 'string' || tok.token === '') fail('every token needs a non-empty "token"');
    if (!people.has(tok.person_id)) fail(`token for unknown person ${tok.person_id}`);
    if (tok.scope !== 'read' && tok.scope !== 'write') fail('token "scope" must be "read" or "write"');
  }
  // Goals of older data files had one person_id and one team_id.
  for (const g of data.goals as Array<GoalRecord & { person_id?: string | null; team_id?: string | null }>) {
    if (g.owner_id === undefined) g.owner_id = g.person_id ?? null;
    if (!Array.isArray(g.team_ids)) g.team_ids = g.team_id ? [g.team_id] : [];
    if (!Array.isArray(g.contributor_ids)) g.contributor_ids = [];
    delete g.person_id;
    delete g.team_id;
  }
  for (const a of data.absences) {
    if (!isDateKey(a.from) || !isDateKey(a.to)) fail('absence "from"/"to" must be YYYY-MM-DD dates');
  }
  return data;
}

export async function loadData(file: string): Promise<SandboxData | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return validateData(raw, file);
}

/**
 * Writes durably: to a temporary file beside `file`, flushed to disk, renamed over the old one,
 * and the folder flushed too — what is written survives a crash (kill -9, power). Returns its size in bytes.
 */
export async function saveData(file: string, data: SandboxData): Promise<number> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const text = Buffer.from(JSON.stringify(data, null, 2) + '\n');
  try {
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  const dir = await open(dirname(file), 'r');
  try {
    await dir.sync();
  } catch {
    // some file systems cannot flush a folder; the rename is still atomic
  } finally {
    await dir.close();
  }
  return text.length;
}

/** Temporary files a killed sandbox left beside `file`. */
export async function removeStrayTemps(file: string): Promise<number> {
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return 0;
  }
  const stray = names.filter((n) => n.startsWith(prefix) && n.endsWith('.tmp'));
  await Promise.all(stray.map((n) => rm(join(dirname(file), n), { force: true })));
  return stray.length;
}
