// What the reminder tests share: stand-in programs first on PATH for the built CLI (systemctl,
// crontab, notify-send, each keeping what it was asked), and a stand-in host for runs in-process.
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host, Ran } from '../../src/system/programs.js';
import { tempDir } from './cleanup.js';

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

/** A host whose programs are not run: each call is kept, and `answer` says what it printed and its exit code (0 and nothing by default). */
export function fakeHost(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, answer: (file: string, args: string[]) => Partial<Ran> = () => ({})) {
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
  };
  return { host, calls };
}
