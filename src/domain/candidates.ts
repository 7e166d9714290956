// What can be offered to complete a word, from what checkin has cached (never a request): day words,
// team names, goal ids and titles. The shell's Tab (commands/completion) and the agent's
// completion/complete (mcp/server.ts) offer the same.
import type { CacheEntry } from '../config/store.js';
import { cachedForService } from './account.js';
import type { Context } from '../context.js';

/** The day words checkin takes, each with what it means. */
export const DAY_WORDS: Array<[string, string]> = [
  ['today', 'today'],
  ['yesterday', 'yesterday'],
  ['tomorrow', 'tomorrow'],
  ['workday', 'the last Monday–Friday before today'],
  ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d): [string, string] => [d, `the most recent ${d}`]),
];

/**
 * What the cache holds for this service (no request is ever made here, and the keychain is not
 * touched): domain/account.ts reads it, as every read of the cached `me` goes through there.
 */
export function cachedEntry(ctx: Context): CacheEntry {
  return cachedForService(ctx);
}

/** The team names known: mine, then the directory's (each once). */
export function cachedTeamNames(c: CacheEntry): string[] {
  const names = new Set<string>();
  for (const t of [...(c.me?.teams ?? []), ...(c.directory?.teams ?? [])]) names.add(t.name);
  return [...names];
}
