// `checkin echo answers <answer-id>`: one echo answer with its question; the body (Markdown) rendered.
import { Command } from '@commander-js/extra-typings';
import { getEchoAnswer } from '../../api/endpoints.js';
import { UUID_RE } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { echoAnswerView } from '../../ui/echo-views.js';
import { openInBrowser } from '../../ui/browser.js';
import { JSON_FIELDS, jsonOption, printOne, type JsonFlag } from '../../ui/output.js';
import type { Run } from '../flags.js';

export interface AnswersOptions {
  answerId: string;
  json?: JsonFlag;
  web?: boolean;
}

export function answersCommand(ctx: Context, run: Run<AnswersOptions> = runAnswers) {
  return new Command('answers')
    .argument('<answer-id>', 'the answer (its id is the last part of its link in the web app)')
    .description('Show an echo answer with its question')
    .addOption(jsonOption(JSON_FIELDS.echoAnswer))
    .option('-w, --web', 'open it in the browser (its link is printed where there is none)')
    .action((answerId, opts) => run(ctx, { ...opts, answerId }));
}

export async function runAnswers(ctx: Context, opts: AnswersOptions): Promise<void> {
  if (!UUID_RE.test(opts.answerId))
    throw new UsageError(`The answer id must be a UUID; "${opts.answerId}" is not one`, 'An answer’s id is the last part of its link in the web app.');
  const answer = await getEchoAnswer(await ctx.api(), opts.answerId.toLowerCase());
  if (opts.web) {
    return openInBrowser(ctx.io, ctx.env, answer.url);
  }
  await printOne(ctx.io, ctx.now(), answer, opts.json, echoAnswerView);
}
