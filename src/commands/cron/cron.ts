// `checkin cron`: a ready crontab line with absolute paths (cron's PATH is minimal).
import { realpathSync } from 'node:fs';
import { Command } from '@commander-js/extra-typings';
import { pathVariables } from '../../config/paths.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
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

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** In a crontab line, % ends the command (the rest becomes its stdin): every % is written \%. */
function cronEscape(command: string): string {
  return command.replace(/%/g, '\\%');
}

export function cronLine(opts: CronOptions & { script: string; nodePath: string; env?: Record<string, string> }): string {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(opts.at);
  if (!m) throw new UsageError(`--at must be a time written HH:MM, got "${opts.at}"`);
  if (!/^[\d,*/-]+$/.test(opts.days) && !/^(mon|tue|wed|thu|fri|sat|sun)([-,](mon|tue|wed|thu|fri|sat|sun))*$/i.test(opts.days)) {
    throw new UsageError(`--days must be a cron day-of-week field such as 1-5 or mon-fri, got "${opts.days}"`);
  }
  // cron starts commands with an almost empty environment: what checkin needs to find its
  // config and its service goes on the line.
  const vars = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)} `).join('');
  const cmd = `${vars}${shellQuote(opts.nodePath)} ${shellQuote(opts.script)} status --quiet`;
  const action = opts.notify ?? `echo "Time to check in: run checkin today"`;
  // status --quiet prints nothing: exit 3 is "pending"; any other failure is said once, and cron mails it.
  const failed = `echo "checkin status failed (exit $s): run checkin status to see why"`;
  return cronEscape(`${Number(m[2])} ${Number(m[1])} * * ${opts.days} ${cmd}; s=$?; if [ $s -eq 3 ]; then ${action}; elif [ $s -ne 0 ]; then ${failed}; fi`);
}

export async function runCron(ctx: Context, opts: CronOptions): Promise<void> {
  const script = process.argv[1] ?? 'checkin';
  let real = script;
  try {
    real = realpathSync(script);
  } catch {
    // keep the path as given
  }
  const cfg = ctx.config();
  // The folders of config, cache and state as this shell names them (each value quoted on the line).
  const env: Record<string, string> = pathVariables(ctx.env);
  if (ctx.env.HOME) env.HOME = ctx.env.HOME;
  const url = cfg.apiUrl();
  if (url.name === 'CHECKIN_API_URL') env.CHECKIN_API_URL = url.value;
  if (ctx.env.TZ) env.TZ = ctx.env.TZ;
  const line = cronLine({ ...opts, script: real, nodePath: process.execPath, env });
  ctx.io.err("# Add this line with `crontab -e`. It checks at the given time and reminds you when today's check-in is pending.\n");
  ctx.io.err("# cron mails what the line prints; pass --notify 'notify-send \"Check in!\"' for a desktop notification.\n");
  const where = cfg.read().token ? 'file' : cfg.read().token_store === 'keychain' ? 'keychain' : cfg.token()?.name;
  if (where === 'keychain') ctx.io.err('# Your token is in the keychain, which cron often cannot open: `checkin login --insecure-storage` keeps it in the config file instead.\n');
  else if (where && where !== 'file') ctx.io.err(`# Your token comes from ${where}, which cron does not have: run \`checkin login --insecure-storage\` so it is stored.\n`);
  ctx.io.out(line + '\n');
}
