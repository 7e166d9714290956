// `checkin echo …`: echo questions (a prompt the service answers on a schedule) and their answers.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { answersCommand } from './answers.js';
import { askCommand } from './ask.js';
import { questionsCommand } from './questions.js';

export function echoCommand(ctx: Context): CommandUnknownOpts {
  return new Command('echo')
    .description('Echo questions and their answers: list, ask one, read an answer')
    .addCommand(questionsCommand(ctx))
    .addCommand(askCommand(ctx))
    .addCommand(answersCommand(ctx))
    .addHelpText(
      'after',
      '\nExamples:\n  checkin echo questions\n  checkin echo ask "What did the team ship this week?" --title "Weekly" --day friday --time 16:00\n  checkin echo answers <answer-id>',
    );
}
