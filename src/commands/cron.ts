// `checkin cron`: a ready crontab line with absolute paths (cron's PATH is minimal).
import { realpathSync } from 'node:fs';
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { Run } from './shared/options.js';

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

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function cronLine(opts: CronOptions & { script: string; nodePath: string }): string {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(opts.at);
  if (!m) throw new UsageError(`--at must be a time written HH:MM, got "${opts.at}"`);
  if (!/^[\d,*/-]+$/.test(opts.days) && !/^(mon|tue|wed|thu|fri|sat|sun)([-,](mon|tue|wed|thu|fri|sat|sun))*$/i.test(opts.days)) {
    throw new UsageError(`--days must be a cron day-of-week field such as 1-5 or mon-fri, got "${opts.days}"`);
  }
  const cmd = `${shellQuote(opts.nodePath)} ${shellQuote(opts.script)} status --quiet`;
  const action = opts.notify ?? `echo "Time to check in: run checkin today"`;
  // Exit 3 is "pending"; other failures print their own message, which cron mails.
  return `${Number(m[2])} ${Number(m[1])} * * ${opts.days} ${cmd}; [ $? -ne 3 ] || ${action}`;
}

export async function runCron(ctx: Context, opts: CronOptions): Promise<void> {
  const script = process.argv[1] ?? 'checkin';
  let real = script;
  try {
    real = realpathSync(script);
  } catch {
    // keep the path as given
  }
  const line = cronLine({ ...opts, script: real, nodePath: process.execPath });
  ctx.io.err("# Add this line with `crontab -e`. It checks at the given time and reminds you when today's check-in is pending.\n");
  ctx.io.err("# cron mails what the line prints; pass --notify 'notify-send \"Check in!\"' for a desktop notification.\n");
  ctx.io.out(line + '\n');
}
