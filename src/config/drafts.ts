// Drafts: what the user typed, kept on disk until the service has accepted it. One typed store,
// one key function, one file per draft (written to a temporary file and renamed over the old
// one, so a reader never sees half a draft and two commands never overwrite each other's).

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckInAnswers, GoalUpdateInput } from '../api/types.js';
import { CliError } from '../errors.js';
import { normalizeApiUrl, sha256 } from './store.js';

/** What a draft is for, named canonically: a check-in by the date key or UUID in its path. */
export type DraftTarget =
  | { kind: 'check-in'; key: string }
  | { kind: 'comment'; on: 'check-in' | 'goal-update'; id: string }
  | { kind: 'goal-update'; goalId: string }
  | { kind: 'goal-update-edit'; id: string };

/** What was typed. */
export type DraftContent =
  | { kind: 'answers'; answers: CheckInAnswers }
  | { kind: 'comment'; body: string }
  | { kind: 'goal-update'; input: GoalUpdateInput }
  /** Editor text kept exactly as written (e.g. when it could not be read as answers). */
  | { kind: 'text'; text: string };

export interface Draft {
  key: string;
  api_url: string;
  target: DraftTarget;
  content: DraftContent;
  saved_at: string;
}

function targetId(t: DraftTarget): string {
  switch (t.kind) {
    case 'check-in':
      return `check-in ${t.key.toLowerCase()}`;
    case 'comment':
      return `comment ${t.on} ${t.id.toLowerCase()}`;
    case 'goal-update':
      return `goal-update ${t.goalId.toLowerCase()}`;
    case 'goal-update-edit':
      return `goal-update-edit ${t.id.toLowerCase()}`;
  }
}

/** The one key of a draft: the normalised API URL and the canonical target. */
export function draftKey(apiUrl: string, target: DraftTarget): string {
  return `${normalizeApiUrl(apiUrl)} ${targetId(target)}`;
}

export class DraftStore {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, `${sha256(key).slice(0, 32)}.json`);
  }

  get(apiUrl: string, target: DraftTarget): Draft | undefined {
    const key = draftKey(apiUrl, target);
    const file = this.file(key);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new CliError(`Cannot read the draft ${file}: ${(err as Error).message}`);
    }
    let draft: Draft;
    try {
      draft = JSON.parse(text) as Draft;
    } catch {
      throw new CliError(`The draft ${file} is damaged (not JSON); it was left as it is`, 1, 'Open it to copy your text out, then delete it.');
    }
    return draft.key === key ? draft : undefined;
  }

  save(apiUrl: string, target: DraftTarget, content: DraftContent, now: Date): Draft {
    const key = draftKey(apiUrl, target);
    const draft: Draft = { key, api_url: normalizeApiUrl(apiUrl), target, content, saved_at: now.toISOString() };
    const file = this.file(key);
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(temp, JSON.stringify(draft, null, 2) + '\n', { mode: 0o600 });
      renameSync(temp, file);
    } catch (err) {
      rmSync(temp, { force: true });
      throw new CliError(`Cannot save a draft in ${this.dir}: ${(err as Error).message}; nothing was sent`);
    }
    return draft;
  }

  delete(apiUrl: string, target: DraftTarget): void {
    rmSync(this.file(draftKey(apiUrl, target)), { force: true });
  }
}
