// What `checkin notify install` writes, for each scheduler: `checkin notify --once` every few
// minutes on working days, only at the hours outside the quiet ones (the quiet hours are handed to
// the run too: it decides at the minute, and on days with nothing scheduled). A systemd user timer
// and its service, a crontab line, a launchd agent, a Task Scheduler task. Pure: text in, text out,
// and back (status reads the schedule from what was written: installedNotices). The quoting and the
// frames every job's files share (the oneshot service, the timer, the crontab line, the agent, the
// task) are reminder-units.ts's; the steps that install them scheduled.ts's.
import { inQuietHours, parseQuietHours } from '../core/quiet-hours.js';
import { UsageError } from '../errors.js';
import {
  calendarDays,
  calendarOn,
  calendarTimer,
  cronDays,
  cronJobLine,
  launchdAgent,
  oneshotService,
  parseTaskXml,
  taskDocument,
  type CalendarInterval,
  type JobCommand,
  type TaskTrigger,
} from './reminder-units.js';
import { formatAt, formatDays, program, runEnvArgs, schedulable } from './schedule.js';
import type { Host } from './programs.js';
import { installedJobs, type Installed, type JobNames, type ScheduleReaders } from './scheduled.js';

/** The names the notices' job goes by. */
export const NOTIFY: JobNames = {
  unit: 'checkin-notify',
  label: 'checkin.notify',
  what: 'the notices',
  install: 'checkin notify install',
  remove: 'checkin notify uninstall',
};
/** What the notices' units and task say they are. */
const DESCRIPTION = 'checkin: a notice when something new needs you (comments, mentions, replies, blockers)';

/** The fewest minutes between two looks: the service's budget is per person, shared with everything else checkin does. */
export const MIN_EVERY = 5;

/** When the job runs: on `days` (0 = Sunday), at each of `hours` at each of `minutes`; `quiet` ("19:00-08:00") handed to the run. */
export interface NoticeTimes {
  days: number[];
  hours: number[];
  minutes: number[];
  quiet?: string | undefined;
}

/** What the scheduler runs, and when. */
export interface NoticeJob extends JobCommand {
  times: NoticeTimes;
}

// ---- the flags -----------------------------------------------------------------------------------

/**
 * --every as minutes: "5m", "10min", "1h", "90" (minutes). At least MIN_EVERY; a span that divides
 * an hour, or whole hours, so that two runs are never closer than it (7 min from :56 would be 4
 * min to the next hour's :00).
 */
export function parseEvery(text: string): number {
  const m = /^\s*(\d{1,4})\s*(m|min|mins|minutes?|h|hours?)?\s*$/i.exec(text);
  if (!m) throw new UsageError(`--every must be a span such as 5m, 15m or 1h, got "${text}"`);
  const minutes = Number(m[1]) * (m[2] && /^h/i.test(m[2]) ? 60 : 1);
  if (minutes < MIN_EVERY)
    throw new UsageError(
      `--every must be at least ${MIN_EVERY} minutes, got "${text}"`,
      'Each look is a request counted against your rate budget: 5m is often enough to be told in time.',
    );
  if (minutes < 60 ? 60 % minutes !== 0 : minutes % 60 !== 0 || minutes > 12 * 60)
    throw new UsageError(
      `--every must divide an hour (5m, 6m, 10m, 12m, 15m, 20m, 30m) or be whole hours up to 12h, got "${text}"`,
      'The scheduler fires at the same minutes of every hour: another span would bring two runs closer than it.',
    );
  return minutes;
}

/**
 * The hours and minutes the scheduler fires at: every `every` minutes, at the hours that hold a
 * run outside the quiet hours (a run that falls in them at their edge is the run's to keep quiet).
 * Whole hours are counted from the end of the quiet hours (08:00, 10:00 … for 2h after 19:00-08:00).
 */
export function noticeTimes(every: number, days: number[], quietText: string | undefined): NoticeTimes {
  const quiet = quietText === undefined ? undefined : parseQuietHours(quietText);
  let hours: number[];
  let minutes: number[];
  if (every < 60) {
    minutes = Array.from({ length: 60 / every }, (_, i) => i * every);
    hours = Array.from({ length: 24 }, (_, h) => h).filter((h) => minutes.some((m) => !inQuietHours(quiet, h * 60 + m)));
  } else {
    const step = every / 60;
    const first = quiet ? (Math.floor(quiet.until / 60) + (quiet.until % 60 > 0 ? 1 : 0)) % 24 : 0;
    minutes = [0];
    hours = Array.from({ length: 24 }, (_, h) => h).filter((h) => (h - first + 24) % step === 0 && !inQuietHours(quiet, h * 60));
  }
  if (hours.length === 0) throw new UsageError(`--quiet-hours ${quiet!.text} leave no time to look in`);
  return { days, hours, minutes, ...(quiet && { quiet: quiet.text }) };
}

/** The minutes between two runs, read back from the times. */
export function everyOf(t: NoticeTimes): number {
  if (t.minutes.length > 1) return t.minutes[1]! - t.minutes[0]!;
  const gaps = t.hours.slice(1).map((h, i) => h - t.hours[i]!);
  return (gaps.length > 0 ? Math.min(...gaps) : 24) * 60;
}

/** The minutes of the day it fires at, in order. */
export const firesOf = (t: NoticeTimes): number[] => t.hours.flatMap((h) => t.minutes.map((m) => h * 60 + m));

/** "every 5 min, 08:00–18:55, Mon–Fri; quiet hours 19:00-08:00": the schedule as status says it. */
export function describeTimes(t: NoticeTimes): string {
  const every = everyOf(t);
  const fires = firesOf(t);
  const at = (m: number) => formatAt({ hour: Math.floor(m / 60), minute: m % 60 });
  const span = every >= 60 ? `${every / 60} h` : `${every} min`;
  return `every ${span}, ${at(fires[0]!)}–${at(fires[fires.length - 1]!)}, ${formatDays(t.days)}${t.quiet ? `; quiet hours ${t.quiet}` : ''}`;
}

/** What the scheduler runs after the script. */
export const runArgs = (t: NoticeTimes): string[] => ['notify', '--once', ...(t.quiet ? ['--quiet-hours', t.quiet] : [])];

/** The quiet hours back from a command's words. */
function quietOf(words: string[]): string | undefined {
  const i = words.indexOf('--quiet-hours');
  return i >= 0 && i + 1 < words.length ? words[i + 1] : undefined;
}

// ---- ranges as schedulers write them -------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');

/** Runs of consecutive numbers: [8,9,10,13] → [[8,10],[13,13]]. */
function runs(ns: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const n of ns) {
    const last = out[out.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** Numbers back from a list of values and ranges ("8..11,13", "8-11,13" for cron), with a step ("0/5", "*\/5"). */
function expand(field: string, max: number, range: string): number[] | undefined {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const m = new RegExp(`^(\\*|\\d+)(?:${range.replace(/\./g, '\\.')}(\\d+))?(?:/(\\d+))?$`).exec(part);
    if (!m) return undefined;
    const from = m[1] === '*' ? 0 : Number(m[1]);
    const to = m[2] !== undefined ? Number(m[2]) : m[3] !== undefined || m[1] === '*' ? max : from;
    const step = m[3] !== undefined ? Number(m[3]) : 1;
    if (step < 1 || to > max) return undefined;
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/** Minutes as one field: "00" or "00/5" (every `step` from the hour). */
const minuteField = (minutes: number[], sep: string) => (minutes.length === 1 ? pad(minutes[0]!) : `${sep}/${minutes[1]! - minutes[0]!}`);

// ---- systemd (systemd.time(7), systemd.timer(5)) ------------------------------------------------

/** OnCalendar= for the times: "Mon,Tue,Wed,Thu,Fri *-*-* 08..18:00/5:00 Europe/Berlin". */
export function noticeCalendar(t: NoticeTimes, zone?: string): string {
  const hours = runs(t.hours)
    .map(([a, b]) => (a === b ? pad(a) : `${pad(a)}..${pad(b)}`))
    .join(',');
  return calendarOn(t.days, `${hours}:${minuteField(t.minutes, '00')}`, zone);
}

/** The times back from OnCalendar= as noticeCalendar() writes it (the quiet hours are the service's). */
export function parseNoticeCalendar(line: string): Omit<NoticeTimes, 'quiet'> | undefined {
  const m = /^(?:([A-Za-z,]+) )?\*-\*-\* ([\d.,]+):([\d/]+):00(?: \S+)?$/.exec(line.trim());
  if (!m) return undefined;
  const days = calendarDays(m[1]);
  const hours = expand(m[2]!, 23, '..');
  const minutes = expand(m[3]!, 59, '..');
  if (!days || !hours || !minutes) return undefined;
  return { days, hours, minutes };
}

export const noticeService = (job: NoticeJob): string => oneshotService(NOTIFY, DESCRIPTION, job, runArgs(job.times));

// Not Persistent=: a look missed while the machine slept is not made up at wake (maybe in the quiet
// hours); the next one is minutes away.
export const noticeTimer = (job: NoticeJob, zone?: string): string => calendarTimer(NOTIFY, DESCRIPTION, noticeCalendar(job.times, zone), false);

/** The times back from the timer and its service (which carries the quiet hours). */
export function parseNoticeUnits(timer: string, service: string): NoticeTimes | undefined {
  const line = /^OnCalendar=(.*)$/m.exec(timer)?.[1];
  const t = line ? parseNoticeCalendar(line) : undefined;
  if (!t) return undefined;
  const exec = /^ExecStart=(.*)$/m.exec(service)?.[1] ?? '';
  const quiet = /"--quiet-hours" "([\d:-]+)"/.exec(exec)?.[1];
  return { ...t, ...(quiet && { quiet }) };
}

// ---- crontab -----------------------------------------------------------------------------------

export function cronNoticeLine(job: NoticeJob): string {
  const t = job.times;
  const hours =
    t.hours.length === 24
      ? '*'
      : runs(t.hours)
          .map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
          .join(',');
  const minutes = t.minutes.length === 1 ? `${t.minutes[0]}` : `*/${t.minutes[1]! - t.minutes[0]!}`;
  return cronJobLine(NOTIFY, `${minutes} ${hours} * * ${cronDays(t.days)}`, job, runArgs(t));
}

/** The times back from the line cronNoticeLine() wrote. */
export function parseNoticeCron(line: string): NoticeTimes | undefined {
  const m = /^(\S+) (\S+) \* \* (\S+) /.exec(line);
  if (!m) return undefined;
  const minutes = expand(m[1]!, 59, '-');
  const hours = expand(m[2]!, 23, '-');
  const days = m[3] === '*' ? [0, 1, 2, 3, 4, 5, 6] : expand(m[3]!, 6, '-');
  if (!minutes || !hours || !days) return undefined;
  const quiet = / --quiet-hours ([\d:-]+) /.exec(line)?.[1];
  return { days, hours, minutes, ...(quiet && { quiet }) };
}

// ---- launchd (launchd.plist(5): StartCalendarInterval, a key left out matches every value) ----------

export function noticePlist(job: NoticeJob): string {
  const t = job.times;
  const days: Array<number | undefined> = t.days.length === 7 ? [undefined] : t.days;
  const hours: Array<number | undefined> = t.hours.length === 24 ? [undefined] : t.hours;
  const intervals = days.flatMap((weekday) => hours.flatMap((hour) => t.minutes.map((minute): CalendarInterval => ({ weekday, hour, minute }))));
  return launchdAgent(NOTIFY.label, job, runArgs(t), intervals);
}

/** The times back from the plist noticePlist() wrote. */
export function parseNoticePlist(text: string): NoticeTimes | undefined {
  const block = /<key>StartCalendarInterval<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text)?.[1];
  if (!block) return undefined;
  const days = new Set<number>();
  const hours = new Set<number>();
  const minutes = new Set<number>();
  for (const [, dict] of block.matchAll(/<dict>([\s\S]*?)<\/dict>/g)) {
    const key = (k: string) => /<integer>(\d+)<\/integer>/.exec(dict!.split(`<key>${k}</key>`)[1] ?? '')?.[1];
    const d = key('Weekday');
    const h = key('Hour');
    const m = key('Minute');
    if (m === undefined) return undefined;
    (d === undefined ? [0, 1, 2, 3, 4, 5, 6] : [Number(d) % 7]).forEach((x) => days.add(x));
    (h === undefined ? Array.from({ length: 24 }, (_, i) => i) : [Number(h)]).forEach((x) => hours.add(x));
    minutes.add(Number(m));
  }
  if (minutes.size === 0) return undefined;
  const args = [...(/<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text)?.[1] ?? '').matchAll(/<string>([^<]*)<\/string>/g)].map(
    (s) => s[1]!,
  );
  const quiet = quietOf(args);
  const sort = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { days: sort(days), hours: sort(hours), minutes: sort(minutes), ...(quiet && { quiet }) };
}

// ---- Task Scheduler ------------------------------------------------------------------------------

/** ISO 8601 minutes: PT10H55M. */
const isoMinutes = (n: number) => `PT${n >= 60 ? `${Math.floor(n / 60)}H` : ''}${n % 60 || n < 60 ? `${n % 60}M` : ''}`;

/**
 * The task: one weekly trigger per hour it fires in, from the hour's first run, again every `every`
 * until its last (the duration ends a minute after it, so that no run falls on its end). Never a
 * repetition across hours: Microsoft leaves what a trigger does on the days the clocks change
 * unspecified, and a duration counted in elapsed time would end an hour late or early on those days
 * (a look lost, or one in the quiet hours); a trigger at each hour's wall-clock time keeps the slip
 * to the hour of the change. At most 24 triggers (the schema's Triggers takes up to 48). A task has
 * no environment of its own: what the run needs goes on its command line (`notify --once --env
 * NAME=VALUE`), as the reminder's does. `start` is the day the triggers start from.
 */
export function noticeTaskXml(job: NoticeJob, start: string): string {
  schedulable(job.env, job.node, job.script);
  const t = job.times;
  const every = everyOf(t);
  const first = t.minutes[0]!;
  const last = t.minutes[t.minutes.length - 1]!;
  const triggers: TaskTrigger[] = t.hours.map((h) => ({
    start: `${start}T${pad(h)}:${pad(first)}:00`,
    days: t.days,
    ...(last > first && { repeat: { every: isoMinutes(every), duration: isoMinutes(last - first + 1) } }),
  }));
  return taskDocument({
    description: DESCRIPTION,
    uri: NOTIFY.unit,
    triggers,
    node: job.node,
    args: [...program(job.node, job.script).slice(1), ...runArgs(t), ...runEnvArgs(job.env)],
    // A look missed while the machine was off is not made up: the next one is minutes away.
    startWhenAvailable: false,
    limit: 'PT2M',
  });
}

/** Minutes back from an ISO 8601 duration as isoMinutes() writes it. */
const minutesOfIso = (d: string) => {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?$/.exec(d);
  return m ? Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) : undefined;
};

/** The times back from a task's XML (as `schtasks /Query /XML` prints it). */
export function parseNoticeTaskXml(text: string): NoticeTimes | undefined {
  const fires = new Set<number>();
  let days: number[] | undefined;
  for (const [, trigger] of text.matchAll(/<CalendarTrigger>([\s\S]*?)<\/CalendarTrigger>/g)) {
    const one = parseTaskXml(trigger!);
    if (!one) return undefined;
    days = one.days;
    const first = one.at.hour * 60 + one.at.minute;
    const every = minutesOfIso(/<Interval>([^<]+)<\/Interval>/.exec(trigger!)?.[1] ?? '');
    const duration = minutesOfIso(/<Duration>([^<]+)<\/Duration>/.exec(trigger!)?.[1] ?? '');
    if (every && duration) for (let f = first; f < first + duration; f += every) fires.add(f);
    else fires.add(first);
  }
  if (!days || fires.size === 0) return undefined;
  const sorted = [...fires].sort((a, b) => a - b);
  const hours = [...new Set(sorted.map((f) => Math.floor(f / 60)))];
  const minutes = [...new Set(sorted.map((f) => f % 60))].sort((a, b) => a - b);
  const args = /<Arguments>([^<]*)<\/Arguments>/.exec(text)?.[1] ?? '';
  const quiet = / --quiet-hours ([\d:-]+)/.exec(args)?.[1];
  return { days, hours, minutes, ...(quiet && { quiet }) };
}

// ---- what is installed ---------------------------------------------------------------------------

const READERS: ScheduleReaders<NoticeTimes> = {
  timer: parseNoticeUnits,
  cron: parseNoticeCron,
  plist: parseNoticePlist,
  task: parseNoticeTaskXml,
};

/** What is installed of the notices' job; with `dry`, nothing is read or run and what would be is pushed onto it instead. */
export const installedNotices = (host: Host, dry: string[] | undefined): Promise<Array<Installed<NoticeTimes>>> => installedJobs(host, NOTIFY, READERS, dry);
