// A real session bus with a notification server on it that records the Notify calls it receives:
// `dbus-run-session` running test/helpers/notification-server.py (python3-dbus and python3-gi). The
// tests hand checkin the bus's address (DBUS_SESSION_BUS_ADDRESS) and read back what was shown.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli.js';
import { tempDir, track } from './cleanup.js';
import { patient } from './patience.js';

export interface Recorded {
  app: string;
  summary: string;
  body: string;
  actions: string[];
  hints: string[];
  timeout: number;
}

export interface NotificationBus {
  /** The session bus's address, for DBUS_SESSION_BUS_ADDRESS. */
  address: string;
  /** Every Notify call the server received so far, in order. */
  calls(): Recorded[];
  close(): Promise<void>;
}

const SERVER = join(ROOT, 'test', 'helpers', 'notification-server.py');
const PYTHON = '/usr/bin/python3';

/** Why the bus cannot be had here (a line for the skipped test's name), or '' when it can. */
export async function notificationBusMissing(): Promise<string> {
  if (!existsSync('/usr/bin/dbus-run-session') && !existsSync('/bin/dbus-run-session')) return 'dbus-run-session is not installed (the dbus package)';
  try {
    await promisify(execFile)(PYTHON, ['-c', 'import dbus, dbus.service, dbus.mainloop.glib; from gi.repository import GLib'], { timeout: patient(10_000) });
  } catch {
    return `${PYTHON} cannot import dbus and gi (the python3-dbus and python3-gi packages)`;
  }
  return '';
}

/** Starts the bus and the server; resolves once the server holds org.freedesktop.Notifications. `capabilities`: what GetCapabilities answers. */
export async function startNotificationBus(capabilities = 'body,body-markup'): Promise<NotificationBus> {
  const record = join(tempDir('checkin-notify-'), 'calls.jsonl');
  // The server stops by itself after a while, whatever happens to the test.
  const limit = Math.ceil(patient(60_000) / 1000);
  const child = track(spawn('dbus-run-session', ['--', PYTHON, SERVER, record, String(limit), capabilities], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const first = await new Promise<{ address: string; pid: number }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the notification server did not start: ${stderr}`)), patient(15_000));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(line!) as { address: string; pid: number });
        } catch {
          reject(new Error(`the notification server said: ${out}${stderr}`));
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the notification server exited (${code}): ${stderr}`));
    });
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    address: first.address,
    calls: () =>
      existsSync(record)
        ? readFileSync(record, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Recorded)
        : [],
    close: async () => {
      // The server's own process ends; dbus-run-session then ends its bus and exits.
      try {
        process.kill(first.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, patient(5_000)))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
