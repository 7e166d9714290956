// What the instruction benches share (scripts/bench-startup-instructions.mjs, bench-binary-instructions.mjs):
// a child run to its end, and a callgrind file's count less V8's search for a random hash-seed prime
// at start (`HashSeed::InitializeRoots`, 6–28 M a run at random: else its noise is larger than the gaps).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs argv in `cwd` with exactly `env` (stdin: `input`, or nothing); resolves to its stdout, rejects on a non-zero exit. */
export function run(argv, env, cwd, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { env, cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin.end(input);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${argv.join(' ')} exited ${code}: ${err}`))));
  });
}

/** A callgrind file's instructions: { total, seed (HashSeed::InitializeRoots, inclusive), net }. */
export function instructions(file, text = readFileSync(file, 'utf8')) {
  const total = Number(/^(?:summary|totals): (\d+)/m.exec(text)[1]);
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const line = annotated.split('\n').find((l) => /HashSeed::InitializeRoots/.test(l));
  const seed = line ? Number(line.trim().split(/\s+/)[0].replace(/,/g, '')) : 0;
  return { total, seed, net: total - seed };
}

/** A home of its own in `dir` (made), logged in to the sandbox `sb` by its token: nothing of this shell's but PATH. */
export function homeEnv(dir, sb) {
  mkdirSync(dir);
  return {
    PATH: process.env.PATH,
    HOME: dir,
    CHECKIN_CONFIG_DIR: join(dir, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    CHECKIN_API_URL: sb.url,
    CHECKIN_TOKEN: sb.token,
    LANG: 'C.UTF-8',
  };
}
