// npm run bench:binary: the single executable's instructions (issue 43), counted by callgrind.
//
//   build/checkin today --json   against a local sandbox (one GET, `me` cached)
//   vs a bare node:http GET        the same URL, a CommonJS script on the Node inside the binary
//                                  (the pinned release scripts/binary.mjs keeps in its cache)
//
// Each side runs under `valgrind --tool=callgrind` (all threads counted), with TZ=UTC and with TZ
// unset (the zone then comes from the cached profile), NODE_EXTRA_CA_CERTS and all but PATH unset.
// V8's search for a random hash-seed prime at start (`HashSeed::InitializeRoots`, 8–24 M a run at
// random on both sides) is read from callgrind_annotate's inclusive figures and left out of both
// counts: else its noise is larger than the gap. The binary is made from a copy of Node without its
// symbol table; its functions are named from the pinned Node it was copied from.
//
//   BENCH_RUNS=3             runs per side and zone (min–max printed)
//   BENCH_BINARY=path        another build of the binary (default build/checkin)
//   BENCH_KEEP=dir           keep the callgrind files there (callgrind_annotate --inclusive=yes …)
//   BENCH_ZONES=utc,unset    only some of the two
//   BENCH_FLOOR=1            also the floors under the figure, each a single executable with a
//                            start-up snapshot of its own, built here by the same Node (TZ=UTC):
//                            one that does nothing; the same bare GET (what the snapshot mechanism
//                            costs by itself); a commander CLI with one command sending that GET
//                            (what commander costs); and `checkin --version` (checkin's heap and
//                            program, no request)
//
// Needs valgrind (Debian: apt-get install valgrind) and `npm run binary` first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox.js';
import { writeBareGet } from './bare-get.mjs';
import { homeEnv, instructions, run } from './callgrind.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env.BENCH_BINARY ?? join(root, 'build', 'checkin');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const keep = process.env.BENCH_KEEP;
const zones = (process.env.BENCH_ZONES ?? 'utc,unset').split(',');
if (!existsSync(binary)) {
  console.error(`${binary} is not there: npm run binary makes it`);
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'checkin-bench-ir-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
if (keep) mkdirSync(keep, { recursive: true });

// The Node inside: the one `checkin version` names, from scripts/binary.mjs's cache.
const said = execFileSync(binary, ['version'], { encoding: 'utf8', env: { PATH: process.env.PATH } }).trim();
const nodeVersion = /Node\.js (\d+\.\d+\.\d+)/.exec(said)?.[1];
const node = join(root, 'node_modules', '.cache', 'checkin-binary', `node-linux-${process.arch}-${nodeVersion}`, 'package', 'bin', 'node');
if (!existsSync(node)) {
  console.error(`the Node inside ${binary} (${nodeVersion}) is not in node_modules/.cache/checkin-binary: npm run binary fetches it`);
  process.exit(1);
}
// Symbols for the stripped binary: its code is the pinned Node's, byte for byte and at the same
// addresses (strip removes no loaded section), so callgrind's `0x…` functions are named from that
// Node's symbol table (its code lies above 8 MiB; shared libraries' offsets below are left alone).
const symbols = new Map();
for (const line of execFileSync('nm', ['-C', '--defined-only', node], { encoding: 'utf8', maxBuffer: 1 << 30 }).split('\n')) {
  const m = /^([0-9a-f]{16}) [tTwW] (.+)$/.exec(line);
  if (m && !symbols.has(BigInt(`0x${m[1]}`))) symbols.set(BigInt(`0x${m[1]}`), m[2]);
}
/** The callgrind file with the binary's functions named. */
function symbolize(text) {
  return text.replace(/^(c?fn=\(\d+\) )0x([0-9a-f]+)('\d+)?$/gm, (all, pre, addr, rec) => {
    const name = BigInt(`0x${addr}`) >= 0x800000n && symbols.get(BigInt(`0x${addr}`));
    return name ? `${pre}${name}${rec ?? ''}` : all;
  });
}

// The bare side: node:http, the same GET (scripts/bare-get.mjs).
const bareGet = writeBareGet(dir);

const sb = await startSandbox({ rateLimit: false });
const baseEnv = homeEnv(join(dir, 'home'), sb);

const go = (argv, env) => run(argv, env, dir);

// Logged in and `me` cached; its zone's offsets are cached by the first run with TZ unset (as on
// every run after a person's first): the URL today --json asks, and what it prints.
await go([binary, 'me'], { ...baseEnv, TZ: 'UTC' });
const envs = { utc: { ...baseEnv, TZ: 'UTC' }, unset: baseEnv };
const expected = {};
for (const zone of zones) {
  sb.requests.length = 0;
  expected[zone] = await go([binary, 'today', '--json'], envs[zone]);
  if (sb.requests.length !== 1) throw new Error(`today --json sent ${sb.requests.length} requests, not 1`);
}
const url = `${sb.url.replace(/\/api\/v2$/, '')}${sb.requests[0].path}`;

let n = 0;
/** Instructions of one run under callgrind, less HashSeed::InitializeRoots: { total, seed, net }. */
async function count(argv, env, expect, requests = 1) {
  const file = join(keep ?? dir, `callgrind.${++n}.${argv[0] === binary ? 'checkin' : 'bare'}.out`);
  sb.requests.length = 0;
  const out = await go(['valgrind', '--tool=callgrind', `--callgrind-out-file=${file}`, ...argv], env);
  if (sb.requests.length !== requests) throw new Error(`${argv.join(' ')} sent ${sb.requests.length} requests, not ${requests}`);
  if (expect !== undefined && out !== expect) throw new Error(`${argv.join(' ')} under callgrind printed something else`);
  // The binary's functions named (only fn= lines change), so that the seed's share can be found.
  if (argv[0] === binary) writeFileSync(file, symbolize(readFileSync(file, 'utf8')));
  const counted = instructions(file);
  if (!keep) rmSync(file);
  return counted;
}

const M = (x) => (x / 1e6).toFixed(1);
const range = (xs) => `${M(Math.min(...xs))}–${M(Math.max(...xs))} M`;
console.log(`${said} vs a bare node:http GET on ${node} (Node ${nodeVersion}); callgrind, ${runs} runs each, HashSeed::InitializeRoots left out`);
for (const zone of zones) {
  const env = envs[zone];
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(await count([binary, 'today', '--json'], env, expected[zone]));
    b.push(await count([node, bareGet, url], env));
  }
  const nets = (xs) => xs.map((x) => x.net);
  const ratio = (Math.min(...nets(a)) / Math.min(...nets(b))).toFixed(3);
  const ratioMax = (Math.max(...nets(a)) / Math.min(...nets(b))).toFixed(3);
  console.log(
    `TZ ${zone === 'utc' ? '=UTC ' : 'unset'}: checkin ${range(nets(a))} vs bare GET ${range(nets(b))}: ${ratio}× (min/min; max/min ${ratioMax}×)` +
      `  [with the seed search: ${a.map((x) => M(x.total)).join(' ')} vs ${b.map((x) => M(x.total)).join(' ')}]`,
  );
}
if (process.env.BENCH_FLOOR === '1') {
  /** `body` as the deserialised main of a snapshot (as src/binary.ts is checkin's), built into a single executable. */
  const sea = (name, body, prelude = '') => {
    const main = join(dir, `${name}.cjs`);
    writeFileSync(
      main,
      `${prelude}const { startupSnapshot } = require('node:v8');
function start() {
${body}}
if (startupSnapshot.isBuildingSnapshot()) startupSnapshot.setDeserializeMainFunction(start); else start();
`,
    );
    const out = join(dir, name);
    writeFileSync(join(dir, `${name}.json`), JSON.stringify({ main, output: out, disableExperimentalSEAWarning: true, useSnapshot: true }));
    execFileSync(node, ['--build-sea', join(dir, `${name}.json`)], { stdio: 'ignore' });
    return out;
  };
  // commander bundled as the binary bundles it (minified, one CommonJS file), loaded while the
  // snapshot is made; the program built and parsed at each run, the GET as the bare one's.
  const { build } = await import('esbuild');
  const commanderJs = join(dir, 'commander.cjs');
  await build({
    stdin: { contents: "module.exports = require('commander');", resolveDir: root },
    outfile: commanderJs,
    bundle: true,
    platform: 'node',
    format: 'iife',
    globalName: 'commander',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const floors = [
    ['a single executable that does nothing', sea('nothing', ''), [], 0],
    ['the bare GET as a single executable', sea('bare', readFileSync(bareGet, 'utf8')), [url], 1],
    [
      'a commander CLI of one command doing that GET, as a single executable',
      sea(
        'commander',
        `const { request } = require('node:http');
new Command('floor').command('get').argument('<url>').action((url) => new Promise((resolve) => request(url, { headers: { authorization: 'Bearer ' + process.env.CHECKIN_TOKEN, accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (d) => (body += d)); res.on('end', () => { process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'); resolve(); });
}).end())).parent.parseAsync(process.argv);
`,
        `${readFileSync(commanderJs, 'utf8')}\nconst { Command } = commander;\n`,
      ),
      ['get', url],
      1,
    ],
    ['checkin --version (its heap and program, no request)', binary, ['--version'], 0],
  ];
  for (const [what, exe, args, requests] of floors) {
    const f = [];
    for (let i = 0; i < runs; i++) f.push((await count([exe, ...args], envs.utc, undefined, requests)).net);
    console.log(`${what}, TZ=UTC: ${range(f)}`);
  }
}
await sb.close();
