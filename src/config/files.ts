// Small file helpers of src/config: bounded reads of checkin's own files (settings, cache, state,
// drafts) that never block on what is not a regular file, a JSON object read that never throws, and
// writes that are on disk before they count (written to a temporary file, fsynced, renamed into
// place, the folder fsynced), so a reader never sees half a file and a crash leaves the old one or
// the new one. A rename replaces whatever has the name (a FIFO included) without opening it.

import { closeSync, constants, fstatSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** The most checkin reads of one of its own files (settings, cache, state, a draft): a larger one is not one it wrote. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** A file checkin would not read: not a regular file (ENOTREG), or larger than the bound (EFBIG). Its message is the reason, without the path. */
export class RefusedFile extends Error {
  constructor(
    readonly code: 'ENOTREG' | 'EFBIG',
    readonly path: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'RefusedFile';
  }
}

/** What a file is, in a few words, when it is not a regular file. */
function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'something else';
}

function sizeWords(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The bytes of `file` when it is a regular file of at most `maxBytes`. It is opened without
 * waiting (O_NONBLOCK: a FIFO with no writer does not block the open) and looked at (fstat) before
 * a byte is read; symbolic links are followed unless `follow` is false. Throws a RefusedFile for a FIFO, a socket, a device,
 * a folder or a file over the bound, and the file system's error otherwise (ENOENT when missing).
 */
export function readRegularBytes(file: string, maxBytes = MAX_FILE_BYTES, { follow = true }: { follow?: boolean } = {}): Buffer {
  let fd: number;
  try {
    // O_NONBLOCK is 0 where there is none (Windows, where a FIFO is not a file name either); with
    // `follow: false`, a symbolic link is refused (ELOOP) rather than read through.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (follow ? 0 : (constants.O_NOFOLLOW ?? 0)));
  } catch (err) {
    // A socket cannot be opened (ENXIO): said as what it is.
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') {
      const st = statSync(file, { throwIfNoEntry: false });
      if (st && !st.isFile()) throw new RefusedFile('ENOTREG', file, `${kindOf(st)}, not a regular file`);
    }
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new RefusedFile('ENOTREG', file, `${kindOf(st)}, not a regular file`);
    const tooLarge = () => new RefusedFile('EFBIG', file, `larger than ${sizeWords(maxBytes)}, the most checkin reads of its own files`);
    if (st.size > maxBytes) throw tooLarge();
    // One byte past the bound tells a file that grew since fstat from one that did not.
    let buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (length > maxBytes) throw tooLarge();
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) throw tooLarge();
    return buf.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** The text (UTF-8) of `file` when it is a regular file of at most `maxBytes`; see readRegularBytes for what it refuses. */
export function readRegularFile(file: string, maxBytes = MAX_FILE_BYTES, opts: { follow?: boolean } = {}): string {
  return readRegularBytes(file, maxBytes, opts).toString('utf8');
}

/**
 * A JSON object file: {} when missing; `damaged` (why) when it is there but cannot be read as a JSON
 * object, and `unreadable` too when the file itself could not be read (not a regular file, too
 * large, permission denied) rather than its text not being a JSON object.
 */
export function readJson(file: string, maxBytes = MAX_FILE_BYTES): { value: Record<string, unknown>; damaged?: string; unreadable?: true } {
  let text: string;
  try {
    text = readRegularFile(file, maxBytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return { value: {} };
    return { value: {}, damaged: err instanceof RefusedFile ? err.message : fsReason(err), unreadable: true };
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return { value: v as Record<string, unknown> };
  } catch {
    // below
  }
  return { value: {}, damaged: 'not a JSON object' };
}

/** Flushes a folder's entries (a rename in it) to disk; a no-op where folders cannot be opened (Windows). */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `data` to a new temporary file beside `file` (mode `mode`) and fsyncs it; returns its name. The caller renames or links it. */
export function writeTemp(file: string, data: string | Buffer, { mode = 0o600, sync = true }: { mode?: number; sync?: boolean } = {}): string {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', mode);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    if (sync) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    return temp;
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * How a private file of checkin's (the settings with the token, the outbox) is kept private, in words
 * for messages. On Windows a mode means nothing (Node sets only the read-only flag from it): who may read
 * the file is its ACL, inherited from its folder; in the user's profile folder, where checkin's folders
 * are, that is the user, SYSTEM and the administrators.
 */
export function privateFileWords(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? "its folder's permissions: Windows has no mode 0600" : 'mode 0600';
}

/**
 * Replaces `file` whole (mode 0600 unless `mode`, on Windows its folder's ACL; its folders made 0700 if missing, or `dirMode`),
 * durably unless `sync` is false; throws the file system's error. A file for others to read too
 * (a skill an agent loads) passes 0o644 and 0o777, both less the umask.
 */
export function writeDurably(
  file: string,
  data: string,
  { sync = true, mode = 0o600, dirMode = 0o700 }: { sync?: boolean; mode?: number; dirMode?: number } = {},
): void {
  mkdirSync(dirname(file), { recursive: true, mode: dirMode });
  const temp = writeTemp(file, data, { sync, mode });
  try {
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  if (sync) syncDir(dirname(file));
}

/**
 * A file system error in checkin's words: "permission denied", "read-only file system"; where the
 * file itself is the reason (a folder or a link where a file should be, SQLite unable to use its
 * database), the file is named: the error's own, else `file` (SQLite's errors name none).
 */
export function fsReason(err: unknown, file?: string): string {
  if (err instanceof RefusedFile) return err.message;
  const e = err as NodeJS.ErrnoException & { dest?: unknown; errcode?: unknown; errstr?: unknown };
  const code = e.code;
  // SQLite's errors all carry one code (ERR_SQLITE_ERROR): their text tells a full disk, a lock and damage apart.
  if (code === 'ERR_SQLITE_ERROR') {
    const said = e.message || (typeof e.errstr === 'string' ? e.errstr : code);
    // Its result code's low byte is the kind; those a person can act on are said in words naming the database.
    const db = file ?? 'the database';
    const kinds: Record<number, string> = {
      8: `${db} or the -wal and -shm files beside it cannot be written`,
      10: `the disk failed to read or write ${db} or the -wal and -shm files beside it`,
      14: `${db} or the -wal and -shm files beside it cannot be opened`,
    };
    const kind = typeof e.errcode === 'number' ? kinds[e.errcode & 0xff] : undefined;
    return kind ? `${kind} (SQLite: ${said})` : said;
  }
  // A rename names its destination apart (`dest`): that is the file in the way.
  const path = typeof e.dest === 'string' ? e.dest : typeof e.path === 'string' ? e.path : file;
  const named: Record<string, string> = {
    EISDIR: `${path ?? 'the file'} is a folder, not a file`,
    ELOOP: `${path ?? 'the file'} is a symbolic link, which checkin does not follow there (or a loop of them)`,
  };
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    ENOTDIR: 'a file is in the way of the folder',
    EEXIST: 'a file is in the way of the folder',
    EIO: `the disk failed to read or write ${path ?? 'the file'}`,
    // A descriptor not open, or not open that way (`checkin --version 1</dev/null`).
    EBADF: 'bad file descriptor',
  };
  return code ? (named[code] ?? words[code] ?? code) : (err as Error).message;
}
