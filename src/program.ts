// Assembles the commander program: each command is defined in its own file (flags beside the
// function that runs them); this file only adds them. A run builds just the command it runs;
// --help (or no command) builds them all.

import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from './context.js';
import { activityCommand } from './commands/activity.js';
import { statusCommand as authStatusCommand } from './commands/auth/status.js';
import { checkinCommand } from './commands/checkin.js';
import { commentsCommand } from './commands/comments.js';
import { cronCommand } from './commands/cron.js';
import { createCommand } from './commands/goal/update/create.js';
import { deleteCommand } from './commands/goal/update/delete.js';
import { editCommand } from './commands/goal/update/edit.js';
import { listCommand as updateListCommand } from './commands/goal/update/list.js';
import { viewCommand } from './commands/goal/update/view.js';
import { goalsCommand } from './commands/goals.js';
import { inboxCommand } from './commands/inbox.js';
import { listCommand } from './commands/list.js';
import { logCommand } from './commands/log.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { meCommand } from './commands/me.js';
import { peopleCommand } from './commands/people.js';
import { reactionsCommand } from './commands/reactions.js';
import { reportCommand } from './commands/report.js';
import { sandboxCommand } from './commands/sandbox.js';
import { statusCommand } from './commands/status.js';
import { teamCommand } from './commands/team.js';
import { teamsCommand } from './commands/teams.js';
import { todayCommand } from './commands/today.js';
import { VERSION } from './version.js';

export const EXIT_CODES_HELP = `
Environment:
  CHECKIN_TOKEN      token (overrides the stored one; STEADY_TOKEN is read too)
  CHECKIN_API_URL    API base URL (default https://service.steady.space/api/v2)
  CHECKIN_CONFIG_DIR where config lives (default $XDG_CONFIG_HOME/checkin or ~/.config/checkin)
  CHECKIN_NO_PROMPT  never prompt      CHECKIN_TIMEOUT  seconds per request (default 30)
  NO_COLOR / FORCE_COLOR, HTTPS_PROXY / HTTP_PROXY / NO_PROXY, CHECKIN_DEBUG=1 (stack traces)

Exit codes:
  0    success (including "no check-in scheduled")
  1    the service or the network failed
  2    bad usage, or input rejected (by checkin or by the service)
  3    checkin status: today's check-in is still pending
  4    not logged in, or the token was rejected (missing, invalid or read-only)
  130  cancelled at a prompt`;

/** `goal update …`: create is the default (`goal update <goal-id>`); list, view, edit, delete one update. */
function goalUpdateGroup(ctx: Context): CommandUnknownOpts {
  return new Command('update')
    .description('Post a goal update (goal update <goal-id>), or list, view, edit and delete updates')
    .addCommand(createCommand(ctx), { isDefault: true })
    .addCommand(updateListCommand(ctx))
    .addCommand(viewCommand(ctx))
    .addCommand(editCommand(ctx))
    .addCommand(deleteCommand(ctx))
    .addHelpText('after', '\nExamples:\n  checkin goal update <goal-id> --title "Invoices shipped" --body - --progress 60 < notes.md\n  checkin goal update list <goal-id>\n  checkin goal update view <update-id>\n  checkin goal update edit <update-id> --progress 70\n  checkin goal update delete <update-id> --yes');
}

/** The older spellings, kept working: `goal updates <goal-id>` and `goal updates show|edit|delete <update-id>`. */
function goalUpdatesGroup(ctx: Context): CommandUnknownOpts {
  return new Command('updates')
    .description("List a goal's updates (same as goal update list); show, edit or delete one")
    .addCommand(updateListCommand(ctx), { isDefault: true, hidden: true })
    .addCommand(viewCommand(ctx).name('show'))
    .addCommand(editCommand(ctx))
    .addCommand(deleteCommand(ctx));
}

function goalCommand(ctx: Context): CommandUnknownOpts {
  return new Command('goal').description('Post and manage goal updates').addCommand(goalUpdateGroup(ctx)).addCommand(goalUpdatesGroup(ctx));
}

function authCommand(ctx: Context): CommandUnknownOpts {
  return new Command('auth').description('The token: checkin auth status').addCommand(authStatusCommand(ctx));
}

type Define = (ctx: Context) => CommandUnknownOpts;

const COMMANDS: Record<string, Define> = {
  today: todayCommand,
  checkin: checkinCommand,
  list: listCommand,
  team: teamCommand,
  inbox: inboxCommand,
  comments: commentsCommand,
  reactions: reactionsCommand,
  goal: goalCommand,
  goals: goalsCommand,
  report: reportCommand,
  teams: teamsCommand,
  people: peopleCommand,
  activity: activityCommand,
  log: logCommand,
  status: statusCommand,
  login: loginCommand,
  logout: logoutCommand,
  auth: authCommand,
  me: meCommand,
  cron: cronCommand,
  sandbox: sandboxCommand,
};

/** Whether argv runs one known command (then only it is built); otherwise all are (help, errors). */
export function isCommand(argv: string[]): boolean {
  const wanted = argv.find((a) => !a.startsWith('-'));
  return wanted !== undefined && Object.hasOwn(COMMANDS, wanted) && !argv.includes('--help') && !argv.includes('-h');
}

export function buildProgram(ctx: Context, argv: string[] = []): CommandUnknownOpts {
  const { io } = ctx;
  const program = new Command('checkin')
    .description('Daily team check-ins from the command line (Steady API v2).')
    .version(VERSION, '-V, --version')
    .addHelpText('after', EXIT_CODES_HELP);

  const names = isCommand(argv) ? [argv.find((a) => !a.startsWith('-'))!] : Object.keys(COMMANDS);
  for (const name of names) program.addCommand(COMMANDS[name]!(ctx));

  // Every command, however deep, writes through io, throws instead of exiting, and suggests near names.
  const configure = (cmd: CommandUnknownOpts) => {
    cmd
      .exitOverride()
      .showSuggestionAfterError(true)
      .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  return program;
}
