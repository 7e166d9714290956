// Several checkin processes failing at the same moment, sharing one config folder: each keeps its
// own draft (one file per draft, written whole and renamed into place). 20 rounds.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { startHostile } from '../helpers/hostile.js';
import { folderEntries } from '../helpers/outbox.js';
import { tempDir } from '../helpers/cleanup.js';
import { patient } from '../helpers/patience.js';

let h: Awaited<ReturnType<typeof startHostile>>;
beforeAll(async () => {
  h = await startHostile({ failWrites: true });
});
afterAll(async () => {
  await h.close();
});

const ROUNDS = 20;
const N = 4;

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
