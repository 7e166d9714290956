// The rules the build follows (scripts/build.mjs), kept apart so that tests can check them.
import { builtinModules } from 'node:module';

/**
 * A built-in module Node has not loaded yet when our code starts is loaded when first used, not
 * when imported: `import { spawn } from 'node:child_process'` (ours, or commander's require) costs
 * nothing until spawn is read. child_process, fs/promises, os, crypto, tty… each cost 1–4 ms a run.
 * The ones every supported Node (20–26) has loaded before any user code are imported as they are,
 * and so is a built-in that is itself a function (stream, assert, module: a class may extend it),
 * and node:process, which is the process object itself (its methods are called on it).
 */
export const PRELOADED = ['fs', 'path', 'url', 'events', 'util', 'buffer', 'timers', 'querystring', 'async_hooks'];
export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const builtins = new Set(builtinModules);
    b.onResolve({ filter: /^[a-z_:/]+$/ }, ({ path, kind }) => {
      const id = path.replace(/^node:/, '');
      if (kind === 'dynamic-import' || kind === 'entry-point' || !builtins.has(id) || PRELOADED.includes(id)) return undefined;
      if (id === 'process' || typeof process.getBuiltinModule(id) === 'function') return undefined;
      return { path: id, namespace: 'lazy-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => ({
      contents: `module.exports = lazyBuiltin(${JSON.stringify(`node:${path}`)}, ${JSON.stringify(Object.getOwnPropertyNames(process.getBuiltinModule(path)))});`,
      loader: 'js',
    }));
  },
};

/**
 * What bundles using lazyBuiltins start with: the module, got on the first read of one of its
 * values; writes go to it. Its names (an ES module's import copies them, each as a getter) are
 * known without loading it: `keys`, read from the Node that builds.
 */
export const LAZY_BUILTIN = [
  'const lazyBuiltin = (id, keys) => {',
  '  let m;',
  '  const get = () => (m ??= require(id));',
  '  return new Proxy({}, {',
  '    get: (_, k) => (k === "__esModule" ? true : get()[k]),',
  '    set: (_, k, v) => Reflect.set(get(), k, v),',
  '    defineProperty: (_, k, d) => Reflect.defineProperty(get(), k, d),',
  '    deleteProperty: (_, k) => Reflect.deleteProperty(get(), k),',
  '    has: (_, k) => k in get(),',
  '    ownKeys: () => (m ? Reflect.ownKeys(m) : keys),',
  '    getOwnPropertyDescriptor: (_, k) => {',
  '      if (!m && keys.includes(k)) return { configurable: true, enumerable: true, get: () => get()[k] };',
  '      const d = Reflect.getOwnPropertyDescriptor(get(), k);',
  '      return d && { ...d, configurable: true };',
  '    },',
  '  });',
  '};',
].join('\n');

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
const isBare = (spec) => !spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('node:') && !builtinModules.includes(spec);
/** The file a package specifier (subpath included) is built into: dist/vendor/@inquirer+select.cjs. */
export const vendorFile = (spec) => `${spec.replaceAll('/', '+')}.cjs`;

/**
 * The packages start-up needs: those whose files src/main.ts reaches through static imports alone.
 * Read from a build's import graph (`metafile`).
 */
export function startPackages(metafile) {
  const seen = new Set();
  const todo = ['src/main.ts'];
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file) || !metafile.inputs[file]) continue;
    seen.add(file);
    for (const imp of metafile.inputs[file].imports) if (imp.kind !== 'dynamic-import' && !imp.external) todo.push(imp.path);
  }
  return new Set([...seen].map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter(Boolean));
}

/**
 * Sends each bare import of a package `vendored(pkg)` says yes to to its own file in dist/vendor/
 * (`from`: the path from the importing output file to dist/vendor/), and notes the specifier in `wanted`.
 *
 * Through a one-line ES module standing for the package: imported from our code (ES modules of a
 * "type": "module" package), a CommonJS file's default export would be its whole module.exports, as
 * in Node; the vendor files are ES modules turned CommonJS (marked __esModule), read as such here.
 */
export function vendorPlugin(vendored, from, wanted = new Set()) {
  return {
    name: 'vendor',
    setup(b) {
      b.onResolve({ filter: /^vendor:/ }, ({ path }) => ({ path: path.slice('vendor:'.length), external: true }));
      b.onResolve({ filter: /^[^./]/ }, ({ path, kind }) => {
        if (!isBare(path) || kind === 'entry-point' || !vendored(packageOf(path))) return undefined;
        wanted.add(path);
        return { path, namespace: 'vendor' };
      });
      b.onLoad({ filter: /.*/, namespace: 'vendor' }, ({ path }) => {
        const file = JSON.stringify(`vendor:${from}${vendorFile(path)}`);
        return { contents: `export * from ${file};\nexport { default } from ${file};\n`, loader: 'js' };
      });
    },
  };
}
