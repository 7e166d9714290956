// Assembles the commander program: each command is defined in its own file (flags beside the
// function that runs them); this file only adds them, in the help's groups (as gh's help has
// them). A run builds just the command it runs; --help (or no command) builds them all.

import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { nearMatches } from './core/match.js';
import { UsageError } from './errors.js';
import { ownBundle } from './config/installation.js';
import { activityCommand } from './commands/activity/activity.js';
import { logCommand } from './commands/activity/log.js';
import { apiCommand } from './commands/api/api.js';
import { authCommand } from './commands/auth/auth.js';
import { loginCommand } from './commands/auth/login.js';
import { logoutCommand } from './commands/auth/logout.js';
import { meCommand } from './commands/auth/me.js';
import { checkinCommand } from './commands/checkin/checkin.js';
import { listCommand } from './commands/checkin/list.js';
import { todayCommand } from './commands/checkin/today.js';
import { commentsCommand } from './commands/comments/comments.js';
import { reactionsCommand } from './commands/comments/reactions.js';
import { configCommand } from './commands/config/config.js';
import { commandWord } from './core/command-word.js';
import { doctorCommand } from './commands/doctor/doctor.js';
import { draftsCommand } from './commands/drafts/drafts.js';
import { cronCommand } from './commands/cron/cron.js';
import { echoCommand } from './commands/echo/echo.js';
import { goalCommand } from './commands/goal/goal.js';
import { goalsCommand } from './commands/goal/goals.js';
import { hookCommand } from './commands/hook/hook.js';
import { inboxCommand } from './commands/inbox/inbox.js';
import { notifyCommand } from './commands/notify/notify.js';
import { mcpCommand } from './commands/mcp/mcp.js';
import { peopleCommand } from './commands/people/people.js';
import { remindCommand } from './commands/remind/remind.js';
import { reportCommand } from './commands/report/report.js';
import { statsCommand } from './commands/stats/stats.js';
import { sandboxCommand } from './commands/sandbox/sandbox.js';
import { skillCommand } from './commands/skill/skill.js';
import { statusCommand } from './commands/status/status.js';
import { teamCommand } from './commands/team/team.js';
import { teamsCommand } from './commands/team/teams.js';
import { thisInstall, upgradeCommandDef } from './commands/upgrade/upgrade.js';
import { versionCommand } from './commands/version/version.js';
import { addCompletion } from './commands/completion/completion.js';
import { updateNotice } from './commands/upgrade/notice.js';
import type { Context } from './context.js';
import { refuseRepeats } from './commands/flags.js';
import { quietBecause } from './domain/update-notice.js';
import type { InstallKind } from './domain/upgrade.js';
import { terminalHelp } from './ui/help-layout.js';
import { JsonOption, jsonFieldsHelp } from './ui/output.js';
import { wrapHelp } from './ui/wrap.js';
import { VERSION } from './version.js';

export const EXIT_CODES_HELP = `
Environment:
  CHECKIN_TOKEN       token (overrides the stored one; STEADY_TOKEN is read too)
  CHECKIN_API_URL     API base URL (default https://service.steady.space/api/v2)
  CHECKIN_CONFIG_DIR  one folder for settings, cache and drafts (default: settings in $XDG_CONFIG_HOME/checkin, cache in $XDG_CACHE_HOME/checkin, drafts in $XDG_STATE_HOME/checkin, under ~ by XDG's defaults); Node's compile cache stays in $XDG_CACHE_HOME/checkin
  CHECKIN_NO_PROMPT   never prompt
  CHECKIN_TIMEOUT     seconds per request (default 30)
  CHECKIN_PAGER       pager for long output (then the pager setting, PAGER, then less -FRX; "" for none)
  CHECKIN_EDITOR      editor (then the editor setting, VISUAL, EDITOR)
  CHECKIN_DEBUG       1: stack traces; api: an HTTP trace on stderr (as --debug)
  NO_COLOR / FORCE_COLOR, HTTPS_PROXY / HTTP_PROXY / NO_PROXY

Exit codes:
  0    success (including "no check-in scheduled")
  1    the service, the network or this system failed
  2    bad usage, or input rejected (by checkin or by the service)
  3    checkin status: today's check-in is still pending
  4    not logged in, or the token was rejected (missing, invalid or read-only)
  130  cancelled at a prompt`;

type Define = (ctx: Context) => CommandUnknownOpts;

/** The commands by help group, in the order the help lists them. */
const GROUPS: Array<[heading: string, commands: Record<string, Define>]> = [
  [
    'Check-ins:',
    {
      today: todayCommand,
      checkin: checkinCommand,
      list: listCommand,
      status: statusCommand,
      report: reportCommand,
      stats: statsCommand,
      activity: activityCommand,
      log: logCommand,
      drafts: draftsCommand,
    },
  ],
  ['Team and goals:', { team: teamCommand, teams: teamsCommand, people: peopleCommand, goals: goalsCommand, goal: goalCommand, echo: echoCommand }],
  ['Comments and inbox:', { inbox: inboxCommand, notify: notifyCommand, comments: commentsCommand, reactions: reactionsCommand }],
  ['Account:', { login: loginCommand, logout: logoutCommand, auth: authCommand, me: meCommand }],
  [
    'Setup and tools:',
    {
      config: configCommand,
      cron: cronCommand,
      remind: remindCommand,
      doctor: doctorCommand,
      api: apiCommand,
      mcp: mcpCommand,
      skill: skillCommand,
      hook: hookCommand,
      sandbox: sandboxCommand,
      upgrade: upgradeCommandDef,
      version: versionCommand,
    },
  ],
];
/** Where commands added later (completion) and commander's own `help` are listed. */
const LAST_GROUP = GROUPS[GROUPS.length - 1]![0];

const COMMANDS: Record<string, Define> = Object.fromEntries(GROUPS.flatMap(([, commands]) => Object.entries(commands)));
const GROUP_OF = new Map(GROUPS.flatMap(([heading, commands]) => Object.keys(commands).map((name) => [name, heading] as const)));

/** `checkin --version` (or -V) alone: commander prints the version; no command needs building. */
const isVersion = (argv: string[]) => argv.length === 1 && ['--version', '-V'].includes(argv[0]!);

/** Whether argv runs one known command (then only it is built); otherwise all are (help, errors). */
export function isCommand(argv: string[]): boolean {
  const wanted = commandWord(argv);
  return wanted !== undefined && Object.hasOwn(COMMANDS, wanted) && !argv.includes('--help') && !argv.includes('-h');
}

export function buildProgram(ctx: Context, argv: string[] = []): CommandUnknownOpts {
  const { io } = ctx;
  const program = new Command('checkin')
    .description('Daily team check-ins from the command line (Steady API v2).')
    .version(VERSION, '-V, --version')
    .option('--debug', 'trace each HTTP request and answer on stderr (the token redacted)')
    .option('--profile <name>', "the profile (account) to use: CHECKIN_PROFILE, a folder's .checkin.json, then `checkin auth switch`'s")
    .hook('preAction', (cmd) => {
      const opts = cmd.opts() as { debug?: boolean; profile?: string };
      if (opts.debug) ctx.debug.api = true;
      if (opts.profile !== undefined) ctx.profileFlag = opts.profile;
    })
    .option('--no-pager', 'print long output straight to the terminal, not through the pager')
    // At a terminal the whole help is wrapped to its width as it is written; piped, this part is
    // laid out at 80 columns as commander lays out its own (each description under the descriptions).
    .addHelpText('after', () => (io.stdoutIsTTY ? EXIT_CODES_HELP : wrapHelp(EXIT_CODES_HELP, 80)));
  // A trace goes to stderr as the requests go out: not under a pager that has the screen.
  program.hook('preAction', () => {
    if (!program.opts().pager || ctx.debug.api) io.noPager();
  });

  const names = isVersion(argv) ? [] : isCommand(argv) ? [commandWord(argv)!] : Object.keys(COMMANDS);
  for (const name of names) program.addCommand(COMMANDS[name]!(ctx).helpGroup(GROUP_OF.get(name)!));
  program.commandsGroup(LAST_GROUP).helpCommand('help [command|topic]', 'display help for a command, or read a topic (checkin help topics)');

  // Every command, however deep, writes through io, throws instead of exiting, and suggests near
  // names; one with --json [fields] names its fields at the end of its help.
  const configure = (cmd: CommandUnknownOpts) => {
    cmd
      .exitOverride()
      .showSuggestionAfterError(true)
      .configureHelp(terminalHelp)
      .configureOutput({
        // At a terminal, help fits its width at word edges: commander's own part laid out to it
        // (ui/help-layout.ts), and the usage line and what --help ends with wrapped as written.
        // No width when piped, as commander's own default (its typings say number): then its layout at 80.
        getOutHelpWidth: () => (io.stdoutIsTTY ? io.columns : undefined) as number,
        writeOut: (s) => io.out(io.stdoutIsTTY ? wrapHelp(s, io.columns) : s),
        writeErr: (s) => io.err(s),
      });
    // A one-value option given twice is refused, never the last one silently taken.
    refuseRepeats(cmd);
    const json = cmd.options.find((o) => o instanceof JsonOption);
    if (json) {
      json.takesArguments = cmd.registeredArguments.length > 0;
      cmd.addHelpText('after', jsonFieldsHelp(json.fields));
    }
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  return program;
}

/** After a command's work: the daily update notice, only where a person reads stderr (domain/update-notice.ts says when). */
export async function afterCommand(ctx: Context, argv: string[]): Promise<void> {
  let kind: InstallKind | undefined;
  const install = () => (kind ??= thisInstall());
  if (quietBecause(argv, ctx.env, (ctx.io.stderr as { isTTY?: boolean }).isTTY === true, install) === undefined) updateNotice(ctx, install());
}

/** Completion's commands are added for completion and --help (which lists them); other runs never build them. */
export async function addCompletionWhenAsked(ctx: Context, program: CommandUnknownOpts, argv: string[]): Promise<void> {
  if (['completion', 'complete'].includes(argv[0] ?? '') || !(isCommand(argv) || isVersion(argv))) {
    addCompletion(ctx, program);
    // Its commands too refuse a one-value option given twice (applied once per option).
    const each = (cmd: CommandUnknownOpts): void => {
      refuseRepeats(cmd);
      cmd.commands.forEach(each);
    };
    each(program);
  }
}

/** What `checkin help <topic>` prints: a topic's Markdown, or (the list of topics) plain text. */
export interface HelpTopic {
  text: string;
  markdown: boolean;
}

/**
 * `checkin help <topic>`: the topic's text (docs/topics/<topic>.md, bundled as src/help-topics.ts);
 * `checkin help topics`: their list. Undefined for anything else, which commander's own help
 * command answers (`checkin help <command>`): a command's name always wins over a topic's.
 */
export async function helpTopic(argv: string[]): Promise<HelpTopic | undefined> {
  if (argv[0] !== 'help' || argv.length !== 2 || Object.hasOwn(COMMANDS, argv[1]!)) return undefined;
  // Its own bundle (dist/help-topics.cjs, ~120 KB of text), read by this command alone.
  const { TOPICS } = (await ownBundle('help-topics', 'help-topics.ts')) as typeof import('./help-topics.js');
  if (argv[1] === 'topics') {
    const width = Math.max(...Object.keys(TOPICS).map((n) => n.length));
    const text = `Topics (checkin help <topic>):\n${Object.entries(TOPICS)
      .map(([name, t]) => `  ${name.padEnd(width)}  ${t.title}`)
      .join('\n')}\n`;
    return { text, markdown: false };
  }
  if (Object.hasOwn(TOPICS, argv[1]!)) return { text: TOPICS[argv[1]!]!.text, markdown: true };
  if (argv[1] === 'help') return undefined;
  // Neither a command nor a topic: said, with the nearest names, rather than the whole help and exit 0.
  const near = nearMatches(argv[1]!, [...Object.keys(COMMANDS), ...Object.keys(TOPICS)]).map((n) => `\`checkin help ${n}\``);
  throw new UsageError(
    `No command or topic named "${argv[1]}"`,
    near.length > 0
      ? `Did you mean ${near.join(' or ')}? \`checkin help topics\` lists the topics.`
      : '`checkin --help` lists the commands, `checkin help topics` the topics.',
  );
}
