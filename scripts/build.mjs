// Bundles src/ into dist/ with esbuild: one entry, lazily-loaded commands split into chunks.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

/**
 * commander requires child_process at load time, for executable subcommands checkin never uses;
 * loading it costs ~3 ms a run. Inside commander it is required on first use instead.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'lazy' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "let cp; module.exports = new Proxy({}, { get: (_, key) => (cp ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await build({
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/server.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
  // The one version string, from package.json.
  define: { __CHECKIN_VERSION__: JSON.stringify(version) },
  plugins: [lazyChildProcess],
  // Bundled CommonJS dependencies may call require(); give the ESM output one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
