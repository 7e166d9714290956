// What makes two builds of one commit the same bytes, in one place for scripts/binary.mjs and
// scripts/release.mjs: one time for every file in every archive (SOURCE_DATE_EPOCH, else the last
// commit's time), entries in a fixed order, fixed modes and owners, and no name or time in a gzip
// header. scripts/release-compare.mjs checks it: two releases in two folders, compared byte for byte.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** SOURCE_DATE_EPOCH when it is set (reproducible-builds.org's convention), else the last commit's time, in seconds. */
export function sourceDateEpoch(root) {
  const given = process.env.SOURCE_DATE_EPOCH;
  if (given !== undefined && given !== '') {
    if (!/^\d+$/.test(given)) throw new Error(`SOURCE_DATE_EPOCH is not a number of seconds: ${given}`);
    return Number(given);
  }
  const last = execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  if (!/^\d+$/.test(last)) throw new Error('no commit to take the release time from: set SOURCE_DATE_EPOCH');
  return Number(last);
}

/**
 * Gives every file and folder under `dir` (and `dir` itself) the time `epoch` and a fixed mode: 0755
 * for folders and for the paths (relative to `dir`) in `executables`, 0644 for the rest. What umask
 * or the copy gave is not what is published.
 */
export function settle(dir, epoch, executables = []) {
  const walk = (rel) => {
    const path = join(dir, rel);
    const folder = statSync(path).isDirectory();
    if (folder) for (const entry of readdirSync(path)) walk(rel ? `${rel}/${entry}` : entry);
    chmodSync(path, folder || executables.includes(rel) ? 0o755 : 0o644);
    utimesSync(path, epoch, epoch);
  };
  walk('');
}

/**
 * The deflate level of every archive (.tar.gz, .zip, the .deb's data): 6, not 9. On the 123.5 MiB
 * linux-x64 binary, measured: gzip -6 5.8 s of CPU and 44.2 MiB, -9 16.5 s and 43.9 MiB; zip and
 * dpkg-deb -z the same (5.1 s / 15.7 s for dpkg-deb): -9 is three times the work for 0.6 % less.
 */
export const DEFLATE_LEVEL = 6;

/**
 * Runs `cmd` to its end without holding up the rest of the build (the builds run side by side):
 * resolves with what it printed (`stdout`, `stderr`), rejects with that and its exit. `children`, when
 * given, holds the child while it runs (so that a failed build can end the others). `stdio` as spawn's.
 */
export function spawnAsync(cmd, args, { children, ...opts } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    children?.add(child);
    const out = [];
    const err = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr?.on('data', (d) => err.push(d));
    child.on('error', (e) => {
      children?.delete(child);
      reject(e);
    });
    child.on('close', (code, signal) => {
      children?.delete(child);
      const said = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
      if (code === 0) resolve(said);
      else
        reject(Object.assign(new Error(`${cmd} ${args.join(' ')}: ${signal ?? `exit ${code}`}${said.stderr.trim() ? `: ${said.stderr.trim()}` : ''}`), said));
    });
  });
}

/**
 * `names` in `dir` as a .tar.gz at `file`: sorted, owned by root, at `epoch`, gzip without a name or
 * time (tar runs gzip itself: the same bytes as gzip of the .tar, without writing the .tar).
 */
export async function tarGz(file, dir, names, epoch, opts = {}) {
  rmSync(file, { force: true });
  await spawnAsync(
    'tar',
    [
      `--use-compress-program=gzip -n -${DEFLATE_LEVEL}`,
      '--sort=name',
      `--mtime=@${epoch}`,
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '--format=gnu',
      '-cf',
      file,
      '-C',
      dir,
      ...names,
    ],
    opts,
  );
}

/**
 * `names` in `dir` as a .zip at `file`, in that order: Info-ZIP with no extra fields (-X: no uid or
 * times beyond the DOS one) and no folder entries (-D); the DOS time is local time, so zip runs in UTC.
 */
export async function zip(file, dir, names, opts = {}) {
  rmSync(file, { force: true });
  await spawnAsync('zip', ['-q', '-X', '-D', `-${DEFLATE_LEVEL}`, file, ...names], { ...opts, cwd: dir, env: { ...process.env, TZ: 'UTC' } });
}
