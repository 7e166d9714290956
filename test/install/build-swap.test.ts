// `npm run build` while a checkin linked to this folder runs in another terminal (`npm test` builds
// first): the new files are written beside dist/ and renamed over the old ones, so every run in the
// meantime finds a whole dist/checkin.cjs — never "checkin is not built yet" — and the build's files
// are never missing, however the runs and the build interleave. Nothing of the build is left beside.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { track } from '../helpers/cleanup.js';
import { BIN, BINARY, outcome, ROOT } from '../helpers/cli.js';
import { patient } from '../helpers/patience.js';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const FILES = ['checkin.cjs', 'checkin.cjs.map', 'help-topics.cjs', 'hook.cjs', 'mcp-first.cjs', 'mcp-server.cjs', 'sandbox-server.cjs', 'sandbox.js'];

describe.skipIf(BINARY !== undefined)('the build swaps dist/ in', () => {
  it(
    'a checkin started while it builds always runs: dist/ is whole at every moment',
    async () => {
      const { CHECKIN_BUILD_PLAIN: _plain, ...env } = process.env;
      const build = track(spawn(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
      let building = true;
      const built = outcome(build, 'node scripts/build.mjs', patient(120_000)).finally(() => (building = false));
      // Two terminals running checkin --version over and over, and a watch on the files between runs.
      const failed: string[] = [];
      let runs = 0;
      const loop = async () => {
        while (building) {
          const r = await outcome(
            track(spawn(process.execPath, [BIN, '--version'], { env, stdio: ['ignore', 'pipe', 'pipe'] })),
            'checkin --version',
            patient(30_000),
          );
          runs++;
          if (r.code !== 0 || r.stdout.trim() !== version) failed.push(`exit ${r.code}: ${r.stdout}${r.stderr}`);
        }
      };
      const missing = new Set<string>();
      const watch = async () => {
        while (building) {
          for (const f of FILES) if (!existsSync(join(ROOT, 'dist', f))) missing.add(f);
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await Promise.all([loop(), loop(), watch()]);
      expect(await built).toMatchObject({ code: 0 });
      expect(failed).toEqual([]);
      expect([...missing]).toEqual([]);
      // The build took long enough for runs to meet it (a build of a few seconds; each run ~0.1 s).
      expect(runs).toBeGreaterThanOrEqual(4);
      expect(readdirSync(join(ROOT, 'dist')).sort()).toEqual(FILES);
      expect(readdirSync(ROOT).filter((n) => n.startsWith('.dist-'))).toEqual([]);
    },
    patient(180_000),
  );
});
