// What the agent's hooks keep between runs (hooks.json in the state folder): per account, when this
// machine last saw the service accept a report of mine (a check-in's answers or an activity) and the
// date of the check-in sent; per agent session, what its Stop hook has said. Written, without an
// fsync, by outbox.ts `sendWithDraft` (the one way a write goes out) and by the Stop hook; read by
// hook-reminder.ts. A mark lost on a power loss only means a commit counted again.
import { join } from 'node:path';
import { readJson, writeDurably } from '../config/files.js';
import type { DraftTarget } from '../config/outbox-files.js';
import type { Context } from '../context.js';
import { cachedAccount } from './account.js';

export interface Marks {
  /** Per account (config/store.ts cacheKey): when this machine last saw a report of mine accepted, and the date of a check-in sent. */
  accounts?: Record<string, { reported_at?: string; sent?: string }>;
  /** Per agent session: the kinds of reminder its Stop hook has said (pending, commits, drafts), and when. */
  sessions?: Record<string, { kinds?: string[]; at: string }>;
}

const marksFile = (ctx: Pick<Context, 'config'>) => join(ctx.config().paths.state, 'hooks.json');

export function readMarks(ctx: Pick<Context, 'config'>): Marks {
  const { value } = readJson(marksFile(ctx));
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Marks) : {};
}

/** Best effort, no fsync: a mark is a convenience, never a promise. Whether it was written. */
export function writeMarks(ctx: Pick<Context, 'config'>, marks: Marks): boolean {
  try {
    writeDurably(marksFile(ctx), JSON.stringify(marks) + '\n', { sync: false });
    return true;
  } catch {
    // a state folder that cannot be written: the hooks only say more
    return false;
  }
}

/**
 * Called once the service accepted a write to `target` (outbox.ts `sendWithDraft`, whichever face or
 * path sent it): a check-in's answers (its date, from the check-in the service `answered` with) or an
 * activity is a report, so the hooks count commits from now on, and a check-in sent today is no
 * longer said to be pending. Any other write notes nothing. Never throws, never delays the caller by
 * more than one small write.
 */
export function noteReported(ctx: Context, target: DraftTarget, answered: unknown): void {
  if (target.kind !== 'check-in' && target.kind !== 'activity') return;
  try {
    const key = cachedAccount(ctx)?.key;
    if (!key) return;
    const marks = readMarks(ctx);
    const accounts = typeof marks.accounts === 'object' && marks.accounts !== null ? marks.accounts : {};
    const mine = { ...accounts[key], reported_at: ctx.now().toISOString() };
    const date = target.kind === 'check-in' && typeof answered === 'object' && answered !== null ? (answered as { date?: unknown }).date : undefined;
    if (typeof date === 'string') mine.sent = date;
    writeMarks(ctx, { ...marks, accounts: { ...accounts, [key]: mine } });
  } catch {
    // a mark is best effort
  }
}
