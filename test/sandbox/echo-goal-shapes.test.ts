// The echo answer shapes (ECHO_QUESTION, ECHO_ANSWER in src/api/types.ts) and the goal views of
// goal create/edit, held to what they serve as sandbox/shapes.test.ts holds the others: the type is
// what the check proves; everything the sandbox answers passes; a wrong shape is one line naming
// the field; whatever passes can be shown by every view typed against it without a TypeError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { allEchoQuestions, createEchoQuestion, createGoal, getEchoAnswer, patchGoal } from '../../src/api/endpoints.js';
import { ECHO_ANSWER, ECHO_QUESTION, GOAL, type EchoAnswer, type EchoQuestion, type Goal } from '../../src/api/types.js';
import { type Infer, type Shape } from '../../src/api/validate.js';
import { makeColors } from '../../src/ui/color.js';
import { echoAnswerView, echoQuestionRows, echoQuestionView } from '../../src/ui/echo-views.js';
import { goalView } from '../../src/ui/goal-view.js';
import { sanitizeDeep } from '../../src/ui/sanitize.js';
import type { View } from '../../src/ui/views.js';
import { useWorld } from '../helpers/harness.js';
import { FORBIDDEN, POISON } from '../helpers/hostile.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const PINS = {
  questionId: true satisfies Equal<EchoQuestion['id'], string>,
  questionPrompt: true satisfies Equal<EchoQuestion['prompt'], string | null | undefined>,
  questionNext: true satisfies Equal<EchoQuestion['next_answer_at'], string | null | undefined>,
  questionCreated: true satisfies Equal<EchoQuestion['created_at'], unknown>,
  answerBody: true satisfies Equal<EchoAnswer['body'], string | null | undefined>,
  answerQuestion: true satisfies Equal<EchoAnswer['question'], { id: string; title?: string | null | undefined } | null | undefined>,
  inferred: true satisfies Equal<Infer<typeof ECHO_ANSWER>['id'], string>,
};

const w = useWorld();

async function sandboxAnswers() {
  const api = new ApiClient({ baseUrl: w.sb.url, token: w.sb.token, sleep: async () => undefined });
  try {
    const questions = await allEchoQuestions(api);
    questions.push(await createEchoQuestion(api, { prompt: 'What did we learn?', answer_day: 'monday' }));
    const answers = await Promise.all(w.sb.service.data.echo_answers.map((a) => getEchoAnswer(api, a.id)));
    const goal = await createGoal(api, { title: 'New', end_date: '2026-12-31', team_ids: [w.team('Platform')] });
    const goals = [goal, await patchGoal(api, goal.id, { parent_id: w.sb.service.data.goals[0]!.id, contributor_ids: [w.id('linus')] })];
    return { questions, answers, goals };
  } finally {
    await api.close();
  }
}

const [plainColors, fullColors] = await Promise.all([makeColors(0), makeColors(3)]);
const views = (width = 100): View[] => [
  { c: plainColors, rich: false, width: 80, now: new Date('2026-11-22T12:00:00Z') },
  { c: fullColors, rich: true, width, now: new Date('2026-11-22T12:00:00Z') },
];

const SHOWN: Array<{ name: string; shape: Shape<unknown>; key: 'questions' | 'answers' | 'goals'; show: (v: View, x: never) => unknown }> = [
  { name: 'echo question', shape: ECHO_QUESTION, key: 'questions', show: (v, q: EchoQuestion) => [echoQuestionRows(v, [q]), echoQuestionView(v, q)] },
  { name: 'echo answer', shape: ECHO_ANSWER, key: 'answers', show: (v, a: EchoAnswer) => echoAnswerView(v, a) },
  { name: 'goal', shape: GOAL, key: 'goals', show: (v, g: Goal) => goalView(v, g) },
];

function nearly(base: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const ref = fc.record({ id: fc.string(), name: fc.string(), title: fc.string() });
  const other = fc.oneof(
    fc.string(),
    fc.constant(null),
    fc.constant(undefined),
    fc.integer(),
    fc.boolean(),
    ref,
    fc.array(ref, { maxLength: 2 }),
    fc.anything(),
  );
  const fields = Object.fromEntries(
    Object.entries(base).map(([k, v]) => [k, fc.oneof({ weight: 3, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: other })]),
  );
  return fc.record(fields).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
}

describe('echo shapes', () => {
  it('accept everything the sandbox answers (a paused question, an answer still being written) and only an id where the docs promise nothing more', async () => {
    const got = await sandboxAnswers();
    expect(got.questions.some((q) => q.paused_at && q.next_answer_at === null)).toBe(true);
    expect(got.answers.some((a) => a.body === null && a.published_at === null)).toBe(true);
    expect(ECHO_QUESTION({ id: 'q' }, 'the answer')).toBeUndefined();
    expect(ECHO_ANSWER({ id: 'a', question: null, body: null }, 'the answer')).toBeUndefined();
  });

  it('refuse a wrong shape with one line naming the place', () => {
    const cases: Array<[Shape<unknown>, unknown, string]> = [
      [ECHO_QUESTION, { id: 7 }, 'the answer.id is a number, not a string'],
      [ECHO_QUESTION, { id: 'q', prompt: ['x'] }, 'the answer.prompt is an array, not a string'],
      [ECHO_QUESTION, { id: 'q', next_answer_at: 1700000000 }, 'the answer.next_answer_at is a number, not a string'],
      [ECHO_ANSWER, { id: 'a', question: { title: 'x' } }, 'the answer.question.id is missing, not a string'],
      [ECHO_ANSWER, { id: 'a', body: { text: 'x' } }, 'the answer.body is an object, not a string'],
    ];
    for (const [shape, value, problem] of cases) expect(shape(value, 'the answer')).toBe(problem);
  });

  it('whatever passes can be shown by every view, without a TypeError and without anything a terminal acts on', async () => {
    const got = await sandboxAnswers();
    for (const { name, shape, key, show } of SHOWN) {
      const bases = got[key] as unknown as Array<Record<string, unknown>>;
      fc.assert(
        fc.property(fc.constantFrom(...bases).chain(nearly), (value) => {
          const problem = shape(value, 'the answer');
          if (problem !== undefined) {
            expect(problem, name).toMatch(/^the answer\.\w+[.[\w\]]* is (null|missing|an? \w+), not (a string|a number|true or false|a list|an object)$/);
            return;
          }
          for (const v of views()) show(v, value as never);
        }),
        { numRuns: 200 },
      );
    }
    // Poison in every string: nothing of it reaches the terminal, at any width (the echo views on
    // their own; the goal view as printOne hands it its goal, every string sanitised).
    const poisoned = <T>(x: T): T => JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'string' ? `${v}${POISON}` : v)));
    for (const width of [100, 30]) {
      for (const v of views(width)) {
        const out = [
          echoQuestionRows(v, got.questions.map(poisoned)),
          echoQuestionView(v, poisoned(got.questions[0]!)),
          ...got.answers.map((a) => echoAnswerView(v, poisoned(a))),
          ...got.goals.map((g) => goalView(v, sanitizeDeep(poisoned(g)))),
        ].join('\n');
        expect(out.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(FORBIDDEN);
      }
    }
  });
});
