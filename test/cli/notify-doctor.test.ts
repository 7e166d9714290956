// `checkin doctor`'s notifier check, the built binary against the sandbox and a real session bus
// (test/helpers/notification-server.*): the server named, a test notice with --notify-test, and
// plain words where there is no notifier or no bus.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/harness.js';
import { notificationBusMissing, startNotificationBus, type NotificationBus } from '../helpers/notification-server.js';
import { TEST_NOTICE } from '../../src/domain/doctor-notify.js';
import { findProgram } from '../../src/system/programs.js';
import { tempDir } from '../helpers/cleanup.js';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** A PATH with gdbus alone on it (the notifier the checks below are about), or undefined where there is no gdbus. */
function gdbusOnly(): string | undefined {
  const gdbus = findProgram('gdbus', process.env);
  if (!gdbus) return undefined;
  const dir = tempDir('checkin-path-');
  symlinkSync(gdbus, join(dir, 'gdbus'));
  return dir;
}
const GDBUS_ONLY = gdbusOnly();

const w = useWorld();
const missing = await notificationBusMissing();
const skipped = missing ? ` — skipped: ${missing}` : '';

let bus: NotificationBus | undefined;
beforeEach(async () => {
  if (!missing) bus = await startNotificationBus();
});
afterEach(async () => {
  await bus?.close();
});

const notifierOf = async (args: string[], env: Record<string, string | undefined>) => {
  const r = await w.bin(['doctor', '--json', 'id,status,message,fix', ...args], { env });
  return { code: r.code, check: (JSON.parse(r.stdout) as Array<{ id: string }>).find((c) => c.id === 'notifier') };
};

describe('checkin doctor: the notifier', () => {
  it.skipIf(Boolean(missing))(`names the notification server on the bus; --notify-test shows a test notice there${skipped}`, async () => {
    const env = { DBUS_SESSION_BUS_ADDRESS: bus!.address };
    const plain = await notifierOf([], env);
    expect(plain.check).toEqual({
      id: 'notifier',
      status: 'ok',
      message: expect.stringMatching(/^(notify-send|gdbus) \(\/\S+\)(; the notification server is checkin-test-notifications 1)?$/),
      fix: null,
    });
    expect(bus!.calls()).toEqual([]);
    const tested = await notifierOf(['--notify-test'], env);
    expect(tested.check).toMatchObject({ status: 'ok', message: expect.stringMatching(/; a test notice was shown$/) });
    expect(bus!.calls()).toEqual([expect.objectContaining({ app: 'checkin', summary: TEST_NOTICE.title, body: TEST_NOTICE.body })]);
  });

  it.skipIf(Boolean(missing) || !GDBUS_ONLY)(
    `gdbus, and a bus with no notification server on it: a warning saying so${skipped || (GDBUS_ONLY ? '' : ' — skipped: no gdbus')}`,
    async () => {
      // The test's bus, its server gone.
      const address = bus!.address;
      await bus!.close();
      bus = undefined;
      const r = await notifierOf([], { DBUS_SESSION_BUS_ADDRESS: address, PATH: GDBUS_ONLY });
      expect(r.check).toMatchObject({
        status: 'warning',
        message: expect.stringMatching(/^gdbus \(\S+\), but no notification server answers on the session bus \(/),
      });
      // --notify-test cannot show it: a problem.
      const tested = await notifierOf(['--notify-test'], { DBUS_SESSION_BUS_ADDRESS: address, PATH: GDBUS_ONLY });
      expect(tested).toMatchObject({ code: 1, check: { status: 'problem', message: expect.stringMatching(/: the test notice cannot be shown$/) } });
    },
  );

  it.skipIf(!GDBUS_ONLY)(
    `no notifier on PATH: a warning with what to install; no session bus: a warning, said (--notify-test: a problem)${GDBUS_ONLY ? '' : ' — skipped: no gdbus'}`,
    async () => {
      const none = await notifierOf([], { PATH: tempDir('checkin-path-') });
      expect(none.check).toMatchObject({
        status: 'warning',
        message: expect.stringMatching(/^neither notify-send nor gdbus was found on PATH/),
        fix: expect.stringContaining('libnotify-bin'),
      });
      const noBus = await notifierOf([], { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined, PATH: GDBUS_ONLY });
      expect(noBus.check).toEqual({
        id: 'notifier',
        status: 'warning',
        message: `gdbus (${join(GDBUS_ONLY!, 'gdbus')}), but this session has no session bus (DBUS_SESSION_BUS_ADDRESS is not set): a notice from a run here cannot be shown (a run from your desktop session, or its timer, has one)`,
        fix: 'Run it from your desktop session.',
      });
      const test = await notifierOf(['--notify-test'], { DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: undefined, PATH: GDBUS_ONLY });
      expect(test).toMatchObject({ code: 1, check: { status: 'problem', fix: 'Run it from your desktop session.' } });
    },
  );
});
