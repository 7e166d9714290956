// `checkin version`: checkin's version, which build runs (the npm package, or the single binary
// `npm run binary` makes, with the Node inside it), the Node.js and platform, in one line for a bug
// report (as `gh version`); no request. `--version` still prints the bare number for scripts.
import { Command } from '@commander-js/extra-typings';
import { buildKind } from '../../config/installation.js';
import type { Context } from '../../context.js';
import { VERSION } from '../../version.js';
import type { Run } from '../flags.js';

export type VersionOptions = Record<string, never>;

export function versionCommand(ctx: Context, run: Run<VersionOptions> = runVersion) {
  return new Command('version')
    .description("Print checkin's version, which build it is (npm package or single binary), with the Node.js version and platform")
    .action(() => run(ctx, {}));
}

export async function runVersion(ctx: Context): Promise<void> {
  const build = buildKind() === 'binary' ? 'single binary' : 'npm package';
  ctx.io.out(`checkin ${VERSION} (${build}, Node.js ${process.versions.node}, ${process.platform}-${process.arch})\n`);
}
