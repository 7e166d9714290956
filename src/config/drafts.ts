// Drafts: what the user typed, kept on disk until the service has accepted it. One typed store,
// one key function, one file per draft, written to a temporary file and renamed over the old one:
// a reader never sees half a draft, and commands running at once never lose each other's.
// A damaged draft is set aside (renamed, never deleted) with a warning and never blocks a new one.
// Drafts are read from the drafts folder and from where else one may be (the folder of earlier
// versions, while it is being moved; the private temp folder a draft goes to when the drafts folder
// cannot be written); they are written to the first that can be written.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActivityInput, CheckInAnswers, EchoQuestionInput, GoalInput, GoalUpdateInput } from '../api/types.js';
import { CliError } from '../errors.js';
import { fsReason } from './files.js';
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

export interface DraftPlaces {
  /** Read too, never written: where earlier versions kept drafts. */
  legacy?: string;
  /** Where a draft goes when `dir` cannot be written (made on first use), or undefined when there is none. */
  fallback?: (opts: { create: boolean }) => string | undefined;
}

export class DraftStore {
  private unwritable = false;
  private readonly unremovable = new Set<string>();
  /** The drafts this run saved and has not deleted (what a stop signal leaves behind), by key. */
  private readonly keptNow = new Map<string, DraftTarget>();

  constructor(
    readonly dir: string,
    /** Told of what was set aside or could not be read (one line). */
    private readonly warn: (message: string) => void = () => undefined,
    private readonly places: DraftPlaces = {},
  ) {}

  private fileIn(dir: string, key: string): string {
    return join(dir, `${sha256(key).slice(0, 32)}.json`);
  }

  /** Every folder a draft may be in, the drafts folder first. */
  private dirs(): string[] {
    const fallback = this.places.fallback?.({ create: false });
    return [this.dir, ...(this.places.legacy ? [this.places.legacy] : []), ...(fallback ? [fallback] : [])];
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
    for (const dir of this.dirs()) {
      const draft = this.read(this.fileIn(dir, key));
      if (draft?.key === key) return draft;
    }
    return undefined;
  }

  /** Every readable draft for this service, oldest first (one per key: the drafts folder's first). */
  list(apiUrl: string): Draft[] {
    const url = normalizeApiUrl(apiUrl);
    const byKey = new Map<string, Draft>();
    for (const dir of this.dirs()) {
      let names: string[];
      try {
        names = readdirSync(dir).filter((n) => /^[0-9a-f]{32}\.json$/.test(n));
      } catch {
        continue;
      }
      for (const n of names) {
        const d = this.read(join(dir, n));
        if (d !== undefined && d.api_url === url && !byKey.has(d.key)) byKey.set(d.key, d);
      }
    }
    return [...byKey.values()].sort((a, b) => (a.saved_at < b.saved_at ? -1 : 1));
  }

  /** Writes the draft whole into `dir`; throws the file system's error. */
  private writeIn(dir: string, draft: Draft): void {
    const file = this.fileIn(dir, draft.key);
    this.read(file); // a damaged draft there is set aside, not overwritten
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(temp, JSON.stringify(draft, null, 2) + '\n', { mode: 0o600 });
      renameSync(temp, file);
    } catch (err) {
      try {
        rmSync(temp, { force: true });
      } catch {
        // nothing was written
      }
      throw err;
    }
  }

  /**
   * Writes the draft whole, in the drafts folder or, when that cannot be written, in the private
   * temp folder (saying so, once); throws a CliError naming the folder when neither can be written.
   */
  save(apiUrl: string, target: DraftTarget, content: DraftContent, now: Date): Draft {
    const key = draftKey(apiUrl, target);
    const draft: Draft = { key, api_url: normalizeApiUrl(apiUrl), target, content, saved_at: now.toISOString() };
    let where = this.dir;
    try {
      this.writeIn(this.dir, draft);
    } catch (err) {
      const why = `Cannot keep a draft in ${this.dir} (${fsReason(err)})`;
      const fallback = this.places.fallback?.({ create: true });
      let kept = false;
      if (fallback) {
        try {
          this.writeIn(fallback, draft);
          kept = true;
          where = fallback;
        } catch {
          // below: no draft at all
        }
      }
      if (!kept) {
        if (!this.unwritable) this.warn(`${why}; going on without one`);
        this.unwritable = true;
        throw new CliError(why);
      }
      if (!this.unwritable) this.warn(`${why}; it is kept in ${fallback} instead`);
      this.unwritable = true;
    }
    // The same draft left in another folder would come back once this one is sent.
    for (const dir of this.dirs()) if (dir !== where) this.remove(this.fileIn(dir, key));
    this.keptNow.delete(key);
    this.keptNow.set(key, target);
    return draft;
  }

  /**
   * Copies the draft kept for `target` beside it as `<file>.replaced-<ms>` (never read back as a
   * draft, nor listed) before it is replaced, so nothing typed is lost; returns the copy's path, or
   * undefined when no draft is kept. Throws the file system's error (then nothing is to be replaced).
   */
  keepAside(apiUrl: string, target: DraftTarget, now: Date): string | undefined {
    const key = draftKey(apiUrl, target);
    for (const dir of this.dirs()) {
      const file = this.fileIn(dir, key);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      for (let n = 0; ; n++) {
        const aside = `${file}.replaced-${now.getTime()}${n ? `-${n}` : ''}`;
        try {
          writeFileSync(aside, bytes, { mode: 0o600, flag: 'wx' });
          return aside;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 99) throw err;
        }
      }
    }
    return undefined;
  }

  delete(apiUrl: string, target: DraftTarget): void {
    const key = draftKey(apiUrl, target);
    for (const dir of this.dirs()) this.remove(this.fileIn(dir, key));
    this.keptNow.delete(key);
  }

  /** Removes a draft file if it is there; one that cannot be removed is said (once), and stays. */
  private remove(file: string): void {
    try {
      rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR' || this.unremovable.has(file)) return; // no such folder
      this.unremovable.add(file);
      this.warn(`the draft ${file} could not be removed (${fsReason(err)})`);
    }
  }

  /** What this run saved and still keeps, the latest last. */
  keptThisRun(): DraftTarget[] {
    return [...this.keptNow.values()];
  }
}
