// checkin upgrade: the install kind read from where checkin runs, the line each kind is told, and the
// install.sh binary's own upgrade (src/domain/upgrade.ts) against a release served on 127.0.0.1 —
// a good one swapped in, a checksum mismatch refused, a new binary that does not run rolled back, a
// redirect off this machine refused, plain http elsewhere refused. The real single binary upgrading
// itself is test/install/binary-upgrade.test.ts.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
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
  upgradeFiles,
  type Where,
} from '../../src/domain/upgrade.js';
import { tempDir, track } from '../helpers/cleanup.js';
import { BINARY, cleanEnv, runCli } from '../helpers/cli.js';
import { startTlsProxy } from '../helpers/proxy.js';

/** A port on this machine that was free a moment ago (nothing listens on it). */
async function freePort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

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
    // winget's portable install (per user, its link, per machine): where winget puts a portable package.
    [
      {
        build: 'binary',
        platform: 'win32',
        execPath: 'C:\\Users\\a\\AppData\\Local\\Microsoft\\WinGet\\Packages\\CheckinCli.Checkin_Microsoft.Winget.Source_8wekyb3d8bbwe\\checkin.exe',
      },
      'winget',
    ],
    [{ build: 'binary', platform: 'win32', execPath: 'C:\\Users\\a\\AppData\\Local\\Microsoft\\WinGet\\Links\\checkin.exe' }, 'winget'],
    [
      {
        build: 'binary',
        platform: 'win32',
        execPath: 'C:\\Program Files\\WinGet\\Packages\\CheckinCli.Checkin_Microsoft.Winget.Source_8wekyb3d8bbwe\\checkin.exe',
      },
      'winget',
    ],
    [{ build: 'binary', platform: 'win32', execPath: 'C:\\tools\\checkin.exe' }, 'windows-binary'],
    [{ build: 'binary', platform: 'win32', execPath: 'C:\\tools\\winget\\checkin.exe' }, 'windows-binary'],
  ] as Array<[Partial<Where>, string]>)('%o is %s', (w, kind) => {
    expect(installKind(where(w))).toBe(kind);
  });

  it('tells each kind its own command, and none for the install.sh binary', () => {
    expect(upgradeCommand('npm-global', '0.2.0', 'linux-x64')).toBe('npm install -g checkin-cli@latest');
    expect(upgradeCommand('npx', '0.2.0', 'linux-x64')).toMatch(/^npx checkin-cli@latest/);
    expect(upgradeCommand('homebrew', '0.2.0', undefined)).toBe('brew upgrade checkin');
    expect(upgradeCommand('scoop', '0.2.0', 'win-x64')).toBe('scoop update checkin');
    // The identifier the release's winget manifests carry (test/install/winget.test.ts reads them).
    expect(upgradeCommand('winget', '0.2.0', 'win-x64')).toBe('winget upgrade CheckinCli.Checkin');
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
/** Answers made as they are sent (a large body, never held by the test either). */
const streamed = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
/** Sends `total` zero bytes in 64 KiB writes, with Content-Length or chunked; stops when the client goes. */
function zeros(total: number, withLength: boolean) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, withLength ? { 'content-length': String(total) } : {});
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const more = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('close', () => (sent = total));
    more();
  };
}
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
  const bigName = `checkin-${NEXT}-${PLATFORM}.tar.gz`;
  routes.set('/big/SHA256SUMS', Buffer.from(`${'d'.repeat(64)}  ${bigName}\n`));
  routes.set('/chunked/SHA256SUMS', Buffer.from(`${'d'.repeat(64)}  ${bigName}\n`));
  streamed.set(`/big/${bigName}`, zeros(600 * 2 ** 20, true));
  streamed.set(`/chunked/${bigName}`, zeros(600 * 2 ** 20, false));
  routes.set('/away/SHA256SUMS', { location: 'http://elsewhere.invalid/SHA256SUMS' });
  routes.set('/hop/SHA256SUMS', { location: '/good/SHA256SUMS' });
  routes.set('/same/SHA256SUMS', Buffer.from(`${'e'.repeat(64)}  checkin-${VERSION}-${PLATFORM}.tar.gz\n`));
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const big = streamed.get(req.url ?? '');
    if (big) return big(req, res);
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
    const done = await upgradeBinary({ target, latest, platform: PLATFORM, env: {} });
    expect(done).toEqual({ from: VERSION, to: NEXT, target, archive: `${base}/good/checkin-${NEXT}-${PLATFORM}.tar.gz` });
    expect(execFileSync(target, { encoding: 'utf8' })).toBe(`${NEXT}\n`);
    expect(readdirSync(join(target, '..'))).toEqual(['checkin']);
  });

  it('refuses an archive whose SHA-256 is not the listed one, and changes nothing', async () => {
    const { target, bytes } = installed();
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/mismatch` });
    await expect(upgradeBinary({ target, latest, platform: PLATFORM, env: {} })).rejects.toThrow(
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
    const err = await upgradeBinary({ target, latest, platform: PLATFORM, env: {} }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(said);
    expect((err as Error).message).toContain(`Nothing was changed: checkin ${VERSION} is still in ${target}.`);
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

  it('says it is up to date when it is, and nothing else', async () => {
    for (const args of [['upgrade'], ['upgrade', '--check']]) {
      const r = await runCli(args, { env: cleanEnv({ CHECKIN_RELEASE_URL: `${base}/same` }) });
      expect(r).toEqual({ code: 0, signal: null, stderr: '', stdout: `checkin ${VERSION} is up to date (the newest release at ${base}/same).\n` });
    }
  });

  it('still says the command when the release cannot be read, then the error in the words every command uses (exit 1)', async () => {
    const clone = `checkin ${VERSION}, run from a clone of its repository.\nTo upgrade: git pull && npm ci (in the clone checkin runs from)\n`;
    const missing = await runCli(['upgrade', '--check'], { env: cleanEnv({ CHECKIN_RELEASE_URL: `${base}/missing` }) });
    expect(missing).toEqual({ code: 1, signal: null, stderr: `error: GET ${base}/missing/SHA256SUMS: 404 Not Found\n`, stdout: clone });
    // A port on this machine where nothing listens: said at once, as a command against a stopped sandbox says it.
    const closed = await freePort();
    const refused = await runCli(['upgrade'], { env: cleanEnv({ CHECKIN_RELEASE_URL: `http://127.0.0.1:${closed}` }) });
    expect(refused).toEqual({
      code: 1,
      signal: null,
      stderr: `error: GET http://127.0.0.1:${closed}/SHA256SUMS: nothing is listening at http://127.0.0.1:${closed}\nCheck CHECKIN_RELEASE_URL: nothing serves the release there.\n`,
      stdout: clone,
    });
    // The proxy it must go through refuses: said as the API client says it.
    const noProxy = await runCli(['upgrade'], {
      env: cleanEnv({ CHECKIN_RELEASE_URL: 'https://releases.checkin.invalid/latest', HTTPS_PROXY: `http://127.0.0.1:${closed}` }),
    });
    expect(noProxy).toEqual({
      code: 1,
      signal: null,
      stderr: `error: GET https://releases.checkin.invalid/latest/SHA256SUMS: cannot reach the proxy 127.0.0.1:${closed} (connection refused) on the way to releases.checkin.invalid\nCheck HTTPS_PROXY / HTTP_PROXY (or leave this host out with NO_PROXY).\n`,
      stdout: clone,
    });
  });

  it('reads the release on https through HTTPS_PROXY, in a CONNECT tunnel', async () => {
    const proxy = await startTlsProxy('releases.checkin.test', Number(new URL(base).port));
    try {
      const env = cleanEnv({ CHECKIN_RELEASE_URL: 'https://releases.checkin.test/good', HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: proxy.caFile });
      const r = await runCli(['upgrade', '--check'], { env });
      expect(r).toEqual({
        code: 0,
        signal: null,
        stderr: '',
        stdout: `checkin ${VERSION}, run from a clone of its repository.\ncheckin ${NEXT} is out (https://releases.checkin.test/good).\nTo upgrade: git pull && npm ci (in the clone checkin runs from)\n`,
      });
      expect(proxy.tunnels).toEqual(['CONNECT releases.checkin.test:443']);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a plain-http release location (exit 2)', async () => {
    const r = await runCli(['upgrade'], { env: cleanEnv({ CHECKIN_RELEASE_URL: 'http://releases.example.com' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CHECKIN_RELEASE_URL must be https:// (or http:// to this machine)');
  });
});

/** A pid no process has now: a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = track(spawn('true'));
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('an upgrade is one verified rename, under a lock', () => {
  it('puts back what a 0.1.0 upgrade stopped during the check left, removes dead work folders and a dead lock, then upgrades', async () => {
    const { target } = installed();
    const dir = join(target, '..');
    const files = upgradeFiles(target);
    // 0.1.0 stopped with its new binary in place and the old one under a second name.
    const dead = await deadPid();
    const old = join(dir, `.checkin.old.${dead}`);
    writeFileSync(old, `#!/bin/sh\necho ${VERSION}\n`, { mode: 0o755 });
    writeFileSync(target, '#!/bin/sh\nexit 139\n');
    mkdirSync(join(dir, '.checkin-upgrade-Xy12ab'));
    writeFileSync(join(dir, '.checkin-upgrade-Xy12ab', 'checkin'), 'half');
    mkdirSync(files.work(dead));
    writeFileSync(`${files.lock}.stale.${dead}`, '');
    writeFileSync(files.lock, `${JSON.stringify({ pid: dead, ns: readlinkNs(), token: 'x' })}\n`);
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/broken` });
    const tidied: unknown[] = [];
    const err = await upgradeBinary({ target, latest, platform: PLATFORM, env: {}, onTidied: (t) => tidied.push(t) }).catch((e: Error) => e);
    expect((err as Error).message).toContain(`Nothing was changed: checkin ${VERSION} is still in ${target}.`);
    expect(tidied).toEqual([
      {
        removed: expect.arrayContaining([`.checkin.old.${dead}`, '.checkin-upgrade-Xy12ab', `.checkin-upgrade-${dead}`, `.checkin.upgrade.lock.stale.${dead}`]),
        restored: true,
      },
    ]);
    expect(execFileSync(target, { encoding: 'utf8' })).toBe(`${VERSION}\n`);
    expect(readdirSync(dir)).toEqual(['checkin']);
  });

  it('leaves a 0.1.0 leftover that is the file in place (or the one running) as it is, and removes the second name', async () => {
    const { target, bytes } = installed();
    const dir = join(target, '..');
    linkSync(target, join(dir, `.checkin.old.${await deadPid()}`));
    // Another file, but the target is the program running this upgrade (here: a second link to it).
    writeFileSync(join(dir, `.checkin.old.${await deadPid()}`), '#!/bin/sh\necho 0.0.1\n', { mode: 0o755 });
    const running = join(tempDir('checkin-upgrade-run-'), 'checkin');
    linkSync(target, running);
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/mismatch` });
    await expect(upgradeBinary({ target, latest, platform: PLATFORM, env: {}, running })).rejects.toThrow(/is not the file the release lists/);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(readdirSync(dir)).toEqual(['checkin']);
  });

  it('refuses while another live upgrade holds the lock, and changes nothing; takes over a lock whose lease ran out', async () => {
    const { target, bytes } = installed();
    const files = upgradeFiles(target);
    const holder = track(spawn('sleep', ['30']));
    writeFileSync(files.lock, `${JSON.stringify({ pid: holder.pid, ns: readlinkNs(), token: 'theirs' })}\n`);
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/good` });
    await expect(upgradeBinary({ target, latest, platform: PLATFORM, env: {} })).rejects.toThrow(
      `Another checkin upgrade (pid ${holder.pid}) is replacing ${target} now: nothing was changed by this one`,
    );
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(readdirSync(join(target, '..')).sort()).toEqual(['.checkin.upgrade.lock', 'checkin']);
    // The same holder, silent for longer than the lease (stopped, or in another pid namespace): taken over.
    const long = new Date(Date.now() - 10 * 60_000);
    utimesSync(files.lock, long, long);
    await upgradeBinary({ target, latest, platform: PLATFORM, env: {} });
    expect(execFileSync(target, { encoding: 'utf8' })).toBe(`${NEXT}\n`);
    expect(readdirSync(join(target, '..'))).toEqual(['checkin']);
    holder.kill('SIGKILL');
  });

  it.each([
    ['big', 'says its length (600 MiB): refused before a byte is written'],
    ['chunked', 'does not say its length: refused at the bound, as it comes'],
  ])('refuses an archive larger than the bound when the server %s; nothing is left (peak memory: test/install/binary-upgrade)', async (folder) => {
    const { target, bytes } = installed();
    const latest = await latestRelease({ CHECKIN_RELEASE_URL: `${base}/${folder}` });
    await expect(upgradeBinary({ target, latest, platform: PLATFORM, env: {}, maxArchiveBytes: 8 * 2 ** 20 })).rejects.toThrow(
      `${base}/${folder}/checkin-${NEXT}-${PLATFORM}.tar.gz is larger than checkin accepts (${folder === 'big' ? '600 MiB, ' : ''}at most 8 MiB): nothing was changed`,
    );
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(readdirSync(join(target, '..'))).toEqual(['checkin']);
  });

  it('asks through HTTPS_PROXY as every request does (the release on https behind a proxy)', async () => {
    const seen: string[] = [];
    const proxy = createTcpServer((socket) => {
      socket.once('data', (d) => {
        seen.push(d.toString('latin1').split('\r\n')[0]!);
        socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      await expect(
        latestRelease({ CHECKIN_RELEASE_URL: 'https://releases.checkin.invalid/latest', HTTPS_PROXY: `http://127.0.0.1:${port}` }, { timeoutMs: 10_000 }),
      ).rejects.toThrow(
        `GET https://releases.checkin.invalid/latest/SHA256SUMS: the proxy 127.0.0.1:${port} answered 403 to CONNECT releases.checkin.invalid:443`,
      );
      expect(seen).toEqual(['CONNECT releases.checkin.invalid:443 HTTP/1.1']);
      // The archive too: every request an upgrade sends goes through api/transport.ts, the proxy honoured.
      const { target, bytes } = installed();
      const name = `checkin-${NEXT}-${PLATFORM}.tar.gz`;
      const latest = { base: 'https://releases.checkin.invalid/latest', version: NEXT, sums: new Map([[name, 'f'.repeat(64)]]) };
      await expect(upgradeBinary({ target, latest, platform: PLATFORM, env: { HTTPS_PROXY: `http://127.0.0.1:${port}` }, timeoutMs: 10_000 })).rejects.toThrow(
        `GET https://releases.checkin.invalid/latest/${name}: the proxy 127.0.0.1:${port} answered 403 to CONNECT releases.checkin.invalid:443`,
      );
      expect(seen).toEqual(['CONNECT releases.checkin.invalid:443 HTTP/1.1', 'CONNECT releases.checkin.invalid:443 HTTP/1.1']);
      expect(readFileSync(target).equals(bytes)).toBe(true);
      expect(readdirSync(join(target, '..'))).toEqual(['checkin']);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

function readlinkNs(): string {
  try {
    return execFileSync('readlink', ['/proc/self/ns/pid'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}
