// What installs, finds and takes out a job the OS scheduler runs for checkin — `checkin remind`'s
// daily reminder and `checkin notify install`'s notices alike: a systemd user timer and its service
// where a user manager runs (else a crontab line), a launchd agent on macOS, a Task Scheduler task on
// Windows. Each job goes by its own names (JobNames); what its files say is the job's own
// (reminder-units.ts, notify-units.ts); the steps that write, enable, read back and remove them are
// these, one set for both.
import { existsSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeDurably } from '../config/files.js';
import { dirname, isAbsolute, join } from 'node:path';
import { CliError, EXIT } from '../errors.js';
import { showCommand, type Host } from './programs.js';
import { formatAt } from './schedule.js';

/** The names one scheduled job goes by, and how messages speak of it. */
export interface JobNames {
  /** The systemd units' name (.service, .timer), the task's name, the crontab line's tag (`# <unit>`). */
  unit: string;
  /** The launchd agent's label (and its plist's name). */
  label: string;
  /** What it is, in a message: "the reminder". */
  what: string;
  /** The command that installs it: "checkin remind install". */
  install: string;
  /** The command that takes it out: "checkin remind remove". */
  remove: string;
}

export const cronTag = (names: JobNames) => `# ${names.unit}`;
export const isTaggedLine = (names: JobNames, line: string) => line.trimEnd().endsWith(cronTag(names));

// ---- where things are ----------------------------------------------------------------------------

export const homeFolder = (host: Host, names: JobNames): string => {
  const h = host.platform === 'win32' ? (host.env.USERPROFILE ?? host.env.HOME) : host.env.HOME;
  if (!h || !isAbsolute(h)) throw new CliError(`HOME is not set to an absolute folder: there is nowhere to install ${names.what}`);
  return h;
};

export function systemdPaths(host: Host, names: JobNames) {
  const xdg = host.env.XDG_CONFIG_HOME;
  const dir = join(xdg && isAbsolute(xdg) ? xdg : join(homeFolder(host, names), '.config'), 'systemd', 'user');
  const { unit } = names;
  return { dir, service: join(dir, `${unit}.service`), timer: join(dir, `${unit}.timer`), wants: join(dir, 'timers.target.wants', `${unit}.timer`) };
}

export const plistPath = (host: Host, names: JobNames) => join(homeFolder(host, names), 'Library', 'LaunchAgents', `${names.label}.plist`);

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

/** The states of `systemctl --user is-system-running` in which a user manager answers. */
const MANAGER_UP = new Set(['running', 'degraded', 'starting', 'initializing', 'maintenance']);

/** Whether a systemd user manager runs for this user (so a timer can be enabled now). */
export async function userManager(host: Host): Promise<boolean> {
  const systemctl = host.find('systemctl');
  if (!systemctl) return false;
  const r = await host.run(systemctl, ['--user', 'is-system-running']);
  if (MANAGER_UP.has(r.stdout.trim())) return true;
  const runtime = host.env.XDG_RUNTIME_DIR;
  return Boolean(runtime && isAbsolute(runtime) && existsSync(join(runtime, 'systemd', 'private')));
}

/** The scheduler a job goes to on this machine. */
export async function chooseMechanism(host: Host, names: JobNames): Promise<Mechanism> {
  if (host.platform === 'darwin') return 'launchd';
  if (host.platform === 'win32') return 'schtasks';
  if (await userManager(host)) return 'systemd';
  if (host.find('crontab')) return 'crontab';
  throw new CliError(
    `No scheduler to install ${names.what} with: no systemd user manager is running and crontab was not found`,
    EXIT.FAILURE,
    'Run `checkin cron` for a line to add to any scheduler.',
  );
}

/** The zone systemd fires in: the one TZ names, when it names a zone (else the machine's). */
export function timerZone(host: Host): string | undefined {
  const tz = host.env.TZ;
  if (!tz || !/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz;
  } catch {
    return undefined; // not a zone: systemd would refuse the whole OnCalendar=
  }
}

/** A zone's offset from UTC in minutes at `ms` (ICU's), or undefined for a name it does not know. */
function offsetAt(zone: string, ms: number): number | undefined {
  try {
    const name = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value;
    const m = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(name ?? '');
    if (!m) return undefined;
    return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  } catch {
    return undefined;
  }
}

/**
 * When a job goes to a scheduler that fires in this machine's zone (crontab, launchd, Task Scheduler;
 * systemd is given TZ's) while TZ names another: TZ's name, and the machine's when it can be read.
 * Zones the same over the coming year (UTC and Etc/UTC) are not another.
 */
export function zoneMismatch(host: Host, mechanism: Mechanism, now: Date): { tz: string; machine?: string } | undefined {
  const tz = host.env.TZ;
  if (mechanism === 'systemd' || !tz) return undefined;
  const machine = host.zone?.();
  if (machine === undefined) return { tz };
  for (let week = 0; week <= 53; week++) {
    const at = now.getTime() + week * 7 * 86_400_000;
    const a = offsetAt(tz.replace(/^:/, ''), at);
    if (a === undefined || a !== offsetAt(machine, at)) return { tz, machine };
  }
  return undefined;
}

/** The instant of the wall-clock minute `minute` of the day `date` (YYYY-MM-DD) in `zone`. */
function wallInstant(date: string, minute: number, zone: string): number | undefined {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, Math.floor(minute / 60), minute % 60);
  const first = offsetAt(zone, guess);
  if (first === undefined) return undefined;
  const second = offsetAt(zone, guess - first * 60_000) ?? first;
  return guess - second * 60_000;
}

/**
 * The next instant after `now` a job fires at: at one of `fires` (minutes of the day, in order) on one
 * of `days`, on the wall clock of `zone` (this process's, TZ's, unless named); undefined when there is no day.
 */
export function nextRun(fires: number[], days: number[], now: Date, zone = new Intl.DateTimeFormat().resolvedOptions().timeZone): Date | undefined {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  for (let i = 0; i <= 7; i++) {
    const day = new Date(`${today}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + i);
    if (!days.includes(day.getUTCDay())) continue;
    for (const f of fires) {
      const at = wallInstant(day.toISOString().slice(0, 10), f, zone);
      if (at !== undefined && at > now.getTime()) return new Date(at);
    }
  }
  return undefined;
}

/** What install says when the job fires in this machine's zone and not TZ's (a comment line, as the token's). */
export function zoneWarning(mechanism: Mechanism, mismatch: { tz: string; machine?: string }): string {
  return `# ${MECHANISM_NAME[mechanism]} fires in ${machineWords(mismatch)}, not in TZ's (${mismatch.tz}): the times are read there, while the run goes by TZ. Give them in this machine's time (status says the next run in TZ's), or install with TZ set to this machine's zone.\n`;
}

/** "this machine's zone (Etc/UTC)", or without the name where it cannot be read. */
export const machineWords = (mismatch: { machine?: string }) => `this machine's zone${mismatch.machine ? ` (${mismatch.machine})` : ''}`;

/** PATH for the run: node's folder, the folders of the programs it calls (the notifier), then the system's. */
export function runPath(host: Host, node: string, programs: string[]): string {
  const found = programs.map((p) => host.find(p)).filter((f): f is string => f !== undefined);
  const dirs = [dirname(node), ...found.map((f) => dirname(f)), '/usr/local/bin', '/usr/bin', '/bin'];
  return [...new Set(dirs)].join(':');
}

/**
 * What a crontab line hands its run for notify-send: the session bus, when it is the per-user
 * socket (its address does not change between logins); cron starts commands without it.
 */
export function cronSessionBus(host: Host): Record<string, string> {
  const bus = host.env.DBUS_SESSION_BUS_ADDRESS;
  return bus && /^unix:path=\/run\/user\/\d+\/bus$/.test(bus) ? { DBUS_SESSION_BUS_ADDRESS: bus } : {};
}

export const localDate = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** "Mon 2026-11-23 10:00 (in 7 h 38 min)": a scheduled job's next run, in this process's zone (remind's and notify's). */
export function nextInWords(next: Date, now: Date): string {
  const mins = Math.max(1, Math.round((next.getTime() - now.getTime()) / 60_000));
  const span =
    mins >= 24 * 60
      ? `${Math.floor(mins / 1440)} d ${Math.floor((mins % 1440) / 60)} h`
      : mins >= 60
        ? `${Math.floor(mins / 60)} h ${mins % 60} min`
        : `${mins} min`;
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][next.getDay()];
  return `${day} ${localDate(next)} ${formatAt({ hour: next.getHours(), minute: next.getMinutes() })} (in ${span})`;
}

// ---- what is installed -----------------------------------------------------------------------

export interface Installed<S> {
  mechanism: Mechanism;
  files: string[];
  schedule?: S | undefined;
  /** A second line for status: enabled or not, where the line is. */
  note?: string;
  /** systemd only: false when the timer is not enabled (no user manager was running at install). */
  enabled?: boolean;
  /** crontab only: the line itself (what it hands the run: a session bus for notify-send, or not). */
  line?: string;
}

/** How a job's schedule is read back from what each scheduler holds. */
export interface ScheduleReaders<S> {
  /** From the systemd timer and its service (either may be '' when it is missing). */
  timer(timer: string, service: string): S | undefined;
  cron(line: string): S | undefined;
  plist(text: string): S | undefined;
  task(xml: string): S | undefined;
}

/** What is installed of the job; with `dry`, nothing is read or run and what would be is pushed onto it instead. */
export async function installedJobs<S>(host: Host, names: JobNames, read: ScheduleReaders<S>, dry: string[] | undefined): Promise<Installed<S>[]> {
  const found: Installed<S>[] = [];
  if (host.platform === 'darwin') {
    const plist = plistPath(host, names);
    if (dry) dry.push(`read ${plist}`);
    else if (existsSync(plist)) found.push({ mechanism: 'launchd', files: [plist], schedule: read.plist(readFileSync(plist, 'utf8')) });
    return found;
  }
  if (host.platform === 'win32') {
    const schtasks = need(host, 'schtasks');
    const args = ['/Query', '/TN', names.unit, '/XML'];
    if (dry) dry.push(showCommand(schtasks, args));
    else {
      const r = await host.run(schtasks, args);
      if (r.code === 0) found.push({ mechanism: 'schtasks', files: [], schedule: read.task(r.stdout), note: `task ${names.unit} in Task Scheduler` });
    }
    return found;
  }
  const unit = systemdPaths(host, names);
  if (dry) dry.push(`read ${unit.timer}`, `read ${unit.service}`, `read ${unit.wants}`);
  else if (existsSync(unit.timer) || existsSync(unit.service)) {
    const files = [unit.timer, unit.service].filter((f) => existsSync(f));
    const enabled = existsSync(unit.wants);
    found.push({
      mechanism: 'systemd',
      files: enabled ? [...files, unit.wants] : files,
      schedule: existsSync(unit.timer)
        ? read.timer(readFileSync(unit.timer, 'utf8'), existsSync(unit.service) ? readFileSync(unit.service, 'utf8') : '')
        : undefined,
      note: enabled ? 'enabled' : `not enabled (no user manager was running): \`${names.install}\` again in a session that has one`,
      enabled,
    });
  }
  const crontab = host.find('crontab');
  if (crontab) {
    if (dry) dry.push(showCommand(crontab, ['-l']));
    else {
      // A crontab this user may not read (cron.allow) holds no job of ours.
      const line = (await readCrontab(host, crontab).catch(() => '')).split('\n').find((l) => isTaggedLine(names, l));
      if (line)
        found.push({
          mechanism: 'crontab',
          files: [],
          schedule: read.cron(line),
          note: `the line ending "${cronTag(names)}" in your crontab (crontab -l)`,
          line,
        });
    }
  }
  return found;
}

// ---- steps: what --dry-run shows, and what is done -------------------------------------------

export interface Step {
  /** What --dry-run prints. */
  show: string;
  /** What install does. */
  act: () => Promise<void> | void;
}

/** Runs a command that must succeed; its own message says what failed. */
export async function must(host: Host, file: string, args: string[], input?: string | Buffer): Promise<string> {
  const r = await host.run(file, args, input);
  if (r.code !== 0) {
    const why = r.stderr.trim().split('\n')[0] || (r.code === null ? 'it took too long and was stopped' : `exit ${r.code}`);
    throw new CliError(`${showCommand(file, args)} failed: ${why}`);
  }
  return r.stdout;
}

// A unit or agent the scheduler reads (0644), in folders as mkdir -p makes them (less the umask): whole, on disk, or the one before.
const fileStep = (path: string, content: string): Step => ({
  show: `# write ${path}:\n${content.replace(/\r\n/g, '\n')}`,
  act: () => writeDurably(path, content, { mode: 0o644, dirMode: 0o777 }),
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

/** Writes the crontab with the job's line replaced by `line` (or taken out); none left at all → crontab -r. */
async function writeCrontab(host: Host, names: JobNames, crontab: string, current: string, line: string | undefined): Promise<void> {
  const kept = current.split('\n').filter((l) => !isTaggedLine(names, l));
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  if (line) kept.push(line);
  if (kept.every((l) => l.trim() === '')) {
    if (current.trim() !== '') await must(host, crontab, ['-r']);
    return;
  }
  await must(host, crontab, ['-'], kept.join('\n') + '\n');
}

/** What takes out what `what` installed. */
export async function removal(host: Host, names: JobNames, what: Installed<unknown>): Promise<Step[]> {
  switch (what.mechanism) {
    case 'systemd': {
      const unit = systemdPaths(host, names);
      const steps: Step[] = [];
      const live = await userManager(host);
      const systemctl = live ? need(host, 'systemctl') : undefined;
      // disable takes out the enabled link; the files go after, whatever it says.
      if (systemctl) steps.push(runStep(host, systemctl, ['--user', 'disable', '--now', `${names.unit}.timer`], false));
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
          show: `${showCommand(crontab, ['-l'])} | grep -v '${cronTag(names)}$' | ${showCommand(crontab, ['-'])}`,
          act: async () => writeCrontab(host, names, crontab, await readCrontab(host, crontab), undefined),
        },
      ];
    }
    case 'launchd': {
      const launchctl = need(host, 'launchctl');
      return [runStep(host, launchctl, ['bootout', `gui/${host.uid}/${names.label}`], false), removeStep(plistPath(host, names))];
    }
    case 'schtasks':
      return [runStep(host, need(host, 'schtasks'), ['/Delete', '/TN', names.unit, '/F'])];
  }
}

/** What a job's files say, for the scheduler it goes to (each made only when that one is used). */
export interface JobFiles {
  systemd: () => { service: string; timer: string };
  crontab: () => string;
  launchd: () => string;
  /** The task's XML, and its bytes as schtasks reads them (UTF-16). */
  schtasks: () => { xml: string; bytes: Buffer };
}

/** What installs the job with `mechanism`, taking out what `before` holds of it elsewhere (installing twice replaces, never adds). */
export async function installSteps(host: Host, names: JobNames, mechanism: Mechanism, before: Installed<unknown>[], files: JobFiles): Promise<Step[]> {
  const steps: Step[] = [];
  for (const old of before) if (old.mechanism !== mechanism) steps.push(...(await removal(host, names, old)));
  switch (mechanism) {
    case 'systemd': {
      const unit = systemdPaths(host, names);
      const systemctl = need(host, 'systemctl');
      const { service, timer } = files.systemd();
      steps.push(fileStep(unit.service, service), fileStep(unit.timer, timer));
      steps.push(runStep(host, systemctl, ['--user', 'daemon-reload']), runStep(host, systemctl, ['--user', 'enable', '--now', `${names.unit}.timer`]));
      // A timer that was running keeps its old time until it is restarted.
      if (before.some((b) => b.mechanism === 'systemd')) steps.push(runStep(host, systemctl, ['--user', 'restart', `${names.unit}.timer`]));
      return steps;
    }
    case 'crontab': {
      const crontab = need(host, 'crontab');
      const line = files.crontab();
      steps.push({
        show: `# replace the line ending "${cronTag(names)}" in your crontab with:\n${line}\n${showCommand(crontab, ['-l'])} | … | ${showCommand(crontab, ['-'])}`,
        act: async () => writeCrontab(host, names, crontab, await readCrontab(host, crontab), line),
      });
      return steps;
    }
    case 'launchd': {
      const launchctl = need(host, 'launchctl');
      const plist = plistPath(host, names);
      if (before.some((b) => b.mechanism === 'launchd')) steps.push(runStep(host, launchctl, ['bootout', `gui/${host.uid}/${names.label}`], false));
      steps.push(fileStep(plist, files.launchd()), runStep(host, launchctl, ['bootstrap', `gui/${host.uid}`, plist]));
      return steps;
    }
    case 'schtasks': {
      const schtasks = need(host, 'schtasks');
      const { xml, bytes } = files.schtasks();
      // schtasks reads the task from a file: one of its own in a new temp folder, gone right after.
      const { tmpdir } = process.getBuiltinModule('node:os');
      let folder = join(tmpdir(), `${names.unit}-XXXXXX`);
      steps.push({
        show: `# write ${join(folder, 'task.xml')} (UTF-16):\n${xml.replace(/\r\n/g, '\n')}`,
        act: () => {
          folder = mkdtempSync(join(tmpdir(), `${names.unit}-`));
          writeFileSync(join(folder, 'task.xml'), bytes);
        },
      });
      steps.push({
        show: `${showCommand(schtasks, ['/Create', '/TN', names.unit, '/XML', join(folder, 'task.xml'), '/F'])}\nrm -r ${folder}`,
        act: async () => {
          try {
            await must(host, schtasks, ['/Create', '/TN', names.unit, '/XML', join(folder, 'task.xml'), '/F']);
          } finally {
            rmSync(folder, { recursive: true, force: true });
          }
        },
      });
      return steps;
    }
  }
}
