#!/usr/bin/env node
// Runs dist/checkin.cjs (the whole CLI, one script) through V8's code cache: the first run of a
// build compiles it and leaves the compiled code in the user's cache folder; every later run
// loads that instead of parsing and compiling again (about a third of a bare start-up).
// A missing, unreadable, damaged or foreign cache is ignored and written anew; a cache folder
// that cannot be written costs only the saving.
'use strict';
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const dist = join(__dirname, '..', 'dist');
const file = join(dist, 'checkin.cjs');
let source;
try {
  source = readFileSync(file, 'utf8');
} catch (err) {
  if (err.code !== 'ENOENT') throw err;
  process.stderr.write('checkin is not built yet: run `npm run build` in its folder (npm install does it for you).\n');
  process.exit(1);
}

// The build's fingerprint (of checkin.cjs and its vendor files) is the last line of checkin.cjs;
// caches are named after it and the Node that made them, so no other code or V8 ever reads them.
const build = /checkin-build:(\w+)\s*$/.exec(source.slice(-64))?.[1];
const env = process.env;
const cacheHome = env.XDG_CACHE_HOME || (env.HOME && join(env.HOME, '.cache'));
const cacheDir = cacheHome && build && join(cacheHome, 'checkin');
const suffix = `-${process.version}-${process.arch}.bin`;
const compiled = [];

/** Runs one bundled CommonJS file through the code cache; what it exports. */
function run(path, text, name) {
  const cacheFile = cacheDir && join(cacheDir, `code-${build}-${name}${suffix}`);
  let cachedData;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, { filename: path, cachedData });
  compiled.push({ script, cacheFile, cachedData });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, name === 'checkin' ? load : require, mod, path, dirname(path));
  return mod.exports;
}

// The bundle's own require: its vendor files (prompts, conf, undici, completion) sit beside it and
// go through the cache too, the first time one is used; everything else is Node's or installed.
const vendor = new Map();
function load(id) {
  if (!id.startsWith('./vendor/')) return require(id);
  if (!vendor.has(id)) {
    const path = join(dist, id);
    vendor.set(id, run(path, readFileSync(path, 'utf8'), id.slice('./vendor/'.length).replace(/\.cjs$/, '')));
  }
  return vendor.get(id);
}

/** After the run (so that what it compiled is in): the caches that were missing or refused. */
function saveCaches() {
  const stale = compiled.filter((c) => c.cacheFile && (!c.cachedData || c.script.cachedDataRejected));
  if (stale.length === 0) return;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    for (const { script, cacheFile } of stale) {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, cacheFile);
    }
    // Caches of other builds and other Nodes are of no more use.
    for (const name of readdirSync(cacheDir)) {
      if (/^code-.*\.bin$/.test(name) && !(name.startsWith(`code-${build}-`) && name.endsWith(suffix))) rmSync(join(cacheDir, name), { force: true });
    }
  } catch {
    // A read-only or full disk: the next run compiles again, nothing else changes.
  }
}

run(file, source, 'checkin')
  .run(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
    saveCaches();
  });
