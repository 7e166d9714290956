// A line break (or any control character) in a variable or path that a scheduled run is given
// would end a crontab line: what follows it would be an entry of its own, run every minute as the
// user. `checkin remind install` (every route, --dry-run too) and `checkin cron` refuse it as a
// usage error (exit 2) naming where it is, and write nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cronLine } from '../../src/commands/cron/cron.js';
import { cronReminderLine, launchdPlist, systemdService, taskXml, type Job } from '../../src/system/reminder-units.js';
import { runInstall } from '../../src/commands/remind/remind.js';
import type { Ran } from '../../src/system/programs.js';
import { createContext } from '../../src/context.js';
import { EXIT, UsageError } from '../../src/errors.js';
import { shellCommand } from '../../src/system/schedule.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { bufferIO } from '../helpers/io.js';
import { fakeHost, standIns } from '../helpers/remind.js';
import { patient } from '../helpers/patience.js';

const ATTACK = '\n* * * * * touch /tmp/PWNED #';
const CONTROLS = ['\n', '\r', '\t', '\0', '\x1b', '\x7f', '\x85'];

const JOB: Job = {
  at: { hour: 10, minute: 0 },
  days: [1, 2, 3, 4, 5],
  node: '/usr/local/bin/node',
  script: '/usr/local/lib/checkin/bin/checkin.js',
  env: {
    CHECKIN_CONFIG_DIR: '/home/ada/.config/checkin',
    XDG_CACHE_HOME: '/home/ada/.cache',
    XDG_STATE_HOME: '/home/ada/.local/state',
    HOME: '/home/ada',
    CHECKIN_API_URL: 'https://steady.example/api/v2',
    TZ: 'Europe/Berlin',
    PATH: '/usr/local/bin:/usr/bin:/bin',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
  },
};

const WRITERS: [string, (j: Job) => string][] = [
  ['crontab line', cronReminderLine],
  ['launchd plist', launchdPlist],
  ['Task Scheduler XML', (j) => taskXml(j, '2026-11-23')],
  ['systemd service', systemdService],
];

function refusal(f: () => unknown): UsageError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('not refused');
}

describe('what a scheduler is handed holds no control character', () => {
  it.each(WRITERS)('the %s refuses one in any variable, naming it', (_name, write) => {
    expect(() => write(JOB)).not.toThrow();
    for (const name of Object.keys(JOB.env)) {
      for (const c of CONTROLS) {
        const e = refusal(() => write({ ...JOB, env: { ...JOB.env, [name]: `${JOB.env[name]}${c}x` } }));
        expect(e.exitCode).toBe(EXIT.USAGE);
        expect(e.message).toMatch(new RegExp(`^${name} holds a line break or another control character, which a scheduler cannot carry: "`));
      }
    }
  });

  it.each(WRITERS)("the %s refuses one in Node's path or the script's, naming which", (_name, write) => {
    expect(refusal(() => write({ ...JOB, node: `/opt/node${ATTACK}/node` })).message).toMatch(/^Node's path holds a line break/);
    expect(refusal(() => write({ ...JOB, script: `/opt/checkin${ATTACK}/checkin.js` })).message).toMatch(/^checkin's script path holds a line break/);
  });

  it('the message shows the value escaped: no raw control character reaches the terminal', () => {
    const e = refusal(() => cronReminderLine({ ...JOB, env: { ...JOB.env, HOME: '/home/\x1b[2J\x9b2J\nx' } }));
    expect(e.message).toBe('HOME holds a line break or another control character, which a scheduler cannot carry: "/home/\\u001b[2J\\u009b2J\\nx"');
    expect(e.message).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  it('`checkin cron`: every variable, both paths and --notify are refused the same way', () => {
    const opts = { at: '10:00', days: '1-5', script: JOB.script, nodePath: JOB.node, env: JOB.env };
    expect(cronLine(opts).split('\n')).toHaveLength(1);
    for (const name of Object.keys(JOB.env))
      expect(refusal(() => cronLine({ ...opts, env: { ...JOB.env, [name]: `x${ATTACK}` } })).message).toMatch(new RegExp(`^${name} holds`));
    expect(refusal(() => cronLine({ ...opts, nodePath: `/n${ATTACK}` })).message).toMatch(/^Node's path holds/);
    expect(refusal(() => cronLine({ ...opts, script: `/s${ATTACK}` })).message).toMatch(/^checkin's script path holds/);
    expect(refusal(() => cronLine({ ...opts, notify: `notify-send hi${ATTACK}` })).message).toMatch(/^--notify holds/);
  });

  it('shellCommand refuses too, whoever calls it', () => {
    expect(refusal(() => shellCommand({ A: 'x\ny' }, ['node'])).message).toMatch(/^A holds/);
    expect(refusal(() => shellCommand({}, ['node', 'a\rb'])).message).toMatch(/^A word of the command holds/);
  });
});

// ---- install, in-process, on each route (a stand-in host: nothing runs) ----

/** What finds out what is installed answers: a user manager or not, no crontab, no task. */
const nothingInstalled =
  (userManager: boolean) =>
  (_file: string, args: string[]): Partial<Ran> => {
    if (args.join(' ') === '--user is-system-running') return userManager ? { stdout: 'running\n' } : { code: 1, stdout: 'offline\n' };
    if (args[0] === '-l') return { code: 1, stderr: 'no crontab for ada\n' };
    if (args[0] === '/Query') return { code: 1, stderr: 'ERROR: The system cannot find the file specified.' };
    return {};
  };

/** Every file under a folder, as paths relative to it. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(dir.length + 1));
}

describe('remind install refuses on every route, --dry-run too, and does nothing', () => {
  const routes: [string, NodeJS.Platform, boolean][] = [
    ['systemd', 'linux', true],
    ['crontab', 'linux', false],
    ['launchd', 'darwin', false],
    ['schtasks', 'win32', false],
  ];
  it.each(routes)('%s', async (_name, platform, userManager) => {
    const home = tempDir('checkin-hardening-');
    const env = cleanEnv({ HOME: home, CHECKIN_CONFIG_DIR: join(home, 'cfg'), CHECKIN_TOKEN: 'x', CHECKIN_API_URL: `http://127.0.0.1:1/${ATTACK}` });
    for (const dryRun of [false, true]) {
      const { host, calls } = fakeHost(platform, env, nothingInstalled(userManager));
      const io = bufferIO();
      const err = await runInstall(createContext({ io, env }), { at: '10:00', days: 'mon-fri', dryRun }, host).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toMatch(/^CHECKIN_API_URL holds a line break/);
      expect(io.stdoutText()).toBe('');
      // Only what finds out what is installed ran: nothing was written, loaded or registered.
      for (const c of calls) expect(c.slice(1)).toSatisfy((args: string[]) => ['-l', '/Query', 'is-system-running'].some((a) => args.includes(a)));
      expect(files(home)).toEqual([]);
    }
  });
});

// ---- the built CLI: the crontab route with stand-ins first on PATH, and `checkin cron` ----

describe('the built CLI refuses each variable a crontab line would carry', () => {
  it(
    'remind install, remind install --dry-run and cron: exit 2, the variable named, the crontab untouched',
    async () => {
      const stand = standIns({ userManager: false }).dir;
      const home = tempDir('checkin-hardening-home-');
      const base = {
        HOME: home,
        CHECKIN_CONFIG_DIR: join(home, 'cfg'),
        CHECKIN_TOKEN: 'x',
        CHECKIN_API_URL: 'http://127.0.0.1:1/api/v2',
        PATH: `${stand}:${process.env.PATH}`,
      };
      const cases: [string, Record<string, string | undefined>][] = [
        ['CHECKIN_API_URL', { CHECKIN_API_URL: `http://127.0.0.1:1/${ATTACK}` }],
        // Inside the temp folder, so whatever a run makes under it (Node's compile cache, on Node 22+) goes with it.
        ['HOME', { HOME: `${home}/h${ATTACK}` }],
        ['CHECKIN_CONFIG_DIR', { CHECKIN_CONFIG_DIR: `${home}/cfg${ATTACK}` }],
        ['XDG_CONFIG_HOME', { CHECKIN_CONFIG_DIR: undefined, XDG_CONFIG_HOME: `${home}/c${ATTACK}` }],
        ['XDG_CACHE_HOME', { CHECKIN_CONFIG_DIR: undefined, XDG_CACHE_HOME: `${home}/k${ATTACK}` }],
        ['XDG_STATE_HOME', { CHECKIN_CONFIG_DIR: undefined, XDG_STATE_HOME: `${home}/s${ATTACK}` }],
        ['TZ', { TZ: `UTC${ATTACK}` }],
      ];
      // A clean install first: one line (and a trailing newline).
      const ok = await runCli(['remind', 'install'], { env: cleanEnv(base) });
      expect(ok.code).toBe(0);
      const installed = readFileSync(join(stand, 'crontab.txt'), 'utf8');
      expect(installed.split('\n')).toHaveLength(2);
      for (const [name, extra] of cases) {
        const env = cleanEnv({ ...base, ...extra });
        for (const args of [['remind', 'install'], ['remind', 'install', '--dry-run'], ['cron']]) {
          const r = await runCli(args, { env });
          expect({ name, args, code: r.code, stdout: r.stdout }).toEqual({ name, args, code: 2, stdout: '' });
          expect(r.stderr).toMatch(
            new RegExp(
              `^error: ${name} holds a line break or another control character, which a scheduler cannot carry: ".*\\\\n\\* \\* \\* \\* \\* touch /tmp/PWNED #"\\n`,
            ),
          );
        }
      }
      expect(readFileSync(join(stand, 'crontab.txt'), 'utf8')).toBe(installed);
      // Each refused install only listed the crontab (to see what was installed); none wrote it.
      expect(
        readFileSync(join(stand, 'crontab.log'), 'utf8')
          .split('\n')
          .filter((l) => l === '-'),
      ).toEqual(['-']);
      expect(existsSync('/tmp/PWNED')).toBe(false);
    },
    patient(120_000),
  );
});
