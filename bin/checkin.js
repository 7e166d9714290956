#!/usr/bin/env node
// Starts checkin (dist/checkin.cjs) through Node's own compile cache, kept in the user's cache
// folder — only in folders of the user's own that no one else can write: a cache there runs as the
// user. Without one (another's folder) it simply runs without.
'use strict';
// The oldest Node checkin runs on (package.json's engines): an older one is told so, plainly.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`checkin needs Node.js 22.13 or newer (this is ${process.version}); install a newer Node.js (https://nodejs.org) and run it again.\n`);
  process.exit(1);
}
const { existsSync, lstatSync, mkdirSync, readdirSync, statSync } = require('node:fs');
const { enableCompileCache } = require('node:module');
const { isAbsolute, join } = require('node:path');

/** Whether a folder's stat is a folder of this user's that neither group nor others can write. */
const mine = (st) => st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;

/**
 * $XDG_CACHE_HOME/checkin or ~/.cache/checkin (made 0700), and in it a folder checkin makes for
 * this Node (node-<version>-<arch>, 0700), which Node is given: Node writes into a folder of its own
 * inside that one (v24.21.0-x64-<hash>-<uid>/). Nothing unless each is this user's alone: the
 * version's folder no one else can enter, not a symbolic link, and every folder already in it the
 * user's, not a link, that no one else can write.
 */
function cacheDir() {
  const { XDG_CACHE_HOME, HOME } = process.env;
  const base = [XDG_CACHE_HOME, HOME && join(HOME, '.cache')].find((d) => d && isAbsolute(d));
  if (!base) return undefined;
  const dir = join(base, 'checkin');
  const node = join(dir, `node-${process.version}-${process.arch}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!mine(statSync(dir))) return undefined;
    mkdirSync(node, { recursive: true, mode: 0o700 });
    const st = lstatSync(node);
    if (!mine(st) || (st.mode & 0o077) !== 0) return undefined;
    if (readdirSync(node).every((tag) => mine(lstatSync(join(node, tag))))) return node;
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
const dir = cacheDir();
if (dir) {
  // Node makes its folder now, as 0777 less the umask: 0700 here, as checkin's own are.
  const umask = process.umask(0o077);
  enableCompileCache(dir);
  process.umask(umask);
}
const argv = process.argv.slice(2);
// `checkin mcp`: its first answer from a small bundle of its own, before the CLI and the SDK are
// loaded; then the CLI, handed what was read and said (src/mcp/first.ts). Undefined when the
// command line is not one it answers.
const first = argv.includes('mcp') ? require(join(__dirname, '..', 'dist', 'mcp-first.cjs')).answerFirst(argv, process.env, process) : undefined;
// `checkin hook <event>`: answered whole by a small bundle of its own, and the CLI never loaded
// (src/commands/hook/fast.ts). Undefined, nothing read, when the command line is not one it answers.
const hook = first === undefined && argv.includes('hook') ? require(join(__dirname, '..', 'dist', 'hook.cjs')).answerHook(argv, process.env) : undefined;
if (hook)
  hook.then((inputOpen) => {
    // Standard input left open by the host: its read, still waiting, would hold the process.
    if (inputOpen) process.exit(0);
  });
else
  Promise.resolve(first)
    .then((opening) => require(main).run(argv, undefined, opening))
    .then((code) => {
      process.exitCode = code;
    });
