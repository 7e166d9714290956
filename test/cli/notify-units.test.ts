// `checkin notify install|uninstall|status`: what it writes for each scheduler, read back as each
// scheduler reads it — systemd-analyze itself for the timer's calendar and both units, a strict plist
// reader for the launchd agent, the task schema's structure for Task Scheduler — and the built CLI
// on Linux with stand-ins for systemctl and crontab first on PATH, in a temporary HOME: install,
// status (and --json), install again (replaces), uninstall (nothing left). macOS and Windows are
// played by a stand-in host: nothing was run on those systems.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runNotifyInstall, runNotifyStatus, runNotifyUninstall } from '../../src/commands/notify/install.js';
import { createContext } from '../../src/context.js';
import {
  cronNoticeLine,
  describeTimes,
  noticeCalendar,
  noticePlist,
  noticeService,
  noticeTaskXml,
  noticeTimer,
  noticeTimes,
  parseEvery,
  parseNoticeCalendar,
  parseNoticeCron,
  parseNoticePlist,
  parseNoticeTaskXml,
  parseNoticeUnits,
  type NoticeJob,
} from '../../src/system/notify-units.js';
import { utf16 } from '../../src/system/reminder-units.js';
import { machineZone } from '../../src/system/programs.js';
import { parseQuietHours } from '../../src/core/quiet-hours.js';
import { CLI_WORDS, CLI_WORDS_RE, runCli } from '../helpers/cli.js';
import { bufferIO } from '../helpers/io.js';
import { expectVerified, expectVerifiedWithOddPaths, fakeHost, hasAnalyze, ODD_COMMAND, standIns, tree, unitDir } from '../helpers/remind.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { parseXml, plistValue, TASK_NS, windowsArgv, type El } from '../helpers/xml.js';

const run = promisify(execFile);
const WEEKDAYS = [1, 2, 3, 4, 5];
const HOURS_8_TO_18 = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
const EVERY_5 = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55];

describe('--every and --quiet-hours', () => {
  it.each([
    ['5m', 5],
    ['5', 5],
    ['10min', 10],
    ['15 minutes', 15],
    ['30m', 30],
    ['60m', 60],
    ['1h', 60],
    ['2h', 120],
  ])('--every %s is %i minutes', (text, minutes) => {
    expect(parseEvery(text)).toBe(minutes);
  });

  it('less than 5 minutes is refused (a usage error: exit 2), and so is a span the hours cannot repeat evenly', () => {
    for (const text of ['4m', '1m', '0', '3 min']) expect(() => parseEvery(text)).toThrow(`--every must be at least 5 minutes, got "${text}"`);
    for (const text of ['7m', '25m', '45m', '90m', '13h'])
      expect(() => parseEvery(text)).toThrow(/^--every must divide an hour \(5m, 6m, 10m, 12m, 15m, 20m, 30m\) or be whole hours up to 12h/);
    for (const text of ['', 'often', '5s', '-5m', '5m5']) expect(() => parseEvery(text)).toThrow(/^--every must be a span such as 5m, 15m or 1h/);
  });

  it('quiet hours are two times; the same time twice is refused', () => {
    expect(parseQuietHours('19:00-8:00').text).toBe('19:00-08:00');
    for (const text of ['19-08', '19:00', '19:00-08:00-09:00', '25:00-08:00', ''])
      expect(() => parseQuietHours(text)).toThrow(/^--quiet-hours must be two times/);
    expect(() => parseQuietHours('08:00-08:00')).toThrow('--quiet-hours must start and end at different times, got "08:00-08:00"');
  });

  it('the timer fires only at the hours outside the quiet ones; the run gets them for the minutes at their edge', () => {
    expect(noticeTimes(5, WEEKDAYS, '19:00-08:00')).toEqual({ days: WEEKDAYS, hours: HOURS_8_TO_18, minutes: EVERY_5, quiet: '19:00-08:00' });
    // Quiet from 19:30: the 19 o'clock hour still holds runs (19:00–19:25).
    expect(noticeTimes(15, WEEKDAYS, '19:30-07:45').hours).toEqual([7, ...HOURS_8_TO_18, 19]);
    // Lunch: two stretches.
    expect(noticeTimes(30, [1], '12:00-13:00').hours).toEqual([...Array(12).keys(), ...Array.from({ length: 11 }, (_, i) => 13 + i)]);
    // Whole hours count from the end of the quiet hours.
    expect(noticeTimes(120, WEEKDAYS, '19:00-08:00')).toMatchObject({ hours: [8, 10, 12, 14, 16, 18], minutes: [0] });
    expect(noticeTimes(60, [0, 1, 2, 3, 4, 5, 6], undefined)).toEqual({ days: [0, 1, 2, 3, 4, 5, 6], hours: [...Array(24).keys()], minutes: [0] });
    expect(() => noticeTimes(5, WEEKDAYS, '08:00-07:59')).toThrow('--quiet-hours 08:00-07:59 leave no time to look in');
    expect(describeTimes(noticeTimes(5, WEEKDAYS, '19:00-08:00'))).toBe('every 5 min, 08:00–18:55, Mon–Fri; quiet hours 19:00-08:00');
    expect(describeTimes(noticeTimes(120, [0, 6], undefined))).toBe('every 2 h, 00:00–22:00, Sat, Sun');
  });
});

const JOB: NoticeJob = { times: noticeTimes(5, WEEKDAYS, '19:00-08:00'), ...ODD_COMMAND };

describe('systemd units', () => {
  it('OnCalendar= is read back as written, and systemd reads it as the same days, hours and minutes', async () => {
    for (const t of [
      JOB.times,
      noticeTimes(30, [1], '12:00-13:00'),
      noticeTimes(120, [0, 6], undefined),
      noticeTimes(10, [0, 1, 2, 3, 4, 5, 6], '22:00-06:30'),
    ]) {
      const { quiet: _quiet, ...times } = t;
      expect(parseNoticeCalendar(noticeCalendar(t, 'Europe/Berlin'))).toEqual(times);
    }
    expect(noticeCalendar(JOB.times)).toBe('Mon,Tue,Wed,Thu,Fri *-*-* 08..18:00/5:00');
    // A range is two dots, both of them: "08.518" is no range (nor 8 to 18).
    expect(parseNoticeCalendar('Mon *-*-* 08.518:00:00')).toBeUndefined();
    expect(noticeCalendar(noticeTimes(30, [1], '12:00-13:00'))).toBe('Mon *-*-* 00..11,13..23:00/30:00');
    if (!(await hasAnalyze())) return console.warn('systemd-analyze is not installed: calendar not checked by systemd');
    // Each of the next runs systemd computes is on a weekday, between 08:00 and 18:55, 5 minutes apart within the hour.
    const r = await run('systemd-analyze', ['calendar', '--iterations=30', noticeCalendar(JOB.times, 'UTC')], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    });
    expect(r.stdout).toContain('Normalized form: Mon..Fri *-*-* 08..18:00/5:00 UTC');
    const fires = [...r.stdout.matchAll(/(?:Next elapse|Iter\. #\d+): (\w{3}) \d{4}-\d\d-\d\d (\d\d):(\d\d):00 UTC/g)];
    expect(fires).toHaveLength(30);
    for (const [, day, hh, mm] of fires) {
      expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(day);
      expect(HOURS_8_TO_18).toContain(Number(hh));
      expect(Number(mm) % 5).toBe(0);
    }
    const lunch = await run('systemd-analyze', ['calendar', '--iterations=3', noticeCalendar(noticeTimes(30, [1], '12:00-13:00'))], { encoding: 'utf8' });
    expect(lunch.stdout).toContain('Normalized form: Mon *-*-* 00..11,13..23:00/30:00');
  });

  it('systemd-analyze verify reads the timer and the service with paths that need every escape: no complaint, the executable found', () =>
    expectVerifiedWithOddPaths('checkin-notify', (node) => ({
      service: noticeService({ ...JOB, node }),
      timer: noticeTimer({ ...JOB, node }, 'Europe/Berlin'),
    })));

  it('the service runs `notify --once` with the quiet hours; the timer is not Persistent= (a look missed asleep is not made up); both read back', () => {
    const service = noticeService(JOB);
    expect(service).toContain('\nType=oneshot\nTimeoutStartSec=2min\n');
    expect(service).toContain(
      '\nExecStart="/opt/node 20/bin/node" "/home/ada/my \\"tools\\" 100%% $$HOME\\\\checkin/bin/checkin.js" "notify" "--once" "--quiet-hours" "19:00-08:00"\n',
    );
    const timer = noticeTimer(JOB, 'Europe/Berlin');
    expect(timer).toContain('\n[Timer]\nOnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 08..18:00/5:00 Europe/Berlin\n');
    expect(timer).not.toContain('Persistent');
    expect(parseNoticeUnits(timer, service)).toEqual(JOB.times);
    const noQuiet = { ...JOB, times: noticeTimes(10, WEEKDAYS, undefined) };
    expect(noticeService(noQuiet)).toMatch(/ "notify" "--once"\n/);
    expect(parseNoticeUnits(noticeTimer(noQuiet), noticeService(noQuiet))).toEqual(noQuiet.times);
  });
});

describe('the crontab line', () => {
  it('names the minutes, hours and days, the run with its quiet hours, and reads back', () => {
    const job = { ...JOB, script: '/opt/checkin/bin/checkin.js', env: { HOME: '/home/ada', TZ: 'UTC' } };
    expect(cronNoticeLine(job)).toBe(
      "*/5 8-18 * * 1,2,3,4,5 HOME=/home/ada TZ=UTC '/opt/node 20/bin/node' /opt/checkin/bin/checkin.js notify --once --quiet-hours 19:00-08:00 # checkin-notify",
    );
    expect(parseNoticeCron(cronNoticeLine(job))).toEqual(JOB.times);
    const lunch = { ...job, times: noticeTimes(60, [0, 1, 2, 3, 4, 5, 6], '12:00-13:00') };
    expect(cronNoticeLine(lunch)).toMatch(/^0 0-11,13-23 \* \* \* /);
    expect(parseNoticeCron(cronNoticeLine(lunch))).toEqual(lunch.times);
  });
});

describe('the launchd agent', () => {
  it('is a well-formed XML plist with one StartCalendarInterval entry per weekday, hour and minute, and reads back', () => {
    const doc = parseXml(noticePlist(JOB));
    expect(doc.doctype).toBe('<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">');
    expect(doc.root.name).toBe('plist');
    const value = plistValue(doc.root.children[0]!) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['Label', 'ProgramArguments', 'EnvironmentVariables', 'StartCalendarInterval']);
    expect(value.Label).toBe('checkin.notify');
    expect(value.ProgramArguments).toEqual([JOB.node, JOB.script, 'notify', '--once', '--quiet-hours', '19:00-08:00']);
    expect(value.EnvironmentVariables).toEqual(JOB.env);
    const intervals = value.StartCalendarInterval as Array<Record<string, number>>;
    expect(intervals).toHaveLength(5 * 11 * 12);
    expect(intervals[0]).toEqual({ Weekday: 1, Hour: 8, Minute: 0 });
    expect(intervals[intervals.length - 1]).toEqual({ Weekday: 5, Hour: 18, Minute: 55 });
    expect(parseNoticePlist(noticePlist(JOB))).toEqual(JOB.times);
    // Every day and every hour: those keys are left out (launchd reads a missing key as every value).
    const hourly = { ...JOB, times: noticeTimes(15, [0, 1, 2, 3, 4, 5, 6], undefined) };
    const all = plistValue(parseXml(noticePlist(hourly)).root.children[0]!) as Record<string, unknown>;
    expect(all.StartCalendarInterval).toEqual([{ Minute: 0 }, { Minute: 15 }, { Minute: 30 }, { Minute: 45 }]);
    expect(parseNoticePlist(noticePlist(hourly))).toEqual(hourly.times);
  });
});

describe('the Task Scheduler task', () => {
  const child = (el: El, name: string) => {
    const found = el.children.filter((c) => c.name === name);
    expect(found, `<${el.name}> has one <${name}>`).toHaveLength(1);
    return found[0]!;
  };

  it('one weekly trigger per stretch of runs, repeating every few minutes within it, in the order the schema requires; reads back', () => {
    const job = {
      ...JOB,
      times: noticeTimes(5, WEEKDAYS, '12:00-13:00'),
      node: 'C:\\Program Files\\nodejs\\node.exe',
      script: 'C:\\Users\\Ada L\\checkin\\bin\\checkin.js',
      env: {
        CHECKIN_PROFILE: 'client a',
        CHECKIN_CONFIG_DIR: 'C:\\Users\\Ada L\\conf "x"',
        CHECKIN_API_URL: 'http://127.0.0.1:4280/api/v2',
        TZ: 'Europe/Berlin',
      },
    };
    const xml = noticeTaskXml(job, '2026-12-07');
    const bytes = utf16(xml);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const task = parseXml(bytes.subarray(2).toString('utf16le')).root;
    expect(task.attrs).toEqual({ version: '1.2', xmlns: TASK_NS });
    expect(task.children.map((c) => c.name).sort()).toEqual(['Actions', 'Principals', 'RegistrationInfo', 'Settings', 'Triggers']);
    const triggers = child(task, 'Triggers').children;
    // One trigger an hour, from its wall-clock start: a repetition's duration may be counted in elapsed
    // time (Microsoft leaves the days the clocks change unspecified), so none spans the hour a clock
    // change can fall in — a stretch from 00:00 would end an hour off on those days.
    const hours = [...Array(12).keys(), ...Array.from({ length: 11 }, (_, i) => 13 + i)];
    expect(triggers.map((t) => t.name)).toEqual(hours.map(() => 'CalendarTrigger'));
    // triggerBaseType is a sequence (Enabled?, StartBoundary?, EndBoundary?, Repetition?, …), then the schedule.
    for (const t of triggers) expect(t.children.map((c) => c.name)).toEqual(['StartBoundary', 'Repetition', 'ScheduleByWeek']);
    expect(triggers.map((t) => child(t, 'StartBoundary').text)).toEqual(hours.map((h) => `2026-12-07T${String(h).padStart(2, '0')}:00:00`));
    // From :00 to :55 and a minute: the last run is :55, none falls on the end.
    for (const t of triggers)
      expect([child(child(t, 'Repetition'), 'Interval').text, child(child(t, 'Repetition'), 'Duration').text]).toEqual(['PT5M', 'PT56M']);
    expect(child(child(triggers[0]!, 'ScheduleByWeek'), 'DaysOfWeek').children.map((d) => d.name)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
    ]);
    const exec = child(child(task, 'Actions'), 'Exec');
    expect(child(exec, 'Command').text).toBe('C:\\Program Files\\nodejs\\node.exe');
    // The task has no environment: the run is handed it on its command line (`--env`, as the reminder's), which Windows splits back.
    expect(windowsArgv(child(exec, 'Arguments').text)).toEqual([
      job.script,
      'notify',
      '--once',
      '--quiet-hours',
      '12:00-13:00',
      ...Object.entries(job.env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ]);
    expect(child(child(task, 'Settings'), 'StartWhenAvailable').text).toBe('false');
    expect(parseNoticeTaskXml(xml)).toEqual(job.times);
    // Every 2 hours: a trigger at each, none repeating.
    const two = { ...job, times: noticeTimes(120, WEEKDAYS, '19:00-08:00') };
    const twoTask = parseXml(noticeTaskXml(two, '2026-12-07')).root;
    expect(child(twoTask, 'Triggers').children.map((t) => [child(t, 'StartBoundary').text.slice(11), t.children.some((c) => c.name === 'Repetition')])).toEqual(
      [8, 10, 12, 14, 16, 18].map((h) => [`${String(h).padStart(2, '0')}:00:00`, false]),
    );
    expect(parseNoticeTaskXml(noticeTaskXml(two, '2026-12-07'))).toEqual(two.times);
    const daily = { ...job, times: noticeTimes(10, [0, 1, 2, 3, 4, 5, 6], undefined) };
    expect(parseNoticeTaskXml(noticeTaskXml(daily, '2026-12-07'))).toEqual(daily.times);
  });
});

// ---- macOS and Windows played by a stand-in host (nothing runs there) ----

let env: NodeJS.ProcessEnv;
useSandboxEnv((_s, e) => (env = e));

/** A run in-process at a fixed Friday noon (UTC: tests run with TZ=UTC), for what status says. */
function context() {
  const io = bufferIO();
  return { io, ctx: createContext({ io, env, now: () => new Date('2026-11-20T12:00:00Z') }) };
}

describe('macOS: a launchd agent, loaded with launchctl bootstrap and taken out with bootout', () => {
  it('install → status → install again → uninstall', async () => {
    const plist = join(env.HOME!, 'Library', 'LaunchAgents', 'checkin.notify.plist');
    const { host, calls } = fakeHost('darwin', env);
    const a = context();
    await runNotifyInstall(a.ctx, { every: '10m', days: 'mon-fri', quietHours: '19:00-08:00' }, host);
    expect(a.io.stdoutText()).toBe(
      'Installed a launchd agent: every 10 min, 08:00–18:50, Mon–Fri; quiet hours 19:00-08:00.\nNext look: Fri 2026-11-20 12:10 (in 10 min). `checkin notify status` shows it; `checkin notify uninstall` takes it out.\n',
    );
    expect(calls).toEqual([['/usr/bin/launchctl', 'bootstrap', 'gui/501', plist]]);
    const s = context();
    await runNotifyStatus(s.ctx, {}, host);
    expect(s.io.stdoutText()).toBe(
      `Installed: a launchd agent: every 10 min, 08:00–18:50, Mon–Fri; quiet hours 19:00-08:00\n  next look: Fri 2026-11-20 12:10 (in 10 min)\n  ${plist}\n`,
    );
    calls.length = 0;
    const again = context();
    await runNotifyInstall(again.ctx, { every: '5m', days: 'daily' }, host);
    expect(again.io.stdoutText()).toMatch(/^Installed a launchd agent: every 5 min, 00:00–23:55, every day \(it replaces the one before\)\.\n/);
    expect(calls).toEqual([
      ['/usr/bin/launchctl', 'bootout', 'gui/501/checkin.notify'],
      ['/usr/bin/launchctl', 'bootstrap', 'gui/501', plist],
    ]);
    calls.length = 0;
    const u = context();
    await runNotifyUninstall(u.ctx, {}, host);
    expect(u.io.stdoutText()).toBe('Removed a launchd agent: no more notices until `checkin notify install`.\n');
    expect(calls).toEqual([['/usr/bin/launchctl', 'bootout', 'gui/501/checkin.notify']]);
    expect(existsSync(plist)).toBe(false);
  });
});

describe('Windows: a Task Scheduler task registered with schtasks /Create /XML', () => {
  it('install hands schtasks the UTF-16 XML in a temp file and removes it; status queries it; uninstall deletes it', async () => {
    let registered: string | undefined;
    let xmlFile = '';
    const { host, calls } = fakeHost('win32', env, (_file, args) => {
      if (args[0] === '/Create') {
        xmlFile = args[4]!;
        registered = readFileSync(xmlFile).subarray(2).toString('utf16le');
      }
      if (args[0] === '/Query') return registered ? { stdout: registered } : { code: 1, stderr: 'ERROR: The system cannot find the file specified.' };
      if (args[0] === '/Delete') registered = undefined;
      return {};
    });
    await runNotifyInstall(context().ctx, { every: '15m', days: 'mon-fri', quietHours: '18:00-09:00' }, host);
    expect(calls[1]).toEqual(['C:\\Windows\\System32\\schtasks.exe', '/Create', '/TN', 'checkin-notify', '/XML', xmlFile, '/F']);
    expect(existsSync(xmlFile)).toBe(false);
    const s = context();
    await runNotifyStatus(s.ctx, { json: true }, host);
    expect(JSON.parse(s.io.stdoutText())).toEqual({
      installed: true,
      units: [
        {
          scheduler: 'schtasks',
          every_minutes: 15,
          days: ['mon', 'tue', 'wed', 'thu', 'fri'],
          quiet_hours: '18:00-09:00',
          first: '09:00',
          last: '17:45',
          next: '2026-11-20T12:15:00.000Z',
          enabled: null,
          files: [],
          note: 'task checkin-notify in Task Scheduler',
        },
      ],
    });
    calls.length = 0;
    await runNotifyUninstall(context().ctx, {}, host);
    expect(calls.map((c) => c.slice(1))).toEqual([
      ['/Query', '/TN', 'checkin-notify', '/XML'],
      ['/Delete', '/TN', 'checkin-notify', '/F'],
    ]);
    const none = context();
    await runNotifyStatus(none.ctx, { json: true }, host);
    expect(JSON.parse(none.io.stdoutText())).toEqual({ installed: false, units: [] });
  });
});

describe('notify --env (what the Windows task hands the run)', () => {
  it('sets only the variables the run needs, before anything reads them; any other name is refused (exit 2)', async () => {
    const wrong = { ...env, CHECKIN_API_URL: 'http://127.0.0.1:9/api/v2' };
    const r = await runCli(['notify', '--once', '--dry-run', '--env', `CHECKIN_API_URL=${env.CHECKIN_API_URL}`], { env: wrong });
    expect(r.code, r.stderr).toBe(0);
    const refused = await runCli(['notify', '--once', '--dry-run', '--env', 'NODE_OPTIONS=--require=/tmp/x.js'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--env takes NAME=VALUE with NAME one of CHECKIN_CONFIG_DIR, .*, got "NODE_OPTIONS=--require=\/tmp\/x\.js"/);
  });
});

// ---- Linux: the built CLI, stand-ins for systemctl and crontab first on PATH ----

/** A person logged in (the token stored, as a timer needs it), the stand-ins first on PATH. */
async function user(stand: ReturnType<typeof standIns>, extra: NodeJS.ProcessEnv = {}) {
  const u: NodeJS.ProcessEnv = { ...env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined, PATH: `${stand.dir}:${env.PATH}`, ...extra };
  const login = await runCli(['login', '--with-token', '--api-url', env.CHECKIN_API_URL!], { env: u, input: env.CHECKIN_TOKEN! });
  expect(login.code, login.stderr).toBe(0);
  return u;
}

describe('checkin notify install|status|uninstall with a systemd user manager', () => {
  it('install writes a timer and a service systemd-analyze verify accepts; status tells; again replaces; uninstall leaves nothing', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    const r = await runCli(['notify', 'install', '--every', '10m', '--quiet-hours', '19:00-08:00'], { env: u });
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(
      /^Installed a systemd user timer: every 10 min, 08:00–18:50, Mon–Fri; quiet hours 19:00-08:00\.\nNext look: \w{3} \d{4}-\d\d-\d\d (0[89]|1\d):\d0 \(in [^)]+\)\. `checkin notify status` shows it; `checkin notify uninstall` takes it out\.\n$/,
    );
    expect(stand.read('systemctl.log')).toBe('--user is-system-running\n--user daemon-reload\n--user enable --now checkin-notify.timer\n');
    expect(tree(unitDir(u))).toEqual(['checkin-notify.service', 'checkin-notify.timer', 'timers.target.wants/checkin-notify.timer']);
    const service = readFileSync(join(unitDir(u), 'checkin-notify.service'), 'utf8');
    expect(readFileSync(join(unitDir(u), 'checkin-notify.timer'), 'utf8')).toContain('\nOnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 08..18:00/10:00 UTC\n');
    expect(service).toContain(`\nExecStart=${CLI_WORDS.map((w) => `"${w}"`).join(' ')} "notify" "--once" "--quiet-hours" "19:00-08:00"\n`);
    expect(service).toContain(`\nEnvironment="CHECKIN_CONFIG_DIR=${u.CHECKIN_CONFIG_DIR}"\nEnvironment="HOME=${u.HOME}"\nEnvironment="TZ=UTC"\n`);
    await expectVerified(unitDir(u), 'checkin-notify');

    const status = await runCli(['notify', 'status'], { env: u });
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toMatch(
      new RegExp(
        `^Installed: a systemd user timer: every 10 min, 08:00–18:50, Mon–Fri; quiet hours 19:00-08:00\\n  next look: \\w{3} \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d0 \\(in [^)]+\\)\\n  enabled\\n  ${unitDir(u)}/checkin-notify.timer\\n  ${unitDir(u)}/checkin-notify.service\\n  ${unitDir(u)}/timers.target.wants/checkin-notify.timer\\n$`,
      ),
    );
    const json = await runCli(['notify', 'status', '--json'], { env: u });
    expect(JSON.parse(json.stdout)).toMatchObject({
      installed: true,
      units: [
        {
          scheduler: 'systemd',
          every_minutes: 10,
          days: ['mon', 'tue', 'wed', 'thu', 'fri'],
          quiet_hours: '19:00-08:00',
          first: '08:00',
          last: '18:50',
          enabled: true,
        },
      ],
    });

    stand.clear('systemctl.log');
    const again = await runCli(['notify', 'install', '--every', '1h', '--days', 'daily'], { env: u });
    expect(again.stdout).toMatch(/^Installed a systemd user timer: every 1 h, 00:00–23:00, every day \(it replaces the one before\)\.\n/);
    expect(stand.read('systemctl.log')).toBe(
      '--user is-system-running\n--user daemon-reload\n--user enable --now checkin-notify.timer\n--user restart checkin-notify.timer\n',
    );
    expect(readFileSync(join(unitDir(u), 'checkin-notify.timer'), 'utf8')).toContain('\nOnCalendar=*-*-* 00..23:00:00 UTC\n');

    // The reminder is its own: uninstalling the notices leaves it be.
    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    stand.clear('systemctl.log');
    const removed = await runCli(['notify', 'uninstall'], { env: u });
    expect(removed).toMatchObject({ code: 0, stdout: 'Removed a systemd user timer: no more notices until `checkin notify install`.\n', stderr: '' });
    expect(stand.read('systemctl.log')).toBe('--user is-system-running\n--user disable --now checkin-notify.timer\n--user daemon-reload\n');
    expect(tree(unitDir(u))).toEqual(['checkin-remind.service', 'checkin-remind.timer', 'timers.target.wants/checkin-remind.timer']);
    expect((await runCli(['notify', 'status'], { env: u })).stdout).toBe('No notices scheduled: `checkin notify install` sets them up.\n');
    expect((await runCli(['notify', 'uninstall'], { env: u })).stdout).toBe('No notices scheduled: nothing to uninstall.\n');
    expect((await runCli(['remind', 'remove'], { env: u })).code).toBe(0);
    expect(existsSync(join(u.HOME!, '.config', 'systemd'))).toBe(false);
  });

  it('--every under 5 minutes is exit 2 with what to do, and nothing is written', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    const r = await runCli(['notify', 'install', '--every', '1m'], { env: u });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain('--every must be at least 5 minutes, got "1m"');
    const q = await runCli(['notify', 'install', '--quiet-hours', '7pm-8am'], { env: u });
    expect(q).toMatchObject({ code: 2, stdout: '' });
    expect(q.stderr).toContain('--quiet-hours must be two times written HH:MM-HH:MM (as 19:00-08:00), got "7pm-8am"');
    expect(existsSync(join(u.HOME!, '.config'))).toBe(false);
    expect(stand.read('systemctl.log')).toBe('');
  });

  it('--dry-run prints the files and commands and changes nothing; the profile chosen is carried into the unit', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    const login = await runCli(['login', '--profile', 'client-a', '--with-token', '--api-url', env.CHECKIN_API_URL!], { env: u, input: env.CHECKIN_TOKEN! });
    expect(login.code, login.stderr).toBe(0);
    const dry = await runCli(['notify', 'install', '--dry-run', '--profile', 'client-a'], { env: u });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toBe('# --dry-run: would install a systemd user timer: every 5 min, 00:00–23:55, Mon–Fri. Nothing was changed.\n');
    expect(dry.stdout).toContain(`# write ${unitDir(u)}/checkin-notify.service:\n`);
    expect(dry.stdout).toContain('\nEnvironment="CHECKIN_PROFILE=client-a"\n');
    expect(dry.stdout).toContain('\nOnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 00..23:00/5:00 UTC\n');
    expect(dry.stdout).toContain(`\n${stand.dir}/systemctl --user daemon-reload\n${stand.dir}/systemctl --user enable --now checkin-notify.timer\n`);
    expect(existsSync(join(u.HOME!, '.config'))).toBe(false);
    expect(stand.read('systemctl.log')).toBe('--user is-system-running\n');
    const dryStatus = await runCli(['notify', 'status', '--dry-run'], { env: u });
    expect(dryStatus.stdout).toBe(
      `read ${unitDir(u)}/checkin-notify.timer\nread ${unitDir(u)}/checkin-notify.service\nread ${unitDir(u)}/timers.target.wants/checkin-notify.timer\n${stand.dir}/crontab -l\n`,
    );
    expect((await runCli(['notify', 'install'], { env: u })).code).toBe(0);
    const before = tree(unitDir(u));
    const dryRemove = await runCli(['notify', 'uninstall', '--dry-run'], { env: u });
    expect(dryRemove.stderr).toBe('# --dry-run: would remove a systemd user timer. Nothing was changed.\n');
    expect(dryRemove.stdout).toContain(`rm -f ${unitDir(u)}/checkin-notify.timer\n`);
    expect(tree(unitDir(u))).toEqual(before);
  });
});

describe('checkin doctor and the notices', () => {
  it('names the installed job and its schedule, when it last ran (as the user manager says), and nothing once it is uninstalled', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    const doctor = async () => {
      const r = await runCli(['doctor', '--json', 'id,status,message,fix'], { env: u, timeoutMs: 30_000 });
      return (JSON.parse(r.stdout) as Array<{ id: string; status: string; message: string; fix: string | null }>).find((c) => c.id === 'notify-unit');
    };
    expect(await doctor()).toEqual({ id: 'notify-unit', status: 'ok', message: 'not installed (`checkin notify install` schedules the notices)', fix: null });
    expect((await runCli(['notify', 'install', '--every', '10m', '--quiet-hours', '19:00-08:00'], { env: u })).code).toBe(0);
    expect(await doctor()).toEqual({
      id: 'notify-unit',
      status: 'ok',
      message: 'a systemd user timer: every 10 min, 08:00–18:50, Mon–Fri; quiet hours 19:00-08:00: no run yet',
      fix: null,
    });
    // The user manager says when the timer last fired and how the run ended.
    const systemctl = join(stand.dir, 'systemctl');
    const real = readFileSync(systemctl, 'utf8');
    const answering = (result: string) =>
      writeFileSync(
        systemctl,
        real.replace(
          'case "$*" in\n',
          `case "$*" in\n  "--user show checkin-notify.timer --property=LastTriggerUSec --value") echo "Mon 2026-12-07 09:10:00 UTC" ;;\n  "--user show checkin-notify.service --property=Result --value") echo ${result} ;;\n`,
        ),
      );
    answering('success');
    expect(await doctor()).toMatchObject({ status: 'ok', message: expect.stringMatching(/: last run Mon 2026-12-07 09:10:00 UTC \(it ended well\)$/) });
    answering('exit-code');
    expect(await doctor()).toEqual({
      id: 'notify-unit',
      status: 'warning',
      message: 'a systemd user timer: every 10 min, 08:00–18:50, Mon–Fri; quiet hours 19:00-08:00: last run Mon 2026-12-07 09:10:00 UTC (it failed: exit-code)',
      fix: '`journalctl --user -u checkin-notify.service` says why; `checkin notify --once` tries it now.',
    });
    expect((await runCli(['notify', 'uninstall'], { env: u })).code).toBe(0);
    expect((await doctor())?.message).toBe('not installed (`checkin notify install` schedules the notices)');
  });
});

describe('checkin notify install without a user manager: a crontab line', () => {
  it("adds its line beside the user's own, replaces it when installed again, and takes out only it", async () => {
    const stand = standIns({ userManager: false });
    writeFileSync(join(stand.dir, 'crontab.txt'), 'MAILTO=ada\n0 3 * * * backup\n');
    // cron fires in the machine's zone: TZ names it, so that nothing is said about another on any machine.
    const u = await user(stand, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus', TZ: machineZone() ?? 'UTC' });
    const r = await runCli(['notify', 'install', '--every', '15m', '--quiet-hours', '18:00-09:00'], { env: u });
    expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Installed a crontab line: every 15 min, 09:00–17:45, Mon–Fri; quiet hours 18:00-09:00\.\n/);
    const lines = stand.read('crontab.txt').split('\n');
    expect(lines.slice(0, 2)).toEqual(['MAILTO=ada', '0 3 * * * backup']);
    // The session bus goes with it: cron gives a run none, and notify-send needs it.
    expect(lines[2]).toMatch(
      new RegExp(
        `^\\*/15 9-17 \\* \\* 1,2,3,4,5 .*DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus ${CLI_WORDS_RE} notify --once --quiet-hours 18:00-09:00 # checkin-notify$`,
      ),
    );
    expect(lines.slice(3)).toEqual(['']);
    expect((await runCli(['notify', 'install', '--every', '30m'], { env: u })).stdout).toContain('(it replaces the one before)');
    expect(
      stand
        .read('crontab.txt')
        .split('\n')
        .filter((l) => l.endsWith('# checkin-notify')),
    ).toHaveLength(1);
    const status = await runCli(['notify', 'status'], { env: u });
    expect(status.stdout).toMatch(
      /^Installed: a crontab line: every 30 min, 00:00–23:30, Mon–Fri\n  next look: .*\n {2}the line ending "# checkin-notify" in your crontab \(crontab -l\)\n$/,
    );
    expect((await runCli(['notify', 'uninstall'], { env: u })).stdout).toBe('Removed a crontab line: no more notices until `checkin notify install`.\n');
    expect(stand.read('crontab.txt')).toBe('MAILTO=ada\n0 3 * * * backup\n');
  });
});
