// What the tests make and must not leave: temp folders and processes. Helpers and tests make
// temp folders with tempDir() and register what they spawn with track(); test/helpers/setup.ts
// kills what is still running after each test (a failed test included) and removes the folders
// after each file. test/global-setup.ts then checks that the run left nothing in its TMPDIR.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dirs = new Set<string>();

/** A new folder under the temp folder (`prefix` + random), removed after the test file. */
export function tempDir(prefix = 'checkin-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/** Removes every folder tempDir() made, read-only ones (a test's chmod 0500) included. */
export function removeTempDirs(): void {
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
