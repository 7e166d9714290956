// The rules of the check-in service, over the sandbox's state. No HTTP here: routes in
// server.ts parse requests and call these; every refusal is a ServiceError with a status.

import {
  CONFIDENCE_LEVELS,
  UUID_RE,
  isMood,
  MOOD_NAMES,
  type Activity,
  type CheckIn,
  type Comment,
  type Goal,
  type GoalUpdate,
  type Me,
  type Person,
  type Reaction,
  type Ref,
  type Team,
} from '../api/types.js';
import { addDays, keysNewestFirst, localDateKey, weekdayOf } from '../core/datekey.js';
import {
  DAY_NAMES,
  type CheckInRecord,
  type CommentRecord,
  type GoalUpdateRecord,
  type PersonRecord,
  type SandboxData,
  type TeamRecord,
  type TokenRecord,
} from './data.js';
import { checkInId, isoSeconds, newUuid } from './ids.js';

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

const unprocessable = (field: string, problem: string): ServiceError =>
  new ServiceError(422, `${field} ${problem}`, { [field]: [problem] });

export interface CheckInFilter {
  since?: string;
  until?: string;
  blocked?: boolean;
  people_ids: string[];
  team_ids: string[];
}

export interface ActivityFilter {
  since?: string;
  until?: string;
  kinds: string[];
  people_ids: string[];
  team_ids: string[];
}

/** How many days ahead of today check-ins are generated (so clients in any zone find their today). */
const DAYS_AHEAD = 1;

export function snapConfidence(value: number): (typeof CONFIDENCE_LEVELS)[number] {
  let best: (typeof CONFIDENCE_LEVELS)[number] = CONFIDENCE_LEVELS[0];
  for (const level of CONFIDENCE_LEVELS) {
    if (Math.abs(level.value - value) <= Math.abs(best.value - value)) best = level;
  }
  return best;
}

/** Newest first by created_at; among records of the same second, the one saved last comes first. */
function newestFirst<T extends { created_at: string }>(records: T[]): T[] {
  return records
    .map((r, index) => ({ r, index }))
    .sort((a, b) => b.r.created_at.localeCompare(a.r.created_at) || b.index - a.index)
    .map(({ r }) => r);
}

export class SandboxService {
  private idIndex: { until: string; map: Map<string, { personId: string; date: string }> } | undefined;

  constructor(
    readonly data: SandboxData,
    private readonly clock: () => Date,
    private readonly appUrl: string,
    private readonly onChange: () => void = () => {},
  ) {}

  // ---- time ----
  now(): string {
    return isoSeconds(this.clock());
  }
  today(): string {
    return localDateKey(this.clock());
  }
  private lastDay(): string {
    return addDays(this.today(), DAYS_AHEAD);
  }

  // ---- people and teams ----
  tokenRecord(token: string): TokenRecord | undefined {
    return this.data.tokens.find((t) => t.token === token);
  }
  person(id: string): PersonRecord | undefined {
    return this.data.people.find((p) => p.id === id);
  }
  ref(personId: string): Ref {
    const p = this.person(personId);
    return { id: personId, name: p?.name ?? 'Former member' };
  }
  teamsOf(personId: string): TeamRecord[] {
    return this.data.teams.filter((t) => t.people_ids.includes(personId));
  }
  personView(p: PersonRecord): Person {
    return { type: 'person', ...p, account: this.data.account };
  }
  me(personId: string): Me {
    const p = this.person(personId)!;
    return { ...this.personView(p), teams: this.teamsOf(personId).map((t) => ({ id: t.id, name: t.name })) };
  }
  teamView(t: TeamRecord, withPeople: boolean): Team {
    const base: Team = { type: 'team', id: t.id, name: t.name };
    return withPeople ? { ...base, people: t.people_ids.map((id) => this.ref(id)) } : base;
  }
  team(id: string): TeamRecord {
    const t = this.data.teams.find((x) => x.id === id);
    if (!t) throw new ServiceError(404, `No team ${id}`);
    return t;
  }

  // ---- check-ins: which exist ----
  private scheduledTeams(personId: string, date: string): TeamRecord[] {
    const day = DAY_NAMES[weekdayOf(date)]!;
    return this.teamsOf(personId).filter((t) => t.schedule.includes(day));
  }
  private absent(personId: string, date: string): boolean {
    return this.data.absences.some((a) => a.person_id === personId && a.from <= date && date <= a.to);
  }
  exists(personId: string, date: string): boolean {
    return (
      date >= this.data.start_date &&
      date <= this.lastDay() &&
      !this.absent(personId, date) &&
      this.scheduledTeams(personId, date).length > 0
    );
  }
  private record(personId: string, date: string): CheckInRecord | undefined {
    return this.data.check_ins.find((c) => c.person_id === personId && c.date === date);
  }
  view(personId: string, date: string): CheckIn {
    const id = checkInId(personId, date);
    const rec = this.record(personId, date);
    const teams =
      rec?.team_ids != null
        ? this.data.teams.filter((t) => rec.team_ids!.includes(t.id))
        : this.scheduledTeams(personId, date);
    return {
      type: 'check-in',
      id,
      date,
      person: this.ref(personId),
      teams: teams.map((t) => ({ id: t.id, name: t.name })),
      previous: rec?.previous ?? null,
      intentions: rec?.intentions ?? null,
      blockers: rec?.blockers ?? null,
      mood: rec?.mood ?? null,
      previous_completed: rec?.previous_completed ?? null,
      blocked: Boolean(rec?.blockers),
      absent: false,
      completed_at: rec?.completed_at ?? null,
      updated_at: rec?.updated_at ?? `${date}T00:00:00Z`,
      url: `${this.appUrl}/check-ins/${id}`,
    };
  }
  /** Finds a check-in by UUID among every one that exists. */
  locate(id: string): { personId: string; date: string } | undefined {
    const until = this.lastDay();
    if (!this.idIndex || this.idIndex.until !== until) {
      const map = new Map<string, { personId: string; date: string }>();
      for (const date of keysNewestFirst(this.data.start_date, until)) {
        for (const p of this.data.people) map.set(checkInId(p.id, date), { personId: p.id, date });
      }
      this.idIndex = { until, map };
    }
    const hit = this.idIndex.map.get(id.toLowerCase());
    return hit && this.exists(hit.personId, hit.date) ? hit : undefined;
  }
  /** A check-in by UUID or by date (the caller's own that day); 404 when there is none. */
  resolveKey(key: string, callerId: string): { personId: string; date: string } {
    if (UUID_RE.test(key)) {
      const hit = this.locate(key);
      if (!hit) throw new ServiceError(404, `No check-in ${key}`);
      return hit;
    }
    if (!this.exists(callerId, key)) {
      throw new ServiceError(404, `No check-in for ${key}: absent, or no team of yours is scheduled that day`);
    }
    return { personId: callerId, date: key };
  }

  listCheckIns(f: CheckInFilter): CheckIn[] {
    const from = f.since && f.since > this.data.start_date ? f.since : this.data.start_date;
    // Lists stop at today unless asked for more; tomorrow's (already generated) needs an explicit until.
    const to = f.until ? (f.until < this.lastDay() ? f.until : this.lastDay()) : this.today();
    const people = [...this.data.people].sort((a, b) => a.name.localeCompare(b.name));
    const out: CheckIn[] = [];
    for (const date of keysNewestFirst(from, to)) {
      for (const p of people) {
        if (f.people_ids.length > 0 && !f.people_ids.includes(p.id)) continue;
        if (!this.exists(p.id, date)) continue;
        const c = this.view(p.id, date);
        if (f.blocked !== undefined && c.blocked !== f.blocked) continue;
        if (f.team_ids.length === 0) {
          out.push(c);
          continue;
        }
        // As the real service does: one row per matching team, so several teams can repeat a check-in.
        for (const teamId of f.team_ids) if (c.teams.some((t) => t.id === teamId)) out.push(c);
      }
    }
    return out;
  }

  patchCheckIn(personId: string, date: string, body: Record<string, unknown>): CheckIn {
    const allowed = ['previous', 'intentions', 'blockers', 'mood', 'previous_completed', 'team_ids'];
    for (const field of Object.keys(body)) {
      if (!allowed.includes(field)) throw unprocessable(field, `is not a field that can be updated (allowed: ${allowed.join(', ')})`);
    }
    for (const field of ['previous', 'intentions', 'blockers'] as const) {
      const v = body[field];
      if (v !== undefined && v !== null && typeof v !== 'string') throw unprocessable(field, 'must be a string');
    }
    if (body.mood !== undefined && body.mood !== null && !isMood(body.mood)) {
      throw unprocessable('mood', `must be one of ${MOOD_NAMES.join(', ')}`);
    }
    const pc = body.previous_completed;
    if (pc !== undefined && pc !== null && typeof pc !== 'boolean') throw unprocessable('previous_completed', 'must be a boolean');
    let teamIds: string[] | undefined;
    if (body.team_ids !== undefined) {
      const ids = body.team_ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.some((x) => typeof x !== 'string' || !UUID_RE.test(x))) {
        throw unprocessable('team_ids', 'must be a non-empty array of team UUIDs');
      }
      const mine = this.teamsOf(personId).map((t) => t.id);
      const foreign = (ids as string[]).find((x) => !mine.includes(x));
      if (foreign) throw unprocessable('team_ids', `contains ${foreign}, which is not one of the person's teams`);
      teamIds = [...new Set(ids as string[])];
    }

    const now = this.now();
    let rec = this.record(personId, date);
    if (!rec) {
      rec = {
        id: checkInId(personId, date),
        person_id: personId,
        date,
        previous: null,
        intentions: null,
        blockers: null,
        mood: null,
        previous_completed: null,
        team_ids: null,
        completed_at: null,
        updated_at: now,
      };
      this.data.check_ins.push(rec);
    }
    const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
    if ('previous' in body) rec.previous = text(body.previous);
    if ('intentions' in body) rec.intentions = text(body.intentions);
    if ('blockers' in body) rec.blockers = text(body.blockers);
    if ('mood' in body) rec.mood = (body.mood as CheckInRecord['mood']) ?? null;
    if ('previous_completed' in body) rec.previous_completed = (pc as boolean | null) ?? null;
    // Omitting team_ids shares the check-in with all of the person's teams again.
    rec.team_ids = teamIds ?? null;
    rec.completed_at ??= now;
    rec.updated_at = now;
    this.onChange();
    return this.view(personId, date);
  }

  // ---- comments and reactions ----
  /** The resource comments and reactions hang on: a check-in or a goal update, by UUID. */
  resource(type: 'check-in' | 'goal-update', id: string): { type: 'check-in' | 'goal-update'; id: string } {
    if (type === 'check-in') {
      if (!UUID_RE.test(id) || !this.locate(id)) throw new ServiceError(404, `No check-in ${id}`);
    } else {
      this.goalUpdateRecord(id);
    }
    return { type, id: id.toLowerCase() };
  }
  private commentView(c: CommentRecord): Comment {
    return { type: 'comment', id: c.id, body: c.body, person: this.ref(c.person_id), resource: { ...c.resource }, created_at: c.created_at };
  }
  comments(res: { type: string; id: string }): Comment[] {
    return newestFirst(this.data.comments.filter((c) => c.resource.type === res.type && c.resource.id === res.id))
      .map((c) => this.commentView(c));
  }
  addComment(res: { type: 'check-in' | 'goal-update'; id: string }, personId: string, body: Record<string, unknown>): Comment {
    for (const field of Object.keys(body)) if (field !== 'body') throw unprocessable(field, 'is not a comment field (allowed: body)');
    if (typeof body.body !== 'string') throw unprocessable('body', 'is required and must be a string');
    if (body.body.trim() === '') throw unprocessable('body', "can't be blank");
    const rec: CommentRecord = { id: newUuid(), body: body.body, person_id: personId, resource: res, created_at: this.now() };
    this.data.comments.push(rec);
    this.onChange();
    return this.commentView(rec);
  }
  reactions(res: { type: string; id: string }): Reaction[] {
    return newestFirst(this.data.reactions.filter((r) => r.resource.type === res.type && r.resource.id === res.id))
      .map((r) => ({ id: r.id, name: r.name, emoji: r.emoji, person: this.ref(r.person_id), resource: { ...r.resource }, created_at: r.created_at }));
  }

  // ---- goals ----
  private updatesOf(goalId: string): GoalUpdateRecord[] {
    return newestFirst(this.data.goal_updates.filter((u) => u.goal_id === goalId));
  }
  goal(id: string): Goal {
    const g = this.data.goals.find((x) => x.id === id);
    if (!g) throw new ServiceError(404, `No goal ${id}`);
    const latest = this.updatesOf(g.id)[0];
    const parent = g.parent_id ? this.data.goals.find((x) => x.id === g.parent_id) : undefined;
    const team = g.team_id ? this.data.teams.find((t) => t.id === g.team_id) : undefined;
    return {
      type: 'goal',
      id: g.id,
      title: g.title,
      parent: parent ? { id: parent.id, name: parent.title } : null,
      end_date: g.end_date,
      progress: latest?.progress ?? null,
      confidence: latest?.confidence ?? null,
      confidence_description: latest ? snapConfidence(latest.confidence).label : null,
      person: g.person_id ? this.ref(g.person_id) : null,
      team: team ? { id: team.id, name: team.name } : null,
      url: `${this.appUrl}/goals/${g.id}`,
    };
  }
  goals(peopleIds: string[], teamIds: string[]): Goal[] {
    return this.data.goals
      .filter((g) => peopleIds.length === 0 || (g.person_id !== null && peopleIds.includes(g.person_id)))
      .filter((g) => teamIds.length === 0 || (g.team_id !== null && teamIds.includes(g.team_id)))
      .map((g) => this.goal(g.id));
  }
  private goalUpdateRecord(id: string): GoalUpdateRecord {
    const u = this.data.goal_updates.find((x) => x.id === id.toLowerCase());
    if (!u) throw new ServiceError(404, `No goal update ${id}`);
    return u;
  }
  goalUpdateView(u: GoalUpdateRecord): GoalUpdate {
    const g = this.data.goals.find((x) => x.id === u.goal_id);
    return {
      type: 'goal-update',
      id: u.id,
      goal: { id: u.goal_id, title: g?.title ?? '' },
      person: this.ref(u.person_id),
      title: u.title,
      body: u.body,
      progress: u.progress,
      confidence: u.confidence,
      confidence_description: snapConfidence(u.confidence).label,
      created_at: u.created_at,
      updated_at: u.updated_at,
      url: `${this.appUrl}/goal-updates/${u.id}`,
    };
  }
  goalUpdates(goalId: string): GoalUpdate[] {
    this.goal(goalId);
    return this.updatesOf(goalId).map((u) => this.goalUpdateView(u));
  }
  goalUpdate(id: string): GoalUpdate {
    return this.goalUpdateView(this.goalUpdateRecord(id));
  }
  private checkGoalUpdateFields(body: Record<string, unknown>, creating: boolean): void {
    const allowed = ['title', 'body', 'progress', 'confidence'];
    for (const field of Object.keys(body)) {
      if (!allowed.includes(field)) throw unprocessable(field, `is not a goal update field (allowed: ${allowed.join(', ')})`);
    }
    for (const field of ['title', 'body'] as const) {
      const v = body[field];
      if (v === undefined && !creating) continue;
      if (typeof v !== 'string') throw unprocessable(field, creating ? 'is required and must be a string' : 'must be a string');
      if (field === 'title' && v.trim() === '') throw unprocessable(field, "can't be blank");
    }
    for (const field of ['progress', 'confidence'] as const) {
      const v = body[field];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100) {
        throw unprocessable(field, 'must be an integer from 0 to 100');
      }
    }
  }
  createGoalUpdate(goalId: string, personId: string, body: Record<string, unknown>): GoalUpdate {
    this.goal(goalId);
    this.checkGoalUpdateFields(body, true);
    const previous = this.updatesOf(goalId)[0];
    const now = this.now();
    const rec: GoalUpdateRecord = {
      id: newUuid(),
      goal_id: goalId,
      person_id: personId,
      title: body.title as string,
      body: body.body as string,
      progress: (body.progress as number | undefined) ?? previous?.progress ?? 1,
      confidence: snapConfidence((body.confidence as number | undefined) ?? previous?.confidence ?? 100).value,
      created_at: now,
      updated_at: now,
    };
    this.data.goal_updates.push(rec);
    this.onChange();
    return this.goalUpdateView(rec);
  }
  private ownUpdate(id: string, personId: string): GoalUpdateRecord {
    const u = this.goalUpdateRecord(id);
    if (u.person_id !== personId) throw new ServiceError(403, 'Only the author of a goal update can change or delete it');
    return u;
  }
  patchGoalUpdate(id: string, personId: string, body: Record<string, unknown>): GoalUpdate {
    const u = this.ownUpdate(id, personId);
    this.checkGoalUpdateFields(body, false);
    if (typeof body.title === 'string') u.title = body.title;
    if (typeof body.body === 'string') u.body = body.body;
    if (typeof body.progress === 'number') u.progress = body.progress;
    if (typeof body.confidence === 'number') u.confidence = body.confidence;
    u.confidence = snapConfidence(u.confidence).value;
    u.updated_at = this.now();
    this.onChange();
    return this.goalUpdateView(u);
  }
  deleteGoalUpdate(id: string, personId: string): void {
    const u = this.ownUpdate(id, personId);
    this.data.goal_updates = this.data.goal_updates.filter((x) => x !== u);
    this.data.comments = this.data.comments.filter((c) => !(c.resource.type === 'goal-update' && c.resource.id === u.id));
    this.data.reactions = this.data.reactions.filter((r) => !(r.resource.type === 'goal-update' && r.resource.id === u.id));
    this.onChange();
  }

  // ---- activities ----
  activities(f: ActivityFilter): Activity[] {
    const teamPeople = new Set(this.data.teams.filter((t) => f.team_ids.includes(t.id)).flatMap((t) => t.people_ids));
    return this.data.activities
      .filter((a) => f.kinds.length === 0 || f.kinds.includes(a.kind))
      .filter((a) => f.people_ids.length === 0 || f.people_ids.includes(a.person_id))
      .filter((a) => f.team_ids.length === 0 || teamPeople.has(a.person_id))
      .filter((a) => !f.since || Date.parse(a.recorded_at) >= Date.parse(f.since))
      .filter((a) => !f.until || Date.parse(a.recorded_at) <= Date.parse(f.until))
      .sort((a, b) => b.recorded_at.localeCompare(a.recorded_at))
      .map((a) => ({
        id: a.id,
        kind: a.kind,
        group: a.group,
        title: a.title,
        description: a.description,
        url: a.url,
        recorded_at: a.recorded_at,
        person: this.ref(a.person_id),
      }));
  }
}
