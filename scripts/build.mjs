// Bundles src/ into dist/ with esbuild.
//
//   dist/checkin.cjs        what every run needs, one CommonJS file (bin/checkin.js requires it). Our
//                           own code is all here; what src reaches only through `import()` (the
//                           wizard, the editor, the wall…) is here too, but set up only when that
//                           import() runs.
//   dist/vendor/<pkg>.cjs   each package that only those later paths use (the prompts, chalk, conf,
//                           undici, the completion library): a file of its own, required when first
//                           used. Nobody keeps this list: the build reads it off the import graph
//                           (a package reached from src/main.ts through static imports alone stays
//                           in checkin.cjs; every other one gets its file).
//   dist/sandbox.js         the sandbox as an ES module, for the repository's own scripts and tests;
//   dist/mcp-server.cjs     `checkin mcp`'s server with the MCP SDK, whole: a file of its own.
//
// Why CommonJS for the start: Node's ES-module loader costs a run 8–10 ms more (resolving and linking
// each file, and an ES module's `import … from 'node:fs'` copies every export of the built-in,
// loading what its lazy getters hide); see CONTRIBUTING.md, "Start-up".
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { LAZY_BUILTIN, lazyBuiltins, packageOf, startPackages, vendorFile, vendorPlugin } from './build-rules.mjs';

const root = new URL('..', import.meta.url);
await rm(new URL('dist', root), { recursive: true, force: true });
const { version } = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  minify: process.env.CHECKIN_BUILD_PLAIN !== '1', // unminified for profiling: CONTRIBUTING.md, "Start-up"
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: new URL('.', root).pathname,
  define: { __CHECKIN_VERSION__: JSON.stringify(version) },
};
const esm = {
  ...common,
  format: 'esm',
  outdir: 'dist',
  // The CommonJS packages inside (commander, undici) require Node's own modules.
  banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
};
const cjs = {
  ...common,
  format: 'cjs',
  // import() becomes require(): a file of ours or a built-in then needs no ES-module loader.
  supported: { 'dynamic-import': false },
  // `import.meta.url` (our own mcp.ts and secrets.ts, and packages written as ES modules) is this file's URL.
  define: { ...common.define, 'import.meta.url': '__importMetaUrl' },
  banner: {
    js: [
      'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;',
      LAZY_BUILTIN,
    ].join('\n'),
  },
  plugins: [lazyBuiltins],
};

const start = startPackages((await build({ ...cjs, entryPoints: ['src/main.ts'], write: false, metafile: true, logLevel: 'silent' })).metafile);
const wanted = new Set();
await Promise.all([
  build({ ...cjs, entryPoints: { checkin: 'src/main.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' }, sourcemap: 'linked', plugins: [lazyBuiltins, vendorPlugin((pkg) => !start.has(pkg), './vendor/', wanted)] }),
  build({ ...esm, entryPoints: { sandbox: 'src/sandbox/server.ts' } }),
  build({ ...cjs, entryPoints: { 'mcp-server': 'src/mcp/server.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' } }),
]);
// Each vendor file holds its package and what only it uses; a package that has a vendor file of its
// own is required from there, not copied (one @inquirer/core for every prompt).
const vendorPackages = new Set([...wanted].map(packageOf));
await Promise.all(
  [...wanted].map((spec) =>
    build({ ...cjs, entryPoints: [spec], outfile: `dist/vendor/${vendorFile(spec)}`, plugins: [lazyBuiltins, vendorPlugin((pkg) => pkg !== packageOf(spec) && vendorPackages.has(pkg), './')] }),
  ),
);
