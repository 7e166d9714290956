// The answer shapes (src/api/types.ts): one description gives both the type and the check, so the
// two agree by construction. These tests pin what the descriptions say (at compile time: npm test
// typechecks this file), and hold them to what they serve: everything the sandbox answers passes,
// a wrong shape is one clear line naming the field, and whatever passes can be shown by the views
// typed against it without a TypeError.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import {
  allActivities,
  allCheckIns,
  allComments,
  allGoals,
  allGoalUpdates,
  allPeople,
  allReactions,
  allTeams,
  getCheckIn,
  getGoal,
  getGoalUpdate,
  getMe,
  getTeam,
  postActivity,
  postComment,
} from '../../src/api/endpoints.js';
import {
  ACTIVITY,
  CHECK_IN,
  COMMENT,
  GOAL,
  GOAL_UPDATE,
  ME,
  PERSON,
  REACTION,
  TEAM,
  type Activity,
  type CheckIn,
  type Comment,
  type Goal,
  type GoalUpdate,
  type Me,
  type Mood,
  type Person,
  type Reaction,
  type Ref,
  type Team,
} from '../../src/api/types.js';
import { arrayOf, bool, num, object, optional, orNull, str, type Infer, type Shape } from '../../src/api/validate.js';
import { answersOf } from '../../src/core/checkin-answers.js';
import { renderCheckIn } from '../../src/ui/render.js';
import {
  activityRows,
  checkInRows,
  commentRows,
  goalHeaderView,
  goalRows,
  goalUpdateRows,
  goalUpdateView,
  peopleRows,
  reactionRows,
  teamRows,
} from '../../src/ui/views.js';
import { useWorld } from '../helpers/harness.js';
import { hostileObjects } from '../helpers/hostile.js';
import { shownOrNamed, views, type Equal, type Shown } from '../helpers/shapes.js';

// ---- compile time: what each type promises is what its check checks ----

const sample = object({ a: str, b: optional(num), c: orNull(bool), d: arrayOf(str) });
export const PINS = {
  // The validator's own vocabulary: a field whose shape takes undefined is an optional property.
  object: true satisfies Equal<Infer<typeof sample>, { a: string; b?: number | undefined; c: boolean | null; d: string[] }>,
  // A check-in: only id and date are sure (docs/api.md § Check-ins); the mood is text, since the service may add moods.
  checkInId: true satisfies Equal<CheckIn['id'], string>,
  checkInMood: true satisfies Equal<CheckIn['mood'], string | null | undefined>,
  checkInPerson: true satisfies Equal<CheckIn['person'], Ref | null | undefined>,
  checkInBlocked: true satisfies Equal<CheckIn['blocked'], boolean | undefined>,
  // Not read, so not checked: unknown, and nothing may rely on it.
  checkInAbsent: true satisfies Equal<CheckIn['absent'], unknown>,
  meTeams: true satisfies Equal<Me['teams'], Array<Ref> | undefined>,
  personTeams: true satisfies Equal<Person['teams'], Array<Ref> | undefined>,
  commentAuthor: true satisfies Equal<Comment['person']['id'], string>,
  goalProgress: true satisfies Equal<Goal['progress'], number | null | undefined>,
  updateBody: true satisfies Equal<GoalUpdate['body'], string>,
  activityGroup: true satisfies Equal<Activity['group'], string | null | undefined>,
};
// The type does not claim more than the check proves.
// @ts-expect-error a check-in's mood is text on the wire, not a Mood
export const notAMood: Mood | null | undefined = ({} as CheckIn).mood;
// A Ref and a check-in's person are the same shape.
export const sameRef: Ref | null | undefined = ({} as CheckIn).person;

// ---- run time ----

const w = useWorld();
const client = () => new ApiClient({ baseUrl: w.sb.url, token: w.sb.token, sleep: async () => undefined });

/** Everything the sandbox answers through the endpoint functions (each answer checked by its shape on the way in). */
async function sandboxAnswers() {
  const api = client();
  try {
    const me = await getMe(api);
    const [people, teams, checkIns, goals, activities] = await Promise.all([
      allPeople(api),
      allTeams(api),
      allCheckIns(api, { since: '2026-01-01' }),
      allGoals(api, {}),
      allActivities(api, {}),
    ]);
    const team = await getTeam(api, teams[0]!.id);
    const checkIn = await getCheckIn(api, checkIns[0]!.id);
    const updates = (await Promise.all(goals.map((g) => allGoalUpdates(api, g.id)))).flat();
    const comments: Comment[] = [];
    const reactions: Reaction[] = [];
    for (const c of checkIns.filter((c) => c.completed_at).slice(0, 40)) {
      comments.push(...(await allComments(api, { kind: 'check-in', id: c.id })));
      reactions.push(...(await allReactions(api, { kind: 'check-in', id: c.id })));
    }
    for (const u of updates) comments.push(...(await allComments(api, { kind: 'goal-update', id: u.id })));
    comments.push(await postComment(api, { kind: 'check-in', id: checkIn.id }, 'A comment'));
    activities.push(await postActivity(api, { group: 'Claude Code', description: 'Refactored the pager' }));
    return {
      me: [me],
      people,
      teams: [...teams, team],
      checkIns: [...checkIns, checkIn],
      goals: [...goals, await getGoal(api, goals[0]!.id)],
      updates: [...updates, await getGoalUpdate(api, updates[0]!.id)],
      comments,
      reactions,
      activities,
    };
  } finally {
    await api.close();
  }
}

/** The shapes, with what shows each (every view typed against it). */
const SHOWN: Array<Shown<keyof Awaited<ReturnType<typeof sandboxAnswers>>>> = [
  { name: 'check-in', shape: CHECK_IN, key: 'checkIns', show: (v, c: CheckIn) => [checkInRows(v, [c]), renderCheckIn(c, v.c, v.rich), answersOf(c)] },
  { name: 'comment', shape: COMMENT, key: 'comments', show: (v, c: Comment) => commentRows(v, [c]) },
  { name: 'reaction', shape: REACTION, key: 'reactions', show: (v, r: Reaction) => reactionRows(v, [r]) },
  { name: 'goal', shape: GOAL, key: 'goals', show: (v, g: Goal) => [goalRows(v, [g]), goalHeaderView(v, g, undefined)] },
  { name: 'goal update', shape: GOAL_UPDATE, key: 'updates', show: (v, u: GoalUpdate) => [goalUpdateView(v, u), goalUpdateRows(v, [u])] },
  { name: 'person', shape: PERSON, key: 'people', show: (v, p: Person) => peopleRows(v, [p]) },
  { name: 'me', shape: ME, key: 'me', show: (v, p: Me) => peopleRows(v, [p]) },
  { name: 'team', shape: TEAM, key: 'teams', show: (v, t: Team) => teamRows(v, [t], new Set([t.id])) },
  { name: 'activity', shape: ACTIVITY, key: 'activities', show: (v, a: Activity) => activityRows(v, [a]) },
];

describe('the answer shapes', () => {
  it('accept everything the sandbox answers, on every endpoint, and the hostile service’s poisoned objects', async () => {
    const got = await sandboxAnswers();
    for (const [key, list] of Object.entries(got)) expect(list.length, key).toBeGreaterThan(0);
    // The samples cover what the shapes allow: a goal with no update yet, one with a parent.
    expect(got.goals.some((g) => g.progress === null) && got.goals.some((g) => g.parent)).toBe(true);
    const h = hostileObjects();
    for (const [shape, value] of [
      [CHECK_IN, h.checkIn],
      [COMMENT, h.comment],
      [REACTION, h.reaction],
      [GOAL, h.goal],
      [GOAL_UPDATE, h.update],
      [PERSON, h.person],
      [ME, h.person],
      [TEAM, h.team],
      [ACTIVITY, h.activity],
    ] as const) {
      expect((shape as Shape<unknown>)(value, 'the answer')).toBeUndefined();
    }
  });

  it('take what docs/api.md allows: a check-in of only id and date, a mood the service added since, nulls where documented', () => {
    expect(CHECK_IN({ id: 'x', date: '2026-11-22' }, 'the answer')).toBeUndefined();
    expect(CHECK_IN({ id: 'x', date: '2026-11-22', mood: 'zen', person: null, previous_completed: null }, 'the answer')).toBeUndefined();
    expect(GOAL({ id: 'g', title: 'T', parent: null, end_date: null, progress: null, confidence_description: null }, 'the answer')).toBeUndefined();
    expect(
      ACTIVITY({ id: 'a', kind: 'jira', group: null, title: null, url: null, description: null, recorded_at: '2026-11-22T09:00:00Z' }, 'the answer'),
    ).toBeUndefined();
  });

  it('a mood named like a property every object has ("toString", "constructor") passes and is shown as its name, never as code', () => {
    for (const mood of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) {
      const c = { id: 'x', date: '2026-11-22', mood, completed_at: '2026-11-22T09:00:00Z', person: { id: 'p', name: 'Ada' } };
      expect(CHECK_IN(c, 'the answer')).toBeUndefined();
      for (const v of views()) {
        const shown = [checkInRows(v, [c as CheckIn]), renderCheckIn(c as CheckIn, v.c, v.rich)].join('\n');
        expect(shown, mood).toContain(mood);
        expect(shown, mood).not.toMatch(/native code|function/);
      }
    }
  });

  it('refuse a wrong shape with one line naming the place', () => {
    const cases: Array<[Shape<unknown>, unknown, string]> = [
      [CHECK_IN, { id: 5, date: 'x' }, 'the answer.id is a number, not a string'],
      [CHECK_IN, { id: 'x', date: 'x', person: { id: 'p' } }, 'the answer.person.name is missing, not a string'],
      [CHECK_IN, { id: 'x', date: 'x', blocked: 'yes' }, 'the answer.blocked is a string, not true or false'],
      [arrayOf(CHECK_IN), [{ id: 'a', date: 'x' }, { id: 'b' }], 'the answer[1].date is missing, not a string'],
      [COMMENT, { id: 'c', body: 'b', created_at: 't' }, 'the answer.person is missing, not an object'],
      [GOAL_UPDATE, { id: 'u', title: 't', body: null, progress: 1, confidence: 90, created_at: 't', url: 'u' }, 'the answer.body is null, not a string'],
      [GOAL, { id: 'g', title: 't', progress: Number.NaN }, 'the answer.progress is NaN, not a finite number'],
      [ME, { id: 'p', name: 'n', teams: {} }, 'the answer.teams is an object, not a list'],
      [TEAM, [], 'the answer is an array, not an object'],
    ];
    for (const [shape, value, problem] of cases) expect(shape(value, 'the answer')).toBe(problem);
  });

  it('whatever passes can be shown: every view typed against the shape takes it without a TypeError; whatever fails names a field', async () => {
    shownOrNamed(SHOWN, await sandboxAnswers(), 300);
  });
});
