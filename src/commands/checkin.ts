// `checkin checkin <key>`: show a check-in by key; with answer options, update it.
import type { Context } from '../context.js';
import { fillCheckIn, type AnswerFlags } from './fill.js';
import { resolveCheckInKey } from './resolve.js';

export async function runCheckIn(ctx: Context, key: string, flags: AnswerFlags): Promise<void> {
  await fillCheckIn(ctx, await resolveCheckInKey(ctx, key), flags, false);
}
