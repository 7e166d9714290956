// One function per endpoint of API v2, and the only place that knows a URL's shape. Paths are
// relative: the client keeps /api/v2. Each list takes its own query, named as the spec names the
// parameters (arrays go out as name[]=…); each request says what it addresses (see Target), which
// is how a refusal is read.

import type { ApiClient, RequestOptions } from './client.js';
import { fetchAll, getInParallel, walkAll, type PageOptions, type WalkOptions } from './paginate.js';
import { pollList, type Polled } from './poll.js';
import type {
  Activity,
  ActivityInput,
  CheckIn,
  CheckInAnswers,
  Comment,
  DigestEntry,
  EchoAnswer,
  EchoQuestion,
  EchoQuestionInput,
  Goal,
  GoalInput,
  GoalUpdate,
  GoalUpdateInput,
  Me,
  Person,
  Reaction,
  Team,
} from './types.js';
import {
  ACTIVITY,
  CHECK_IN,
  COMMENT,
  DATE_KEY_RE,
  DIGEST_ENTRY,
  ECHO_ANSWER,
  ECHO_QUESTION,
  GOAL,
  GOAL_UPDATE,
  MAX_PER_PAGE,
  ME,
  PERSON,
  REACTION,
  TEAM,
} from './types.js';
import { arrayOf } from './validate.js';

/** `page` (1-indexed) and `per_page` (at most MAX_PER_PAGE): every list takes them. */
export interface PageQuery {
  page?: number;
  per_page?: number;
}

/** GET /check-ins: check-ins of these people and teams, from `since` to `until` (dates, both inclusive). */
export interface CheckInFilter {
  since?: string;
  until?: string;
  /** Only check-ins that contain blockers. */
  blocked?: boolean;
  people_ids?: readonly string[];
  team_ids?: readonly string[];
}
export interface CheckInQuery extends CheckInFilter, PageQuery {}

/** GET /goals: goals of these people and teams (`since`/`until` dates, as Steady's CLI sends). */
export interface GoalFilter {
  people_ids?: readonly string[];
  team_ids?: readonly string[];
  since?: string;
  until?: string;
}

/** GET /activities: `since`/`until` are full ISO timestamps (2026-05-06T00:00:00Z), not dates. */
export interface ActivityFilter {
  /** github_pr, jira, linear, google_calendar… */
  kinds?: readonly string[];
  people_ids?: readonly string[];
  team_ids?: readonly string[];
  since?: string;
  until?: string;
}

/** A check-in or goal update: what comments and reactions hang on. */
export type Commentable = { kind: 'check-in' | 'goal-update'; id: string };

/** GET /digest: the person's feed, newest first (docs/api.md § Activities, the digest, echoes: Steady's own clients poll it). */
export interface DigestQuery {
  category?: 'comment' | 'check-in' | 'goal-update';
  /** A date or an ISO 8601 timestamp: entries from then on. */
  since?: string;
  page?: number;
  per_page?: number;
}

const enc = encodeURIComponent;
/** A request about one existing resource, named by its id (perhaps someone else's). */
const RESOURCE: RequestOptions = { target: 'resource' };
const perPage = (q: PageQuery) => ({ ...q, per_page: q.per_page === undefined ? undefined : Math.min(q.per_page, MAX_PER_PAGE) });

// Paths.
const checkInPath = (key: string) => `check-ins/${enc(key)}`;
/** A date key is the token's own check-in that day; a UUID may be anyone's. */
const checkInTarget = (key: string): RequestOptions => (DATE_KEY_RE.test(key) ? {} : RESOURCE);
const goalPath = (id: string) => `goals/${enc(id)}`;
const goalUpdatesPath = (goalId: string) => `${goalPath(goalId)}/goal-updates`;
const goalUpdatePath = (id: string) => `goal-updates/${enc(id)}`;
const resourcePath = (r: Commentable) => (r.kind === 'check-in' ? checkInPath(r.id) : goalUpdatePath(r.id));
const commentsPath = (r: Commentable) => `${resourcePath(r)}/comments`;
const reactionsPath = (r: Commentable) => `${resourcePath(r)}/reactions`;

// One object.
export const getMe = (api: ApiClient): Promise<Me> => api.get('me', ME);
export const getCheckIn = (api: ApiClient, key: string): Promise<CheckIn> => api.get(checkInPath(key), CHECK_IN, undefined, checkInTarget(key));
/** A check-in sent with the ETag of the copy at hand: 'unchanged' on a 304. */
export const getCheckInIfChanged = (api: ApiClient, key: string, etag: string | undefined) =>
  api.getIfChanged(checkInPath(key), CHECK_IN, undefined, etag, checkInTarget(key));
export const patchCheckIn = (api: ApiClient, key: string, answers: CheckInAnswers): Promise<CheckIn> =>
  api.patch(checkInPath(key), CHECK_IN, answers, checkInTarget(key));
export const getTeam = (api: ApiClient, id: string): Promise<Team> => api.get(`teams/${enc(id)}`, TEAM, undefined, RESOURCE);
export const getGoal = (api: ApiClient, id: string): Promise<Goal> => api.get(goalPath(id), GOAL, undefined, RESOURCE);
export const getGoalUpdate = (api: ApiClient, id: string): Promise<GoalUpdate> => api.get(goalUpdatePath(id), GOAL_UPDATE, undefined, RESOURCE);
export const patchGoalUpdate = (api: ApiClient, id: string, input: GoalUpdateInput): Promise<GoalUpdate> =>
  api.patch(goalUpdatePath(id), GOAL_UPDATE, input, RESOURCE);
export const deleteGoalUpdate = (api: ApiClient, id: string): Promise<void> => api.delete(goalUpdatePath(id), RESOURCE);
/** A new update under a goal, which may be someone else's. */
export const createGoalUpdate = (api: ApiClient, goalId: string, input: GoalUpdateInput): Promise<GoalUpdate> =>
  api.post(goalUpdatesPath(goalId), GOAL_UPDATE, input, RESOURCE);
/** A comment by the token's person; anyone who can read a check-in or update may comment on it. */
export const postComment = (api: ApiClient, r: Commentable, body: string): Promise<Comment> => api.post(commentsPath(r), COMMENT, { body });
/** A new goal (the token's person is its owner unless `owner_id` says otherwise). */
export const createGoal = (api: ApiClient, input: GoalInput): Promise<Goal> => api.post('goals', GOAL, input);
/** Changes only the fields given; the goal may be someone else's. */
export const patchGoal = (api: ApiClient, id: string, input: GoalInput): Promise<Goal> => api.patch(goalPath(id), GOAL, input, RESOURCE);
/** A new echo question. */
export const createEchoQuestion = (api: ApiClient, input: EchoQuestionInput): Promise<EchoQuestion> => api.post('echo/questions', ECHO_QUESTION, input);
/** One echo answer, with its question's id and title. */
export const getEchoAnswer = (api: ApiClient, id: string): Promise<EchoAnswer> => api.get(`echo/answers/${enc(id)}`, ECHO_ANSWER, undefined, RESOURCE);
/** Recorded for the token's person. */
export const postActivity = (api: ApiClient, input: ActivityInput): Promise<Activity> => api.post('activities', ACTIVITY, input);

// One page.
export const listCheckIns = (api: ApiClient, q: CheckInQuery): Promise<CheckIn[]> => api.get('check-ins', arrayOf(CHECK_IN), perPage(q));
export const listGoals = (api: ApiClient, q: GoalFilter & PageQuery): Promise<Goal[]> => api.get('goals', arrayOf(GOAL), perPage(q));
export const listGoalUpdates = (api: ApiClient, goalId: string, q: PageQuery = {}): Promise<GoalUpdate[]> =>
  api.get(goalUpdatesPath(goalId), arrayOf(GOAL_UPDATE), perPage(q), RESOURCE);

// Whole lists, every page followed (see paginate.ts).
export const allCheckIns = (api: ApiClient, q: CheckInFilter, opts?: PageOptions): Promise<CheckIn[]> =>
  fetchAll(api.pages, 'check-ins', CHECK_IN, { ...q }, opts);
/** Every check-in of the query, handed over page by page as they arrive (see walkAll). */
export const walkCheckIns = (api: ApiClient, q: CheckInFilter, onItems: (items: CheckIn[]) => void, opts?: WalkOptions): Promise<number> =>
  walkAll(api.pages, 'check-ins', CHECK_IN, { ...q }, onItems, opts);
export const allPeople = (api: ApiClient): Promise<Person[]> => fetchAll(api.pages, 'people', PERSON, {});
export const allTeams = (api: ApiClient): Promise<Team[]> => fetchAll(api.pages, 'teams', TEAM, {});
export const allGoals = (api: ApiClient, q: GoalFilter): Promise<Goal[]> => fetchAll(api.pages, 'goals', GOAL, { ...q });
export const allActivities = (api: ApiClient, q: ActivityFilter): Promise<Activity[]> => fetchAll(api.pages, 'activities', ACTIVITY, { ...q });
export const allComments = (api: ApiClient, r: Commentable): Promise<Comment[]> => fetchAll(api.pages, commentsPath(r), COMMENT, {});
export const allReactions = (api: ApiClient, r: Commentable): Promise<Reaction[]> => fetchAll(api.pages, reactionsPath(r), REACTION, {});
export const allEchoQuestions = (api: ApiClient): Promise<EchoQuestion[]> => fetchAll(api.pages, 'echo/questions', ECHO_QUESTION, {});
export const allGoalUpdates = (api: ApiClient, goalId: string): Promise<GoalUpdate[]> => fetchAll(api.pages, goalUpdatesPath(goalId), GOAL_UPDATE, {});

// Many at once: the newest page of each, overlapped within the rate budget (see getInParallel).
/** The newest updates (one page of 50) of each goal; one list per goal. */
export const newestUpdatesOf = (api: ApiClient, goalIds: readonly string[], opts: Pick<WalkOptions, 'onPause'> = {}): Promise<GoalUpdate[][]> =>
  getInParallel(
    api.pages,
    goalIds.map((id) => ({ path: goalUpdatesPath(id), query: { per_page: MAX_PER_PAGE }, shape: arrayOf(GOAL_UPDATE) })),
    opts,
  );

/** The newest comments and reactions (one page of 50 each) of each check-in or update, in the order given. */
export const newestCommentsAndReactionsOf = async (
  api: ApiClient,
  on: readonly Commentable[],
  opts: Pick<WalkOptions, 'onPause'> = {},
): Promise<Array<{ comments: Comment[]; reactions: Reaction[] }>> => {
  // One budget for all: [comments 0, reactions 0, comments 1, …].
  const [comments, reactions] = [arrayOf(COMMENT), arrayOf(REACTION)];
  const lists = await getInParallel<Comment[] | Reaction[]>(
    api.pages,
    on.flatMap((r) => [
      { path: commentsPath(r), query: { per_page: MAX_PER_PAGE }, shape: comments },
      { path: reactionsPath(r), query: { per_page: MAX_PER_PAGE }, shape: reactions },
    ]),
    opts,
  );
  return on.map((_, i) => ({ comments: lists[2 * i] as Comment[], reactions: lists[2 * i + 1] as Reaction[] }));
};

// Polled (a live view): every page sent with its last ETag (see poll.ts).
export const pollCheckIns = (api: ApiClient, q: CheckInFilter, last: Polled<CheckIn> | undefined) => pollList(api, 'check-ins', CHECK_IN, { ...q }, last);
export const pollGoals = (api: ApiClient, q: GoalFilter, last: Polled<Goal> | undefined) => pollList(api, 'goals', GOAL, { ...q }, last);

/** One page of the feed, sent with the last ETag: 'unchanged' (a 304) costs no parsing. */
export const digestPage = (api: ApiClient, q: DigestQuery, etag?: string): Promise<'unchanged' | { data: DigestEntry[]; etag?: string }> =>
  api.getIfChanged('digest', arrayOf(DIGEST_ENTRY), { ...q }, etag);
