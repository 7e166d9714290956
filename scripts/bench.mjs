// npm run bench: checkin against its floors, each figure from paired runs (min / median / max).
//
//   1. every one-request command   vs the commander floor: a CLI of commander with one command
//                                  sending the same GET with node:http, built here as checkin is (≤ 1.10× CPU),
//                                  and vs a bare node:http script (for scale)
//   2. first question of `today`   vs launch + one round trip, in a pseudo-terminal    (≤ +40 ms)
//   3. list --all, ~1,000 check-ins at 100 ms round trip, limits on
//                                  vs a bare 8-in-flight pager through the same proxy  (≤ 1.3×)
//   4. list --all, ~5,000 and ~20,000 check-ins, limits on
//                                  vs the rate-limit floor (30 requests / 10 s)        (≤ 1.1×)
//   5. list --all peak RSS at ~20,000 check-ins, JSON and table                         (≤ 60 MiB)
//   6. the single executable (build/checkin, when `npm run binary` made it), against the Node
//      inside it: today --json vs a bare node:http GET (≤ 1.15× CPU), --version vs `node -e 0`
//      (≤ 1.3× CPU), peak RSS. gh's `gh api` is not measured here: see CONTRIBUTING.md.
//
// Children get a clean environment (NODE_EXTRA_CA_CERTS and the rest unset, for both sides).
// BENCH_RUNS (default 10) pairs for 1 and 3, 7 for 2; BENCH_QUICK=1 leaves out the 20,000 run
// with limits on (2 minutes and more); BENCH_SECTIONS=1,2 runs only those; BENCH_BIN runs another
// build of the CLI. Every child runs on the Node that runs this script (its version is printed
// first): `PATH=/path/to/node24/bin:$PATH npm run bench` for another.
import pty from '@lydell/node-pty';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startSandbox } from '../dist/sandbox.js';
import { writeBareGet } from './bare-get.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, process.env.BENCH_BIN ?? 'bin/checkin.js');
const runs = Number(process.env.BENCH_RUNS ?? 10);
const quick = process.env.BENCH_QUICK === '1';
// BENCH_SECTIONS=1,2 runs only those sections (all by default).
const only = process.env.BENCH_SECTIONS?.split(',').map(Number);
const want = (n) => !only || only.includes(n);
const dir = mkdtempSync(join(tmpdir(), 'checkin-bench-'));
// The homes, caches and scripts made below go with it, however the run ends.
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const haveTime = existsSync('/usr/bin/time');
const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mmm = (xs, f = (x) => x.toFixed(2)) => `${f(Math.min(...xs))} / ${f(median(xs))} / ${f(Math.max(...xs))}`;
const results = [];
console.log(`checkin bench on Node ${process.version} (${process.platform}-${process.arch}), ${bin}${haveTime ? '' : '; no /usr/bin/time: no peak RSS'}`);
function report(what, measured, target, ok) {
  results.push({ what, measured, target, ok });
  console.log(`${ok ? 'ok    ' : 'MISSED'} ${what}: ${measured} (target ${target})`);
}

/** A clean environment for a child: nothing of this shell's but PATH. */
function cleanEnv(url, token, extra = {}) {
  const home = mkdtempSync(join(dir, 'home-'));
  return {
    PATH: process.env.PATH,
    HOME: home,
    CHECKIN_CONFIG_DIR: join(home, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    CHECKIN_API_URL: url,
    CHECKIN_TOKEN: token,
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    ...extra,
  };
}

/** One whole process: wall ms (spawn to exit), CPU ms (user + system), peak RSS in MiB when /usr/bin/time is there, stdout. */
function runOnce(argv, env, { keep = false, codes = [0], node = process.execPath } = {}) {
  return new Promise((resolve, reject) => {
    // node: null runs argv[0] itself (the single executable), else that Node runs argv.
    const program = node === null ? argv : [node, ...argv];
    const cmd = haveTime ? '/usr/bin/time' : program[0];
    const args = haveTime ? ['-f', '__RSS__%M %U %S', ...program] : program.slice(1);
    const t0 = performance.now();
    const child = spawn(cmd, args, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (d) => {
      bytes += d.length;
      if (keep) stdout += d;
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => {
      const ms = performance.now() - t0;
      const m = /__RSS__(\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
      if (!codes.includes(status)) reject(new Error(`${argv.join(' ')} exited ${status}: ${stderr}`));
      else
        resolve({
          ms,
          cpu: m ? (Number(m[2]) + Number(m[3])) * 1000 : NaN,
          rss: m ? Number(m[1]) / 1024 : NaN,
          stdout,
          bytes,
          stderr: stderr.replace(/__RSS__.*\n?/, ''),
        });
    });
  });
}

/** A TCP proxy to `port` that holds every chunk `rtt / 2` ms each way. */
async function slowProxy(port, rtt) {
  const server = createServer((client) => {
    const up = connect(port, '127.0.0.1');
    const relay = (from, to) =>
      from.on('data', async (d) => {
        from.pause();
        await delay(rtt / 2);
        to.write(d);
        from.resume();
      });
    relay(client, up);
    relay(up, client);
    for (const [a, b] of [
      [client, up],
      [up, client],
    ]) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/api/v2`, close: () => new Promise((r) => server.close(r)) };
}

// The bare side: node:http, the same GET (scripts/bare-get.mjs).
const bareGet = writeBareGet(dir);
// The commander floor: a CLI of commander with one command sending the same GET with node:http,
// bundled as scripts/build.mjs bundles checkin (one CommonJS file, minified).
const floorSrc = join(dir, 'floor.mjs');
const floor = join(dir, 'floor.cjs');
writeFileSync(
  floorSrc,
  `import { Command } from 'commander';
import { request } from 'node:http';
new Command('floor').command('get').argument('<url>').action((url) => new Promise((resolve) => request(url, { headers: { authorization: 'Bearer ' + process.env.CHECKIN_TOKEN, accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (d) => (body += d)); res.on('end', () => { process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'); resolve(); });
}).end())).parent.parseAsync(process.argv);
`,
);
await build({
  entryPoints: [floorSrc],
  outfile: floor,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.18',
  minify: true,
  legalComments: 'none',
  nodePaths: [join(root, 'node_modules')],
  logLevel: 'warning',
});
// The bare pager: 8 pages in flight, handed over in order, one JSON array, stops at a short page.
const barePager = join(dir, 'bare-pager.mjs');
writeFileSync(
  barePager,
  `import { Agent, request } from 'node:http';
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const get = (page) => new Promise((resolve, reject) => request(process.env.CHECKIN_API_URL + '/check-ins?page=' + page + '&per_page=50', { agent, headers: { authorization: 'Bearer ' + process.env.CHECKIN_TOKEN, accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (d) => (body += d)); res.on('end', () => resolve(JSON.parse(body)));
}).on('error', reject).end());
let next = 1, emit = 1, done = false, n = 0; const ready = new Map();
async function worker() {
  while (!done) {
    const page = next++; ready.set(page, await get(page));
    while (ready.has(emit)) { const items = ready.get(emit); ready.delete(emit); emit++;
      if (items.length) process.stdout.write((n ? ',\\n' : '[\\n') + items.map((c) => JSON.stringify(c, null, 2)).join(',\\n'));
      n += items.length; if (items.length < 50) done = true; }
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
process.stdout.write(n ? '\\n]\\n' : '[]\\n'); agent.destroy();
`,
);

// ── 1. One-request commands ──────────────────────────────────────────────────────────────────
if (want(1)) {
  const sb = await startSandbox({ rateLimit: false });
  const data = sb.service.data;
  const env = cleanEnv(sb.url, sb.token);
  const commented = data.comments.find((c) => c.resource.type === 'check-in').resource.id;
  const goal = data.goal_updates[0].goal_id;
  const commands = [
    ['today', '--json'],
    ['today'],
    ['status'],
    ['list'],
    ['list', '--json'],
    ['teams'],
    ['goals'],
    ['activity'],
    ['comments', commented],
    ['reactions', commented],
    ['goal', 'update', 'list', goal],
  ];
  await runOnce([bin, 'me'], env); // logged in, as after `checkin login`: me is cached, and Node's compile cache is made (Node >= 22.1)
  console.log(
    `\n1. One-request commands vs the commander floor (CPU) and a bare node:http GET (wall), same URL (${runs} pairs each; ratio min / median / max)`,
  );
  for (const argv of commands) {
    // A first run, then the one whose requests are counted: `status` counts new comments (the
    // inbox's requests) at most every ten minutes, and is one GET in between.
    await runOnce([bin, ...argv], env, { codes: [0, 3] }); // 3: `status` says today is pending
    sb.requests.length = 0;
    await runOnce([bin, ...argv], env, { codes: [0, 3] });
    const sent = sb.requests.map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`);
    const name = `checkin ${argv.map((a) => (a.length > 20 ? '<id>' : a)).join(' ')}`;
    if (sent.length !== 1 || !sent[0].startsWith('GET ')) {
      report(name, `${sent.length} requests (${sent.join(', ')})`, '1 GET', false);
      continue;
    }
    const url = `${sb.url.replace(/\/api\/v2$/, '')}${sent[0].slice(4)}`;
    const ratios = [];
    const bareRatios = [];
    const cli = [];
    const fl = [];
    let rss = 0;
    for (let i = 0; i < runs; i++) {
      const a = await runOnce([bin, ...argv], env, { codes: [0, 3] });
      const f = await runOnce([floor, 'get', url], env);
      const b = await runOnce([bareGet, url], env);
      ratios.push(a.cpu / f.cpu);
      bareRatios.push(a.ms / b.ms);
      cli.push(a.cpu);
      fl.push(f.cpu);
      rss = Math.max(rss, a.rss);
    }
    const med = median(ratios);
    report(
      `${name.padEnd(32)} 1 GET`,
      `${mmm(ratios)}× the commander floor in CPU (checkin ${median(cli).toFixed(0)} ms, floor ${median(fl).toFixed(0)} ms; wall vs bare GET ${median(bareRatios).toFixed(2)}×; peak RSS ${rss.toFixed(0)} MiB)`,
      '≤ 1.10×',
      med <= 1.1,
    );
  }
  await sb.close();
}

// ── 2. First question ─────────────────────────────────────────────────────────────────────────
if (want(2)) {
  const sb = await startSandbox({ rateLimit: false });
  const fq = Math.max(5, Math.round(runs * 0.7));
  console.log(
    `\n2. First question of the interactive \`checkin today\` in a pseudo-terminal (${fq} pairs; launch = node printing a line in the same terminal)`,
  );
  const screenTime = (file, args, env, text) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const p = pty.spawn(file, args, { env, cols: 120, rows: 40 });
      let screen = '';
      let at;
      p.onData((d) => {
        screen += d;
        if (at === undefined && (typeof text === 'string' ? screen.includes(text) : text.test(screen))) {
          at = performance.now() - t0;
          p.write('\u0003');
        }
      });
      p.onExit(() => resolve(at ?? NaN));
    });
  for (const rtt of [0, 100]) {
    const proxy = await slowProxy(sb.port, rtt);
    const excess = [];
    const times = [];
    const launches = [];
    for (let i = 0; i < fq; i++) {
      const env = { ...cleanEnv(proxy.url, sb.token), TERM: 'xterm' };
      await runOnce([bin, 'me'], env); // logged in: me is cached
      const launch = await screenTime(process.execPath, ['-e', "process.stdout.write('ready\\n'); setTimeout(() => {}, 50)"], env, 'ready');
      // The first question: the checkbox of what went on since the last check-in (the demo has a
      // merged PR; git runs in this checkout too), else "What did you do previously?".
      const first = await screenTime(process.execPath, [bin, 'today'], env, /What went on since your last check-in\?|What did you do previously\?/);
      launches.push(launch);
      times.push(first);
      excess.push(first - launch - rtt);
    }
    await proxy.close();
    report(
      `first question at ${String(rtt).padStart(3)} ms round trip`,
      `${mmm(times, (x) => x.toFixed(0))} ms; launch ${median(launches).toFixed(0)} ms; beyond launch + round trip ${mmm(excess, (x) => x.toFixed(0))} ms`,
      'launch + round trip + ≤ 40 ms',
      median(excess) <= 40,
    );
  }
  await sb.close();
}

// ── 3, 4, 5. list --all ──────────────────────────────────────────────────────────────────────
/** A fresh sandbox (fresh rate-limit windows) with about `target` check-ins: 5 demo people + a guild checking in daily. */
async function bigSandbox(target, rateLimit = undefined) {
  const days = 100;
  return startSandbox({ size: { people: 5 + Math.max(1, Math.round(target / (days - 1))), days }, ...(rateLimit === false && { rateLimit: false }) });
}
const listRequests = (sb) => sb.requests.filter((r) => r.path === '/api/v2/check-ins');

if (want(3)) {
  const pairs = Math.max(3, Math.round(runs / 2));
  console.log(`\n3. list --all --json, limits on, through a proxy adding 100 ms round trips (${pairs} pairs, a fresh sandbox for each run)`);
  const ratios = [];
  const cli = [];
  const bare = [];
  let count = 0;
  let requests = 0;
  for (let i = 0; i < pairs; i++) {
    for (const side of ['cli', 'bare']) {
      const sb = await bigSandbox(1000);
      const proxy = await slowProxy(sb.port, 100);
      const env = cleanEnv(proxy.url, sb.token);
      const r = side === 'cli' ? await runOnce([bin, 'list', '--all', '--json'], env, { keep: true }) : await runOnce([barePager], env, { keep: true });
      if (side === 'cli') {
        count = JSON.parse(r.stdout).length;
        requests = sb.requests.length;
        if (sb.requests.some((q) => q.status === 429)) throw new Error('checkin ran into a 429');
      }
      (side === 'cli' ? cli : bare).push(r.ms);
      await proxy.close();
      await sb.close();
    }
    ratios.push(cli.at(-1) / bare.at(-1));
  }
  report(
    `list --all, ${count} check-ins, 100 ms round trip`,
    `${mmm(ratios)}× an 8-in-flight pager (checkin ${median(cli).toFixed(0)} ms, ${requests} requests, none refused; pager ${median(bare).toFixed(0)} ms)`,
    '≤ 1.3×',
    median(ratios) <= 1.3,
  );
}

const sizes = !want(4) ? [] : quick ? [5000] : [5000, 20000];
const pacedRss = [];
if (want(4))
  console.log(
    `\n4. list --all --json, limits on (30 requests / 10 s, 500 / 30 min), direct; floor = ⌊(pages − 1) / 30⌋ × 10 s${quick ? ' (BENCH_QUICK: 5,000 only)' : ''}`,
  );
for (const size of sizes) {
  const sb = await bigSandbox(size);
  const env = cleanEnv(sb.url, sb.token);
  const r = await runOnce([bin, 'list', '--all', '--json'], env, { keep: true });
  const count = JSON.parse(r.stdout).length;
  const pages = Math.floor(count / 50) + 1; // the last one short (or empty)
  const floor = Math.floor((pages - 1) / 30) * 10_000;
  const sent = listRequests(sb).length;
  const refused = sb.requests.filter((q) => q.status === 429).length;
  await sb.close();
  if (size === 20000) pacedRss.push(r.rss);
  report(
    `list --all, ${count} check-ins, limits on`,
    `${(r.ms / 1000).toFixed(2)} s = ${(r.ms / floor).toFixed(3)}× the floor ${(floor / 1000).toFixed(0)} s (${sent} requests for ${pages} pages, ${refused} refused; peak RSS ${r.rss.toFixed(0)} MiB)`,
    '≤ 1.1×',
    r.ms / floor <= 1.1 && refused === 0,
  );
}

if (want(5)) console.log('\n5. list --all peak RSS at ~20,000 check-ins (limits off, and the paced run of 4.)');
if (want(5)) {
  const sb = await bigSandbox(20000, false);
  const env = cleanEnv(sb.url, sb.token);
  for (const json of [true, false]) {
    const r = await runOnce([bin, 'list', '--all', ...(json ? ['--json'] : [])], env);
    report(
      `list --all${json ? ' --json' : ' (table)'}, 20,000 check-ins`,
      `peak RSS ${r.rss.toFixed(1)} MiB, ${(r.bytes / 1048576).toFixed(1)} MiB written, ${(r.ms / 1000).toFixed(1)} s`,
      '≤ 60 MiB',
      r.rss <= 60,
    );
  }
  await sb.close();
  for (const rss of pacedRss) report('list --all --json, 20,000 check-ins, limits on (the run of 4.)', `peak RSS ${rss.toFixed(1)} MiB`, '≤ 60 MiB', rss <= 60);
}

// ── 6. The single executable ──────────────────────────────────────────────────────────────────
const binary = join(root, 'build', 'checkin');
if (want(6) && !existsSync(binary)) console.log('\n6. The single executable: skipped, no build/checkin (npm run binary makes it)');
else if (want(6)) {
  // The Node inside it: the pinned release scripts/binary.mjs fetched (its version is `checkin version`'s).
  const said = (await runOnce([binary, 'version'], {}, { keep: true, node: null })).stdout;
  const nodeVersion = /Node\.js (\d+\.\d+\.\d+)/.exec(said)?.[1];
  const inside = join(root, 'node_modules', '.cache', 'checkin-binary', `node-linux-${process.arch}-${nodeVersion}`, 'package', 'bin', 'node');
  if (!existsSync(inside)) console.log(`\n6. The single executable: skipped, the Node inside it (${nodeVersion}) is not in node_modules/.cache/checkin-binary`);
  else {
    console.log(`\n6. The single executable (${said.trim()}) vs the Node inside it (${runs} pairs; ratio min / median / max)`);
    const sb = await startSandbox({ rateLimit: false });
    const env = cleanEnv(sb.url, sb.token);
    await runOnce([binary, 'me'], env, { node: null }); // logged in: me is cached
    sb.requests.length = 0;
    await runOnce([binary, 'today', '--json'], env, { node: null });
    const url = `${sb.url.replace(/\/api\/v2$/, '')}${sb.requests[0].path}`;
    for (const [name, a, b, target] of [
      ['today --json vs a bare node:http GET', [binary, 'today', '--json'], [inside, bareGet, url], 1.15],
      ['--version vs node -e 0', [binary, '--version'], [inside, '-e', '0'], 1.3],
    ]) {
      const cpu = [];
      const wall = [];
      let rss = 0;
      let bareRss = 0;
      for (let i = 0; i < runs; i++) {
        const x = await runOnce(a, env, { node: null });
        const y = await runOnce(b, env, { node: null });
        cpu.push(x.cpu / y.cpu);
        wall.push(x.ms / y.ms);
        rss = Math.max(rss, x.rss);
        bareRss = Math.max(bareRss, y.rss);
      }
      report(
        `binary ${name}`,
        `${mmm(cpu)}× in CPU (wall ${mmm(wall)}×; peak RSS ${rss.toFixed(1)} MiB, the other ${bareRss.toFixed(1)} MiB)`,
        `≤ ${target}×`,
        median(cpu) <= target,
      );
    }
    await sb.close();
  }
}

const missed = results.filter((r) => !r.ok);
console.log(
  `\n${results.length - missed.length} of ${results.length} targets met${missed.length ? `; missed: ${missed.map((m) => m.what.trim()).join('; ')}` : ''}`,
);
