// `checkin notify install|uninstall|status`: the OS runs `checkin notify --once` every few minutes
// on working days outside the quiet hours — a systemd user timer where a user manager runs (else a
// crontab line), a launchd agent on macOS, a Task Scheduler task on Windows. What the files say is
// system/notify-units.ts's; the steps that write, enable, find and remove them system/scheduled.ts's
// (the reminder's too).
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { systemHost, type Host } from '../../system/programs.js';
import {
  cronNoticeLine,
  firesOf,
  describeTimes,
  everyOf,
  installedNotices,
  NOTIFY,
  noticePlist,
  noticeService,
  noticeTaskXml,
  noticeTimer,
  noticeTimes,
  parseEvery,
  type NoticeJob,
  type NoticeTimes,
} from '../../system/notify-units.js';
import { utf16 } from '../../system/reminder-units.js';
import { notifierName } from '../../system/reminder.js';
import { cliPaths, DAY_ABBR, formatAt, parseDays, runEnvironment, tokenWarning } from '../../system/schedule.js';
import {
  chooseMechanism,
  cronSessionBus,
  installSteps,
  localDate,
  machineWords,
  MECHANISM_NAME,
  nextRun,
  nextInWords,
  removal,
  runPath,
  timerZone,
  zoneMismatch,
  zoneWarning,
  type Installed,
  type JobFiles,
} from '../../system/scheduled.js';
import { printJson } from '../../ui/output.js';
import { showLookups, takeSteps } from '../flags.js';

export interface NotifyInstallOptions {
  every: string;
  days: string;
  quietHours?: string;
  dryRun?: boolean;
}
export interface NotifyUninstallOptions {
  dryRun?: boolean;
}
export interface NotifyStatusOptions {
  json?: boolean;
  dryRun?: boolean;
}

const hostOf = (ctx: Context) => systemHost(ctx.env);

export function notifyInstallCommand(ctx: Context, host: () => Host = () => hostOf(ctx)) {
  return new Command('install')
    .description(
      'Have the OS run `checkin notify --once` every few minutes on working days: a systemd user timer, a crontab line, a launchd agent or a scheduled task (installing again replaces it)',
    )
    .option('--every <span>', 'how often to look: 5m (the least), 10m, 15m, 30m, 1h…', '5m')
    .option('--days <days>', 'days to look on: mon-fri, mon,wed,fri, 1-5 or daily (a day with nothing scheduled stays quiet too)', 'mon-fri')
    .option('--quiet-hours <HH:MM-HH:MM>', 'no look and no notice in these hours, e.g. 19:00-08:00 (across midnight) or 12:00-13:00')
    .option('--dry-run', 'print the files and commands; change nothing')
    .addHelpText('after', '\nExamples:\n  checkin notify install --every 10m --quiet-hours 19:00-08:00\n  checkin notify install --days daily --every 1h\n')
    .action((opts) => runNotifyInstall(ctx, opts, host()));
}

export function notifyUninstallCommand(ctx: Context, host: () => Host = () => hostOf(ctx)) {
  return new Command('uninstall')
    .description('Remove what `checkin notify install` installed: its files, enabled links, crontab line or task')
    .option('--dry-run', 'print the files and commands; change nothing')
    .action((opts) => runNotifyUninstall(ctx, opts, host()));
}

export function notifyStatusCommand(ctx: Context, host: () => Host = () => hostOf(ctx)) {
  return new Command('status')
    .description('Say whether the notices are scheduled: where, how often, on which days, and the next look')
    .option('--json', 'print it as JSON')
    .option('--dry-run', 'print the files and commands it would read; run nothing')
    .action((opts) => runNotifyStatus(ctx, opts, host()));
}

// ---- install ------------------------------------------------------------------------------------

function noticeJob(ctx: Context, host: Host, opts: NotifyInstallOptions): NoticeJob {
  const every = parseEvery(opts.every);
  const times = noticeTimes(every, parseDays(opts.days), opts.quietHours);
  const { node, script } = cliPaths();
  const env = runEnvironment(ctx);
  // The run shows notices through notify-send or gdbus (whichever is there): their folders go on its PATH.
  if (host.platform !== 'win32') env.PATH = runPath(host, node, [notifierName(host), 'gdbus']);
  return { times, node, script, env };
}

function noticeFiles(ctx: Context, host: Host, j: NoticeJob): JobFiles {
  return {
    systemd: () => ({ service: noticeService(j), timer: noticeTimer(j, timerZone(host)) }),
    crontab: () => cronNoticeLine({ ...j, env: { ...j.env, ...cronSessionBus(host) } }),
    launchd: () => noticePlist(j),
    schtasks: () => {
      const xml = noticeTaskXml(j, localDate(ctx.now()));
      return { xml, bytes: utf16(xml) };
    },
  };
}

/** When it looks next: on the wall clock of `zone` (the machine's, where the scheduler fires in it and not in TZ's), else this process's. */
const nextLook = (t: NoticeTimes, now: Date, zone: string | undefined) => nextRun(firesOf(t), t.days, now, ...(zone ? [zone] : []));

/** "Mon 2026-12-07 08:00 (in 6 h 30 min)": the next look, said in this process's zone. */
function whenNext(t: NoticeTimes, now: Date, zone?: string): string {
  const next = nextLook(t, now, zone);
  return next ? nextInWords(next, now) : 'never (no day to look on)';
}

export async function runNotifyInstall(ctx: Context, opts: NotifyInstallOptions, host: Host): Promise<void> {
  const j = noticeJob(ctx, host, opts);
  const mechanism = await chooseMechanism(host, NOTIFY);
  const before = await installedNotices(host, undefined);
  const steps = await installSteps(host, NOTIFY, mechanism, before, noticeFiles(ctx, host, j));
  const what = `${MECHANISM_NAME[mechanism]}: ${describeTimes(j.times)}`;
  const mismatch = zoneMismatch(host, mechanism, ctx.now());
  const warning =
    [tokenWarning(ctx, mechanism === 'crontab' ? 'cron' : 'the scheduler'), mismatch && zoneWarning(mechanism, mismatch)].filter(Boolean).join('') || undefined;
  if (!(await takeSteps(ctx, 'install', steps, what, warning, opts.dryRun))) return;
  ctx.io.out(
    `Installed ${what}${before.length > 0 ? ' (it replaces the one before)' : ''}.\n` +
      `Next look: ${whenNext(j.times, ctx.now(), mismatch?.machine)}. \`checkin notify status\` shows it; \`checkin notify uninstall\` takes it out.\n`,
  );
}

// ---- uninstall ----------------------------------------------------------------------------------

export async function runNotifyUninstall(ctx: Context, opts: NotifyUninstallOptions, host: Host): Promise<void> {
  const found = await installedNotices(host, undefined);
  if (found.length === 0) {
    ctx.io.out('No notices scheduled: nothing to uninstall.\n');
    return;
  }
  const steps = (await Promise.all(found.map((f) => removal(host, NOTIFY, f)))).flat();
  const what = found.map((f) => MECHANISM_NAME[f.mechanism]).join(' and ');
  if (!(await takeSteps(ctx, 'remove', steps, what, undefined, opts.dryRun))) return;
  ctx.io.out(`Removed ${what}: no more notices until \`checkin notify install\`.\n`);
}

// ---- status -------------------------------------------------------------------------------------

/** One installed job as `status --json` gives it. */
export interface NoticeUnitJson {
  scheduler: Installed<NoticeTimes>['mechanism'];
  every_minutes: number | null;
  days: string[] | null;
  quiet_hours: string | null;
  first: string | null;
  last: string | null;
  next: string | null;
  enabled: boolean | null;
  files: string[];
  note: string | null;
}

function unitJson(f: Installed<NoticeTimes>, now: Date, zone: string | undefined): NoticeUnitJson {
  const t = f.schedule;
  const fires = t ? t.hours.flatMap((h) => t.minutes.map((m) => formatAt({ hour: h, minute: m }))) : [];
  return {
    scheduler: f.mechanism,
    every_minutes: t ? everyOf(t) : null,
    days: t ? t.days.map((d) => DAY_ABBR[d]!) : null,
    quiet_hours: t?.quiet ?? null,
    first: fires[0] ?? null,
    last: fires[fires.length - 1] ?? null,
    next: t ? (nextLook(t, now, zone)?.toISOString() ?? null) : null,
    enabled: f.enabled ?? null,
    files: f.files,
    note: f.note ?? null,
  };
}

export async function runNotifyStatus(ctx: Context, opts: NotifyStatusOptions, host: Host): Promise<void> {
  if (opts.dryRun) return showLookups(ctx, (dry) => installedNotices(host, dry));
  const found = await installedNotices(host, undefined);
  if (opts.json) {
    printJson(ctx.io, { installed: found.length > 0, units: found.map((f) => unitJson(f, ctx.now(), zoneMismatch(host, f.mechanism, ctx.now())?.machine)) });
    return;
  }
  if (found.length === 0) {
    ctx.io.out('No notices scheduled: `checkin notify install` sets them up.\n');
    return;
  }
  for (const f of found) {
    const t = f.schedule;
    const mismatch = zoneMismatch(host, f.mechanism, ctx.now());
    let out = `Installed: ${MECHANISM_NAME[f.mechanism]}${t ? `: ${describeTimes(t)}` : ' (its schedule could not be read)'}\n`;
    if (mismatch) out += `  in ${machineWords(mismatch)}, not in TZ's (${mismatch.tz})\n`;
    if (t) out += `  next look: ${whenNext(t, ctx.now(), mismatch?.machine)}\n`;
    if (f.note) out += `  ${f.note}\n`;
    for (const file of f.files) out += `  ${file}\n`;
    ctx.io.out(out);
  }
}
