// The outbox database when it fails under a person: a write after an accepted send that cannot be
// made (the disk full), a database damaged inside, a 0.1.0 claim left on a reused pid, another
// process holding the database. Each as the person meets it: checkin's output and exit code, the
// sandbox's request log, the rows left. Faults are real: SQLite raising an error from a trigger
// another connection put in (as a full disk answers a write), bytes overwritten, a second process
// holding a lock.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { checkInId } from '../../src/sandbox/ids.js';
import { cleanEnv } from '../helpers/cli.js';
import { runIn, TODAY, useWorld } from '../helpers/harness.js';
import { draftsDir, outboxDb, outboxRows, rowsIn } from '../helpers/outbox.js';
import { patient } from '../helpers/patience.js';

const w = useWorld();
const DOWN = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' };

/** Runs SQL on the outbox as another connection would (then closes it: its log folded in). */
function sql(configDir: string, text: string): void {
  const db = new DatabaseSync(outboxDb(configDir));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(text);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** The database's writes fail as a full disk's do: every DELETE of an entry (and, with `mark`, marking one 'sent'). */
function diskFull(configDir: string, { mark }: { mark: boolean }): void {
  sql(
    configDir,
    `CREATE TRIGGER full_delete BEFORE DELETE ON entries BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;` +
      (mark ? `CREATE TRIGGER full_mark BEFORE UPDATE ON entries WHEN NEW.state = 'sent' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;` : ''),
  );
}

const room = (configDir: string) => sql(configDir, 'DROP TRIGGER IF EXISTS full_delete; DROP TRIGGER IF EXISTS full_mark;');

/** Makes the outbox (one check-in draft kept by a failed send) so that faults can be put into it. */
async function oneKept(text = 'kept first'): Promise<void> {
  w.sb.inject({ method: 'PATCH', ...DOWN });
  expect((await w.cli(['today', '-p', '-'], { input: `${text}\n` })).code).toBe(1);
}

describe('a send the service accepted, the database write after it failing', () => {
  it('the row cannot be deleted: it is marked sent; exit 0, said once in its own words, never counted as waiting, never "may have been sent"', async () => {
    await oneKept();
    diskFull(w.configDir, { mark: false });
    w.forget();
    const r = await w.cli(['log', 'Fixed the build']);
    const sentRow = outboxRows(w.configDir).find((x) => x.state === 'sent')!;
    expect(r).toEqual({
      code: 0,
      stdout: expect.any(String),
      stderr: `warning: the draft ${sentRow.id} was sent, but could not be removed (database or disk is full); it is marked as sent, never sent again, and removed at the next run\n`,
    });
    // No note counting the draft just sent as waiting for the activity log.
    expect(w.sent().filter((x) => !x.startsWith('GET'))).toEqual(['POST /api/v2/activities']);
    // Only the draft kept earlier waits: the status counts it alone, `drafts` lists it alone, no "may have been sent".
    const status = await w.cli(['status']);
    expect(status.stdout).toContain('1 draft of yours waits to be sent');
    const drafts = await w.cli(['drafts']);
    expect(drafts.stdout).toContain('kept first');
    expect(drafts.stdout).not.toContain('Fixed the build');
    expect(drafts.stdout + drafts.stderr).not.toMatch(/may have/);
    const send = await w.cli(['drafts', 'send', sentRow.id]);
    expect(send.code).not.toBe(0);
    expect(send.stderr).not.toMatch(/may have/);
    expect(w.sent().filter((x) => !x.startsWith('GET'))).toEqual(['POST /api/v2/activities']);
    // Room again: the next run removes it.
    room(w.configDir);
    await w.cli(['drafts']);
    expect(outboxRows(w.configDir).map((x) => x.state)).toEqual(['kept']);
  });

  it('the database cannot be written at all: an empty `<id>.sent` file says it was sent; read back at the next open, the row then removed', async () => {
    await oneKept();
    diskFull(w.configDir, { mark: true });
    w.forget();
    const r = await w.cli(['log', 'Fixed the build']);
    const marker = readdirSync(draftsDir(w.configDir)).find((n) => n.endsWith('.sent'))!;
    const id = marker.replace(/\.sent$/, '');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: the draft ${id} was sent, but could not be removed (database or disk is full); it is marked as sent, never sent again, and removed at the next run\n`,
    );
    expect(readFileSync(join(draftsDir(w.configDir), marker), 'utf8')).toBe('');
    // Still unwritable: it is not listed, not counted, not sent again, never "may have been sent".
    const drafts = await w.cli(['drafts']);
    expect(drafts.stdout).not.toContain('Fixed the build');
    expect(drafts.stdout + drafts.stderr).not.toMatch(/may have/);
    expect((await w.cli(['status'])).stdout).toContain('1 draft of yours waits to be sent');
    const send = await w.cli(['drafts', 'send', id]);
    expect(send.code).not.toBe(0);
    expect(w.sent().filter((x) => !x.startsWith('GET'))).toEqual(['POST /api/v2/activities']);
    room(w.configDir);
    await w.cli(['drafts']);
    expect(outboxRows(w.configDir).map((x) => x.state)).toEqual(['kept']);
    expect(existsSync(join(draftsDir(w.configDir), marker))).toBe(false);
  });
});

describe('the database write before a send failing', () => {
  it('the draft cannot be marked as being sent: nothing is sent, it is kept, and it never reads as "may have been sent"', async () => {
    await oneKept();
    sql(
      w.configDir,
      `CREATE TRIGGER full_sending BEFORE UPDATE ON entries WHEN NEW.state = 'sending' BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;`,
    );
    w.forget();
    const r = await w.cli(['log', 'Fixed the build']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: Nothing was sent: the draft \w+ could not be marked as being sent \(database or disk is full\)\n/);
    expect(r.stderr).not.toMatch(/may have/);
    expect(w.sent()).toEqual([]);
    sql(w.configDir, 'DROP TRIGGER full_sending');
    const drafts = await w.cli(['drafts']);
    expect(drafts.stdout).toContain('Fixed the build');
    expect(drafts.stdout + drafts.stderr).not.toMatch(/may have/);
    // Sent on the next try, once: no yes needed (it never went out).
    const send = await w.cli(['log', '--resume']);
    expect(send.code).toBe(0);
    expect(w.sent()).toEqual(['POST /api/v2/activities']);
  });
});

/** Overwrites the database from byte `from` (to its end, or `length` bytes) with 0x41. */
function overwrite(file: string, from: number, length?: number): void {
  const fd = openSync(file, 'r+');
  try {
    const size = fstatSync(fd).size;
    const n = length ?? size - from;
    writeSync(fd, Buffer.alloc(n, 0x41), 0, n, from);
  } finally {
    closeSync(fd);
  }
}

describe('a database damaged inside (its header intact)', () => {
  it('`drafts` and `status` keep working: it is set aside (not deleted), said once, and a new one made; `log` keeps its draft in the drafts folder again', async () => {
    await oneKept();
    sql(w.configDir, '');
    overwrite(outboxDb(w.configDir), 4096);
    const drafts = await w.cli(['drafts']);
    const aside = readdirSync(draftsDir(w.configDir)).find((n) => /^outbox\.db\.damaged-\d+$/.test(n))!;
    expect(aside).toBeDefined();
    expect(drafts.code).toBe(0);
    expect(drafts.stderr).toBe(
      `warning: the drafts database ${outboxDb(w.configDir)} was damaged (database disk image is malformed); it was set aside as ${join(draftsDir(w.configDir), aside)} (not deleted: what it holds may still be read by hand) and no draft could be read from it\nNo drafts are waiting.\n`,
    );
    expect(drafts.stderr).not.toContain('kept first');
    const status = await w.cli(['status']);
    expect([status.code === 0 || status.code === 3, status.stderr]).toEqual([true, '']);
    w.sb.inject({ method: 'POST', ...DOWN });
    const log = await w.cli(['log', 'after the damage']);
    expect(log.code).toBe(1);
    expect(log.stderr).not.toMatch(/for now|malformed/);
    expect(outboxRows(w.configDir)).toHaveLength(1);
  });

  it('the rows that can still be read are kept in the new database; the one on the damaged page is said lost, the file kept', async () => {
    // Three drafts, each more than half a page, so that each has a page of its own and damage to one page takes one.
    const [alpha, bravo, charlie] = ['alpha', 'bravo', 'charlie'].map((k) => `${k} ${k.repeat(420)}`);
    await oneKept(alpha);
    w.sb.inject({ method: 'POST', ...DOWN });
    const b = await w.cli(['comments', checkInId(w.id('ada'), TODAY), '--add', bravo!]);
    expect(b.code).toBe(1);
    w.sb.inject({ method: 'POST', ...DOWN });
    expect((await w.cli(['comments', checkInId(w.id('grace'), TODAY), '--add', charlie!])).code).toBe(1);
    sql(w.configDir, '');
    const file = outboxDb(w.configDir);
    const bytes = readFileSync(file);
    const at = bytes.indexOf('bravo bravobravo');
    overwrite(file, Math.floor(at / 4096) * 4096, 4096);
    const drafts = await w.cli(['drafts']);
    expect(drafts.code).toBe(0);
    expect(drafts.stderr).toMatch(
      /^warning: the drafts database .* was damaged \(database disk image is malformed\); it was set aside as .*outbox\.db\.damaged-\d+ \(not deleted: what it holds may still be read by hand\) and 2 drafts read from it are kept in the new one\n$/,
    );
    expect(drafts.stdout).toContain('alpha alphaalpha');
    expect(drafts.stdout).toContain('charlie charliecharlie');
    expect(drafts.stdout).not.toContain('bravo bravobravo');
    expect(outboxRows(w.configDir)).toHaveLength(2);
    // The damaged file is there whole, beside the new one.
    const aside = readdirSync(draftsDir(w.configDir)).filter((n) => /^outbox\.db\.damaged-\d+$/.test(n));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(draftsDir(w.configDir), aside[0]!)).includes('bravo bravobravo')).toBe(false);
    expect(readFileSync(join(draftsDir(w.configDir), aside[0]!)).includes('alpha alphaalpha')).toBe(true);
  });
  it('the fallback folder’s drafts are listed beside it, and `status` counts them', async () => {
    const tmp = tempDir();
    const env = { TMPDIR: tmp };
    // The drafts folder cannot be made (a file in the way): the draft goes to the fallback folder.
    mkdirSync(w.configDir, { recursive: true, mode: 0o700 });
    writeFileSync(draftsDir(w.configDir), 'in the way');
    w.sb.inject({ method: 'POST', ...DOWN });
    const kept = await w.cli(['log', 'in the fallback'], { env });
    expect([kept.code, kept.stderr]).toEqual([
      1,
      expect.stringMatching(
        /^warning: Cannot keep a draft in .*; it is kept in .* for now — a temporary folder, emptied at reboot on many systems; it moves home at the next run that can write there\n/,
      ),
    ]);
    rmSync(draftsDir(w.configDir));
    await oneKept();
    sql(w.configDir, '');
    overwrite(outboxDb(w.configDir), 4096);
    const drafts = await w.cli(['drafts'], { env });
    expect(drafts.code).toBe(0);
    expect(drafts.stderr).toMatch(/^warning: the drafts database .* was damaged \(database disk image is malformed\); it was set aside/);
    expect(drafts.stdout).toContain('in the fallback');
    const status = await w.cli(['status'], { env });
    expect(status.stdout).toContain('1 draft of yours waits to be sent');
  });
});

describe("the fallback drafts folder in the tests: each home's own", () => {
  it.skipIf(process.getuid === undefined)(
    'a draft one home keeps there (its drafts folder unusable) is not listed or sent by the checkin of another home, on the same service and token',
    async () => {
      mkdirSync(w.configDir, { recursive: true, mode: 0o700 });
      writeFileSync(draftsDir(w.configDir), 'in the way');
      w.sb.inject({ method: 'POST', ...DOWN });
      const kept = await w.cli(['log', 'kept in the fallback']);
      const top = join(w.env.TMPDIR!, `checkin-${process.getuid!()}`);
      expect([kept.code, kept.stderr]).toEqual([
        1,
        expect.stringContaining(
          `; it is kept in ${join(top, 'drafts')} for now — a temporary folder, emptied at reboot on many systems; it moves home at the next run that can write there\n`,
        ),
      ]);
      expect(rowsIn(join(top, 'drafts'))).toHaveLength(1);
      w.forget();
      const other = cleanEnv({ CHECKIN_API_URL: w.sb.url, CHECKIN_TOKEN: w.sb.token });
      const listed = await runIn(['drafts', '--json'], other, w.clock);
      expect([listed.code, JSON.parse(listed.stdout)]).toEqual([0, []]);
      const resumed = await runIn(['log', '--resume'], other, w.clock);
      expect([resumed.code, resumed.stderr]).toEqual([2, 'error: There is no draft for an activity\n']);
      expect(w.sent()).toEqual([]);
      // Dropped by its home: that home's TMPDIR is left empty (what a test leaves there fails its file).
      rmSync(top, { recursive: true });
    },
  );
});

describe('a 0.1.0 claim file whose pid another process has since taken', () => {
  const file = (id: string, description: string) =>
    JSON.stringify({
      checkin_outbox: 1,
      id,
      account: { api_url: w.sb.url },
      target: { kind: 'activity' },
      content: { kind: 'activity', input: { group: 'git', description } },
      made: 'typed',
      created_at: '2026-11-20T08:00:00.000Z',
      saved_at: '2026-11-20T08:00:00.000Z',
    });

  async function withProcess<T>(fn: (pid: number) => Promise<T>): Promise<T> {
    const child = track(spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }));
    await new Promise((r) => child.once('spawn', r));
    try {
      return await fn(child.pid!);
    } finally {
      child.kill();
    }
  }

  it('a process that started after the claim is not its claimant: the draft moves in and is listed', async () => {
    const dir = draftsDir(w.configDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await withProcess(async (pid) => {
      writeFileSync(join(dir, 'eeee5555.json'), file('eeee5555', 'Words of 0.1.0'));
      writeFileSync(join(dir, 'eeee5555.claim'), JSON.stringify({ pid, token: 'x', at: '2026-11-20T08:00:01.000Z' }));
      const r = await w.cli(['drafts']);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain('eeee5555');
      expect(r.stdout).toContain('Words of 0.1.0');
      expect(readdirSync(dir).filter((n) => n.startsWith('eeee5555'))).toEqual([]);
    });
  });

  it('a live claimant (started before its claim): left where it is, and said', async () => {
    const dir = draftsDir(w.configDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    await withProcess(async (pid) => {
      const at = new Date(Date.now() + 2000).toISOString();
      writeFileSync(join(dir, 'eeee5555.json'), file('eeee5555', 'Words of 0.1.0'));
      writeFileSync(join(dir, 'eeee5555.claim'), JSON.stringify({ pid, token: 'x', at }));
      const r = await w.cli(['drafts']);
      expect(r.stderr).toBe(
        `warning: the draft ${join(dir, 'eeee5555.json')} is being sent by another checkin (process ${pid}, since ${at.slice(0, 24)}); it is left where it is until that one is gone\nNo drafts are waiting.\n`,
      );
      expect(
        readdirSync(dir)
          .filter((n) => n.startsWith('eeee5555'))
          .sort(),
      ).toEqual(['eeee5555.claim', 'eeee5555.json']);
    });
  });
});

describe('another process holding the database', () => {
  /** A second process holding the outbox exclusively (as `sqlite3` with locking_mode EXCLUSIVE and BEGIN EXCLUSIVE does) until stopped. */
  async function locked<T>(fn: () => Promise<T>): Promise<T> {
    const script = `const { DatabaseSync } = require('node:sqlite'); const d = new DatabaseSync(${JSON.stringify(outboxDb(w.configDir))}); d.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE entries SET data = data"); process.stdout.write('locked\\n'); setTimeout(() => {}, 60000);`;
    const child = track(spawn(process.execPath, ['--no-warnings', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] }));
    await new Promise((r) => child.stdout!.once('data', r));
    try {
      return await fn();
    } finally {
      child.kill();
      await new Promise((r) => child.once('exit', r));
    }
  }

  /** The outbox as checkin makes it, made by a connection of the test's own (closed again: in-process runs keep theirs open). */
  function made(): void {
    mkdirSync(draftsDir(w.configDir), { recursive: true, mode: 0o700 });
    const db = new DatabaseSync(outboxDb(w.configDir));
    db.exec(
      `PRAGMA journal_mode = WAL; CREATE TABLE entries (id TEXT PRIMARY KEY, data TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'kept', holder TEXT, sending_at TEXT, maybe_at TEXT); CREATE TABLE imported (name TEXT PRIMARY KEY);`,
    );
    db.close();
  }

  it('`drafts` and `status` say it is busy within about a second, never a false "No drafts are waiting."; the status itself stands', async () => {
    made();
    await locked(async () => {
      let t = Date.now();
      const drafts = await w.cli(['drafts']);
      expect(Date.now() - t).toBeLessThan(3000);
      expect(drafts).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: Cannot read the drafts in ${draftsDir(w.configDir)}: the drafts database is busy (another checkin is writing it); try again in a moment\n`,
      });
      t = Date.now();
      const status = await w.cli(['status']);
      expect(Date.now() - t).toBeLessThan(3000);
      // The status stands (its exit code is what prompts and cron read); the drafts are said busy, not counted as none.
      expect(status.code === 0 || status.code === 3).toBe(true);
      expect(status.stdout).not.toMatch(/draft/);
      expect(status.stderr).toBe(
        `warning: Cannot read the drafts in ${draftsDir(w.configDir)}: the drafts database is busy (another checkin is writing it); try again in a moment\n`,
      );
      const json = await w.cli(['status', '--json']);
      expect(JSON.parse(json.stdout)).not.toHaveProperty('drafts_waiting');
    });
  });

  it(
    '`log` under the lock: one clear line, kept in the fallback folder',
    async () => {
      made();
      await locked(async () => {
        const tmp = tempDir();
        const r = await w.cli(['log', 'while locked'], { env: { TMPDIR: tmp } });
        expect(r.code).toBe(0);
        expect(r.stderr).toMatch(
          new RegExp(
            `^warning: Cannot keep a draft in ${draftsDir(w.configDir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the drafts database is busy \\(another checkin is writing it\\)\\); it is kept in \\S+ for now — a temporary folder, emptied at reboot on many systems; it moves home at the next run that can write there\n$`,
          ),
        );
        expect(r.stderr).not.toMatch(/try again/);
      });
    },
    patient(20_000),
  );
});
