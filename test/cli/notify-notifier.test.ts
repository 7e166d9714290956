// How a notice reaches each platform's notifier (system/notifier.ts): one program, an argument
// array, the words never part of a script or a shell line. gdbus's arguments are run for real on a
// session bus (test/cli/notify.test.ts); here the others' structure, and the words that must stay words.
import { describe, expect, it } from 'vitest';
import { escapeMarkup, findNotifier, gvariantString, noticeCommand, notifierMissing } from '../../src/system/notifier.js';
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
    expect(findNotifier(host('win32', ['pwsh']))).toEqual({ kind: 'powershell', file: '/bin/pwsh' });
  });

  it('notify-send: the title and the body as arguments after --, the body markup written as text', () => {
    const c = noticeCommand({ kind: 'notify-send', file: '/bin/notify-send' }, { title: 'checkin', body: HOSTILE });
    expect(c.args).toEqual(['--app-name=checkin', '--', 'checkin', escapeMarkup(HOSTILE)]);
    expect(escapeMarkup('<b>&amp;</b>')).toBe('&lt;b&gt;&amp;amp;&lt;/b&gt;');
  });

  it('gdbus: every string a GVariant literal, every special character escaped', () => {
    expect(gvariantString(HOSTILE)).toBe(`'It\\'s "done" \\\\ $(rm -rf ~) \`id\` <b>&amp;</b>\\nsecond line; end run\\''`);
    expect(gvariantString('a\u0007b')).toBe("'a\\u0007b'");
    const c = noticeCommand({ kind: 'gdbus', file: '/bin/gdbus' }, { title: 'checkin', body: 'x' }, false);
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
    expect(script).toContain('[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier("checkin").Show(');
    const data = /FromBase64String\("([A-Za-z0-9+/=]+)"\)/.exec(script)![1]!;
    expect(JSON.parse(Buffer.from(data, 'base64').toString('utf8'))).toEqual({ title: 'checkin', body: HOSTILE });
    // Nothing else in the script came from the words: it is the same for any notice.
    const other = noticeCommand({ kind: 'powershell', file: 'C:\\powershell.exe' }, { title: 't', body: 'b' }).args[3]!;
    expect(script.replace(data, '')).toBe(other.replace(/FromBase64String\("[^"]*"\)/, 'FromBase64String("")'));
  });
});
