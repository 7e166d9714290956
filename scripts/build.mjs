// npm run build: src/ bundled with esbuild, one plain call per file.
//
//   dist/checkin.cjs     the CLI (src/main.ts), one CommonJS file that bin/checkin.js requires. Every
//                        package is inside. What src reaches only through `await import()` (a built-in,
//                        a package, a file of ours) is set up only when that import() runs: esbuild
//                        turns import() into require() (`dynamic-import: false`), nothing else.
//   dist/mcp-server.cjs  `checkin mcp`'s server (src/mcp/server.ts) with the MCP SDK and zod, which
//                        src/commands/mcp/mcp.ts requires when that command runs.
//   dist/mcp-first.cjs   `checkin mcp`'s first answer (src/mcp/first.ts, ~30 KB, no SDK, no commander),
//                        which bin/checkin.js requires before dist/checkin.cjs when the command is mcp.
//   dist/hook.cjs        `checkin hook <event>` whole (src/commands/hook/fast.ts, ~60 KB, no commander),
//                        which bin/checkin.js requires first when the command is hook: the CLI is loaded
//                        only for a command line it leaves to it.
//   dist/help-topics.cjs    `checkin help <topic>`'s text (src/help-topics.ts, ~120 KB), and
//   dist/sandbox-server.cjs `checkin sandbox`'s service (src/sandbox/server.ts): each required only by
//                           its command (installation.ts `ownBundle`), so no other run reads or parses it.
//   dist/sandbox.js      the sandbox as an ES module, for the repository's scripts and tests.
//
// CHECKIN_BUILD_PLAIN=1 leaves the code unminified, to read a profile (CONTRIBUTING.md, "Start-up").
//
// A checkin linked to this folder may run while it builds (`npm test` builds first): the files are
// written in a folder of this run's beside dist/ (.dist-<pid>, at the same depth, so the source map's
// paths hold), then each renamed over its old self — dist/checkin.cjs is never missing nor half
// written. A file the build no longer makes is removed last.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';

const root = new URL('..', import.meta.url);
const out = `.dist-${process.pid}`;
await rm(new URL(out, root), { recursive: true, force: true });
const { version } = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22.13',
  minify: process.env.CHECKIN_BUILD_PLAIN !== '1',
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: new URL('.', root).pathname,
  outdir: out,
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

try {
  await Promise.all([
    build({ ...cjs, entryPoints: { checkin: 'src/main.ts' }, sourcemap: 'linked' }),
    build({ ...cjs, entryPoints: { 'mcp-server': 'src/mcp/server.ts' } }),
    build({ ...cjs, entryPoints: { 'mcp-first': 'src/mcp/first.ts' } }),
    build({ ...cjs, entryPoints: { hook: 'src/commands/hook/fast.ts' } }),
    build({ ...cjs, entryPoints: { 'help-topics': 'src/help-topics.ts' } }),
    build({ ...cjs, entryPoints: { 'sandbox-server': 'src/sandbox/server.ts' } }),
    // The CommonJS packages inside (commander) require Node's own modules.
    build({
      ...common,
      format: 'esm',
      entryPoints: { sandbox: 'src/sandbox/server.ts' },
      banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
    }),
  ]);
  const made = await readdir(new URL(out, root));
  const dist = new URL('dist/', root);
  await mkdir(dist, { recursive: true });
  // The source map first, the file that names it last of its pair; each rename replaces in one step.
  for (const name of made.sort((a, b) => Number(b.endsWith('.map')) - Number(a.endsWith('.map'))))
    await rename(new URL(`${out}/${name}`, root), new URL(name, dist));
  for (const name of await readdir(dist)) if (!made.includes(name)) await rm(new URL(name, dist), { recursive: true, force: true });
} finally {
  await rm(new URL(out, root), { recursive: true, force: true });
}
