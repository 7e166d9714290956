// What `checkin remind install` writes, for each scheduler: a systemd user timer and its service,
// a crontab line, a launchd agent, a Task Scheduler task. Pure: text in, text out (and back: status
// reads the time and days from what was written). The frames of those files are here too, one for
// every job (oneshotService, calendarTimer, cronJobLine, launchdAgent, taskDocument): notify-units.ts's
// are the same frames with its own names, times and command.
import { UsageError } from '../errors.js';
import { cronTag, type JobNames } from './scheduled.js';
import { cronEscape, cronTime, formatAt, noControls, program, runEnvArgs, schedulable, shellCommand, type TimeOfDay } from './schedule.js';

/** The names the reminder goes by in what installs, finds and removes it (scheduled.ts). */
export const REMIND: JobNames = {
  unit: 'checkin-remind',
  label: 'checkin.remind',
  what: 'the reminder',
  install: 'checkin remind install',
  remove: 'checkin remind remove',
};
/** What the reminder's units and task say they are. */
const DESCRIPTION = "checkin: remind me when today's check-in is pending";

/** What a scheduler runs: node, or the single executable (then no script), with the environment. */
export interface JobCommand {
  node: string;
  script?: string | undefined;
  env: Record<string, string>;
}

/** What the scheduler runs, and when. */
export interface Job extends JobCommand {
  at: TimeOfDay;
  /** Weekdays, 0 = Sunday … 6 = Saturday. */
  days: number[];
}

/** The arguments after the script: the hidden command that checks and notifies. */
export const RUN_ARGS = ['remind', 'run'];

// ---- systemd (systemd.syntax(7), systemd.service(5), systemd.exec(5)) ----------------------

/**
 * One word of a unit file in double quotes: backslash and quote escaped (C-style escapes are
 * decoded in quotes), % doubled (specifiers are expanded), and in a command's arguments $ doubled
 * ($VAR is expanded there; not in the executable's name, where $$ would stay two characters).
 */
export function systemdQuote(value: string, inCommand: boolean): string {
  noControls('A path or value', value);
  let s = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%');
  if (inCommand) s = s.replace(/\$/g, '$$$$');
  return `"${s}"`;
}

const SYSTEMD_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * OnCalendar= for the hours and minutes `time` ("09:30", "08..18:00/5") on the days, every day
 * when all seven, in `zone` when given (an IANA name systemd understands).
 */
export function calendarOn(days: number[], time: string, zone?: string): string {
  const dayList = days.length === 7 ? '' : `${days.map((d) => SYSTEMD_DAYS[d]).join(',')} `;
  return `${dayList}*-*-* ${time}:00${zone ? ` ${zone}` : ''}`;
}

/** The days back from OnCalendar='s list of them ("Mon,Wed"; none: every day); undefined for a name that is not a day's. */
export function calendarDays(list: string | undefined): number[] | undefined {
  const days = list ? list.split(',').map((d) => SYSTEMD_DAYS.indexOf(d)) : [0, 1, 2, 3, 4, 5, 6];
  return days.some((d) => d < 0) ? undefined : days;
}

/** OnCalendar= for the time on the days (in `zone` when given). */
export const onCalendar = (at: TimeOfDay, days: number[], zone?: string): string => calendarOn(days, formatAt(at), zone);

/** Time and days back from OnCalendar= as onCalendar() writes it. */
export function parseOnCalendar(line: string): { at: TimeOfDay; days: number[] } | undefined {
  const m = /^(?:([A-Za-z,]+) )?\*-\*-\* (\d\d):(\d\d):00(?: \S+)?$/.exec(line.trim());
  if (!m) return undefined;
  const days = calendarDays(m[1]);
  return days && { at: { hour: Number(m[2]), minute: Number(m[3]) }, days };
}

/**
 * A service's Environment= lines and its ExecStart= (node, the script, `args`), each word quoted as
 * systemd reads it; what systemd cannot start is refused with what to do instead.
 */
export function systemdCommand(job: JobCommand, args: string[]): { env: string; exec: string } {
  schedulable(job.env, job.node, job.script);
  // systemd refuses an executable's name with a quote or a backslash in it, however it is escaped.
  if (/["'\\]/.test(job.node))
    throw new UsageError(
      `systemd cannot start a program whose path holds a quote or a backslash: ${job.node}`,
      'Run node from a folder without them, or add the line `checkin cron` prints to your crontab.',
    );
  const env = Object.entries(job.env)
    .map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`, false)}\n`)
    .join('');
  const exec = [systemdQuote(job.node, false), ...[...program(job.node, job.script).slice(1), ...args].map((w) => systemdQuote(w, true))].join(' ');
  return { env, exec };
}

/** A unit's first lines: what wrote it and what takes it out, and its [Unit] section. */
const unitHead = (names: JobNames, description: string) =>
  `# Written by \`${names.install}\`; \`${names.remove}\` removes it.\n[Unit]\nDescription=${description}\n\n`;

/** A job's service: a oneshot that runs node, the script and `args` with the job's environment. */
export function oneshotService(names: JobNames, description: string, job: JobCommand, args: string[]): string {
  const { env, exec } = systemdCommand(job, args);
  return (
    unitHead(names, description) +
    '[Service]\n' +
    'Type=oneshot\n' +
    // A oneshot may otherwise run for ever: a run is a request or two (and a retry), one that hangs
    // is stopped well before the next.
    'TimeoutStartSec=2min\n' +
    env +
    `ExecStart=${exec}\n`
  );
}

/** A job's timer: its service at `calendar` (OnCalendar=); with `persistent`, a run missed while the machine was off or asleep happens when it is back. */
export function calendarTimer(names: JobNames, description: string, calendar: string, persistent: boolean): string {
  return (
    unitHead(names, description) +
    '[Timer]\n' +
    `OnCalendar=${calendar}\n` +
    (persistent ? 'Persistent=true\n' : '') +
    '\n' +
    '[Install]\n' +
    'WantedBy=timers.target\n'
  );
}

export const systemdService = (job: Job): string => oneshotService(REMIND, DESCRIPTION, job, RUN_ARGS);

// A reminder missed while the machine was off or asleep is still worth having when it is back.
export const systemdTimer = (job: Job, zone?: string): string => calendarTimer(REMIND, DESCRIPTION, onCalendar(job.at, job.days, zone), true);

// ---- crontab ---------------------------------------------------------------------------------

/** A cron day-of-week field for the days: "*" for all seven, else their numbers ("1,2,3,4,5"). */
export const cronDays = (days: number[]): string => (days.length === 7 ? '*' : days.join(','));

/** A job's crontab line: the five time fields `when`, then node, the script and `args` with the job's environment, tagged with the job's name. */
export function cronJobLine(names: JobNames, when: string, job: JobCommand, args: string[]): string {
  schedulable(job.env, job.node, job.script);
  return `${cronEscape(`${when} ${shellCommand(job.env, [...program(job.node, job.script), ...args])}`)} ${cronTag(names)}`;
}

export const cronReminderLine = (job: Job): string => cronJobLine(REMIND, cronTime(job.at, cronDays(job.days)), job, RUN_ARGS);

/** Time and days back from the line cronReminderLine() wrote. */
export function parseCronLine(line: string): { at: TimeOfDay; days: number[] } | undefined {
  const m = /^(\d+) (\d+) \* \* (\*|[0-6](?:,[0-6])*) /.exec(line);
  if (!m) return undefined;
  return { at: { hour: Number(m[2]), minute: Number(m[1]) }, days: m[3] === '*' ? [0, 1, 2, 3, 4, 5, 6] : m[3]!.split(',').map(Number) };
}

// ---- launchd (launchd.plist(5)) ---------------------------------------------------------------

export const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const plistString = (s: string) => `<string>${xmlEscape(s)}</string>`;

/** A launchd agent's Label, ProgramArguments (node, the script, `args`) and EnvironmentVariables, as plist keys of its dict. */
export function plistCommand(label: string, job: JobCommand, args: string[]): string {
  schedulable(job.env, job.node, job.script);
  const env = Object.entries(job.env)
    .map(([k, v]) => `\t\t<key>${xmlEscape(k)}</key>\n\t\t${plistString(v)}\n`)
    .join('');
  return (
    `\t<key>Label</key>\n\t${plistString(label)}\n` +
    `\t<key>ProgramArguments</key>\n\t<array>\n${[...program(job.node, job.script), ...args].map((a) => `\t\t${plistString(a)}\n`).join('')}\t</array>\n` +
    `\t<key>EnvironmentVariables</key>\n\t<dict>\n${env}\t</dict>\n`
  );
}

/** One StartCalendarInterval entry: a key left out matches every value (launchd.plist(5)). Weekday 0 (or 7) is Sunday, as in cron. */
export interface CalendarInterval {
  weekday?: number | undefined;
  hour?: number | undefined;
  minute: number;
}

/** A launchd agent: the job's command with `args` (plistCommand), run at each of `intervals`. */
export function launchdAgent(label: string, job: JobCommand, args: string[], intervals: CalendarInterval[]): string {
  const entry = (i: CalendarInterval) =>
    '\t\t<dict>\n' +
    (i.weekday === undefined ? '' : `\t\t\t<key>Weekday</key>\n\t\t\t<integer>${i.weekday}</integer>\n`) +
    (i.hour === undefined ? '' : `\t\t\t<key>Hour</key>\n\t\t\t<integer>${i.hour}</integer>\n`) +
    `\t\t\t<key>Minute</key>\n\t\t\t<integer>${i.minute}</integer>\n` +
    '\t\t</dict>\n';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
    '<plist version="1.0">\n' +
    '<dict>\n' +
    plistCommand(label, job, args) +
    `\t<key>StartCalendarInterval</key>\n\t<array>\n${intervals.map(entry).join('')}\t</array>\n` +
    '</dict>\n</plist>\n'
  );
}

export const launchdPlist = (job: Job): string =>
  launchdAgent(
    REMIND.label,
    job,
    RUN_ARGS,
    job.days.map((weekday) => ({ weekday, hour: job.at.hour, minute: job.at.minute })),
  );

/** Time and days back from the plist launchdPlist() wrote. */
export function parsePlist(text: string): { at: TimeOfDay; days: number[] } | undefined {
  const entries = [
    ...text.matchAll(
      /<key>Weekday<\/key>\s*<integer>(\d)<\/integer>\s*<key>Hour<\/key>\s*<integer>(\d+)<\/integer>\s*<key>Minute<\/key>\s*<integer>(\d+)<\/integer>/g,
    ),
  ];
  if (entries.length === 0) return undefined;
  return { at: { hour: Number(entries[0]![2]), minute: Number(entries[0]![3]) }, days: entries.map((e) => Number(e[1]) % 7).sort((a, b) => a - b) };
}

// ---- Task Scheduler (the Task Scheduler 2.0 XML schema) ---------------------------------------

/** One argument as Windows programs split a command line (CommandLineToArgvW's rules). */
export function windowsQuote(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  let out = '"';
  let slashes = 0;
  for (const ch of arg) {
    if (ch === '\\') slashes++;
    else if (ch === '"') {
      out += '\\'.repeat(slashes * 2 + 1) + '"';
      slashes = 0;
    } else {
      out += '\\'.repeat(slashes) + ch;
      slashes = 0;
    }
  }
  return `${out}${'\\'.repeat(slashes * 2)}"`;
}

export const TASK_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The task: a weekly calendar trigger on the days, an Exec of node with the script. A task has no
 * environment of its own: what the run needs goes on its command line (`remind run --env NAME=VALUE`).
 * `start` is the day the trigger starts from, as YYYY-MM-DD.
 */
export function taskXml(job: Job, start: string): string {
  schedulable(job.env, job.node, job.script);
  const hh = String(job.at.hour).padStart(2, '0');
  const mm = String(job.at.minute).padStart(2, '0');
  const args = [...program(job.node, job.script).slice(1), ...RUN_ARGS, ...runEnvArgs(job.env)];
  return taskDocument({
    description: DESCRIPTION,
    uri: REMIND.unit,
    triggers: [{ start: `${start}T${hh}:${mm}:00`, days: job.days }],
    node: job.node,
    args,
    // A run missed while the machine was off happens when it is back, as Persistent=true does.
    startWhenAvailable: true,
    limit: 'PT5M',
  });
}

/** A weekly calendar trigger: from `start` (YYYY-MM-DDTHH:MM:SS) on `days`, again every `every` for `duration` when given (ISO 8601 durations). */
export interface TaskTrigger {
  start: string;
  days: number[];
  repeat?: { every: string; duration: string };
}

/** A task (the Task Scheduler 2.0 schema): weekly calendar triggers, and an Exec of node with its arguments. */
export function taskDocument(task: {
  description: string;
  uri: string;
  triggers: TaskTrigger[];
  node: string;
  args: string[];
  startWhenAvailable: boolean;
  limit: string;
}): string {
  const trigger = (t: TaskTrigger) =>
    '    <CalendarTrigger>\r\n' +
    // triggerBaseType is a sequence: StartBoundary, then Repetition; the schedule after them.
    `      <StartBoundary>${t.start}</StartBoundary>\r\n` +
    (t.repeat
      ? `      <Repetition>\r\n        <Interval>${t.repeat.every}</Interval>\r\n        <Duration>${t.repeat.duration}</Duration>\r\n      </Repetition>\r\n`
      : '') +
    '      <ScheduleByWeek>\r\n' +
    '        <DaysOfWeek>\r\n' +
    t.days.map((d) => `          <${TASK_DAYS[d]} />\r\n`).join('') +
    '        </DaysOfWeek>\r\n' +
    '        <WeeksInterval>1</WeeksInterval>\r\n' +
    '      </ScheduleByWeek>\r\n' +
    '    </CalendarTrigger>\r\n';
  return (
    '<?xml version="1.0" encoding="UTF-16"?>\r\n' +
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">\r\n' +
    '  <RegistrationInfo>\r\n' +
    `    <Description>${xmlEscape(task.description)}</Description>\r\n` +
    `    <URI>\\${task.uri}</URI>\r\n` +
    '  </RegistrationInfo>\r\n' +
    '  <Triggers>\r\n' +
    task.triggers.map(trigger).join('') +
    '  </Triggers>\r\n' +
    '  <Principals>\r\n' +
    '    <Principal id="Author">\r\n' +
    '      <LogonType>InteractiveToken</LogonType>\r\n' +
    '      <RunLevel>LeastPrivilege</RunLevel>\r\n' +
    '    </Principal>\r\n' +
    '  </Principals>\r\n' +
    '  <Settings>\r\n' +
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>\r\n' +
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>\r\n' +
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>\r\n' +
    `    <StartWhenAvailable>${task.startWhenAvailable}</StartWhenAvailable>\r\n` +
    `    <ExecutionTimeLimit>${task.limit}</ExecutionTimeLimit>\r\n` +
    '    <Enabled>true</Enabled>\r\n' +
    '  </Settings>\r\n' +
    '  <Actions Context="Author">\r\n' +
    '    <Exec>\r\n' +
    `      <Command>${xmlEscape(task.node)}</Command>\r\n` +
    `      <Arguments>${xmlEscape(task.args.map(windowsQuote).join(' '))}</Arguments>\r\n` +
    '    </Exec>\r\n' +
    '  </Actions>\r\n' +
    '</Task>\r\n'
  );
}

/** The task's XML as schtasks /XML reads it: UTF-16 little-endian with its byte-order mark. */
export function utf16(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** Time and days back from a task's XML (as `schtasks /Query /XML` prints it), or from one of its triggers. */
export function parseTaskXml(text: string): { at: TimeOfDay; days: number[] } | undefined {
  const start = /<StartBoundary>\d{4}-\d\d-\d\dT(\d\d):(\d\d)/.exec(text);
  const block = /<DaysOfWeek>([\s\S]*?)<\/DaysOfWeek>/.exec(text);
  if (!start || !block) return undefined;
  const days = TASK_DAYS.map((name, i) => (new RegExp(`<${name}\\s*/>`).test(block[1]!) ? i : -1)).filter((d) => d >= 0);
  return { at: { hour: Number(start[1]), minute: Number(start[2]) }, days };
}
