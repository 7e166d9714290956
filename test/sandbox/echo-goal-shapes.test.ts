// The echo answer shapes (ECHO_QUESTION, ECHO_ANSWER in src/api/types.ts) and the goal views of
// goal create/edit, held to what they serve as sandbox/shapes.test.ts holds the others: the type is
// what the check proves; everything the sandbox answers passes; a wrong shape is one line naming
// the field; whatever passes can be shown by every view typed against it without a TypeError.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { allEchoQuestions, createEchoQuestion, createGoal, getEchoAnswer, patchGoal } from '../../src/api/endpoints.js';
import { ECHO_ANSWER, ECHO_QUESTION, GOAL, type EchoAnswer, type EchoQuestion, type Goal } from '../../src/api/types.js';
import { type Infer, type Shape } from '../../src/api/validate.js';
import { echoAnswerView, echoQuestionRows, echoQuestionView } from '../../src/ui/echo-views.js';
import { goalView } from '../../src/ui/goal-view.js';
import { sanitizeDeep } from '../../src/ui/sanitize.js';
import { useWorld } from '../helpers/harness.js';
import { FORBIDDEN, POISON } from '../helpers/hostile.js';
import { shownOrNamed, views, type Equal, type Shown } from '../helpers/shapes.js';

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

const SHOWN: Array<Shown<'questions' | 'answers' | 'goals'>> = [
  { name: 'echo question', shape: ECHO_QUESTION, key: 'questions', show: (v, q: EchoQuestion) => [echoQuestionRows(v, [q]), echoQuestionView(v, q)] },
  { name: 'echo answer', shape: ECHO_ANSWER, key: 'answers', show: (v, a: EchoAnswer) => echoAnswerView(v, a) },
  { name: 'goal', shape: GOAL, key: 'goals', show: (v, g: Goal) => goalView(v, g) },
];

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
    shownOrNamed(SHOWN, got, 200);
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
