// What one write costs the sandbox with --data, by the size of its state: sequential comments
// posted over HTTP to a sandbox whose state is ~1 MB and ~100 MB (generated demo data).
//
//   node scripts/bench-sandbox-writes.mjs            (after npm run build)
//   BENCH_DIST=/other/build/dist/sandbox.js node scripts/bench-sandbox-writes.mjs   (another build)
//   BENCH_WRITES=100 (default 50) writes a size; BENCH_SIZES=1,100 (MB, the default) picks sizes.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : new URL('../dist/sandbox.js', import.meta.url).pathname;
const { startSandbox } = await import(pathToFileURL(dist).href);
const writes = Number(process.env.BENCH_WRITES ?? 50);
// People × days of generated history: about 1 MB and about 100 MB of state.
const SIZES = { 1: { people: 25, days: 80 }, 100: { people: 800, days: 220 } };
const sizes = (process.env.BENCH_SIZES ?? '1,100').split(',').map(Number);

function call(url, method, path, token, body) {
  return new Promise((resolvePromise, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      new URL(url + path),
      { method, headers: { authorization: `Bearer ${token}`, ...(payload && { 'content-type': 'application/json' }) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolvePromise({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
const dirSize = (dir) => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
const ms = (ns) => Number(ns) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const mb of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'checkin-bench-writes-'));
  try {
    const file = join(dir, 'state.json');
    let t = process.hrtime.bigint();
    const sb = await startSandbox({ dataFile: file, size: SIZES[mb], rateLimit: false });
    const startMs = ms(process.hrtime.bigint() - t);
    const state = statSync(file).size;
    const checkIn = (await call(sb.url, 'GET', '/check-ins?per_page=1', sb.token)).json[0].id;
    const each = [];
    for (let i = 0; i < writes; i++) {
      t = process.hrtime.bigint();
      const r = await call(sb.url, 'POST', `/check-ins/${checkIn}/comments`, sb.token, { body: `bench write ${i}` });
      each.push(ms(process.hrtime.bigint() - t));
      if (r.status !== 201) throw new Error(`write ${i}: ${r.status} ${JSON.stringify(r.json)}`);
    }
    const onDisk = dirSize(dir);
    t = process.hrtime.bigint();
    await sb.close();
    const closeMs = ms(process.hrtime.bigint() - t);
    const total = each.reduce((a, b) => a + b, 0);
    // The first write also builds the sandbox's index of check-in ids (a cost of the first request, not of writing).
    const rest = each.slice(1);
    console.log(
      `state ${(state / 1e6).toFixed(1)} MB: start ${startMs.toFixed(0)} ms; ${writes} writes in ${(total / 1000).toFixed(2)} s — ` +
        `first ${each[0].toFixed(0)} ms, then per write min ${Math.min(...rest).toFixed(2)} / median ${median(rest).toFixed(2)} / max ${Math.max(...rest).toFixed(2)} ms; ` +
        `on disk after the writes ${(onDisk / 1e6).toFixed(1)} MB; close ${closeMs.toFixed(0)} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
