// Which checkin is newest, how this one was installed, and — for the single binary installed by
// scripts/install.sh — putting the newer one in its place. Both faces' words come from here:
// `checkin upgrade` (src/commands/upgrade) and the update notice (src/domain/update-notice.ts).
//
// The release location is a folder holding SHA256SUMS and the archives it lists (`npm run release`
// writes both): CHECKIN_RELEASE_URL, else GitHub's latest release. Only https, or http to this
// machine; a redirect is followed only to https (GitHub's downloads are redirected to its storage),
// never from this machine's http to anywhere else and never down to http.
import { isAbsolute, join } from 'node:path';
import { CliError, EXIT, UsageError } from '../errors.js';
import { VERSION } from '../version.js';

export const DEFAULT_RELEASE_URL = 'https://github.com/checkin-cli/checkin-cli/releases/latest/download';
export const NPM_PACKAGE = 'checkin-cli';

/** How this checkin was installed, as far as it can tell from where it runs. */
export type InstallKind = 'npm-global' | 'npx' | 'npm-project' | 'clone' | 'homebrew' | 'deb' | 'scoop' | 'windows-binary' | 'binary';

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
    if (w.platform === 'win32') return /\/scoop\/apps\/checkin\//i.test(exe) ? 'scoop' : 'windows-binary';
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
  signal?: AbortSignal;
}

/**
 * GETs `url` (checked by checkLocation), following at most 5 redirects, each only to https — or,
 * from http on this machine, only to the same origin — and returns the bytes of a 200. Any other
 * answer, a redirect elsewhere, more than maxBytes or more than timeoutMs is an error saying so.
 */
export async function download(url: string, opts: FetchOptions): Promise<Buffer> {
  let current = checkLocation(url, 'The release URL');
  const deadline = Date.now() + opts.timeoutMs;
  for (let hop = 0; hop <= 5; hop++) {
    const answer = await getOnce(current, opts, deadline);
    if (answer.location === undefined) return answer.body!;
    const next = new URL(answer.location, current);
    const sameOrigin = next.origin === current.origin;
    if (!(next.protocol === 'https:' || (current.protocol === 'http:' && sameOrigin))) {
      throw new CliError(`Refused a redirect from ${current.href} to ${next.href}: only to https, or within this machine's http server`);
    }
    current = next;
  }
  throw new CliError(`Too many redirects from ${url}`);
}

async function getOnce(u: URL, opts: FetchOptions, deadline: number): Promise<{ body?: Buffer; location?: string }> {
  const mod = process.getBuiltinModule(u.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http');
  return new Promise((resolve, reject) => {
    const left = Math.max(1, deadline - Date.now());
    const req = mod.get(u, { headers: { 'user-agent': `checkin/${VERSION}` }, signal: opts.signal, timeout: left });
    const timer = setTimeout(() => req.destroy(new CliError(`${u.href} took longer than ${Math.round(opts.timeoutMs / 1000)} s`)), left);
    const done = (f: () => void) => {
      clearTimeout(timer);
      f();
    };
    req.on('timeout', () => req.destroy(new CliError(`${u.href} took longer than ${Math.round(opts.timeoutMs / 1000)} s`)));
    req.on('error', (err) => done(() => reject(err instanceof CliError ? err : new CliError(`Could not download ${u.href}: ${err.message}`))));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        done(() => resolve({ location: res.headers.location }));
        return;
      }
      if (status !== 200) {
        res.resume();
        done(() => reject(new CliError(`${u.href} answered ${status}`)));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) req.destroy(new CliError(`${u.href} is larger than ${opts.maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => done(() => resolve({ body: Buffer.concat(chunks) })));
      res.on('error', (err) => done(() => reject(err instanceof CliError ? err : new CliError(`Could not download ${u.href}: ${err.message}`))));
    });
  });
}

export interface Latest {
  base: string;
  version: string;
  sums: Map<string, string>;
}

/** The release location's SHA256SUMS, and the version its archives are of. */
export async function latestRelease(env: NodeJS.ProcessEnv, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Latest> {
  const base = releaseBase(env);
  const sums = parseSums(
    (await download(`${base}/SHA256SUMS`, { maxBytes: 64 * 1024, timeoutMs: opts.timeoutMs ?? 30_000, signal: opts.signal })).toString('utf8'),
  );
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
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface Upgraded {
  from: string;
  to: string;
  target: string;
  archive: string;
}

/** The folder the binary is in cannot be written (the face says how to go on): nothing was changed. */
export class FolderNotWritable extends CliError {
  constructor(
    readonly dir: string,
    why: string,
  ) {
    super(`Cannot write in ${dir}, where checkin is (${why}): nothing was changed`, EXIT.FAILURE);
  }
}

/**
 * Replaces the binary at `target` with the release's for this platform: downloads the archive the
 * release's SHA256SUMS lists, refuses it unless its SHA-256 is the listed one, unpacks `checkin`
 * beside the target, swaps it in with one rename (a checkin running now keeps its file), runs the
 * new one's --version — and if that does not print the release's version, renames the old one back.
 */
export async function upgradeBinary(u: BinaryUpgrade): Promise<Upgraded> {
  const fs = process.getBuiltinModule('node:fs');
  const { dirname, basename } = process.getBuiltinModule('node:path');
  const { createHash } = process.getBuiltinModule('node:crypto');
  const { execFileSync } = process.getBuiltinModule('node:child_process');
  const name = `checkin-${u.latest.version}-${u.platform}.tar.gz`;
  const want = u.latest.sums.get(name);
  if (!want) throw new CliError(`${u.latest.base}/SHA256SUMS lists no ${name}`);
  const archive = await download(`${u.latest.base}/${name}`, { maxBytes: 512 * 2 ** 20, timeoutMs: u.timeoutMs ?? 300_000, signal: u.signal });
  const got = createHash('sha256').update(archive).digest('hex');
  if (got !== want) throw new CliError(`${name} is not the file the release lists: its SHA-256 is ${got}, SHA256SUMS says ${want}. Nothing was changed.`);
  const dir = dirname(u.target);
  if (!isAbsolute(u.target)) throw new CliError(`The binary's path is not absolute: ${u.target}`);
  let work: string;
  try {
    work = fs.mkdtempSync(join(dir, '.checkin-upgrade-'));
  } catch (err) {
    throw new FolderNotWritable(dir, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
  }
  const backup = join(dir, `.${basename(u.target)}.old.${process.pid}`);
  try {
    fs.writeFileSync(join(work, name), archive, { mode: 0o600 });
    try {
      execFileSync('tar', ['xzf', join(work, name), '-C', work, 'checkin'], { stdio: 'ignore', timeout: 60_000 });
    } catch {
      throw new CliError(`${name} could not be unpacked (it holds no checkin, or tar is missing)`);
    }
    const fresh = join(work, 'checkin');
    const st = fs.lstatSync(fresh);
    if (!st.isFile()) throw new CliError(`${name} holds no checkin program (a link or something else is there)`);
    fs.chmodSync(fresh, 0o755);
    // The old file kept under a second name, then the new one renamed over the first: at every moment
    // the path holds a whole checkin.
    fs.rmSync(backup, { force: true });
    fs.linkSync(u.target, backup);
    fs.renameSync(fresh, u.target);
    let said = '';
    try {
      said = execFileSync(u.target, ['--version'], {
        encoding: 'utf8',
        timeout: 30_000,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CHECKIN_NO_UPDATE_NOTIFIER: '1' },
      }).trim();
    } catch (err) {
      said = `failed (${(err as Error).message.split('\n')[0]})`;
    }
    if (said !== u.latest.version) {
      fs.renameSync(backup, u.target);
      throw new CliError(
        `${said.startsWith('failed') ? `The new checkin did not run: ${said}` : `The new checkin says it is ${JSON.stringify(said)}, not ${u.latest.version}`}. The old one (${VERSION}) is back in ${u.target}.`,
      );
    }
    fs.rmSync(backup, { force: true });
    return { from: VERSION, to: u.latest.version, target: u.target, archive: `${u.latest.base}/${name}` };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(backup, { force: true });
  }
}
