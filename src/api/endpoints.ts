// One function per endpoint of API v2. Paths are relative: the client keeps /api/v2.

import type { ApiClient, Query } from './client.js';
import type { CheckIn, CheckInAnswers, Me } from './types.js';
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
