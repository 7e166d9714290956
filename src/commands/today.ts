// `checkin today`: fill in or show today's check-in, addressed by today's local date key.
import type { Context } from '../context.js';
import { localDateKey } from '../core/datekey.js';
import { fillCheckIn, type AnswerFlags } from './fill.js';

export async function runToday(ctx: Context, flags: AnswerFlags): Promise<void> {
  const date = localDateKey(ctx.now());
  await fillCheckIn(ctx, { key: date, label: `today (${date})`, resumeCommand: 'checkin today' }, flags);
}
