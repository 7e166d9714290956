// Drafts exactly as earlier versions of checkin wrote them (their config/drafts.ts, DraftStore):
// one file per service and target, named by the SHA-256 of its key —
// sha256(`${normalizedApiUrl} ${targetId}`).slice(0, 32) + '.json' — holding
// { key, api_url, target, content, saved_at } as indented JSON; and, when a draft was replaced,
// the one before it kept beside it as `<name>.replaced-<ms>`, byte for byte.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DraftContent, DraftTarget } from '../../src/config/outbox-files.js';

export interface OldDraft {
  /** Where it was written. */
  file: string;
  /** Its bytes. */
  text: string;
  api_url: string;
  target: DraftTarget;
  content: DraftContent;
  saved_at: string;
}

/**
 * Writes one draft as an earlier version did into `dir` (made 0700 as they made it). `targetId` is
 * the canonical name those versions gave the target ("check-in 2026-11-22", "activity",
 * "comment check-in <uuid>"); `replacedAt` writes it as the copy kept aside when it was replaced.
 */
export function writeOldDraft(
  dir: string,
  d: { apiUrl: string; target: DraftTarget; targetId: string; content: DraftContent; savedAt: string; replacedAt?: number },
): OldDraft {
  const key = `${d.apiUrl} ${d.targetId}`;
  const name = `${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32)}.json${d.replacedAt === undefined ? '' : `.replaced-${d.replacedAt}`}`;
  const text = JSON.stringify({ key, api_url: d.apiUrl, target: d.target, content: d.content, saved_at: d.savedAt }, null, 2) + '\n';
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, name), text, { mode: 0o600 });
  return { file: join(dir, name), text, api_url: d.apiUrl, target: d.target, content: d.content, saved_at: d.savedAt };
}

/** The outbox entry an earlier draft becomes (its id made from its file, not known here). */
export function entryOf(d: OldDraft) {
  return {
    id: expect.stringMatching(/^[a-z2-9]{10}$/),
    account: { api_url: d.api_url },
    target: d.target,
    content: d.content,
    made: 'earlier',
    created_at: d.saved_at,
    saved_at: d.saved_at,
  };
}
