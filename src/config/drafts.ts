// Drafts: what the user typed, kept on disk until the service has accepted it. One typed store,
// one key function, one file per draft, written to a temporary file and renamed over the old one:
// a reader never sees half a draft, and commands running at once never lose each other's.
// A damaged draft is set aside (renamed, never deleted) with a warning and never blocks a new one.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActivityInput, CheckInAnswers, EchoQuestionInput, GoalInput, GoalUpdateInput } from '../api/types.js';
import { CliError } from '../errors.js';
import { normalizeApiUrl, sha256 } from './store.js';

/** What a draft is for, named canonically: a check-in by the date key or UUID in its path. */
export type DraftTarget =
  | { kind: 'check-in'; key: string }
  | { kind: 'comment'; on: 'check-in' | 'goal-update'; id: string }
  | { kind: 'goal-update'; goalId: string }
  | { kind: 'goal-update-edit'; id: string }
  /** The next activity to record (`checkin log`): one at a time. */
  | { kind: 'activity' }
  /** The next goal to create (`checkin goal create`): one at a time. */
  | { kind: 'goal' }
  | { kind: 'goal-edit'; id: string }
  /** The next echo question to ask (`checkin echo ask`): one at a time. */
  | { kind: 'echo-question' };

/** What was typed. */
export type DraftContent =
  | { kind: 'answers'; answers: CheckInAnswers }
  | { kind: 'comment'; body: string }
  | { kind: 'goal-update'; input: GoalUpdateInput }
  | { kind: 'activity'; input: ActivityInput }
  | { kind: 'goal'; input: GoalInput }
  | { kind: 'echo-question'; input: EchoQuestionInput }
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
    case 'activity':
      return 'activity';
    case 'goal':
      return 'goal';
    case 'goal-edit':
      return `goal-edit ${t.id.toLowerCase()}`;
    case 'echo-question':
      return 'echo-question';
  }
}

/** The one key of a draft: the normalised API URL and the canonical target. */
export function draftKey(apiUrl: string, target: DraftTarget): string {
  return `${normalizeApiUrl(apiUrl)} ${targetId(target)}`;
}

function isDraft(v: unknown): v is Draft {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Partial<Draft>;
  return typeof d.key === 'string' && typeof d.api_url === 'string' && typeof d.target === 'object' && d.target !== null && typeof d.content === 'object' && d.content !== null;
}

export class DraftStore {
  private unwritable = false;
  /** The drafts this run saved and has not deleted (what a stop signal leaves behind), by key. */
  private readonly keptNow = new Map<string, DraftTarget>();

  constructor(
    readonly dir: string,
    /** Told of what was set aside or could not be read (one line). */
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  private file(key: string): string {
    return join(this.dir, `${sha256(key).slice(0, 32)}.json`);
  }

  /** A draft file's content, or undefined when it is missing; a damaged one is set aside with a warning. */
  private read(file: string): Draft | undefined {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.warn(`cannot read the draft ${file}: ${(err as Error).message}`);
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (isDraft(parsed)) return parsed;
    const aside = `${file}.damaged-${Date.now()}`;
    try {
      renameSync(file, aside);
      this.warn(`the draft ${file} was damaged; it was set aside as ${aside}`);
    } catch (err) {
      this.warn(`the draft ${file} is damaged and could not be set aside: ${(err as Error).message}`);
    }
    return undefined;
  }

  get(apiUrl: string, target: DraftTarget): Draft | undefined {
    const key = draftKey(apiUrl, target);
    const draft = this.read(this.file(key));
    return draft?.key === key ? draft : undefined;
  }

  /** Every readable draft for this service, oldest first. */
  list(apiUrl: string): Draft[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => /^[0-9a-f]{32}\.json$/.test(n));
    } catch {
      return [];
    }
    const url = normalizeApiUrl(apiUrl);
    return names
      .map((n) => this.read(join(this.dir, n)))
      .filter((d): d is Draft => d !== undefined && d.api_url === url)
      .sort((a, b) => (a.saved_at < b.saved_at ? -1 : 1));
  }

  /** Writes the draft whole; throws a CliError naming the folder when it cannot. */
  save(apiUrl: string, target: DraftTarget, content: DraftContent, now: Date): Draft {
    const key = draftKey(apiUrl, target);
    const draft: Draft = { key, api_url: normalizeApiUrl(apiUrl), target, content, saved_at: now.toISOString() };
    const file = this.file(key);
    this.read(file); // a damaged draft there is set aside, not overwritten
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(temp, JSON.stringify(draft, null, 2) + '\n', { mode: 0o600 });
      renameSync(temp, file);
    } catch (err) {
      try {
        rmSync(temp, { force: true });
      } catch {
        // nothing was written
      }
      const why = `Cannot keep a draft in ${this.dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
      if (!this.unwritable) this.warn(`${why}; going on without one`);
      this.unwritable = true;
      throw new CliError(why);
    }
    this.keptNow.delete(key);
    this.keptNow.set(key, target);
    return draft;
  }

  delete(apiUrl: string, target: DraftTarget): void {
    const key = draftKey(apiUrl, target);
    rmSync(this.file(key), { force: true });
    this.keptNow.delete(key);
  }

  /** What this run saved and still keeps, the latest last. */
  keptThisRun(): DraftTarget[] {
    return [...this.keptNow.values()];
  }
}
