import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { PATIENCE } from './test/helpers/patience.js';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // The one version string, as the build writes it in (scripts/build.mjs).
  define: { __CHECKIN_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    // 20 s on an idle machine, stretched by the load the run starts under (test/helpers/patience.ts),
    // the same factor every test process reads for its own bounds.
    testTimeout: 20_000 * PATIENCE,
    hookTimeout: 20_000 * PATIENCE,
    env: { CHECKIN_TEST_PATIENCE: String(PATIENCE) },
    pool: 'forks',
    // The files of one worker share its process and what it imported (vitest's per-file isolation
    // re-imported and re-transformed src/ and the helpers for every file: about a third of the CPU of
    // a run, issue 49). What a file changes of the process it puts back (its timers, spies, TZ,
    // umask); test/helpers/setup.ts says at once when a timer is not Node's own.
    isolate: false,
    // Most test files wait on child processes (the CLI, a sandbox, npm, a pseudo-terminal), not the
    // CPU: three at a time halve the run on two cores (176 s → 97 s here) without starving any.
    maxWorkers: 3,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/helpers/setup.ts'],
  },
});
