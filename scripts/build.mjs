// npm run build: src/ bundled with esbuild, one plain call per file.
//
//   dist/checkin.cjs     the CLI (src/main.ts), one CommonJS file that bin/checkin.js requires. Every
//                        package is inside. What src reaches only through `await import()` (a built-in,
//                        a package, a file of ours) is set up only when that import() runs: esbuild
//                        turns import() into require() (`dynamic-import: false`), nothing else.
//   dist/mcp-server.cjs  `checkin mcp`'s server (src/mcp/server.ts) with the MCP SDK and zod, which
//                        src/commands/mcp/mcp.ts requires when that command runs.
//   dist/sandbox.js      the sandbox as an ES module, for the repository's scripts and tests.
//
// CHECKIN_BUILD_PLAIN=1 leaves the code unminified, to read a profile (CONTRIBUTING.md, "Start-up").
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const root = new URL('..', import.meta.url);
await rm(new URL('dist', root), { recursive: true, force: true });
const { version } = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22.13',
  minify: process.env.CHECKIN_BUILD_PLAIN !== '1',
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: new URL('.', root).pathname,
  outdir: 'dist',
  define: { __CHECKIN_VERSION__: JSON.stringify(version) },
};
const cjs = {
  ...common,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  supported: { 'dynamic-import': false },
  // import.meta.url (ours, and packages written as ES modules) is this file's URL.
  define: { ...common.define, 'import.meta.url': '__importMetaUrl' },
  banner: { js: 'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};

await Promise.all([
  build({ ...cjs, entryPoints: { checkin: 'src/main.ts' }, sourcemap: 'linked' }),
  build({ ...cjs, entryPoints: { 'mcp-server': 'src/mcp/server.ts' } }),
  // The CommonJS packages inside (commander) require Node's own modules.
  build({
    ...common,
    format: 'esm',
    entryPoints: { sandbox: 'src/sandbox/server.ts' },
    banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
  }),
]);
