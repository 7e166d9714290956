// The reminder as it stands on this machine, for `checkin remind` and `checkin doctor` alike: which
// scheduler holds it (a systemd user timer, a crontab line, a launchd agent, a scheduled task) and
// when it fires, whether the notifier is there, and what its last run did — each run of
// `checkin remind run` writes one small record in the state folder (remind-last-run.json).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fsReason, readJson, writeDurably } from '../config/files.js';
import type { Host } from './programs.js';
import { parseCronLine, parseOnCalendar, parsePlist, parseTaskXml, REMIND } from './reminder-units.js';
import { installedJobs, type Installed as Installed_ } from './scheduled.js';
import type { TimeOfDay } from './schedule.js';

// ---- what is installed -----------------------------------------------------------------------

export { MECHANISM_NAME, type Mechanism } from './scheduled.js';
export type Installed = Installed_<{ at: TimeOfDay; days: number[] }>;

/** How the reminder's time and days are read back from each scheduler. */
const READERS = {
  timer: (text: string) => {
    const line = /^OnCalendar=(.*)$/m.exec(text)?.[1];
    return line ? parseOnCalendar(line) : undefined;
  },
  cron: parseCronLine,
  plist: parsePlist,
  task: parseTaskXml,
};

/** What is installed; with `dry`, nothing is read or run and what would be is pushed onto it instead. */
export const installedReminders = (host: Host, dry: string[] | undefined): Promise<Installed[]> => installedJobs(host, REMIND, READERS, dry);

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
