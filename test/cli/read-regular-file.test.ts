// readRegularFile (src/config/files.ts): the one read of checkin's own files. A regular file (a
// symbolic link to one included) is read; a FIFO, a socket, a device or a folder is refused without
// blocking, and so is a file over the bound, whatever its size said. readJson says why.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, readJson, readRegularBytes, readRegularFile, RefusedFile } from '../../src/config/files.js';
import { tempDir } from '../helpers/cleanup.js';
import { ROOT } from '../helpers/cli.js';

const refused = (fn: () => unknown): RefusedFile => {
  try {
    fn();
  } catch (err) {
    if (err instanceof RefusedFile) return err;
    throw err;
  }
  throw new Error('it was read');
};

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

/**
 * Runs `body` (statements over `m`, the module `entry` of src/ bundled, and `args`) in a child
 * bounded at 5 s, and returns what it printed: a read that blocked would block this worker, where
 * no timer could end it.
 */
function bounded(entry: string, body: string, args: string[]): string {
  // esbuild's command (its JS API would leave its service process running).
  const built = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'esbuild'),
    [join(ROOT, entry), '--bundle', '--platform=node', '--format=cjs', '--log-level=error'],
    { encoding: 'utf8', timeout: 20_000 },
  );
  expect(built.status, built.stderr).toBe(0);
  const bundle = built.stdout;
  const script = `${bundle}\n;const m = module.exports, args = process.argv.slice(1);\n${body}`;
  const r = spawnSync(process.execPath, ['-e', script, '--', ...args], { encoding: 'utf8', timeout: 5_000 });
  expect(r.signal, `${entry} did not end within 5 s`).toBe(null);
  expect(r.stderr).toBe('');
  return r.stdout;
}

/** Reads each argument with readRegularFile: "read", or the error's code and message. */
const READ_EACH = "for (const a of args) { try { m.readRegularFile(a); console.log('read'); } catch (e) { console.log(e.code + ': ' + e.message); } }";

describe('readRegularFile', () => {
  it('reads a regular file, and one through a symbolic link (dotfiles kept elsewhere are common)', () => {
    const dir = tempDir('checkin-files-');
    writeFileSync(join(dir, 'a.json'), '{"ü": 1}\n');
    symlinkSync(join(dir, 'a.json'), join(dir, 'link.json'));
    expect(readRegularFile(join(dir, 'a.json'))).toBe('{"ü": 1}\n');
    expect(readRegularFile(join(dir, 'link.json'))).toBe('{"ü": 1}\n');
    writeFileSync(join(dir, 'empty'), '');
    expect(readRegularFile(join(dir, 'empty'))).toBe('');
    expect(() => readRegularFile(join(dir, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO at once, with no writer and without waiting for one (in a child bounded at 5 s)', () => {
    const dir = tempDir('checkin-files-');
    const fifo = join(dir, 'cache.json');
    mkfifo(fifo);
    symlinkSync(fifo, join(dir, 'link.json'));
    expect(bounded('src/config/files.ts', READ_EACH, [fifo, join(dir, 'link.json')])).toBe(
      'ENOTREG: a FIFO, not a regular file\nENOTREG: a FIFO, not a regular file\n',
    );
    // And here, now that it is known not to block.
    expect(refused(() => readRegularFile(fifo))).toMatchObject({ code: 'ENOTREG', path: fifo, message: 'a FIFO, not a regular file' });
    expect(readJson(fifo)).toEqual({ value: {}, damaged: 'a FIFO, not a regular file', unreadable: true });
  });

  it('refuses a folder, a character device and a socket', async () => {
    const dir = tempDir('checkin-files-');
    mkdirSync(join(dir, 'state.json'));
    expect(refused(() => readRegularFile(join(dir, 'state.json'))).message).toBe('a folder, not a regular file');
    expect(readJson(join(dir, 'state.json'))).toEqual({ value: {}, damaged: 'a folder, not a regular file', unreadable: true });
    if (existsSync('/dev/null')) expect(refused(() => readRegularFile('/dev/null')).message).toBe('a character device, not a regular file');
    if (process.platform === 'win32') return;
    const server = createServer();
    const sock = join(dir, 'config.json');
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      expect(refused(() => readRegularFile(sock))).toMatchObject({ code: 'ENOTREG', message: 'a socket, not a regular file' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a file over the bound, and reads one at it', () => {
    const dir = tempDir('checkin-files-');
    writeFileSync(join(dir, 'at'), 'x'.repeat(1024));
    writeFileSync(join(dir, 'over'), 'x'.repeat(1025));
    expect(readRegularBytes(join(dir, 'at'), 1024).length).toBe(1024);
    expect(refused(() => readRegularFile(join(dir, 'over'), 1024))).toMatchObject({
      code: 'EFBIG',
      message: 'larger than 1 KiB, the most checkin reads of its own files',
    });
    // The default bound, 16 MiB: a sparse file one byte over it is refused by its size, unread.
    expect(MAX_FILE_BYTES).toBe(16 * 1024 * 1024);
    writeFileSync(join(dir, 'huge.json'), '');
    truncateSync(join(dir, 'huge.json'), MAX_FILE_BYTES + 1);
    expect(readJson(join(dir, 'huge.json'))).toEqual({ value: {}, damaged: 'larger than 16 MiB, the most checkin reads of its own files', unreadable: true });
  });

  it.skipIf(!existsSync('/proc/self/status'))('keeps to the bound when a file says it is empty and is not (/proc)', () => {
    expect(readRegularFile('/proc/self/status')).toMatch(/^Name:/);
    expect(refused(() => readRegularFile('/proc/self/status', 100)).code).toBe('EFBIG');
  });

  it('readJson: a JSON object; {} when missing; "not a JSON object" (readable) otherwise', () => {
    const dir = tempDir('checkin-files-');
    writeFileSync(join(dir, 'ok.json'), '{"a": [1]}');
    writeFileSync(join(dir, 'half.json'), '{ half');
    expect(readJson(join(dir, 'ok.json'))).toEqual({ value: { a: [1] } });
    expect(readJson(join(dir, 'missing.json'))).toEqual({ value: {} });
    expect(readJson(join(dir, 'half.json'))).toEqual({ value: {}, damaged: 'not a JSON object' });
  });
});

describe.skipIf(process.platform === 'win32')('the outbox reads through it', () => {
  it("a FIFO where a draft (or an earlier version's draft) would be is said and passed over, without blocking; a real draft beside it is read", () => {
    const root = tempDir('checkin-files-');
    const dir = join(root, 'drafts');
    mkdirSync(dir);
    mkfifo(join(dir, 'abcd2345.json'));
    mkfifo(join(dir, `${'a'.repeat(32)}.json`));
    const entry = {
      checkin_outbox: 1,
      id: 'wxyz6789',
      account: { api_url: 'http://127.0.0.1:1/api/v2' },
      target: { kind: 'activity' },
      content: { kind: 'activity', input: { group: 'git', description: 'kept' } },
      made: 'piped',
      created_at: '2026-01-01T00:00:00.000Z',
      saved_at: '2026-01-01T00:00:00.000Z',
    };
    writeFileSync(join(dir, 'wxyz6789.json'), JSON.stringify(entry));
    const out = bounded(
      'src/config/outbox-files.ts',
      'const w = []; const l = new m.Outbox(args[0], (x) => w.push(x)).list(); console.log(JSON.stringify({ ids: l.map((e) => e.id), w }));',
      [dir],
    );
    // Each said once: the earlier version's when it is looked at to be moved in, the entry's when listed.
    expect(JSON.parse(out)).toEqual({
      ids: ['wxyz6789'],
      w: [
        `cannot read the draft ${join(dir, `${'a'.repeat(32)}.json`)}: a FIFO, not a regular file`,
        `cannot read the draft ${join(dir, 'abcd2345.json')}: a FIFO, not a regular file`,
      ],
    });
  });
});
