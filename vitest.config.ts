import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // The one version string, as the build writes it in (scripts/build.mjs).
  define: { __CHECKIN_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most test files wait on child processes (the CLI, a sandbox, npm, a pseudo-terminal), not the
    // CPU: three at a time halve the run on two cores (176 s → 97 s here) without starving any.
    maxWorkers: 3,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/helpers/setup.ts'],
  },
});
