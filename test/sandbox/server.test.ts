// `checkin sandbox` as a server, as its own process: whatever arrives it keeps answering, its
// memory stays bounded, and with --data every acknowledged write survives kill -9.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadState } from '../../src/sandbox/store.js';
import { BIN, cleanEnv, startCliSandbox } from '../helpers/cli.js';
import { call } from '../helpers/http.js';
import { tempDir } from '../helpers/cleanup.js';
import { patient } from '../helpers/patience.js';

/** `checkin sandbox` as its own process (killed when the test ends). */
const sandbox = (args: string[] = []) => startCliSandbox(args);

/** Sends raw bytes and resolves with the first line of the answer (or '' when the connection closed). */
function raw(url: string, bytes: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(port), hostname, () => s.end(bytes));
    let got = '';
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('close', () => resolve(got.split('\r\n')[0] ?? ''));
    s.on('error', () => resolve(''));
  });
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('checkin sandbox never falls over', () => {
  it('malformed request-targets, bad percent-encoding, huge and deep bodies: 4xx JSON, and GET /me still answers', async () => {
    const { url, token } = await sandbox();
    expect(await raw(url, 'GET http://[::1/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(url, 'GET http://x:99999/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(url, 'GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400|^$/);
    const bad = await call(url, 'GET', '/check-ins/%ZZ', { token });
    expect([bad.status, bad.json?.error]).toEqual([400, 'bad_request']);
    const huge = await call(url, 'PATCH', '/check-ins/2026-11-22', {
      token,
      rawBody: 'x'.repeat(2 * 1024 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    const deep = await call(url, 'PATCH', '/check-ins/2026-11-22', {
      token,
      rawBody: '['.repeat(500_000) + ']'.repeat(500_000),
      headers: { 'content-type': 'application/json' },
    });
    expect([deep.status, deep.json?.error]).toEqual([400, 'bad_request']);
    const deepSmall = await call(url, 'PATCH', '/check-ins/2026-11-22', {
      token,
      rawBody: '['.repeat(100_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(deepSmall.status).toBe(400);
    expect((await call(url, 'GET', '/me', { token })).status).toBe(200);
  });

  it(
    '600 unauthenticated 1 MB requests leave the memory bounded',
    async () => {
      const { child, url, token } = await sandbox();
      const before = rssMiB(child.pid!);
      const body = 'x'.repeat(1024 * 1024);
      for (let round = 0; round < 60; round++) {
        await Promise.all(
          Array.from({ length: 10 }, () =>
            call(url, 'POST', '/check-ins/x/comments', { rawBody: body, headers: { 'content-type': 'application/json' } }).catch(() => undefined),
          ),
        );
      }
      const after = rssMiB(child.pid!);
      console.log(`sandbox RSS: ${before.toFixed(0)} MiB at start, ${after.toFixed(0)} MiB after 600 unauthenticated 1 MB requests`);
      expect(after).toBeLessThan(before + 60);
      expect((await call(url, 'GET', '/me', { token })).status).toBe(200);
    },
    patient(60_000),
  );
});

describe('checkin sandbox --data', () => {
  it(
    'every write answered 201 survives kill -9 (in the data file and its journal, as the next start reads them); no temp file is left behind',
    async () => {
      const dir = tempDir('checkin-data-');
      const file = join(dir, 'sandbox.json');
      const rounds = 5;
      let acknowledged = 0;
      let found = 0;
      for (let round = 0; round < rounds; round++) {
        const { child, url, token } = await sandbox(['--data', file, '--no-rate-limit']);
        const checkIn =
          (await call(url, 'GET', '/check-ins/2026-11-21', { token })).json?.id ?? (await call(url, 'GET', '/check-ins?per_page=1', { token })).json[0].id;
        const acked: string[] = [];
        let stop = false;
        const writer = async (n: number) => {
          for (let i = 0; !stop; i++) {
            const r = await call(url, 'POST', `/check-ins/${checkIn}/comments`, { token, body: { body: `round ${round} writer ${n} #${i}` } }).catch(
              () => undefined,
            );
            if (r?.status === 201) acked.push(r.json.id);
          }
        };
        const writers = [writer(1), writer(2), writer(3)];
        await new Promise((r) => setTimeout(r, 150 + round * 40));
        child.kill('SIGKILL');
        stop = true;
        await Promise.all(writers);
        await new Promise((r) => child.once('exit', r));
        const saved = (await loadState(file))!;
        const ids = new Set(saved.comments.map((c) => c.id));
        acknowledged += acked.length;
        found += acked.filter((id) => ids.has(id)).length;
      }
      console.log(`kill -9 under writes: ${rounds} rounds, ${acknowledged} writes acknowledged, ${found} found in the data file`);
      expect(acknowledged).toBeGreaterThan(rounds);
      expect(found).toBe(acknowledged);
      // The next start clears what a killed run left.
      const { child } = await sandbox(['--data', file]);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGKILL');
      });
    },
    patient(60_000),
  );

  it('a --data path that cannot be written fails at start with one line', async () => {
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--data', '/proc/checkin-cannot-write/sandbox.json'], {
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => resolve({ code, err }));
    });
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: Cannot write the data file /proc/checkin-cannot-write/sandbox.json: ENOENT\n');
  });
});
