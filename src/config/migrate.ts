// The one-time move of drafts from where earlier versions kept them (<config>/drafts) to the state
// folder (<state>/drafts). Nothing is ever lost on the way: each file is copied, fsynced and linked
// into place (never over a file that is there), and the old one is removed only after that, and
// only if it is still what was copied. Running it again, or in two processes at once, moves nothing
// twice; a move that fails leaves the old file where it was, and the draft store reads it there.

import { linkSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fsReason, readRegularBytes, syncDir, writeTemp } from './files.js';

/** The saved_at of a draft file's text ('' when it has none). */
function savedAt(bytes: Buffer): string {
  try {
    const v = JSON.parse(bytes.toString('utf8')) as { saved_at?: unknown };
    return typeof v.saved_at === 'string' ? v.saved_at : '';
  } catch {
    return '';
  }
}

/** A draft file's bytes, undefined when it is missing; a FIFO, a folder or an oversized file is refused (readRegularBytes), never waited on. */
function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readRegularBytes(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Puts a copy of `bytes` at `dest` durably unless a file is there already; true when this call put it there. */
function place(dest: string, bytes: Buffer): boolean {
  const temp = writeTemp(dest, bytes);
  try {
    linkSync(temp, dest);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // No hard links here (some network and FUSE file systems): a rename, when nothing is there.
    if (readOrUndefined(dest) !== undefined) return false;
    renameSync(temp, dest);
    return true;
  } finally {
    rmSync(temp, { force: true });
  }
}

export interface Moved {
  moved: number;
  /** Why the move stopped (the rest stays where it was, and is read there). */
  failed?: string;
}

/**
 * Moves every file of `from` (drafts, and drafts set aside as damaged) into `to`. When both hold a
 * different file of the same name (an older checkin wrote one after the move), the newer draft keeps
 * the name and the other is kept beside it as `<name>.replaced-<ms>`; `warn` is told.
 */
export function migrateDrafts(from: string, to: string, warn: (message: string) => void = () => undefined, now = Date.now()): Moved {
  let names: string[];
  try {
    names = readdirSync(from).filter((n) => !n.endsWith('.tmp'));
  } catch {
    return { moved: 0 };
  }
  let moved = 0;
  try {
    if (names.length > 0) mkdirSync(to, { recursive: true, mode: 0o700 });
    for (const name of names) {
      const old = join(from, name);
      if (!statSync(old, { throwIfNoEntry: false })?.isFile()) continue;
      const bytes = readOrUndefined(old);
      if (bytes === undefined) continue; // another process moved it meanwhile
      const dest = join(to, name);
      const placed = place(dest, bytes);
      if (!placed) {
        const there = readOrUndefined(dest);
        if (there !== undefined && !there.equals(bytes)) {
          // Both differ: neither is dropped. The newer one is the draft; the other is kept beside it.
          const aside = `${dest}.replaced-${now}`;
          if (savedAt(bytes) > savedAt(there)) {
            place(aside, there);
            const temp = writeTemp(dest, bytes);
            renameSync(temp, dest);
          } else {
            place(aside, bytes);
          }
          warn(`two drafts named ${name} were found (in ${from} and ${to}); the newer is kept as the draft, the other as ${aside}`);
        }
      }
      syncDir(to);
      // Removed only when it is still what is now in the new place (an older checkin may have rewritten it).
      const still = readOrUndefined(old);
      try {
        if (still !== undefined && still.equals(bytes)) rmSync(old, { force: true });
      } catch (err) {
        // The old one cannot be removed (a read-only folder): no second copy, which would outlive
        // the first once that is sent. It is read where it is.
        if (placed) rmSync(dest, { force: true });
        throw err;
      }
      moved++;
    }
    syncDir(from);
    try {
      rmdirSync(from);
    } catch {
      // not empty (something new came), or already gone
    }
    return { moved };
  } catch (err) {
    return { moved, failed: `${fsReason(err)}` };
  }
}
