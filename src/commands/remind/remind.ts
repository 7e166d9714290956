// `checkin remind install|status|remove`: a reminder the OS keeps — a systemd user timer where a
// user manager runs (else a crontab line), a launchd agent on macOS, a Task Scheduler task on
// Windows. At the time it runs the hidden `checkin remind run`, which asks what `checkin status`
// asks and, only when today's check-in is pending, shows a notification saying `checkin today`.
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { cliPaths, formatAt, formatDays, parseAt, parseDays, runEnvironment, takeRunEnvironment, tokenWarning, type TimeOfDay } from '../../system/schedule.js';
import { runEnvOption, showLookups, takeSteps } from '../flags.js';
import { todayState } from '../../domain/today-state.js';
import { cronReminderLine, launchdPlist, REMIND, systemdService, systemdTimer, taskXml, utf16, type Job } from '../../system/reminder-units.js';
import { systemHost, type Host } from '../../system/programs.js';
import { installedReminders, MECHANISM_NAME, notifierName, recordReminderRun, type RunOutcome } from '../../system/reminder.js';
import {
  chooseMechanism,
  cronSessionBus,
  installSteps,
  localDate,
  machineWords,
  nextInWords,
  nextRun,
  removal,
  runPath,
  timerZone,
  zoneMismatch,
  zoneWarning,
} from '../../system/scheduled.js';

export interface InstallOptions {
  at: string;
  days: string;
  dryRun?: boolean;
}
export interface DryRunOption {
  dryRun?: boolean;
}
export interface RunOptions {
  env?: string[];
}

export function remindCommand(ctx: Context, host: () => Host = () => systemHost(ctx.env)) {
  const remind = new Command('remind').description("A reminder the OS keeps: a notification when today's check-in is pending");
  remind
    .command('install')
    .description('Install (or replace) the reminder: a systemd user timer, a crontab line, a launchd agent or a scheduled task')
    .option('--at <HH:MM>', 'time of day', '10:00')
    .option('--days <days>', 'days: mon-fri, mon,wed,fri, sat-mon, 1-5 or daily', 'mon-fri')
    .option('--dry-run', 'print the files and commands; change nothing')
    .action((opts) => runInstall(ctx, opts, host()));
  remind
    .command('status')
    .description('Say what is installed and when it fires next')
    .option('--dry-run', 'print the files and commands it would read; run nothing')
    .action((opts) => runRemindStatus(ctx, opts, host()));
  remind
    .command('remove')
    .description('Remove the reminder: files, enabled links, crontab line')
    .option('--dry-run', 'print the files and commands; change nothing')
    .action((opts) => runRemove(ctx, opts, host()));
  remind
    .command('run', { hidden: true })
    .description("What the reminder runs: a notification when today's check-in is pending")
    .addOption(runEnvOption())
    .action((opts) => runReminder(ctx, opts, host()));
  return remind;
}

// ---- install ------------------------------------------------------------------------------------

function job(ctx: Context, host: Host, opts: InstallOptions): Job {
  const at = parseAt(opts.at);
  const days = parseDays(opts.days);
  const { node, script } = cliPaths();
  const env = runEnvironment(ctx);
  if (host.platform !== 'win32') env.PATH = runPath(host, node, [notifierName(host)]);
  return { at, days, node, script, env };
}

/** What the reminder's files say, for each scheduler. */
function reminderFiles(ctx: Context, host: Host, j: Job) {
  return {
    systemd: () => ({ service: systemdService(j), timer: systemdTimer(j, timerZone(host)) }),
    crontab: () => cronReminderLine({ ...j, env: { ...j.env, ...cronSessionBus(host) } }),
    launchd: () => launchdPlist(j),
    schtasks: () => {
      const xml = taskXml(j, localDate(ctx.now()));
      return { xml, bytes: utf16(xml) };
    },
  };
}

/** "Mon 2026-11-23 10:00 (in 7 h 38 min)": when it fires next (on the wall clock of `zone`, the machine's where the scheduler fires in it and not in TZ's), said in this process's zone. */
function whenNext(schedule: { at: TimeOfDay; days: number[] }, now: Date, zone?: string): string {
  const next = nextRun([schedule.at.hour * 60 + schedule.at.minute], schedule.days, now, ...(zone ? [zone] : []));
  return next ? nextInWords(next, now) : 'never (no day to fire on)';
}

export async function runInstall(ctx: Context, opts: InstallOptions, host: Host): Promise<void> {
  const j = job(ctx, host, opts);
  const mechanism = await chooseMechanism(host, REMIND);
  const before = await installedReminders(host, undefined);
  const steps = await installSteps(host, REMIND, mechanism, before, reminderFiles(ctx, host, j));
  const what = `${MECHANISM_NAME[mechanism]} at ${formatAt(j.at)} on ${formatDays(j.days)}`;
  // Where the token is matters as much to a dry run: said either way.
  const mismatch = zoneMismatch(host, mechanism, ctx.now());
  const warning =
    [tokenWarning(ctx, mechanism === 'crontab' ? 'cron' : 'the reminder'), mismatch && zoneWarning(mechanism, mismatch)].filter(Boolean).join('') || undefined;
  if (!(await takeSteps(ctx, 'install', steps, what, warning, opts.dryRun))) return;
  ctx.io.out(
    `Installed ${what}${before.length > 0 ? ' (it replaces the one before)' : ''}.\nNext: ${whenNext(j, ctx.now(), mismatch?.machine)}. \`checkin remind status\` shows it; \`checkin remind remove\` takes it out.\n`,
  );
}

export async function runRemindStatus(ctx: Context, opts: DryRunOption, host: Host): Promise<void> {
  if (opts.dryRun) return showLookups(ctx, (dry) => installedReminders(host, dry));
  const found = await installedReminders(host, undefined);
  if (found.length === 0) {
    ctx.io.out('No reminder installed: `checkin remind install` sets one up.\n');
    return;
  }
  for (const f of found) {
    const s = f.schedule;
    const mismatch = zoneMismatch(host, f.mechanism, ctx.now());
    let out = `Installed: ${MECHANISM_NAME[f.mechanism]}${s ? ` at ${formatAt(s.at)} on ${formatDays(s.days)}` : ' (its time could not be read)'}\n`;
    if (mismatch) out += `  in ${machineWords(mismatch)}, not in TZ's (${mismatch.tz})\n`;
    if (s) out += `  next: ${whenNext(s, ctx.now(), mismatch?.machine)}\n`;
    if (f.note) out += `  ${f.note}\n`;
    for (const file of f.files) out += `  ${file}\n`;
    ctx.io.out(out);
  }
}

export async function runRemove(ctx: Context, opts: DryRunOption, host: Host): Promise<void> {
  const found = await installedReminders(host, undefined);
  if (found.length === 0) {
    ctx.io.out('No reminder installed: nothing to remove.\n');
    return;
  }
  const steps = (await Promise.all(found.map((f) => removal(host, REMIND, f)))).flat();
  const what = found.map((f) => MECHANISM_NAME[f.mechanism]).join(' and ');
  if (!(await takeSteps(ctx, 'remove', steps, what, undefined, opts.dryRun))) return;
  ctx.io.out(`Removed ${what}.\n`);
}

// ---- what fires ---------------------------------------------------------------------------------

// Fixed words only: nothing the service sends reaches the notification.
const TITLE = 'Check-in pending';
const BODY = "Today's check-in is still pending: run checkin today";
const TOAST = [
  '$ErrorActionPreference = "Stop"',
  '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null',
  '$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)',
  `$xml.GetElementsByTagName("text").Item(0).AppendChild($xml.CreateTextNode("${TITLE}")) | Out-Null`,
  `$xml.GetElementsByTagName("text").Item(1).AppendChild($xml.CreateTextNode("${BODY}")) | Out-Null`,
  '[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier("checkin").Show([Windows.UI.Notifications.ToastNotification]::new($xml))',
].join('; ');

/** The notifier and its arguments on this platform, or undefined when it is not there. */
function notification(host: Host): { file: string; args: string[] } | undefined {
  const file = host.find(notifierName(host));
  if (!file) return undefined;
  if (host.platform === 'darwin') return { file, args: ['-e', `display notification "${BODY}" with title "checkin" subtitle "${TITLE}"`] };
  if (host.platform === 'win32') return { file, args: ['-NoProfile', '-NonInteractive', '-Command', TOAST] };
  return { file, args: ['--app-name=checkin', TITLE, BODY] };
}

export async function runReminder(ctx: Context, opts: RunOptions, host: Host): Promise<void> {
  takeRunEnvironment(ctx.env, opts.env);
  // Each run leaves one record of what it did (`checkin doctor` reads it): a reminder that fails is otherwise noticed only by a missed check-in.
  const at = ctx.now().toISOString();
  const record = (outcome: RunOutcome, detail?: string) =>
    recordReminderRun(ctx.config().paths.state, { at, outcome, ...(detail !== undefined && { detail }) }, (m) => ctx.io.err(`warning: ${m}\n`));
  let outcome: RunOutcome;
  try {
    outcome = await remindIfPending(ctx, host);
  } catch (err) {
    record('failed', err instanceof Error ? err.message : String(err));
    throw err;
  }
  record(outcome);
}

async function remindIfPending(ctx: Context, host: Host): Promise<RunOutcome> {
  const { state, checkIn } = await todayState(ctx);
  // Never on a day with no check-in, never once it is filled in, never when marked absent.
  if (state !== 'pending' || checkIn?.absent === true) return 'quiet';
  const notify = notification(host);
  if (notify && (await host.run(notify.file, notify.args)).code === 0) return 'notified';
  ctx.io.out(`${BODY}\n`);
  return 'printed';
}
