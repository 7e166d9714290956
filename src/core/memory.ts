// Memory for long runs (list --all over thousands of check-ins): V8 grows its young generation
// when many objects survive a scavenge — here the pages still in flight and the ids seen — up to
// 16 MiB a semi-space, which peak RSS then shows (≈70 MiB at 20,000 check-ins). Pages are
// short-lived, so the starting size serves as well: growth is turned off for the rest of the run
// (≈58 MiB, same time). The flag is read each time V8 would grow the space; if a Node ever
// refuses it, the run goes on as before.

export function keepYoungGenerationSmall(): void {
  try {
    (process.getBuiltinModule('node:v8') as typeof import('node:v8')).setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    // only a saving lost
  }
}

let gc: (() => void) | undefined;

/**
 * A full collection, for when the run is idle anyway (a rate-limit pause): what the pages before
 * left in the old generation is freed before the next window's pages come in, instead of V8
 * growing the heap to put off the work (peak RSS at 20,000 check-ins with limits on: 62 → 57–59 MiB).
 */
export function collectGarbage(): void {
  try {
    if (!gc) {
      (process.getBuiltinModule('node:v8') as typeof import('node:v8')).setFlagsFromString('--expose-gc');
      gc = (process.getBuiltinModule('node:vm') as typeof import('node:vm')).runInNewContext('gc') as () => void;
    }
    gc();
  } catch {
    // only a saving lost
  }
}
