#!/usr/bin/env node
// Runs dist/checkin.cjs (the whole CLI, one script) through V8's code cache: the first run of a
// build compiles it and leaves the compiled code in the user's cache folder; every later run
// loads that instead of parsing and compiling again (about a third of a bare start-up).
// A missing, unreadable, damaged or foreign cache is ignored and written anew; a cache folder
// that cannot be written costs only the saving.
'use strict';
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
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

// The build's fingerprint is the last line of checkin.cjs; the cache is named after it and the Node
// that made it, so no other code or V8 ever reads it.
const build = /checkin-build:(\w+)\s*$/.exec(source.slice(-64))?.[1];
const env = process.env;
const cacheDir = (env.XDG_CACHE_HOME || (env.HOME && join(env.HOME, '.cache'))) && join(env.XDG_CACHE_HOME || join(env.HOME, '.cache'), 'checkin');
const cacheName = build && `code-${build}-${process.version}-${process.arch}.bin`;
const cacheFile = cacheDir && cacheName && join(cacheDir, cacheName);
let cachedData;
try {
  if (cacheFile) cachedData = readFileSync(cacheFile);
} catch {
  // none yet
}

const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
// The bundle's own require: its vendor files sit beside it; everything else is Node's or installed.
const load = (id) => require(id.startsWith('./') ? join(dist, id) : id);
const mod = { exports: {} };
script.runInThisContext()(mod.exports, load, mod, file, dist);

/** After the run (so that what it compiled is in), when there was no usable cache. */
function saveCache() {
  if (!cacheFile || (cachedData && !script.cachedDataRejected)) return;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, cacheFile);
    // Caches of other builds and other Nodes are of no more use.
    for (const name of readdirSync(cacheDir)) if (/^code-.*\.bin$/.test(name) && name !== cacheName) rmSync(join(cacheDir, name), { force: true });
  } catch {
    // A read-only or full disk: the next run compiles again, nothing else changes.
  }
}

mod.exports.run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  saveCache();
});
