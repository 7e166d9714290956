// checkin echo questions, ask and answers, in-process against the sandbox: exact requests, exact
// output piped and on terminals of any width, Markdown rendered, and a hostile service's text
// sanitised everywhere but --json.
import { beforeEach, describe, expect, it } from 'vitest';
import { stableUuid } from '../../src/sandbox/ids.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { displayWidth } from '../../src/ui/width.js';
import { useWorld, type RunOptions } from '../helpers/harness.js';
import { FORBIDDEN, POISON } from '../helpers/hostile.js';
import { scripted } from '../helpers/prompter.js';

const w = useWorld();
let sb: Sandbox;
const cli = (args: string[], opts: RunOptions = {}) => w.cli(args, opts);
const weekly = stableUuid('echo:weekly');
const retro = stableUuid('echo:retro');
const posted = () => sb.requests.filter((q) => q.method === 'POST');
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

beforeEach(() => {
  sb = w.sb;
});

describe('echo questions', () => {
  it('piped: one request, a tab-separated row per question; --json is the service’s list', async () => {
    const r = await cli(['echo', 'questions']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual(['GET /api/v2/echo/questions?page=1&per_page=50']);
    expect(r.stdout).toBe(
      `${weekly}\tPlatform weekly\tweekly\tfriday\t16:00\tLondon\t2026-11-27T16:00:00Z\tSummarise what the Platform team shipped this week, for the company update.\n` +
        `${retro}\tMobile retro\tweekly\tmonday\t09:30\tEastern Time (US & Canada)\tpaused\tWhat should the Mobile team start, stop and continue doing?\n`,
    );
    const json = await cli(['echo', 'questions', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(sb.service.echoQuestions());
    expect(JSON.parse((await cli(['echo', 'questions', '--json', 'id,paused_at'])).stdout)).toEqual([
      { id: weekly, paused_at: null },
      { id: retro, paused_at: expect.stringMatching(/Z$/) },
    ]);
  });

  it('on a terminal: a table that fits every width, the id and schedule giving way first, the state never', async () => {
    const wide = await cli(['echo', 'questions'], { tty: true, columns: 140 });
    expect(wide.stdout.split('\n')).toEqual([
      `ID${' '.repeat(36)}SCHEDULE${' '.repeat(41)}NEXT${' '.repeat(15)}QUESTION`,
      `${weekly}  weekly, friday 16:00 London${' '.repeat(22)}2026-11-27 16:00Z  Platform weekly`,
      `${retro}  weekly, monday 09:30 Eastern Time (US & Canada)  paused             Mobile retro`,
      '',
    ]);
    for (const columns of [100, 80, 60, 40, 30]) {
      const r = await cli(['echo', 'questions'], { tty: true, columns });
      const lines = r.stdout.trimEnd().split('\n');
      for (const l of lines) expect(displayWidth(l), `${columns}: ${l}`).toBeLessThanOrEqual(columns);
      expect(lines[2]).toContain('paused');
    }
    expect((await cli(['echo', 'questions'], { tty: true, columns: 40 })).stdout).toBe(
      'NEXT               QUESTION\n2026-11-27 16:00Z  Platform weekly\npaused             Mobile retro\n',
    );
  });

  it('every page, 50 a request, stopping at a short page', async () => {
    const base = sb.service.data.echo_questions[0]!;
    for (let i = 0; i < 58; i++)
      sb.service.data.echo_questions.push({
        ...base,
        id: stableUuid(`echo:more:${i}`),
        title: `Question ${i}`,
        created_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
      });
    const r = await cli(['echo', 'questions', '--json', 'id']);
    expect(JSON.parse(r.stdout)).toHaveLength(60);
    expect(w.sent()).toEqual(['GET /api/v2/echo/questions?page=1&per_page=50', 'GET /api/v2/echo/questions?page=2&per_page=50']);
  });

  it('none: a note on stderr, exit 0', async () => {
    sb.service.data.echo_questions.length = 0;
    expect(await cli(['echo', 'questions'])).toEqual({ code: 0, stdout: '', stderr: 'No echo questions yet: ask one with `checkin echo ask`.\n' });
  });
});

describe('echo ask', () => {
  it('with flags: one POST, the prompt first, day and time as the service names them', async () => {
    const r = await cli([
      'echo',
      'ask',
      'What did the team learn this week?',
      '--title',
      'Learnings',
      '--day',
      'Fri',
      '--time',
      '9:30',
      '--time-zone',
      'Europe/London',
      '--frequency',
      'weekly',
      '--json',
    ]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual(['POST /api/v2/echo/questions']);
    expect(sb.requests[0]!.body).toEqual({
      prompt: 'What did the team learn this week?',
      title: 'Learnings',
      answer_frequency: 'weekly',
      answer_day: 'friday',
      answer_time: '09:30',
      answer_time_zone: 'Europe/London',
    });
    expect(Object.keys(JSON.parse(r.stdout))[0]).toBe('id');
    expect(JSON.parse(r.stdout)).toMatchObject({ prompt: 'What did the team learn this week?', next_answer_at: '2026-11-27T09:30:00Z' });
    // Only the prompt: the service's defaults for the rest; piped output is the question's row.
    const bare = await cli(['echo', 'ask', '-'], { input: 'Anything to celebrate?\n' });
    expect(bare.code).toBe(0);
    expect(sb.requests.at(-1)!.body).toEqual({ prompt: 'Anything to celebrate?' });
    expect(bare.stdout.split('\t').slice(1, 3)).toEqual(['Anything to celebrate?', 'weekly']);
  });

  it('refuses before any request: no prompt without a terminal, a bad day or time, an empty pipe', async () => {
    expect(await cli(['echo', 'ask'])).toMatchObject({
      code: 2,
      stderr: 'error: An echo question needs a prompt\nGive it as an argument: checkin echo ask "…" (- reads standard input).\n',
    });
    expect(await cli(['echo', 'ask', 'x', '--day', 'someday'])).toMatchObject({
      code: 2,
      stderr: 'error: --day takes a weekday, monday to sunday; got "someday"\n',
    });
    expect(await cli(['echo', 'ask', 'x', '--time', '25:00'])).toMatchObject({
      code: 2,
      stderr: 'error: --time takes a time written HH:MM (24-hour), e.g. 16:00; got "25:00"\n',
    });
    expect(await cli(['echo', 'ask', '-'], { input: '\n' })).toMatchObject({
      code: 2,
      stderr: 'error: Nothing came on standard input for the prompt; nothing was sent\n',
    });
    expect(sb.requests).toEqual([]);
  });

  it('a refusal from the service exits 2 with its message, the prompt kept: --resume with a fix sends it', async () => {
    const r = await cli(['echo', 'ask', 'Kept words', '--time-zone', ' Mars ']);
    // (a zone of spaces is for the service to judge: it is trimmed, and sent)
    expect(r.code).toBe(0);
    sb.inject({
      method: 'POST',
      path: '/echo/questions',
      status: 422,
      body: JSON.stringify({
        error: 'unprocessable_entity',
        message: 'answer_time_zone is not a time zone',
        errors: { answer_time_zone: ['is not a time zone'] },
      }),
    });
    const refused = await cli(['echo', 'ask', 'Kept words', '--time-zone', 'Mars']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe('error: POST /api/v2/echo/questions: 422 Unprocessable Entity: answer_time_zone is not a time zone');
    expect(refused.stderr).toContain('`checkin echo ask --resume`');
    const resumed = await cli(['echo', 'ask', '--resume', '--time-zone', 'UTC']);
    expect(resumed.code).toBe(0);
    expect(posted().at(-1)!.body).toEqual({ prompt: 'Kept words', answer_time_zone: 'UTC' });
  });

  it('on a terminal: the question as lines, a title, the day and the time (asked again when wrong), a preview, then one POST', async () => {
    const p = scripted(['', 'What went well?\nWhat did not?', 'Retro', 'thursday', '9', '17:45', true]);
    const r = await cli(['echo', 'ask'], { tty: true, prompter: p });
    expect(r.code).toBe(0);
    expect(p.asked.map((q) => q.message)).toEqual([
      'Question (an empty line ends it)',
      'Question (an empty line ends it)',
      'Title (empty: made from the question)',
      'Day it is answered',
      'Time it is answered (HH:MM; empty: the service’s default)',
      'Time it is answered (HH:MM; empty: the service’s default)',
      'Ask it?',
    ]);
    expect(p.asked[3]!.choices).toEqual(['The service’s default', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(r.stderr).toContain('An echo question needs a prompt.\n');
    expect(r.stderr).toContain('Give a time written HH:MM (24-hour), e.g. 16:00; got "9"\n');
    expect(plain(r.stdout)).toContain('Retro\nschedule  thursday 17:45\n\n  What went well?\n  What did not?\n');
    expect(posted().map((q) => q.body)).toEqual([{ prompt: 'What went well?\nWhat did not?', title: 'Retro', answer_day: 'thursday', answer_time: '17:45' }]);
  });

  it('on a terminal, "No" sends nothing and keeps the question (130)', async () => {
    const r = await cli(['echo', 'ask', '--day', 'monday'], { tty: true, prompter: scripted(['Keep me', '', '', false]) });
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(
      '\nPreview (not asked yet):\nNot asked. What you wrote is kept as a draft: `checkin echo ask --resume` sends it (`checkin drafts` lists everything waiting).\n',
    );
    expect(posted()).toEqual([]);
    expect((await cli(['echo', 'ask', '--resume'])).code).toBe(0);
    expect(posted().map((q) => q.body)).toEqual([{ prompt: 'Keep me', answer_day: 'monday' }]);
  });
});

describe('echo answers', () => {
  const first = stableUuid('echo-answer:1');

  it('piped: its fields, then the body as it is; one request', async () => {
    const published = sb.service.data.echo_answers[0]!.published_at;
    const r = await cli(['echo', 'answers', first]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(w.sent()).toEqual([`GET /api/v2/echo/answers/${first}`]);
    expect(r.stdout).toBe(
      `id:\t${first}\nquestion:\tPlatform weekly\nquestion_id:\t${weekly}\ntitle:\tPlatform weekly\npublished_at:\t${published}\nurl:\t${new URL(sb.url).origin}/app/echo/answers/${first}\n--\n- The **invoices endpoint** shipped\n- Webhooks wait on a security review\n`,
    );
    expect(JSON.parse((await cli(['echo', 'answers', first, '--json'])).stdout)).toEqual(sb.service.echoAnswer(first));
  });

  it('on a terminal: the question, the Markdown rendered (no markers, styled), wrapped to the width', async () => {
    const r = await cli(['echo', 'answers', stableUuid('echo-answer:3')], { tty: true, color: 1, columns: 40 });
    expect(r.code).toBe(0);
    const text = plain(r.stdout);
    // (the question's id does not fit beside its title: it goes on the next line)
    expect(text).toContain(`Mobile retro\nquestion   Mobile retro\n${retro}\npublished  `);
    expect(text).toContain('## Start\n- Pairing on crash fixes with @alan\n');
    expect(text).toContain('- Shipping on Fridays\n');
    expect(text).not.toContain('*Fridays*');
    expect(r.stdout).toContain('\u001b[3mFridays'); // italic
    // Every line fits but the link, one word that is never cut.
    for (const l of text
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('http')))
      expect(displayWidth(l), l).toBeLessThanOrEqual(40);
  });

  it('an answer still being written says so; an unknown one is exit 2; an id that is not a UUID is refused before any request', async () => {
    const pending = await cli(['echo', 'answers', stableUuid('echo-answer:2')], { tty: true });
    expect(pending.stdout).toContain('published  not yet\n\nThe summary is still being written.\n');
    const missing = '00000000-0000-4000-8000-000000000000';
    const r = await cli(['echo', 'answers', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`error: GET /api/v2/echo/answers/${missing}: 404 Not Found: No echo answer ${missing}`);
    w.forget();
    expect(await cli(['echo', 'answers', 'latest'])).toMatchObject({
      code: 2,
      stderr: 'error: The answer id must be a UUID; "latest" is not one\nAn answer’s id is the last part of its link in the web app.\n',
    });
    expect(sb.requests).toEqual([]);
  });
});

describe('a hostile service', () => {
  it('its questions and answers reach the terminal sanitised (piped too), and --json exactly', async () => {
    const q = sb.service.data.echo_questions[0]!;
    Object.assign(q, { title: `Weekly${POISON}`, prompt: `Say${POISON}\nmore`, answer_day: 'friday', answer_time_zone: `London${POISON}` });
    const a = sb.service.data.echo_answers[0]!;
    Object.assign(a, { title: `Answer${POISON}`, body: `- **Shipped**${POISON}\n- [link](https://x.example/${POISON})` });
    for (const opts of [{ tty: true, color: 1 as const }, { tty: true, columns: 40 }, {}]) {
      const list = await cli(['echo', 'questions'], opts);
      const answer = await cli(['echo', 'answers', a.id], opts);
      for (const r of [list, answer]) {
        expect(r.code).toBe(0);
        expect(r.stdout + r.stderr).not.toMatch(FORBIDDEN);
      }
      expect(plain(list.stdout)).toContain('Weekly');
      expect(plain(answer.stdout)).toContain('Shipped');
    }
    const json = await cli(['echo', 'answers', a.id, '--json']);
    expect(JSON.parse(json.stdout).body).toBe(a.body);
    // An answer of the wrong shape is one clear line, exit 1.
    sb.inject({
      method: 'GET',
      path: `/echo/answers/${a.id}`,
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: a.id, body: 42 }),
    });
    const bad = await cli(['echo', 'answers', a.id]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split('\n')[0]).toBe(`error: GET /api/v2/echo/answers/${a.id}: unexpected answer: the answer.body is a number, not a string`);
  });
});
