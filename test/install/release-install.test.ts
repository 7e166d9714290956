// The release's own install scripts, as a new user meets them: the README's install line
// (`curl -fsSL <release>/install.sh | CHECKIN_RELEASE_URL=<release> sh`) run against release/ served
// by a small file server on 127.0.0.1, with a home of its own, then `checkin --version`; a download
// that fails or is cut short fails loudly (non-zero, a line on stderr) and installs nothing. And
// install.ps1 (no PowerShell here): what it downloads, that it checks the zip against SHA256SUMS
// before anything is unpacked, and where it installs, read from its text. Run where the release was
// just built (.ci/run sets CHECKIN_TEST_RELEASE=1 after `npm run release`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { outcome, ROOT } from '../helpers/cli.js';
import { patient } from '../helpers/patience.js';

const RELEASE = join(ROOT, 'release');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const asked = process.env.CHECKIN_TEST_RELEASE === '1';
const have = asked && existsSync(join(RELEASE, 'SHA256SUMS')) && existsSync(join(RELEASE, 'install.sh'));
const curl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = !asked
  ? 'CHECKIN_TEST_RELEASE=1 is not set (.ci/run sets it after npm run release)'
  : !have
    ? 'no release/SHA256SUMS with install.sh (npm run release makes them)'
    : !curl
      ? 'no curl (the README line is curl … | sh)'
      : undefined;
if (skip) console.log(`release-install: skipped, ${skip}`);

/** The README's install line for Linux, as written (its comment left off). */
const README_LINE = (() => {
  const line = readFileSync(join(ROOT, 'README.md'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('curl ') && l.includes('/install.sh'));
  return line?.replace(/\s+#.*$/, '');
})();

let server: Server;
let base: string;
/** The paths the server was asked for, in order. */
const served: string[] = [];

beforeAll(async () => {
  if (skip) return;
  const published = new Set(readdirSync(RELEASE));
  const script = readFileSync(join(RELEASE, 'install.sh'));
  server = createServer((req, res) => {
    const url = req.url ?? '';
    served.push(url);
    // /cut/install.sh: the script cut off in the middle, as a dropped connection leaves it.
    if (url === '/cut/install.sh') return void res.writeHead(200).end(script.subarray(0, script.length >> 1));
    // /gone/: the script, and nothing else of the release (its SHA256SUMS is not there).
    if (url === '/gone/install.sh') return void res.writeHead(200).end(script);
    const name = url.startsWith('/rel/') ? url.slice('/rel/'.length) : '';
    if (!published.has(name)) return void res.writeHead(404).end('not found');
    res.writeHead(200).end(readFileSync(join(RELEASE, name)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** Runs `line` under sh as a new user would: a home of its own, the ordinary PATH, nothing else. */
async function asNewUser(line: string) {
  const home = tempDir('checkin-new-user-');
  const child = track(
    spawn('sh', ['-c', line], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, TMPDIR: process.env.TMPDIR ?? '/tmp' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  return { ...(await outcome(child, line, 120_000)), home };
}

describe.skipIf(skip !== undefined)("the README's install line against release/ on 127.0.0.1", () => {
  it(
    'installs the binary SHA256SUMS lists into ~/.local/bin, and it runs',
    async () => {
      expect(README_LINE).toBe('curl -fsSL <release>/install.sh | CHECKIN_RELEASE_URL=<release> sh');
      served.length = 0;
      const r = await asNewUser(README_LINE!.replaceAll('<release>', `${base}/rel`));
      const bin = join(r.home, '.local', 'bin');
      expect(r).toMatchObject({
        code: 0,
        stderr: '',
        stdout: `checkin ${version} installed in ${bin}/checkin\n${bin} is not on your PATH: add it to PATH in your shell's profile\n`,
      });
      const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
      expect(served).toEqual(['/rel/install.sh', '/rel/SHA256SUMS', `/rel/checkin-${version}-linux-${arch}.tar.gz`]);
      const again = spawnSync(join(bin, 'checkin'), ['--version'], { env: { PATH: '/usr/bin:/bin', HOME: r.home }, encoding: 'utf8' });
      expect(again).toMatchObject({ status: 0, stdout: `${version}\n` });
    },
    patient(180_000),
  );

  it(
    'a release whose files cannot be downloaded: exit 1, the reason on stderr, nothing installed',
    async () => {
      const r = await asNewUser(README_LINE!.replaceAll('<release>', `${base}/gone`));
      expect(r).toMatchObject({ code: 1, stdout: '' });
      // curl's own line (the 404), then the installer's.
      expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`checkin install: could not download ${base}/gone/SHA256SUMS`);
      expect(existsSync(join(r.home, '.local', 'bin'))).toBe(false);
    },
    patient(60_000),
  );

  it(
    'install.sh cut off mid-way: sh stops at the unfinished function, non-zero, and runs none of it',
    async () => {
      served.length = 0;
      const r = await asNewUser(README_LINE!.replaceAll('<release>', `${base}/cut`));
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toBe('');
      expect(served).toEqual(['/cut/install.sh']);
      expect(existsSync(join(r.home, '.local'))).toBe(false);
    },
    patient(60_000),
  );
});

describe('install.sh and install.ps1 are each one function, called on the last line', () => {
  const sh = readFileSync(join(ROOT, 'scripts', 'install.sh'), 'utf8');
  const ps1 = readFileSync(join(ROOT, 'scripts', 'install.ps1'), 'utf8');

  it('install.sh: set -eu inside main, main "$@" last, nothing run before it', () => {
    const lines = sh.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('main "$@"');
    const body = lines.slice(lines.indexOf('main() {') + 1, lines.lastIndexOf('}'));
    expect(body[0]).toBe('set -eu');
    // Outside main: comments and blank lines only.
    const outside = [...lines.slice(0, lines.indexOf('main() {')), ...lines.slice(lines.lastIndexOf('}') + 1, -1)];
    expect(outside.filter((l) => l.trim() !== '' && !l.startsWith('#'))).toEqual([]);
  });

  it('install.ps1: downloads SHA256SUMS and the win-x64 zip it lists, checks its SHA-256 before unpacking, installs in %LOCALAPPDATA%\\Programs\\checkin', () => {
    const lines = ps1.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Install-Checkin -Url $Url -Version $Version -Dir $Dir');
    // Outside the function: comments, the param block, blank lines.
    const start = lines.indexOf('function Install-Checkin {');
    const end = lines.lastIndexOf('}');
    expect(start).toBeGreaterThan(0);
    const outside = [...lines.slice(0, start), ...lines.slice(end + 1, -1)].filter((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(outside.join('\n')).toBe(
      'param(\n  [string]$Url = $env:CHECKIN_RELEASE_URL,\n  [string]$Version = $env:CHECKIN_VERSION,\n  [string]$Dir = $env:CHECKIN_INSTALL_DIR\n)',
    );
    const body = lines.slice(start + 1, end).join('\n');
    // Braces, brackets and parentheses balanced outside strings and comments; every quote closed.
    const code = body
      .split('\n')
      .filter((l) => !l.trim().startsWith('#'))
      .join('\n')
      .replace(/'[^'\n]*'/g, "''")
      .replace(/"(?:`.|[^"`\n])*"/g, '""');
    expect(code.replace(/''|""/g, '')).not.toMatch(/["']/);
    for (const [open, close] of [
      ['{', '}'],
      ['(', ')'],
      ['[', ']'],
    ] as const)
      expect(code.split(open).length, `${open}${close}`).toBe(code.split(close).length);
    // Errors stop it.
    expect(body).toContain("$ErrorActionPreference = 'Stop'");
    // What it downloads: SHA256SUMS, then the zip it names, both from the release URL.
    const downloads = [...body.matchAll(/Invoke-WebRequest -UseBasicParsing -Uri "([^"]+)" -OutFile \$(\w+)/g)].map((m) => [m[1], m[2]]);
    expect(downloads).toEqual([
      ['$Url/SHA256SUMS', 'sums'],
      ['$Url/$name', 'zip'],
    ]);
    // The zip's name comes from SHA256SUMS by this pattern: the real release's lines match it, for the zip only.
    const pattern = new RegExp(/\$line -match '([^']+)'/.exec(body)![1]!);
    if (existsSync(join(RELEASE, 'SHA256SUMS'))) {
      const matched = readFileSync(join(RELEASE, 'SHA256SUMS'), 'utf8')
        .split('\n')
        .filter((l) => pattern.test(l))
        .map((l) => pattern.exec(l)![2]);
      expect(matched).toEqual([`checkin-${version}-win-x64.zip`]);
    }
    expect(pattern.test(`${'a'.repeat(64)}  checkin-${version}-linux-x64.tar.gz`)).toBe(false);
    // Its SHA-256 is compared with the listed one, and a mismatch throws, before anything is unpacked or copied.
    const hash = body.indexOf('Get-FileHash -LiteralPath $zip -Algorithm SHA256');
    const refuse = body.indexOf('if ($got -ne $want) {');
    const unpack = body.indexOf('Expand-Archive');
    const copy = body.indexOf('Copy-Item');
    expect(hash).toBeGreaterThan(0);
    expect(body.slice(refuse, body.indexOf('}', refuse))).toMatch(/throw ".*Nothing was installed\."/);
    expect([hash < refuse, refuse < unpack, unpack < copy]).toEqual([true, true, true]);
    expect(body).toContain('$want = $listed[$name]');
    // Where: the user's own programs folder, checkin.exe in it; https or this machine only.
    expect(body).toContain("$Dir = Join-Path $env:LOCALAPPDATA 'Programs\\checkin'");
    expect(body).toContain("$target = Join-Path $Dir 'checkin.exe'");
    expect(body).toContain("if ($Url -notmatch '^https://' -and $Url -notmatch '^http://(127\\.0\\.0\\.1|localhost|\\[::1\\])([:/]|$)')");
  });
});
