import { createHash, randomUUID } from 'node:crypto';

/** A stable UUID (v5-shaped) derived from a seed: the same seed always gives the same id. */
export function stableUuid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function newUuid(): string {
  return randomUUID();
}

/** ISO 8601 in UTC without milliseconds: 2026-05-06T09:15:00Z. */
export function isoSeconds(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The check-in of `personId` on `date` always has this id. */
export function checkInId(personId: string, date: string): string {
  return stableUuid(`check-in:${personId}:${date}`);
}
