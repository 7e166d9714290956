// `checkin remind` on Linux, with stand-ins for systemctl, crontab and notify-send first on PATH
// (each records how it was called): the units it writes pass `systemd-analyze verify`, the command
// the timer runs — executed under `env -i` with the unit's Environment=, as the timer would —
// notifies only when today's check-in is pending, and install, status and remove leave nothing
// behind. `remind install` is the built binary (what it writes for the scheduler is the words that
// started it: CLI_WORDS); the login, status, remove and the rest run in-process (`cli`), with the
// same environment and stand-ins.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { CLI_WORDS, CLI_WORDS_RE, FAKED_CLOCK_ARGS, runCli } from '../helpers/cli.js';
import { FakeClock, runIn } from '../helpers/harness.js';
import { expectVerified, standIns, tree, unitDir } from '../helpers/remind.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { machineZone } from '../../src/system/programs.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const today = () => localDateKey(new Date()); // the spawned CLI runs with TZ=UTC, as this process does

const run = promisify(execFile);

/** checkin in-process, on the real clock (the sandbox's and the spawned runs'), stdin fed `input`. */
const cli = (args: string[], e: NodeJS.ProcessEnv, input?: string) => runIn(args, e, new FakeClock(new Date()), input === undefined ? {} : { input });

/**
 * A user who logged in (the token is stored, not in the environment: a timer would not have it),
 * with a config folder whose name needs escaping in a unit file, and the stand-ins first on PATH.
 */
async function user(stand: ReturnType<typeof standIns>) {
  const home = env.HOME!;
  const u: NodeJS.ProcessEnv = {
    ...env,
    CHECKIN_TOKEN: undefined,
    CHECKIN_API_URL: undefined,
    CHECKIN_CONFIG_DIR: join(home, 'my "config" 100% $HOME \\'),
    PATH: `${stand.dir}:${env.PATH}`,
  };
  const login = await cli(['login', '--with-token', '--api-url', sb.url], u, sb.token);
  expect(login.code).toBe(0);
  return u;
}

/** The words of a unit-file value (systemd.syntax(7)): quotes, C escapes; %% is %, and in a command line $$ is $. */
function systemdWords(value: string, inCommand: boolean): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (value[i] === ' ') i++;
    if (i >= value.length) break;
    let word = '';
    const quote = value[i] === '"' || value[i] === "'" ? value[i++] : undefined;
    while (i < value.length && (quote ? value[i] !== quote : value[i] !== ' ')) {
      const c = value[i++]!;
      if (c === '\\') word += value[i++];
      else if (c === '%') {
        expect(value[i]).toBe('%'); // no specifier is meant
        word += '%';
        i++;
      } else if (c === '$' && inCommand) {
        expect(value[i]).toBe('$'); // no variable is meant
        word += '$';
        i++;
      } else word += c;
    }
    if (quote) i++;
    words.push(word);
  }
  return words;
}

/** What systemd would run for the service: its Environment= pairs and its ExecStart words. */
function unitCommand(service: string): { env: string[]; argv: string[] } {
  const envLines = [...service.matchAll(/^Environment=(.*)$/gm)].flatMap((m) => systemdWords(m[1]!, false));
  const exec = /^ExecStart=(.*)$/m.exec(service)![1]!;
  return { env: envLines, argv: systemdWords(exec, true) };
}

const NOTIFIED = "--app-name=checkin\nCheck-in pending\nToday's check-in is still pending: run checkin today\n---\n";

describe('checkin remind with a systemd user manager', () => {
  it('writes a timer and a service that pass systemd-analyze verify; the service run under env -i notifies only when pending', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    const r = await runCli(['remind', 'install', '--at', '9:30', '--days', 'mon-fri'], { env: u });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Installed a systemd user timer at 09:30 on Mon–Fri\.\nNext: \w{3} \d{4}-\d\d-\d\d 09:30 \(in [^)]+\)\. /);
    expect(stand.read('systemctl.log')).toBe('--user is-system-running\n--user daemon-reload\n--user enable --now checkin-remind.timer\n');
    const service = readFileSync(join(unitDir(u), 'checkin-remind.service'), 'utf8');
    const timer = readFileSync(join(unitDir(u), 'checkin-remind.timer'), 'utf8');
    expect(timer).toContain('\nOnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 09:30:00 UTC\nPersistent=true\n');

    // systemd's own reading of both files: no warning about them, and the executable is there.
    await expectVerified(unitDir(u), 'checkin-remind');

    // What the timer runs: the unit's environment and nothing else.
    const cmd = unitCommand(service);
    expect(cmd.env).toEqual([
      `CHECKIN_CONFIG_DIR=${u.CHECKIN_CONFIG_DIR}`,
      `HOME=${u.HOME}`,
      'TZ=UTC',
      `PATH=${[...new Set([CLI_WORDS[0]!.replace(/\/[^/]+$/, ''), stand.dir, '/usr/local/bin', '/usr/bin', '/bin'])].join(':')}`,
    ]);
    expect(cmd.argv).toEqual([...CLI_WORDS, 'remind', 'run']);
    const fire = async () => (await run('env', ['-i', ...FAKED_CLOCK_ARGS, ...cmd.env, ...cmd.argv], { encoding: 'utf8', timeout: 15_000 })).stdout;

    expect(await fire()).toBe('');
    expect(stand.read('notified')).toBe(NOTIFIED);
    stand.clear('notified');

    // Filled in: nothing.
    expect((await cli(['today', '-i', 'done'], env)).code).toBe(0);
    sb.requests.length = 0;
    expect(await fire()).toBe('');
    expect(stand.read('notified')).toBe('');
    expect(sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/v2/check-ins/${today()}`]);
  });

  it('the run stays silent when absent (no check-in, or one marked absent) and on a day no team has a check-in', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    const cmd = unitCommand(readFileSync(join(unitDir(u), 'checkin-remind.service'), 'utf8'));
    const fire = async () => (await run('env', ['-i', ...FAKED_CLOCK_ARGS, ...cmd.env, ...cmd.argv], { encoding: 'utf8', timeout: 15_000 })).stdout;
    const data = sb.service.data;
    const ada = data.tokens.find((t) => t.token === sb.token)!.person_id;

    // Absent today: the service has no check-in for the day.
    data.absences.push({ person_id: ada, from: today(), to: today() });
    expect(await fire()).toBe('');
    data.absences.pop();
    // Marked absent after the check-in was made: it is there, not filled in, and still no reminder.
    data.check_ins.push({
      id: 'absent-today',
      person_id: ada,
      date: today(),
      previous: null,
      intentions: null,
      blockers: null,
      mood: null,
      previous_completed: null,
      team_ids: null,
      completed_at: null,
      updated_at: `${today()}T07:00:00Z`,
      absent: true,
    });
    expect(await fire()).toBe('');
    data.check_ins.pop();
    // No team has a check-in today.
    const schedules = data.teams.map((t) => t.schedule);
    for (const t of data.teams) t.schedule = [];
    expect(await fire()).toBe('');
    data.teams.forEach((t, i) => (t.schedule = schedules[i]!));
    expect(stand.read('notified')).toBe('');

    // The same run, pending again: it does notify (the silence above was the state's, not a broken run).
    expect(await fire()).toBe('');
    expect(stand.read('notified')).toBe(NOTIFIED);
  });

  it('without a notifier the run prints one line (cron mails it; the journal keeps it)', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    const cmd = unitCommand(readFileSync(join(unitDir(u), 'checkin-remind.service'), 'utf8'));
    rmSync(join(stand.dir, 'notify-send'));
    const out = await run('env', ['-i', ...FAKED_CLOCK_ARGS, ...cmd.env, 'PATH=/nonexistent', ...cmd.argv], { encoding: 'utf8', timeout: 15_000 });
    expect(out.stdout).toBe("Today's check-in is still pending: run checkin today\n");
  });

  it('install → status → install again (replaces) → remove: status tells, and nothing is left', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    expect((await runCli(['remind', 'install', '--at', '9:30'], { env: u })).code).toBe(0);
    const again = await runCli(['remind', 'install', '--at', '16:45', '--days', 'mon,wed,fri'], { env: u });
    expect(again.stdout).toContain('Installed a systemd user timer at 16:45 on Mon, Wed, Fri (it replaces the one before).');
    expect(tree(unitDir(u))).toEqual(['checkin-remind.service', 'checkin-remind.timer', 'timers.target.wants/checkin-remind.timer']);
    const status = await cli(['remind', 'status'], u);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(
        `^Installed: a systemd user timer at 16:45 on Mon, Wed, Fri\\n  next: (Mon|Wed|Fri) \\d{4}-\\d\\d-\\d\\d 16:45 \\(in [^)]+\\)\\n  enabled\\n  ${unitDir(u)}/checkin-remind.timer\\n  ${unitDir(u)}/checkin-remind.service\\n  ${unitDir(u)}/timers.target.wants/checkin-remind.timer\\n$`,
      ),
    );
    stand.clear('systemctl.log');
    const removed = await cli(['remind', 'remove'], u);
    expect(removed).toMatchObject({ code: 0, stdout: 'Removed a systemd user timer.\n', stderr: '' });
    expect(stand.read('systemctl.log')).toBe('--user is-system-running\n--user disable --now checkin-remind.timer\n--user daemon-reload\n');
    expect(existsSync(join(u.HOME!, '.config', 'systemd'))).toBe(false);
    expect((await cli(['remind', 'status'], u)).stdout).toBe('No reminder installed: `checkin remind install` sets one up.\n');
    expect((await cli(['remind', 'remove'], u)).stdout).toBe('No reminder installed: nothing to remove.\n');
  });

  it('--dry-run prints the files and commands and changes nothing', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    const dry = await runCli(['remind', 'install', '--dry-run'], { env: u });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('# --dry-run: would install a systemd user timer at 10:00 on Mon–Fri. Nothing was changed.\n');
    expect(dry.stdout).toContain(`# write ${unitDir(u)}/checkin-remind.service:\n`);
    expect(dry.stdout).toContain('\nOnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 10:00:00 UTC\n');
    expect(dry.stdout).toContain(`\n${stand.dir}/systemctl --user daemon-reload\n${stand.dir}/systemctl --user enable --now checkin-remind.timer\n`);
    expect(existsSync(join(u.HOME!, '.config'))).toBe(false);
    // Only questions were asked.
    expect(stand.read('systemctl.log')).toBe('--user is-system-running\n');
    // status --dry-run names what it would read and run, and runs nothing.
    const dryStatus = await cli(['remind', 'status', '--dry-run'], u);
    expect(dryStatus.stdout).toBe(
      `read ${unitDir(u)}/checkin-remind.timer\nread ${unitDir(u)}/checkin-remind.service\nread ${unitDir(u)}/timers.target.wants/checkin-remind.timer\n${stand.dir}/crontab -l\n`,
    );
    expect(stand.read('crontab.log')).toBe('-l\n');

    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    const before = tree(unitDir(u));
    stand.clear('systemctl.log');
    const dryRemove = await cli(['remind', 'remove', '--dry-run'], u);
    expect(dryRemove.stdout).toBe(
      [
        `${stand.dir}/systemctl --user disable --now checkin-remind.timer`,
        `rm -f ${unitDir(u)}/timers.target.wants/checkin-remind.timer`,
        `rm -f ${unitDir(u)}/checkin-remind.timer`,
        `rm -f ${unitDir(u)}/checkin-remind.service`,
        `rmdir ${unitDir(u)}/timers.target.wants (when empty)`,
        `rmdir ${unitDir(u)} (when empty)`,
        `rmdir ${join(u.HOME!, '.config', 'systemd')} (when empty)`,
        `${stand.dir}/systemctl --user daemon-reload`,
        '',
      ].join('\n'),
    );
    expect(tree(unitDir(u))).toEqual(before);
    expect(stand.read('systemctl.log')).toBe('--user is-system-running\n');
  });
});

// cron fires in the machine's zone: TZ names it, so that nothing is said about another (scheduled.ts zoneMismatch) on any machine.
const MACHINE_TZ = machineZone() ?? 'UTC';

describe('checkin remind without a user manager: one tagged crontab line', () => {
  it('install adds one line beside the others, twice replaces it; the line works under env -i sh -c; remove takes only it out', async () => {
    const stand = standIns({ userManager: false });
    const u: NodeJS.ProcessEnv = { ...(await user(stand)), TZ: MACHINE_TZ };
    writeFileSync(join(stand.dir, 'crontab.txt'), '# mine\n0 1 * * * echo other\n');
    expect((await runCli(['remind', 'install', '--at', '9:30'], { env: u })).code).toBe(0);
    const second = await runCli(['remind', 'install', '--at', '7:05', '--days', 'daily'], {
      env: { ...u, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' },
    });
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toContain('Installed a crontab line at 07:05 on every day (it replaces the one before).');
    const lines = stand.read('crontab.txt').split('\n');
    expect(lines.slice(0, 2)).toEqual(['# mine', '0 1 * * * echo other']);
    expect(lines.filter((l) => l.endsWith('# checkin-remind'))).toHaveLength(1);
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
    const line = lines[2]!;
    expect(line).toMatch(
      new RegExp(
        `^5 7 \\* \\* \\* CHECKIN_CONFIG_DIR='.*' HOME=\\S+ TZ=\\S+ PATH=\\S+ DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus ${CLI_WORDS_RE} remind run # checkin-remind$`,
      ),
    );
    expect(line).toContain('100\\%'); // cron would end the command at a bare %
    expect(existsSync(join(u.HOME!, '.config', 'systemd'))).toBe(false);

    const status = await cli(['remind', 'status'], u);
    expect(status.stdout).toMatch(
      /^Installed: a crontab line at 07:05 on every day\n {2}next: \w{3} \d{4}-\d\d-\d\d 07:05 \(in [^)]+\)\n {2}the line ending "# checkin-remind" in your crontab \(crontab -l\)\n$/,
    );

    // What cron runs: the command after the five time fields, \% turned back into %, nothing in the environment.
    const command = line.split(' ').slice(5).join(' ').replace(/\\%/g, '%');
    expect((await run('env', ['-i', ...FAKED_CLOCK_ARGS, 'sh', '-c', command], { encoding: 'utf8', timeout: 15_000 })).stdout).toBe('');
    expect(stand.read('notified')).toBe(NOTIFIED);

    const removed = await cli(['remind', 'remove'], u);
    expect(removed.stdout).toBe('Removed a crontab line.\n');
    expect(stand.read('crontab.txt')).toBe('# mine\n0 1 * * * echo other\n');
  });

  it('a crontab that held only the reminder is removed whole; --dry-run changes nothing', async () => {
    const stand = standIns({ userManager: false });
    const u: NodeJS.ProcessEnv = { ...(await user(stand)), TZ: MACHINE_TZ };
    const dry = await runCli(['remind', 'install', '--dry-run'], { env: u });
    expect(dry.stdout).toMatch(
      /^# replace the line ending "# checkin-remind" in your crontab with:\n0 10 \* \* 1,2,3,4,5 .* remind run # checkin-remind\n\S+\/crontab -l \| … \| \S+\/crontab -\n$/,
    );
    expect(existsSync(join(stand.dir, 'crontab.txt'))).toBe(false);
    expect(stand.read('crontab.log')).toBe('-l\n');
    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    expect(stand.read('crontab.txt').split('\n')).toHaveLength(2);
    const dryRemove = await cli(['remind', 'remove', '--dry-run'], u);
    expect(dryRemove.code).toBe(0);
    expect(stand.read('crontab.txt').split('\n')).toHaveLength(2);
    expect((await cli(['remind', 'remove'], u)).code).toBe(0);
    expect(existsSync(join(stand.dir, 'crontab.txt'))).toBe(false);
    expect(stand.read('crontab.log')).toBe('-l\n-l\n-l\n-\n-l\n-l\n-l\n-r\n');
  });

  it('moving to a user manager takes the crontab line out (never two reminders)', async () => {
    const stand = standIns({ userManager: false });
    const u: NodeJS.ProcessEnv = { ...(await user(stand)), TZ: MACHINE_TZ };
    expect((await runCli(['remind', 'install'], { env: u })).code).toBe(0);
    writeFileSync(
      join(stand.dir, 'systemctl'),
      `#!/bin/sh\necho "$*" >> '${stand.dir}/systemctl.log'\n[ "$*" = "--user is-system-running" ] && echo running\nexit 0\n`,
    );
    const r = await runCli(['remind', 'install'], { env: u });
    expect(r.stdout).toContain('Installed a systemd user timer at 10:00 on Mon–Fri (it replaces the one before).');
    expect(existsSync(join(stand.dir, 'crontab.txt'))).toBe(false);
    const status = await cli(['remind', 'status'], u);
    expect(status.stdout.match(/^Installed:/gm)).toHaveLength(1);
  });
});

describe('checkin remind refuses what it cannot do', () => {
  it('a bad --at or --days is a usage error (exit 2) and touches nothing', async () => {
    const stand = standIns({ userManager: true });
    const u = await user(stand);
    mkdirSync(join(u.HOME!, '.config'), { recursive: true });
    expect(await cli(['remind', 'install', '--at', '25:00'], u)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--at must be a time written HH:MM, got "25:00"'),
    });
    expect(await cli(['remind', 'install', '--days', 'mon-funday'], u)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--days must be days such as mon-fri'),
    });
    expect(tree(join(u.HOME!, '.config'))).toEqual([]);
    expect(stand.read('systemctl.log')).toBe('');
  });
});

describe('checkin remind in the help and in completion', () => {
  it('is listed under Setup and tools; Tab offers its verbs (not the hidden run) and --days values', async () => {
    const help = await cli(['--help'], env);
    expect(help.stdout).toContain('\n  remind                     A reminder the OS keeps: a notification when\n');
    expect((await cli(['complete', '--', 'remind', ''], env)).stdout.split('\n').map((l) => l.split('\t')[0])).toEqual([
      'install',
      'status',
      'remove',
      'help',
      ':4',
      '',
    ]);
    expect((await cli(['complete', '--', 'remind', 'install', '--days', 'm'], env)).stdout).toBe(
      'mon-fri\tMonday to Friday\nmon,wed,fri\tMonday, Wednesday and Friday\n:4\n',
    );
  });
});
