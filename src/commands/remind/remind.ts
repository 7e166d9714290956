// `checkin remind install|status|remove`: a reminder the OS keeps — a systemd user timer where a
// user manager runs (else a crontab line), a launchd agent on macOS, a Task Scheduler task on
// Windows. At the time it runs the hidden `checkin remind run`, which asks what `checkin status`
// asks and, only when today's check-in is pending, shows a notification saying `checkin today`.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import { cliPaths, formatAt, formatDays, nextFire, parseAt, parseDays, runEnvironment, tokenWarning, type TimeOfDay } from '../../system/schedule.js';
import { collect } from '../flags.js';
import { todayState } from '../../domain/today-state.js';
import {
  CRON_TAG,
  LAUNCHD_LABEL,
  TASK_NAME,
  UNIT,
  cronReminderLine,
  isReminderLine,
  launchdPlist,
  systemdService,
  systemdTimer,
  taskXml,
  utf16,
  type Job,
} from '../../system/reminder-units.js';
import { showCommand, systemHost, type Host } from '../../system/programs.js';
import {
  installedReminders,
  MECHANISM_NAME,
  need,
  notifierName,
  plistPath,
  readCrontab,
  recordReminderRun,
  systemdPaths,
  type Installed,
  type Mechanism,
  type RunOutcome,
} from '../../system/reminder.js';

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
    .option('--env <NAME=VALUE>', 'set a variable the run needs (a scheduled task has no environment of its own)', collect)
    .action((opts) => runReminder(ctx, opts, host()));
  return remind;
}

// ---- where things are ----------------------------------------------------------------------------

/** The states of `systemctl --user is-system-running` in which a user manager answers. */
const MANAGER_UP = new Set(['running', 'degraded', 'starting', 'initializing', 'maintenance']);

/** Whether a systemd user manager runs for this user (so a timer can be enabled now). */
async function userManager(host: Host): Promise<boolean> {
  const systemctl = host.find('systemctl');
  if (!systemctl) return false;
  const r = await host.run(systemctl, ['--user', 'is-system-running']);
  if (MANAGER_UP.has(r.stdout.trim())) return true;
  const runtime = host.env.XDG_RUNTIME_DIR;
  return Boolean(runtime && isAbsolute(runtime) && existsSync(join(runtime, 'systemd', 'private')));
}

/** Runs a command that must succeed; its own message says what failed. */
async function must(host: Host, file: string, args: string[], input?: string | Buffer): Promise<string> {
  const r = await host.run(file, args, input);
  if (r.code !== 0) {
    const why = r.stderr.trim().split('\n')[0] || (r.code === null ? 'it took too long and was stopped' : `exit ${r.code}`);
    throw new CliError(`${showCommand(file, args)} failed: ${why}`);
  }
  return r.stdout;
}

function writeAtomically(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o644 });
  renameSync(tmp, path);
}

// ---- crontab ----------------------------------------------------------------------------------

/** Writes the crontab with the reminder line replaced by `line` (or taken out); none left at all → crontab -r. */
async function writeCrontab(host: Host, crontab: string, current: string, line: string | undefined): Promise<void> {
  const kept = current.split('\n').filter((l) => !isReminderLine(l));
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  if (line) kept.push(line);
  if (kept.every((l) => l.trim() === '')) {
    if (current.trim() !== '') await must(host, crontab, ['-r']);
    return;
  }
  await must(host, crontab, ['-'], kept.join('\n') + '\n');
}

// ---- install ------------------------------------------------------------------------------------

/** PATH for the run: node's folder, the notifier's, then the system's. */
function runPath(host: Host, node: string): string {
  const notifier = host.find(notifierName(host));
  const dirs = [dirname(node), ...(notifier ? [dirname(notifier)] : []), '/usr/local/bin', '/usr/bin', '/bin'];
  return [...new Set(dirs)].join(':');
}

function job(ctx: Context, host: Host, opts: InstallOptions): Job {
  const at = parseAt(opts.at);
  const days = parseDays(opts.days);
  const { node, script } = cliPaths();
  const env = runEnvironment(ctx);
  if (host.platform !== 'win32') env.PATH = runPath(host, node);
  return { at, days, node, script, env };
}

/** The zone systemd fires in: the one TZ names, when it names a zone (else the machine's). */
function timerZone(host: Host): string | undefined {
  const tz = host.env.TZ;
  if (!tz || !/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    return undefined; // not a zone: systemd would refuse the whole OnCalendar=
  }
}

interface Step {
  /** What --dry-run prints. */
  show: string;
  /** What install does. */
  act: () => Promise<void> | void;
}

const fileStep = (path: string, content: string | Buffer, shown = String(content)): Step => ({
  show: `# write ${path}:\n${shown.replace(/\r\n/g, '\n')}`,
  act: () => writeAtomically(path, content),
});
const runStep = (host: Host, file: string, args: string[], mustSucceed = true): Step => ({
  show: showCommand(file, args),
  act: async () => {
    if (mustSucceed) await must(host, file, args);
    else await host.run(file, args);
  },
});
const removeStep = (path: string): Step => ({ show: `rm -f ${showCommand(path, [])}`, act: () => rmSync(path, { force: true }) });
/** Takes out a folder install made, when nothing else is in it. */
const pruneStep = (dir: string): Step => ({
  show: `rmdir ${showCommand(dir, [])} (when empty)`,
  act: () => {
    try {
      rmdirSync(dir);
    } catch {
      // not empty (the user's own units), or already gone
    }
  },
});

/** What takes out what `what` installed. */
async function removal(host: Host, what: Installed): Promise<Step[]> {
  switch (what.mechanism) {
    case 'systemd': {
      const unit = systemdPaths(host);
      const steps: Step[] = [];
      const live = await userManager(host);
      const systemctl = live ? need(host, 'systemctl') : undefined;
      // disable takes out the enabled link; the files go after, whatever it says.
      if (systemctl) steps.push(runStep(host, systemctl, ['--user', 'disable', '--now', `${UNIT}.timer`], false));
      steps.push(
        removeStep(unit.wants),
        removeStep(unit.timer),
        removeStep(unit.service),
        pruneStep(dirname(unit.wants)),
        pruneStep(unit.dir),
        pruneStep(dirname(unit.dir)),
      );
      if (systemctl) steps.push(runStep(host, systemctl, ['--user', 'daemon-reload']));
      return steps;
    }
    case 'crontab': {
      const crontab = need(host, 'crontab');
      return [
        {
          show: `${showCommand(crontab, ['-l'])} | grep -v '${CRON_TAG}$' | ${showCommand(crontab, ['-'])}`,
          act: async () => writeCrontab(host, crontab, await readCrontab(host, crontab), undefined),
        },
      ];
    }
    case 'launchd': {
      const launchctl = need(host, 'launchctl');
      return [runStep(host, launchctl, ['bootout', `gui/${host.uid}/${LAUNCHD_LABEL}`], false), removeStep(plistPath(host))];
    }
    case 'schtasks':
      return [runStep(host, need(host, 'schtasks'), ['/Delete', '/TN', TASK_NAME, '/F'])];
  }
}

async function installSteps(ctx: Context, host: Host, j: Job, mechanism: Mechanism, before: Installed[]): Promise<Step[]> {
  const steps: Step[] = [];
  // Another mechanism's reminder from before goes (installing twice replaces, never adds).
  for (const old of before) if (old.mechanism !== mechanism) steps.push(...(await removal(host, old)));
  switch (mechanism) {
    case 'systemd': {
      const unit = systemdPaths(host);
      const systemctl = need(host, 'systemctl');
      steps.push(fileStep(unit.service, systemdService(j)), fileStep(unit.timer, systemdTimer(j, timerZone(host))));
      steps.push(runStep(host, systemctl, ['--user', 'daemon-reload']), runStep(host, systemctl, ['--user', 'enable', '--now', `${UNIT}.timer`]));
      // A timer that was running keeps its old time until it is restarted.
      if (before.some((b) => b.mechanism === 'systemd')) steps.push(runStep(host, systemctl, ['--user', 'restart', `${UNIT}.timer`]));
      return steps;
    }
    case 'crontab': {
      const crontab = need(host, 'crontab');
      // notify-send under cron needs the session bus; the per-user socket's address does not change between logins.
      const bus = host.env.DBUS_SESSION_BUS_ADDRESS;
      const line = cronReminderLine(bus && /^unix:path=\/run\/user\/\d+\/bus$/.test(bus) ? { ...j, env: { ...j.env, DBUS_SESSION_BUS_ADDRESS: bus } } : j);
      steps.push({
        show: `# replace the line ending "${CRON_TAG}" in your crontab with:\n${line}\n${showCommand(crontab, ['-l'])} | … | ${showCommand(crontab, ['-'])}`,
        act: async () => writeCrontab(host, crontab, await readCrontab(host, crontab), line),
      });
      return steps;
    }
    case 'launchd': {
      const launchctl = need(host, 'launchctl');
      const plist = plistPath(host);
      if (before.some((b) => b.mechanism === 'launchd')) steps.push(runStep(host, launchctl, ['bootout', `gui/${host.uid}/${LAUNCHD_LABEL}`], false));
      steps.push(fileStep(plist, launchdPlist(j)), runStep(host, launchctl, ['bootstrap', `gui/${host.uid}`, plist]));
      return steps;
    }
    case 'schtasks': {
      const schtasks = need(host, 'schtasks');
      const xml = taskXml(j, localDate(ctx.now()));
      // schtasks reads the task from a file: one of its own in a new temp folder, gone right after.
      const { tmpdir } = process.getBuiltinModule('node:os');
      let folder = join(tmpdir(), 'checkin-remind-XXXXXX');
      steps.push({
        show: `# write ${join(folder, 'task.xml')} (UTF-16):\n${xml.replace(/\r\n/g, '\n')}`,
        act: () => {
          folder = mkdtempSync(join(tmpdir(), 'checkin-remind-'));
          writeFileSync(join(folder, 'task.xml'), utf16(xml));
        },
      });
      steps.push({
        show: `${showCommand(schtasks, ['/Create', '/TN', TASK_NAME, '/XML', join(folder, 'task.xml'), '/F'])}\nrm -r ${folder}`,
        act: async () => {
          try {
            await must(host, schtasks, ['/Create', '/TN', TASK_NAME, '/XML', join(folder, 'task.xml'), '/F']);
          } finally {
            rmSync(folder, { recursive: true, force: true });
          }
        },
      });
      return steps;
    }
  }
}

const localDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

async function chooseMechanism(host: Host): Promise<Mechanism> {
  if (host.platform === 'darwin') return 'launchd';
  if (host.platform === 'win32') return 'schtasks';
  if (await userManager(host)) return 'systemd';
  if (host.find('crontab')) return 'crontab';
  throw new CliError(
    'No scheduler to install the reminder with: no systemd user manager is running and crontab was not found',
    EXIT.FAILURE,
    'Run `checkin cron` for a line to add to any scheduler.',
  );
}

/** "Mon 2026-11-23 10:00 (in 7 h 38 min)": when it fires next, in this process's zone. */
function whenNext(schedule: { at: TimeOfDay; days: number[] }, now: Date): string {
  const next = nextFire(schedule.at, schedule.days, now);
  const mins = Math.round((next.getTime() - now.getTime()) / 60_000);
  const span =
    mins >= 24 * 60
      ? `${Math.floor(mins / 1440)} d ${Math.floor((mins % 1440) / 60)} h`
      : mins >= 60
        ? `${Math.floor(mins / 60)} h ${mins % 60} min`
        : `${mins} min`;
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][next.getDay()];
  return `${day} ${localDate(next)} ${formatAt({ hour: next.getHours(), minute: next.getMinutes() })} (in ${span})`;
}

export async function runInstall(ctx: Context, opts: InstallOptions, host: Host): Promise<void> {
  const j = job(ctx, host, opts);
  const mechanism = await chooseMechanism(host);
  const before = await installedReminders(host, undefined);
  const steps = await installSteps(ctx, host, j, mechanism, before);
  const what = `${MECHANISM_NAME[mechanism]} at ${formatAt(j.at)} on ${formatDays(j.days)}`;
  // Where the token is matters as much to a dry run: said either way.
  const warning = tokenWarning(ctx, mechanism === 'crontab' ? 'cron' : 'the reminder');
  if (opts.dryRun) {
    ctx.io.err(`# --dry-run: would install ${what}. Nothing was changed.\n`);
    if (warning) ctx.io.err(warning);
    ctx.io.out(steps.map((s) => `${s.show.replace(/\n$/, '')}\n`).join(''));
    return;
  }
  for (const step of steps) await step.act();
  if (warning) ctx.io.err(warning);
  ctx.io.out(
    `Installed ${what}${before.length > 0 ? ' (it replaces the one before)' : ''}.\nNext: ${whenNext(j, ctx.now())}. \`checkin remind status\` shows it; \`checkin remind remove\` takes it out.\n`,
  );
}

export async function runRemindStatus(ctx: Context, opts: DryRunOption, host: Host): Promise<void> {
  if (opts.dryRun) {
    const dry: string[] = [];
    await installedReminders(host, dry);
    ctx.io.out(dry.map((l) => `${l}\n`).join(''));
    return;
  }
  const found = await installedReminders(host, undefined);
  if (found.length === 0) {
    ctx.io.out('No reminder installed: `checkin remind install` sets one up.\n');
    return;
  }
  for (const f of found) {
    const s = f.schedule;
    let out = `Installed: ${MECHANISM_NAME[f.mechanism]}${s ? ` at ${formatAt(s.at)} on ${formatDays(s.days)}` : ' (its time could not be read)'}\n`;
    if (s) out += `  next: ${whenNext(s, ctx.now())}\n`;
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
  const steps = (await Promise.all(found.map((f) => removal(host, f)))).flat();
  if (opts.dryRun) {
    ctx.io.err(`# --dry-run: would remove ${found.map((f) => MECHANISM_NAME[f.mechanism]).join(' and ')}. Nothing was changed.\n`);
    ctx.io.out(steps.map((s) => `${s.show}\n`).join(''));
    return;
  }
  for (const step of steps) await step.act();
  ctx.io.out(`Removed ${found.map((f) => MECHANISM_NAME[f.mechanism]).join(' and ')}.\n`);
}

// ---- what fires ---------------------------------------------------------------------------------

/** The variables `remind run --env` may set: those runEnvironment() carries. */
const RUN_VARIABLES = new Set([
  'CHECKIN_CONFIG_DIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'HOME',
  'CHECKIN_API_URL',
  'CHECKIN_PROFILE',
  'TZ',
  'PATH',
]);

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
  for (const pair of opts.env ?? []) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    if (eq < 1 || !RUN_VARIABLES.has(name)) throw new UsageError(`--env takes NAME=VALUE with NAME one of ${[...RUN_VARIABLES].join(', ')}, got "${pair}"`);
    ctx.env[name] = pair.slice(eq + 1);
  }
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
