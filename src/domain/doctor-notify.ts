// `checkin doctor`'s notifier check: the program `checkin notify` shows notices through
// (system/notifier.ts), the session bus it needs on Linux and the notification server on it
// (asked, not shown anything: GetServerInformation, when gdbus is there); with --notify-test, a
// test notice shown for real. Each program call is bounded (system/programs.ts).
import type { Host } from '../system/programs.js';
import { findNotifier, NO_SESSION_BUS, notifierMissing, onSessionBus, SESSION_BUS_FIX, sessionBus, showNotices } from '../system/notifier.js';

/** What the check found (domain/doctor.ts makes it the `notifier` check). */
export interface NotifierFinding {
  status: 'ok' | 'warning' | 'problem';
  message: string;
  fix: string | null;
}

/** The words of the test notice. */
export const TEST_NOTICE = { title: 'checkin', body: 'A test notice from checkin doctor: this is how checkin notify shows what is new.' };

/** The server's name and version, as GetServerInformation answers: ('dunst', 'knopwob', '1.9.0', '1.2'). */
async function serverName(host: Host): Promise<{ name?: string; failed?: string }> {
  const gdbus = host.find('gdbus');
  if (!gdbus) return {};
  const r = await host.run(gdbus, [
    'call',
    '--session',
    '--timeout',
    '5',
    '--dest',
    'org.freedesktop.Notifications',
    '--object-path',
    '/org/freedesktop/Notifications',
    '--method',
    'org.freedesktop.Notifications.GetServerInformation',
  ]);
  if (r.code !== 0) return { failed: (r.stderr || r.stdout).trim().split('\n')[0]?.slice(0, 160) || `exit ${r.code}` };
  const [name, , version] = [...r.stdout.matchAll(/'([^'\\]*)'/g)].map((m) => m[1]!);
  return { name: [name, version].filter(Boolean).join(' ') };
}

export async function notifierCheck(host: Host, test = false): Promise<NotifierFinding> {
  const check = (status: NotifierFinding['status'], message: string, fix: string | null): NotifierFinding => ({ status, message, fix });
  const notifier = findNotifier(host);
  if (!notifier) {
    const fix =
      host.platform === 'linux'
        ? 'Install notify-send (Debian, Ubuntu: libnotify-bin) or gdbus (libglib2.0-bin); a desktop without a notification daemon needs one too (dunst, mako).'
        : `Make ${host.platform === 'win32' ? 'powershell' : 'osascript'} available on PATH.`;
    return check('warning', `${notifierMissing(host)}; checkin notify prints them instead`, fix);
  }
  const what = `${notifier.kind} (${notifier.file})`;
  const onLinux = onSessionBus(notifier);
  // A scheduled run is given the desktop's bus by the user manager: a run from here lacks it, and `checkin notify` here fails so.
  if (onLinux && !sessionBus(host.env))
    return test
      ? check('problem', `${what}, but ${NO_SESSION_BUS}: the test notice cannot be shown`, SESSION_BUS_FIX)
      : check(
          'warning',
          `${what}, but ${NO_SESSION_BUS}: a notice from a run here cannot be shown (a run from your desktop session, or its timer, has one)`,
          SESSION_BUS_FIX,
        );
  let server = '';
  if (onLinux) {
    const s = await serverName(host);
    if (s.failed)
      return check(
        test ? 'problem' : 'warning',
        `${what}, but no notification server answers on the session bus (${s.failed})${test ? ': the test notice cannot be shown' : ''}`,
        "Start your desktop's notification daemon (dunst, mako, notification-daemon).",
      );
    if (s.name) server = `; the notification server is ${s.name}`;
  }
  if (!test) return check('ok', `${what}${server}`, null);
  const [shown] = await showNotices(host, notifier, [TEST_NOTICE]);
  return shown?.shown
    ? check('ok', `${what}${server}; a test notice was shown`, null)
    : check(
        'problem',
        `${what}${server}; the test notice was not shown: ${shown?.detail ?? 'no answer'}`,
        'See what the notifier said; on Linux, is a notification daemon running in your desktop session?',
      );
}
