// Where the outbox database is opened and how it is written, as a person meets it (real processes
// against the sandbox): a database of a newer checkin (its user_version higher than this one's) is
// listed and never written; a drafts folder that cannot be written (a read-only bind mount, a full
// tmpfs) is listed read-only, its drafts said, never "There is no draft"; a draft kept meanwhile in
// the temporary folder is said to be there for now and moves home at the next run that can write;
// a successful write costs no more fsyncs than before the database (strace).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { checkInId } from '../../src/sandbox/ids.js';
import { mountAt, tempDir, track, unmount } from '../helpers/cleanup.js';
import { BIN, outcome } from '../helpers/cli.js';
import { TODAY, useWorld } from '../helpers/harness.js';
import { draftsDir, outboxDb, outboxRows, rowsIn } from '../helpers/outbox.js';

const w = useWorld();
const DOWN = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' };
const root = process.getuid?.() === 0;
const ROOT_ONLY = 'mounting needs root (mount --bind -o ro, mount -t tmpfs): skipped, not root';
const writes = () => w.sent().filter((r) => !r.startsWith('GET'));
const temp = () => join(w.env.TMPDIR!, `checkin-${process.getuid!()}`, 'drafts');
const TEMPORARY = (dir: string) =>
  `; it is kept in ${dir} for now — a temporary folder, emptied at reboot on many systems; it moves home at the next run that can write there\n`;

/** Runs SQL on the outbox as another program would (then closes it). */
function sql(text: string): void {
  const db = new DatabaseSync(outboxDb(w.configDir));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(text);
  } finally {
    db.close();
  }
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A draft kept by a failed send: an activity (`log`), or a comment on Ada's check-in. */
async function keptActivity(text: string) {
  w.sb.inject({ method: 'POST', ...DOWN });
  const r = await w.bin(['log', text]);
  expect(r.code).toBe(1);
  return r;
}
const onAda = () => checkInId(w.id('ada'), TODAY);
async function keptComment(text: string): Promise<void> {
  w.sb.inject({ method: 'POST', ...DOWN });
  expect((await w.bin(['comments', onAda(), '--add', text])).code).toBe(1);
}

describe('a database a newer checkin wrote', () => {
  it('is listed and never written: a send, a drop and a new draft each say once "written by a newer checkin; upgrade, or move it aside"; moved aside, the temporary draft moves home', async () => {
    await keptActivity('kept before the downgrade');
    const [row] = outboxRows(w.configDir);
    // A newer checkin's layout: a number above this one's, a column more, a state this one does not know.
    sql(
      `ALTER TABLE entries ADD COLUMN lease TEXT; INSERT INTO entries (id, data, state) VALUES ('parked22', '${row!.data.replace(row!.id, 'parked22').replace('kept before the downgrade', 'parked by the newer one')}', 'parked'); PRAGMA user_version = 7;`,
    );
    const file = outboxDb(w.configDir);
    const before = digest(file);
    const newer = `${file} was written by a newer checkin (layout 7; this one knows 1); upgrade, or move it aside`;
    w.forget();

    const drafts = await w.bin(['drafts']);
    expect(drafts.code).toBe(0);
    expect(drafts.stdout).toContain('kept before the downgrade');
    expect(drafts.stdout).toContain('parked by the newer one');
    expect(drafts.stderr).toBe('');

    for (const args of [
      ['drafts', 'send', row!.id],
      ['drafts', 'drop', 'parked22', '--yes'],
      ['log', '--resume'],
    ]) {
      const r = await w.bin(args);
      expect([args, r.code]).toEqual([args, 1]);
      expect(r.stderr.split(newer).length - 1).toBe(1);
      expect(r.stderr).not.toMatch(/There is no draft/);
    }
    // A new draft: kept in the temporary folder, and said so in the same one line.
    w.sb.inject({ method: 'POST', ...DOWN });
    const log = await w.bin(['log', 'typed after the downgrade']);
    expect(log.code).toBe(1);
    expect(log.stderr.split('\n')[0] + '\n').toBe(`warning: Cannot keep a draft in ${draftsDir(w.configDir)}: ${newer}${TEMPORARY(temp())}`);
    expect(log.stderr.split(newer).length - 1).toBe(1);
    expect(writes()).toEqual(['POST /api/v2/activities']);
    expect(digest(file)).toBe(before);

    // Moved aside by the person: the next run makes a new database and the temporary draft moves home, once.
    renameSync(file, `${file}.newer`);
    for (const ext of ['-wal', '-shm']) rmSync(file + ext, { force: true });
    const after = await w.bin(['drafts']);
    expect([after.code, after.stderr]).toEqual([0, '']);
    expect(after.stdout).toContain('typed after the downgrade');
    expect(outboxRows(w.configDir).map((r) => JSON.parse(r.data).content.input.description)).toEqual(['typed after the downgrade']);
    expect(rowsIn(temp())).toEqual([]);
    rmSync(join(temp(), '..'), { recursive: true });
  });

  it('a row in a state this checkin does not know is listed and never sent', async () => {
    await keptActivity('in an unknown state');
    sql("UPDATE entries SET state = 'parked'");
    w.forget();
    const drafts = await w.bin(['drafts']);
    expect(drafts.stdout).toContain('in an unknown state');
    const [row] = outboxRows(w.configDir);
    const send = await w.bin(['drafts', 'send', row!.id]);
    expect([send.code, send.stderr]).toEqual([
      1,
      `error: The draft ${row!.id} is marked "parked", which this checkin does not know (a newer checkin's); it was not sent\nSend it with the checkin that wrote it, or upgrade.\n`,
    ]);
    const resume = await w.bin(['log', '--resume']);
    expect(resume.code).not.toBe(0);
    expect(writes()).toEqual([]);
    expect(outboxRows(w.configDir).map((r) => r.state)).toEqual(['parked']);
  });

  it('an earlier build’s database (user_version 0, today’s tables) is this one’s: version 1 is written, its drafts listed and sent', async () => {
    mkdirSync(draftsDir(w.configDir), { recursive: true, mode: 0o700 });
    await keptActivity('from before the version');
    sql('PRAGMA user_version = 0');
    const r = await w.bin(['log', '--resume']);
    expect(r.code).toBe(0);
    const db = new DatabaseSync(outboxDb(w.configDir), { readOnly: true });
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 });
    db.close();
    expect(outboxRows(w.configDir)).toEqual([]);
  });
});

describe('a drafts folder that cannot be written', () => {
  it.skipIf(!root)(
    `a read-only bind mount: \`drafts\` lists what waits, --resume says why it cannot send (never "There is no draft"), a new draft is kept for now in the temporary folder and moves home once the folder can be written (${root ? 'root' : ROOT_ONLY})`,
    async () => {
      await keptComment('waiting on a read-only disk');
      // Read once by another program (which folds the log in as it closes): the database alone, no -wal or -shm.
      expect(outboxRows(w.configDir)).toHaveLength(1);
      const dir = draftsDir(w.configDir);
      mountAt(['--bind', '-o', 'ro', dir], dir);
      w.forget();

      const drafts = await w.bin(['drafts']);
      expect(drafts.code).toBe(0);
      expect(drafts.stdout).toContain('waiting on a read-only disk');
      expect(drafts.stderr).toBe('');
      const status = await w.bin(['status']);
      expect(status.stdout).toContain('1 draft of yours waits to be sent');

      const resume = await w.bin(['comments', onAda(), '--resume']);
      expect(resume.code).toBe(1);
      expect(resume.stderr).not.toMatch(/There is no draft/);
      expect(resume.stderr).toBe(`error: The drafts cannot be changed here: the drafts folder ${dir} cannot be written (read-only file system)\n`);
      expect(writes()).toEqual([]);

      w.sb.inject({ method: 'POST', ...DOWN });
      const log = await w.bin(['log', 'typed while read-only']);
      expect(log.code).toBe(1);
      expect(log.stderr.split('\n')[0] + '\n').toBe(`warning: Cannot keep a draft in ${dir} (read-only file system)${TEMPORARY(temp())}`);
      expect(rowsIn(temp())).toHaveLength(1);

      unmount(dir);
      // The next run that can write moves it home (and sends the comment, once).
      const sent = await w.bin(['comments', onAda(), '--resume']);
      expect([sent.code, sent.stderr]).toEqual([0, '']);
      expect(writes()).toEqual(['POST /api/v2/activities', `POST /api/v2/check-ins/${onAda()}/comments`]);
      expect(outboxRows(w.configDir).map((r) => JSON.parse(r.data).content.input.description)).toEqual(['typed while read-only']);
      expect(rowsIn(temp())).toEqual([]);
      const again = await w.bin(['log', '--resume']);
      expect(again.code).toBe(0);
      expect(writes()).toEqual(['POST /api/v2/activities', `POST /api/v2/check-ins/${onAda()}/comments`, 'POST /api/v2/activities']);
      rmSync(join(temp(), '..'), { recursive: true });
    },
  );

  it.skipIf(!root)(
    `a full disk (a small tmpfs, no room for the log's -shm): \`drafts\` lists what waits, --resume never says "There is no draft", and the draft sent once there is room (${root ? 'root' : ROOT_ONLY})`,
    async () => {
      const dir = draftsDir(w.configDir);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      mountAt(['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs'], dir);
      await keptComment('waiting on a full disk');
      // Closed by another program: the next opener must make the -shm anew, and there is no room for it.
      expect(outboxRows(w.configDir)).toHaveLength(1);
      const filler = join(dir, 'filler');
      const fill = spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'pipe' });
      expect(String(fill.stderr)).toMatch(/No space left/);
      w.forget();

      const drafts = await w.bin(['drafts']);
      expect(drafts.code).toBe(0);
      expect(drafts.stdout).toContain('waiting on a full disk');
      expect(drafts.stderr).toBe('');
      const resume = await w.bin(['comments', onAda(), '--resume']);
      expect(resume.code).toBe(1);
      expect(resume.stderr).not.toMatch(/There is no draft/);
      expect(resume.stderr).toContain('cannot be written');
      expect(writes()).toEqual([]);

      rmSync(filler);
      const sent = await w.bin(['comments', onAda(), '--resume']);
      expect([sent.code, sent.stderr]).toEqual([0, '']);
      expect(writes()).toEqual([`POST /api/v2/check-ins/${onAda()}/comments`]);
      expect(outboxRows(w.configDir)).toEqual([]);
    },
  );

  it('a drafts folder that cannot be read at all: said, exit 1, never "No drafts are waiting" nor "There is no draft"', async () => {
    await keptActivity('behind a closed door');
    const dir = draftsDir(w.configDir);
    execFileSync('chmod', ['000', dir]);
    try {
      // root reads through any mode: the database behind a symbolic link (which checkin does not
      // follow there) stands for what cannot be read then — its drafts are there, out of reach.
      if (root) {
        execFileSync('chmod', ['700', dir]);
        for (const ext of ['', '-wal', '-shm'])
          if (existsSync(join(dir, `outbox.db${ext}`))) renameSync(join(dir, `outbox.db${ext}`), join(dir, `behind.db${ext}`));
        symlinkSync('behind.db', join(dir, 'outbox.db'));
      }
      const drafts = await w.bin(['drafts']);
      expect(drafts.code).toBe(1);
      expect(drafts.stderr).toMatch(/^error: Cannot read the drafts in .*: drafts may be waiting there\n/);
      expect(drafts.stdout + drafts.stderr).not.toMatch(/No drafts are waiting/);
      const resume = await w.bin(['log', '--resume']);
      expect(resume.code).toBe(1);
      expect(resume.stderr).not.toMatch(/There is no draft/);
    } finally {
      execFileSync('chmod', ['700', dir]);
    }
  });
});

const strace = spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;

describe('what a successful write costs', () => {
  /** The fsyncs of one run (strace -f), and how it ended. */
  async function fsyncs(args: string[]): Promise<{ code: number | null; count: number }> {
    const out = join(tempDir('checkin-strace-'), 'trace');
    const child = track(
      spawn('strace', ['-f', '-qq', '-e', 'trace=fsync,fdatasync', '-o', out, process.execPath, BIN, ...args], { env: w.env, stdio: 'pipe' }),
    );
    child.stdin!.end();
    const r = await outcome(child, `strace checkin ${args.join(' ')}`, 60_000);
    return {
      code: r.code,
      count: readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => /\b(fsync|fdatasync)\(/.test(l)).length,
    };
  }

  it.skipIf(!strace)(
    `\`log\` and \`comments --add\` make at most 2 fsyncs each, as before the database (${strace ? 'strace' : 'strace is not installed: skipped'})`,
    async () => {
      // The database made first (a one-time cost), then each write as a person makes it every day.
      expect((await fsyncs(['log', 'made the database'])).code).toBe(0);
      expect(await fsyncs(['log', 'Fixed the build'])).toEqual({ code: 0, count: 2 });
      expect(await fsyncs(['comments', onAda(), '--add', 'Nice one'])).toEqual({ code: 0, count: 2 });
      expect(writes()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities', `POST /api/v2/check-ins/${onAda()}/comments`]);
      expect(outboxRows(w.configDir)).toEqual([]);
    },
  );
});
