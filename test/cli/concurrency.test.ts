// Several checkin processes failing at the same moment, sharing one config folder: each keeps its
// own draft (a row of the one outbox database, written in a transaction that waits its turn).
// The service holds each write until all N have arrived, then fails them together, so in every
// round the N processes keep their drafts at the same moment. 8 rounds: with SQLite's busy timeouts
// taken out and the retry of its making, 9 of 20 such rounds lost drafts (without the hold, 1 of 20
// did), so 8 rounds miss that break about once in a hundred runs (the 20 unheld rounds, 1 in 3).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { startHostile } from '../helpers/hostile.js';
import { folderEntries } from '../helpers/outbox.js';
import { tempDir } from '../helpers/cleanup.js';
import { patient } from '../helpers/patience.js';

const ROUNDS = 8;
const N = 4;

let h: Awaited<ReturnType<typeof startHostile>>;
beforeAll(async () => {
  h = await startHostile({ failWrites: true, failTogether: N });
});
afterAll(async () => {
  await h.close();
});

describe('concurrent commands', () => {
  it(
    `${N} processes failing at once keep ${N} drafts, in each of ${ROUNDS} rounds`,
    async () => {
      const lost: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const config = join(tempDir('checkin-conc-'), 'config');
        const env = cleanEnv({ CHECKIN_API_URL: h.url, CHECKIN_TOKEN: 't', CHECKIN_CONFIG_DIR: config });
        const runs = Array.from({ length: N }, (_, i) =>
          i % 2 === 0
            ? runCli(['checkin', `2026-11-0${i + 1}`, '-p', '-'], { env, input: `answer ${round}.${i}\n` })
            : runCli(['comments', `00000000-0000-4000-8000-00000000000${i}`, '--add', '-'], { env, input: `comment ${round}.${i}\n` }),
        );
        const results = await Promise.all(runs);
        expect(results.map((r) => r.code)).toEqual(Array(N).fill(1));
        for (const r of results) expect(r.stderr).toMatch(/kept as a draft/);
        const dir = join(config, 'drafts');
        const kept = folderEntries(dir)
          .map((e) => e.content)
          .map((c) => (c.kind === 'answers' ? c.answers.previous : c.body.trim()))
          .sort();
        const expected = Array.from({ length: N }, (_, i) => `${i % 2 === 0 ? 'answer' : 'comment'} ${round}.${i}`).sort();
        if (JSON.stringify(kept) !== JSON.stringify(expected)) lost.push(`round ${round}: kept ${JSON.stringify(kept)}`);
        expect(readdirSync(dir).filter((f) => !/^outbox\.db(-wal|-shm)?$/.test(f))).toEqual([]);
      }
      expect(lost).toEqual([]);
    },
    patient(60_000),
  );
});
