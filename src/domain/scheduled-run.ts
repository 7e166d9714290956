// What a scheduled run (a reminder's, the notices') cannot do that this shell can: read a token kept
// where it cannot reach (system/schedule.ts `scheduledToken`, which an install's warning says too).
// Read by doctor's reminder and notify-unit checks.
import type { AdviceWords, Context } from '../context.js';
import { scheduledToken, storedForScheduled } from '../system/schedule.js';
import type { Mechanism } from '../system/scheduled.js';

/**
 * What a scheduled run started by `mechanism` lacks to read the token, as doctor says it: a note, how
 * bad (the keychain not yet asked from a scheduled run's environment may still open: a warning), and
 * its fix; undefined when it reads it. `keychainOpens`: what doctor's keychain check found.
 */
export function scheduledRunToken(
  ctx: Pick<Context, 'config'>,
  w: AdviceWords,
  mechanism: Mechanism,
  keychainOpens: boolean | undefined,
): { note: string; status: 'warning' | 'problem'; fix: string } | undefined {
  const t = scheduledToken(ctx, mechanism === 'crontab' ? 'cron' : 'a scheduled run', keychainOpens);
  if (t.why === undefined) return undefined;
  return { note: `the token ${t.why}`, status: t.readable === 'maybe' ? 'warning' : 'problem', fix: `Run ${storedForScheduled(w.login('insecure-storage'))}.` };
}
