// The single binary upgrading itself (`checkin upgrade`, as installed by install.sh): a copy of the
// real binary in a folder of its own, a release served on 127.0.0.1 whose archive holds a stand-in
// checkin 99.0.0 (a shell script). --check changes nothing; without --yes and no terminal it refuses;
// a checksum mismatch and a new binary that does not run leave the old one in place, byte for byte;
// --yes swaps it. Then real signals (SIGKILL, SIGINT, SIGTERM) at each step — the download, the new
// binary's self-check, the swap — each sent when that step is seen to have begun (the archive's first
// bytes on disk; a marker the stand-in writes when its check starts or ends): the target is always
// the old binary or the new, checked one, and the next run leaves nothing beside it. Two upgrades at
// once: one says another is running. A 600 MiB archive is refused with bounded memory (peak RSS by
// /usr/bin/time). The binary is CHECKIN_TEST_BINARY's, else build/checkin; without one it skips.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { BINARY, cleanEnv, outcome, ROOT } from '../helpers/cli.js';
import { tidyUpgrade } from '../../src/domain/upgrade.js';
import { patient } from '../helpers/patience.js';

const binary = BINARY ?? join(ROOT, 'build', 'checkin');
const have = existsSync(binary);
if (!have) console.log(`binary-upgrade: skipped, no binary at ${binary} (npm run binary makes it)`);
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const PLATFORM = `linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
const NEXT = '99.0.0';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: Server;
let base: string;
const routes = new Map<string, Buffer>();
/** Answers made as they are sent: a download held half-way, a 600 MiB body. */
const streamed = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();

function archiveOf(script: string): Buffer {
  const dir = tempDir('checkin-bu-');
  mkdirSync(join(dir, 'x'));
  writeFileSync(join(dir, 'x', 'checkin'), script, { mode: 0o755 });
  execFileSync('tar', ['czf', join(dir, 'a.tar.gz'), '-C', join(dir, 'x'), 'checkin']);
  return readFileSync(join(dir, 'a.tar.gz'));
}
function release(folder: string, archive: Buffer, listed = archive, v = NEXT) {
  const name = `checkin-${v}-${PLATFORM}.tar.gz`;
  routes.set(`/${folder}/${name}`, archive);
  routes.set(`/${folder}/SHA256SUMS`, Buffer.from(`${sha(listed)}  ${name}\n`));
}

/**
 * A stand-in new checkin: with FAKE_MARK set, its --version writes its pid there when it starts
 * (and, with FAKE_DONE, there as it ends); with FAKE_HOLD, it waits (at most 30 s) for that file to
 * exist before answering — the test's moment to send a signal during the check.
 */
const standIn = (exit: number) => `#!/bin/sh
[ -n "$FAKE_MARK" ] && echo $$ > "$FAKE_MARK.tmp" && mv "$FAKE_MARK.tmp" "$FAKE_MARK"
if [ -n "$FAKE_HOLD" ]; then i=0; while [ ! -e "$FAKE_HOLD" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; fi
[ -n "$FAKE_DONE" ] && echo $$ > "$FAKE_DONE.tmp" && mv "$FAKE_DONE.tmp" "$FAKE_DONE"
[ ${exit} -eq 0 ] && echo ${NEXT}
exit ${exit}
`;

/** Waits (polling, at most `ms`) until `ready()` holds: an event on disk, never a length of time. */
async function waitFor(ready: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  if (!have) return;
  release('good', archiveOf(`#!/bin/sh\necho ${NEXT}\n`));
  release('broken', archiveOf('#!/bin/sh\nexit 139\n'));
  release('mismatch', archiveOf(`#!/bin/sh\necho ${NEXT}\n`), Buffer.from('other'));
  const held = archiveOf(standIn(0));
  release('held', held);
  release('failing', archiveOf(standIn(139)));
  // The same archive, its second half sent only when the test has seen the first on disk and signalled.
  release('slow', held);
  streamed.set(`/slow/checkin-${NEXT}-${PLATFORM}.tar.gz`, (_req, res) => {
    res.writeHead(200, { 'content-length': String(held.length) });
    res.write(held.subarray(0, held.length >> 1));
    // the rest never comes: the upgrade is stopped while it waits; its socket's close ends this answer
  });
  // This version again: `checkin upgrade` says it is up to date, after putting right what a stopped one left.
  release('same', archiveOf(`#!/bin/sh\necho ${version}\n`), undefined, version);
  const big = `checkin-${NEXT}-${PLATFORM}.tar.gz`;
  routes.set('/big/SHA256SUMS', Buffer.from(`${'d'.repeat(64)}  ${big}\n`));
  streamed.set(`/big/${big}`, (_req, res) => {
    // 600 MiB, chunked (no length said), in 64 KiB writes as the client takes them; never held here either.
    res.writeHead(200);
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const total = 600 * 2 ** 20;
    const more = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('close', () => (sent = total));
    more();
  });
  server = createServer((req, res) => {
    const live = streamed.get(req.url ?? '');
    if (live) return live(req, res);
    const body = routes.get(req.url ?? '');
    res.writeHead(body ? 200 : 404).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** A copy of the binary, installed as install.sh installs it. */
function installedCopy(): { bin: string; dir: string; bytes: Buffer } {
  const dir = tempDir('checkin-bu-bin-');
  const bin = join(dir, 'checkin');
  copyFileSync(binary, bin);
  return { bin, dir, bytes: readFileSync(bin) };
}
const start = (bin: string, args: string[], folder: string, env: Record<string, string> = {}) =>
  track(spawn(bin, ['upgrade', ...args], { env: cleanEnv({ CHECKIN_RELEASE_URL: `${base}/${folder}`, ...env }), stdio: ['ignore', 'pipe', 'pipe'] }));
const upgrade = async (bin: string, args: string[], folder: string, env: Record<string, string> = {}) =>
  outcome(start(bin, args, folder, env), 'checkin upgrade', 60_000);
/** The stand-in's pid from a marker, killed (a SIGKILLed upgrade cannot end its check's child). */
function endStandIn(marker: string): void {
  try {
    process.kill(Number(readFileSync(marker, 'utf8')), 'SIGKILL');
  } catch {
    // already gone
  }
}

describe.skipIf(!have)('the single binary upgrading itself', () => {
  it(
    '--check says what it would do; without --yes and no terminal it asks for one; neither changes the file',
    async () => {
      const { bin, bytes } = installedCopy();
      expect(await upgrade(bin, ['--check'], 'good')).toEqual({
        code: 0,
        signal: null,
        stderr: '',
        stdout: `Would upgrade checkin ${version} → ${NEXT}: download ${base}/good/checkin-${NEXT}-${PLATFORM}.tar.gz, check it against SHA256SUMS, replace ${bin}.\n`,
      });
      const r = await upgrade(bin, [], 'good');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`Upgrading ${bin} needs a yes`);
      expect(sha(readFileSync(bin))).toBe(sha(bytes));
    },
    patient(60_000),
  );

  it(
    'refuses a checksum mismatch and rolls back a new binary that does not run: the old one stays, byte for byte',
    async () => {
      const { bin, dir, bytes } = installedCopy();
      const mismatch = await upgrade(bin, ['--yes'], 'mismatch');
      expect(mismatch.code).toBe(1);
      expect(mismatch.stderr).toMatch(/is not the file the release lists/);
      const broken = await upgrade(bin, ['--yes'], 'broken');
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(`Nothing was changed: checkin ${version} is still in ${bin}.`);
      expect(sha(readFileSync(bin))).toBe(sha(bytes));
      expect(readdirSync(dir)).toEqual(['checkin']);
      expect(execFileSync(bin, ['--version'], { encoding: 'utf8', env: cleanEnv() })).toBe(`${version}\n`);
    },
    patient(90_000),
  );

  it(
    '--yes downloads, checks and swaps in the new release, and says so',
    async () => {
      const { bin, dir } = installedCopy();
      expect(await upgrade(bin, ['--yes'], 'good')).toEqual({
        code: 0,
        signal: null,
        stderr: '',
        stdout: `checkin upgraded from ${version} to ${NEXT} (${bin}).\n`,
      });
      expect(execFileSync(bin, { encoding: 'utf8' })).toBe(`${NEXT}\n`);
      expect(readdirSync(dir)).toEqual(['checkin']);
    },
    patient(60_000),
  );
});

describe.skipIf(!have)('no signal leaves anything but the old or the new, checked binary', () => {
  const SIGNALS = ['SIGKILL', 'SIGINT', 'SIGTERM'] as const;
  /** After a stopped upgrade: what the next run (the old binary still in place) leaves is the binary alone. */
  async function nextRun(bin: string, dir: string, bytes: Buffer): Promise<void> {
    expect(sha(readFileSync(bin))).toBe(sha(bytes));
    const next = await upgrade(bin, [], 'same');
    expect(next).toEqual({ code: 0, signal: null, stderr: '', stdout: `checkin ${version} is up to date (the newest release at ${base}/same).\n` });
    expect(readdirSync(dir)).toEqual(['checkin']);
  }

  it.each(SIGNALS)(
    '%s while the archive downloads: the old binary stays; the next run leaves nothing',
    async (sig) => {
      const { bin, dir, bytes } = installedCopy();
      const child = start(bin, ['--yes'], 'slow');
      const done = outcome(child, 'checkin upgrade', 60_000);
      const archive = () => readdirSync(dir).flatMap((n) => (n.startsWith('.checkin-upgrade-') ? readdirSync(join(dir, n)).map((a) => join(dir, n, a)) : []));
      await waitFor(() => archive().some((a) => a.endsWith('.tar.gz') && statSync(a).size > 0), 'the archive to be half on disk');
      child.kill(sig);
      const r = await done;
      expect(r.signal).toBe(sig);
      if (sig !== 'SIGKILL') {
        expect(r.stderr).toBe(`\nStopped: not upgraded; ${bin} is checkin ${version}, as before.\n`);
        expect(readdirSync(dir)).toEqual(['checkin']);
      }
      await nextRun(bin, dir, bytes);
    },
    120_000,
  );

  it.each(SIGNALS)(
    "%s during the new binary's self-check: the old binary stays; the next run leaves nothing",
    async (sig) => {
      const { bin, dir, bytes } = installedCopy();
      const marks = tempDir('checkin-bu-mark-');
      const mark = join(marks, 'started');
      const child = start(bin, ['--yes'], 'held', { FAKE_MARK: mark, FAKE_HOLD: join(marks, 'never') });
      const done = outcome(child, 'checkin upgrade', 60_000);
      await waitFor(() => existsSync(mark), 'the self-check to start');
      child.kill(sig);
      const r = await done;
      endStandIn(mark);
      expect(r.signal).toBe(sig);
      if (sig !== 'SIGKILL') expect(r.stderr).toBe(`\nStopped: not upgraded; ${bin} is checkin ${version}, as before.\n`);
      await nextRun(bin, dir, bytes);
    },
    120_000,
  );

  it.each(SIGNALS)(
    '%s as the self-check ends (at the swap): the old binary or the new one, never anything else',
    async (sig) => {
      const { bin, dir, bytes } = installedCopy();
      const marks = tempDir('checkin-bu-mark-');
      const child = start(bin, ['--yes'], 'held', { FAKE_DONE: join(marks, 'done') });
      const done = outcome(child, 'checkin upgrade', 60_000);
      await waitFor(() => existsSync(join(marks, 'done')), 'the self-check to end');
      child.kill(sig);
      const r = await done;
      const now = readFileSync(bin);
      const isNew = now.toString('utf8') === standIn(0);
      expect(isNew || sha(now) === sha(bytes)).toBe(true);
      if (isNew) {
        // The new one runs; what a SIGKILL could leave (the lock, the work folder) its next run removes.
        expect(execFileSync(bin, ['--version'], { encoding: 'utf8' })).toBe(`${NEXT}\n`);
        // Said, unless killed outright: done before the signal came, or stopped after the rename.
        const told = [`checkin upgraded from ${version} to ${NEXT} (${bin}).\n`, `\nStopped: checkin ${NEXT} was already in place (${bin}).\n`];
        if (sig !== 'SIGKILL' || r.signal === null) expect(told).toContain(r.stdout || r.stderr);
        tidyUpgrade(bin);
        expect(readdirSync(dir)).toEqual(['checkin']);
      } else {
        expect(r.signal).toBe(sig);
        await nextRun(bin, dir, bytes);
      }
    },
    120_000,
  );

  it(
    'the daily check (upgrade --record) removes what a killed upgrade left, when none is running',
    async () => {
      const { bin, dir, bytes } = installedCopy();
      const gone = track(spawn('true'));
      await new Promise((resolve) => gone.once('exit', resolve));
      mkdirSync(join(dir, `.checkin-upgrade-${gone.pid}`));
      writeFileSync(join(dir, `.checkin-upgrade-${gone.pid}`, 'checkin'), 'half');
      writeFileSync(join(dir, '.checkin.upgrade.lock'), `${JSON.stringify({ pid: gone.pid, ns: '', token: 't' })}\n`);
      // A lock of another pid namespace counts by its lease alone: an old one.
      const old = new Date(Date.now() - 10 * 60_000);
      utimesSync(join(dir, '.checkin.upgrade.lock'), old, old);
      expect(await upgrade(bin, ['--record'], 'same')).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
      expect(readdirSync(dir)).toEqual(['checkin']);
      expect(sha(readFileSync(bin))).toBe(sha(bytes));
    },
    patient(60_000),
  );

  it(
    'two upgrades at once with a release whose binary fails its check: one says another is running, the old binary stays',
    async () => {
      const { bin, dir, bytes } = installedCopy();
      const marks = tempDir('checkin-bu-mark-');
      const mark = join(marks, 'started');
      const go = join(marks, 'go');
      const env = { FAKE_MARK: mark, FAKE_HOLD: go };
      const first = start(bin, ['--yes'], 'failing', env);
      const firstDone = outcome(first, 'the first checkin upgrade', 60_000);
      await waitFor(() => existsSync(mark), "the first upgrade's self-check to start");
      const second = await upgrade(bin, ['--yes'], 'failing', env).finally(() => writeFileSync(go, ''));
      expect(second).toEqual({
        code: 1,
        signal: null,
        stdout: '',
        stderr: `error: Another checkin upgrade (pid ${first.pid}) is replacing ${bin} now: nothing was changed by this one\n`,
      });
      const r = await firstDone;
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`error: The new checkin did not run: failed (exit 139). Nothing was changed: checkin ${version} is still in ${bin}.\n`);
      expect(sha(readFileSync(bin))).toBe(sha(bytes));
      expect(readdirSync(dir)).toEqual(['checkin']);
    },
    patient(120_000),
  );

  it.skipIf(!existsSync('/usr/bin/time'))(
    'refuses a 600 MiB archive as it comes, with bounded memory (peak RSS)',
    async () => {
      const { bin, dir, bytes } = installedCopy();
      const rss = join(tempDir('checkin-bu-rss-'), 'rss');
      const r = await outcome(
        track(
          spawn('/usr/bin/time', ['-f', '%M', '-o', rss, bin, 'upgrade', '--yes'], {
            env: cleanEnv({ CHECKIN_RELEASE_URL: `${base}/big` }),
            stdio: ['ignore', 'pipe', 'pipe'],
          }),
        ),
        'checkin upgrade',
        120_000,
      );
      expect(r.stderr).toBe(`error: ${base}/big/checkin-${NEXT}-${PLATFORM}.tar.gz is larger than checkin accepts (at most 256 MiB): nothing was changed\n`);
      expect(r.code).toBe(1);
      const peakKiB = Number(readFileSync(rss, 'utf8').trim().split('\n').pop());
      console.log(`binary-upgrade: 600 MiB archive refused at 256 MiB, peak RSS ${Math.round(peakKiB / 1024)} MiB`);
      // Held whole, the 256 MiB read before the refusal would be that much above the binary's ~55 MiB.
      expect(peakKiB).toBeLessThan(200 * 1024);
      expect(sha(readFileSync(bin))).toBe(sha(bytes));
      expect(readdirSync(dir)).toEqual(['checkin']);
    },
    150_000,
  );
});
