// Bundles src/ into dist/ with esbuild, as ES modules:
//   dist/checkin.js      what every run needs (bin/checkin.js loads it);
//   dist/chunks/*.js     the rest, split where src says `import()`: the prompts, conf, undici, chalk,
//                        completion, the editor… each read only by the runs that get that far (and
//                        the code those share with checkin.js, in chunks of its own);
//   dist/sandbox.js      the sandbox, for the repository's own scripts;
//   dist/mcp-server.js   `checkin mcp`'s server with the MCP SDK, whole: a bundle of its own, so that
//                        no code it shares with checkin.js is split out of checkin.js into chunks
//                        every other command would then load (its copy of that code is its own).
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const root = new URL('..', import.meta.url);
await rm(new URL('dist', root), { recursive: true, force: true });
const { version } = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.18',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: new URL('.', root).pathname,
  outdir: 'dist',
  define: { __CHECKIN_VERSION__: JSON.stringify(version) },
  // The CommonJS packages inside (commander, undici) require Node's own modules.
  banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
};

await Promise.all([
  build({ ...common, entryPoints: { checkin: 'src/main.ts' }, splitting: true, chunkNames: 'chunks/[name]-[hash]', sourcemap: 'linked' }),
  build({ ...common, entryPoints: { sandbox: 'src/sandbox/server.ts' } }),
  build({ ...common, entryPoints: { 'mcp-server': 'src/commands/mcp/server.ts' } }),
]);
