// `checkin notify` against a real session bus: dbus-run-session with a notification server on it that
// records the Notify calls it receives (test/helpers/notification-server.*), and the sandbox's
// request log for what each look cost.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, WEEKDAYS } from '../../src/core/datekey.js';
import { checkinPaths } from '../../src/config/paths.js';
import { noAnswers } from '../../src/sandbox/data.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { call } from '../helpers/http.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { notificationBusMissing, startNotificationBus, type NotificationBus } from '../helpers/notification-server.js';

const w = useWorld({ rateLimit: undefined }); // the service's limits on, as a person has them
const missing = await notificationBusMissing();
const skipped = missing ? ` — skipped: ${missing}` : '';

let bus: NotificationBus;
beforeEach(async () => {
  if (!missing) bus = await startNotificationBus();
});
afterEach(async () => {
  await bus?.close();
});

const notify = (args: string[] = [], env: Record<string, string | undefined> = {}) =>
  w.cli(['notify', '--once', ...args], { env: { DBUS_SESSION_BUS_ADDRESS: bus.address, ...env } });
const comment = (token: string, on: string, body: string) => call(w.sb.url, 'POST', `/check-ins/${on}/comments`, { token, body: { body } });
/** A notify-send that notes each notice it is given, one line each in `log`; `env`: a PATH with it first. */
const notingNotifier = () => {
  const bin = mkdtempSync(join(w.env.HOME!, 'bin-'));
  const log = join(bin, 'shown.log');
  writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\nfor a; do last=$a; done\nprintf '%s\\n' "$last" >> '${log}'\n`, { mode: 0o755 });
  // A bus to reach (its address is all checkin looks at before running the notifier; this one never calls it).
  return { log, env: { PATH: `${bin}:/usr/bin:/bin`, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } };
};
/** `n` comments by Grace on Ada's check-in of yesterday, made now (on the sandbox's clock), numbered from `from`. */
const graceComments = (n: number, from: number) => {
  for (let i = from; i < from + n; i++)
    w.sb.service.data.comments.push({
      id: `0b0b0b0b-0000-4000-8000-${String(i).padStart(12, '0')}`,
      body: `Note ${i}.`,
      person_id: w.id('grace'),
      resource: { type: 'check-in', id: checkInId(w.id('ada'), addDays(TODAY, -1)) },
      created_at: new Date(w.clock.now().getTime() - (from + n - i) * 1000).toISOString(),
    });
};
const DIGEST_CHECK = /^GET \/api\/v2\/digest\?category=comment&since=\S+&per_page=1$/;

describe('checkin notify through the desktop notifier (a real D-Bus session)', () => {
  it.skipIf(Boolean(missing))(
    `a teammate's comment: one notice saying who and what; again: none, in one request (304 with the ETag); an @mention and a blocker told once; my own words never${skipped}`,
    async () => {
      // What the inbox showed is not notified: it is read first, as a person would have.
      expect((await w.cli(['inbox'])).code).toBe(0);
      // The first look: the teammate blocked on me (the demo's Linus) is told, once.
      const first = await notify();
      expect(first).toMatchObject({ code: 0 });
      expect(bus.calls()).toEqual([
        {
          app: 'checkin',
          summary: 'checkin',
          body: expect.stringMatching(/^Linus Torvalds is blocked on you \(since \w{3} \d+ \w{3}, \d+ days\): “Waiting on @ada to review/),
          actions: [],
          hints: [],
          timeout: -1,
        },
      ]);
      expect(first.stdout).toBe(`${bus.calls()[0]!.body}\n`);

      // Nothing new: nothing shown, and one request, answered 304 once the ETag is known.
      w.forget();
      expect(await notify()).toMatchObject({ code: 0, stdout: '', stderr: 'Nothing new.\n' });
      w.forget();
      expect(await notify()).toMatchObject({ code: 0, stdout: '' });
      expect(w.sent()).toEqual([expect.stringMatching(DIGEST_CHECK)]);
      expect(w.sb.requests[0]!.status).toBe(304);
      expect(w.sb.requests[0]!.headers['if-none-match']).toMatch(/^W\/"/);
      expect(bus.calls()).toHaveLength(1);

      // Grace comments on my check-in of yesterday: one notice, who and what and which check-in.
      await w.clock.sleep(60_000);
      const yesterday = addDays(TODAY, -1);
      expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), yesterday), 'The keys rotated.')).status).toBe(201);
      w.forget();
      const fresh = await notify();
      expect(fresh.code).toBe(0);
      expect(bus.calls()).toHaveLength(2);
      const shown = bus.calls()[1]!;
      expect(shown.body).toMatch(/^Grace Hopper commented on your check-in for \w{3} \d+ \w{3}: “The keys rotated\.”$/);
      expect(fresh.stdout).toBe(`${shown.body}\n`);
      // The check, then the inbox's reading from the marker on.
      expect(w.sent()).toEqual([
        expect.stringMatching(DIGEST_CHECK),
        expect.stringMatching(/^GET \/api\/v2\/digest\?category=comment&since=\S+&page=1&per_page=50$/),
      ]);

      // Again: none, and one request.
      w.forget();
      expect((await notify()).stdout).toBe('');
      w.forget();
      expect((await notify()).stdout).toBe('');
      expect(w.sent()).toEqual([expect.stringMatching(DIGEST_CHECK)]);
      expect(w.sb.requests[0]!.status).toBe(304);
      expect(bus.calls()).toHaveLength(2);

      // My own comment: no notice (and the look after it is one request again).
      await w.clock.sleep(60_000);
      expect((await comment(w.sb.token, checkInId(w.id('grace'), TODAY), 'Thanks @grace')).status).toBe(201);
      await notify();
      w.forget();
      await notify();
      expect(w.sent()).toEqual([expect.stringMatching(DIGEST_CHECK)]);
      expect(bus.calls()).toHaveLength(2);

      // An @mention of me on a teammate's check-in, with words that must not act: markup and a terminal escape.
      await w.clock.sleep(60_000);
      const linus = checkInId(w.id('linus'), addDays(TODAY, -2));
      expect((await comment('sandbox_pat_grace', linus, '@ada <b>look</b> & \u001b[31mred\u001b[0m')).status).toBe(201);
      const mention = await notify();
      expect(bus.calls()).toHaveLength(3);
      // The server reads body markup (its capabilities say so): the words are written as text.
      expect(bus.calls()[2]!.body).toMatch(
        /^Grace Hopper mentioned you on Linus Torvalds's check-in for \w{3} \d+ \w{3}: “@ada &lt;b&gt;look&lt;\/b&gt; &amp; red”$/,
      );
      expect(mention.stdout).toMatch(/“@ada <b>look<\/b> & red”\n$/);
      expect(mention.stdout).not.toContain('\u001b');

      // The inbox still lists what was notified: a notice is not a look at the inbox.
      const inbox = await w.cli(['inbox']);
      expect(inbox.stdout).toContain('The keys rotated.');
      expect(inbox.stdout).toContain('@ada <b>look</b>');
      // And after it, notify has nothing more to say.
      await notify();
      expect(bus.calls()).toHaveLength(3);
    },
    60_000,
  );

  it.skipIf(Boolean(missing))(`quiet hours: nothing asked, nothing shown; outside them, a look${skipped}`, async () => {
    const hour = w.clock.now().getUTCHours(); // tests run with TZ=UTC
    const pad = (n: number) => String(n % 24).padStart(2, '0');
    w.forget();
    // A span around now, and one around now that passes midnight.
    for (const span of [`${pad(hour)}:00-${pad(hour + 1)}:00`, `${pad(hour + 23)}:00-${pad(hour + 1)}:00`]) {
      const r = await notify(['--quiet-hours', span]);
      expect(r).toEqual({ code: 0, stdout: '', stderr: `Quiet hours (${span}): nothing asked, nothing shown.\n` });
    }
    expect(w.sent()).toEqual([]);
    expect(bus.calls()).toEqual([]);
    // Outside quiet hours: it looks (and tells of the blocker).
    const r = await notify(['--quiet-hours', `${pad(hour + 2)}:00-${pad(hour + 3)}:00`]);
    expect(r.code).toBe(0);
    expect(bus.calls()).toHaveLength(1);
    expect((await w.cli(['notify', '--quiet-hours', '25:00-08:00'])).stderr).toMatch(/--quiet-hours must be two times written HH:MM-HH:MM/);
  });

  it.skipIf(Boolean(missing))(`a day with nothing scheduled: nothing shown, and asked once that day${skipped}`, async () => {
    // None of my teams meets today (the weekday of the sandbox's today, read from the data).
    const day = WEEKDAYS[new Date(`${TODAY}T12:00:00Z`).getUTCDay()]!.slice(0, 3);
    for (const t of w.sb.service.data.teams) t.schedule = t.schedule.filter((d) => d !== day);
    // Something that would be a notice otherwise.
    expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), addDays(TODAY, -1)), 'Nice work')).status).toBe(201);
    w.forget();
    const first = await notify();
    expect(first).toEqual({ code: 0, stdout: '', stderr: 'No check-in is scheduled today: nothing shown.\n' });
    expect(w.sent()).toEqual(['GET /api/v2/me', `GET /api/v2/check-ins/${TODAY}`]);
    w.forget();
    expect((await notify()).stderr).toBe('No check-in is scheduled today: nothing shown.\n');
    expect(w.sent()).toEqual([]);
    expect(bus.calls()).toEqual([]);
  });

  it(`a day the person is marked absent is as quiet as one with nothing scheduled: nothing shown, asked once that day`, async () => {
    // Today's check-in was made, then Ada was marked absent (the service's data says so, not the calendar).
    const id = checkInId(w.id('ada'), TODAY);
    const data = w.sb.service.data;
    data.check_ins = data.check_ins.filter((c) => c.id !== id);
    data.check_ins.push({ id, person_id: w.id('ada'), date: TODAY, ...noAnswers(), completed_at: null, updated_at: w.clock.now().toISOString(), absent: true });
    // Something that would be a notice otherwise (and the blocked teammate is one too).
    expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), addDays(TODAY, -1)), 'Nice work')).status).toBe(201);
    w.forget();
    const quiet = { code: 0, stdout: '', stderr: 'You are marked absent today: nothing shown.\n' };
    // No notifier is needed: none is asked for.
    expect(await w.cli(['notify', '--once'], { env: { PATH: '/nonexistent' } })).toEqual(quiet);
    expect(w.sent()).toEqual(['GET /api/v2/me', `GET /api/v2/check-ins/${TODAY}`]);
    w.forget();
    expect(await w.cli(['notify', '--dry-run'], { env: { PATH: '/nonexistent' } })).toEqual(quiet);
    expect(w.sent()).toEqual([]);
  });

  it.skipIf(Boolean(missing))(`--dry-run prints what it would show and shows nothing; --json gives the notices as data${skipped}`, async () => {
    await w.cli(['inbox']);
    const dry = await notify(['--dry-run']);
    expect(dry.stderr).toBe('Would show 1 notice (--dry-run: nothing shown, nothing marked as seen):\n');
    expect(dry.stdout).toMatch(/^Linus Torvalds is blocked on you /);
    const json = await notify(['--dry-run', '--json', 'kind,person,text']);
    expect(JSON.parse(json.stdout)).toEqual([
      { kind: 'blocked', person: { id: w.id('linus'), name: 'Linus Torvalds' }, text: expect.stringMatching(/^Linus Torvalds is blocked on you/) },
    ]);
    expect(bus.calls()).toEqual([]);
    // Shown for real with --json: the same data, and the notice on the bus.
    const shown = await notify(['--json', 'kind']);
    expect(JSON.parse(shown.stdout)).toEqual([{ kind: 'blocked' }]);
    expect(bus.calls()).toHaveLength(1);
  });

  it(`without a notifier on PATH: exit 1 saying why in one line; nothing marked as seen, the next run (with a notifier) shows it${skipped}`, async () => {
    await w.cli(['inbox']);
    const r = await w.cli(['notify'], { env: { PATH: '/nonexistent' } });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: 1 notice could not be shown: neither notify-send nor gdbus was found on PATH: notices cannot be shown (install libnotify-bin, or libglib2.0-bin for gdbus, and a notification daemon). Nothing is marked as seen: the next run shows it\n',
    });
    // Again: the same one line, not the notices over and over.
    expect(await w.cli(['notify'], { env: { PATH: '/nonexistent' } })).toEqual(r);
    if (missing) return;
    // With a notifier: shown now, then marked.
    const shown = await notify();
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Linus Torvalds is blocked on you /);
    expect(bus.calls()).toHaveLength(1);
    expect((await notify()).stdout).toBe('');
    expect(bus.calls()).toHaveLength(1);
  });

  it(`a notifier that fails: exit 1 with its words in one line, nothing marked as seen`, async () => {
    await w.cli(['inbox']);
    const bin = mkdtempSync(join(w.env.HOME!, 'bin-'));
    writeFileSync(join(bin, 'notify-send'), '#!/bin/sh\necho "no notification server" >&2\nexit 1\n', { mode: 0o755 });
    const r = await w.cli(['notify'], { env: { PATH: `${bin}:/usr/bin:/bin`, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: 1 notice could not be shown: notify-send failed: no notification server. Nothing is marked as seen: the next run shows it\n',
    });
    // Still waiting for the next run.
    const dry = await w.cli(['notify', '--dry-run'], { env: { PATH: '/nonexistent' } });
    expect(dry.stdout).toMatch(/^Linus Torvalds is blocked on you /);
  });

  it(`no session bus (none in the environment, no $XDG_RUNTIME_DIR/bus): exit 1 saying so plainly, with doctor --notify-test's words, and the notifier never run`, async () => {
    await w.cli(['inbox']);
    const bin = mkdtempSync(join(w.env.HOME!, 'bin-'));
    const ran = join(bin, 'ran');
    writeFileSync(join(bin, 'gdbus'), `#!/bin/sh\ntouch '${ran}'\necho "Error connecting: Cannot autolaunch D-Bus without X11 \\$DISPLAY" >&2\nexit 1\n`, {
      mode: 0o755,
    });
    const env = { PATH: bin, DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: mkdtempSync(join(w.env.HOME!, 'run-')) };
    const r = await w.cli(['notify'], { env });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: 1 notice could not be shown: gdbus (${join(bin, 'gdbus')}), but this session has no session bus (DBUS_SESSION_BUS_ADDRESS is not set). Nothing is marked as seen: the next run shows it\nRun it from your desktop session.\n`,
    });
    expect(existsSync(ran)).toBe(false);
    // doctor --notify-test says the same of it.
    const doctor = await w.cli(['doctor', '--notify-test', '--json', 'id,status,message,fix'], { env });
    expect((JSON.parse(doctor.stdout) as Array<{ id: string }>).find((c) => c.id === 'notifier')).toEqual({
      id: 'notifier',
      status: 'problem',
      message: `gdbus (${join(bin, 'gdbus')}), but this session has no session bus (DBUS_SESSION_BUS_ADDRESS is not set): the test notice cannot be shown`,
      fix: 'Run it from your desktop session.',
    });
    expect(existsSync(ran)).toBe(false);
  });

  it(`several runs started together show each notice once: each is claimed before it is shown (a compare-and-set), and the run that claims it shows it`, async () => {
    await w.cli(['inbox']);
    // Two notices: a teammate's comment, and the teammate blocked on me.
    await w.clock.sleep(60_000);
    expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), addDays(TODAY, -1)), 'Shown by one run only.')).status).toBe(201);
    const { log, env } = notingNotifier();
    const runs = await Promise.all(Array.from({ length: 4 }, () => w.cli(['notify', '--once'], { env })));
    for (const r of runs) expect(r).toMatchObject({ code: 0 });
    const shown = readFileSync(log, 'utf8').trim().split('\n').sort();
    expect(shown).toEqual([
      expect.stringMatching(/^Grace Hopper commented on .*“Shown by one run only\.”$/),
      expect.stringMatching(/^Linus Torvalds is blocked on you/),
    ]);
    // Each printed by the run that showed it, and by no other.
    expect(runs.flatMap((r) => r.stdout.split('\n').filter(Boolean)).sort()).toEqual(shown);
    // And a run after them: nothing new.
    expect(await w.cli(['notify', '--once'], { env })).toMatchObject({ code: 0, stdout: '', stderr: 'Nothing new.\n' });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it(`the notice counting the rest is shown again for another look's rest, though its words are the same ("3 more new things")`, async () => {
    await w.cli(['inbox']);
    const { log, env } = notingNotifier();
    const more = '3 more new things on your check-ins and goal updates: checkin inbox lists them.';
    // Seven new: the newest four shown, and one counting the other three.
    await w.clock.sleep(60_000);
    graceComments(6, 0);
    await w.clock.sleep(60_000);
    expect((await w.cli(['notify', '--once'], { env })).code).toBe(0);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(5);
    expect(readFileSync(log, 'utf8')).toContain(`${more}\n`);
    // Seven more (the blocker was told): the same words, about other notices.
    await w.clock.sleep(60_000);
    graceComments(7, 100);
    await w.clock.sleep(60_000);
    const r = await w.cli(['notify', '--once'], { env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const second = readFileSync(log, 'utf8').trim().split('\n').slice(5);
    expect(second).toEqual([...[106, 105, 104, 103].map((i) => expect.stringMatching(new RegExp(`“Note ${i}\\.”$`))), more]);
  });

  it(`a notice shown whose run could not move the marker past it (killed, or its state.json not written) is not shown again, and the next run moves the marker: never "another checkin is showing it" for one shown`, async () => {
    await w.cli(['inbox']);
    const { log, env } = notingNotifier();
    await w.clock.sleep(60_000);
    expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), addDays(TODAY, -1)), 'Shown once.')).status).toBe(201);
    const stateFile = join(checkinPaths(w.env).state, 'state.json');
    const before = readFileSync(stateFile);
    expect((await w.cli(['notify', '--once'], { env })).code).toBe(0);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
    // The marker as it was before that run.
    writeFileSync(stateFile, before);
    expect(await w.cli(['notify', '--once'], { env })).toEqual({ code: 0, stdout: '', stderr: 'Nothing new.\n' });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
    // That run moved the marker: the next asks only whether anything is new.
    const from = w.sent().length;
    expect(await w.cli(['notify', '--once'], { env })).toEqual({ code: 0, stdout: '', stderr: 'Nothing new.\n' });
    expect(w.sent().slice(from)).toEqual([expect.stringMatching(DIGEST_CHECK)]);
  });

  it(`a damaged notices.db is set aside whole and a new one begun, said once: the notice is shown, and the next run is quiet`, async () => {
    await w.cli(['inbox']);
    const { log, env } = notingNotifier();
    const state = checkinPaths(w.env).state;
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'notices.db'), 'not a database\n'.repeat(512));
    await w.clock.sleep(60_000);
    expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), addDays(TODAY, -1)), 'Shown despite the damage.')).status).toBe(201);
    const r = await w.cli(['notify', '--once'], { env });
    const aside = readdirSync(state).filter((f) => f.startsWith('notices.db.damaged-'));
    expect(aside).toEqual([expect.stringMatching(/^notices\.db\.damaged-\d+$/)]);
    expect(r).toMatchObject({
      code: 0,
      stderr: `warning: ${join(state, 'notices.db')} was damaged (file is not a database): it was set aside as ${join(state, aside[0]!)} and a new one begun\n`,
    });
    expect(readFileSync(join(state, aside[0]!), 'utf8')).toBe('not a database\n'.repeat(512));
    expect(readFileSync(log, 'utf8')).toMatch(/“Shown despite the damage\.”\n/);
    expect(await w.cli(['notify', '--once'], { env })).toEqual({ code: 0, stdout: '', stderr: 'Nothing new.\n' });
  });

  it(`a first look starts at the person's midnight, in their profile's zone, not UTC's`, async () => {
    // Ada on UTC+14: at 09:30 UTC it is 23:30 of the same day there, and her day began at 10:00 UTC the day before.
    w.sb.service.data.people.find((p) => p.username === 'ada')!.time_zone = 'Pacific/Kiritimati';
    const yesterday = addDays(TODAY, -1);
    // Grace's comment at 12:00 UTC yesterday: 02:00 today where Ada is.
    w.sb.service.data.comments.push({
      id: '0a0a0a0a-0000-4000-8000-000000000001',
      body: 'Seen at two in the morning.',
      person_id: w.id('grace'),
      resource: { type: 'check-in', id: checkInId(w.id('ada'), yesterday) },
      created_at: `${yesterday}T12:00:00Z`,
    });
    const r = await w.cli(['notify', '--dry-run', '--json', 'kind,text'], { env: { TZ: undefined } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual({
      kind: 'comment',
      text: expect.stringMatching(/^Grace Hopper commented on .*“Seen at two in the morning\.”$/),
    });
    // Had the floor been UTC's midnight, which is later than the comment: the digest would have been asked from it.
    expect(w.sent().some((l) => l.includes(`since=${yesterday}T10%3A00%3A00Z`) || l.includes(`since=${yesterday}T10:00:00Z`))).toBe(true);
  });
  it.skipIf(Boolean(missing))(
    `what came after the last look, in the evening's quiet hours, is shown the next morning: the first look's midnight is kept, not moved to each day's${skipped}`,
    async () => {
      // The first look (no inbox read before it): nothing but the blocker, shown.
      expect((await notify()).code).toBe(0);
      expect(bus.calls()).toHaveLength(1);
      // Grace comments in the evening, within the quiet hours (nothing asked then)…
      await w.clock.sleep(10 * 3_600_000);
      expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), addDays(TODAY, -1)), 'Left you a note tonight.')).status).toBe(201);
      expect((await notify(['--quiet-hours', '19:00-08:00'])).stderr).toBe('Quiet hours (19:00-08:00): nothing asked, nothing shown.\n');
      // …and the next morning's look shows it.
      await w.clock.sleep(14 * 3_600_000);
      const morning = await notify(['--quiet-hours', '19:00-08:00']);
      expect(morning.code).toBe(0);
      expect(bus.calls().map((c) => c.body)).toContainEqual(
        expect.stringMatching(/^Grace Hopper commented on your check-in for \w{3} \d+ \w{3}: “Left you a note tonight\.”$/),
      );
    },
  );
  it(`a notice is one bounded sentence, whatever the service says (a name, a title or a comment of any length cannot make it too long for the notifier's argument, which would fail every run)`, async () => {
    await w.cli(['inbox']);
    w.sb.service.data.people.find((p) => p.username === 'grace')!.name = `Grace ${'G'.repeat(200_000)}`;
    await w.clock.sleep(60_000);
    expect((await comment('sandbox_pat_grace', checkInId(w.id('ada'), addDays(TODAY, -1)), 'x'.repeat(100_000))).status).toBe(201);
    const r = await w.cli(['notify', '--dry-run', '--json', 'kind,text']);
    const notices = JSON.parse(r.stdout) as Array<{ kind: string; text: string }>;
    expect(notices.map((n) => n.kind)).toContain('comment');
    for (const n of notices) expect(n.text.length).toBeLessThanOrEqual(500);
  });
});
