// What the tests make and must not leave: temp folders and processes. Helpers and tests make
// temp folders with tempDir() and register what they spawn with track(); test/helpers/setup.ts
// kills what is still running after each test (a failed test included) and removes the folders
// after each file. test/global-setup.ts then checks that the run left nothing in its TMPDIR; a
// home's own temp folder (scratchDir(), cleanEnv's TMPDIR) must be empty by then too.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dirs = new Set<string>();
/** The temp folders given to a checkin as its TMPDIR: what it leaves there is said, not removed unseen. */
const scratch = new Set<string>();

/** A new folder under the temp folder (`prefix` + random), removed after the test file. */
export function tempDir(prefix = 'checkin-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/**
 * A temp folder for a checkin to use as its TMPDIR (cleanEnv gives each home one): what it puts
 * there (the fallback drafts folder, $TMPDIR/checkin-<uid>/drafts) is its home's alone, never seen
 * by another test's checkin. Removed after the test file, and by then it must be empty: what is
 * left is listed and fails the file, as the run's own TMPDIR does (test/global-setup.ts).
 */
export function scratchDir(prefix = 'checkin-tmp-'): string {
  const dir = tempDir(prefix);
  scratch.add(dir);
  return dir;
}

/** Removes every folder tempDir() made, read-only ones (a test's chmod 0500) included; fails naming what a checkin left in its scratchDir(). */
export function removeTempDirs(): void {
  const left = [...scratch].flatMap((dir) => {
    try {
      return readdirSync(dir).map((name) => join(dir, name));
    } catch {
      return []; // removed by its test
    }
  });
  scratch.clear();
  const failed: string[] = [];
  for (const dir of dirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      try {
        writable(dir);
        rmSync(dir, { recursive: true, force: true });
      } catch (err) {
        failed.push(`${dir}: ${(err as Error).message}`);
      }
    }
  }
  dirs.clear();
  if (failed.length > 0) throw new Error(`could not remove the tests' temp folders:\n${failed.join('\n')}`);
  if (left.length > 0)
    throw new Error(
      `a checkin left files in its TMPDIR (test/helpers/cleanup.ts scratchDir(); removed now):\n${left
        .slice(0, 20)
        .map((p) => `  ${p}`)
        .join('\n')}`,
    );
}

function writable(dir: string): void {
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (lstatSync(path).isDirectory()) writable(path);
  }
}

/** A process a test started: something that can be killed and says when it has exited. */
interface Tracked {
  kill(): void;
  exited: Promise<unknown>;
}

const live = new Set<Tracked>();

/** Registers a spawned child: if it is still running when its test ends, it is killed then. */
export function track(child: ChildProcess): ChildProcess {
  // One that never started (no pid: its 'error' is on the way) or has already exited needs nothing.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return child;
  const entry: Tracked = {
    kill: () => child.kill('SIGKILL'),
    exited: new Promise<void>((resolve) => child.once('exit', () => resolve())),
  };
  live.add(entry);
  void entry.exited.then(() => live.delete(entry));
  return child;
}

/** Registers a process by its kill and its exit (a pseudo-terminal's, say). */
export function trackExit(kill: () => void, exited: Promise<unknown>): void {
  const entry: Tracked = { kill, exited };
  live.add(entry);
  void exited.then(
    () => live.delete(entry),
    () => live.delete(entry),
  );
}

/** Kills what the test left running and waits (bounded) for each to exit. */
export async function killTracked(timeoutMs = 5_000): Promise<number> {
  const left = [...live];
  live.clear();
  for (const p of left) {
    try {
      p.kill();
    } catch {
      // already gone
    }
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([Promise.allSettled(left.map((p) => p.exited)), timeout]);
  clearTimeout(timer);
  return left.length;
}

const mounts: string[] = [];

/** Mounts (as root: `mount` with these arguments, the mount point last) and registers the mount point: unmounted after the test, passed or failed. */
export function mountAt(args: string[], at: string): void {
  execFileSync('mount', [...args, at], { stdio: 'pipe' });
  mounts.push(at);
}

/** Unmounts one mount point mountAt() mounted (lazily when still busy). */
export function unmount(at: string): void {
  const i = mounts.lastIndexOf(at);
  if (i >= 0) mounts.splice(i, 1);
  try {
    execFileSync('umount', [at], { stdio: 'pipe' });
  } catch {
    execFileSync('umount', ['-l', at], { stdio: 'pipe' });
  }
}

/** Unmounts what a test mounted and left mounted, the latest first. */
export function unmountAll(): void {
  while (mounts.length > 0) unmount(mounts[mounts.length - 1]!);
}
