// Small file helpers of src/config: a JSON object read that never throws, and writes that are on
// disk before they count (written to a temporary file, fsynced, renamed into place, the folder
// fsynced), so a reader never sees half a file and a crash leaves the old one or the new one.

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** A JSON object file: {} when missing; `damaged` when it is there but cannot be read as a JSON object. */
export function readJson(file: string): { value: Record<string, unknown>; damaged?: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return { value: {} };
    return { value: {}, damaged: (err as Error).message };
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
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
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

/** Replaces `file` whole (mode 0600; its folder made 0700 if missing), durably unless `sync` is false; throws the file system's error. */
export function writeDurably(file: string, data: string, { sync = true }: { sync?: boolean } = {}): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = writeTemp(file, data, { sync });
  try {
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  if (sync) syncDir(dirname(file));
}

/** A file system error in a few plain words: "permission denied", "read-only file system", or its code. */
export function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    ENOTDIR: 'a file is in the way of the folder',
    EEXIST: 'a file is in the way of the folder',
  };
  return code ? (words[code] ?? code) : (err as Error).message;
}
