// `checkin echo questions`: every echo question, newest first (all pages, 50 a request).
import { Command } from '@commander-js/extra-typings';
import { allEchoQuestions } from '../../api/endpoints.js';
import type { Context } from '../../context.js';
import { echoQuestionRows } from '../../ui/echo-views.js';
import { JSON_FIELDS, jsonOption, printList, type JsonFlag } from '../../ui/output.js';
import type { Run } from '../flags.js';

export interface QuestionsOptions {
  json?: JsonFlag;
}

export function questionsCommand(ctx: Context, run: Run<QuestionsOptions> = runQuestions) {
  return new Command('questions')
    .description('List the echo questions, with their schedule and next answer')
    .addOption(jsonOption(JSON_FIELDS.echoQuestion))
    .action((opts) => run(ctx, opts));
}

export async function runQuestions(ctx: Context, opts: QuestionsOptions): Promise<void> {
  const list = await allEchoQuestions(await ctx.api());
  await printList(ctx.io, ctx.now(), list, opts.json, 'No echo questions yet: ask one with `checkin echo ask`.', echoQuestionRows);
}
