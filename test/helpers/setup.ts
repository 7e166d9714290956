import * as timers from 'node:timers';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { killTracked, removeTempDirs, unmountAll } from './cleanup.js';

// Every test process runs in UTC, as the spawned CLI does (cleanEnv): in-process runs read the
// process's zone for "today".
process.env.TZ = 'UTC';

// Nothing a test made outlives it: what it spawned is killed when it ends (passed or failed; these
// hooks run after the file's own), the temp folders go when its file ends (a file's beforeAll may
// make one that all its tests use).
afterEach(async () => {
  await killTracked();
  unmountAll();
});
afterAll(async () => {
  await killTracked();
  unmountAll();
  removeTempDirs();
});

// Where files share a process (a project without isolation, vitest.config.ts), one that left a fake
// clock or a spy on a timer behind would make the next file's waits hang until its timeout: said at
// once instead, by each of its tests.
beforeEach(() => {
  for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] as const) {
    if (globalThis[name] !== timers[name])
      throw new Error(
        `globalThis.${name} is not Node's own: a test before this one in this process (this file's or an earlier file's) left a fake clock or a spy on it`,
      );
  }
});
