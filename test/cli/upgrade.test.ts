// checkin upgrade: the install kind read from where checkin runs, the line each kind is told, and the
// install.sh binary's own upgrade (src/domain/upgrade.ts) against a release served on 127.0.0.1 —
// a good one swapped in, a checksum mismatch refused, a new binary that does not run rolled back, a
// redirect off this machine refused, plain http elsewhere refused. The real single binary upgrading
// itself is test/install/binary-upgrade.test.ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  download,
  installKind,
  isNewer,
  latestRelease,
  parseSums,
  releaseVersion,
  upgradeBinary,
  upgradeCommand,
  type Where,
} from '../../src/domain/upgrade.js';
import { tempDir } from '../helpers/cleanup.js';
import { BINARY, cleanEnv, runCli } from '../helpers/cli.js';

const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

describe('installKind', () => {
  const where = (w: Partial<Where>): Where => ({ build: 'npm', platform: 'linux', execPath: '/usr/bin/node', dpkgOwns: () => false, ...w });
  it.each([
    [{ script: '/usr/lib/node_modules/checkin-cli/bin/checkin.js' }, 'npm-global'],
    [{ script: '/home/a/.npm-global/lib/node_modules/checkin-cli/bin/checkin.js' }, 'npm-global'],
    [{ platform: 'win32', script: 'C:\\Users\\a\\AppData\\Roaming\\npm\\node_modules\\checkin-cli\\bin\\checkin.js' }, 'npm-global'],
    [{ script: '/home/a/.npm/_npx/1f2e/node_modules/checkin-cli/bin/checkin.js' }, 'npx'],
    [{ script: '/home/a/project/node_modules/checkin-cli/bin/checkin.js' }, 'npm-project'],
    [{ script: '/home/a/src/checkin/bin/checkin.js' }, 'clone'],
    [{ platform: 'darwin', script: '/opt/homebrew/Cellar/checkin/0.1.0/libexec/lib/node_modules/checkin-cli/bin/checkin.js' }, 'homebrew'],
    [{ platform: 'darwin', script: '/usr/local/Cellar/checkin/0.1.0/libexec/lib/node_modules/checkin-cli/bin/checkin.js' }, 'homebrew'],
    [{ build: 'binary', execPath: '/usr/bin/checkin', dpkgOwns: (p: string) => p === '/usr/bin/checkin' }, 'deb'],
    [{ build: 'binary', execPath: '/home/a/.local/bin/checkin' }, 'binary'],
    [{ build: 'binary', platform: 'win32', execPath: 'C:\\Users\\a\\scoop\\apps\\checkin\\current\\checkin.exe' }, 'scoop'],
    [{ build: 'binary', platform: 'win32', execPath: 'C:\\tools\\checkin.exe' }, 'windows-binary'],
  ] as Array<[Partial<Where>, string]>)('%o is %s', (w, kind) => {
    expect(installKind(where(w))).toBe(kind);
  });

  it('tells each kind its own command, and none for the install.sh binary', () => {
    expect(upgradeCommand('npm-global', '0.2.0', 'linux-x64')).toBe('npm install -g checkin-cli@latest');
    expect(upgradeCommand('npx', '0.2.0', 'linux-x64')).toMatch(/^npx checkin-cli@latest/);
    expect(upgradeCommand('homebrew', '0.2.0', undefined)).toBe('brew upgrade checkin');
    expect(upgradeCommand('scoop', '0.2.0', 'win-x64')).toBe('scoop update checkin');
    expect(upgradeCommand('deb', '0.2.0', 'linux-x64')).toBe(
      'download checkin_0.2.0_amd64.deb from the release, then: sudo apt install ./checkin_0.2.0_amd64.deb',
    );
    expect(upgradeCommand('binary', '0.2.0', 'linux-x64')).toBeUndefined();
  });

  it('orders versions as semver does', () => {
    expect(isNewer('0.2.0', '0.1.0')).toBe(true);
    expect(isNewer('0.10.0', '0.9.9')).toBe(true);
    expect(isNewer('0.1.0', '0.1.0')).toBe(false);
    expect(isNewer('1.0.0', '1.0.0-rc.1')).toBe(true);
    expect(isNewer('1.0.0-rc.1', '1.0.0')).toBe(false);
    expect(releaseVersion(parseSums(`${'a'.repeat(64)}  checkin.rb\n${'b'.repeat(64)}  checkin-0.3.1-linux-x64.tar.gz\n`))).toBe('0.3.1');
    // Nothing that could be a path.
    expect([...parseSums(`${'a'.repeat(64)}  ../checkin-0.3.1-linux-x64.tar.gz\n${'a'.repeat(64)}  .x\n`).keys()]).toEqual([]);
  });
});

// A release served on 127.0.0.1: path → bytes, or a redirect.
let server: Server;
let base: string;
const routes = new Map<string, Buffer | { location: string }>();
const asked: string[] = [];
const NEXT = '99.0.0';
const PLATFORM = `linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;

/** An archive whose checkin is a shell script printing `says` (and exiting `code`). */
function archiveOf(says: string, code = 0): Buffer {
  const dir = tempDir('checkin-upgrade-archive-');
  mkdirSync(join(dir, 'x'));
  writeFileSync(join(dir, 'x', 'checkin'), `#!/bin/sh\necho ${says}\nexit ${code}\n`, { mode: 0o755 });
  execFileSync('tar', ['czf', join(dir, 'a.tar.gz'), '-C', join(dir, 'x'), 'checkin']);
  return readFileSync(join(dir, 'a.tar.gz'));
}
/** A release folder `/<folder>/` with SHA256SUMS listing `archive` (or `listed`, for a mismatch). */
function release(folder: string, archive: Buffer, listed: Buffer = archive) {
  const name = `checkin-${NEXT}-${PLATFORM}.tar.gz`;
  routes.set(`/${folder}/${name}`, archive);
  routes.set(`/${folder}/SHA256SUMS`, Buffer.from(`${createHash('sha256').update(listed).digest('hex')}  ${name}\n${'c'.repeat(64)}  checkin.rb\n`));
}

beforeAll(async () => {
  release('good', archiveOf(NEXT));
  release('mismatch', archiveOf(NEXT), archiveOf('something else'));
  release('broken', archiveOf('segfault', 1));
  release('liar', archiveOf('1.2.3'));
  routes.set('/away/SHA256SUMS', { location: 'http://elsewhere.invalid/SHA256SUMS' });
  routes.set('/hop/SHA256SUMS', { location: '/good/SHA256SUMS' });
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const r = routes.get(req.url ?? '');
    if (r === undefined) res.writeHead(404).end('not found');
    else if (Buffer.isBuffer(r)) res.writeHead(200).end(r);
    else res.writeHead(302, { location: r.location }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** A stand-in for the installed binary: a script printing this version, in a folder of its own. */
function installed(): { target: string; bytes: Buffer } {
  const dir = tempDir('checkin-upgrade-bin-');
  const target = join(dir, 'checkin');
  writeFileSync(target, `#!/bin/sh\necho ${VERSION}\n`);
  chmodSync(target, 0o755);
  return { target, bytes: readFileSync(target) };
}

describe('upgrading the install.sh binary', () => {
  it('downloads the listed archive, checks it, swaps it in and runs it; nothing is left beside it', async () => {
    const { target } = installed();
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/good/` });
    expect(latest.version).toBe(NEXT);
    const done = await upgradeBinary({ target, latest, platform: PLATFORM });
    expect(done).toEqual({ from: VERSION, to: NEXT, target, archive: `${base}/good/checkin-${NEXT}-${PLATFORM}.tar.gz` });
    expect(execFileSync(target, { encoding: 'utf8' })).toBe(`${NEXT}\n`);
    expect(readdirSync(join(target, '..'))).toEqual(['checkin']);
  });

  it('refuses an archive whose SHA-256 is not the listed one, and changes nothing', async () => {
    const { target, bytes } = installed();
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/mismatch` });
    await expect(upgradeBinary({ target, latest, platform: PLATFORM })).rejects.toThrow(
      /is not the file the release lists: its SHA-256 is [0-9a-f]{64}, SHA256SUMS says [0-9a-f]{64}\. Nothing was changed\./,
    );
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(readdirSync(join(target, '..'))).toEqual(['checkin']);
  });

  it.each([
    ['broken', /did not run: failed/],
    ['liar', /says it is "1\.2\.3", not 99\.0\.0/],
  ])('puts the old binary back when the new one (%s) does not run as the release says', async (folder, said) => {
    const { target, bytes } = installed();
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/${folder}` });
    const err = await upgradeBinary({ target, latest, platform: PLATFORM }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(said);
    expect((err as Error).message).toContain(`The old one (${VERSION}) is back in ${target}.`);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(execFileSync(target, { encoding: 'utf8' })).toBe(`${VERSION}\n`);
    expect(readdirSync(join(target, '..'))).toEqual(['checkin']);
  });

  it('refuses a redirect from this machine to another host, follows one within it', async () => {
    const before = asked.length;
    await expect(latestRelease({ CHECKIN_RELEASE_URL: `${base}/away` })).rejects.toThrow(
      `Refused a redirect from ${base}/away/SHA256SUMS to http://elsewhere.invalid/SHA256SUMS`,
    );
    expect(asked.slice(before)).toEqual(['/away/SHA256SUMS']);
    expect((await latestRelease({ CHECKIN_RELEASE_URL: `${base}/hop` })).version).toBe(NEXT);
  });

  it('refuses plain http to anywhere but this machine, before any request', async () => {
    await expect(latestRelease({ CHECKIN_RELEASE_URL: 'http://releases.example.com/checkin' })).rejects.toThrow(
      'CHECKIN_RELEASE_URL must be https:// (or http:// to this machine): http://releases.example.com/checkin',
    );
    await expect(download('ftp://127.0.0.1/x', { maxBytes: 10, timeoutMs: 1000 })).rejects.toThrow(/must be https/);
  });
});

describe.skipIf(BINARY !== undefined)('checkin upgrade from a clone (npm build)', () => {
  it('says how it runs, the newest release, and the command; changes nothing', async () => {
    const r = await runCli(['upgrade'], { env: cleanEnv({ CHECKIN_RELEASE_URL: `${base}/good` }) });
    expect(r).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `checkin ${VERSION}, run from a clone of its repository.\ncheckin ${NEXT} is out (${base}/good).\nTo upgrade: git pull && npm ci (in the clone checkin runs from)\n`,
    });
  });

  it('still says the command when the release cannot be read', async () => {
    const r = await runCli(['upgrade', '--check'], { env: cleanEnv({ CHECKIN_RELEASE_URL: `${base}/missing` }) });
    expect(r).toEqual({
      code: 0,
      signal: null,
      stderr: `Could not read the newest version: ${base}/missing/SHA256SUMS answered 404\n`,
      stdout: `checkin ${VERSION}, run from a clone of its repository.\nTo upgrade: git pull && npm ci (in the clone checkin runs from)\n`,
    });
  });

  it('refuses a plain-http release location (exit 2)', async () => {
    const r = await runCli(['upgrade'], { env: cleanEnv({ CHECKIN_RELEASE_URL: 'http://releases.example.com' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CHECKIN_RELEASE_URL must be https:// (or http:// to this machine)');
  });
});
