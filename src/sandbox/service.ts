// The rules of the check-in service, over the sandbox's state. No HTTP here: routes in
// server.ts parse requests and call these; every refusal is a ServiceError with a status.

import {
  nearestConfidence,
  UUID_RE,
  isMood,
  CHECK_IN_ANSWER_KEYS,
  TEXT_ANSWER_KEYS,
  MOOD_NAMES,
  DATE_KEY_RE,
  type Activity,
  type CheckIn,
  type EchoAnswer,
  type EchoQuestion,
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
  noAnswers,
  DAY_NAMES,
  type CheckInRecord,
  type CommentRecord,
  type GoalUpdateRecord,
  type PersonRecord,
  type SandboxData,
  type EchoQuestionRecord,
  type GoalRecord,
  type TeamRecord,
  type TokenRecord,
} from './data.js';
import { checkInId, isoSeconds, newUuid } from './ids.js';
import type { Change, JournaledList } from './store.js';

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

const unprocessable = (field: string, problem: string): ServiceError => new ServiceError(422, `${field} ${problem}`, { [field]: [problem] });

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

/** The digest's categories: what a digest entry is about (the first is the one Steady's inbox routine asks for). */
export const DIGEST_CATEGORIES = ['comment', 'check-in', 'goal-update'] as const;
export type DigestCategory = (typeof DIGEST_CATEGORIES)[number];

/** One entry of GET /digest, in the shape Steady's own digest client decodes (nulls allowed). */
export interface DigestEntry {
  id: string;
  category: DigestCategory;
  published_at: string;
  read_at: string | null;
  resource: {
    type: string;
    title: string | null;
    body: string | null;
    progress: number | null;
    confidence: number | null;
    confidence_description: string | null;
    url: string;
    goal: { id: string; title: string } | null;
    person: Ref;
  };
}

/** The days an echo question can be answered on (`answer_day`). */
const ANSWER_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** How many days ahead of today check-ins are generated (so clients in any zone find their today). */
const DAYS_AHEAD = 1;

/** Newest first by created_at; among records of the same second, the one saved last comes first. */
function newestFirst<T extends { created_at: string }>(records: T[]): T[] {
  return records
    .map((r, index) => ({ r, index }))
    .sort((a, b) => b.r.created_at.localeCompare(a.r.created_at) || b.index - a.index)
    .map(({ r }) => r);
}

/** What one write changed: the changes to journal, and how to take them back if they cannot be saved. */
export interface Transaction {
  changes: Change[];
  undo(): void;
}

type Step = { list: JournaledList; rec: { id: string } } | { list: JournaledList; delete: string };

export class SandboxService {
  private idIndex: { until: string; map: Map<string, { personId: string; date: string }> } | undefined;
  private tx: { steps: Step[]; undo: Array<() => void> } | undefined;

  constructor(
    readonly data: SandboxData,
    private readonly clock: () => Date,
    private readonly appUrl: string,
  ) {}

  // ---- transactions: every change a write makes is recorded, to journal it or take it back ----
  /** Starts recording changes (one request's). */
  begin(): void {
    this.tx = { steps: [], undo: [] };
  }
  /** Stops recording: the changes made since begin(), each record as it is now, and their undo. */
  end(): Transaction {
    const tx = this.tx ?? { steps: [], undo: [] };
    this.tx = undefined;
    return {
      changes: tx.steps.map((s) => ('rec' in s ? { list: s.list, put: s.rec } : s)),
      undo: () => {
        for (const undo of tx.undo.reverse()) undo();
        // Indexes may hold records that are gone again.
        this.idIndex = undefined;
        this.records = undefined;
        this.memberships = undefined;
      },
    };
  }
  private records_(list: JournaledList): Array<{ id: string }> {
    return this.data[list] as Array<{ id: string }>;
  }
  /** Adds a new record to a list. */
  private add<L extends JournaledList>(list: L, rec: SandboxData[L][number]): void {
    this.records_(list).push(rec);
    const tx = this.tx;
    if (!tx) return;
    tx.steps.push({ list, rec });
    tx.undo.push(() => {
      const all = this.records_(list);
      const i = all.lastIndexOf(rec);
      if (i !== -1) all.splice(i, 1);
    });
  }
  /** Called before a record is changed in place: remembers it as it was. */
  private touch(list: JournaledList, rec: { id: string }): void {
    const tx = this.tx;
    if (!tx || tx.steps.some((s) => 'rec' in s && s.rec === rec)) return;
    const before = structuredClone(rec);
    tx.steps.push({ list, rec });
    tx.undo.push(() => {
      for (const key of Object.keys(rec)) delete (rec as Record<string, unknown>)[key];
      Object.assign(rec, before);
    });
  }
  /** Removes the records of a list that `gone` picks. */
  private removeWhere(list: JournaledList, gone: (rec: { id: string }) => boolean): void {
    const old = this.records_(list);
    const removed = old.filter(gone);
    if (removed.length === 0) return;
    (this.data as unknown as Record<string, unknown>)[list] = old.filter((r) => !gone(r));
    const tx = this.tx;
    if (!tx) return;
    for (const r of removed) tx.steps.push({ list, delete: r.id });
    tx.undo.push(() => {
      (this.data as unknown as Record<string, unknown>)[list] = old;
    });
  }

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
  private memberships: { key: string; map: Map<string, TeamRecord[]> } | undefined;
  /** A person's teams (indexed; rebuilt when teams or their members change). */
  teamsOf(personId: string): TeamRecord[] {
    const key = this.data.teams.map((t) => `${t.id}:${t.people_ids.length}:${t.schedule.length}`).join(',');
    if (this.memberships?.key !== key) {
      const map = new Map<string, TeamRecord[]>();
      for (const t of this.data.teams) for (const id of t.people_ids) map.set(id, [...(map.get(id) ?? []), t]);
      this.memberships = { key, map };
    }
    return this.memberships.map.get(personId) ?? [];
  }
  /** A person as /me and /people show one (the docs' example): teams, dates and the web link included. */
  personView(p: PersonRecord): Person & { teams: Ref[] } {
    return {
      ...p,
      created_at: p.created_at ?? `${this.data.start_date}T09:00:00Z`,
      updated_at: p.updated_at ?? p.created_at ?? `${this.data.start_date}T09:00:00Z`,
      url: `${this.appUrl}/people/${p.id}`,
      account: this.data.account,
      teams: this.teamsOf(p.id).map((t) => ({ id: t.id, name: t.name })),
    };
  }
  me(personId: string): Me {
    return this.personView(this.person(personId)!);
  }
  teamView(t: TeamRecord, withPeople: boolean): Team {
    const base: Team = { id: t.id, name: t.name };
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
    return date >= this.data.start_date && date <= this.lastDay() && !this.absent(personId, date) && this.scheduledTeams(personId, date).length > 0;
  }
  private records: { size: number; map: Map<string, CheckInRecord> } | undefined;
  /** The stored answers of a check-in, by person and date (indexed; rebuilt when records were added). */
  private record(personId: string, date: string): CheckInRecord | undefined {
    if (!this.records || this.records.size !== this.data.check_ins.length) {
      this.records = { size: this.data.check_ins.length, map: new Map(this.data.check_ins.map((c) => [`${c.person_id} ${c.date}`, c])) };
    }
    return this.records.map.get(`${personId} ${date}`);
  }
  view(personId: string, date: string): CheckIn {
    const id = checkInId(personId, date);
    const rec = this.record(personId, date);
    const teams = rec?.team_ids != null ? this.data.teams.filter((t) => rec.team_ids!.includes(t.id)) : this.scheduledTeams(personId, date);
    return {
      type: 'check-in',
      id,
      date,
      person: this.ref(personId),
      teams: teams.map((t) => ({ id: t.id, name: t.name })),
      ...Object.fromEntries(TEXT_ANSWER_KEYS.map((k) => [k, rec?.[k] ?? null])),
      mood: rec?.mood ?? null,
      previous_completed: rec?.previous_completed ?? null,
      blocked: Boolean(rec?.blockers),
      absent: rec?.absent ?? false,
      completed_at: rec?.completed_at ?? null,
      // A check-in nobody has touched was made when its day began, and never later than now.
      updated_at: rec?.updated_at ?? [`${date}T00:00:00Z`, this.now()].sort()[0]!,
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

  /**
   * One page of the list: newest first, people by name, one row per matching team when teams are
   * asked for. Rows before the page are only counted (no object is built), so a page costs about
   * the same wherever it is and however many check-ins are stored.
   */
  listCheckIns(f: CheckInFilter, offset = 0, limit = Number.MAX_SAFE_INTEGER): CheckIn[] {
    const from = f.since && f.since > this.data.start_date ? f.since : this.data.start_date;
    // Lists stop at today unless asked for more; tomorrow's (already generated) needs an explicit until.
    const to = f.until ? (f.until < this.lastDay() ? f.until : this.lastDay()) : this.today();
    const wanted = f.people_ids.length > 0 ? new Set(f.people_ids) : undefined;
    const people = this.data.people.filter((p) => !wanted || wanted.has(p.id)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const out: CheckIn[] = [];
    let seen = 0;
    // Per page, the cheap questions first: the date's weekday once, each person's teams and absences by index.
    const absences = new Map<string, Array<{ from: string; to: string }>>();
    for (const a of this.data.absences) absences.set(a.person_id, [...(absences.get(a.person_id) ?? []), a]);
    for (let date = to; date >= from && out.length < limit; date = addDays(date, -1)) {
      const day = DAY_NAMES[weekdayOf(date)]!;
      for (const p of people) {
        if (!this.teamsOf(p.id).some((t) => t.schedule.includes(day))) continue;
        if (absences.get(p.id)?.some((a) => a.from <= date && date <= a.to)) continue;
        if (f.blocked !== undefined && Boolean(this.record(p.id, date)?.blockers) !== f.blocked) continue;
        let rows = 1;
        if (f.team_ids.length > 0) {
          const teams = this.teamIdsOf(p.id, date);
          rows = f.team_ids.filter((t) => teams.includes(t)).length;
        }
        for (let i = 0; i < rows; i++) {
          if (seen++ < offset) continue;
          if (out.length >= limit) break;
          out.push(this.view(p.id, date));
        }
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /** The teams a check-in is shared with (as sent or defaulted on its PATCH; one never written: the teams scheduled that day). */
  private teamIdsOf(personId: string, date: string): string[] {
    const rec = this.record(personId, date);
    return rec?.team_ids != null ? rec.team_ids : this.scheduledTeams(personId, date).map((t) => t.id);
  }

  patchCheckIn(personId: string, date: string, body: Record<string, unknown>): CheckIn {
    const allowed: string[] = CHECK_IN_ANSWER_KEYS;
    for (const field of Object.keys(body)) {
      if (!allowed.includes(field)) throw unprocessable(field, `is not a field that can be updated (allowed: ${allowed.join(', ')})`);
    }
    for (const field of TEXT_ANSWER_KEYS) {
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
    if (rec) this.touch('check_ins', rec);
    else {
      rec = {
        id: checkInId(personId, date),
        person_id: personId,
        date,
        ...noAnswers(),
        completed_at: null,
        updated_at: now,
      };
      this.add('check_ins', rec);
    }
    const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
    for (const field of TEXT_ANSWER_KEYS) if (field in body) rec[field] = text(body[field]);
    if ('mood' in body) rec.mood = (body.mood as CheckInRecord['mood']) ?? null;
    if ('previous_completed' in body) rec.previous_completed = (pc as boolean | null) ?? null;
    // Omitting team_ids shares the check-in with all of the person's teams (the spec: "Defaults to
    // all of the person's teams when omitted"), stored as such: what the agent's question says.
    rec.team_ids = teamIds ?? this.teamsOf(personId).map((t) => t.id);
    rec.completed_at ??= now;
    rec.updated_at = now;
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
    return newestFirst(this.data.comments.filter((c) => c.resource.type === res.type && c.resource.id === res.id)).map((c) => this.commentView(c));
  }
  addComment(res: { type: 'check-in' | 'goal-update'; id: string }, personId: string, body: Record<string, unknown>): Comment {
    for (const field of Object.keys(body)) if (field !== 'body') throw unprocessable(field, 'is not a comment field (allowed: body)');
    if (typeof body.body !== 'string') throw unprocessable('body', 'is required and must be a string');
    if (body.body.trim() === '') throw unprocessable('body', "can't be blank");
    const rec: CommentRecord = { id: newUuid(), body: body.body, person_id: personId, resource: res, created_at: this.now() };
    this.add('comments', rec);
    return this.commentView(rec);
  }
  reactions(res: { type: string; id: string }): Reaction[] {
    return newestFirst(this.data.reactions.filter((r) => r.resource.type === res.type && r.resource.id === res.id)).map((r) => ({
      id: r.id,
      name: r.name,
      emoji: r.emoji,
      person: this.ref(r.person_id),
      resource: { ...r.resource },
      created_at: r.created_at,
    }));
  }

  // ---- goals ----
  private updatesOf(goalId: string): GoalUpdateRecord[] {
    return newestFirst(this.data.goal_updates.filter((u) => u.goal_id === goalId));
  }
  private goalRecord(id: string): GoalRecord {
    const g = this.data.goals.find((x) => x.id === id.toLowerCase());
    if (!g) throw new ServiceError(404, `No goal ${id}`);
    return g;
  }
  goal(id: string): Goal {
    const g = this.goalRecord(id);
    const latest = this.updatesOf(g.id)[0];
    const parent = g.parent_id ? this.data.goals.find((x) => x.id === g.parent_id) : undefined;
    return {
      type: 'goal',
      id: g.id,
      title: g.title,
      description: g.description ?? null,
      // A parent the token cannot see stays unresolved: its id only.
      parent: g.parent_id ? (parent ? { id: parent.id, title: parent.title } : { id: g.parent_id }) : null,
      start_date: g.start_date ?? null,
      end_date: g.end_date,
      progress: latest?.progress ?? null,
      confidence: latest?.confidence ?? null,
      confidence_description: latest ? nearestConfidence(latest.confidence).label : null,
      owner: g.owner_id ? this.ref(g.owner_id) : null,
      teams: g.team_ids.flatMap((id) => this.data.teams.filter((t) => t.id === id).map((t) => ({ id: t.id, name: t.name }))),
      contributors: g.contributor_ids.map((id) => this.ref(id)),
      update_cadence: g.update_cadence ?? null,
      private: g.private ?? false,
      archived: g.archived ?? false,
      url: `${this.appUrl}/goals/${g.id}`,
    };
  }
  /**
   * Goals of these people (owner or contributor) and of these teams; with `since`/`until` (dates,
   * inclusive), the goals whose span (start_date to end_date, either open when missing) overlaps them.
   */
  goals(peopleIds: string[], teamIds: string[], span: { since?: string; until?: string } = {}): Goal[] {
    return this.data.goals
      .filter((g) => peopleIds.length === 0 || (g.owner_id !== null && peopleIds.includes(g.owner_id)) || g.contributor_ids.some((c) => peopleIds.includes(c)))
      .filter((g) => teamIds.length === 0 || g.team_ids.some((t) => teamIds.includes(t)))
      .filter((g) => !span.until || !g.start_date || g.start_date <= span.until)
      .filter((g) => !span.since || !g.end_date || g.end_date >= span.since)
      .map((g) => this.goal(g.id));
  }
  /**
   * The API notes write the goal's array fields as `team_ids[]` and `contributor_ids[]`: either
   * spelling is taken (one of the two per field).
   */
  private goalBody(body: Record<string, unknown>): Record<string, unknown> {
    const out = { ...body };
    for (const f of ['team_ids', 'contributor_ids']) {
      if (!(`${f}[]` in out)) continue;
      if (f in out) throw unprocessable(f, `and ${f}[] are the same field: give one of them`);
      out[f] = out[`${f}[]`];
      delete out[`${f}[]`];
    }
    return out;
  }
  private checkGoalFields(body: Record<string, unknown>, creating: boolean): void {
    const allowed = [
      'title',
      'description',
      'start_date',
      'end_date',
      'owner_id',
      'team_ids',
      'contributor_ids',
      'update_cadence',
      'parent_id',
      'private',
      'archived',
    ];
    for (const field of Object.keys(body)) if (!allowed.includes(field)) throw unprocessable(field, `is not a goal field (allowed: ${allowed.join(', ')})`);
    if (creating || body.title !== undefined) {
      if (typeof body.title !== 'string' || body.title.trim() === '') throw unprocessable('title', "is required and can't be blank");
    }
    for (const f of ['description', 'update_cadence'] as const) {
      if (body[f] !== undefined && body[f] !== null && typeof body[f] !== 'string') throw unprocessable(f, 'must be a string');
    }
    for (const f of ['start_date', 'end_date'] as const) {
      const v = body[f];
      if (v !== undefined && v !== null && (typeof v !== 'string' || !DATE_KEY_RE.test(v))) throw unprocessable(f, 'must be a date written YYYY-MM-DD');
    }
    for (const f of ['private', 'archived'] as const)
      if (body[f] !== undefined && typeof body[f] !== 'boolean') throw unprocessable(f, 'must be true or false');
    const person = (f: string, v: unknown) => {
      if (typeof v !== 'string' || !this.person(v.toLowerCase())) throw unprocessable(f, `must be the UUID of a person of the account`);
    };
    if (body.owner_id !== undefined && body.owner_id !== null) person('owner_id', body.owner_id);
    if (body.contributor_ids !== undefined) {
      if (!Array.isArray(body.contributor_ids)) throw unprocessable('contributor_ids', 'must be an array of person UUIDs');
      for (const c of body.contributor_ids) person('contributor_ids', c);
    }
    if (body.team_ids !== undefined) {
      if (!Array.isArray(body.team_ids) || body.team_ids.some((t) => typeof t !== 'string' || !this.data.teams.some((x) => x.id === t.toLowerCase()))) {
        throw unprocessable('team_ids', 'must be an array of team UUIDs');
      }
    }
    if (
      body.parent_id !== undefined &&
      body.parent_id !== null &&
      (typeof body.parent_id !== 'string' || !this.data.goals.some((g) => g.id === (body.parent_id as string).toLowerCase()))
    ) {
      throw unprocessable('parent_id', 'must be the UUID of a goal');
    }
  }
  private applyGoal(g: GoalRecord, body: Record<string, unknown>): void {
    const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : null);
    if (typeof body.title === 'string') g.title = body.title;
    if ('description' in body) g.description = (body.description as string | null) ?? null;
    if ('start_date' in body) g.start_date = (body.start_date as string | null) ?? null;
    if ('end_date' in body) g.end_date = (body.end_date as string | null) ?? null;
    if ('owner_id' in body) g.owner_id = lower(body.owner_id);
    if (Array.isArray(body.team_ids)) g.team_ids = [...new Set((body.team_ids as string[]).map((t) => t.toLowerCase()))];
    if (Array.isArray(body.contributor_ids)) g.contributor_ids = [...new Set((body.contributor_ids as string[]).map((c) => c.toLowerCase()))];
    if ('update_cadence' in body) g.update_cadence = (body.update_cadence as string | null) ?? null;
    if ('parent_id' in body) g.parent_id = lower(body.parent_id);
    if (typeof body.private === 'boolean') g.private = body.private;
    if (typeof body.archived === 'boolean') g.archived = body.archived;
  }
  createGoal(personId: string, given: Record<string, unknown>): Goal {
    const body = this.goalBody(given);
    this.checkGoalFields(body, true);
    this.checkGoalSpan(body.start_date as string | null | undefined, body.end_date as string | null | undefined);
    const g: GoalRecord = {
      id: newUuid(),
      title: '',
      parent_id: null,
      end_date: null,
      owner_id: personId,
      team_ids: [],
      contributor_ids: [],
      created_at: this.now(),
    };
    this.applyGoal(g, body);
    this.add('goals', g);
    return this.goal(g.id);
  }
  patchGoal(id: string, given: Record<string, unknown>): Goal {
    const g = this.goalRecord(id);
    const body = this.goalBody(given);
    this.checkGoalFields(body, false);
    if (typeof body.parent_id === 'string') {
      // A goal cannot sit under itself, nor under one of the goals below it.
      for (let at: string | null = body.parent_id.toLowerCase(), steps = 0; at && steps <= this.data.goals.length; steps++) {
        if (at === g.id) throw unprocessable('parent_id', 'must not be the goal itself or a goal below it');
        at = this.data.goals.find((x) => x.id === at)?.parent_id ?? null;
      }
    }
    this.checkGoalSpan(
      'start_date' in body ? (body.start_date as string | null) : (g.start_date ?? null),
      'end_date' in body ? (body.end_date as string | null) : g.end_date,
    );
    this.touch('goals', g);
    this.applyGoal(g, body);
    return this.goal(g.id);
  }
  /** A goal ends on or after the day it starts. */
  private checkGoalSpan(start: string | null | undefined, end: string | null | undefined): void {
    if (start && end && end < start) throw unprocessable('end_date', `must be on or after the start date (${start})`);
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
      confidence_description: nearestConfidence(u.confidence).label,
      created_at: u.created_at,
      updated_at: u.updated_at,
      url: `${this.appUrl}/goal_updates/${u.id}`,
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
      confidence: nearestConfidence((body.confidence as number | undefined) ?? previous?.confidence ?? 100).value,
      created_at: now,
      updated_at: now,
    };
    this.add('goal_updates', rec);
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
    this.touch('goal_updates', u);
    if (typeof body.title === 'string') u.title = body.title;
    if (typeof body.body === 'string') u.body = body.body;
    if (typeof body.progress === 'number') u.progress = body.progress;
    if (typeof body.confidence === 'number') u.confidence = body.confidence;
    u.confidence = nearestConfidence(u.confidence).value;
    u.updated_at = this.now();
    return this.goalUpdateView(u);
  }
  deleteGoalUpdate(id: string, personId: string): void {
    const u = this.ownUpdate(id, personId);
    const onIt = (r: { id: string }) => (r as CommentRecord).resource.type === 'goal-update' && (r as CommentRecord).resource.id === u.id;
    this.removeWhere('goal_updates', (x) => x === u);
    this.removeWhere('comments', onIt);
    this.removeWhere('reactions', onIt);
  }

  // ---- activities ----
  private activityView(a: SandboxData['activities'][number]): Activity {
    return {
      id: a.id,
      kind: a.kind,
      group: a.group,
      title: a.title,
      description: a.description,
      url: a.url,
      recorded_at: a.recorded_at,
      person: this.ref(a.person_id),
    };
  }
  activity(id: string): Activity {
    const a = this.data.activities.find((x) => x.id === id.toLowerCase());
    if (!a) throw new ServiceError(404, `No activity ${id}`);
    return this.activityView(a);
  }
  /** POST /activities: one for the token's person; `group` and `description` (at most 256 characters), `url` optional. */
  addActivity(personId: string, body: Record<string, unknown>): Activity {
    for (const field of Object.keys(body))
      if (!['group', 'description', 'url'].includes(field)) throw unprocessable(field, 'is not an activity field (allowed: group, description, url)');
    if (typeof body.group !== 'string' || body.group.trim() === '') throw unprocessable('group', "is required and can't be blank");
    if (typeof body.description !== 'string' || body.description.trim() === '') throw unprocessable('description', "is required and can't be blank");
    if ([...body.description].length > 256) throw unprocessable('description', 'is too long (at most 256 characters)');
    if (body.url !== undefined && body.url !== null && (typeof body.url !== 'string' || !/^https:\/\/\S+$/.test(body.url)))
      throw unprocessable('url', 'must be an https URL');
    const rec = {
      id: newUuid(),
      kind: 'api',
      group: body.group,
      title: null,
      description: body.description,
      url: (body.url as string | undefined) ?? null,
      recorded_at: this.now(),
      person_id: personId,
    };
    this.add('activities', rec);
    return this.activityView(rec);
  }

  // ---- echoes ----
  private echoQuestionView(q: EchoQuestionRecord): EchoQuestion {
    return { ...q, next_answer_at: q.paused_at ? null : this.nextAnswer(q), url: `${this.appUrl}/echo/questions/${q.id}` };
  }
  private nextAnswer(q: EchoQuestionRecord): string {
    const target = DAY_NAMES.indexOf(q.answer_day.slice(0, 3) as (typeof DAY_NAMES)[number]);
    let date = addDays(this.today(), 1);
    for (let i = 0; i < 7 && weekdayOf(date) !== target; i++) date = addDays(date, 1);
    return `${date}T${q.answer_time}:00Z`;
  }
  echoQuestions(): EchoQuestion[] {
    return newestFirst(this.data.echo_questions).map((q) => this.echoQuestionView(q));
  }
  addEchoQuestion(body: Record<string, unknown>): EchoQuestion {
    const allowed = ['prompt', 'title', 'answer_frequency', 'answer_day', 'answer_time', 'answer_time_zone'];
    for (const field of Object.keys(body))
      if (!allowed.includes(field)) throw unprocessable(field, `is not an echo question field (allowed: ${allowed.join(', ')})`);
    if (typeof body.prompt !== 'string' || body.prompt.trim() === '') throw unprocessable('prompt', "is required and can't be blank");
    for (const f of allowed.slice(1)) if (body[f] !== undefined && typeof body[f] !== 'string') throw unprocessable(f, 'must be a string');
    if (body.answer_time !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(body.answer_time as string)) throw unprocessable('answer_time', 'must be HH:MM');
    if (body.answer_day !== undefined && !ANSWER_DAYS.includes(body.answer_day as string))
      throw unprocessable('answer_day', `must be one of ${ANSWER_DAYS.join(', ')}`);
    for (const f of ['title', 'answer_frequency', 'answer_time_zone'] as const)
      if (typeof body[f] === 'string' && (body[f] as string).trim() === '') throw unprocessable(f, "can't be blank");
    const now = this.now();
    const q: EchoQuestionRecord = {
      id: newUuid(),
      prompt: body.prompt,
      title: (body.title as string | undefined) ?? body.prompt.slice(0, 60),
      answer_frequency: (body.answer_frequency as string | undefined) ?? 'weekly',
      answer_day: (body.answer_day as string | undefined) ?? 'friday',
      answer_time: (body.answer_time as string | undefined) ?? '16:00',
      answer_time_zone: (body.answer_time_zone as string | undefined) ?? 'UTC',
      paused_at: null,
      created_at: now,
      updated_at: now,
    };
    this.add('echo_questions', q);
    return this.echoQuestionView(q);
  }
  echoAnswer(id: string): EchoAnswer {
    const a = this.data.echo_answers.find((x) => x.id === id.toLowerCase());
    if (!a) throw new ServiceError(404, `No echo answer ${id}`);
    const q = this.data.echo_questions.find((x) => x.id === a.question_id);
    return {
      id: a.id,
      question: { id: a.question_id, title: q?.title ?? '' },
      title: a.title,
      body: a.body,
      published_at: a.published_at,
      url: `${this.appUrl}/echo/answers/${a.id}`,
    };
  }

  // ---- the digest ----
  /**
   * A person's feed, newest first: comments by others on their check-ins and goal updates, comments
   * that @mention them anywhere, their teammates' completed check-ins, others' updates of goals
   * they own or contribute to, and their teammates' updates of their teams' goals (api-notes: "their
   * teams' check-ins and goal updates"). An entry's id is the id of what it is about (comment, check-in, goal
   * update), so it stays the same from one request to the next. `since` is an instant (inclusive).
   */
  digest(personId: string, f: { since?: string; category?: DigestCategory } = {}): DigestEntry[] {
    const me = this.person(personId)!;
    // Each entry with its place in the list it comes from: of two in the same second, the later saved comes first.
    const entries: Array<{ entry: DigestEntry; order: number }> = [];
    const want = (c: DigestCategory) => !f.category || f.category === c;
    const entry = (
      order: number,
      id: string,
      category: DigestCategory,
      published_at: string,
      resource: Partial<DigestEntry['resource']> & Pick<DigestEntry['resource'], 'type' | 'url' | 'person'>,
    ) => {
      if (f.since && Date.parse(published_at) < Date.parse(f.since)) return;
      entries.push({
        entry: {
          id,
          category,
          published_at,
          read_at: null,
          resource: { title: null, body: null, progress: null, confidence: null, confidence_description: null, goal: null, ...resource },
        },
        order,
      });
    };
    const updates = new Map(this.data.goal_updates.map((u) => [u.id, u]));
    const goalOf = (goalId: string) => ({ id: goalId, title: this.data.goals.find((g) => g.id === goalId)?.title ?? '' });

    if (want('comment')) {
      const mention = new RegExp(`(?<![\\w@.])@${me.username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i');
      for (let i = 0; i < this.data.comments.length; i++) {
        const c = this.data.comments[i]!;
        if (c.person_id === personId) continue;
        let on: { title: string; url: string; goal: { id: string; title: string } | null; mine: boolean } | undefined;
        if (c.resource.type === 'check-in') {
          const hit = this.locate(c.resource.id);
          if (!hit) continue;
          const owner = hit.personId === personId ? 'your' : `${this.ref(hit.personId).name}'s`;
          on = {
            title: `Comment on ${owner} check-in for ${hit.date}`,
            url: `${this.appUrl}/check-ins/${c.resource.id}`,
            goal: null,
            mine: hit.personId === personId,
          };
        } else {
          const u = updates.get(c.resource.id);
          if (!u) continue;
          on = {
            title: `Comment on the goal update “${u.title}”`,
            url: `${this.appUrl}/goal_updates/${u.id}`,
            goal: goalOf(u.goal_id),
            mine: u.person_id === personId,
          };
        }
        if (!on.mine && !mention.test(c.body)) continue;
        entry(i, c.id, 'comment', c.created_at, { type: 'comment', title: on.title, body: c.body, url: on.url, goal: on.goal, person: this.ref(c.person_id) });
      }
    }
    if (want('check-in')) {
      const myTeams = new Set(this.teamsOf(personId).map((t) => t.id));
      const teammates = new Set(this.data.teams.filter((t) => myTeams.has(t.id)).flatMap((t) => t.people_ids));
      teammates.delete(personId);
      // Teammate by teammate, day by day (the store's index), not through every check-in stored.
      const found: CheckInRecord[] = [];
      for (const teammate of teammates) {
        for (let date = this.data.start_date; date <= this.lastDay(); date = addDays(date, 1)) {
          const rec = this.record(teammate, date);
          if (rec) found.push(rec);
        }
      }
      for (let i = 0; i < found.length; i++) {
        const rec = found[i]!;
        if (!rec.completed_at || rec.absent) continue;
        if (!this.teamIdsOf(rec.person_id, rec.date).some((t) => myTeams.has(t))) continue;
        if (!this.exists(rec.person_id, rec.date)) continue;
        const person = this.ref(rec.person_id);
        const answers = [
          ['What did you do previously?', rec.previous],
          ['What do you intend to do next?', rec.intentions],
          ['Are you blocked by anything?', rec.blockers],
        ].filter(([, text]) => text);
        entry(i, checkInId(rec.person_id, rec.date), 'check-in', rec.completed_at, {
          type: 'check-in',
          title: `${person.name}'s check-in for ${rec.date}`,
          body: answers.length ? answers.map(([q, text]) => `**${q}**\n${text}`).join('\n\n') : null,
          url: `${this.appUrl}/check-ins/${checkInId(rec.person_id, rec.date)}`,
          person,
        });
      }
    }
    if (want('goal-update')) {
      // Goals they own or contribute to (anyone's updates), and their teams' goals (their teammates' updates).
      const myTeams = new Set(this.teamsOf(personId).map((t) => t.id));
      const teammates = new Set(this.data.teams.filter((t) => myTeams.has(t.id)).flatMap((t) => t.people_ids));
      const mine = new Set(this.data.goals.filter((g) => g.owner_id === personId || g.contributor_ids.includes(personId)).map((g) => g.id));
      const teams = new Set(this.data.goals.filter((g) => g.team_ids.some((t) => myTeams.has(t))).map((g) => g.id));
      for (let i = 0; i < this.data.goal_updates.length; i++) {
        const u = this.data.goal_updates[i]!;
        if (u.person_id === personId) continue;
        if (!mine.has(u.goal_id) && !(teams.has(u.goal_id) && teammates.has(u.person_id))) continue;
        const view = this.goalUpdateView(u);
        entry(i, u.id, 'goal-update', u.created_at, {
          type: 'goal-update',
          title: view.title,
          body: view.body,
          progress: view.progress,
          confidence: view.confidence,
          confidence_description: view.confidence_description,
          // (The view is typed as the client reads it, loosely; the sandbox always fills these.)
          url: view.url ?? '',
          goal: view.goal ? { id: view.goal.id, title: view.goal.title ?? '' } : null,
          person: view.person!,
        });
      }
    }
    const rank = (c: DigestCategory) => DIGEST_CATEGORIES.indexOf(c);
    return entries
      .sort((a, b) => b.entry.published_at.localeCompare(a.entry.published_at) || rank(a.entry.category) - rank(b.entry.category) || b.order - a.order)
      .map((e) => e.entry);
  }

  activities(f: ActivityFilter): Activity[] {
    const teamPeople = new Set(this.data.teams.filter((t) => f.team_ids.includes(t.id)).flatMap((t) => t.people_ids));
    return this.data.activities
      .filter((a) => f.kinds.length === 0 || f.kinds.includes(a.kind))
      .filter((a) => f.people_ids.length === 0 || f.people_ids.includes(a.person_id))
      .filter((a) => f.team_ids.length === 0 || teamPeople.has(a.person_id))
      .filter((a) => !f.since || Date.parse(a.recorded_at) >= Date.parse(f.since))
      .filter((a) => !f.until || Date.parse(a.recorded_at) <= Date.parse(f.until))
      .sort((a, b) => b.recorded_at.localeCompare(a.recorded_at))
      .map((a) => this.activityView(a));
  }
}
