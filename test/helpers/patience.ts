// How long a test may wait, on this machine now: a bound a loaded machine meets (issue 48: at load
// 30–50 a test that takes 2 s idle takes 20 s and more), never a verdict on its speed. The suite's
// default is 20 s times PATIENCE: the machine's load per core when the run starts (at least 3, at most
// 15), worked out once by vitest.config.ts and handed to every test process (CHECKIN_TEST_PATIENCE),
// or set by hand. A test with a bound of its own (a long scenario, a wait for an event) takes
// `patient(ms)`: the same bound, stretched alike.
import { availableParallelism, loadavg } from 'node:os';

/** The factor every bound is stretched by (≥ 1). */
export function patienceNow(env: NodeJS.ProcessEnv = process.env): number {
  const set = Number(env.CHECKIN_TEST_PATIENCE);
  if (Number.isFinite(set) && set >= 1) return set;
  return Math.min(15, Math.max(3, Math.ceil(loadavg()[0]! / availableParallelism())));
}

export const PATIENCE = patienceNow();

/** `ms` (a bound written for an idle machine), stretched by PATIENCE. */
export const patient = (ms: number): number => ms * PATIENCE;
