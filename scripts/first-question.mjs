// npm run bench (second part): how long until `checkin today` asks its first question in a
// pseudo-terminal, against the sandbox through a proxy that adds a round-trip time to every
// request (half each way). The target: launch + one round trip (the GETs it needs go out
// together, and the prompts load meanwhile).
import pty from '@lydell/node-pty';
import { mkdtempSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox.js';

const bin = fileURLToPath(new URL(process.env.BENCH_BIN ? `../${process.env.BENCH_BIN}` : '../bin/checkin.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 7);
const sb = await startSandbox({ rateLimit: false });
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/** A TCP proxy to the sandbox that holds every chunk `rtt / 2` ms each way. */
async function slowProxy(rtt) {
  const port = Number(new URL(sb.url).port);
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
    for (const [a, b] of [[client, up], [up, client]]) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/api/v2`, close: () => server.close() };
}

function run(args, env) {
  return new Promise((resolve) => {
    const p = pty.spawn(process.execPath, [bin, ...args], { env, cols: 120, rows: 40 });
    p.onExit(resolve);
  });
}

for (const rtt of [0, 100]) {
  const proxy = await slowProxy(rtt);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const home = mkdtempSync(join(tmpdir(), 'checkin-fq-'));
    const env = { PATH: process.env.PATH, HOME: home, CHECKIN_CONFIG_DIR: join(home, 'c'), CHECKIN_API_URL: proxy.url, CHECKIN_TOKEN: sb.token, TZ: 'UTC', TERM: 'xterm' };
    await run(['me'], env); // logged in: `me` is cached, as after `checkin login`
    const t0 = performance.now();
    const p = pty.spawn(process.execPath, [bin, 'today'], { env, cols: 120, rows: 40 });
    let screen = '';
    times.push(
      await new Promise((resolve) =>
        p.onData((d) => {
          screen += d;
          if (screen.includes('What did you do previously?')) resolve(performance.now() - t0);
        }),
      ),
    );
    p.write('\u0003');
    await new Promise((r) => p.onExit(r));
  }
  proxy.close();
  times.sort((a, b) => a - b);
  const med = times[Math.floor(times.length / 2)];
  console.log(`first question of checkin today at ${String(rtt).padStart(3)} ms round trip: median ${med.toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times.at(-1).toFixed(0)}, ${runs} runs)`);
}
await sb.close();
