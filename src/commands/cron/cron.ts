// `checkin cron`: a ready crontab line with absolute paths (cron's PATH is minimal).
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import {
  cliPaths,
  cronEscape,
  cronTime,
  isCronDays,
  noControls,
  parseAt,
  program,
  runEnvironment,
  schedulable,
  shellCommand,
  tokenWarning,
} from '../../system/schedule.js';
import type { Run } from '../flags.js';

export interface CronOptions {
  at: string;
  days: string;
  notify?: string;
}

export function cronCommand(ctx: Context, run: Run<CronOptions> = runCron) {
  return new Command('cron')
    .description("Print a crontab line that reminds you when today's check-in is pending")
    .option('--at <HH:MM>', 'time of day', '10:00')
    .option('--days <days>', 'cron day-of-week field', '1-5')
    .option('--notify <command>', 'command to run when pending (default: echo, which cron mails)')
    .action((opts) => run(ctx, opts));
}

export function cronLine(opts: CronOptions & { script?: string; nodePath: string; env?: Record<string, string> }): string {
  const at = parseAt(opts.at);
  if (!isCronDays(opts.days)) {
    throw new UsageError(`--days must be a cron day-of-week field such as 1-5 or mon-fri, got "${opts.days}"`);
  }
  // A line break in any of these would end the line: what follows it would be an entry of its own.
  schedulable(opts.env ?? {}, opts.nodePath, opts.script);
  if (opts.notify !== undefined) noControls('--notify', opts.notify);
  // cron starts commands with an almost empty environment: what checkin needs to find its
  // config and its service goes on the line.
  const cmd = shellCommand(opts.env ?? {}, [...program(opts.nodePath, opts.script), 'status', '--quiet']);
  const action = opts.notify ?? `echo "Time to check in: run checkin today"`;
  // status --quiet prints nothing: exit 3 is "pending"; any other failure is said once, and cron mails it.
  const failed = `echo "checkin status failed (exit $s): run checkin status to see why"`;
  return cronEscape(`${cronTime(at, opts.days)} ${cmd}; s=$?; if [ $s -eq 3 ]; then ${action}; elif [ $s -ne 0 ]; then ${failed}; fi`);
}

export async function runCron(ctx: Context, opts: CronOptions): Promise<void> {
  const { node, script } = cliPaths();
  const line = cronLine({ ...opts, script, nodePath: node, env: runEnvironment(ctx) });
  ctx.io.err("# Add this line with `crontab -e`. It checks at the given time and reminds you when today's check-in is pending.\n");
  ctx.io.err('# cron mails what the line prints; pass --notify \'notify-send "Check in!"\' for a desktop notification.\n');
  const warning = tokenWarning(ctx);
  if (warning) ctx.io.err(warning);
  ctx.io.out(line + '\n');
}
