// The sandbox's state on disk (`checkin sandbox --data FILE`): FILE holds a whole snapshot (the
// JSON a user can read and edit), and FILE.journal the changes made since, one line each,
// appended and flushed to disk before the change is answered or shown to anyone. A write costs
// what it changes, not the size of the state. The journal is folded into a new snapshot at start,
// when it has grown past the snapshot's size, and at a clean stop.
//
// Crash safety: a journal line is acknowledged only after fdatasync; a last line without its newline
// (a crash cut it short, so it was never acknowledged) is dropped when loading. Any other damaged
// line, a whole last line included, refuses the start and leaves the journal as it is. A write that
// fails (ENOSPC…) is cut off the journal again, so what follows is never appended after a torn line.
// FILE is only ever replaced whole (temp file, fsync, rename). Replaying a line twice gives the same
// state (a change is "this record is now X" or "this record is gone"), so a crash between writing a
// snapshot and emptying the journal loses nothing and doubles nothing. The journal is emptied or
// truncated only once its lines were read whole (at start: only a torn tail is cut) or were written
// by this process; a damaged journal is never rewritten.

import { open, readFile, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadData, removeStrayTemps, saveData, validateData, type SandboxData } from './data.js';

/** The lists a write can change (each record has a string `id`). */
export const JOURNALED = ['check_ins', 'comments', 'reactions', 'goals', 'goal_updates', 'activities', 'echo_questions', 'echo_answers'] as const;
export type JournaledList = (typeof JOURNALED)[number];

/** One change of one write: a record as it now is, or the id of a record that is gone. */
export type Change = { list: JournaledList; put: { id: string } } | { list: JournaledList; delete: string };

/** The file operations a write goes through; tests replace them to make a disk fail. */
export interface StoreIO {
  /** Writes all of `data` at `position` (a short write is continued; an error is thrown). */
  write(handle: FileHandle, data: Buffer, position: number): Promise<void>;
  /** Flushes what was written to the disk. */
  sync(handle: FileHandle): Promise<void>;
}

export const realIO: StoreIO = {
  async write(handle, data, position) {
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
      done += bytesWritten;
    }
  },
  sync: (handle) => handle.datasync(),
};

/** A journal smaller than this is never worth folding in. */
const MIN_COMPACTION = 64 * 1024;

export const journalPath = (file: string) => `${file}.journal`;
export const lockPath = (file: string) => `${file}.lock`;

/** Applies journal changes to `data` (in place): records replaced where they are, new ones appended, deleted ones removed. */
export function applyChanges(data: SandboxData, changes: Change[]): void {
  const byList = new Map<JournaledList, Change[]>();
  for (const c of changes) byList.set(c.list, [...(byList.get(c.list) ?? []), c]);
  for (const [list, mine] of byList) {
    const records = data[list] as Array<{ id: string } | undefined>;
    const at = new Map<string, number>();
    records.forEach((r, i) => r && at.set(r.id, i));
    for (const c of mine) {
      if ('put' in c) {
        const i = at.get(c.put.id);
        if (i === undefined) at.set(c.put.id, records.push(c.put) - 1);
        else records[i] = c.put;
      } else {
        const i = at.get(c.delete);
        if (i !== undefined) {
          records[i] = undefined;
          at.delete(c.delete);
        }
      }
    }
    (data as unknown as Record<string, unknown>)[list] = records.filter((r) => r !== undefined);
  }
}

function checkChange(c: unknown): c is Change {
  if (typeof c !== 'object' || c === null) return false;
  const o = c as Record<string, unknown>;
  if (!JOURNALED.includes(o.list as JournaledList)) return false;
  if ('put' in o) return typeof o.put === 'object' && o.put !== null && typeof (o.put as { id?: unknown }).id === 'string';
  return typeof o.delete === 'string';
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A journal line that is not a well-formed change and not a torn last line: the start is refused, the journal left as it is. */
export class DamagedJournal extends Error {
  constructor(
    readonly source: string,
    /** The line's number, from 1. */
    readonly line: number,
    /** It is the last whole line (it ends in its newline). */
    readonly last: boolean,
  ) {
    super(
      last
        ? `${source}: line ${line}, the last whole line, is damaged; it ends in its newline, so it was written whole and may be an acknowledged change. ` +
            'Nothing was changed: fix that line, or remove it to start without it (or remove the journal to start from the data file alone)'
        : `${source}: line ${line} is damaged (the lines after it cannot be trusted); fix or remove the journal to start from the data file alone`,
    );
    this.name = 'DamagedJournal';
  }
}

/**
 * Reads a journal: the changes of every whole line, in order. Only a last line without its newline
 * is torn (a crash while it was written, so never acknowledged) and is left out. Any other line
 * that is not a well-formed change is an error, the last whole line included: it ends in its
 * newline, so it was written whole and may have been acknowledged, and dropping it would lose that
 * write without a word. Nothing is changed on disk; the message says which line and what to do.
 */
export function parseJournal(journal: string | Uint8Array, source: string): { changes: Change[]; lines: number; torn: boolean; goodBytes: number } {
  // Read as bytes: a byte that is not UTF-8 damages its line (decoded leniently it would become
  // U+FFFD, parse, and be written into the next snapshot), and goodBytes counts bytes on disk.
  const bytes = typeof journal === 'string' ? Buffer.from(journal) : journal;
  const changes: Change[] = [];
  let start = 0;
  let lines = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(bytes.subarray(start, end)));
    } catch {
      parsed = undefined;
    }
    const list = (parsed as { changes?: unknown } | undefined)?.changes;
    if (!Array.isArray(list) || !list.every(checkChange)) throw new DamagedJournal(source, lines, bytes.indexOf(0x0a, end + 1) === -1);
    changes.push(...list);
    start = end + 1;
  }
  // After the last newline: a line never finished.
  return { changes, lines, torn: start < bytes.length, goodBytes: start };
}

/** Loads FILE and FILE.journal as the sandbox would at its next start (undefined when FILE does not exist). */
export async function loadState(file: string): Promise<SandboxData | undefined> {
  return (await loadWithJournal(file))?.data;
}

/** FILE with its journal applied, and how many bytes of the journal hold whole lines. */
async function loadWithJournal(file: string): Promise<{ data: SandboxData; goodBytes: number } | undefined> {
  const data = await loadData(file);
  if (!data) return undefined;
  let bytes: Buffer;
  try {
    bytes = await readFile(journalPath(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { data, goodBytes: 0 };
    throw err;
  }
  const journal = parseJournal(bytes, journalPath(file));
  applyChanges(data, journal.changes);
  return { data: validateData(data, file), goodBytes: journal.goodBytes };
}

/**
 * A journal without its data file belongs to a state the user removed: it is removed and the
 * sandbox starts afresh. A damaged one is not removed (it is evidence): the start is refused.
 */
async function dropOrphanJournal(file: string): Promise<void> {
  const journal = journalPath(file);
  let bytes: Buffer;
  try {
    bytes = await readFile(journal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    parseJournal(bytes, journal);
  } catch (err) {
    if (!(err instanceof DamagedJournal)) throw err;
    throw new Error(`${journal}: line ${err.line} is damaged, and its data file ${file} is missing. Nothing was changed: remove the journal to start afresh`);
  }
  await rm(journal, { force: true });
}

/** Data files this process has open (a second sandbox in the same process is refused as well). */
const held = new Set<string>();

/** Takes FILE.lock for this process; refuses when a live process holds it (two sandboxes on one journal would garble it). */
async function takeLock(file: string): Promise<void> {
  const lock = lockPath(file);
  if (held.has(resolve(file))) {
    throw Object.assign(new Error(`${file} is in use by another sandbox of this process; close it first`), { code: 'ELOCKED' });
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      held.add(resolve(file));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
    // Our own pid in the file is stale (a killed run in a container reuses pids): `held` guards this process.
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw Object.assign(
        new Error(`${file} is in use by another sandbox (process ${pid}); stop it first, or remove ${lock} if that process is not a sandbox`),
        { code: 'ELOCKED' },
      );
    }
    await rm(lock, { force: true }); // left by a sandbox that was killed
  }
  throw Object.assign(new Error(`Cannot take the lock ${lock}`), { code: 'ELOCKED' });
}

async function releaseLock(file: string): Promise<void> {
  held.delete(resolve(file));
  await rm(lockPath(file), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function syncDir(path: string): Promise<void> {
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } catch {
    // some file systems cannot flush a folder
  } finally {
    await dir.close();
  }
}

export class Store {
  private journal!: FileHandle;
  /** Bytes of the journal that hold acknowledged lines; anything after them is cut off before the next append. */
  private size = 0;
  private dirty = false;
  private snapshotBytes = 0;
  /** After a compaction failed (a full disk), the next try waits until the journal has grown this far. */
  private retryAt = 0;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly io: StoreIO,
  ) {}

  /**
   * Opens FILE for a sandbox: takes the lock, loads FILE and its journal, lets `prepare` make the
   * state from them (undefined when FILE does not exist), writes it as one new snapshot and starts
   * an empty journal.
   */
  static async open(
    file: string,
    prepare: (loaded: SandboxData | undefined) => SandboxData,
    io: Partial<StoreIO> = {},
  ): Promise<{ store: Store; data: SandboxData }> {
    await takeLock(file);
    const store = new Store(file, { ...realIO, ...io });
    try {
      await removeStrayTemps(file);
      const loaded = await loadWithJournal(file);
      if (!loaded) await dropOrphanJournal(file);
      const data = prepare(loaded?.data);
      let snapshot: number | undefined;
      try {
        snapshot = await saveData(file, data);
      } catch (err) {
        // No room for a new snapshot (a full disk): go on from the data file and its journal as they
        // are, the torn end of the journal (if any) cut off. Nothing is lost; it is folded in later.
        const code = (err as NodeJS.ErrnoException).code;
        if (!loaded || (code !== 'ENOSPC' && code !== 'EDQUOT')) throw err;
      }
      if (snapshot === undefined) await store.continueJournal(loaded!.goodBytes);
      else await store.emptyJournal(snapshot);
      return { store, data };
    } catch (err) {
      await releaseLock(file);
      throw err;
    }
  }

  /** Starts an empty journal once the snapshot holds everything (a crash before this replays the old journal harmlessly). */
  private async emptyJournal(snapshotBytes: number): Promise<void> {
    this.snapshotBytes = snapshotBytes;
    this.journal = await open(journalPath(this.file), 'w', 0o600);
    await this.journal.datasync();
    await syncDir(this.file);
    this.size = 0;
    this.dirty = false;
  }

  /** Appends to the journal there is (its whole lines, `goodBytes` of it), the data file staying as it is. */
  private async continueJournal(goodBytes: number): Promise<void> {
    this.journal = await open(journalPath(this.file), constants.O_RDWR | constants.O_CREAT, 0o600);
    await this.journal.truncate(goodBytes);
    await this.journal.datasync();
    this.size = goodBytes;
    this.dirty = false;
    this.snapshotBytes = (await stat(this.file)).size;
    this.retryAt = this.size + Math.max(this.snapshotBytes, MIN_COMPACTION);
  }

  /** Appends one write's changes and flushes them; throws (leaving the journal as it was) when the disk refuses. */
  async append(changes: Change[]): Promise<void> {
    if (this.closed) throw new Error('The data file is closed');
    // Serialised now, before anything else can touch the records.
    const line = Buffer.from(JSON.stringify({ changes }) + '\n');
    if (this.dirty) {
      await this.journal.truncate(this.size);
      await this.io.sync(this.journal);
      this.dirty = false;
    }
    try {
      await this.io.write(this.journal, line, this.size);
      await this.io.sync(this.journal);
    } catch (err) {
      // Part of the line may be on disk: cut it off now (or before the next append).
      this.dirty = true;
      try {
        await this.journal.truncate(this.size);
        this.dirty = false;
      } catch {
        // stays dirty: the next append tries again first
      }
      throw err;
    }
    this.size += line.length;
  }

  /** True when the journal has grown past the snapshot: time to fold it in. */
  get wantsCompaction(): boolean {
    return !this.closed && this.size > Math.max(this.snapshotBytes, MIN_COMPACTION, this.retryAt);
  }

  /** Folds the journal into a new snapshot of `data` (which must hold every journaled change). */
  async compact(data: SandboxData): Promise<void> {
    try {
      this.snapshotBytes = await saveData(this.file, data);
      await this.journal.truncate(0);
      await this.io.sync(this.journal);
    } catch (err) {
      this.retryAt = this.size + Math.max(this.snapshotBytes, MIN_COMPACTION);
      throw err;
    }
    this.size = 0;
    this.dirty = false;
    this.retryAt = 0;
  }

  /** A clean stop: one last snapshot, the journal removed, the lock released. A failure keeps the journal (nothing is lost). */
  async close(data: SandboxData): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      // An empty journal: the data file already holds everything.
      if (this.size > 0 || this.dirty) await saveData(this.file, data);
      await this.journal.close();
      await rm(journalPath(this.file), { force: true });
    } catch {
      await this.journal.close().catch(() => undefined);
    } finally {
      await releaseLock(this.file);
    }
  }
}
