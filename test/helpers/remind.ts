// What the tests of scheduled jobs (remind's, notify's) share: stand-in programs first on PATH for
// the built CLI (systemctl, crontab, notify-send, each keeping what it was asked), a stand-in host for
// runs in-process, where the units are and systemd's own reading of them (systemd-analyze verify).
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { Host, Ran } from '../../src/system/programs.js';
import type { JobCommand } from '../../src/system/reminder-units.js';
import { tempDir } from './cleanup.js';

const run = promisify(execFile);

/** A desktop session's environment (a session bus, a display, the token in it), the one a scheduled run's is made from. */
export const DESKTOP_SESSION: Readonly<NodeJS.ProcessEnv> = {
  HOME: '/home/ada',
  PATH: '/usr/bin:/bin',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
  DISPLAY: ':0',
  CHECKIN_TOKEN: 'steady_pat_env',
  CHECKIN_CONFIG_DIR: '/home/ada/conf',
  TZ: 'Europe/London',
};

/** The stand-ins, in a folder put first on PATH; what they were asked is kept in files beside them. */
export function standIns(opts: { userManager: boolean }) {
  const dir = tempDir('checkin-stand-ins-');
  const write = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}`);
    chmodSync(join(dir, name), 0o755);
  };
  // systemctl: answers is-system-running, and makes or takes a timer's enabled link as the real one does.
  write(
    'systemctl',
    `echo "$*" >> '${dir}/systemctl.log'
wants="\${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/timers.target.wants"
case "$*" in
  "--user is-system-running") ${opts.userManager ? 'echo running; exit 0' : 'echo offline; exit 1'} ;;
  "--user enable --now "*.timer) mkdir -p "$wants" && ln -sf "../$4" "$wants/$4" ;;
  "--user disable --now "*.timer) rm -f "$wants/$4" ;;
esac
exit 0
`,
  );
  // crontab: -l, - and -r on one file.
  write(
    'crontab',
    `echo "$*" >> '${dir}/crontab.log'
f='${dir}/crontab.txt'
case "$1" in
  -l) if [ -f "$f" ]; then cat "$f"; else echo "no crontab for $(id -un)" >&2; exit 1; fi ;;
  -) cat > "$f" ;;
  -r) if [ -f "$f" ]; then rm "$f"; else echo "no crontab for $(id -un)" >&2; exit 1; fi ;;
  *) exit 2 ;;
esac
`,
  );
  // notify-send: each argument on a line of its own, one call after another.
  write('notify-send', `for a in "$@"; do printf '%s\\n' "$a"; done >> '${dir}/notified'\necho --- >> '${dir}/notified'\n`);
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  return { dir, read, clear: (name: string) => rmSync(join(dir, name), { force: true }) };
}

/** What a job runs, with paths and values that need every escape a unit file, a plist and a task have: spaces, quotes, %, $, backslashes. */
export const ODD_COMMAND: JobCommand = {
  node: '/opt/node 20/bin/node',
  script: '/home/ada/my "tools" 100% $HOME\\checkin/bin/checkin.js',
  env: { CHECKIN_CONFIG_DIR: '/home/ada/conf %h $X "q" \\', TZ: 'Europe/Berlin', PATH: '/opt/node 20/bin:/usr/bin:/bin' },
};

/**
 * A host whose programs are not run: each call is kept, and `answer` says what it printed and its exit
 * code (0 and nothing by default); its clock is set to `zone` (UTC, as the tests' TZ, unless named).
 */
export function fakeHost(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  answer: (file: string, args: string[]) => Partial<Ran> = () => ({}),
  zone: string | undefined = 'Etc/UTC',
) {
  const calls: string[][] = [];
  const host: Host = {
    platform,
    env,
    uid: 501,
    find: (name) => (platform === 'win32' ? `C:\\Windows\\System32\\${name}.exe` : `/usr/bin/${name}`),
    run: async (file, args) => {
      calls.push([file, ...args]);
      return { code: 0, stdout: '', stderr: '', ...answer(file, args) };
    },
    zone: () => zone,
  };
  return { host, calls };
}

/** Where a user's systemd units are (no XDG_CONFIG_HOME set). */
export const unitDir = (u: NodeJS.ProcessEnv) => join(u.HOME!, '.config', 'systemd', 'user');

/** Every file and link under a folder, as paths below it. */
export function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** Whether systemd-analyze is installed (where it is not, a test says so and checks no more of systemd's reading). */
export const hasAnalyze = (): Promise<boolean> =>
  run('systemd-analyze', ['--version']).then(
    () => true,
    () => false,
  );

/** `systemd-analyze verify --user` of the job's timer and service in `dir`, with a runtime folder of its own: its exit code and what it said. */
async function analyze(dir: string, unit: string): Promise<{ code: number; stderr: string }> {
  const runtime = tempDir('checkin-runtime-');
  return run('systemd-analyze', ['verify', '--user', join(dir, `${unit}.timer`), join(dir, `${unit}.service`)], {
    encoding: 'utf8',
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    timeout: 20_000,
  }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

/** systemd's own reading of the job's units in `dir`: exit 0 and not a word about them (the executable is there). */
export async function expectVerified(dir: string, unit: string): Promise<void> {
  if (!(await hasAnalyze())) return console.warn('systemd-analyze is not installed: the units were not verified by systemd');
  const v = await analyze(dir, unit);
  expect(v.stderr.split('\n').filter((l) => l.includes(unit))).toEqual([]);
  expect(v.code, v.stderr).toBe(0);
}

/**
 * The job's units as `units` writes them for a node in a folder whose name needs every escape a
 * unit file has (a space, %, $, ;) pass expectVerified; for a node that is not there, systemd says
 * so, naming it: the check can fail.
 */
export async function expectVerifiedWithOddPaths(unit: string, units: (node: string) => { service: string; timer: string }): Promise<void> {
  if (!(await hasAnalyze())) return console.warn('systemd-analyze is not installed: units not verified');
  const dir = tempDir(`${unit}-units-`);
  const odd = join(dir, 'a b 100% $HOME;c');
  mkdirSync(odd);
  writeFileSync(join(odd, 'node'), '#!/bin/sh\n');
  chmodSync(join(odd, 'node'), 0o755);
  const write = (node: string) => {
    const { service, timer } = units(join(odd, node));
    writeFileSync(join(dir, `${unit}.service`), service);
    writeFileSync(join(dir, `${unit}.timer`), timer);
  };
  write('node');
  await expectVerified(dir, unit);
  write('nodex');
  const missing = await analyze(dir, unit);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain(`Command ${join(odd, 'nodex')} is not executable`);
}
