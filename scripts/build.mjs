// Bundles src/ into dist/ with esbuild:
//   dist/checkin.cjs      the whole CLI as one CommonJS script, which bin/checkin.js compiles with
//                         V8's code cache (a run after the first parses nothing);
//   dist/vendor/*.cjs     the big libraries only some runs need (prompts, conf, undici, completion),
//                         each loaded by require() the first time it is used;
//   dist/sandbox.js       the sandbox as an ES module, for the repository's own scripts.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { appendFile, readFile, rm } from 'node:fs/promises';

const root = new URL('..', import.meta.url);

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

/**
 * The libraries kept out of checkin.cjs, and what each vendor file's module.exports is: what the
 * source's `import()` of it expects once esbuild's interop has wrapped it (a package's default
 * export is module.exports itself; named exports are its properties).
 */
const VENDOR = {
  // Only the prompts checkin shows, each from its own package: the @inquirer/prompts index would
  // bring the editor prompt's iconv-lite and chardet too (530 KB of the 605).
  prompts: {
    packages: ['@inquirer/prompts', '@inquirer/core'],  // checkin imports these two names; the file holds what it uses
    contents: [
      "export { default as checkbox } from '@inquirer/checkbox';",
      "export { default as confirm } from '@inquirer/confirm';",
      "export { default as input } from '@inquirer/input';",
      "export { default as password } from '@inquirer/password';",
      "export { default as search } from '@inquirer/search';",
      "export { default as select } from '@inquirer/select';",
      "export { createPrompt, isBackspaceKey, isEnterKey, makeTheme, usePrefix, useKeypress, useState } from '@inquirer/core';",
    ].join('\n'),
  },
  conf: { packages: ['conf'], contents: "module.exports = require('conf').default;" },
  undici: { packages: ['undici'], contents: "module.exports = require('undici');" },
  tab: { packages: ['@bomb.sh/tab/commander'], contents: "module.exports = require('@bomb.sh/tab/commander').default;" },
};

const vendorExternals = {
  name: 'vendor-externals',
  setup(b) {
    for (const [name, { packages }] of Object.entries(VENDOR)) {
      const filter = new RegExp(`^(${packages.map((p) => p.replace(/[/.@]/g, '\\$&')).join('|')})$`);
      b.onResolve({ filter }, () => ({ path: `./vendor/${name}.cjs`, external: true }));
    }
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: new URL('.', root).pathname,
};

await rm(new URL('dist', root), { recursive: true, force: true });
const { version } = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
const define = { __CHECKIN_VERSION__: JSON.stringify(version) };

await Promise.all([
  build({
    ...common,
    entryPoints: { checkin: 'src/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    sourcemap: 'linked',
    // import() becomes require() (inside a promise): checkin.cjs runs as a plain script.
    supported: { 'dynamic-import': false },
    define: { ...define, 'import.meta.url': '__filename' },
    plugins: [lazyChildProcess, vendorExternals],
  }),
  build({
    ...common,
    entryPoints: Object.fromEntries(Object.keys(VENDOR).map((name) => [`vendor/${name}`, `vendor:${name}`])),
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    plugins: [
      {
        name: 'vendor-entries',
        setup(b) {
          b.onResolve({ filter: /^vendor:/ }, (args) => ({ path: args.path.slice('vendor:'.length), namespace: 'vendor' }));
          b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({ contents: VENDOR[args.path].contents, loader: 'js', resolveDir: common.absWorkingDir }));
        },
      },
    ],
  }),
  build({
    ...common,
    entryPoints: { sandbox: 'src/sandbox/server.ts' },
    outdir: 'dist',
    format: 'esm',
    define,
    banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
  }),
]);

// The build's fingerprint (checkin.cjs and the vendor files), last in checkin.cjs: bin/checkin.js
// names its code caches after it, so a cache is never used for other code (V8 itself only compares
// the source's length).
const main = new URL('dist/checkin.cjs', root);
const hash = createHash('sha256');
for (const name of ['checkin.cjs', ...Object.keys(VENDOR).map((v) => `vendor/${v}.cjs`)]) hash.update(await readFile(new URL(`dist/${name}`, root)));
await appendFile(main, `\n//checkin-build:${hash.digest('hex').slice(0, 16)}\n`);
