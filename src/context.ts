// What commands are handed: streams, environment, clock — and, lazily, heavier services,
// so `checkin --help` never reads config or builds an HTTP client.

import type { IO } from './ui/io.js';

export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** The current instant (tests inject a fixed one). */
  now: () => Date;
}
