// What makes two builds of one commit the same bytes, in one place for scripts/binary.mjs and
// scripts/release.mjs: one time for every file in every archive (SOURCE_DATE_EPOCH, else the last
// commit's time), entries in a fixed order, fixed modes and owners, and no name or time in a gzip
// header. scripts/release-compare.mjs checks it: two releases in two folders, compared byte for byte.
import { execFileSync } from 'node:child_process';
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

/** `names` in `dir` as a .tar.gz at `file`: sorted, owned by root, at `epoch`, gzip without a name or time. */
export function tarGz(file, dir, names, epoch) {
  const tar = file.replace(/\.gz$/, '');
  rmSync(tar, { force: true });
  rmSync(file, { force: true });
  execFileSync('tar', ['--sort=name', `--mtime=@${epoch}`, '--owner=0', '--group=0', '--numeric-owner', '--format=gnu', '-cf', tar, '-C', dir, ...names], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync('gzip', ['-n', '-6', tar], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * `names` in `dir` as a .zip at `file`, in that order: Info-ZIP with no extra fields (-X: no uid or
 * times beyond the DOS one) and no folder entries (-D); the DOS time is local time, so zip runs in UTC.
 */
export function zip(file, dir, names) {
  rmSync(file, { force: true });
  execFileSync('zip', ['-q', '-X', '-D', '-9', file, ...names], { cwd: dir, env: { ...process.env, TZ: 'UTC' }, stdio: ['ignore', 'ignore', 'inherit'] });
}
