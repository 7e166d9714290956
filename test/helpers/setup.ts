import { afterAll, afterEach } from 'vitest';
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
