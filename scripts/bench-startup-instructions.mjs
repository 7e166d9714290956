// npm run bench:startup -- <other checkout>...: the npm build's start-up in instructions (callgrind),
// this checkout against others built beside it, in one run on one Node (CONTRIBUTING.md, "Start-up").
//
//   checkin today --json   against a local sandbox (one GET, `me` cached, TZ=UTC)
//   checkin --help
//   checkin --version
//   checkin mcp            its first answers: initialize, notifications/initialized and tools/list
//                          on stdin, ending at its end (the agent face's discovery)
//
// Each checkout runs its own bin/checkin.js (build it first: `git worktree add /tmp/old <commit> &&
// cd /tmp/old && npm ci && npm run build`), with a home of its own and the same environment:
// nothing of this shell's but PATH (NODE_EXTRA_CA_CERTS unset), the compile cache made by a first
// run. The runs take turns (old, new, old, new …). V8's search for a random hash-seed prime at start
// (`HashSeed::InitializeRoots`, 6–28 M a run at random) is left out of every count, as in
// scripts/bench-binary-instructions.mjs. BENCH_RUNS (default 3) runs per command and checkout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox.js';
import { homeEnv, instructions, run } from './callgrind.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const builds = [...process.argv.slice(2).map((b) => resolve(b)), root];
const runs = Number(process.env.BENCH_RUNS ?? 3);
const commands = [['today', '--json'], ['--help'], ['--version'], ['mcp']];
// What an agent's host sends first, one message a line (the 2025-11-25 revision most hosts speak).
const discovery = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((m) => JSON.stringify(m) + '\n')
  .join('');
const inputOf = (argv) => (argv.at(-1) === 'mcp' ? discovery : undefined);
const dir = mkdtempSync(join(tmpdir(), 'checkin-bench-startup-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const sb = await startSandbox({ rateLimit: false });
const go = (argv, env) => run(argv, env, dir, inputOf(argv));
const envs = builds.map((_, i) => ({ ...homeEnv(join(dir, `home-${i}`), sb), TZ: 'UTC' }));
// Logged in with `me` cached, and each command run once: its compile cache is there.
for (const [i, b] of builds.entries()) {
  await go([process.execPath, join(b, 'bin', 'checkin.js'), 'me'], envs[i]);
  for (const c of commands) await go([process.execPath, join(b, 'bin', 'checkin.js'), ...c], envs[i]);
}

let n = 0;
/** Instructions of one run under callgrind, less HashSeed::InitializeRoots. */
async function count(argv, env) {
  const file = join(dir, `callgrind.${++n}.out`);
  await go(['valgrind', '--tool=callgrind', `--callgrind-out-file=${file}`, ...argv], env);
  const { net } = instructions(file);
  rmSync(file);
  return net;
}

const M = (x) => (x / 1e6).toFixed(1);
console.log(`checkin start-up on Node ${process.version}: callgrind instructions, ${runs} runs each, HashSeed::InitializeRoots left out`);
for (const c of commands) {
  const counts = builds.map(() => []);
  for (let r = 0; r < runs; r++)
    for (const [i, b] of builds.entries()) counts[i].push(await count([process.execPath, join(b, 'bin', 'checkin.js'), ...c], envs[i]));
  console.log(`checkin ${c.join(' ')}`);
  for (const [i, b] of builds.entries()) {
    const xs = counts[i].sort((x, y) => x - y);
    console.log(`  ${b}: ${M(xs[0])}–${M(xs[xs.length - 1])} M (median ${M(xs[Math.floor(xs.length / 2)])})`);
  }
}
await sb.close();
