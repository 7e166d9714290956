// `npm run test:unit`: test/unit alone, in seconds (issue 49). These files are pure (structure.test.ts
// holds them to it: no process, socket, sandbox or terminal), so they need no build and no fresh
// module graph per file: vitest's per-file isolation re-imported and re-transformed src/ for each
// of 30 files (import 58 s, transform 21 s of 64 s), where two processes that keep what they loaded
// take a third of the CPU (vitest.config.ts now shares them for every file too). Everything else is
// vitest.config.ts's, so `npm test` runs these files too.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts'],
    // The CPU is all they wait on: one process per core.
    maxWorkers: 2,
  },
});
