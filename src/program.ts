// Builds a fresh commander program per run and registers the commands. Commands are thin:
// flags become a typed options object handed to a run function loaded on demand.

import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from './context.js';
import type { AnswerFlags } from './commands/fill.js';
// The commands are small and part of the entry chunk: loading them lazily would cost more module
// loads than it saves. What is heavy stays lazy: prompts, the editor, conf (writes), chalk, undici
// (proxies only) and the sandbox.
import { runLogin, runLogout, runMe } from './commands/auth.js';
import { runCheckIn } from './commands/checkin.js';
import { runComments, runReactions } from './commands/comments.js';
import { runCron } from './commands/cron.js';
import { runActivity, runPeople, runTeams } from './commands/directory.js';
import { runGoalUpdate, runGoalUpdates, runGoals } from './commands/goals.js';
import { runList } from './commands/list.js';
import { runStatus } from './commands/status.js';
import { runTeam } from './commands/team.js';
import { runToday } from './commands/today.js';

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

export function parseIntIn(min: number, max: number, what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${what} must be a whole number from ${min} to ${max}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${what} must be from ${min} to ${max}.`);
    return n;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The answer options shared by `today` and `checkin <key>`. */
export function addAnswerOptions(cmd: Command): Command {
  return cmd
    .option('-p, --previous <text>', 'what you did previously (- reads stdin)')
    .option('-i, --intentions <text>', 'what you intend to do next (- reads stdin)')
    .option('-b, --blockers <text>', 'what blocks you; "" for nothing (- reads stdin)')
    .option('-m, --mood <mood>', 'your mood, e.g. focused (none clears it)')
    .option('--done', 'you did what you intended')
    .option('--not-done', 'you did not do what you intended')
    .option('-t, --team <team>', 'share with this team only (UUID or name; repeatable)', collect)
    .option('--from-file <path>', 'read answers from a Markdown file with ## Previous / ## Intentions / ## Blockers sections and a Mood: line (- reads stdin)')
    .option('-e, --edit', 'write the answers in $EDITOR')
    .option('--resume', 'send the draft kept from a failed attempt')
    .option('--json', 'print the check-in as JSON');
}

export function buildProgram(ctx: Context, argv: string[] = []): Command {
  const { io } = ctx;
  const program = new Command('checkin');
  program
    .description('Daily team check-ins from the command line (Steady API v2).')
    .version('0.1.0', '-V, --version')
    .showSuggestionAfterError(true)
    .addHelpText('after', EXIT_CODES_HELP)
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
    })
    .exitOverride();

  // One registrar a command: a run builds only the command it runs (help builds them all).
  const commands: Record<string, () => void> = {
    today: () => {
      addAnswerOptions(
        program
          .command('today')
          .description("Fill in or show today's check-in")
          .addHelpText('after', '\nExamples:\n  checkin today\n  checkin today -p "Shipped X" -i "Review Y" -b "" --mood focused\n  checkin today --json | jq .intentions'),
      ).action(async (flags: AnswerFlags) => {
        await runToday(ctx, flags);
      });
    },
    checkin: () => {
      addAnswerOptions(
        program
          .command('checkin')
          .argument('<key>', 'a UUID, YYYY-MM-DD, today, yesterday, a weekday name (the most recent before today) or last')
          .description('Show a check-in by key; with answer options, update it')
          .addHelpText('after', '\nExamples:\n  checkin checkin yesterday\n  checkin checkin friday --json\n  checkin checkin 2026-11-20 -b "Waiting on review"'),
      ).action(async (key: string, flags: AnswerFlags) => {
        await runCheckIn(ctx, key, flags);
      });
    },
    list: () => {
      program
        .command('list')
        .description('List check-ins (newest first)')
        .option('--since <day>', 'from this day (YYYY-MM-DD, today, yesterday, a weekday name)')
        .option('--until <day>', 'up to this day, inclusive')
        .option('--blocked', 'only check-ins with blockers')
        .option('--person <who>', 'UUID, me, a name or @username (repeatable, or a,b)', collect)
        .option('--team <team>', 'UUID or name (repeatable, or a,b)', collect)
        .addOption(new Option('--page <n>', 'page number').argParser(parseIntIn(1, 100000, '--page')))
        .addOption(new Option('--per-page <n>', 'check-ins per page (at most 50)').argParser(parseIntIn(1, 50, '--per-page')))
        .option('--all', 'follow every page')
        .option('--json', 'print one JSON array')
        .addHelpText('after', '\nExamples:\n  checkin list --since monday --blocked\n  checkin list --person me --all --json\n  checkin list --team Platform --person @grace,@linus')
        .action(async (opts) => {
          await runList(ctx, opts);
        });
    },
    team: () => {
      program
        .command('team')
        .description("My teams' check-ins for a day: filled in, not yet, blocked, none")
        .option('--date <day>', 'the day (default today)')
        .option('--team <team>', 'only this team (UUID or name; repeatable)', collect)
        .option('--json', 'print as JSON')
        .action(async (opts) => {
          await runTeam(ctx, opts);
        });
    },
    comments: () => {
      program
        .command('comments')
        .argument('[key]', 'the check-in: UUID, YYYY-MM-DD, today, yesterday, a weekday or last')
        .description('List the comments on a check-in (or goal update); --add posts one')
        .option('--goal-update <id>', 'a goal update instead of a check-in')
        .option('--add <markdown>', 'post a comment (- reads standard input)')
        .option('-e, --edit', 'write the comment in $EDITOR')
        .option('--resume', 'send the comment kept from a failed attempt')
        .option('--json', 'print as JSON')
        .addHelpText('after', '\nExamples:\n  checkin comments yesterday\n  checkin comments 3308a89a-1006-5ad0-94a3-d9510e51aecb --add "Nice work @ada"')
        .action(async (key: string | undefined, opts) => {
          await runComments(ctx, key, opts);
        });
    },
    reactions: () => {
      program
        .command('reactions')
        .argument('[key]', 'the check-in: UUID, YYYY-MM-DD, today, yesterday, a weekday or last')
        .description('List the reactions on a check-in (or goal update)')
        .option('--goal-update <id>', 'a goal update instead of a check-in')
        .option('--json', 'print as JSON')
        .action(async (key: string | undefined, opts) => {
          await runReactions(ctx, key, opts);
        });
    },
    goal: () => {
      const goal = program.command('goal').description('Post and manage goal updates');
      const goalUpdateOptions = (cmd: Command) =>
        cmd
          .option('--title <text>', 'the title')
          .option('--body <markdown>', 'the body (- reads standard input)')
          .option('-e, --edit', 'write the body in $EDITOR')
          .addOption(new Option('--progress <0..100>', 'progress in percent').argParser(parseIntIn(0, 100, '--progress')))
          .option('--confidence <level>', 'on-track, at-risk, off-track, 90, 60 or 30')
          .option('--json', 'print as JSON');
      goalUpdateOptions(
        goal
          .command('update')
          .argument('<goal-id>', 'the goal (find ids with `checkin goals`)')
          .description('Post a goal update')
          .option('--resume', 'send the update kept from a failed attempt')
          .addHelpText('after', '\nExample:\n  checkin goal update <goal-id> --title "Invoices shipped" --body - --progress 60 --confidence on-track < notes.md'),
      ).action(async (goalId: string, opts) => {
        await runGoalUpdate(ctx, goalId, opts);
      });
      goalUpdateOptions(
        goal
          .command('updates')
          .argument('<args...>', '<goal-id>, or show|edit|delete <update-id>')
          .description("List a goal's updates; show, edit or delete one")
          .option('-y, --yes', 'delete without asking')
          .addHelpText('after', '\nExamples:\n  checkin goal updates <goal-id>\n  checkin goal updates show <update-id>\n  checkin goal updates edit <update-id> --progress 70\n  checkin goal updates delete <update-id> --yes'),
      ).action(async (args: string[], opts) => {
        await runGoalUpdates(ctx, args, opts);
      });
    },
    goals: () => {
      program
        .command('goals')
        .description('List goals (mine by default) with their ids')
        .option('--person <who>', 'UUID, me, a name or @username (repeatable)', collect)
        .option('--team <team>', 'UUID or name (repeatable)', collect)
        .option('--json', 'print as JSON')
        .action(async (opts) => {
          await runGoals(ctx, opts);
        });
    },
    teams: () => {
      program
        .command('teams')
        .description('List the teams (● marks yours)')
        .option('--json', 'print as JSON')
        .action(async (opts) => {
          await runTeams(ctx, opts);
        });
    },
    people: () => {
      program
        .command('people')
        .description('List the people of the account')
        .option('--json', 'print as JSON')
        .action(async (opts) => {
          await runPeople(ctx, opts);
        });
    },
    activity: () => {
      program
        .command('activity')
        .description('List activities (pull requests, issues…)')
        .option('--kind <kind>', 'github_pr, jira, linear… (repeatable)', collect)
        .option('--team <team>', 'UUID or name (repeatable)', collect)
        .option('--person <who>', 'UUID, me, a name or @username (repeatable)', collect)
        .option('--since <day>', 'from this day')
        .option('--until <day>', 'up to this day, inclusive')
        .option('--json', 'print as JSON')
        .action(async (opts) => {
          await runActivity(ctx, opts);
        });
    },
    status: () => {
      program
        .command('status')
        .description("Exit 0 when today's check-in is filled in (or none is scheduled), 3 when it is pending")
        .option('-q, --quiet', 'print nothing; only the exit code tells')
        .option('--json', 'print {date, state, check_in} as JSON')
        .action(async (opts: { quiet?: boolean; json?: boolean }) => {
          await runStatus(ctx, opts);
        });
    },
    login: () => {
      program
        .command('login')
        .description('Store a token (verified with GET /me)')
        .option('--with-token', 'read the token from standard input')
        .option('--api-url <url>', 'the API base URL to store with it')
        .action(async (opts: { withToken?: boolean; apiUrl?: string }) => {
          await runLogin(ctx, opts);
        });
    },
    logout: () => {
      program
        .command('logout')
        .description('Remove the stored token')
        .action(async () => {
          await runLogout(ctx);
        });
    },
    me: () => {
      program
        .command('me')
        .description('Show who the token belongs to (cached; --refresh asks again)')
        .option('--json', 'print as JSON')
        .option('--refresh', 'ask the service again instead of using the cache')
        .action(async (opts: { json?: boolean; refresh?: boolean }) => {
          await runMe(ctx, opts);
        });
    },
    cron: () => {
      program
        .command('cron')
        .description('Print a crontab line that reminds you when today\'s check-in is pending')
        .option('--at <HH:MM>', 'time of day', '10:00')
        .option('--days <days>', 'cron day-of-week field', '1-5')
        .option('--notify <command>', 'command to run when pending (default: echo, which cron mails)')
        .action(async (opts: { at: string; days: string; notify?: string }) => {
          runCron(ctx, opts, process.argv[1] ?? 'checkin');
        });
    },
    sandbox: () => {
      program
        .command('sandbox')
        .description('Start a local service that speaks the same API, with demo data')
        .addOption(new Option('--port <n>', 'port to listen on (0 = a free one)').default(0).argParser(parseIntIn(0, 65535, '--port')))
        .option('--host <address>', 'address to listen on', '127.0.0.1')
        .option('--token <token>', "the demo person's read+write token")
        .option('--data <file>', 'load state from FILE and save every change to it')
        .option('--no-rate-limit', 'switch the rate limits off')
        .option('--no-log', 'do not log each request on stderr')
        .action(async (opts: { port: number; host: string; token?: string; data?: string; rateLimit: boolean; log: boolean }) => {
          const { runSandbox } = await import('./commands/sandbox.js');
          await runSandbox(ctx, opts);
        });
    },
  };
  const wanted = argv.find((a) => !a.startsWith('-'));
  if (wanted !== undefined && Object.hasOwn(commands, wanted) && !argv.includes('--help') && !argv.includes('-h')) commands[wanted]!();
  else for (const register of Object.values(commands)) register();

  // exitOverride and configureOutput reach subcommands only when copied onto each.
  const configure = (cmd: Command) => {
    for (const sub of cmd.commands) {
      sub.exitOverride().configureOutput(program.configureOutput()).showSuggestionAfterError(true);
      configure(sub);
    }
  };
  configure(program);
  return program;
}
