// Once per vitest run, before any test file and after the last one.
//
// 1. The build. Integration tests spawn the built CLI, so it must be the build of the code under
//    test. `npm test` builds just before vitest, so here the build is fresh and nothing is done;
//    `npx vitest run test/x.test.ts` after an edit under src/ would otherwise test the old build,
//    so a missing or stale build is rebuilt (`npm run build`, whatever the build's layout). Stale:
//    a file under src/ or scripts/, or package.json or its lock, newer than everything in dist/.
//    A run of test/unit alone (vitest.unit.config.ts, `npm run test:unit`) runs no built code: no build.
//
// 2. Nothing left behind. The run gets a temp folder of its own as TMPDIR (test workers and every
//    process they start inherit it; cleanEnv() gives each home a folder of its own inside it, whose
//    leftovers fail that test file: cleanup.ts scratchDir()), and at the end it must be empty and no
//    process that carries it (or a folder in it) may still run. What is left is listed, removed or
//    killed, and fails the run (exit code 1). The count is printed either way: .ci/run reads it.
//
// 3. One compile cache for the run. A test's checkin has a home of its own (cleanEnv()), so the
//    cache bin/checkin.js keeps in ~/.cache was written afresh by the first checkin in every home:
//    ~0.1 s of CPU more than a run with a warm cache or none (`status`: 0.29 s against 0.19 s).
//    Node's own NODE_COMPILE_CACHE, a folder here the run removes, is given to them instead: each
//    bundle is written once a Node, and read after, as by a user's second run.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { TestProject } from 'vitest/node';
import { COMPILE_CACHE, ROOT } from './helpers/cli.js';

/**
 * The newest modification time at or under `path` (-Infinity when there is no file), and where.
 * Folders count too: a file removed or renamed changes its folder's time, not its own.
 */
function newest(path: string): { mtime: number; file?: string } {
  if (!existsSync(path)) return { mtime: -Infinity };
  const st = lstatSync(path);
  if (!st.isDirectory()) return { mtime: st.mtimeMs, file: path };
  let best: { mtime: number; file?: string } = { mtime: -Infinity };
  for (const name of readdirSync(path)) {
    const n = newest(join(path, name));
    if (n.mtime > best.mtime) best = n;
  }
  // An empty folder is no build; a non-empty one is as new as its last change.
  return best.file !== undefined && st.mtimeMs > best.mtime ? { mtime: st.mtimeMs, file: path } : best;
}

function ensureBuilt(): void {
  const inputs = ['src', 'scripts', 'package.json', 'package-lock.json'].map((p) => newest(join(ROOT, p)));
  const input = inputs.reduce((a, b) => (b.mtime > a.mtime ? b : a));
  const output = newest(join(ROOT, 'dist'));
  if (output.mtime >= input.mtime) return;
  const why = output.file === undefined ? 'there is no build (dist/ is missing or empty)' : `the build is older than ${relative(ROOT, input.file!)}`;
  console.log(`global-setup: ${why}: npm run build`);
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
}

/** Processes (Linux: /proc) whose environment names `dir` (or a folder in it: a test home's own) as TMPDIR, but this one and its own workers. */
function processesOf(dir: string): Array<{ pid: number; command: string }> {
  if (!existsSync('/proc/self/environ')) return [];
  const marker = `TMPDIR=${dir}`;
  const found: Array<{ pid: number; command: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      if (
        !readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .some((v) => v === marker || v.startsWith(`${marker}/`))
      )
        continue;
      // Field 4 of stat is the parent; the command name (field 2) may hold spaces, so read after its ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) continue; // vitest's own test workers
      found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

function removeAll(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Read-only folders inside (a test's chmod): make them writable, then again.
    const writable = (d: string) => {
      chmodSync(d, 0o700);
      for (const n of readdirSync(d)) if (lstatSync(join(d, n)).isDirectory()) writable(join(d, n));
    };
    writable(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}

export default function setup(project: TestProject): () => void {
  if (!project.config.include.every((glob) => glob.startsWith('test/unit/'))) ensureBuilt();
  const runDir = mkdtempSync(join(tmpdir(), 'checkin-test-run-'));
  for (const key of ['TMPDIR', 'TMP', 'TEMP']) process.env[key] = runDir;
  const compileCache = join(runDir, COMPILE_CACHE);
  mkdirSync(compileCache, { mode: 0o700 });
  process.env.CHECKIN_TEST_COMPILE_CACHE = compileCache;
  // No checkin a test starts, with whatever environment it is given, touches the keychain of whoever runs the suite.
  process.env.CHECKIN_NO_KEYCHAIN = '1';

  return function teardown(): void {
    const processes = processesOf(runDir);
    for (const p of processes) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
    removeAll(compileCache);
    const left = existsSync(runDir) ? readdirSync(runDir) : [];
    console.log(`Left behind by the run: ${left.length} temp folders, ${processes.length} processes (TMPDIR ${runDir})`);
    if (left.length > 0 || processes.length > 0) {
      process.exitCode = 1;
      const lines = [
        ...left.slice(0, 20).map((name) => `  temp: ${join(runDir, name)}`),
        ...(left.length > 20 ? [`  temp: … and ${left.length - 20} more`] : []),
        ...processes.map((p) => `  process ${p.pid} (killed): ${p.command}`),
      ];
      console.error(
        `\nFAIL: the tests must remove every temp folder and process they make (test/helpers/cleanup.ts: tempDir(), track()).\n${lines.join('\n')}\n`,
      );
    }
    removeAll(runDir);
  };
}
