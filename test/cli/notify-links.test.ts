// A click on a notice opens the check-in: on a real session bus (test/helpers/notification-server.*),
// the Notify call's body ends with a link to the check-in's page exactly when the server advertises
// body-hyperlinks, and a link the service gives that is not a plain http(s) web link (javascript:,
// file:, a quote to break the attribute, the token in its query) never reaches the body.
import { afterEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/datekey.js';
import { shortDay } from '../../src/core/dayname.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { call } from '../helpers/http.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { notificationBusMissing, startNotificationBus, type NotificationBus } from '../helpers/notification-server.js';

const w = useWorld({ rateLimit: undefined });
const missing = await notificationBusMissing();
const skipped = missing ? ` — skipped: ${missing}` : '';

let bus: NotificationBus | undefined;
afterEach(async () => {
  await bus?.close();
  bus = undefined;
});

const notify = (args: string[] = []) => w.cli(['notify', '--once', ...args], { env: { DBUS_SESSION_BUS_ADDRESS: bus!.address } });
const comment = (on: string, body: string) => call(w.sb.url, 'POST', `/check-ins/${on}/comments`, { token: 'sandbox_pat_grace', body: { body } });
/** The sandbox's web app, where its `url`s point. */
const app = () => `${new URL(w.sb.url).origin}/app`;
const link = (url: string, label = 'Open the check-in') => `\n<a href="${url}">${label}</a>`;

describe("a notice's link to the check-in (a real D-Bus session)", () => {
  it.skipIf(Boolean(missing))(
    `a server that advertises body-hyperlinks: the body ends with the escaped link; hostile links never reach it${skipped}`,
    async () => {
      bus = await startNotificationBus('body,body-markup,body-hyperlinks');
      await w.cli(['inbox']);

      // The teammate blocked on me: no web link is kept for a blocker, so none is shown.
      const first = await notify();
      expect(first.code).toBe(0);
      expect(bus.calls()).toHaveLength(1);
      expect(bus.calls()[0]!.body).toMatch(/^Linus Torvalds is blocked on you .*”$/);

      // A teammate's comment on my check-in: its page.
      await w.clock.sleep(60_000);
      const yesterday = checkInId(w.id('ada'), addDays(TODAY, -1));
      expect((await comment(yesterday, 'Nice & tidy')).status).toBe(201);
      const shown = await notify();
      // The terminal (a timer's journal) gets the sentence, not the markup.
      expect(shown.stdout).toBe(`Grace Hopper commented on your check-in for ${shortDay(addDays(TODAY, -1))}: “Nice & tidy”\n`);
      expect(bus.calls()).toHaveLength(2);
      expect(bus.calls()[1]!.body).toBe(
        `Grace Hopper commented on your check-in for ${shortDay(addDays(TODAY, -1))}: “Nice &amp; tidy”${link(`${app()}/check-ins/${yesterday}`)}`,
      );

      // The service hands back links that must not be opened as given. Real comments, read back as
      // the service answers them, with each one's `url` replaced.
      await w.clock.sleep(60_000);
      const since = w.clock.now().toISOString();
      const hostile: Record<string, string> = {
        'one javascript': `javascript:alert(document.cookie)//${app()}/check-ins/${yesterday}`,
        'two quote': `${app()}/check-ins/${yesterday}" onclick="alert(1)`,
        'three apostrophe': `${app()}/check-ins/${yesterday}'><img src=x>`,
        'four file': 'file:///etc/passwd',
        'five token': `${app()}/check-ins/${yesterday}?access_token=${w.sb.token}`,
      };
      for (const body of Object.keys(hostile)) {
        await w.clock.sleep(1_000);
        expect((await comment(yesterday, body)).status).toBe(201);
      }
      const read = async (perPage: number) => {
        const page = await call(w.sb.url, 'GET', `/digest?category=comment&since=${encodeURIComponent(since)}&per_page=${perPage}`, { token: w.sb.token });
        expect(page.status).toBe(200);
        for (const e of page.json as Array<{ resource: { body: string; url: string } }>) e.resource.url = hostile[e.resource.body]!;
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(page.json) };
      };
      // The look's check (per_page=1), then the inbox's reading.
      w.sb.inject({ path: '/digest', ...(await read(1)) }, { path: '/digest', ...(await read(50)) });
      w.forget();
      const looked = await notify(['--json', 'text,url']);
      expect(w.sent()).toEqual([
        expect.stringMatching(/^GET \/api\/v2\/digest\?.*per_page=1$/),
        expect.stringMatching(/^GET \/api\/v2\/digest\?.*per_page=50$/),
      ]);
      const data = JSON.parse(looked.stdout) as Array<{ text: string; url: string | null }>;
      expect(data).toHaveLength(5);
      const urlOf = (word: string) => data.find((n) => n.text.includes(word))!.url;
      expect(urlOf('javascript')).toBeNull();
      expect(urlOf('file')).toBeNull();
      expect(urlOf('token')).toBeNull();
      // A quote is written percent-encoded by the URL's own rules; an apostrophe stays, escaped in the attribute.
      expect(urlOf('two quote')).toBe(`${app()}/check-ins/${yesterday}%22%20onclick=%22alert(1)`);
      expect(urlOf('apostrophe')).toBe(`${app()}/check-ins/${yesterday}'%3E%3Cimg%20src=x%3E`);

      const bodies = bus
        .calls()
        .slice(2)
        .map((c) => c.body);
      expect(bodies).toHaveLength(5);
      const bodyOf = (word: string) => bodies.find((b) => b.includes(word))!;
      for (const word of ['one javascript', 'four file', 'five token']) expect(bodyOf(word)).toMatch(/^Grace Hopper commented on your check-in for .*”$/);
      expect(bodyOf('two quote').endsWith(link(`${app()}/check-ins/${yesterday}%22%20onclick=%22alert(1)`))).toBe(true);
      expect(bodyOf('three apostrophe').endsWith(link(`${app()}/check-ins/${yesterday}&apos;%3E%3Cimg%20src=x%3E`))).toBe(true);
      for (const b of bodies) {
        expect(b).not.toMatch(/javascript:|file:|access_token|sandbox_pat_|onclick="|<img/);
        // One attribute, opened and closed once.
        expect(b.split('"').length === 1 || b.split('"').length === 3).toBe(true);
      }
    },
  );

  it.skipIf(Boolean(missing))(`a server that does not advertise body-hyperlinks: no link in the body (the link stays in --json)${skipped}`, async () => {
    bus = await startNotificationBus('body,body-markup');
    await w.cli(['inbox']);
    await w.clock.sleep(60_000);
    const yesterday = checkInId(w.id('ada'), addDays(TODAY, -1));
    expect((await comment(yesterday, 'Nice & tidy')).status).toBe(201);
    const r = await notify(['--json', 'kind,url']);
    expect(JSON.parse(r.stdout)).toEqual([
      { kind: 'comment', url: `${app()}/check-ins/${yesterday}` },
      { kind: 'blocked', url: null },
    ]);
    expect(bus.calls().map((c) => c.body)).toEqual([
      `Grace Hopper commented on your check-in for ${shortDay(addDays(TODAY, -1))}: “Nice &amp; tidy”`,
      expect.stringMatching(/^Linus Torvalds is blocked on you .*”$/),
    ]);
    for (const c of bus.calls()) expect(c.body).not.toContain('<a');
  });
});
