// What `checkin remind install` writes, for each scheduler: a systemd user timer and its service,
// a crontab line, a launchd agent, a Task Scheduler task. Pure: text in, text out (and back: status
// reads the time and days from what was written).
import { UsageError } from '../errors.js';
import type { JobNames } from './scheduled.js';
import { cronEscape, cronTime, noControls, program, schedulable, shellCommand, type TimeOfDay } from './schedule.js';

/** The names everything installed goes by. */
export const UNIT = 'checkin-remind';
export const CRON_TAG = '# checkin-remind';
export const LAUNCHD_LABEL = 'checkin.remind';
export const TASK_NAME = 'checkin-remind';
/** The names the reminder goes by in what installs, finds and removes it (scheduled.ts). */
export const REMIND: JobNames = { unit: UNIT, label: LAUNCHD_LABEL, what: 'the reminder', install: 'checkin remind install' };

/** What the scheduler runs, and with what. */
export interface Job {
  at: TimeOfDay;
  /** Weekdays, 0 = Sunday … 6 = Saturday. */
  days: number[];
  /** Node, or the single executable (then no script). */
  node: string;
  script?: string;
  env: Record<string, string>;
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

/** OnCalendar= for the time on the days (in `zone` when given, an IANA name systemd understands). */
export function onCalendar(at: TimeOfDay, days: number[], zone?: string): string {
  const dayList = days.length === 7 ? '' : `${days.map((d) => SYSTEMD_DAYS[d]).join(',')} `;
  const hh = String(at.hour).padStart(2, '0');
  const mm = String(at.minute).padStart(2, '0');
  return `${dayList}*-*-* ${hh}:${mm}:00${zone ? ` ${zone}` : ''}`;
}

/** Time and days back from OnCalendar= as onCalendar() writes it. */
export function parseOnCalendar(line: string): { at: TimeOfDay; days: number[] } | undefined {
  const m = /^(?:([A-Za-z,]+) )?\*-\*-\* (\d\d):(\d\d):00(?: \S+)?$/.exec(line.trim());
  if (!m) return undefined;
  const days = m[1] ? m[1].split(',').map((d) => SYSTEMD_DAYS.indexOf(d)) : [0, 1, 2, 3, 4, 5, 6];
  if (days.some((d) => d < 0)) return undefined;
  return { at: { hour: Number(m[2]), minute: Number(m[3]) }, days };
}

/**
 * A service's Environment= lines and its ExecStart= (node, the script, `args`), each word quoted as
 * systemd reads it; what systemd cannot start is refused with what to do instead.
 */
export function systemdCommand(job: { node: string; script?: string | undefined; env: Record<string, string> }, args: string[]): { env: string; exec: string } {
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

export function systemdService(job: Job): string {
  const { env, exec } = systemdCommand(job, RUN_ARGS);
  return (
    '# Written by `checkin remind install`; `checkin remind remove` removes it.\n' +
    '[Unit]\n' +
    "Description=checkin: remind me when today's check-in is pending\n" +
    '\n' +
    '[Service]\n' +
    'Type=oneshot\n' +
    // A oneshot may otherwise run for ever: the check is one request (and a retry or two).
    'TimeoutStartSec=2min\n' +
    env +
    `ExecStart=${exec}\n`
  );
}

export function systemdTimer(job: Job, zone?: string): string {
  return (
    '# Written by `checkin remind install`; `checkin remind remove` removes it.\n' +
    '[Unit]\n' +
    "Description=checkin: remind me when today's check-in is pending\n" +
    '\n' +
    '[Timer]\n' +
    `OnCalendar=${onCalendar(job.at, job.days, zone)}\n` +
    // A run missed while the machine was off or asleep happens when it is back.
    'Persistent=true\n' +
    '\n' +
    '[Install]\n' +
    'WantedBy=timers.target\n'
  );
}

// ---- crontab ---------------------------------------------------------------------------------

export function cronReminderLine(job: Job): string {
  schedulable(job.env, job.node, job.script);
  const days = job.days.length === 7 ? '*' : job.days.join(',');
  return `${cronEscape(`${cronTime(job.at, days)} ${shellCommand(job.env, [...program(job.node, job.script), ...RUN_ARGS])}`)} ${CRON_TAG}`;
}

export const isReminderLine = (line: string) => line.trimEnd().endsWith(CRON_TAG);

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
export function plistCommand(label: string, job: { node: string; script?: string | undefined; env: Record<string, string> }, args: string[]): string {
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

/** The lines around a plist's one dict. */
export const PLIST_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
  '<plist version="1.0">\n' +
  '<dict>\n';
export const PLIST_TAIL = '</dict>\n</plist>\n';

export function launchdPlist(job: Job): string {
  // launchd's Weekday: 0 (or 7) is Sunday, as in cron.
  const intervals = job.days
    .map(
      (d) =>
        `\t\t<dict>\n\t\t\t<key>Weekday</key>\n\t\t\t<integer>${d}</integer>\n\t\t\t<key>Hour</key>\n\t\t\t<integer>${job.at.hour}</integer>\n\t\t\t<key>Minute</key>\n\t\t\t<integer>${job.at.minute}</integer>\n\t\t</dict>\n`,
    )
    .join('');
  return PLIST_HEAD + plistCommand(LAUNCHD_LABEL, job, RUN_ARGS) + `\t<key>StartCalendarInterval</key>\n\t<array>\n${intervals}\t</array>\n` + PLIST_TAIL;
}

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
  const args = [...program(job.node, job.script).slice(1), ...RUN_ARGS, ...Object.entries(job.env).flatMap(([k, v]) => ['--env', `${k}=${v}`])];
  return taskDocument({
    description: "checkin: remind me when today's check-in is pending",
    uri: TASK_NAME,
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

/** Time and days back from a task's XML (as `schtasks /Query /XML` prints it). */
export function parseTaskXml(text: string): { at: TimeOfDay; days: number[] } | undefined {
  const start = /<StartBoundary>\d{4}-\d\d-\d\dT(\d\d):(\d\d)/.exec(text);
  const block = /<DaysOfWeek>([\s\S]*?)<\/DaysOfWeek>/.exec(text);
  if (!start || !block) return undefined;
  const days = TASK_DAYS.map((name, i) => (new RegExp(`<${name}\\s*/>`).test(block[1]!) ? i : -1)).filter((d) => d >= 0);
  return { at: { hour: Number(start[1]), minute: Number(start[2]) }, days };
}
