// One function per endpoint of API v2. Paths are relative: the client keeps /api/v2.

import type { ApiClient, Query } from './client.js';
import { fetchAll, getInParallel, walkAll, type PageOptions, type WalkOptions } from './paginate.js';
import type { Activity, ActivityInput, CheckIn, CheckInAnswers, Comment, Goal, GoalUpdate, GoalUpdateInput, Me, Person, Reaction, Team } from './types.js';
import { MAX_PER_PAGE } from './types.js';
import { ACTIVITY, arrayOf, CHECK_IN, COMMENT, GOAL, GOAL_UPDATE, ME, PERSON, REACTION, TEAM } from './validate.js';

export interface CheckInQuery {
  since?: string;
  until?: string;
  blocked?: boolean;
  people_ids?: string[];
  team_ids?: string[];
  page?: number;
  per_page?: number;
}

const enc = encodeURIComponent;

export const getMe = (api: ApiClient) => api.get<Me>('me', ME);

export const getCheckIn = (api: ApiClient, key: string) => api.get<CheckIn>(`check-ins/${enc(key)}`, CHECK_IN);

export const patchCheckIn = (api: ApiClient, key: string, answers: CheckInAnswers) =>
  api.patch<CheckIn>(`check-ins/${enc(key)}`, CHECK_IN, answers);

export const listCheckIns = (api: ApiClient, q: CheckInQuery) => {
  const query: Query = { ...q, per_page: q.per_page === undefined ? undefined : Math.min(q.per_page, MAX_PER_PAGE) };
  return api.get<CheckIn[]>('check-ins', arrayOf(CHECK_IN), query);
};

export interface PageQuery {
  page?: number;
  per_page?: number;
}

export const getTeam = (api: ApiClient, id: string) => api.get<Team>(`teams/${enc(id)}`, TEAM);

export type Commentable = { kind: 'check-in' | 'goal-update'; id: string };
/** Where a check-in's or goal update's comments and reactions live. */
export const resourcePath = (r: Commentable) => `${r.kind === 'check-in' ? 'check-ins' : 'goal-updates'}/${enc(r.id)}`;

export const postComment = (api: ApiClient, r: Commentable, body: string) => api.post<Comment>(`${resourcePath(r)}/comments`, COMMENT, { body });

export const postActivity = (api: ApiClient, input: ActivityInput) => api.post<Activity>('activities', ACTIVITY, input);

export const getGoal = (api: ApiClient, id: string) => api.get<Goal>(`goals/${enc(id)}`, GOAL);
export const listGoalUpdates = (api: ApiClient, goalId: string, q: PageQuery = {}) => api.get<GoalUpdate[]>(`goals/${enc(goalId)}/goal-updates`, arrayOf(GOAL_UPDATE), { ...q });
export const createGoalUpdate = (api: ApiClient, goalId: string, input: GoalUpdateInput) => api.post<GoalUpdate>(`goals/${enc(goalId)}/goal-updates`, GOAL_UPDATE, input);
export const getGoalUpdate = (api: ApiClient, id: string) => api.get<GoalUpdate>(`goal-updates/${enc(id)}`, GOAL_UPDATE);
export const patchGoalUpdate = (api: ApiClient, id: string, input: GoalUpdateInput) => api.patch<GoalUpdate>(`goal-updates/${enc(id)}`, GOAL_UPDATE, input);
export const deleteGoalUpdate = (api: ApiClient, id: string) => api.delete(`goal-updates/${enc(id)}`);

// Whole lists, every page followed (see paginate.ts).
export const allCheckIns = (api: ApiClient, q: Query, opts?: PageOptions) => fetchAll<CheckIn>(api, 'check-ins', CHECK_IN, q, opts);
/** Every check-in of the query, handed over page by page as they arrive (see walkAll). */
export const walkCheckIns = (api: ApiClient, q: Query, onItems: (items: CheckIn[]) => void, opts?: WalkOptions) => walkAll<CheckIn>(api, 'check-ins', CHECK_IN, q, onItems, opts);
export const allPeople = (api: ApiClient) => fetchAll<Person>(api, 'people', PERSON, {});
export const allTeams = (api: ApiClient) => fetchAll<Team>(api, 'teams', TEAM, {});
export const allGoals = (api: ApiClient, q: Query) => fetchAll<Goal>(api, 'goals', GOAL, q);
export const allActivities = (api: ApiClient, q: Query) => fetchAll<Activity>(api, 'activities', ACTIVITY, q);
export const allComments = (api: ApiClient, r: Commentable) => fetchAll<Comment>(api, `${resourcePath(r)}/comments`, COMMENT, {});
export const allReactions = (api: ApiClient, r: Commentable) => fetchAll<Reaction>(api, `${resourcePath(r)}/reactions`, REACTION, {});
/** The newest updates (one page of 50) of each goal, overlapped within the rate budget; one list per goal. */
export const newestUpdatesOf = async (api: ApiClient, goalIds: string[], opts: Pick<WalkOptions, 'onPause'> = {}) =>
  (await getInParallel(api, goalIds.map((id) => ({ path: `goals/${enc(id)}/goal-updates`, query: { per_page: MAX_PER_PAGE }, check: arrayOf(GOAL_UPDATE) })), opts)) as GoalUpdate[][];
export const allGoalUpdates = (api: ApiClient, goalId: string) => fetchAll<GoalUpdate>(api, `goals/${enc(goalId)}/goal-updates`, GOAL_UPDATE, {});
