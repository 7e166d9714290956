// The start-up shim (bin/checkin.js) and Node's compile cache: on Node >= 22.1 the first run
// writes it in the user's cache folder and the next ones use it; a damaged cache never fails a
// run; a cache folder someone else can write (or someone else's) is never used, since a cache
// planted there would run as the user — nor any folder in it Node writes into.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cleanEnv, ROOT, runCli } from '../helpers/cli.js';

// The Node the CLI runs on in these tests: CHECKIN_TEST_NODE, else this one (every Node checkin runs on has a compile cache).
const NODE = process.env.CHECKIN_TEST_NODE || process.execPath;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let sb: Sandbox;
const temps: string[] = [];
function temp(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `checkin-${name}-`));
  temps.push(dir);
  return dir;
}
function envWith(cacheHome: string): NodeJS.ProcessEnv {
  // Not the run's shared cache (cleanEnv's NODE_COMPILE_CACHE): the one bin/checkin.js keeps is under test.
  const env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token, XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: undefined });
  temps.push(env.HOME!);
  return env;
}
/** Node's version, as its compile-cache folders are named (`CHECKIN_TEST_NODE` when set). */
const NODE_VERSION = execFileSync(NODE, ['-p', 'process.version + "-" + process.arch'], { encoding: 'utf8' }).trim();
/** The folder checkin gives Node: `cacheHome`/checkin/node-<version>-<arch>. */
const nodeDir = (cacheHome: string) => join(cacheHome, 'checkin', `node-${NODE_VERSION}`);
/** Every file under `dir`, however deep (links are not followed). */
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isSymbolicLink() ? [] : [join(dir, e.name)],
      )
    : [];
/** The cache files under `cacheHome`/checkin (Node keeps them in a folder named after its version and the user, inside the one checkin gives it). */
function cacheFiles(cacheHome: string): string[] {
  return filesUnder(join(cacheHome, 'checkin'));
}
const contents = (files: string[]) => Object.fromEntries(files.map((f) => [f, readFileSync(f).toString('base64')]));

beforeAll(async () => {
  sb = await startSandbox({ rateLimit: false });
});
afterAll(async () => {
  await sb?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("Node's compile cache, through bin/checkin.js", () => {
  it('is written by the first run in a 0700 folder of the user’s, and used as it is by the next', async () => {
    const cache = temp('cache');
    const env = envWith(cache);
    // Under umask 002 (a group-writable default), as some systems have it.
    const umask = process.umask(0o002);
    const first = await runCli(['today', '--json'], { env, node: NODE }).finally(() => process.umask(umask));
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout)).toMatchObject({ type: 'check-in' });
    expect((statSync(join(cache, 'checkin')).mode & 0o777).toString(8)).toBe('700');
    // The folder checkin gives this Node, and the one Node makes in it: both 0700, whatever the umask.
    const tags = readdirSync(nodeDir(cache));
    expect(tags).toEqual([expect.stringMatching(new RegExp(`^${NODE_VERSION.replace(/\./g, '\\.')}-[0-9a-f]{8}-\\d+$`))]);
    for (const d of [nodeDir(cache), join(nodeDir(cache), tags[0]!)]) expect((statSync(d).mode & 0o777).toString(8), d).toBe('700');
    const files = cacheFiles(cache);
    expect(files).toHaveLength(1); // dist/checkin.cjs: all this command loads after the shim
    const written = contents(files);

    const second = await runCli(['today', '--json'], { env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, node: NODE });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // Node's own account: the bundle's cache was read and V8 took it; none was refused.
    expect(second.stderr).toMatch(/cache for (CommonJS )?\S*\/dist\/checkin\.cjs was accepted/);
    expect(second.stderr).not.toMatch(/rejected|mismatch/);
    expect(contents(cacheFiles(cache))).toEqual(written);
  });

  it('a cache with flipped bits or cut short never fails a run, and is written anew', async () => {
    const cache = temp('cache');
    const env = envWith(cache);
    const first = await runCli(['today', '--json'], { env, node: NODE });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const damages = {
      // A bit in each KiB of the compiled code (the header, the first 24 bytes, is left alone).
      'flipped bits': (b: Buffer) => {
        for (let i = 24; i < b.length; i += 1024) b[i]! ^= 0x10;
        return b;
      },
      'cut short': (b: Buffer) => b.subarray(0, Math.floor(b.length / 2)),
    };
    for (const [name, damage] of Object.entries(damages)) {
      for (const f of cacheFiles(cache)) writeFileSync(f, damage(readFileSync(f)));
      const damaged = contents(cacheFiles(cache));
      const r = await runCli(['today', '--json'], { env, node: NODE });
      expect(r, name).toEqual({ code: 0, signal: null, stdout: first.stdout, stderr: '' });
      const now = contents(cacheFiles(cache));
      for (const f of Object.keys(damaged)) expect(now[f], `${name}: ${f} written anew`).not.toBe(damaged[f]);
    }
    // And the next run takes what that run wrote.
    const next = await runCli(['today', '--json'], { env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, node: NODE });
    expect(next.stdout).toBe(first.stdout);
    expect(next.stderr).toMatch(/cache for (CommonJS )?\S*\/dist\/checkin\.cjs was accepted/);
  });

  it('a cache folder others can write, or another user’s, is not used: a cache planted there never runs', async () => {
    // An installed copy, and a bundle of the same length whose top level says "planted" (a top
    // level is what Node's cache holds: functions are compiled from the source when first called).
    const pkg = temp('pkg');
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    const bin = join(pkg, 'bin', 'checkin.js');
    const main = join(pkg, 'dist', 'checkin.cjs');
    const real = readFileSync(main, 'utf8');
    const banner = 'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;';
    expect(real.startsWith(banner)).toBe(true);
    const plant = 'const __importMetaUrl = (process.stdout.write("planted\\n"), "");';
    const fake = plant.padEnd(banner.length, ' ') + real.slice(banner.length);
    expect(fake).toHaveLength(real.length);
    const cache = temp('cache');
    const env = envWith(cache);
    writeFileSync(main, fake);
    expect(await runCli(['--version'], { env, node: NODE, bin })).toMatchObject({ code: 0, stdout: `planted\n${VERSION}\n` });
    writeFileSync(main, real);
    // The fake bundle's cache, its header's source hash (a CRC-32) made the real one's: what anyone
    // who can write the folder could leave there.
    let planted = 0;
    for (const f of cacheFiles(cache)) {
      const b = readFileSync(f);
      for (let i = 0; i < 24; i += 4) {
        if (b.readUInt32LE(i) !== crc32(Buffer.from(fake))) continue;
        b.writeUInt32LE(crc32(Buffer.from(real)), i);
        writeFileSync(f, b);
        planted++;
      }
    }
    expect(planted).toBe(1);
    // Node trusts its cache folder (V8 checks only the source's length): in the user's own, the
    // planted cache would run. This is why the folder must be the user's alone.
    expect(await runCli(['--version'], { env, node: NODE, bin })).toMatchObject({ code: 0, stdout: `planted\n${VERSION}\n` });

    const dir = join(cache, 'checkin');
    const before = contents(cacheFiles(cache));
    const cases: Array<[string, () => void]> = [
      ['writable by all (0777)', () => chmodSync(dir, 0o777)],
      ['writable by the group (0770)', () => chmodSync(dir, 0o770)],
    ];
    // Another user's folder (0700): only root can make one.
    if (process.getuid?.() === 0) cases.push(['another user’s', () => (chmodSync(dir, 0o700), chownSync(dir, 4242, 4242))]);
    for (const [name, make] of cases) {
      make();
      // One run: the planted top level would print before the answer (it runs whatever the command).
      const today = await runCli(['today', '--json'], { env, node: NODE, bin });
      expect(today, name).toMatchObject({ code: 0, signal: null, stderr: '' });
      expect(JSON.parse(today.stdout)).toMatchObject({ type: 'check-in' });
      expect(contents(cacheFiles(cache)), `${name}: nothing written there`).toEqual(before);
    }
  });

  /** Each case makes its folders in a fresh cache home; the runs work, and no cache is written or read anywhere. */
  async function notUsed(cases: Array<[string, (dir: string, tag: string) => void]>): Promise<void> {
    // The name Node gives its own folder (v24.21.0-x64-<hash>-<uid>), from a run of its own.
    const reference = temp('cache');
    expect(await runCli(['--version'], { env: envWith(reference), node: NODE })).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const [tag] = readdirSync(nodeDir(reference));
    expect(tag).toMatch(/^v\d/);
    for (const [name, make] of cases) {
      const cache = temp('cache');
      mkdirSync(join(cache, 'checkin'), { mode: 0o700 });
      make(nodeDir(cache), tag!);
      // One run that works, with no "[compile cache]" line from Node: not enabled.
      const today = await runCli(['today', '--json'], { env: { ...envWith(cache), NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, node: NODE });
      expect(today, name).toMatchObject({ code: 0, signal: null, stderr: '' });
      expect(JSON.parse(today.stdout)).toMatchObject({ type: 'check-in' });
      expect(cacheFiles(cache), `${name}: nothing written there`).toEqual([]);
    }
  }

  it('a folder Node would write into that others can write or enter, or a link, is not used', async () => {
    const elsewhere = temp('elsewhere');
    await notUsed([
      ['checkin’s folder for this Node writable by all (0777)', (dir) => (mkdirSync(dir), chmodSync(dir, 0o777))],
      ['checkin’s folder for this Node open to others (0755)', (dir) => (mkdirSync(dir), chmodSync(dir, 0o755))],
      ['checkin’s folder for this Node a link to a folder of the user’s', (dir) => symlinkSync(elsewhere, dir)],
      ['Node’s folder writable by all (0777)', (dir, tag) => (mkdirSync(join(dir, tag), { recursive: true, mode: 0o700 }), chmodSync(join(dir, tag), 0o777))],
      [
        'Node’s folder writable by the group (0770)',
        (dir, tag) => (mkdirSync(join(dir, tag), { recursive: true, mode: 0o700 }), chmodSync(join(dir, tag), 0o770)),
      ],
      ['Node’s folder a link to a folder of the user’s', (dir, tag) => (mkdirSync(dir, { mode: 0o700 }), symlinkSync(elsewhere, join(dir, tag)))],
    ]);
    expect(filesUnder(elsewhere), 'nothing written through the links').toEqual([]);
  });

  it('a folder Node would write into that is another user’s is not used', async (ctx) => {
    // Only root can give a folder to another user (CI's ordinary-user run skips this; its root runs try it).
    ctx.skip(process.getuid?.() !== 0, 'needs root: only root can make a folder owned by another user (uid 65534)');
    await notUsed([
      ['checkin’s folder for this Node another user’s (0700)', (dir) => (mkdirSync(dir, { mode: 0o700 }), chownSync(dir, 65534, 65534))],
      [
        'Node’s folder another user’s (0755)',
        (dir, tag) => (mkdirSync(join(dir, tag), { recursive: true, mode: 0o755 }), chownSync(join(dir, tag), 65534, 65534)),
      ],
      [
        'Node’s folder another user’s and writable by all (0777)',
        (dir, tag) => (mkdirSync(join(dir, tag), { recursive: true, mode: 0o700 }), chmodSync(join(dir, tag), 0o777), chownSync(join(dir, tag), 65534, 65534)),
      ],
    ]);
  });

  it('a cache folder that cannot be made, or a relative XDG_CACHE_HOME, costs only the cache', async () => {
    const cache = temp('cache');
    writeFileSync(join(cache, 'checkin'), 'a file where the folder would be');
    const r = await runCli(['--version'], { env: envWith(cache), node: NODE });
    expect(r).toEqual({ code: 0, signal: null, stdout: `${VERSION}\n`, stderr: '' });
    // A relative XDG_CACHE_HOME is not a place (XDG): ~/.cache, never a folder of wherever checkin runs.
    const cwd = temp('cwd');
    const env: NodeJS.ProcessEnv = { ...envWith(cache), XDG_CACHE_HOME: 'cache-here' };
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(NODE!, [join(ROOT, 'bin', 'checkin.js'), '--version'], { cwd, env, encoding: 'utf8', timeout: 15_000 });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(existsSync(join(cwd, 'cache-here'))).toBe(false);
    expect(cacheFiles(join(env.HOME!, '.cache')).length).toBeGreaterThan(0);
  });
});
