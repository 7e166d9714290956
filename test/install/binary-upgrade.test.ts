// The single binary upgrading itself (`checkin upgrade`, as installed by install.sh): a copy of the
// real binary in a folder of its own, a release served on 127.0.0.1 whose archive holds a stand-in
// checkin 99.0.0 (a shell script). --check changes nothing; without --yes and no terminal it refuses;
// a checksum mismatch and a new binary that does not run leave the old one in place, byte for byte;
// --yes swaps it. The binary is CHECKIN_TEST_BINARY's, else release/checkin; without one it skips.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { BINARY, cleanEnv, outcome, ROOT } from '../helpers/cli.js';

const binary = BINARY ?? join(ROOT, 'release', 'checkin');
const have = existsSync(binary);
if (!have) console.log(`binary-upgrade: skipped, no binary at ${binary} (npm run binary makes it)`);
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const PLATFORM = `linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
const NEXT = '99.0.0';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: Server;
let base: string;
const routes = new Map<string, Buffer>();

function archiveOf(script: string): Buffer {
  const dir = tempDir('checkin-bu-');
  mkdirSync(join(dir, 'x'));
  writeFileSync(join(dir, 'x', 'checkin'), script, { mode: 0o755 });
  execFileSync('tar', ['czf', join(dir, 'a.tar.gz'), '-C', join(dir, 'x'), 'checkin']);
  return readFileSync(join(dir, 'a.tar.gz'));
}
function release(folder: string, archive: Buffer, listed = archive) {
  const name = `checkin-${NEXT}-${PLATFORM}.tar.gz`;
  routes.set(`/${folder}/${name}`, archive);
  routes.set(`/${folder}/SHA256SUMS`, Buffer.from(`${sha(listed)}  ${name}\n`));
}

beforeAll(async () => {
  if (!have) return;
  release('good', archiveOf(`#!/bin/sh\necho ${NEXT}\n`));
  release('broken', archiveOf('#!/bin/sh\nexit 139\n'));
  release('mismatch', archiveOf(`#!/bin/sh\necho ${NEXT}\n`), Buffer.from('other'));
  server = createServer((req, res) => {
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
const upgrade = async (bin: string, args: string[], folder: string) =>
  outcome(
    track(spawn(bin, ['upgrade', ...args], { env: cleanEnv({ CHECKIN_RELEASE_URL: `${base}/${folder}` }), stdio: ['ignore', 'pipe', 'pipe'] })),
    'checkin upgrade',
    60_000,
  );

describe.skipIf(!have)('the single binary upgrading itself', () => {
  it('--check says what it would do; without --yes and no terminal it asks for one; neither changes the file', async () => {
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
  }, 60_000);

  it('refuses a checksum mismatch and rolls back a new binary that does not run: the old one stays, byte for byte', async () => {
    const { bin, dir, bytes } = installedCopy();
    const mismatch = await upgrade(bin, ['--yes'], 'mismatch');
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toMatch(/is not the file the release lists/);
    const broken = await upgrade(bin, ['--yes'], 'broken');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`The old one (${version}) is back in ${bin}.`);
    expect(sha(readFileSync(bin))).toBe(sha(bytes));
    expect(readdirSync(dir)).toEqual(['checkin']);
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8', env: cleanEnv() })).toBe(`${version}\n`);
  }, 90_000);

  it('--yes downloads, checks and swaps in the new release, and says so', async () => {
    const { bin, dir } = installedCopy();
    expect(await upgrade(bin, ['--yes'], 'good')).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `checkin upgraded from ${version} to ${NEXT} (${bin}).\n`,
    });
    expect(execFileSync(bin, { encoding: 'utf8' })).toBe(`${NEXT}\n`);
    expect(readdirSync(dir)).toEqual(['checkin']);
  }, 60_000);
});
