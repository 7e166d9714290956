// fsReason reads SQLite's own words: every node:sqlite error has the one code ERR_SQLITE_ERROR, so a
// full disk, a lock and damage are told apart by the text SQLite gave (not by the code).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { fsReason } from '../../src/config/files.js';
import { tempDir } from '../helpers/cleanup.js';

const errorOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('no error');
};

describe('fsReason of SQLite errors', () => {
  it('a lock, damage and a full database read differently, in SQLite’s words', () => {
    const dir = tempDir();
    const file = join(dir, 'a.db');
    const a = new DatabaseSync(file);
    const b = new DatabaseSync(file);
    try {
      a.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
      b.exec('PRAGMA busy_timeout = 0');
      const locked = errorOf(() => b.exec('INSERT INTO t VALUES (2)'));
      expect((locked as NodeJS.ErrnoException).code).toBe('ERR_SQLITE_ERROR');
      expect(fsReason(locked)).toBe('database is locked');
      a.exec('ROLLBACK; PRAGMA max_page_count = 2');
      const full = errorOf(() => a.exec(`INSERT INTO t VALUES (zeroblob(100000))`));
      expect(fsReason(full)).toBe('database or disk is full');
    } finally {
      a.close();
      b.close();
    }
    writeFileSync(join(dir, 'b.db'), 'not a database '.repeat(100));
    const c = new DatabaseSync(join(dir, 'b.db'));
    try {
      expect(fsReason(errorOf(() => c.exec('SELECT * FROM sqlite_master')))).toBe('file is not a database');
    } finally {
      c.close();
    }
  });

  it('a file system error still reads as before', () => {
    expect(fsReason(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('no space left on the device');
  });
});
