// The linux-arm64 release archive (`npm run binary -- --release`, release/) run on this x64 machine
// under qemu-user: `--version`, and `today --json` against the sandbox with the exact request the
// service saw. It says plainly when it skips: no archive, or no qemu-aarch64 with an arm64 C
// library (Debian: qemu-user libc6-arm64-cross libstdc++6-arm64-cross libatomic1-arm64-cross).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { tempDir, track } from '../helpers/cleanup.js';
import { cleanEnv, outcome, ROOT } from '../helpers/cli.js';
import { patient } from '../helpers/patience.js';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const archive = join(ROOT, 'release', `checkin-${version}-linux-arm64.tar.gz`);
const sysroot = process.env.QEMU_LD_PREFIX || '/usr/aarch64-linux-gnu';

function why(): string | undefined {
  if (process.arch === 'arm64') return 'this machine is arm64: the binary runs without qemu (test/cli with CHECKIN_TEST_BINARY)';
  if (!existsSync(archive)) return `no ${archive} (npm run binary -- --release makes it)`;
  try {
    execFileSync('qemu-aarch64', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no qemu-aarch64 (Debian: apt-get install qemu-user)';
  }
  if (!existsSync(join(sysroot, 'lib', 'ld-linux-aarch64.so.1')))
    return `no arm64 C library in ${sysroot} (Debian: apt-get install libc6-arm64-cross libstdc++6-arm64-cross libatomic1-arm64-cross)`;
  return undefined;
}
const skip = why();
if (skip) console.log(`binary-arm64: skipped, ${skip}`);

/** Runs the arm64 checkin under qemu (bounded: emulation is slow, ~1 s a run). */
async function qemu(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await outcome(
    track(spawn('qemu-aarch64', ['-L', sysroot, bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })),
    `checkin ${args.join(' ')} under qemu`,
    60_000,
  );
  return { code, stdout, stderr };
}

describe.skipIf(skip !== undefined)('the linux-arm64 binary under qemu-user', () => {
  it(
    'prints its version and build, then sends today --json one GET and prints the check-in',
    async () => {
      const dir = tempDir('checkin-arm64-');
      execFileSync('tar', ['xzf', archive, '-C', dir]);
      const bin = join(dir, 'checkin');
      const env = cleanEnv({ PATH: '/usr/bin:/bin' });
      expect(await qemu(bin, ['--version'], env)).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      expect(await qemu(bin, ['version'], env)).toMatchObject({
        code: 0,
        stderr: '',
        stdout: expect.stringMatching(new RegExp(`^checkin ${version} \\(single binary, Node\\.js \\d+\\.\\d+\\.\\d+, linux-arm64\\)\\n$`)),
      });
      const sb = await startSandbox({ rateLimit: false });
      try {
        const r = await qemu(bin, ['today', '--json'], { ...env, CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token });
        expect(r).toMatchObject({ code: 0, stderr: '' });
        const checkIn = JSON.parse(r.stdout) as { date: string };
        expect(checkIn).toMatchObject({ type: 'check-in', person: { name: 'Ada Lovelace' } });
        // One request, as the npm build sends: today's check-in by the date known without asking.
        expect(sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/v2/check-ins/${checkIn.date}`]);
      } finally {
        await sb.close();
      }
    },
    patient(180_000),
  );
});
