// The built binary's code cache (bin/checkin.js): made by the first run of a build, used as it is
// by the next, and never a reason for a run to fail — damaged, foreign or unwritable.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';
import { cleanEnv, ROOT, runCli } from './helpers/cli.js';
import { tempDir } from './helpers/cleanup.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
let cacheHome: string;
const cacheDir = () => join(cacheHome, 'checkin');
const build = () => /checkin-build:(\w+)\s*$/.exec(readFileSync(join(ROOT, 'dist', 'checkin.cjs'), 'utf8'))![1];
const cacheName = (name = 'checkin') => `code-${build()}-${name}-${process.version}-${process.arch}.bin`;

beforeEach(async () => {
  sb = await startSandbox({ rateLimit: false });
  cacheHome = tempDir('checkin-cache-');
  env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token, XDG_CACHE_HOME: cacheHome });
});
afterEach(async () => {
  await sb.close();
});

describe('the code cache of the built binary', () => {
  it('is written by the first run, named after the build and the Node, and used unchanged by the next', async () => {
    const first = await runCli(['me', '--json'], { env });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    // The CLI's own, and conf's (a vendor file: the first run wrote the settings file).
    expect(readdirSync(cacheDir()).sort()).toEqual([cacheName('checkin'), cacheName('conf')]);
    const file = join(cacheDir(), cacheName());
    const before = { bytes: readFileSync(file), mtime: statSync(file).mtimeMs };
    expect(before.bytes.length).toBeGreaterThan(10_000);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');

    const second = await runCli(['me', '--json'], { env });
    expect(second).toEqual(first);
    // Accepted by V8: not written again.
    expect(statSync(file).mtimeMs).toBe(before.mtime);
    expect(readFileSync(file).equals(before.bytes)).toBe(true);
  });

  it('a damaged cache is ignored and replaced; caches of other builds are removed', async () => {
    mkdirSync(cacheDir(), { recursive: true });
    const file = join(cacheDir(), cacheName());
    const garbage = Buffer.alloc(200_000, 0x5a);
    writeFileSync(file, garbage);
    writeFileSync(join(cacheDir(), 'code-0123456789abcdef-v20.0.0-x64.bin'), 'old');
    writeFileSync(join(cacheDir(), 'notes.txt'), 'not ours');
    const r = await runCli(['today', '-i', 'Through a damaged cache', '--json'], { env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ intentions: 'Through a damaged cache' });
    expect(readdirSync(cacheDir()).sort()).toEqual([cacheName(), 'notes.txt']);
    expect(readFileSync(file).equals(garbage)).toBe(false);
    // A cache cut short (a full disk) is the same: ignored and replaced.
    writeFileSync(file, readFileSync(file).subarray(0, 1000));
    expect(await runCli(['me', '--json'], { env })).toMatchObject({ code: 0, stderr: '' });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });

  it('a cache folder that cannot be made or written costs nothing but the saving', async () => {
    writeFileSync(join(cacheHome, 'checkin'), 'a file where the folder would be');
    expect(await runCli(['me', '--json'], { env })).toMatchObject({ code: 0, stderr: '' });
    // Without XDG_CACHE_HOME it goes under HOME.
    const { XDG_CACHE_HOME: _, ...plain } = env;
    expect(await runCli(['me', '--json'], { env: plain })).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(join(plain.HOME!, '.cache', 'checkin'))).toContain(cacheName());
  });
});
