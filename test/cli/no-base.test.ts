// Issue 48, case 2: a draft kept while the service was down has no base (it never saw the
// check-in), so a resume cannot tell whether the words on the service are older or newer than it
// — and this machine's clock is no way to tell: it may be ahead of the service's. Real checkin
// processes against the sandbox, the machine's clock 10 minutes ahead of the service's (Debian's
// faketime on every checkin this machine runs); the service fails the first write (503, three
// tries); then the person writes on another device (a second token of theirs, one PATCH); then
// the piped `checkin today --resume`. What the service received is read from its request log, and
// what waits from the outbox's rows.
import { describe, expect, it } from 'vitest';
import { whenLabel } from '../../src/domain/outbox.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { keptWhileDownAhead, NO_FAKETIME, runCliAhead, writtenOnAnotherDevice } from '../helpers/clock-ahead.js';
import { outboxRows } from '../helpers/outbox.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

const SKEW_MS = 10 * 60_000;

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  env = e;
});

/** checkin on this machine, whose clock is 10 minutes ahead of the service's. */
const ahead = (args: string[], input = '') => runCliAhead(SKEW_MS, args, env, input);

const MINE = '- Wrote the export job';
const PHONE = '- Wrote the export job, then fixed its retry on the train';

const writes = () => sb.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);
const seen = () => sb.requests.map((r) => `${r.method} ${r.path}`);
const keptWhileDown = (args?: string[]) => keptWhileDownAhead(SKEW_MS, sb, env, MINE, args);
const writtenElsewhere = (day: string, previous: string) => writtenOnAnotherDevice(sb, day, previous);

const previousOn = async (day: string) =>
  ((await (await fetch(`${sb.url}/check-ins/${day}`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as { previous: string | null }).previous;

describe.skipIf(NO_FAKETIME !== undefined)(
  NO_FAKETIME ? `skipped: ${NO_FAKETIME}` : 'a draft kept without a base never replaces words on the service unseen, whatever this clock says',
  () => {
    it('kept while the service was down, then written on another device: the piped `today --resume` 10 minutes ahead refuses (exit 1, one reason), sends nothing, keeps the draft', async () => {
      const { day, id } = await keptWhileDown();
      const savedAt = await writtenElsewhere(day, PHONE);

      const r = await ahead(['today', '--resume']);
      expect(r).toMatchObject({
        code: 1,
        stdout: '',
        stderr:
          `error: The draft ${id} was kept without seeing the check-in, so answers on the service (saved ${whenLabel(savedAt)}) may be newer than it; it was not sent and is still kept\n` +
          `At a terminal, \`checkin checkin ${day} --resume\` shows both and asks; \`checkin drafts drop ${id}\` drops the draft.\n`,
      });
      expect(seen()).toEqual([`GET /api/v2/check-ins/${day}`]);
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((row) => [row.id, row.state, JSON.parse(row.data).content])).toEqual([
        [id, 'kept', { kind: 'answers', answers: { previous: MINE } }],
      ]);
      expect(await previousOn(day)).toBe(PHONE);
    });

    it('nothing on the service, or the same words there: the same resume sends the draft without a question (one PATCH, the draft gone)', async () => {
      const { day } = await keptWhileDown();
      sb.requests.length = 0;
      const r = await ahead(['today', '--resume']);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day} 200`]);
      expect(sb.requests.at(-1)!.body).toEqual({ previous: MINE });
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toEqual([]);

      // Kept again while down; the other device then wrote the very same words: not newer, sent.
      const again = await keptWhileDown();
      await writtenElsewhere(again.day, MINE);
      const same = await ahead(['today', '--resume']);
      expect([same.code, same.stderr]).toEqual([0, '']);
      expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day} 200`]);
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toEqual([]);
    });

    it('a run that read the check-in before its write failed records it as the base: its resume sends over the words it saw, without a question', async () => {
      // The person's last check-in, as `checkin checkin last` finds it, holds words written earlier.
      const last = await ahead(['checkin', 'last', '--json', 'date']);
      expect(last.code, last.stderr).toBe(0);
      const { date } = JSON.parse(last.stdout) as { date: string };
      const earlier = await writtenElsewhere(date, PHONE);
      // `checkin checkin last` reads it (one list request) before the PATCH that fails.
      const { day, id } = await keptWhileDown(['checkin', 'last', '-p', '-']);
      expect(day).toBe(date);
      expect(JSON.parse(outboxRows(env.CHECKIN_CONFIG_DIR!)[0]!.data).base).toBe(earlier);
      sb.requests.length = 0;

      const r = await ahead(['checkin', day, '--resume']);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day} 200`]);
      expect(sb.requests.at(-1)!.body).toEqual({ previous: MINE });
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((row) => row.id)).not.toContain(id);
      expect(await previousOn(day)).toBe(MINE);
    });
  },
);
