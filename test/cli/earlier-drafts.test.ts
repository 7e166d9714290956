// Drafts an earlier version of checkin kept — one file per target named by the hash of its key,
// and the copy it kept aside when one was replaced — written byte for byte as it wrote them, where
// it wrote them: all are moved into the outbox and sent by `checkin today --resume` and
// `checkin log --resume`, oldest first, against the sandbox; none is lost, none sent twice.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeApiUrl } from '../../src/config/store.js';
import { addDays } from '../../src/core/datekey.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { tempDir } from '../helpers/cleanup.js';
import { writeOldDraft } from '../helpers/earlier.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { folderEntries, folderView } from '../helpers/outbox.js';

const w = useWorld();
/** A drafts folder as the tests read it (its entries as `<id>.json`: test/helpers/outbox.ts). */
const files = folderView;

/** The folders of a user with no CHECKIN_CONFIG_DIR (XDG), or with one (every file in it). */
function layout(kind: 'xdg' | 'one') {
  if (kind === 'one') {
    const dir = join(tempDir('checkin-earlier-'), 'one');
    return { env: { CHECKIN_CONFIG_DIR: dir }, places: [join(dir, 'drafts')], drafts: join(dir, 'drafts') };
  }
  const root = tempDir('checkin-earlier-');
  const env = { CHECKIN_CONFIG_DIR: undefined, HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config'), XDG_STATE_HOME: join(root, 'state') };
  // Earlier versions kept drafts in the config folder, and later ones in the state folder.
  return {
    env,
    places: [join(root, 'config', 'checkin', 'drafts'), join(root, 'state', 'checkin', 'drafts')],
    drafts: join(root, 'state', 'checkin', 'drafts'),
  };
}

describe('drafts of an earlier version, in the format it wrote', () => {
  for (const kind of ['xdg', 'one'] as const) {
    it(`${kind === 'xdg' ? 'in the config and state folders' : 'in CHECKIN_CONFIG_DIR/drafts'}: moved in, then today --resume and log --resume send every one, oldest first`, async () => {
      const l = layout(kind);
      const api = normalizeApiUrl(w.sb.url);
      const [a, b] = [l.places[0]!, l.places.at(-1)!];
      const yesterday = checkInId(w.id('ada'), addDays(TODAY, -1));
      const old = [
        // Today's check-in, and the draft it replaced (kept aside, in the other place).
        writeOldDraft(a, {
          apiUrl: api,
          target: { kind: 'check-in', key: TODAY },
          targetId: `check-in ${TODAY}`,
          content: { kind: 'answers', answers: { intentions: 'Newest plan', blockers: 'None' } },
          savedAt: `${TODAY}T09:00:00.000Z`,
        }),
        writeOldDraft(b, {
          apiUrl: api,
          target: { kind: 'check-in', key: TODAY },
          targetId: `check-in ${TODAY}`,
          content: { kind: 'answers', answers: { intentions: 'First plan' } },
          savedAt: `${TODAY}T08:00:00.000Z`,
          replacedAt: Date.parse(`${TODAY}T09:00:00.000Z`),
        }),
        // The next activity, and the one it replaced.
        writeOldDraft(b, {
          apiUrl: api,
          target: { kind: 'activity' },
          targetId: 'activity',
          content: { kind: 'activity', input: { group: 'git', description: 'Fixed the flaky test', url: 'https://example.com/pr/1' } },
          savedAt: `${TODAY}T08:30:00.000Z`,
        }),
        writeOldDraft(a, {
          apiUrl: api,
          target: { kind: 'activity' },
          targetId: 'activity',
          content: { kind: 'activity', input: { group: 'checkin', description: 'Paired with Grace — ünïcode' } },
          savedAt: `${TODAY}T07:00:00.000Z`,
          replacedAt: Date.parse(`${TODAY}T08:30:00.000Z`),
        }),
        // A comment neither command sends: it waits, as it was.
        writeOldDraft(a, {
          apiUrl: api,
          target: { kind: 'comment', on: 'check-in', id: yesterday },
          targetId: `comment check-in ${yesterday}`,
          content: { kind: 'comment', body: 'Nice work' },
          savedAt: `${TODAY}T06:00:00.000Z`,
        }),
      ];
      expect(old.map((d) => d.file.replace(/^.*\//, ''))).toEqual([
        expect.stringMatching(/^[0-9a-f]{32}\.json$/),
        expect.stringMatching(/^[0-9a-f]{32}\.json\.replaced-\d+$/),
        expect.stringMatching(/^[0-9a-f]{32}\.json$/),
        expect.stringMatching(/^[0-9a-f]{32}\.json\.replaced-\d+$/),
        expect.stringMatching(/^[0-9a-f]{32}\.json$/),
      ]);

      const today = await w.cli(['today', '--resume', '--json'], { env: l.env });
      // "None" as blockers is sent as no blockers, and said.
      expect([today.code, today.stderr]).toEqual([0, 'note: Blockers "None" are sent as no blockers: the check-in is not marked blocked.\n']);
      // One GET first: what the check-in holds now, so that nothing newer is written over.
      expect(w.sent()).toEqual([`GET /api/v2/check-ins/${TODAY}`, `PATCH /api/v2/check-ins/${TODAY}`, `PATCH /api/v2/check-ins/${TODAY}`]);
      expect(w.sb.requests.slice(1).map((r) => r.body)).toEqual([{ intentions: 'First plan' }, { intentions: 'Newest plan', blockers: '' }]);
      // One JSON document per check-in sent, in the order sent.
      const docs = JSON.parse(`[${today.stdout.trimEnd().replace(/\n}\n{/g, '\n},\n{')}]`) as unknown[];
      expect(docs).toEqual([
        expect.objectContaining({ date: TODAY, intentions: 'First plan', blockers: null }),
        expect.objectContaining({ date: TODAY, intentions: 'Newest plan', blockers: null, blocked: false }),
      ]);
      // Every earlier file is gone from where it was; what waits is in the drafts folder.
      for (const d of old) expect(existsSync(d.file)).toBe(false);

      w.forget();
      const log = await w.cli(['log', '--resume'], { env: l.env });
      // Piped output: one line per activity recorded (id, when, by whom, what), in the order sent.
      const at = w.clock.now().toISOString().replace('.000Z', 'Z');
      expect(log.stdout.split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^[0-9a-f-]{36}\t${at}\tapi\tAda Lovelace\tPaired with Grace — ünïcode\t$`)),
        expect.stringMatching(new RegExp(`^[0-9a-f-]{36}\t${at}\tapi\tAda Lovelace\tFixed the flaky test\thttps://example\\.com/pr/1$`)),
        '',
      ]);
      expect([log.code, log.stderr]).toEqual([0, '']);
      expect(w.sent()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities']);
      expect(w.sb.requests.map((r) => r.body)).toEqual([
        { group: 'checkin', description: 'Paired with Grace — ünïcode' },
        { group: 'git', description: 'Fixed the flaky test', url: 'https://example.com/pr/1' },
      ]);

      // The comment waits as an entry, as it was written; nothing else is left anywhere.
      w.forget();
      const left = await w.cli(['drafts', '--json', 'id,target,content,made,created_at,state'], { env: l.env });
      expect([left.code, left.stderr]).toEqual([0, '']);
      const [comment, ...more] = JSON.parse(left.stdout) as Array<{ id: string }>;
      expect(more).toEqual([]);
      expect(comment).toEqual({
        id: expect.stringMatching(/^[a-z2-9]{10}$/),
        target: { kind: 'comment', on: 'check-in', id: yesterday },
        content: { kind: 'comment', body: 'Nice work' },
        made: 'earlier',
        created_at: `${TODAY}T06:00:00.000Z`,
        state: 'waiting',
      });
      expect(files(l.drafts)).toEqual([`${comment!.id}.json`]);
      for (const p of l.places) if (p !== l.drafts) expect(files(p)).toEqual([]);
      expect(w.sent()).toEqual([]);

      // Again: nothing is sent twice.
      expect(await w.cli(['today', '--resume'], { env: l.env })).toEqual({ code: 2, stdout: '', stderr: `error: There is no draft for today (${TODAY})\n` });
      expect(await w.cli(['log', '--resume'], { env: l.env })).toEqual({ code: 2, stdout: '', stderr: 'error: There is no draft for an activity\n' });
      expect(w.sent()).toEqual([]);
      expect(folderEntries(l.drafts).find((e) => e.id === comment!.id)).toMatchObject({ content: { kind: 'comment', body: 'Nice work' } });
    });
  }
});
