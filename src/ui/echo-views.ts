// Echo questions and answers for people (a table that fits, the answer's Markdown rendered) and
// for scripts (tab-separated rows; an answer as fields, then its body). Everything from the
// service is sanitised; views are handed sanitised copies (output.ts) and sanitise again here.

import type { EchoAnswer, EchoQuestion } from '../api/types.js';
import { plainLine } from './markdown.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import { table, tsv } from './table.js';
import { text, type View } from './views.js';
import { wrap } from './wrap.js';

const line = (s: string | null | undefined) => sanitizeLine(s ?? '');
/** `2026-11-27T16:00:00Z` → `2026-11-27 16:00Z` (a table cell); anything else as it came. */
const shortTime = (iso: string | null | undefined) => (iso ? line(iso).replace(/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?/, '$1 $2') : '');

/** "weekly, friday 16:00 London" */
export function echoSchedule(q: EchoQuestion): string {
  const when = [line(q.answer_day), line(q.answer_time), line(q.answer_time_zone)].filter(Boolean).join(' ');
  return [line(q.answer_frequency), when].filter(Boolean).join(', ');
}

const questionText = (q: EchoQuestion) => plainLine(line(q.title) || line(q.prompt));

export function echoQuestionRows(v: View, list: EchoQuestion[]): string {
  if (!v.rich) {
    return tsv(
      list.map((q) => [
        line(q.id),
        line(q.title),
        line(q.answer_frequency),
        line(q.answer_day),
        line(q.answer_time),
        line(q.answer_time_zone),
        q.paused_at ? 'paused' : line(q.next_answer_at),
        line(q.prompt),
      ]),
    );
  }
  return table(
    list.map((q) => [v.c.dim(line(q.id)), echoSchedule(q), q.paused_at ? v.c.yellow('paused') : shortTime(q.next_answer_at), questionText(q)]),
    v.width,
    {
      columns: [
        { title: 'ID', kind: 'whole', drop: 1 },
        { title: 'SCHEDULE', kind: 'whole', drop: 2 },
        { title: 'NEXT', kind: 'state' },
        { title: 'QUESTION', kind: 'text' },
      ],
      style: v.c.dim,
    },
  );
}

/** One question just asked: its title, prompt and schedule. */
export function echoQuestionView(v: View, q: EchoQuestion): string {
  if (!v.rich) return echoQuestionRows(v, [q]);
  const out = [
    `${v.c.bold(line(q.title) || 'Echo question')}  ${v.c.dim(line(q.id))}`,
    `${v.c.dim('schedule'.padEnd(10))}${echoSchedule(q) || 'the service’s default'}`,
    `${v.c.dim('next'.padEnd(10))}${q.paused_at ? 'paused' : shortTime(q.next_answer_at) || '—'}`,
    '',
    text(v, q.prompt ?? '').replace(/^/gm, '  '),
  ].join('\n');
  return wrap(out + '\n', v.width) + (q.url && /^https?:\/\//.test(q.url) ? `\n${v.c.dim(line(q.url))}\n` : '');
}

/** An answer with its question; the body is Markdown (null while the summary is being written). */
export function echoAnswerView(v: View, a: EchoAnswer): string {
  if (!v.rich) {
    const fields: Array<[string, string]> = [
      ['id', a.id],
      ['question', line(a.question?.title)],
      ['question_id', line(a.question?.id)],
      ['title', line(a.title)],
      ['published_at', line(a.published_at)],
      ['url', line(a.url)],
    ];
    return `${fields.map(([k, val]) => `${k}:\t${sanitizeLine(val)}`).join('\n')}\n--\n${a.body == null ? '' : `${sanitize(a.body).replace(/\s+$/, '')}\n`}`;
  }
  const head = [
    v.c.bold(line(a.title) || line(a.question?.title) || 'Echo answer'),
    `${v.c.dim('question'.padEnd(11))}${line(a.question?.title) || '—'}${a.question?.id ? `  ${v.c.dim(line(a.question.id))}` : ''}`,
    `${v.c.dim('published'.padEnd(11))}${a.published_at ? shortTime(a.published_at) : 'not yet'}`,
  ].join('\n');
  const body = a.body == null ? v.c.dim('The summary is still being written.') : text(v, a.body);
  return wrap(`${head}\n\n${body}\n`, v.width) + (a.url && /^https?:\/\//.test(a.url) ? `\n${v.c.dim(line(a.url))}\n` : '');
}
