// One function per endpoint of API v2. Paths are relative: the client keeps /api/v2.

import type { ApiClient, Query } from './client.js';
import type { CheckIn, CheckInAnswers, Comment, Goal, GoalUpdate, GoalUpdateInput, Me, Team } from './types.js';
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

export const getTeam = (api: ApiClient, id: string) => api.get<Team>(`teams/${enc(id)}`);

export type Commentable = { kind: 'check-in' | 'goal-update'; id: string };
/** Where a check-in's or goal update's comments and reactions live (paginate these with fetchAll). */
export const resourcePath = (r: Commentable) => `${r.kind === 'check-in' ? 'check-ins' : 'goal-updates'}/${enc(r.id)}`;

export const postComment = (api: ApiClient, r: Commentable, body: string) => api.post<Comment>(`${resourcePath(r)}/comments`, { body });

export const getGoal = (api: ApiClient, id: string) => api.get<Goal>(`goals/${enc(id)}`);
export const listGoalUpdates = (api: ApiClient, goalId: string, q: PageQuery = {}) => api.get<GoalUpdate[]>(`goals/${enc(goalId)}/goal-updates`, { ...q });
export const createGoalUpdate = (api: ApiClient, goalId: string, input: GoalUpdateInput) => api.post<GoalUpdate>(`goals/${enc(goalId)}/goal-updates`, input);
export const getGoalUpdate = (api: ApiClient, id: string) => api.get<GoalUpdate>(`goal-updates/${enc(id)}`);
export const patchGoalUpdate = (api: ApiClient, id: string, input: GoalUpdateInput) => api.patch<GoalUpdate>(`goal-updates/${enc(id)}`, input);
export const deleteGoalUpdate = (api: ApiClient, id: string) => api.delete(`goal-updates/${enc(id)}`);
