// `checkin echo ask "<prompt>"`: create an echo question (POST /echo/questions; the body starts
// with the prompt), with its title and schedule when given. Asked on a terminal when the prompt is
// missing. The prompt is kept as a draft until the service took it (`--resume` sends it again).
import { Command } from '@commander-js/extra-typings';
import { createEchoQuestion } from '../../api/endpoints.js';
import type { EchoQuestion, EchoQuestionInput } from '../../api/types.js';
import type { Context } from '../../context.js';
import { WEEKDAYS } from '../../core/datekey.js';
import { CancelledError, UsageError } from '../../errors.js';
import { keep, resumeEach, sendWithDraft } from '../../domain/outbox.js';
import { echoQuestionView } from '../../ui/echo-views.js';
import { JSON_FIELDS, jsonOption, printOne, viewFor, type JsonFlag } from '../../ui/output.js';
import { sanitizeLine } from '../../ui/sanitize.js';
import { sayDone } from '../../ui/success.js';
import { text } from '../../ui/views.js';
import { keptLine, type Run } from '../flags.js';
import { askedHere } from '../../domain/asked.js';

export interface AskOptions {
  prompt?: string;
  title?: string;
  frequency?: string;
  day?: string;
  time?: string;
  timeZone?: string;
  resume?: boolean;
  json?: JsonFlag;
}

const TARGET = { kind: 'echo-question' } as const;
const RESUME = 'checkin echo ask --resume';

export function askCommand(ctx: Context, run: Run<AskOptions> = runAsk) {
  return new Command('ask')
    .argument('[prompt]', 'the question (- reads standard input); asked on a terminal when missing')
    .description('Create an echo question: a prompt answered on a schedule')
    .option('--title <text>', 'a short title (optional)')
    .option('--frequency <frequency>', 'how often it is answered, e.g. weekly')
    .option('--day <weekday>', 'the day it is answered: monday … sunday')
    .option('--time <HH:MM>', 'the time it is answered, e.g. 16:00')
    .option('--time-zone <zone>', 'the time zone of --time, e.g. London or Europe/London')
    .option('--resume', 'send the question kept from a failed attempt')
    .addOption(jsonOption(JSON_FIELDS.echoQuestion, 'print the question as JSON'))
    .addHelpText(
      'after',
      '\nExamples:\n  checkin echo ask "What did the team ship this week?" --title Weekly --day friday --time 16:00\n  checkin echo ask - --day monday < prompt.md',
    )
    .action((prompt, opts) => run(ctx, { ...opts, ...(prompt !== undefined && { prompt }) }));
}

/** monday … sunday (or mon … sun, any case) → the service's lower-case name. */
export function parseWeekday(value: string): string {
  const v = value.trim().toLowerCase();
  const day = WEEKDAYS.find((d) => d === v || (v.length >= 3 && d.startsWith(v)));
  if (!day) throw new UsageError(`--day takes a weekday, monday to sunday; got "${value}"`);
  return day;
}

/** HH:MM (H:MM too) on a 24-hour clock. */
export function parseTime(value: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) throw new UsageError(`--time takes a time written HH:MM (24-hour), e.g. 16:00; got "${value}"`);
  return `${m[1]!.padStart(2, '0')}:${m[2]}`;
}

/** The schedule and title the flags give, checked. */
function givenSchedule(opts: AskOptions): Omit<EchoQuestionInput, 'prompt'> {
  for (const [flag, v] of [
    ['--title', opts.title],
    ['--frequency', opts.frequency],
    ['--time-zone', opts.timeZone],
  ] as const) {
    if (v !== undefined && v.trim() === '') throw new UsageError(`${flag} is empty`);
  }
  return {
    ...(opts.title !== undefined && { title: opts.title }),
    ...(opts.frequency !== undefined && { answer_frequency: opts.frequency.trim() }),
    ...(opts.day !== undefined && { answer_day: parseWeekday(opts.day) }),
    ...(opts.time !== undefined && { answer_time: parseTime(opts.time) }),
    ...(opts.timeZone !== undefined && { answer_time_zone: opts.timeZone.trim() }),
  };
}

/** What is missing, asked: the prompt (lines), a title, the day and the time (empty: the service's default). */
async function askQuestion(ctx: Context, given: Omit<EchoQuestionInput, 'prompt'>, prompt: string | undefined): Promise<EchoQuestionInput> {
  const p = ctx.prompter();
  p.warm?.();
  let typed = prompt ?? '';
  while (typed.trim() === '') {
    typed = (await p.lines('Question (an empty line ends it)')).replace(/\s+$/, '');
    if (typed.trim() === '') ctx.io.err('An echo question needs a prompt.\n');
  }
  const input: EchoQuestionInput = { prompt: typed, ...given };
  const kept = keep(ctx, TARGET, { kind: 'echo-question', input });
  // Ctrl-C at a later question: the question is kept; say so, and how to go on.
  try {
    if (input.title === undefined) {
      const title = (await p.input('Title (empty: made from the question)')).trim();
      if (title) input.title = title;
    }
    if (input.answer_day === undefined) {
      const day = await p.select<string | null>(
        'Day it is answered',
        [
          { name: 'The service’s default', value: null },
          ...WEEKDAYS.slice(1)
            .concat(WEEKDAYS[0])
            .map((d) => ({ name: d, value: d })),
        ],
        { default: null },
      );
      if (day) input.answer_day = day;
    }
    if (input.answer_time === undefined) {
      for (;;) {
        const t = (await p.input('Time it is answered (HH:MM; empty: the service’s default)')).trim();
        if (t === '') break;
        try {
          input.answer_time = parseTime(t);
          break;
        } catch (err) {
          if (!(err instanceof UsageError)) throw err;
          ctx.io.err(`${err.message.replace(/^--time takes/, 'Give')}\n`);
        }
      }
    }
  } catch (err) {
    if (err instanceof CancelledError && err.message === 'Cancelled' && kept) throw new CancelledError(`Not asked. ${keptLine(ctx, RESUME)}`);
    throw err;
  }
  keep(ctx, TARGET, { kind: 'echo-question', input });
  const v = await viewFor(ctx.io, ctx.now());
  ctx.io.err(v.c.dim('\nPreview (not asked yet):\n'));
  const when = [input.answer_frequency, input.answer_day, input.answer_time, input.answer_time_zone]
    .filter(Boolean)
    .map((s) => sanitizeLine(s!))
    .join(' ');
  ctx.io.out(
    `${v.c.bold(sanitizeLine(input.title ?? '(a title made from the question)'))}\n${v.c.dim('schedule  ')}${when || 'the service’s default'}\n\n${text(v, input.prompt).replace(/^/gm, '  ')}\n`,
  );
  if (!(await p.confirm(askedHere(ctx, 'Ask it?'), { default: true }))) throw new CancelledError(`Not asked. ${keptLine(ctx, RESUME)}`);
  return input;
}

export async function runAsk(ctx: Context, opts: AskOptions): Promise<void> {
  if (opts.resume) {
    // Every question kept from failed attempts, oldest first, each asked once (a schedule given now applies to each).
    const api = await ctx.api();
    const sent = await resumeEach(ctx, TARGET, 'an echo question', RESUME, (e, k) =>
      sendWithDraft(ctx, {
        target: e.target,
        ...k,
        send: () => {
          if (e.content.kind !== 'echo-question') throw new UsageError(`The draft ${e.id} holds no echo question`);
          return createEchoQuestion(api, { ...e.content.input, ...givenSchedule(opts) });
        },
      }),
    );
    for (const { result } of sent) await showAsked(ctx, result, opts.json);
    return;
  }
  const given = givenSchedule(opts);
  let prompt = opts.prompt;
  const piped = prompt === '-';
  if (prompt === '-') {
    prompt = (await ctx.io.readStdin()).replace(/\s+$/, '');
    if (prompt.trim() === '') throw new UsageError('Nothing came on standard input for the prompt; nothing was sent');
  }
  if (prompt !== undefined && prompt.trim() === '') throw new UsageError('The prompt is empty; nothing was sent');
  if (prompt === undefined && !ctx.io.canPrompt)
    throw new UsageError('An echo question needs a prompt', 'Give it as an argument: checkin echo ask "…" (- reads standard input).');
  const input = prompt === undefined ? await askQuestion(ctx, given, prompt) : { prompt, ...given };
  const created = await sendWithDraft(ctx, {
    target: TARGET,
    content: { kind: 'echo-question', input },
    made: piped ? 'piped' : 'typed',
    resume: RESUME,
    send: async () => createEchoQuestion(await ctx.api(), input),
  });
  await showAsked(ctx, created, opts.json);
}

async function showAsked(ctx: Context, created: EchoQuestion, json: AskOptions['json']): Promise<void> {
  await sayDone(ctx.io, ctx.now(), 'Asked the echo question', { link: created.url, json });
  await printOne(ctx.io, ctx.now(), created, json, echoQuestionView);
}
