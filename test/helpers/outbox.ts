// The outbox as the tests read it: <config>/drafts (the state folder is the config folder in tests:
// CHECKIN_CONFIG_DIR) holds outbox.db, one row per entry, and the editor's files. Read straight from
// the database, as a person with sqlite3 would look.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Row } from '../../src/config/outbox-files.js';

export const draftsDir = (configDir: string): string => join(configDir, 'drafts');
export const outboxDb = (configDir: string): string => join(draftsDir(configDir), 'outbox.db');

/** A row of the entries table, as the product writes it. */
export type { Row };

/** Every row of the outbox (none when there is no database), by id. */
export function outboxRows(configDir: string): Row[] {
  return rowsIn(draftsDir(configDir));
}

/** Every row of the outbox in a drafts folder (the fallback folder's too), by id. */
export function rowsIn(dir: string): Row[] {
  const file = join(dir, 'outbox.db');
  if (!existsSync(file)) return [];
  const db = new DatabaseSync(file);
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    return (db.prepare('SELECT * FROM entries ORDER BY id').all() as unknown as Row[]).map((r) => ({ ...r }));
  } catch (err) {
    if (/no such table/.test(String(err))) return [];
    throw err;
  } finally {
    db.close();
  }
}

/**
 * The outbox in the words the tests use: `<id>.json` for each entry, `<id>.claim` while one is
 * held, `<id>.unknown` when it may have been sent, and every other file in the drafts folder (the
 * editor's `<id>.md`, anything left of 0.1.0's files) — not the database's own files. Sorted.
 */
export function draftFolder(configDir: string): string[] {
  return folderView(draftsDir(configDir));
}

/** draftFolder of a drafts folder itself. */
export function folderView(dir: string, { waiting = false }: { waiting?: boolean } = {}): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => !/^outbox\.db(-wal|-shm|-journal)?$/.test(f));
  } catch {
    files = [];
  }
  // waiting: without the rows remembered as sent (an entry written in an editor, kept a while for a later save there).
  const rows = rowsIn(dir)
    .filter((r) => !(waiting && r.state === 'sent'))
    .flatMap((r) => [`${r.id}.json`, ...(r.state !== 'kept' ? [`${r.id}.claim`] : []), ...(r.maybe_at ? [`${r.id}.unknown`] : [])]);
  return [...files, ...rows].sort();
}

/** The entries, each as its row says, by id. */
export function draftEntries<T = any>(configDir: string): T[] {
  return folderEntries(draftsDir(configDir));
}

/** draftEntries of a drafts folder itself. */
export function folderEntries<T = any>(dir: string): T[] {
  return rowsIn(dir).map((r) => JSON.parse(r.data) as T);
}
