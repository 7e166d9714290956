// The reminder as it stands on this machine, for `checkin remind` and `checkin doctor` alike: which
// scheduler holds it (a systemd user timer, a crontab line, a launchd agent, a scheduled task) and
// when it fires, whether the notifier is there, and what its last run did — each run of
// `checkin remind run` writes one small record in the state folder (remind-last-run.json).
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fsReason, readJson, writeDurably } from '../config/files.js';
import { CliError } from '../errors.js';
import { showCommand, type Host } from './programs.js';
import { CRON_TAG, isReminderLine, LAUNCHD_LABEL, parseCronLine, parseOnCalendar, parsePlist, parseTaskXml, TASK_NAME, UNIT } from './reminder-units.js';
import type { TimeOfDay } from './schedule.js';

// ---- where things are ----------------------------------------------------------------------------

export const reminderHome = (host: Host): string => {
  const h = host.platform === 'win32' ? (host.env.USERPROFILE ?? host.env.HOME) : host.env.HOME;
  if (!h || !isAbsolute(h)) throw new CliError('HOME is not set to an absolute folder: there is nowhere to install the reminder');
  return h;
};

export function systemdPaths(host: Host) {
  const xdg = host.env.XDG_CONFIG_HOME;
  const dir = join(xdg && isAbsolute(xdg) ? xdg : join(reminderHome(host), '.config'), 'systemd', 'user');
  return { dir, service: join(dir, `${UNIT}.service`), timer: join(dir, `${UNIT}.timer`), wants: join(dir, 'timers.target.wants', `${UNIT}.timer`) };
}

export const plistPath = (host: Host) => join(reminderHome(host), 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);

export type Mechanism = 'systemd' | 'crontab' | 'launchd' | 'schtasks';
export const MECHANISM_NAME: Record<Mechanism, string> = {
  systemd: 'a systemd user timer',
  crontab: 'a crontab line',
  launchd: 'a launchd agent',
  schtasks: 'a Task Scheduler task',
};

/** A program that must be there, by name. */
export function need(host: Host, name: string): string {
  const file = host.find(name);
  if (!file) throw new CliError(`${name} was not found on PATH`);
  return file;
}

/** The user's crontab as `crontab -l` prints it; '' when there is none. */
export async function readCrontab(host: Host, crontab: string): Promise<string> {
  const r = await host.run(crontab, ['-l']);
  if (r.code === 0) return r.stdout;
  if (/no crontab/i.test(r.stderr)) return '';
  throw new CliError(`crontab -l failed: ${r.stderr.trim().split('\n')[0] || `exit ${r.code}`}`);
}

// ---- what is installed -----------------------------------------------------------------------

export interface Installed {
  mechanism: Mechanism;
  files: string[];
  schedule?: { at: TimeOfDay; days: number[] } | undefined;
  /** A second line for status: enabled or not, where the line is. */
  note?: string;
  /** systemd only: false when the timer is not enabled (no user manager was running at install). */
  enabled?: boolean;
  /** crontab only: the line itself (what it hands the run: a session bus for notify-send, or not). */
  line?: string;
}

/** What is installed; with `dry`, nothing is read or run and what would be is pushed onto it instead. */
export async function installedReminders(host: Host, dry: string[] | undefined): Promise<Installed[]> {
  const found: Installed[] = [];
  if (host.platform === 'darwin') {
    const plist = plistPath(host);
    if (dry) dry.push(`read ${plist}`);
    else if (existsSync(plist)) found.push({ mechanism: 'launchd', files: [plist], schedule: parsePlist(readFileSync(plist, 'utf8')) });
    return found;
  }
  if (host.platform === 'win32') {
    const schtasks = need(host, 'schtasks');
    const args = ['/Query', '/TN', TASK_NAME, '/XML'];
    if (dry) dry.push(showCommand(schtasks, args));
    else {
      const r = await host.run(schtasks, args);
      if (r.code === 0) found.push({ mechanism: 'schtasks', files: [], schedule: parseTaskXml(r.stdout), note: `task ${TASK_NAME} in Task Scheduler` });
    }
    return found;
  }
  const unit = systemdPaths(host);
  if (dry) dry.push(`read ${unit.timer}`, `read ${unit.service}`, `read ${unit.wants}`);
  else if (existsSync(unit.timer) || existsSync(unit.service)) {
    const onCal = existsSync(unit.timer) ? /^OnCalendar=(.*)$/m.exec(readFileSync(unit.timer, 'utf8'))?.[1] : undefined;
    const files = [unit.timer, unit.service].filter((f) => existsSync(f));
    const enabled = existsSync(unit.wants);
    found.push({
      mechanism: 'systemd',
      files: enabled ? [...files, unit.wants] : files,
      schedule: onCal ? parseOnCalendar(onCal) : undefined,
      note: enabled ? 'enabled' : 'not enabled (no user manager was running): `checkin remind install` again in a session that has one',
      enabled,
    });
  }
  const crontab = host.find('crontab');
  if (crontab) {
    if (dry) dry.push(showCommand(crontab, ['-l']));
    else {
      // A crontab this user may not read (cron.allow) holds no reminder of ours.
      const line = (await readCrontab(host, crontab).catch(() => '')).split('\n').find(isReminderLine);
      if (line)
        found.push({
          mechanism: 'crontab',
          files: [],
          schedule: parseCronLine(line),
          note: `the line ending "${CRON_TAG}" in your crontab (crontab -l)`,
          line,
        });
    }
  }
  return found;
}

// ---- the notifier ------------------------------------------------------------------------------

/** The program that shows a notification on this platform. */
const NOTIFIER: Partial<Record<NodeJS.Platform, string>> = { darwin: 'osascript', win32: 'powershell' };
export const notifierName = (host: Host) => NOTIFIER[host.platform] ?? 'notify-send';

// ---- the last run ------------------------------------------------------------------------------

/**
 * What a run of the reminder did: `notified` (pending, a notification shown), `printed` (pending,
 * no notifier or it failed: one line on stdout, which cron mails and the journal keeps),
 * `quiet` (nothing to remind of: filled in, absent, no check-in that day), `failed` (`detail` says why).
 */
export type RunOutcome = 'notified' | 'printed' | 'quiet' | 'failed';

export interface ReminderRun {
  at: string;
  outcome: RunOutcome;
  /** One line: what stopped a failed run, the state of a quiet one. */
  detail?: string;
}

export const LAST_RUN_FILE = 'remind-last-run.json';

const OUTCOMES: readonly string[] = ['notified', 'printed', 'quiet', 'failed'];

/** Writes the run's record (0600, replaced whole). A record that cannot be written is said in `warn` and the run goes on. */
export function recordReminderRun(stateDir: string, run: ReminderRun, warn: (message: string) => void): void {
  const detail = run.detail?.split('\n')[0]!.slice(0, 300);
  try {
    writeDurably(join(stateDir, LAST_RUN_FILE), `${JSON.stringify({ at: run.at, outcome: run.outcome, ...(detail && { detail }) })}\n`);
  } catch (err) {
    warn(`the reminder's run could not be recorded in ${stateDir} (${fsReason(err)})`);
  }
}

/** The last run's record; undefined when there is none, `damaged` when it cannot be read as one. */
export function lastReminderRun(stateDir: string): ReminderRun | 'damaged' | undefined {
  const file = join(stateDir, LAST_RUN_FILE);
  if (!existsSync(file)) return undefined;
  const { value, damaged, unreadable } = readJson(file, 64 * 1024);
  if (damaged || unreadable) return 'damaged';
  const { at, outcome, detail } = value;
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at)) || typeof outcome !== 'string' || !OUTCOMES.includes(outcome)) return 'damaged';
  return { at, outcome: outcome as RunOutcome, ...(typeof detail === 'string' && { detail }) };
}
