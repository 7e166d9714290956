// scripts/install.sh as a person runs it: a release (the archive and SHA256SUMS that
// `npm run binary -- --release` made in release/, or, after a plain `npm run binary`, the binary
// packed here the same way) served by a file server on 127.0.0.1; a good archive is installed and
// runs, a corrupted one is refused and nothing is installed. The binary is CHECKIN_TEST_BINARY's
// (CI builds it), else build/checkin; without one the tests say they skipped.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { BINARY, outcome, ROOT } from '../helpers/cli.js';
import { patient } from '../helpers/patience.js';

const binary = BINARY ?? join(ROOT, 'build', 'checkin');
const have = existsSync(binary);
if (!have) console.log(`binary-install: skipped, no binary at ${binary} (npm run binary makes it)`);
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
const name = `checkin-${version}-linux-${arch}.tar.gz`;
const INSTALL = join(ROOT, 'scripts', 'install.sh');

let server: Server;
let base: string;
/** The good archive's SHA-256, as SHA256SUMS lists it. */
let sum: string;
/** The paths the server was asked for, in order. */
const asked: string[] = [];
/** What the server serves: path → bytes. */
const files = new Map<string, Buffer>();

beforeAll(async () => {
  if (!have) return;
  // The release scripts/binary.mjs made, when it holds this binary; else packed as it packs it.
  const made = join(ROOT, 'release', name);
  const sums = join(ROOT, 'release', 'SHA256SUMS');
  let archive: Buffer;
  if (existsSync(made) && existsSync(sums) && binary === join(ROOT, 'build', 'checkin')) {
    archive = readFileSync(made);
    sum = createHash('sha256').update(archive).digest('hex');
    // The checksum file binary.mjs wrote says the same.
    expect(readFileSync(sums, 'utf8')).toContain(`${sum}  ${name}\n`);
  } else {
    const stage = tempDir('checkin-release-');
    mkdirSync(join(stage, 'x'));
    copyFileSync(binary, join(stage, 'x', 'checkin'));
    execFileSync('tar', ['czf', join(stage, name), '-C', join(stage, 'x'), 'checkin']);
    archive = readFileSync(join(stage, name));
    sum = createHash('sha256').update(archive).digest('hex');
  }
  files.set(`/good/${name}`, archive);
  files.set('/good/SHA256SUMS', Buffer.from(`${sum}  ${name}\n`));
  // The same archive with one byte changed past gzip's header, under the same SHA256SUMS.
  const bad = Buffer.from(archive);
  const at = bad.length >> 1;
  bad[at] = bad[at]! ^ 0x01;
  files.set(`/bad/${name}`, bad);
  files.set('/bad/SHA256SUMS', Buffer.from(`${sum}  ${name}\n`));
  files.set(`/nosums/${name}`, archive);
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    // /away/…: redirected off this machine, over plain http.
    if (req.url?.startsWith('/away/')) return void res.writeHead(302, { location: `http://elsewhere.invalid${req.url}` }).end();
    const body = files.get(req.url ?? '');
    res.writeHead(body ? 200 : 404).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, patient(60_000));

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** Runs the installer with `args` under `sh` (bounded), HOME a temp folder. */
async function install(args: string[], env: Record<string, string> = {}) {
  const home = tempDir('checkin-install-home-');
  const child = track(
    spawn('sh', [INSTALL, ...args], {
      env: { PATH: process.env.PATH, HOME: home, TMPDIR: process.env.TMPDIR ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  return { ...(await outcome(child, `install.sh ${args.join(' ')}`, 60_000)), home };
}

describe.skipIf(!have)('scripts/install.sh against a release on 127.0.0.1', () => {
  it(
    'installs a good archive into ~/.local/bin (CHECKIN_RELEASE_URL), checked, and the installed checkin runs',
    async () => {
      asked.length = 0;
      const r = await install([], { CHECKIN_RELEASE_URL: `${base}/good/` });
      const installed = join(r.home, '.local', 'bin', 'checkin');
      expect(r).toMatchObject({
        code: 0,
        stderr: '',
        stdout: `checkin ${version} installed in ${installed}\n${join(r.home, '.local', 'bin')} is not on your PATH: add it to PATH in your shell's profile\n`,
      });
      expect(asked).toEqual(['/good/SHA256SUMS', `/good/${name}`]);
      expect(execFileSync(installed, ['--version'], { env: { PATH: '/usr/bin:/bin', HOME: r.home }, encoding: 'utf8' })).toBe(`${version}\n`);
      // What it installed is byte for byte the binary in the archive.
      expect(readFileSync(installed).equals(readFileSync(binary))).toBe(true);
    },
    patient(90_000),
  );

  it(
    'installs into the folder given (--url, --version, --dir)',
    async () => {
      const dir = join(tempDir('checkin-install-dir-'), 'my bin');
      const r = await install(['--url', `${base}/good`, '--version', version, '--dir', dir], { PATH: `${dir}:${process.env.PATH}` });
      expect(r).toMatchObject({ code: 0, stderr: '', stdout: `checkin ${version} installed in ${dir}/checkin\n` });
    },
    patient(90_000),
  );

  it(
    'refuses a corrupted archive: a clear line, exit 1, nothing installed',
    async () => {
      const r = await install([], { CHECKIN_RELEASE_URL: `${base}/bad` });
      const bad = createHash('sha256')
        .update(files.get(`/bad/${name}`)!)
        .digest('hex');
      expect(r).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `checkin install: ${name} is not the file the release lists: its SHA-256 is ${bad}, SHA256SUMS says ${sum}. Nothing was installed.\n`,
      });
      expect(existsSync(join(r.home, '.local', 'bin', 'checkin'))).toBe(false);
    },
    patient(90_000),
  );

  it(
    'refuses without a checksum file, and without a URL',
    async () => {
      // curl says why first (its own line: "curl: (22) … 404"), then the installer.
      const none = await install(['--url', `${base}/nosums`]);
      expect(none).toMatchObject({ code: 1, stdout: '' });
      expect(none.stderr.trimEnd().split('\n').at(-1)).toBe(`checkin install: could not download ${base}/nosums/SHA256SUMS`);
      expect(existsSync(join(none.home, '.local', 'bin', 'checkin'))).toBe(false);
      expect(await install([])).toMatchObject({
        code: 1,
        stdout: '',
        stderr: 'checkin install: no release URL: pass --url <base> or set CHECKIN_RELEASE_URL\n',
      });
    },
    patient(90_000),
  );
});

describe('scripts/install.sh refuses before it downloads anything', () => {
  it('a release URL that is plain http to another host, a name in SHA256SUMS that is not a file name, no HOME', async () => {
    // The checksum comes from the same place as the archive: only https (or this machine) keeps both honest.
    const http = await install(['--url', 'http://releases.example.com/checkin']);
    expect(http).toMatchObject({
      code: 1,
      stdout: '',
      stderr: "checkin install: the release URL must be https:// (or this machine's http://127.0.0.1): http://releases.example.com/checkin\n",
    });
    const child = track(
      spawn('sh', [INSTALL, '--url', 'https://releases.example.com'], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    expect(await outcome(child, 'install.sh without HOME')).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'checkin install: no folder to install into: HOME is not set; pass --dir\n',
    });
  });

  it.skipIf(!have)('a redirect from this machine to another host over plain http: not followed, nothing installed', async () => {
    const before = asked.length;
    const r = await install(['--url', `${base}/away`]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    // curl's own line first ("curl: (47) Maximum (0) redirects followed"), then the installer's.
    expect(r.stderr).toMatch(
      new RegExp(`^curl: \\(47\\) Maximum \\(0\\) redirects followed\\ncheckin install: could not download ${base.replace(/\./g, '\\.')}/away/SHA256SUMS\\n$`),
    );
    expect(asked.slice(before)).toEqual(['/away/SHA256SUMS']);
    expect(existsSync(join(r.home, '.local', 'bin', 'checkin'))).toBe(false);
  });

  it.skipIf(!have)('a SHA256SUMS whose archive name could be a path or an option', async () => {
    files.set('/odd/SHA256SUMS', Buffer.from(`${'0'.repeat(64)}  checkin-1/../../x-linux-${arch}.tar.gz\n`));
    const r = await install(['--url', `${base}/odd`, '--version', `1/../../x`]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`checkin install: ${base}/odd/SHA256SUMS names an archive that is not a plain file name: checkin-1/../../x-linux-${arch}.tar.gz\n`);
  });
});
