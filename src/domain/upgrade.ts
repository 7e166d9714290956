// Which checkin is newest, how this one was installed, and — for the single binary installed by
// scripts/install.sh — putting the newer one in its place. Both faces' words come from here:
// `checkin upgrade` (src/commands/upgrade) and the update notice (src/domain/update-notice.ts).
//
// The release location is a folder holding SHA256SUMS and the archives it lists (`npm run release`
// writes both): CHECKIN_RELEASE_URL, else GitHub's latest release. Only https, or http to this
// machine; a redirect is followed only to https (GitHub's downloads are redirected to its storage),
// never from this machine's http to anywhere else and never down to http.
import { isAbsolute, join } from 'node:path';
import { reason } from '../api/errors.js';
import { unreached, type Unreached } from '../api/unreached.js';
import { nodeTransport, TIMEOUT_CODE, TOO_BIG_CODE, type TransportError } from '../api/transport.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { VERSION } from '../version.js';

export const DEFAULT_RELEASE_URL = 'https://github.com/checkin-cli/checkin-cli/releases/latest/download';
export const NPM_PACKAGE = 'checkin-cli';
/** checkin's identifier in winget (its manifests are written by scripts/release.mjs, which reads it here). */
export const WINGET_ID = 'CheckinCli.Checkin';

/** How this checkin was installed, as far as it can tell from where it runs. */
export type InstallKind = 'npm-global' | 'npx' | 'npm-project' | 'clone' | 'homebrew' | 'deb' | 'scoop' | 'winget' | 'windows-binary' | 'binary';

export interface Where {
  /** 'binary' (the single executable) or 'npm' (Node running the package's bundle). */
  build: 'binary' | 'npm';
  platform: NodeJS.Platform;
  /** The running program: the binary itself, or Node for the npm build. */
  execPath: string;
  /** For the npm build, the real path of the script Node runs (bin/checkin.js). */
  script?: string;
  /** Whether dpkg lists `path` as a file of the installed checkin package. */
  dpkgOwns: (path: string) => boolean;
}

/** Reads how this checkin was installed from where its files are. */
export function installKind(w: Where): InstallKind {
  const slash = (p: string) => p.replace(/\\/g, '/');
  if (w.build === 'binary') {
    const exe = slash(w.execPath);
    if (w.platform === 'win32') {
      if (/\/scoop\/apps\/checkin\//i.test(exe)) return 'scoop';
      // winget's portable packages: <LOCALAPPDATA>\Microsoft\WinGet\Packages\<id>_<source>\ (per user) or
      // <Program Files>\WinGet\Packages\… (per machine), and the command's link in …\WinGet\Links.
      if (/\/WinGet\/(Packages|Links)\//i.test(exe)) return 'winget';
      return 'windows-binary';
    }
    if (w.platform === 'linux' && w.dpkgOwns(w.execPath)) return 'deb';
    return 'binary';
  }
  const script = slash(w.script ?? '');
  if (/\/_npx\//.test(script)) return 'npx';
  if (/\/Cellar\/checkin\/|\/homebrew\/.*\/checkin\/[^/]+\/libexec\//i.test(script)) return 'homebrew';
  if (!/\/node_modules\/checkin-cli\//.test(script)) return 'clone';
  // A global install: <prefix>/lib/node_modules (Unix) or <prefix>/node_modules (Windows), not inside a project's.
  if (/\/lib\/node_modules\/checkin-cli\/|\/npm\/node_modules\/checkin-cli\//i.test(script) && !/\/node_modules\/.*\/node_modules\/checkin-cli\//.test(script))
    return 'npm-global';
  return 'npm-project';
}

/** The release location: CHECKIN_RELEASE_URL (checked) or GitHub's latest release, without a trailing slash. */
export function releaseBase(env: NodeJS.ProcessEnv): string {
  const url = (env.CHECKIN_RELEASE_URL || DEFAULT_RELEASE_URL).replace(/\/+$/, '');
  checkLocation(url, 'CHECKIN_RELEASE_URL');
  return url;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Throws unless `url` is https, or http to this machine: SHA256SUMS is only as honest as the channel it came by. */
export function checkLocation(url: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${what} is not a URL: ${url}`);
  }
  if (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname))) return u;
  throw new UsageError(
    `${what} must be https:// (or http:// to this machine): ${url}`,
    'A checksum fetched over plain http proves nothing: the same man in the middle can change both.',
  );
}

/** The platform part of a release archive's name for this machine (linux-x64…), or undefined where none is built. */
export function platformName(platform: NodeJS.Platform, arch: string): string | undefined {
  if (platform === 'linux' && (arch === 'x64' || arch === 'arm64')) return `linux-${arch}`;
  if (platform === 'win32' && arch === 'x64') return 'win-x64';
  return undefined;
}

/** SHA256SUMS as name → sum (lines `<64 hex>  <plain file name>`; others ignored). */
export function parseSums(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) [ *]([A-Za-z0-9._+-]+)$/.exec(line.trim());
    if (m && !m[2]!.startsWith('.')) out.set(m[2]!, m[1]!);
  }
  return out;
}

/** The version the release's archives are of (from their names), or undefined when it names none. */
export function releaseVersion(sums: Map<string, string>): string | undefined {
  for (const name of sums.keys()) {
    const m = /^checkin-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)-(?:linux|win)-[a-z0-9]+\.(?:tar\.gz|zip)$/.exec(name);
    if (m) return m[1];
  }
  return undefined;
}

/** Whether version `a` is newer than `b` (semver order: numbers, then a release above its pre-releases). */
export function isNewer(a: string, b: string): boolean {
  const parse = (v: string) => {
    const [main, pre] = v.split('-', 2) as [string, string | undefined];
    return { nums: main.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if ((x.nums[i] ?? 0) !== (y.nums[i] ?? 0)) return (x.nums[i] ?? 0) > (y.nums[i] ?? 0);
  if (x.pre === y.pre) return false;
  if (x.pre === undefined) return true;
  if (y.pre === undefined) return false;
  return x.pre > y.pre;
}

export interface FetchOptions {
  /** Most bytes read before giving up. */
  maxBytes: number;
  /** Whole bound on the request, answer included. */
  timeoutMs: number;
  /** The environment whose proxy settings (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) are honoured, as for every request. */
  env?: NodeJS.ProcessEnv;
}

/**
 * GETs `url` (checked by checkLocation) through checkin's transport (src/api/transport.ts: the proxy
 * settings honoured), following at most 5 redirects, each only to https — or, from http on this
 * machine, only to the same origin — and gives the body of a 200 to `sink` as it comes (never held
 * whole). Any other answer, a redirect elsewhere, more than maxBytes (refused before a byte is read
 * when the answer says its length) or more than timeoutMs is an error saying so.
 */
export async function downloadTo(url: string, opts: FetchOptions, sink: (chunk: Buffer) => void): Promise<void> {
  let current = checkLocation(url, 'The release URL');
  const transport = nodeTransport(opts.env ?? {});
  const deadline = Date.now() + opts.timeoutMs;
  try {
    for (let hop = 0; hop <= 5; hop++) {
      const u = current;
      const left = deadline - Date.now();
      if (left <= 0) throw downloadError(Object.assign(new Error('deadline'), { code: TIMEOUT_CODE }), u, opts);
      const answer = await transport
        .send({
          method: 'GET',
          url: u.href,
          headers: { 'user-agent': `checkin/${VERSION}` },
          timeoutMs: left,
          maxBodyBytes: opts.maxBytes,
          sink: (status, headers) => {
            if (status !== 200) return undefined;
            const length = Number(headers['content-length']);
            if (length > opts.maxBytes) throw new TooLarge(u.href, opts.maxBytes, length);
            return sink;
          },
        })
        .catch((err: unknown) => {
          throw downloadError(err, u, opts);
        });
      const location = answer.headers.location;
      if ([301, 302, 303, 307, 308].includes(answer.status) && typeof location === 'string') {
        const next = new URL(location, u);
        const sameOrigin = next.origin === u.origin;
        if (!(next.protocol === 'https:' || (u.protocol === 'http:' && sameOrigin))) {
          throw new CliError(`Refused a redirect from ${u.href} to ${next.href}: only to https, or within this machine's http server`);
        }
        current = next;
        continue;
      }
      if (answer.status !== 200) throw new CliError(`GET ${u.href}: ${answer.status} ${reason(answer.status)}`);
      return;
    }
    throw new CliError(`Too many redirects from ${url}`);
  } finally {
    await transport.close();
  }
}

/** downloadTo for something small (SHA256SUMS): its bytes. */
export async function download(url: string, opts: FetchOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await downloadTo(url, opts, (c) => chunks.push(c));
  return Buffer.concat(chunks);
}

class TooLarge extends CliError {
  constructor(href: string, max: number, length?: number) {
    super(`${href} is larger than checkin accepts (${length !== undefined ? `${mib(length)}, ` : ''}at most ${mib(max)}): nothing was changed`);
  }
}
const mib = (n: number) => `${Math.round(n / 2 ** 20)} MiB`;

/** What to do when the release could not be reached, by what kept it (unreached.ts). */
const UNREACHED_HINTS: Record<Unreached['why'], string> = {
  timeout: 'The release location may be down or unreachable; try again later.',
  'plain-http': 'Check CHECKIN_RELEASE_URL: a release folder on this machine is http://127.0.0.1:…, any other is https://.',
  certificate: 'If your network inspects TLS with its own certificate authority, point NODE_EXTRA_CA_CERTS at its certificate.',
  proxy: 'Check HTTPS_PROXY / HTTP_PROXY (or leave this host out with NO_PROXY).',
  'nothing-listens': 'Check CHECKIN_RELEASE_URL: nothing serves the release there.',
  network: 'Check your network connection (or a proxy in HTTPS_PROXY).',
};

/** A failed GET in the words every request of checkin's is said in (`GET <url>: cannot resolve github.com`), with what to do. */
function downloadError(err: unknown, u: URL, opts: FetchOptions): CliError {
  if (err instanceof CliError) return err;
  const e = err as TransportError;
  if (e.code === TOO_BIG_CODE) return new TooLarge(u.href, opts.maxBytes);
  const said = unreached(e, u.href, opts.env ?? {}, opts.timeoutMs);
  return new CliError(`GET ${u.href}: ${said.words}`, EXIT.FAILURE, UNREACHED_HINTS[said.why]);
}

export interface Latest {
  base: string;
  version: string;
  sums: Map<string, string>;
}

/** The release location's SHA256SUMS, and the version its archives are of. */
export async function latestRelease(env: NodeJS.ProcessEnv, opts: { timeoutMs?: number } = {}): Promise<Latest> {
  const base = releaseBase(env);
  const sums = parseSums((await download(`${base}/SHA256SUMS`, { maxBytes: 64 * 1024, timeoutMs: opts.timeoutMs ?? 30_000, env })).toString('utf8'));
  const version = releaseVersion(sums);
  if (!version) throw new CliError(`${base}/SHA256SUMS lists no checkin archive`);
  return { base, version, sums };
}

/** What a person runs to upgrade an install checkin does not replace itself (undefined for the install.sh binary, which it does). */
export function upgradeCommand(kind: InstallKind, version: string, platform: string | undefined): string | undefined {
  const arch = platform === 'linux-arm64' ? 'arm64' : 'amd64';
  switch (kind) {
    case 'npm-global':
      return `npm install -g ${NPM_PACKAGE}@latest`;
    case 'npx':
      return `npx ${NPM_PACKAGE}@latest (npx runs the version it has cached until told @latest)`;
    case 'npm-project':
      return `npm install ${NPM_PACKAGE}@latest (in the project that has it)`;
    case 'clone':
      return 'git pull && npm ci (in the clone checkin runs from)';
    case 'homebrew':
      return 'brew upgrade checkin';
    case 'deb':
      return `download checkin_${version}_${arch}.deb from the release, then: sudo apt install ./checkin_${version}_${arch}.deb`;
    case 'scoop':
      return 'scoop update checkin';
    case 'winget':
      return `winget upgrade ${WINGET_ID}`;
    case 'windows-binary':
      return `download checkin-${version}-win-x64.zip from the release and put its checkin.exe in place of this one`;
    case 'binary':
      return undefined;
  }
}

export interface BinaryUpgrade {
  /** The running binary (its real path): the file replaced. */
  target: string;
  latest: Latest;
  /** linux-x64 or linux-arm64. */
  platform: string;
  /** The environment: the proxy settings for the download, and the new binary's self-check runs in it. */
  env: NodeJS.ProcessEnv;
  /** The whole download's bound (default 300 s). */
  timeoutMs?: number;
  /** The largest archive taken (default ARCHIVE_MAX_BYTES). */
  maxArchiveBytes?: number;
  /** The running program's file (`/proc/self/exe`): a 0.1.0 leftover is not put back over the one that runs. */
  running?: string;
  /** Called once the upgrade holds its lock, with what stops it now (see Stop). */
  onStart?: (stop: () => Stopped) => void;
  /** What an earlier upgrade left and this one put right (see Tidied). */
  onTidied?: (t: Tidied) => void;
}

export interface Upgraded {
  from: string;
  to: string;
  target: string;
  archive: string;
}

/** The release archive's bound: the binary's archive is ~50 MiB; a larger one is refused as it comes. */
export const ARCHIVE_MAX_BYTES = 256 * 2 ** 20;
/** The unpacked binary's bound (it is ~155 MiB). */
const BINARY_MAX_BYTES = 512 * 2 ** 20;
/** A lock not renewed for this long is taken over (its holder is stopped, or in another pid namespace and gone). */
const LEASE_MS = 120_000;
const RENEW_MS = 10_000;

/** The folder the binary is in cannot be written (the face says how to go on): nothing was changed. */
export class FolderNotWritable extends CliError {
  constructor(
    readonly dir: string,
    why: string,
  ) {
    super(`Cannot write in ${dir}, where checkin is (${why}): nothing was changed`, EXIT.FAILURE);
  }
}

/** Another `checkin upgrade` holds the lock on this binary's folder: nothing was changed. */
export class UpgradeRunning extends CliError {
  constructor(
    readonly pid: number,
    target: string,
  ) {
    super(`Another checkin upgrade (pid ${pid}) is replacing ${target} now: nothing was changed by this one`, EXIT.FAILURE);
  }
}

/** What stopping an upgrade left: 'unchanged' (the old binary, work files removed) or 'upgraded' (the new one was already in place). */
export type Stopped = 'unchanged' | 'upgraded';

/** What an upgrade found left by one that was stopped: files removed, and whether the old binary was put back. */
export interface Tidied {
  removed: string[];
  /** A 0.1.0 upgrade stopped with an unchecked binary in place: the one it replaced is back. */
  restored: boolean;
}

/** The names an upgrade uses beside `target`. */
export function upgradeFiles(target: string): {
  dir: string;
  lock: string;
  work: (pid: number) => string;
  isWork: (name: string) => boolean;
  isAside: (name: string) => boolean;
  old: RegExp;
} {
  const { dirname, basename } = process.getBuiltinModule('node:path');
  const dir = dirname(target);
  const base = basename(target);
  const esc = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    dir,
    lock: join(dir, `.${base}.upgrade.lock`),
    work: (pid) => join(dir, `.${base}-upgrade-${pid}`),
    // This version's work folders and 0.1.0's (mkdtemp's `.checkin-upgrade-XXXXXX`).
    isWork: (name) => name.startsWith(`.${base}-upgrade-`),
    // The lock being made, or a stale one moved aside to be taken over (takeLock), left if that run was killed there.
    isAside: (name) => name.startsWith(`.${base}.upgrade.lock.`),
    // 0.1.0 kept the old binary under this name while the new one ran its check.
    old: new RegExp(`^\\.${esc}\\.old\\.(\\d+)$`),
  };
}

interface Lock {
  path: string;
  token: string;
  release(): void;
  /** Whether the lock file is still this upgrade's (not taken over as stale). */
  held(): boolean;
}

function pidNamespace(): string {
  try {
    return process.getBuiltinModule('node:fs').readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

/** Whether `pid` is a live process (of this pid namespace). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dir>/.checkin.upgrade.lock` (made whole, then linked: exclusive as O_EXCL): pid, pid namespace and a token in it, its mtime the
 * lease (renewed every 10 s). A lock whose holder is dead (same pid namespace) or whose lease has run
 * out is taken over; any other is another upgrade running (UpgradeRunning).
 */
function takeLock(target: string): Lock {
  const fs = process.getBuiltinModule('node:fs');
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const { lock: path, dir } = upgradeFiles(target);
  const ns = pidNamespace();
  const token = randomBytes(12).toString('hex');
  const body = `${JSON.stringify({ pid: process.pid, ns, token })}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    // Written whole under a name of this run's, then linked to the lock's name (which fails if it
    // exists): no holder is ever seen half-written, whatever kills it when.
    const mine = `${path}.new.${process.pid}`;
    try {
      fs.writeFileSync(mine, body, { mode: 0o600, flag: 'w' });
    } catch (err) {
      throw new FolderNotWritable(dir, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
    }
    try {
      fs.linkSync(mine, path);
    } catch (err) {
      fs.rmSync(mine, { force: true });
      const code = (err as NodeJS.ErrnoException).code;
      // ENOENT: this run's half-made lock removed by a holder tidying (tidy), in the moment between.
      if (code === 'ENOENT') continue;
      if (code !== 'EEXIST') throw new FolderNotWritable(dir, code ?? (err as Error).message);
      const held = readLock(path);
      if (held === undefined) continue; // gone meanwhile
      const dead = (held.ns !== '' && held.ns === ns && !alive(held.pid)) || Date.now() - held.mtimeMs > LEASE_MS;
      if (!dead) throw new UpgradeRunning(held.pid, target);
      // Taken over: moved aside under this run's own name first, so that two runs taking over the same
      // stale lock cannot remove each other's new one.
      const aside = `${path}.stale.${process.pid}`;
      try {
        fs.renameSync(path, aside);
      } catch {
        continue;
      }
      const moved = readLock(aside);
      if (moved && moved.token !== held.token) {
        // Another run took it over and made its own between our read and our rename: give it back.
        try {
          fs.linkSync(aside, path);
        } catch {
          // it has one again already
        }
        fs.rmSync(aside, { force: true });
        throw new UpgradeRunning(moved.pid, target);
      }
      fs.rmSync(aside, { force: true });
      continue;
    }
    fs.rmSync(mine, { force: true });
    const renew = setInterval(() => {
      try {
        const now = new Date();
        fs.utimesSync(path, now, now);
      } catch {
        // gone: held() says so before the swap
      }
    }, RENEW_MS);
    renew.unref();
    return {
      path,
      token,
      held: () => readLock(path)?.token === token,
      release() {
        clearInterval(renew);
        if (readLock(path)?.token === token) fs.rmSync(path, { force: true });
      },
    };
  }
  throw new UpgradeRunning(readLock(path)?.pid ?? 0, target);
}

function readLock(path: string): { pid: number; ns: string; token: string; mtimeMs: number } | undefined {
  const fs = process.getBuiltinModule('node:fs');
  try {
    const st = fs.lstatSync(path);
    const text = st.isFile() && st.size < 4096 ? fs.readFileSync(path, 'utf8') : '';
    const v = JSON.parse(text) as { pid?: unknown; ns?: unknown; token?: unknown };
    return {
      pid: typeof v.pid === 'number' ? v.pid : 0,
      ns: typeof v.ns === 'string' ? v.ns : '',
      token: typeof v.token === 'string' ? v.token : '',
      mtimeMs: st.mtimeMs,
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // Unreadable or half-written (a holder killed between open and write): only its lease counts.
    try {
      return { pid: 0, ns: '', token: '', mtimeMs: fs.lstatSync(path).mtimeMs };
    } catch {
      return undefined;
    }
  }
}

/**
 * Puts right what a stopped upgrade left beside `target` (called holding the lock): this version's
 * work folders are removed (the target was never touched by them); 0.1.0's `.checkin.old.<pid>`,
 * whose holder is dead, is the binary it replaced — put back over an unchecked new one, unless the
 * one in place is the same file or the one running now (which proves it runs), then removed.
 */
function tidy(target: string, running: string | undefined): Tidied {
  const fs = process.getBuiltinModule('node:fs');
  const f = upgradeFiles(target);
  const out: Tidied = { removed: [], restored: false };
  let names: string[];
  try {
    names = fs.readdirSync(f.dir);
  } catch {
    return out;
  }
  const ino = (p: string) => {
    try {
      const st = fs.statSync(p);
      return `${st.dev}:${st.ino}`;
    } catch {
      return undefined;
    }
  };
  for (const name of names) {
    const path = join(f.dir, name);
    const old = f.old.exec(name);
    if (f.isWork(name) || f.isAside(name)) {
      fs.rmSync(path, { recursive: true, force: true });
      out.removed.push(name);
    } else if (old && !alive(Number(old[1]))) {
      const now = ino(target);
      if (now === undefined || (now !== ino(path) && (running === undefined || now !== ino(running)))) {
        fs.renameSync(path, target);
        out.restored = true;
      } else fs.rmSync(path, { force: true });
      out.removed.push(name);
    }
  }
  return out;
}

/**
 * Tidies what a stopped upgrade left beside `target`, when no upgrade is running (the daily
 * `upgrade --record` and `checkin upgrade` itself call it); undefined when one is, or when the
 * folder cannot be written.
 */
export function tidyUpgrade(target: string, running?: string): Tidied | undefined {
  // Nothing written (not even the lock) unless something is there to put right.
  const f = upgradeFiles(target);
  let names: string[];
  try {
    names = process.getBuiltinModule('node:fs').readdirSync(f.dir);
  } catch {
    return undefined;
  }
  if (!names.some((n) => f.isWork(n) || f.isAside(n) || f.old.test(n) || n === process.getBuiltinModule('node:path').basename(f.lock)))
    return { removed: [], restored: false };
  let lock: Lock;
  try {
    lock = takeLock(target);
  } catch {
    return undefined;
  }
  try {
    return tidy(target, running);
  } finally {
    lock.release();
  }
}

/**
 * Replaces the binary at `target` with the release's for this platform, in one verified rename:
 * under a lock on the target's folder (a second upgrade is refused: UpgradeRunning), in a work folder
 * beside the target, the archive SHA256SUMS lists is streamed to disk while hashed (bounded, never
 * held whole) and refused unless its SHA-256 is the listed one; its `checkin` is unpacked there
 * (bounded) and run there (`--version` must print the release's version); only then is it renamed
 * over the target — one rename, so the path holds the old binary or the new, checked one, whatever
 * stops the run and whenever. A checkin running now keeps its file. What a stopped run leaves (its
 * work folder, the lock) is removed by the next one, before it starts.
 */
export async function upgradeBinary(u: BinaryUpgrade): Promise<Upgraded> {
  const fs = process.getBuiltinModule('node:fs');
  const { createHash } = process.getBuiltinModule('node:crypto');
  const name = `checkin-${u.latest.version}-${u.platform}.tar.gz`;
  const want = u.latest.sums.get(name);
  if (!want) throw new CliError(`${u.latest.base}/SHA256SUMS lists no ${name}`);
  if (!isAbsolute(u.target)) throw new CliError(`The binary's path is not absolute: ${u.target}`);
  const files = upgradeFiles(u.target);
  const lock = takeLock(u.target);
  const work = files.work(process.pid);
  const children = new Set<import('node:child_process').ChildProcess>();
  let swapped = false;
  let stopped = false;
  const cleanUp = () => {
    for (const c of children) c.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
    lock.release();
  };
  u.onStart?.(() => {
    // Synchronous, from a signal handler: nothing is between two steps of a rename.
    stopped = true;
    cleanUp();
    return swapped ? 'upgraded' : 'unchanged';
  });
  try {
    const tidied = tidy(u.target, u.running);
    if (tidied.removed.length > 0) u.onTidied?.(tidied);
    try {
      fs.mkdirSync(work, { mode: 0o700 });
    } catch (err) {
      throw new FolderNotWritable(files.dir, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
    }
    // 1. The archive, streamed to disk while hashed.
    const archive = join(work, name);
    const hash = createHash('sha256');
    const fd = fs.openSync(archive, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
    try {
      await downloadTo(
        `${u.latest.base}/${name}`,
        { maxBytes: u.maxArchiveBytes ?? ARCHIVE_MAX_BYTES, timeoutMs: u.timeoutMs ?? 300_000, env: u.env },
        (chunk) => {
          hash.update(chunk);
          fs.writeSync(fd, chunk);
        },
      );
    } finally {
      fs.closeSync(fd);
    }
    const got = hash.digest('hex');
    if (got !== want) throw new CliError(`${name} is not the file the release lists: its SHA-256 is ${got}, SHA256SUMS says ${want}. Nothing was changed.`);
    // 2. Its checkin, unpacked in the work folder.
    const fresh = join(work, 'checkin');
    await unpack(archive, fresh, name, children);
    fs.rmSync(archive, { force: true });
    // 3. Run there, before anything moves.
    const said = await selfCheck(fresh, u.env, children);
    if (said !== u.latest.version) {
      throw new CliError(
        `${said.startsWith('failed') ? `The new checkin did not run: ${said}` : `The new checkin says it is ${JSON.stringify(said)}, not ${u.latest.version}`}. Nothing was changed: checkin ${VERSION} is still in ${u.target}.`,
      );
    }
    // 4. One rename over the target, if this run still holds the lock (a stopped one's was taken over).
    if (stopped) throw new CliError('Stopped: nothing was changed');
    if (!lock.held()) throw new UpgradeRunning(readLock(files.lock)?.pid ?? 0, u.target);
    try {
      fs.renameSync(fresh, u.target);
    } catch (err) {
      throw new FolderNotWritable(files.dir, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
    }
    swapped = true;
    syncFolder(files.dir);
    return { from: VERSION, to: u.latest.version, target: u.target, archive: `${u.latest.base}/${name}` };
  } finally {
    if (!stopped) cleanUp();
  }
}

/** Makes the rename durable: the folder's entry on disk (where the system allows a folder to be synced). */
function syncFolder(dir: string): void {
  const fs = process.getBuiltinModule('node:fs');
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // not on every system
  }
}

/** `tar xzf archive -O checkin` into `dest` (0755, synced), at most BINARY_MAX_BYTES, within 60 s. */
async function unpack(archive: string, dest: string, name: string, children: Set<import('node:child_process').ChildProcess>): Promise<void> {
  const fs = process.getBuiltinModule('node:fs');
  const { spawn } = process.getBuiltinModule('node:child_process');
  const fd = fs.openSync(dest, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o700);
  try {
    await new Promise<void>((resolve, reject) => {
      const tar = spawn('tar', ['xzf', archive, '-O', 'checkin'], { stdio: ['ignore', 'pipe', 'ignore'] });
      children.add(tar);
      let size = 0;
      let failed: CliError | undefined;
      const timer = setTimeout(() => {
        failed = new CliError(`${name} took longer than 60 s to unpack`);
        tar.kill('SIGKILL');
      }, 60_000);
      tar.stdout.on('data', (c: Buffer) => {
        if (failed) return;
        size += c.length;
        if (size > BINARY_MAX_BYTES) {
          failed = new CliError(`${name} holds a checkin larger than ${mib(BINARY_MAX_BYTES)}: nothing was changed`);
          tar.kill('SIGKILL');
          return;
        }
        try {
          fs.writeSync(fd, c);
        } catch (err) {
          failed = new CliError(`Could not write the new checkin beside the old one: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
          tar.kill('SIGKILL');
        }
      });
      tar.on('error', () => {
        failed ??= new CliError(`${name} could not be unpacked (tar is missing)`);
      });
      tar.on('close', (code) => {
        clearTimeout(timer);
        children.delete(tar);
        if (failed) reject(failed);
        else if (code !== 0 || size === 0) reject(new CliError(`${name} could not be unpacked (it holds no checkin)`));
        else resolve();
      });
    });
    fs.fchmodSync(fd, 0o755);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The new binary's `--version`, trimmed (at most 4 KB read, within 30 s), or `failed (…)`. */
async function selfCheck(bin: string, env: NodeJS.ProcessEnv, children: Set<import('node:child_process').ChildProcess>): Promise<string> {
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise<string>((resolve) => {
    const child = spawn(bin, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...env, CHECKIN_NO_UPDATE_NOTIFIER: '1' } });
    children.add(child);
    let out = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, 30_000);
    child.stdout.on('data', (c: Buffer) => {
      if (out.length < 4096) out += c.toString('utf8');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      children.delete(child);
      resolve(`failed (${(err as NodeJS.ErrnoException).code ?? err.message})`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (timedOut) resolve('failed (no answer within 30 s)');
      else if (code === 0) resolve(out.trim());
      else resolve(`failed (${signal ? `killed by ${signal}` : `exit ${code}`})`);
    });
  });
}
