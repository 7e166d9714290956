// npm run bench: how long `checkin today --json` takes against a local sandbox, next to a bare
// node:http script doing the same single GET. Prints median wall time, peak RSS and the ratio.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);
// BENCH_BIN points at another build of the CLI (e.g. an unbundled one) to compare with.
const bin = process.env.BENCH_BIN ?? 'bin/checkin.js';
const sb = await startSandbox({ rateLimit: false });
const dir = mkdtempSync(join(tmpdir(), 'checkin-bench-'));
const env = { PATH: process.env.PATH, HOME: dir, CHECKIN_CONFIG_DIR: join(dir, 'config'), CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token };
const date = new Date();
const key = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

const bare = join(dir, 'bare.mjs');
writeFileSync(bare, `import { request } from 'node:http';
const req = request(process.env.CHECKIN_API_URL + '/check-ins/${key}', { headers: { authorization: 'Bearer ' + process.env.CHECKIN_TOKEN, accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (d) => (body += d)); res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body), null, 2) + '\\n'));
});
req.end();
`);

const haveTime = existsSync('/usr/bin/time');
// The sandbox answers in this process, so children are awaited, never run synchronously.
function runOnce(cmd, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env, cwd: root });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

async function measure(args) {
  const times = [];
  const rss = [];
  for (let i = 0; i < runs; i++) {
    const cmd = haveTime ? '/usr/bin/time' : process.execPath;
    const argv = haveTime ? ['-f', '__RSS__%M', process.execPath, ...args] : args;
    const t0 = performance.now();
    const r = await runOnce(cmd, argv);
    times.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    const m = /__RSS__(\d+)/.exec(r.stderr);
    if (m) rss.push(Number(m[1]) / 1024);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], peakRss: rss.length ? Math.max(...rss) : NaN };
}

await measure([bin, 'today', '--json']); // warm the file cache
const base = await measure([bare]);
const cli = await measure([bin, 'today', '--json']);
const nodeOnly = await measure(['-e', '0']);
await sb.close();

const fmt = (r) => `median ${(r.median / 1000).toFixed(3)} s, peak RSS ${Number.isNaN(r.peakRss) ? 'n/a' : r.peakRss.toFixed(0) + ' MiB'}`;
console.log(`runs each:                      ${runs}`);
console.log(`bare node -e 0:                 ${fmt(nodeOnly)}`);
console.log(`node:http single GET:           ${fmt(base)}`);
console.log(`checkin today --json:           ${fmt(cli)}`);
console.log(`ratio (checkin / node:http):    ${(cli.median / base.median).toFixed(2)} (target ≤ 1.5; RSS target ≤ 70 MiB)`);
