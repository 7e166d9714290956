#!/usr/bin/env node
// Starts checkin (dist/checkin.cjs). On Node >= 22.1 through Node's own compile cache, kept in the
// user's cache folder — only one of the user's own that no one else can write: a cache there runs
// as the user. Without one (Node 20, another's folder) it simply runs without.
'use strict';
const { existsSync, mkdirSync, statSync } = require('node:fs');
const { enableCompileCache } = require('node:module');
const { isAbsolute, join } = require('node:path');

/** $XDG_CACHE_HOME/checkin or ~/.cache/checkin, made 0700; nothing if it is not this user's alone. */
function cacheDir() {
  const { XDG_CACHE_HOME, HOME } = process.env;
  const base = [XDG_CACHE_HOME, HOME && join(HOME, '.cache')].find((d) => d && isAbsolute(d));
  if (!base) return undefined;
  const dir = join(base, 'checkin');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0) return dir;
  } catch {
    // cannot be made or looked at: no cache
  }
  return undefined;
}

const main = join(__dirname, '..', 'dist', 'checkin.cjs');
if (!existsSync(main)) {
  process.stderr.write('checkin is not built yet: run `npm run build` in its folder (npm install does it for you).\n');
  process.exit(1);
}
const dir = enableCompileCache && cacheDir();
if (dir) enableCompileCache(dir);
require(main)
  .run(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
