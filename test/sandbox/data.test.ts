// `--data FILE` is all-or-nothing: a change is shown only once it is on disk; a change the disk
// refuses is answered 507/503, taken back, never served, and sending it again makes no duplicate.
// The journal survives kill -9 with a torn last line, folds into FILE, and keeps two sandboxes apart.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { DamagedJournal, journalPath, loadState, lockPath, parseJournal, realIO } from '../../src/sandbox/store.js';
import { track, tempDir } from '../helpers/cleanup.js';
import { BIN, cleanEnv, startCliSandbox } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { patient } from '../helpers/patience.js';

const NOW = new Date(Date.UTC(2026, 10, 18, 10, 30, 0));
const TODAY = '2026-11-18';

let dir: string;
const open: Sandbox[] = [];
const children: ChildProcess[] = [];
const homes: string[] = [];
/** A clean environment for the CLI; its home folder is removed after the test. */
function env(): NodeJS.ProcessEnv {
  const e = cleanEnv();
  homes.push(e.HOME!);
  return e;
}
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkin-data-'));
});
afterEach(async () => {
  await Promise.all(children.splice(0).map(killed));
  for (const sb of open.splice(0)) await sb.close();
  rmSync(dir, { recursive: true, force: true });
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A disk that can be made to fail: half the line is written, then ENOSPC (or the flush fails with EIO). */
function flakyDisk() {
  const disk = { full: false, broken: false, writes: 0 };
  const io = {
    async write(handle: FileHandle, data: Buffer, position: number) {
      disk.writes++;
      if (disk.full) {
        await handle.write(data, 0, Math.floor(data.length / 2), position);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      return realIO.write(handle, data, position);
    },
    async sync(handle: FileHandle) {
      if (disk.broken) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      return realIO.sync(handle);
    },
  };
  return { disk, io };
}

async function start(io?: ReturnType<typeof flakyDisk>['io'], file = join(dir, 'state.json')) {
  const sb = await startSandbox({ clock: () => NOW, dataFile: file, ...(io && { storeIO: io }) });
  open.push(sb);
  const req = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(sb.url, method, path, { token: sb.token, ...(body !== undefined && { body }), ...(headers && { headers }) });
  return { sb, file, req };
}

const FULL = {
  error: 'insufficient_storage',
  message: 'Not saved: the disk holding the data file is full (ENOSPC). Nothing was changed and reads still work; free some space and send it again.',
};

describe('a write the disk refuses', () => {
  it('is answered 507 with a JSON message, taken back, never served; reads go on; sent again it is stored once', async () => {
    const { disk, io } = flakyDisk();
    const { sb, file, req } = await start(io);
    const checkIn = (await req('GET', '/check-ins/2026-11-17')).json;
    const comments = `/check-ins/${checkIn.id}/comments?per_page=50`;
    const kept = await req('POST', `/check-ins/${checkIn.id}/comments`, { body: 'Saved before the disk filled up' });
    expect(kept.status).toBe(201);
    const before = (await req('GET', comments)).json;
    const todayBefore = (await req('GET', `/check-ins/${TODAY}`)).json;
    const goalUpdates = (await req('GET', '/goals')).json.map((g: { id: string }) => g.id);

    disk.full = true;
    const refused = await req('POST', `/check-ins/${checkIn.id}/comments`, { body: 'Written while the disk is full' });
    expect(refused.status).toBe(507);
    expect(refused.json).toEqual(FULL);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.headers.ratelimit).toMatch(/^"burst";r=\d+;t=\d+, "sustained";r=\d+;t=\d+$/);
    // Every kind of write is refused whole: a new check-in record, a changed one, a goal, a deletion with its comments.
    expect((await req('PATCH', `/check-ins/${TODAY}`, { intentions: 'Lost?' })).json).toEqual(FULL);
    expect((await req('POST', '/goals', { title: 'Never stored' })).status).toBe(507);
    const update = sb.service.data.goal_updates.find((u) => sb.service.data.comments.some((c) => c.resource.id === u.id))!;
    // (Ada wrote this update: she may change and delete it.)
    const updateBefore = (await req('GET', `/goal-updates/${update.id}`)).json;
    const updateComments = (await req('GET', `/goal-updates/${update.id}/comments`)).json;
    expect((await call(sb.url, 'DELETE', `/goal-updates/${update.id}`, { token: sb.token })).status).toBe(507);
    expect((await req('PATCH', `/goal-updates/${update.id}`, { title: 'Renamed?' })).status).toBe(507);

    // Nothing of it is served; every read still answers.
    expect((await req('GET', comments)).json).toEqual(before);
    expect((await req('GET', `/check-ins/${TODAY}`)).json).toEqual(todayBefore);
    expect((await req('GET', '/goals')).json.map((g: { id: string }) => g.id)).toEqual(goalUpdates);
    expect((await req('GET', `/goal-updates/${update.id}`)).json).toEqual(updateBefore);
    expect((await req('GET', `/goal-updates/${update.id}/comments`)).json).toEqual(updateComments);
    expect((await req('GET', '/me')).status).toBe(200);
    // The journal holds whole lines only: the half-written one was cut off.
    const journal = readFileSync(journalPath(file), 'utf8');
    expect(journal.endsWith('\n')).toBe(true);
    expect(parseJournal(journal, 'journal')).toMatchObject({ lines: 1, torn: false });

    // Space again: the client sends the refused comment again, and it is there once.
    disk.full = false;
    const again = await req('POST', `/check-ins/${checkIn.id}/comments`, { body: 'Written while the disk is full' });
    expect(again.status).toBe(201);
    const after = (await req('GET', comments)).json as Array<{ body: string }>;
    expect(after.map((c) => c.body)).toEqual(['Written while the disk is full', ...before.map((c: { body: string }) => c.body)]);
    // What the next start reads (without a clean stop) is what was acknowledged, nothing else.
    const saved = (await loadState(file))!;
    expect(
      saved.comments
        .filter((c) => c.resource.id === checkIn.id)
        .map((c) => c.body)
        .sort(),
    ).toEqual(after.map((c) => c.body).sort());
    expect(saved.goals.map((g) => g.title)).not.toContain('Never stored');
    expect(saved.goal_updates.find((u) => u.id === update.id)!.title).toBe(updateBefore.title);
    expect(saved.check_ins.find((c) => c.date === TODAY && c.person_id === sb.service.data.tokens[0]!.person_id)).toBeUndefined();
  });

  it('a flush that fails (EIO) is answered 503 with Retry-After, and taken back', async () => {
    const { disk, io } = flakyDisk();
    const { req } = await start(io);
    disk.broken = true;
    const r = await req('PATCH', `/check-ins/${TODAY}`, { intentions: 'Not on disk' });
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('5');
    expect(r.json).toEqual({
      error: 'service_unavailable',
      message: 'Not saved: the data file could not be written (EIO). Nothing was changed and reads still work; send it again later.',
    });
    expect((await req('GET', `/check-ins/${TODAY}`)).json).toMatchObject({ intentions: null, completed_at: null });
    disk.broken = false;
    expect((await req('PATCH', `/check-ins/${TODAY}`, { intentions: 'On disk' })).json.intentions).toBe('On disk');
  });

  it('nobody reads a change before it is on disk: a GET sent while the write is being saved waits, then sees nothing of the refused write', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const writing = new Promise<void>((r) => (entered = r));
    let settled = false;
    const { sb, req } = await start({
      async write() {
        entered();
        await held;
        settled = true;
        throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
      },
      sync: realIO.sync,
    });
    const ci = (await req('GET', `/check-ins/${TODAY}`)).json;
    const post = req('POST', `/check-ins/${ci.id}/comments`, { body: 'In memory, not on disk' });
    await writing;
    const seen = sb.requests.length;
    let readSettledFirst: boolean | undefined;
    const read = req('GET', `/check-ins/${ci.id}/comments`).then((r) => {
      readSettledFirst = settled;
      return r;
    });
    // The GET has arrived at the sandbox (bounded wait on its request log), and is held.
    for (let i = 0; i < 10_000 && sb.requests.length === seen; i++) await new Promise((r) => setImmediate(r));
    expect(sb.requests.at(-1)!.method).toBe('GET');
    expect(readSettledFirst).toBeUndefined();
    release();
    expect((await post).status).toBe(507);
    const r = await read;
    expect(readSettledFirst).toBe(true);
    expect(r.json).toEqual([]);
  });
});

describe('the journal', () => {
  it('a write costs one line; the journal folds into the data file once it outgrows it, and at close', async () => {
    const { file, req } = await start();
    const ci = (await req('GET', '/check-ins/2026-11-17')).json;
    const snapshot = statSync(file).size;
    expect(statSync(journalPath(file)).size).toBe(0);
    // Large enough to outgrow the demo's data file (months of history) within the rate limit's 30 writes.
    const body = 'x'.repeat(16000);
    let folded = false;
    let written = 0;
    for (let i = 0; i < 200 && !folded; i++) {
      const before = statSync(journalPath(file)).size;
      expect((await req('POST', `/check-ins/${ci.id}/comments`, { body: `${i} ${body}` })).status).toBe(201);
      written++;
      const after = statSync(journalPath(file)).size;
      folded = after < before;
      if (!folded) expect(after - before).toBeLessThan(16500); // one line: this write's change
    }
    expect(folded).toBe(true);
    expect(written * 16000).toBeGreaterThan(snapshot);
    // The data file alone now holds every comment but the last (which is in the fresh journal).
    const alone = JSON.parse(readFileSync(file, 'utf8')) as { comments: Array<{ body: string }> };
    expect(alone.comments.filter((c) => c.body.endsWith(body))).toHaveLength(written - 1);
    expect(parseJournal(readFileSync(journalPath(file), 'utf8'), 'j').lines).toBe(1);
    await open.pop()!.close();
    // A clean stop leaves the data file whole, and no journal or lock beside it.
    expect(readdirSync(dir).sort()).toEqual(['state.json']);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { comments: Array<{ body: string }> }).comments.filter((c) => c.body.endsWith(body))).toHaveLength(
      written,
    );
  });

  it('a torn last line is dropped; a damaged line before the last refuses to start, naming the line', async () => {
    const good = JSON.stringify({ changes: [{ list: 'comments', delete: '00000000-0000-4000-8000-000000000000' }] });
    expect(parseJournal(`${good}\n${good}\n{"changes":[{"list":"comm`, 'j')).toMatchObject({ lines: 2, torn: true });
    expect(parseJournal(`${good}\n\u0000\u0000\u0000`, 'j')).toMatchObject({ lines: 1, torn: true, changes: [expect.anything()] });
    expect(() => parseJournal(`${good}\n{"changes":[{"list":"nope","delete":"x"}]}\n${good}\n`, 'state.json.journal')).toThrow(
      'state.json.journal: line 2 is damaged (the lines after it cannot be trusted); fix or remove the journal to start from the data file alone',
    );
    // At start: the data file and a journal with a damaged middle line.
    const { sb, file } = await start();
    await sb.close();
    open.pop();
    writeFileSync(journalPath(file), `${good}\nnot json\n${good}\n`);
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(/state\.json\.journal: line 2 is damaged/);
    expect(existsSync(lockPath(file))).toBe(false);
  });

  it('only a last line without its newline is torn; a damaged last line that ends in its newline is an error, as a damaged middle line is', () => {
    const good = JSON.stringify({ changes: [{ list: 'comments', delete: '00000000-0000-4000-8000-000000000000' }] });
    const half = good.slice(0, 20);
    // Cut short before its newline: never acknowledged, left out; the whole lines before it count.
    expect(parseJournal(`${good}\n${half}`, 'j')).toEqual({ changes: [JSON.parse(good).changes[0]], lines: 1, torn: true, goodBytes: good.length + 1 });
    // The same bytes with their newline: written whole, so perhaps acknowledged; never dropped.
    for (const damaged of [`${good}\n${half}\n`, `${good}\n\u0000\u0000\u0000\n`, `${good}\n\n`, `${half}\n`, `${good}\n${half}\n{"changes":[{"li`]) {
      let thrown: unknown;
      try {
        parseJournal(damaged, 'state.json.journal');
      } catch (err) {
        thrown = err;
      }
      expect(thrown, JSON.stringify(damaged)).toBeInstanceOf(DamagedJournal);
      const lines = damaged.split('\n').length - 1;
      expect(thrown).toMatchObject({ line: lines, last: true });
      expect((thrown as Error).message).toBe(
        `state.json.journal: line ${lines}, the last whole line, is damaged; it ends in its newline, so it was written whole and may be an acknowledged change. ` +
          'Nothing was changed: fix that line, or remove it to start without it (or remove the journal to start from the data file alone)',
      );
    }
  });

  it('a line with a byte that is not UTF-8 is damaged (not read as U+FFFD and rewritten); goodBytes counts bytes', async () => {
    const bad = Buffer.concat([Buffer.from('{"changes":[{"list":"comments","delete":"ab'), Buffer.from([0xff]), Buffer.from('"}]}\n')]);
    const good = Buffer.from(`${JSON.stringify({ changes: [{ list: 'comments', delete: 'é ✓' }] })}\n`);
    expect(() => parseJournal(Buffer.concat([good, bad]), 'j')).toThrow(expect.objectContaining({ line: 2, last: true }));
    expect(() => parseJournal(Buffer.concat([bad, good]), 'j')).toThrow(expect.objectContaining({ line: 1, last: false }));
    expect(() => parseJournal(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), good]), 'j')).toThrow(expect.objectContaining({ line: 1, last: true }));
    // In a torn tail it is only part of a line cut short.
    expect(parseJournal(Buffer.concat([good, bad.subarray(0, -1)]), 'j')).toMatchObject({ lines: 1, torn: true, goodBytes: good.length });
    // At start: refused, the journal kept byte for byte.
    const { sb, file } = await start();
    await sb.close();
    open.pop();
    const journal = Buffer.concat([good, bad]);
    writeFileSync(journalPath(file), journal);
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(`${journalPath(file)}: line 2, the last whole line, is damaged`);
    expect(readFileSync(journalPath(file)).equals(journal)).toBe(true);
    expect(existsSync(lockPath(file))).toBe(false);
  });

  it('a damaged journal whose data file is missing is left as it is and the start refused; a whole one is removed (a fresh start)', async () => {
    const at = tempDir('checkin-journal-');
    const file = join(at, 'state.json');
    const damaged = `${JSON.stringify({ changes: [{ list: 'comments', delete: 'x' }] })}\n{"changes":[{"list":"comm\n`;
    writeFileSync(journalPath(file), damaged);
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(
      `${journalPath(file)}: line 2 is damaged, and its data file ${file} is missing. Nothing was changed: remove the journal to start afresh`,
    );
    expect(readFileSync(journalPath(file), 'utf8')).toBe(damaged);
    expect(readdirSync(at)).toEqual(['state.json.journal']);
    // Whole lines and a torn tail: as before, a state the user removed, so it starts afresh.
    writeFileSync(journalPath(file), `${JSON.stringify({ changes: [{ list: 'comments', delete: 'x' }] })}\n{"changes":[{"list":"comm`);
    const sb = await startSandbox({ dataFile: file });
    open.push(sb);
    expect(statSync(journalPath(file)).size).toBe(0);
  });

  it('a second sandbox on the same data file is refused (same process, or another while the first lives)', async () => {
    const { file } = await start();
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(`${file} is in use by another sandbox of this process; close it first`);
    await open.pop()!.close();
    // Another process holds it: its pid is in the lock.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    writeFileSync(lockPath(file), `${child.pid}\n`);
    await expect(startSandbox({ dataFile: file })).rejects.toThrow(
      `${file} is in use by another sandbox (process ${child.pid}); stop it first, or remove ${lockPath(file)} if that process is not a sandbox`,
    );
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // Its process is gone: the lock is stale and taken over.
    const again = await startSandbox({ dataFile: file });
    open.push(again);
    expect(readFileSync(lockPath(file), 'utf8')).toBe(`${process.pid}\n`);
  });
});

/** Starts `checkin sandbox` (the built binary), its limits off, and resolves with its URL and token. */
async function cliSandbox(args: string[]): Promise<{ child: ChildProcess; url: string; token: string }> {
  const started = await startCliSandbox(['--no-rate-limit', ...args], env());
  children.push(started.child);
  return started;
}
function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGKILL');
  });
}

describe('checkin sandbox --data, killed', () => {
  it('kill -9, a torn line appended to the journal: the next start has every acknowledged write and drops the torn line', async () => {
    const file = join(dir, 'state.json');
    const a = await cliSandbox(['--data', file]);
    const ci = (await call(a.url, 'GET', '/check-ins?per_page=1', { token: a.token })).json[0].id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call(a.url, 'POST', `/check-ins/${ci}/comments`, { token: a.token, body: { body: `kept ${i}` } })).json.id);
    await killed(a.child);
    appendFileSync(journalPath(file), '{"changes":[{"list":"comments","put":{"id":"torn');
    const b = await cliSandbox(['--data', file]);
    const listed = (await call(b.url, 'GET', `/check-ins/${ci}/comments?per_page=50`, { token: b.token })).json as Array<{ id: string; body: string }>;
    expect(listed.filter((c) => c.body.startsWith('kept ')).map((c) => c.id)).toEqual([...ids].reverse());
    // Start folded the journal in: the data file alone holds them, the journal is empty.
    expect(statSync(journalPath(file)).size).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { comments: Array<{ id: string }> }).comments.filter((c) => ids.includes(c.id))).toHaveLength(5);
    // A second `checkin sandbox` on the same file while this one runs: one line, exit 2.
    const second = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const c = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--data', file], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      c.stderr.on('data', (d: Buffer) => (err += d.toString()));
      c.on('exit', (code) => resolve({ code, err }));
    });
    expect(second).toEqual({
      code: 2,
      err: `error: Cannot start the sandbox: ${file} is in use by another sandbox (process ${b.child.pid}); stop it first, or remove ${lockPath(file)} if that process is not a sandbox\n`,
    });
  });
});

describe('checkin sandbox --data, the last journal line damaged', () => {
  /** Two acknowledged comments, then kill -9: the data file, and a journal of two whole lines. */
  async function twoAcknowledged() {
    const file = join(tempDir('checkin-journal-'), 'state.json');
    const a = await cliSandbox(['--data', file]);
    const ci = (await call(a.url, 'GET', '/check-ins?per_page=1', { token: a.token })).json[0].id as string;
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await call(a.url, 'POST', `/check-ins/${ci}/comments`, { token: a.token, body: { body: `kept ${i}` } })).json.id);
    await killed(a.child);
    const lines = readFileSync(journalPath(file), 'utf8').split('\n');
    expect(lines).toHaveLength(3); // two lines and nothing after the last newline
    return { file, ci, ids, first: lines[0]!, second: lines[1]! };
  }
  /** Runs `checkin sandbox --data FILE` to its end (bounded): it is expected to refuse. */
  function refusedRun(file: string): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve, reject) => {
      const c = track(spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--no-log', '--data', file], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] }));
      let out = '';
      let err = '';
      c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      c.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const timer = setTimeout(() => reject(new Error(`still running: ${out} ${err}`)), 10_000);
      c.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out, err });
      });
    });
  }

  it('ending in its newline (written whole, acknowledged): the start is refused naming the file and line, exit 2, the journal and data file untouched', async () => {
    const { file, first, second } = await twoAcknowledged();
    // The second acknowledged line damaged in place, its newline kept.
    const journal = Buffer.from(`${first}\n${second.slice(0, second.length >> 1)}\n`);
    writeFileSync(journalPath(file), journal);
    const data = readFileSync(file);
    const r = await refusedRun(file);
    expect(r).toEqual({
      code: 2,
      out: '',
      err:
        `error: Cannot start the sandbox: ${journalPath(file)}: line 2, the last whole line, is damaged; it ends in its newline, so it was written whole and may be an acknowledged change. ` +
        'Nothing was changed: fix that line, or remove it to start without it (or remove the journal to start from the data file alone)\n',
    });
    // The evidence is kept byte for byte; nothing was rewritten, no lock or temp file is left.
    expect(readFileSync(journalPath(file)).equals(journal)).toBe(true);
    expect(readFileSync(file).equals(data)).toBe(true);
    expect(readdirSync(join(file, '..')).sort()).toEqual(['state.json', 'state.json.journal']);
    // Refused again on the next try: nothing was "repaired" by the first.
    expect((await refusedRun(file)).code).toBe(2);
    expect(readFileSync(journalPath(file)).equals(journal)).toBe(true);
  });

  it('control: the same damaged line without its newline is a torn write: dropped, the sandbox starts with the whole lines', async () => {
    const { file, ci, ids, first, second } = await twoAcknowledged();
    writeFileSync(journalPath(file), `${first}\n${second.slice(0, second.length >> 1)}`);
    const b = await cliSandbox(['--data', file]);
    const listed = (await call(b.url, 'GET', `/check-ins/${ci}/comments?per_page=50`, { token: b.token })).json as Array<{ id: string; body: string }>;
    expect(listed.filter((c) => c.body.startsWith('kept ')).map((c) => c.id)).toEqual([ids[0]]);
    // Folded in at start: the data file holds the first, the journal is empty.
    expect(statSync(journalPath(file)).size).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { comments: Array<{ id: string }> }).comments.filter((c) => ids.includes(c.id)).map((c) => c.id)).toEqual(
      [ids[0]],
    );
  });
});

/** A 1 MiB tmpfs (root only; skipped where mounting is not permitted). */
function tryMount(at: string): boolean {
  mkdirSync(at, { recursive: true });
  if (process.getuid?.() !== 0) return false;
  const r = spawnSyncQuiet('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', at]);
  return r === 0;
}
function spawnSyncQuiet(cmd: string, args: string[]): number | null {
  return spawnSync(cmd, args, { stdio: 'ignore', timeout: 10_000 }).status;
}

describe('checkin sandbox --data on a disk that really fills up (1 MiB tmpfs)', () => {
  it(
    'writes past the space are 507 and never served; reads work; with space again writes go on; kill -9 and a start on a full disk lose nothing acknowledged',
    async (ctx) => {
      const mnt = join(dir, 'mnt');
      if (!tryMount(mnt)) {
        ctx.skip();
        return;
      }
      try {
        const file = join(mnt, 'state.json');
        const filler = join(mnt, 'filler');
        /** Fills the disk but for `leave` bytes. */
        const fill = (leave: number) => {
          rmSync(filler, { force: true });
          const { bavail, bsize } = statfsSync(mnt);
          writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leave)));
        };
        const bigOnes = async (sb: { url: string; token: string }, ci: string) =>
          ((await call(sb.url, 'GET', `/check-ins/${ci}/comments?per_page=50`, { token: sb.token })).json as Array<{ id: string; body: string }>)
            .filter((c) => c.body.length > 50_000)
            .map((c) => c.id)
            .sort();
        const a = await cliSandbox(['--data', file]);
        const ci = (await call(a.url, 'GET', '/check-ins?per_page=1', { token: a.token })).json[0].id;
        fill(300 * 1024); // a few 50 KB comments fit, then none
        const acked: string[] = [];
        const refused: string[] = [];
        for (let i = 0; i < 40 && refused.length < 3; i++) {
          const text = `${i} ${'y'.repeat(50_000)}`;
          const r = await call(a.url, 'POST', `/check-ins/${ci}/comments`, { token: a.token, body: { body: text } });
          if (r.status === 201) acked.push(r.json.id);
          else {
            expect([r.status, r.json]).toEqual([507, FULL]);
            refused.push(text);
          }
        }
        expect(acked.length).toBeGreaterThan(0);
        expect(refused).toHaveLength(3);
        expect(await bigOnes(a, ci)).toEqual([...acked].sort());
        expect((await call(a.url, 'GET', '/me', { token: a.token })).status).toBe(200);
        // Space again: the refused comment goes through.
        rmSync(filler);
        const retry = await call(a.url, 'POST', `/check-ins/${ci}/comments`, { token: a.token, body: { body: refused[0] } });
        expect(retry.status).toBe(201);
        acked.push(retry.json.id);
        await killed(a.child);
        // Restarted on a full disk: no room for a new snapshot, so it goes on from the data file and
        // its journal; everything acknowledged is served, nothing refused, no temp file is left.
        fill(8 * 1024);
        const b = await cliSandbox(['--data', file]);
        expect(await bigOnes(b, ci)).toEqual([...acked].sort());
        expect(readdirSync(mnt).filter((f) => f.endsWith('.tmp'))).toEqual([]);
        expect((await call(b.url, 'POST', `/check-ins/${ci}/comments`, { token: b.token, body: { body: refused[1] } })).status).toBe(507);
        rmSync(filler);
        const last = await call(b.url, 'POST', `/check-ins/${ci}/comments`, { token: b.token, body: { body: refused[1] } });
        expect(last.status).toBe(201);
        acked.push(last.json.id);
        await killed(b.child);
        const saved = (await loadState(file))!;
        expect(
          saved.comments
            .filter((c) => c.body.length > 50_000)
            .map((c) => c.id)
            .sort(),
        ).toEqual([...acked].sort());
      } finally {
        for (const c of children.splice(0)) await killed(c);
        spawnSyncQuiet('umount', [mnt]);
      }
    },
    patient(30_000),
  );
});
