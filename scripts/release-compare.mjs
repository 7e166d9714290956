// npm run release:compare: is `npm run release` reproducible? Clones this repository's last commit
// into two folders of different paths (and path lengths), runs `npm ci` and `npm run release` in each
// (one after the other; the pinned Node packages come from the machine's cache of them, outside both:
// scripts/binary.mjs), then compares the
// two release/ folders byte for byte and prints a table: each file identical or not, and for one
// that differs, which of its members differ (.tar.gz, .deb's control and data, .zip) and where in
// them. It also looks through every file of every archive, unpacked, for either build folder's path.
// Exit 0 when only the single binaries' blobs differ (said, with their size), else 1.
//
// About 12 minutes on a small, loaded machine (two npm ci and two releases, each with the arm64 binary under qemu): not a
// test of `npm test`, and not of .ci/run's binary pass (which has 600 s); run it by name.
//   npm run release:compare [-- --keep]   (--keep: leave the two folders, and say where)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const top = mkdtempSync(join(tmpdir(), 'checkin-repro-'));
const folders = [join(top, 'a'), join(top, 'second-build-in-a-longer-path')];
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30, ...opts });

// Both clones of one commit, taken before either build: a commit made meanwhile is not compared with its parent.
const commit = run('git', ['rev-parse', 'HEAD'], { cwd: root }).trim();
for (const dir of folders) {
  run('git', ['clone', '-q', '--no-checkout', root, dir]);
  run('git', ['checkout', '-q', commit], { cwd: dir });
}
const seconds = {};
for (const dir of folders) {
  const began = Date.now();
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const built = Date.now();
  run('npm', ['run', '--silent', 'release'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  seconds[dir] = { ci: (built - began) / 1000, release: (Date.now() - built) / 1000 };
  console.error(`${relative(top, dir)}: npm ci ${seconds[dir].ci.toFixed(0)} s, npm run release ${seconds[dir].release.toFixed(0)} s`);
}

/** Every file under `dir`, as relative paths, sorted. */
function files(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/** `archive` unpacked into a new folder (a .deb's control and data too), which is returned. */
function unpack(archive, into) {
  mkdirSync(into, { recursive: true });
  if (archive.endsWith('.tar.gz') || archive.endsWith('.tgz')) run('tar', ['xzf', archive, '-C', into]);
  else if (archive.endsWith('.zip')) run('unzip', ['-q', archive, '-d', into]);
  else if (archive.endsWith('.deb')) {
    run('ar', ['x', archive], { cwd: into });
    for (const part of ['control', 'data']) {
      const member = readdirSync(into).find((f) => f.startsWith(`${part}.tar`));
      mkdirSync(join(into, part));
      run('tar', ['xf', join(into, member), '-C', join(into, part)]);
    }
  }
  return into;
}

/** Where two buffers of one length differ: the bytes and the span. */
function differences(a, b) {
  if (a.length !== b.length) return `sizes ${a.length} and ${b.length} bytes`;
  let count = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i]) {
      count++;
      if (first < 0) first = i;
      last = i;
    }
  return `${count} of ${a.length} bytes differ, between offsets ${first} and ${last} (${((100 * first) / a.length).toFixed(1)}–${((100 * last) / a.length).toFixed(1)} % into the file)`;
}

const [a, b] = folders.map((d) => join(d, 'release'));
const names = files(a);
const namesB = files(b);
const rows = [];
let unexplained = names.join() !== namesB.join();
if (unexplained) rows.push(['(the file lists)', 'differ', `${names.join(', ')} / ${namesB.join(', ')}`]);
const paths = folders.map((d) => Buffer.from(d));
const leaks = [];
const scratch = join(top, 'unpacked');
let deferred = [];
for (const name of names.filter((n) => namesB.includes(n))) {
  const [x, y] = [readFileSync(join(a, name)), readFileSync(join(b, name))];
  const archive = /\.(tar\.gz|tgz|zip|deb)$/.test(name);
  const unpacked = archive ? [unpack(join(a, name), join(scratch, 'a', name)), unpack(join(b, name), join(scratch, 'b', name))] : [a, b];
  // No build folder's path in the file, or in anything inside it.
  for (const [side, dir] of unpacked.entries())
    for (const f of archive ? files(dir) : [name]) {
      const bytes = readFileSync(join(dir, f));
      for (const p of paths) if (bytes.includes(p)) leaks.push(`${name}${archive ? `: ${f}` : ''} (build ${side + 1}) holds ${p}`);
    }
  if (x.equals(y)) {
    rows.push([name, 'identical', `${(x.length / 2 ** 20).toFixed(1)} MiB`]);
    continue;
  }
  if (name === 'SHA256SUMS') {
    // Its lines differ only for the files that differ (each said in its own row).
    const lines = [x, y].map((t) => t.toString('utf8').split('\n'));
    const named = lines[0].filter((l, i) => l !== lines[1][i]).map((l) => l.slice(66));
    rows.push([name, 'differs', `the lines of ${named.join(', ')}`]);
    deferred = named;
    continue;
  }
  if (!archive) {
    unexplained = true;
    rows.push([name, 'DIFFERS', differences(x, y)]);
    continue;
  }
  const inner = [];
  const membersA = files(unpacked[0]);
  if (membersA.join() !== files(unpacked[1]).join()) inner.push('different members');
  for (const m of membersA) {
    const [p, q] = [readFileSync(join(unpacked[0], m)), readFileSync(join(unpacked[1], m))];
    if (p.equals(q) || /^(control|data)\.tar/.test(m)) continue;
    // A binary's start-up snapshot is V8's heap as the build left it: expected to differ (said), nothing else is.
    const binary = /^(checkin|checkin\.exe|data\/usr\/bin\/checkin)$/.test(m);
    if (!binary) unexplained = true;
    inner.push(`${m}: ${differences(p, q)}`);
  }
  rows.push([name, 'differs', inner.join('; ') || 'the archive only (its members are the same)']);
  if (!inner.length) unexplained = true;
}
if (leaks.length) unexplained = true;
// SHA256SUMS may differ only where a file it lists differs in its binary alone.
for (const f of deferred) if (rows.find((r) => r[0] === f)?.[1] !== 'differs') unexplained = true;

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`Two releases of ${commit.slice(0, 7)}, built in ${folders.join(' and ')}:`);
for (const [dir, s] of Object.entries(seconds)) console.log(`  ${relative(top, dir)}: npm ci ${s.ci.toFixed(0)} s, npm run release ${s.release.toFixed(0)} s`);
for (const [name, state, detail] of rows) console.log(`${name.padEnd(width)}  ${state.padEnd(9)}  ${detail}`);
console.log(
  leaks.length ? `A build folder's path inside:\n  ${leaks.join('\n  ')}` : "No file, and no file inside an archive, holds either build folder's path.",
);
if (keep) console.log(`(kept: ${top})`);
else rmSync(top, { recursive: true, force: true });
process.exit(unexplained ? 1 : 0);
