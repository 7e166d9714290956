// One function per endpoint of API v2. Paths are relative: the client keeps /api/v2.

import type { ApiClient, Query } from './client.js';
import type { Activity, CheckIn, CheckInAnswers, Comment, Goal, GoalUpdate, GoalUpdateInput, Me, Person, Reaction, Team } from './types.js';
import { MAX_PER_PAGE } from './types.js';

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

export const getMe = (api: ApiClient) => api.get<Me>('me');

export const getCheckIn = (api: ApiClient, key: string) => api.get<CheckIn>(`check-ins/${enc(key)}`);

export const patchCheckIn = (api: ApiClient, key: string, answers: CheckInAnswers) =>
  api.patch<CheckIn>(`check-ins/${enc(key)}`, answers);

export const listCheckIns = (api: ApiClient, q: CheckInQuery) => {
  const query: Query = { ...q, per_page: q.per_page === undefined ? undefined : Math.min(q.per_page, MAX_PER_PAGE) };
  return api.get<CheckIn[]>('check-ins', query);
};

export interface PageQuery {
  page?: number;
  per_page?: number;
}

export const listPeople = (api: ApiClient, q: PageQuery = {}) => api.get<Person[]>('people', { ...q });
export const listTeams = (api: ApiClient, q: PageQuery = {}) => api.get<Team[]>('teams', { ...q });
export const getTeam = (api: ApiClient, id: string) => api.get<Team>(`teams/${enc(id)}`);

export type Commentable = { kind: 'check-in' | 'goal-update'; id: string };
const resourcePath = (r: Commentable) => `${r.kind === 'check-in' ? 'check-ins' : 'goal-updates'}/${enc(r.id)}`;

export const listComments = (api: ApiClient, r: Commentable, q: PageQuery = {}) => api.get<Comment[]>(`${resourcePath(r)}/comments`, { ...q });
export const postComment = (api: ApiClient, r: Commentable, body: string) => api.post<Comment>(`${resourcePath(r)}/comments`, { body });
export const listReactions = (api: ApiClient, r: Commentable, q: PageQuery = {}) => api.get<Reaction[]>(`${resourcePath(r)}/reactions`, { ...q });

export const listGoals = (api: ApiClient, q: { people_ids?: string[]; team_ids?: string[] } & PageQuery) => api.get<Goal[]>('goals', { ...q });
export const getGoal = (api: ApiClient, id: string) => api.get<Goal>(`goals/${enc(id)}`);
export const listGoalUpdates = (api: ApiClient, goalId: string, q: PageQuery = {}) => api.get<GoalUpdate[]>(`goals/${enc(goalId)}/goal-updates`, { ...q });
export const createGoalUpdate = (api: ApiClient, goalId: string, input: GoalUpdateInput) => api.post<GoalUpdate>(`goals/${enc(goalId)}/goal-updates`, input);
export const getGoalUpdate = (api: ApiClient, id: string) => api.get<GoalUpdate>(`goal-updates/${enc(id)}`);
export const patchGoalUpdate = (api: ApiClient, id: string, input: GoalUpdateInput) => api.patch<GoalUpdate>(`goal-updates/${enc(id)}`, input);
export const deleteGoalUpdate = (api: ApiClient, id: string) => api.delete(`goal-updates/${enc(id)}`);

export interface ActivityQuery extends PageQuery {
  kinds?: string[];
  people_ids?: string[];
  team_ids?: string[];
  since?: string;
  until?: string;
}
export const listActivities = (api: ApiClient, q: ActivityQuery) => api.get<Activity[]>('activities', { ...q });
