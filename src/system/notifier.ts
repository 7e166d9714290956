// Showing a notice through the desktop's own notifier: on Linux the freedesktop Notifications
// service on the session bus, through `notify-send` or `gdbus` (whichever is on PATH); on macOS
// `osascript` (display notification); on Windows a toast through PowerShell (no module to install).
// Each is a program run with an argument array (never a shell) and a time limit (system/programs.ts);
// the words travel as arguments (osascript's argv, a GVariant string literal for gdbus) or as
// base64 inside PowerShell's script: nothing in them is ever read as code. A click opens the
// check-in where the notifier can say so without a process waiting for the click: a freedesktop
// body link (where the server advertises body-hyperlinks), a toast's protocol launch.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { COMMAND_TIMEOUT_MS, showCommand, type Host } from './programs.js';

export type NotifierKind = 'notify-send' | 'gdbus' | 'osascript' | 'powershell';

export interface Notifier {
  kind: NotifierKind;
  /** The program's absolute path. */
  file: string;
}

/** What a notice says: a short title and one sentence. Sanitised before it comes here. */
export interface NoticeText {
  title: string;
  body: string;
  /**
   * What a click opens, where the notifier can: an http(s) web link already checked (domain/web-link.ts)
   * and the words of the link ("Open the check-in"). A freedesktop body link where the server
   * advertises body-hyperlinks; a Windows toast's protocol launch; macOS's osascript has none.
   */
  link?: { url: string; label: string };
}

/** What the freedesktop server reads in a body (its GetCapabilities): markup, and links within it. */
export interface BodyReading {
  markup: boolean;
  links: boolean;
}

export interface Shown {
  shown: boolean;
  /** Why it was not shown, in one line (the notifier's own words). */
  detail?: string;
  /** What to do about it, where checkin knows (no session bus: SESSION_BUS_FIX). */
  fix?: string;
}

/** The session bus a run from here would use (Linux): its address, or undefined when there is none. Cheap: the environment and one file's existence; no call, nothing shown. */
export function sessionBus(env: NodeJS.ProcessEnv): string | undefined {
  if (env.DBUS_SESSION_BUS_ADDRESS) return env.DBUS_SESSION_BUS_ADDRESS;
  const runtime = env.XDG_RUNTIME_DIR;
  return runtime && isAbsolute(runtime) && existsSync(join(runtime, 'bus')) ? `unix:path=${join(runtime, 'bus')}` : undefined;
}

/** What is missing where notify-send or gdbus has no session bus to reach the notification server on: the one wording (notify's error, doctor's check). */
export const NO_SESSION_BUS = 'this session has no session bus (DBUS_SESSION_BUS_ADDRESS is not set)';
/** What to do about it (a scheduled run is given the desktop's bus by the user manager). */
export const SESSION_BUS_FIX = 'Run it from your desktop session.';

/** Whether the notifier shows notices through the freedesktop service on the session bus (Linux). */
export const onSessionBus = (notifier: Notifier): boolean => notifier.kind === 'notify-send' || notifier.kind === 'gdbus';

const BUS_NAME = 'org.freedesktop.Notifications';
const BUS_PATH = '/org/freedesktop/Notifications';
/** How long the notification server may take to answer one call (gdbus --timeout, seconds). */
const BUS_TIMEOUT_S = 10;

/** Windows PowerShell's AppUserModelID: the id a toast is shown under (see noticeCommand). */
export const POWERSHELL_APP_ID = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe';

/** The notifier this machine has, or undefined (notifierMissing says so in words). */
export function findNotifier(host: Host): Notifier | undefined {
  const names: NotifierKind[] = host.platform === 'darwin' ? ['osascript'] : host.platform === 'win32' ? ['powershell'] : ['notify-send', 'gdbus'];
  // On Windows, Windows PowerShell (powershell.exe) only: PowerShell 7 (`pwsh`, .NET Core) cannot
  // load the WinRT types a toast is made of, so a toast through it would never show.
  for (const kind of names) {
    const file = host.find(kind);
    if (file) return { kind, file };
  }
  return undefined;
}

/** The plain sentence for a machine without a notifier, with what to install. */
export function notifierMissing(host: Host): string {
  if (host.platform === 'darwin') return 'osascript was not found on PATH: notices cannot be shown (it is part of macOS: is /usr/bin on PATH?)';
  if (host.platform === 'win32')
    return "Windows PowerShell (powershell.exe) was not found on PATH: notices cannot be shown as toasts (PowerShell 7's pwsh cannot show them)";
  return 'neither notify-send nor gdbus was found on PATH: notices cannot be shown (install libnotify-bin, or libglib2.0-bin for gdbus, and a notification daemon)';
}

/** A string as GVariant's text format writes it (gdbus parses each argument so): quoted, every special character escaped. */
export function gvariantString(text: string): string {
  let out = "'";
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** The freedesktop body markup's three special characters, written as text. */
export const escapeMarkup = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A value inside a double-quoted markup (XML) attribute: its five special characters written as entities. */
export const escapeAttribute = (text: string): string => escapeMarkup(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/**
 * The freedesktop body: the sentence, and where the server reads links (body-hyperlinks, within
 * body-markup) a last line linking to what the notice is about. The sentence's <, > and & are
 * written as text wherever the server reads markup.
 */
export function freedesktopBody(n: NoticeText, reading: BodyReading): string {
  if (!reading.markup) return n.body;
  const link = reading.links && n.link ? `\n<a href="${escapeAttribute(n.link.url)}">${escapeMarkup(n.link.label)}</a>` : '';
  return `${escapeMarkup(n.body)}${link}`;
}

/** What a server that was not asked is taken to read: markup (GNOME, KDE, dunst, mako), and no links (they are not shown unless advertised). */
const UNASKED: BodyReading = { markup: true, links: false };

const gdbusArgs = (method: string, ...args: string[]) => [
  'call',
  '--session',
  '--timeout',
  String(BUS_TIMEOUT_S),
  '--dest',
  BUS_NAME,
  '--object-path',
  BUS_PATH,
  '--method',
  `${BUS_NAME}.${method}`,
  '--',
  ...args,
];

/**
 * The program and arguments that show `n`. `reading`: what the freedesktop server reads in a body
 * (asked through gdbus: busCapabilities); unasked, markup and no links.
 */
export function noticeCommand(notifier: Notifier, n: NoticeText, reading: BodyReading = UNASKED): { file: string; args: string[] } {
  const { file } = notifier;
  switch (notifier.kind) {
    case 'notify-send':
      // Servers that read markup are the rule (GNOME, KDE, dunst, mako): the body's <, > and & are
      // written as text. notify-send cannot ask whether the server reads links: showNotices asks
      // through gdbus when it is on PATH; else no link.
      return { file, args: ['--app-name=checkin', '--', n.title, freedesktopBody(n, { markup: true, links: reading.links })] };
    case 'gdbus': {
      const body = freedesktopBody(n, reading);
      // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout: -1 the server's default).
      return {
        file,
        args: gdbusArgs('Notify', "'checkin'", 'uint32 0', "''", gvariantString(n.title), gvariantString(body), '@as []', '@a{sv} {}', 'int32 -1'),
      };
    }
    case 'osascript':
      // The words are the run handler's arguments: never part of the script.
      return {
        file,
        args: ['-e', 'on run argv', '-e', 'display notification (item 2 of argv) with title (item 1 of argv)', '-e', 'end run', n.title, n.body],
      };
    case 'powershell': {
      // The link too is data: set as the toast's launch attribute through the XML DOM (which escapes
      // it), so a click opens it through its protocol (https:) handler, the default browser.
      const data = Buffer.from(JSON.stringify({ title: n.title, body: n.body, url: n.link?.url ?? '' }), 'utf8').toString('base64');
      const script = [
        '$ErrorActionPreference = "Stop"',
        `$n = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String("${data}")) | ConvertFrom-Json`,
        '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null',
        '$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)',
        '$xml.GetElementsByTagName("text").Item(0).AppendChild($xml.CreateTextNode($n.title)) | Out-Null',
        '$xml.GetElementsByTagName("text").Item(1).AppendChild($xml.CreateTextNode($n.body)) | Out-Null',
        'if ($n.url) { $xml.DocumentElement.SetAttribute("activationType", "protocol"); $xml.DocumentElement.SetAttribute("launch", $n.url) }',
        // Shown under Windows PowerShell's own AppUserModelID: since Windows 10 1709 a toast from an id
        // no Start-menu shortcut registers (such as "checkin") is dropped without a word, and
        // registering one would mean installing a shortcut. PowerShell's id is registered wherever it is.
        `[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier("${POWERSHELL_APP_ID}").Show([Windows.UI.Notifications.ToastNotification]::new($xml))`,
      ].join('; ');
      return { file, args: ['-NoProfile', '-NonInteractive', '-Command', script] };
    }
  }
}

/** The command as a person could type it (for messages). */
export const showNoticeCommand = (notifier: Notifier, n: NoticeText): string => {
  const c = noticeCommand(notifier, n);
  return showCommand(c.file, c.args);
};

/**
 * The notification server's capabilities, asked through gdbus (the notifier itself, or gdbus on PATH
 * beside notify-send); undefined when it cannot be asked (osascript, PowerShell, no gdbus).
 */
export async function busCapabilities(host: Host, notifier: Notifier): Promise<string[] | undefined> {
  const gdbus = notifier.kind === 'gdbus' ? notifier.file : notifier.kind === 'notify-send' ? host.find('gdbus') : undefined;
  if (!gdbus) return undefined;
  const r = await host.run(gdbus, gdbusArgs('GetCapabilities'));
  if (r.code !== 0) return undefined;
  return [...r.stdout.matchAll(/'([^'\\]*)'/g)].map((m) => m[1]!);
}

/** The first line of what a notifier said on failing, cut short. */
function failure(r: { code: number | null; stderr: string; stdout: string }): string {
  const line = (r.stderr || r.stdout).trim().split('\n')[0]?.slice(0, 200) ?? '';
  return r.code === null ? `it did not finish in time${line ? ` (${line})` : ''}` : line || `exit ${r.code}`;
}

/** What a server with these capabilities reads in a body: links only within markup, and only where advertised. */
export function bodyReading(caps: string[] | undefined): BodyReading {
  if (!caps) return UNASKED;
  const markup = caps.includes('body-markup');
  return { markup, links: markup && caps.includes('body-hyperlinks') };
}

/**
 * Shows notices one after another through one notifier. On Linux the server's capabilities are
 * asked once first, through gdbus (body markup or not, links or not). Each program call is bounded
 * by system/programs.ts's limit.
 */
/** The longest showNotices takes for `count` notices: the server's capabilities asked once, then one program each, each bounded. */
export const showingAtMostMs = (count: number): number => (count + 1) * COMMAND_TIMEOUT_MS;

export async function showNotices(host: Host, notifier: Notifier, notices: NoticeText[]): Promise<Shown[]> {
  // No bus to reach the server on: said as that, not as the notifier's own error (gdbus's "Cannot autolaunch D-Bus without X11 $DISPLAY").
  if (onSessionBus(notifier) && !sessionBus(host.env))
    return notices.map(() => ({ shown: false, detail: `${notifier.kind} (${notifier.file}), but ${NO_SESSION_BUS}`, fix: SESSION_BUS_FIX }));
  const needed = notices.length > 0 && (notifier.kind === 'gdbus' || (notifier.kind === 'notify-send' && notices.some((n) => n.link)));
  const reading = bodyReading(needed ? await busCapabilities(host, notifier) : undefined);
  const out: Shown[] = [];
  for (const n of notices) {
    const c = noticeCommand(notifier, n, reading);
    const r = await host.run(c.file, c.args);
    out.push(r.code === 0 ? { shown: true } : { shown: false, detail: `${notifier.kind} failed: ${failure(r)}` });
  }
  return out;
}
