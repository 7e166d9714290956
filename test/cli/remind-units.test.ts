// What `checkin remind` writes for each scheduler, read back as each scheduler reads it: the days
// and times, systemd's quoting (checked by systemd-analyze itself), the launchd plist as a strict
// plist parser reads it, the Task Scheduler XML against the schema's structure. macOS and Windows
// are played by a stand-in host here: nothing was run on those systems.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  launchdPlist,
  onCalendar,
  parseOnCalendar,
  parsePlist,
  parseTaskXml,
  systemdQuote,
  systemdService,
  systemdTimer,
  taskXml,
  utf16,
  windowsQuote,
  type Job,
} from '../../src/system/reminder-units.js';
import { runInstall, runReminder, runRemindStatus, runRemove } from '../../src/commands/remind/remind.js';
import { createContext } from '../../src/context.js';
import { lastReminderRun, recordReminderRun } from '../../src/system/reminder.js';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { formatDays, parseDays } from '../../src/system/schedule.js';
import { nextRun } from '../../src/system/scheduled.js';
import { tempDir } from '../helpers/cleanup.js';
import { bufferIO } from '../helpers/io.js';
import { expectVerifiedWithOddPaths, fakeHost, ODD_COMMAND } from '../helpers/remind.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { parseXml, plistValue, TASK_NS, windowsArgv, type El } from '../helpers/xml.js';

const run = promisify(execFile);

describe('--days and --at', () => {
  it.each([
    ['mon-fri', [1, 2, 3, 4, 5], 'Mon–Fri'],
    ['1-5', [1, 2, 3, 4, 5], 'Mon–Fri'],
    ['MON,wed,Fri', [1, 3, 5], 'Mon, Wed, Fri'],
    ['sat-mon', [0, 1, 6], 'Sat–Mon'],
    ['sun', [0], 'Sun'],
    ['7', [0], 'Sun'],
    ['0-7', [0, 1, 2, 3, 4, 5, 6], 'every day'],
    ['daily', [0, 1, 2, 3, 4, 5, 6], 'every day'],
    ['*', [0, 1, 2, 3, 4, 5, 6], 'every day'],
    ['sat,sun', [0, 6], 'Sat, Sun'],
  ])('%s → %j, read as %s', (text, days, shown) => {
    expect(parseDays(text)).toEqual(days);
    expect(formatDays(days)).toBe(shown);
  });

  it.each(['', 'mon-', 'funday', '8', 'mon-fri-sat', 'mon;tue', '*/2'])('%j is refused', (text) => {
    expect(() => parseDays(text)).toThrow(/--days must be days such as mon-fri/);
  });

  it('the next firing is the first matching day at that time after now (tests run with TZ=UTC)', () => {
    const fri = new Date('2026-11-20T12:00:00Z'); // a Friday
    expect(nextRun([10 * 60], [1, 2, 3, 4, 5], fri)?.toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(nextRun([12 * 60 + 1], [5], fri)?.toISOString()).toBe('2026-11-20T12:01:00.000Z');
    expect(nextRun([12 * 60], [5], fri)?.toISOString()).toBe('2026-11-27T12:00:00.000Z');
    // Several times a day (the notices'): the first after now; no day at all: none.
    expect(nextRun([9 * 60, 12 * 60, 12 * 60 + 30], [5], fri)?.toISOString()).toBe('2026-11-20T12:30:00.000Z');
    expect(nextRun([10 * 60], [], fri)).toBeUndefined();
  });
});

const JOB: Job = {
  at: { hour: 9, minute: 5 },
  days: [1, 3, 5],
  ...ODD_COMMAND,
};

describe('systemd units', () => {
  it('OnCalendar= is read back as written, and systemd reads it as the same days and time', async () => {
    for (const days of [
      [1, 2, 3, 4, 5],
      [0, 6],
      [0, 1, 2, 3, 4, 5, 6],
    ]) {
      expect(parseOnCalendar(onCalendar({ hour: 7, minute: 45 }, days, 'Europe/Berlin'))).toEqual({ at: { hour: 7, minute: 45 }, days });
    }
    const r = await run('systemd-analyze', ['calendar', '--iterations=3', onCalendar({ hour: 9, minute: 5 }, [1, 3, 5])], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    }).catch(() => undefined);
    if (!r) return console.warn('systemd-analyze is not installed: calendar not checked by systemd');
    expect(r.stdout).toContain('Normalized form: Mon,Wed,Fri *-*-* 09:05:00');
    expect([...r.stdout.matchAll(/(?:Next elapse|Iter\. #\d): (\w{3}) \d{4}-\d\d-\d\d 09:05:00 UTC/g)].map((m) => m[1])).toHaveLength(3);
  });

  it('systemd-analyze verify reads the units with paths that hold spaces, %, $ (and the script quotes and backslashes): the executable is found', () =>
    expectVerifiedWithOddPaths('checkin-remind', (node) => ({
      service: systemdService({ ...JOB, node }),
      timer: systemdTimer({ ...JOB, node }, 'Europe/Berlin'),
    })));

  it('quotes each word as systemd.syntax(7) reads it back', () => {
    expect(systemdQuote('/a b/%h$X"\\', true)).toBe('"/a b/%%h$$X\\"\\\\"');
    // The executable's name: $ is not expanded there.
    expect(systemdService({ ...JOB, node: '/a $b/node', script: '/c $d/checkin.js' })).toContain(
      '\nExecStart="/a $b/node" "/c $$d/checkin.js" "remind" "run"\n',
    );
    expect(systemdQuote('K=/a b/%h$X', false)).toBe('"K=/a b/%%h$X"');
    expect(() => systemdQuote('a\nb', false)).toThrow(/line break/);
    // systemd refuses these in an executable's name, escaped or not (systemd-analyze verify: "contains special characters").
    for (const node of ['/a"b/node', "/a'b/node", '/a\\b/node']) expect(() => systemdService({ ...JOB, node })).toThrow(/quote or a backslash/);
  });
});

describe('the launchd agent', () => {
  it('is a well-formed XML plist (DOCTYPE plist 1.0) with the keys and types launchd reads', () => {
    const doc = parseXml(launchdPlist(JOB));
    expect(doc.decl).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(doc.doctype).toBe('<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">');
    expect(doc.root.name).toBe('plist');
    expect(doc.root.attrs).toEqual({ version: '1.0' });
    expect(doc.root.children).toHaveLength(1);
    expect(plistValue(doc.root.children[0]!)).toEqual({
      Label: 'checkin.remind',
      ProgramArguments: [JOB.node, JOB.script, 'remind', 'run'],
      EnvironmentVariables: JOB.env,
      StartCalendarInterval: [
        { Weekday: 1, Hour: 9, Minute: 5 },
        { Weekday: 3, Hour: 9, Minute: 5 },
        { Weekday: 5, Hour: 9, Minute: 5 },
      ],
    });
    expect(parsePlist(launchdPlist(JOB))).toEqual({ at: JOB.at, days: JOB.days });
  });
});

describe('the Task Scheduler task', () => {
  it('is UTF-16 with a byte-order mark and a UTF-16 declaration, in the task namespace, with the structure the schema requires', () => {
    const bytes = utf16(
      taskXml({ ...JOB, node: 'C:\\Program Files\\nodejs\\node.exe', script: 'C:\\Users\\Ada "A" L\\AppData\\checkin\\bin\\checkin.js' }, '2026-11-23'),
    );
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    const xml = bytes.subarray(2).toString('utf16le');
    const doc = parseXml(xml);
    expect(doc.decl).toBe('<?xml version="1.0" encoding="UTF-16"?>');
    const task = doc.root;
    expect(task.name).toBe('Task');
    expect(task.attrs).toEqual({ version: '1.2', xmlns: TASK_NS });
    const child = (el: El, name: string) => {
      const found = el.children.filter((c) => c.name === name);
      expect(found, `<${el.name}> has one <${name}>`).toHaveLength(1);
      return found[0]!;
    };
    // taskType is an xs:all of these, each at most once; Actions is required.
    expect(task.children.map((c) => c.name).sort()).toEqual(['Actions', 'Principals', 'RegistrationInfo', 'Settings', 'Triggers']);
    const trigger = child(child(task, 'Triggers'), 'CalendarTrigger');
    // triggerBaseType is a sequence (Enabled?, StartBoundary?, …), then the schedule.
    expect(trigger.children.map((c) => c.name)).toEqual(['StartBoundary', 'ScheduleByWeek']);
    expect(child(trigger, 'StartBoundary').text).toBe('2026-11-23T09:05:00');
    const week = child(trigger, 'ScheduleByWeek');
    expect(child(week, 'WeeksInterval').text).toBe('1');
    expect(child(week, 'DaysOfWeek').children.map((d) => [d.name, d.children.length, d.text])).toEqual([
      ['Monday', 0, ''],
      ['Wednesday', 0, ''],
      ['Friday', 0, ''],
    ]);
    const actions = child(task, 'Actions');
    const exec = child(actions, 'Exec');
    // execType is a sequence: Command, then Arguments.
    expect(exec.children.map((c) => c.name)).toEqual(['Command', 'Arguments']);
    expect(child(exec, 'Command').text).toBe('C:\\Program Files\\nodejs\\node.exe');
    // The task has no environment: the run is handed it on its command line, which Windows splits back.
    expect(windowsArgv(child(exec, 'Arguments').text)).toEqual([
      'C:\\Users\\Ada "A" L\\AppData\\checkin\\bin\\checkin.js',
      'remind',
      'run',
      ...Object.entries(JOB.env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ]);
    const principal = child(child(task, 'Principals'), 'Principal');
    expect(principal.attrs).toEqual({ id: 'Author' });
    expect(actions.attrs).toEqual({ Context: 'Author' });
    expect(child(child(task, 'Settings'), 'StartWhenAvailable').text).toBe('true');
    expect(parseTaskXml(xml)).toEqual({ at: JOB.at, days: JOB.days });
  });

  it.each([['plain'], ['two words'], ['say "hi"'], ['C:\\dir with space\\'], ['tail\\\\'], ['a\\"b'], ['']])(
    'windowsQuote(%j) is split back as itself',
    (arg) => {
      expect(windowsArgv(`x ${windowsQuote(arg)} y`)).toEqual(['x', arg, 'y']);
    },
  );
});

// ---- macOS and Windows played by a stand-in host (nothing runs there) ----

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

/** A run in-process; `now` a fixed Friday noon for what status says, the real clock for runs against the sandbox. */
function context(now = () => new Date('2026-11-20T12:00:00Z')) {
  const io = bufferIO();
  return { io, ctx: createContext({ io, env, now }) };
}

describe('macOS: a launchd agent, loaded with launchctl bootstrap and taken out with bootout', () => {
  it("TZ naming another zone than the machine's: install warns that the agent fires in the machine's, and status says when that is in TZ's", async () => {
    // The machine in Berlin (UTC+1 in November), the person's TZ New York (UTC-5): 10:00 in Berlin is 04:00 in New York.
    const { host } = fakeHost('darwin', { ...env, TZ: 'America/New_York' }, () => ({}), 'Europe/Berlin');
    const a = context();
    await runInstall(a.ctx, { at: '10:00', days: 'mon-fri' }, host);
    expect(a.io.stderrText()).toContain(
      "# a launchd agent fires in this machine's zone (Europe/Berlin), not in TZ's (America/New_York): the times are read there, while the run goes by TZ.",
    );
    // Friday 12:00 UTC is 13:00 in Berlin: the next 10:00 there is Monday's, 09:00 UTC (the tests' own zone is UTC).
    expect(a.io.stdoutText()).toContain('\nNext: Mon 2026-11-23 09:00 (in 2 d 21 h).');
    const s = context();
    await runRemindStatus(s.ctx, {}, host);
    expect(s.io.stdoutText()).toMatch(
      /^Installed: a launchd agent at 10:00 on Mon–Fri\n {2}in this machine's zone \(Europe\/Berlin\), not in TZ's \(America\/New_York\)\n {2}next: Mon 2026-11-23 09:00 \(in 2 d 21 h\)\n/,
    );
    // The same zone under another name is no other zone: not a word.
    const same = context();
    await runInstall(same.ctx, { at: '10:00', days: 'mon-fri' }, fakeHost('darwin', { ...env, TZ: 'UTC' }, () => ({}), 'Etc/UTC').host);
    expect(same.io.stderrText()).not.toContain('zone');
    await runRemove(context().ctx, {}, host);
  });

  it('install → status → remove, and --dry-run changes nothing', async () => {
    const plist = join(env.HOME!, 'Library', 'LaunchAgents', 'checkin.remind.plist');
    const { host, calls } = fakeHost('darwin', env);
    const dry = context();
    await runInstall(dry.ctx, { at: '8:15', days: 'mon-fri', dryRun: true }, host);
    expect(dry.io.stdoutText()).toContain(`# write ${plist}:\n<?xml version="1.0" encoding="UTF-8"?>\n`);
    expect(dry.io.stdoutText()).toContain(`\n/usr/bin/launchctl bootstrap gui/501 ${plist}\n`);
    expect(existsSync(plist)).toBe(false);
    expect(calls).toEqual([]);

    const a = context();
    await runInstall(a.ctx, { at: '8:15', days: 'mon-fri' }, host);
    expect(parsePlist(readFileSync(plist, 'utf8'))).toEqual({ at: { hour: 8, minute: 15 }, days: [1, 2, 3, 4, 5] });
    expect(calls).toEqual([['/usr/bin/launchctl', 'bootstrap', 'gui/501', plist]]);
    const s = context();
    await runRemindStatus(s.ctx, {}, host);
    expect(s.io.stdoutText()).toBe(`Installed: a launchd agent at 08:15 on Mon–Fri\n  next: Mon 2026-11-23 08:15 (in 2 d 20 h)\n  ${plist}\n`);
    // Again: the loaded agent is booted out before the new one is bootstrapped.
    calls.length = 0;
    await runInstall(context().ctx, { at: '9:00', days: 'daily' }, host);
    expect(calls).toEqual([
      ['/usr/bin/launchctl', 'bootout', 'gui/501/checkin.remind'],
      ['/usr/bin/launchctl', 'bootstrap', 'gui/501', plist],
    ]);
    calls.length = 0;
    await runRemove(context().ctx, {}, host);
    expect(calls).toEqual([['/usr/bin/launchctl', 'bootout', 'gui/501/checkin.remind']]);
    expect(existsSync(plist)).toBe(false);
  });

  it('the run shows a notification through osascript, with fixed words only', async () => {
    const { host, calls } = fakeHost('darwin', env);
    const { ctx, io } = context(() => new Date());
    await runReminder(ctx, {}, host);
    expect(calls).toEqual([
      [
        '/usr/bin/osascript',
        '-e',
        'display notification "Today\'s check-in is still pending: run checkin today" with title "checkin" subtitle "Check-in pending"',
      ],
    ]);
    expect(io.stdoutText()).toBe('');
    expect(sb.requests.map((r) => `${r.method} ${r.path}`)).toContain(`GET /api/v2/check-ins/${localDateKey(new Date())}`);
  });
});

describe('Windows: a Task Scheduler task registered with schtasks /Create /XML', () => {
  it('install writes the UTF-16 XML to a temp file for schtasks and removes it; status queries it; remove deletes it', async () => {
    let seen: Buffer | undefined;
    let xmlFile = '';
    let registered: string | undefined;
    const { host, calls } = fakeHost('win32', env, (_file, args) => {
      if (args[0] === '/Create') {
        xmlFile = args[4]!;
        seen = readFileSync(xmlFile);
        registered = seen.subarray(2).toString('utf16le');
      }
      if (args[0] === '/Query') return registered ? { stdout: registered } : { code: 1, stderr: 'ERROR: The system cannot find the file specified.' };
      if (args[0] === '/Delete') registered = undefined;
      return {};
    });
    await runInstall(context().ctx, { at: '10:00', days: 'mon-fri' }, host);
    expect(calls.map((c) => c.slice(1, 3))).toEqual([
      ['/Query', '/TN'],
      ['/Create', '/TN'],
    ]);
    expect(calls[1]).toEqual(['C:\\Windows\\System32\\schtasks.exe', '/Create', '/TN', 'checkin-remind', '/XML', xmlFile, '/F']);
    expect([...seen!.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(existsSync(xmlFile)).toBe(false);
    const s = context();
    await runRemindStatus(s.ctx, {}, host);
    expect(s.io.stdoutText()).toBe(
      'Installed: a Task Scheduler task at 10:00 on Mon–Fri\n  next: Mon 2026-11-23 10:00 (in 2 d 22 h)\n  task checkin-remind in Task Scheduler\n',
    );
    await runRemove(context().ctx, {}, host);
    expect(calls.at(-1)).toEqual(['C:\\Windows\\System32\\schtasks.exe', '/Delete', '/TN', 'checkin-remind', '/F']);
    const after = context();
    await runRemindStatus(after.ctx, {}, host);
    expect(after.io.stdoutText()).toBe('No reminder installed: `checkin remind install` sets one up.\n');
  });

  it('the run shows a toast through PowerShell whose script holds fixed words only', async () => {
    const { host, calls } = fakeHost('win32', env);
    await runReminder(context(() => new Date()).ctx, {}, host);
    expect(calls).toHaveLength(1);
    const [file, ...args] = calls[0]!;
    expect(file).toBe('C:\\Windows\\System32\\powershell.exe');
    expect(args.slice(0, 3)).toEqual(['-NoProfile', '-NonInteractive', '-Command']);
    expect(args[3]).toContain('ToastNotificationManager');
    expect(args[3]).toContain(`CreateTextNode("Today's check-in is still pending: run checkin today")`);
  });
});

describe('remind run --env (what a scheduled task hands the run)', () => {
  it('sets only the variables the run needs, before anything reads them', async () => {
    const { host, calls } = fakeHost('linux', env);
    const io = bufferIO();
    const url = env.CHECKIN_API_URL!;
    const ctx = createContext({ io, env: { ...env, CHECKIN_API_URL: 'http://127.0.0.1:9/api/v2' } });
    await runReminder(ctx, { env: [`CHECKIN_API_URL=${url}`] }, host);
    expect(calls).toEqual([['/usr/bin/notify-send', '--app-name=checkin', 'Check-in pending', "Today's check-in is still pending: run checkin today"]]);
    await expect(runReminder(context(() => new Date()).ctx, { env: ['NODE_OPTIONS=--require=/tmp/x.js'] }, host)).rejects.toThrow(
      /--env takes NAME=VALUE with NAME one of CHECKIN_CONFIG_DIR, /,
    );
    await expect(runReminder(context(() => new Date()).ctx, { env: ['=x'] }, host)).rejects.toThrow(/--env takes NAME=VALUE/);
    expect(calls).toHaveLength(1);
  });
});

describe("the reminder's last run (remind-last-run.json in the state folder, what `checkin doctor` reads)", () => {
  const stateDir = () => env.CHECKIN_CONFIG_DIR!; // cleanEnv keeps all three folders in one
  it('each run replaces the record: notified, printed without a notifier, quiet once filled in, failed with why', async () => {
    const at = new Date(); // the sandbox's today is the real one
    const ctxAt = () => createContext({ io: bufferIO(), env, now: () => at });
    expect(lastReminderRun(stateDir())).toBeUndefined();
    await runReminder(ctxAt(), {}, fakeHost('linux', env).host);
    expect(lastReminderRun(stateDir())).toEqual({ at: at.toISOString(), outcome: 'notified' });
    expect(statSync(join(stateDir(), 'remind-last-run.json')).mode & 0o777).toBe(0o600);
    const quietHost = { ...fakeHost('linux', env).host, find: () => undefined };
    await runReminder(ctxAt(), {}, quietHost);
    expect(lastReminderRun(stateDir())).toEqual({ at: at.toISOString(), outcome: 'printed' });
    const broken = createContext({ io: bufferIO(), env: { ...env, CHECKIN_TOKEN: 'revoked' }, now: () => at });
    await expect(runReminder(broken, {}, fakeHost('linux', env).host)).rejects.toThrow();
    expect(lastReminderRun(stateDir())).toMatchObject({ outcome: 'failed', detail: expect.stringMatching(/401/) });
    expect(readFileSync(join(stateDir(), 'remind-last-run.json'), 'utf8')).not.toContain('revoked');
  });

  it('a record that is not one is said to be damaged, not trusted', () => {
    const dir = tempDir('checkin-last-run-');
    writeFileSync(join(dir, 'remind-last-run.json'), '{"at":"yesterday","outcome":"notified"}');
    expect(lastReminderRun(dir)).toBe('damaged');
    writeFileSync(join(dir, 'remind-last-run.json'), '[');
    expect(lastReminderRun(dir)).toBe('damaged');
    recordReminderRun(dir, { at: '2026-11-25T09:00:00.000Z', outcome: 'quiet' }, () => undefined);
    expect(lastReminderRun(dir)).toEqual({ at: '2026-11-25T09:00:00.000Z', outcome: 'quiet' });
  });
});
