// How a notice reaches each platform's notifier (system/notifier.ts): one program, an argument
// array, the words never part of a script or a shell line. gdbus's arguments are run for real on a
// session bus (test/cli/notify.test.ts); here the others' structure, and the words that must stay words.
import { describe, expect, it } from 'vitest';
import { webLink } from '../../src/domain/web-link.js';
import {
  bodyReading,
  escapeAttribute,
  escapeMarkup,
  findNotifier,
  gvariantString,
  noticeCommand,
  notifierMissing,
  showNotices,
} from '../../src/system/notifier.js';
import type { Host } from '../../src/system/programs.js';

const HOSTILE = `It's "done" \\ $(rm -rf ~) \`id\` <b>&amp;</b>\nsecond line; end run'`;
const host = (platform: NodeJS.Platform, programs: string[]): Host => ({
  platform,
  env: {},
  uid: 1000,
  find: (name) => (programs.includes(name) ? `/bin/${name}` : undefined),
  run: async () => ({ code: 0, stdout: '', stderr: '' }),
});

describe('the notifier of each platform', () => {
  it('Linux: notify-send first, else gdbus, else a plain sentence', () => {
    expect(findNotifier(host('linux', ['notify-send', 'gdbus']))).toEqual({ kind: 'notify-send', file: '/bin/notify-send' });
    expect(findNotifier(host('linux', ['gdbus']))).toEqual({ kind: 'gdbus', file: '/bin/gdbus' });
    expect(findNotifier(host('linux', []))).toBeUndefined();
    expect(notifierMissing(host('linux', []))).toMatch(/^neither notify-send nor gdbus was found on PATH/);
    expect(findNotifier(host('darwin', ['osascript']))).toEqual({ kind: 'osascript', file: '/bin/osascript' });
    expect(findNotifier(host('win32', ['powershell', 'pwsh']))).toEqual({ kind: 'powershell', file: '/bin/powershell' });
    // PowerShell 7 cannot load the WinRT toast types: not a notifier.
    expect(findNotifier(host('win32', ['pwsh']))).toBeUndefined();
    expect(notifierMissing(host('win32', ['pwsh']))).toBe(
      "Windows PowerShell (powershell.exe) was not found on PATH: notices cannot be shown as toasts (PowerShell 7's pwsh cannot show them)",
    );
  });

  it('notify-send: the title and the body as arguments after --, the body markup written as text', () => {
    const c = noticeCommand({ kind: 'notify-send', file: '/bin/notify-send' }, { title: 'checkin', body: HOSTILE });
    expect(c.args).toEqual(['--app-name=checkin', '--', 'checkin', escapeMarkup(HOSTILE)]);
    expect(escapeMarkup('<b>&amp;</b>')).toBe('&lt;b&gt;&amp;amp;&lt;/b&gt;');
  });

  it('gdbus: every string a GVariant literal, every special character escaped', () => {
    expect(gvariantString(HOSTILE)).toBe(`'It\\'s "done" \\\\ $(rm -rf ~) \`id\` <b>&amp;</b>\\nsecond line; end run\\''`);
    expect(gvariantString('a\u0007b')).toBe("'a\\u0007b'");
    const c = noticeCommand({ kind: 'gdbus', file: '/bin/gdbus' }, { title: 'checkin', body: 'x' }, { markup: false, links: false });
    expect(c.args.slice(c.args.indexOf('--'))).toEqual(['--', "'checkin'", 'uint32 0', "''", "'checkin'", "'x'", '@as []', '@a{sv} {}', 'int32 -1']);
  });

  it("osascript: the words are the run handler's arguments, never the script's", () => {
    const c = noticeCommand({ kind: 'osascript', file: '/usr/bin/osascript' }, { title: 'checkin', body: HOSTILE });
    expect(c.args).toEqual([
      '-e',
      'on run argv',
      '-e',
      'display notification (item 2 of argv) with title (item 1 of argv)',
      '-e',
      'end run',
      'checkin',
      HOSTILE,
    ]);
  });

  it('PowerShell: a toast with no module to install; the words travel as base64 inside the script', () => {
    const c = noticeCommand({ kind: 'powershell', file: 'C:\\powershell.exe' }, { title: 'checkin', body: HOSTILE });
    expect(c.args.slice(0, 3)).toEqual(['-NoProfile', '-NonInteractive', '-Command']);
    const script = c.args[3]!;
    expect(script).not.toContain('rm -rf');
    expect(script).not.toContain('Import-Module');
    // Under Windows PowerShell's registered AppUserModelID: an unregistered one ("checkin") shows nothing.
    expect(script).toContain(
      '[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier("{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe").Show(',
    );
    const data = /FromBase64String\("([A-Za-z0-9+/=]+)"\)/.exec(script)![1]!;
    expect(JSON.parse(Buffer.from(data, 'base64').toString('utf8'))).toEqual({ title: 'checkin', body: HOSTILE, url: '' });
    // Nothing else in the script came from the words: it is the same for any notice.
    const other = noticeCommand({ kind: 'powershell', file: 'C:\\powershell.exe' }, { title: 't', body: 'b' }).args[3]!;
    expect(script.replace(data, '')).toBe(other.replace(/FromBase64String\("[^"]*"\)/, 'FromBase64String("")'));
  });

  it("PowerShell: a click opens the link (the toast's protocol launch), set through the XML DOM from the base64 data", () => {
    const url = `https://app.example.com/check-ins/1"><x a='b'>&amp;$(calc)`;
    const c = noticeCommand({ kind: 'powershell', file: 'C:\\powershell.exe' }, { title: 'checkin', body: 'b', link: { url, label: 'Open the check-in' } });
    const script = c.args[3]!;
    expect(script).not.toContain('app.example.com');
    expect(script).toContain(
      'if ($n.url) { $xml.DocumentElement.SetAttribute("activationType", "protocol"); $xml.DocumentElement.SetAttribute("launch", $n.url) }',
    );
    const data = /FromBase64String\("([A-Za-z0-9+/=]+)"\)/.exec(script)![1]!;
    expect(JSON.parse(Buffer.from(data, 'base64').toString('utf8'))).toEqual({ title: 'checkin', body: 'b', url });
    // The script is the same with or without a link: only the data differs.
    const without = noticeCommand({ kind: 'powershell', file: 'C:\\powershell.exe' }, { title: 't', body: 'b' }).args[3]!;
    expect(script.replace(data, '')).toBe(without.replace(/FromBase64String\("[^"]*"\)/, 'FromBase64String("")'));
  });

  it('osascript: no click target (the link is not passed)', () => {
    const c = noticeCommand(
      { kind: 'osascript', file: '/usr/bin/osascript' },
      { title: 'checkin', body: 'b', link: { url: 'https://a.example/x', label: 'Open' } },
    );
    expect(c.args.join(' ')).not.toContain('https://');
  });
});

describe("a notice's link to the check-in", () => {
  const link = { url: `https://app.example.com/check-ins/1?x="'<>&`, label: 'Open <the> check-in' };

  it('freedesktop: the body ends with the link only where the server reads links; every special character escaped', () => {
    const gdbus = { kind: 'gdbus' as const, file: '/bin/gdbus' };
    const body = (reading: { markup: boolean; links: boolean }) => {
      const args = noticeCommand(gdbus, { title: 'checkin', body: 'A & B', link }, reading).args;
      return args[args.length - 4]!;
    };
    expect(body({ markup: true, links: true })).toBe(
      gvariantString(`A &amp; B\n<a href="https://app.example.com/check-ins/1?x=&quot;&apos;&lt;&gt;&amp;">Open &lt;the&gt; check-in</a>`),
    );
    expect(body({ markup: true, links: false })).toBe(gvariantString('A &amp; B'));
    expect(body({ markup: false, links: false })).toBe(gvariantString('A & B'));
    expect(escapeAttribute(`"'<>&`)).toBe('&quot;&apos;&lt;&gt;&amp;');
    // Links only within markup, and only where advertised; a server not asked: markup, no links.
    expect(bodyReading(['body', 'body-markup', 'body-hyperlinks'])).toEqual({ markup: true, links: true });
    expect(bodyReading(['body', 'body-hyperlinks'])).toEqual({ markup: false, links: false });
    expect(bodyReading(['body', 'body-markup'])).toEqual({ markup: true, links: false });
    expect(bodyReading(undefined)).toEqual({ markup: true, links: false });
  });

  it('notify-send: the capabilities asked through gdbus when it is on PATH (then the link); without gdbus, no link', async () => {
    const runs: string[][] = [];
    const linux = (programs: string[], caps: string): Host => ({
      ...host('linux', programs),
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' },
      run: async (file, args) => {
        runs.push([file, ...args]);
        return { code: 0, stdout: args.includes('org.freedesktop.Notifications.GetCapabilities') ? caps : '', stderr: '' };
      },
    });
    const notice = { title: 'checkin', body: 'Grace commented', link: { url: 'https://app.example.com/check-ins/1', label: 'Open the check-in' } };
    const notifySend = { kind: 'notify-send' as const, file: '/bin/notify-send' };
    const withLink = 'Grace commented\n<a href="https://app.example.com/check-ins/1">Open the check-in</a>';

    expect(await showNotices(linux(['notify-send', 'gdbus'], "(['body', 'body-markup', 'body-hyperlinks'],)\n"), notifySend, [notice])).toEqual([
      { shown: true },
    ]);
    expect(runs.map((r) => r[0])).toEqual(['/bin/gdbus', '/bin/notify-send']);
    expect(runs[1]!.at(-1)).toBe(withLink);

    runs.length = 0;
    await showNotices(linux(['notify-send', 'gdbus'], "(['body', 'body-markup'],)\n"), notifySend, [notice]);
    expect(runs[1]!.at(-1)).toBe('Grace commented');

    runs.length = 0;
    await showNotices(linux(['notify-send'], ''), notifySend, [notice]);
    expect(runs).toEqual([['/bin/notify-send', '--app-name=checkin', '--', 'checkin', 'Grace commented']]);

    // No notice with a link: nothing asked.
    runs.length = 0;
    await showNotices(linux(['notify-send', 'gdbus'], ''), notifySend, [{ title: 'checkin', body: 'x' }]);
    expect(runs.map((r) => r[0])).toEqual(['/bin/notify-send']);
  });

  it('notify-send or gdbus with no session bus: nothing run, each notice not shown, said in the words doctor uses, with what to do', async () => {
    const runs: string[][] = [];
    const noBus: Host = { ...host('linux', ['gdbus']), run: async (file, args) => (runs.push([file, ...args]), { code: 0, stdout: '', stderr: '' }) };
    const shown = await showNotices(noBus, { kind: 'gdbus', file: '/bin/gdbus' }, [{ title: 'checkin', body: 'x' }]);
    expect(shown).toEqual([
      {
        shown: false,
        detail: 'gdbus (/bin/gdbus), but this session has no session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
        fix: 'Run it from your desktop session.',
      },
    ]);
    expect(runs).toEqual([]);
  });

  it("only the service's http(s) web link, without its query, user or fragment, never one carrying the token", () => {
    const token = 'sandbox_pat_demo';
    expect(webLink('https://app.steady.space/check-ins/4f1c', [token])).toBe('https://app.steady.space/check-ins/4f1c');
    expect(webLink('http://127.0.0.1:4321/app/check-ins/1', [token])).toBe('http://127.0.0.1:4321/app/check-ins/1');
    expect(webLink('http://[::1]:4321/app/check-ins/1')).toBe('http://[::1]:4321/app/check-ins/1');
    expect(webLink('https://app.steady.space/check-ins/1?utm=mail#comments')).toBe('https://app.steady.space/check-ins/1');
    // A quote cannot leave the attribute: the parser writes it percent-encoded.
    expect(webLink('https://a.example/x"onclick="y')).toBe('https://a.example/x%22onclick=%22y');
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>1</script>',
      'file:///etc/passwd',
      'ftp://a.example/x',
      'vbscript:msgbox',
      'http://app.steady.space/check-ins/1', // plain http off this machine
      'https://user:pass@app.steady.space/x',
      '/check-ins/1',
      '',
      null,
      42,
    ])
      expect(webLink(bad, [token])).toBeNull();
    expect(webLink(`https://app.steady.space/check-ins/1?token=${token}`, [token])).toBeNull();
    expect(webLink(`https://app.steady.space/${token}/check-ins/1`, [token])).toBeNull();
  });
});
