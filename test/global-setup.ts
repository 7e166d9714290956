// Integration tests run the built binary: build it when `vitest` is run on its own.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';

export default function setup(): void {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
}
