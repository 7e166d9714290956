// Runs the built CLI (bin/checkin.js) as a user would: a real process, real HTTP.
// CHECKIN_TEST_BINARY=build/checkin runs the single executable (`npm run binary`) instead, with
// no `node` on its PATH, as a person without Node runs it (.ci/run does).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir, tempDir, track } from './cleanup.js';
import { patient } from './patience.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'checkin.js');
/** The single executable the spawned runs use in place of `node bin/checkin.js`, when CHECKIN_TEST_BINARY names one. */
export const BINARY = process.env.CHECKIN_TEST_BINARY ? resolve(ROOT, process.env.CHECKIN_TEST_BINARY) : undefined;

/** The words a scheduler (cron, systemd, launchd) is given to run checkin: node and the script, or the single executable alone. */
export const CLI_WORDS = BINARY ? [BINARY] : [process.execPath, BIN];
/** Those words in a crontab line, as a regular expression's source (paths as \S+). */
export const CLI_WORDS_RE = BINARY ? '\\S+/checkin' : '\\S+ \\S+/bin/checkin\\.js';

const NODE_TOOLS = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);
const linked = new Map<string, string>();
/**
 * PATH without Node: each folder of it that holds a `node` is replaced by a temp folder of links to
 * everything else in it (git, sh and the rest stay; node, npm and npx do not). Made again after each
 * test file, whose temp folders are removed.
 */
function pathWithoutNode(path: string | undefined): string | undefined {
  return path
    ?.split(delimiter)
    .map((dir) => {
      if (!existsSync(join(dir, 'node'))) return dir;
      let links = linked.get(dir);
      if (links === undefined || !existsSync(links)) {
        links = tempDir('checkin-no-node-');
        for (const name of readdirSync(dir)) if (!NODE_TOOLS.has(name)) symlinkSync(join(dir, name), join(links, name));
        linked.set(dir, links);
      }
      return links;
    })
    .join(delimiter);
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A clean environment: no proxies, no tokens or config of the developer's, a fixed zone; HOME a
 * temp folder of its own, and TMPDIR one of its own too, under the run's (test/global-setup.ts):
 * what checkin keeps there (the fallback drafts folder, $TMPDIR/checkin-<uid>/drafts) is this
 * home's alone, never listed or sent by another test's checkin, and what it leaves there is said
 * (cleanup.ts scratchDir()).
 */
/**
 * Under Debian's `faketime` (.ci/run's dated passes), what keeps a child on the clock the test and its
 * sandbox have: libfaketime's preload and its offset, shared by children. Empty otherwise. Passed to
 * every checkin a test starts, and put after `env -i` where a test runs one as cron or systemd would
 * (`FAKED_CLOCK_ARGS`): the machine's clock is the test's, not part of the environment under test.
 */
export const FAKED_CLOCK: Record<string, string> = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => /^(FAKETIME|LD_PRELOAD$)/.test(e[0]) && e[1] !== undefined),
);
export const FAKED_CLOCK_ARGS: string[] = Object.entries(FAKED_CLOCK).map(([k, v]) => `${k}=${v}`);

/** The run's compile cache, in its TMPDIR (test/global-setup.ts), which every checkin started with cleanEnv() shares. */
export const COMPILE_CACHE = 'node-compile-cache';

export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tempDir('checkin-home-'),
    TMPDIR: scratchDir(),
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    // Commits for the *previous* suggestion come from the repositories a test names, never this checkout.
    CHECKIN_GIT_REPOS: '',
    // Output on a pseudo-terminal is printed directly, unless a test names a pager (test/terminal/pager.test.ts).
    CHECKIN_PAGER: '',
    // A spawned checkin never touches the keychain of whoever runs the tests (cli/keychain.test.ts starts its own).
    CHECKIN_NO_KEYCHAIN: '1',
    // No update notice (nor its detached check) on a test's pseudo-terminal: test/cli/update-notice.test.ts lifts it.
    CHECKIN_NO_UPDATE_NOTIFIER: '1',
    // One compile cache for the run (test/global-setup.ts): a fresh home's own would be written by every
    // spawn, ~0.1 s of CPU each. Tests of bin/checkin.js's own cache take it out (compile-cache.test.ts).
    ...(process.env.CHECKIN_TEST_COMPILE_CACHE !== undefined && { NODE_COMPILE_CACHE: process.env.CHECKIN_TEST_COMPILE_CACHE }),
  };
  env.CHECKIN_CONFIG_DIR = join(env.HOME!, 'config');
  Object.assign(env, FAKED_CLOCK);
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** A child's standard streams: a pipe to this test, or a descriptor of its own (a file, /dev/full). */
export type CliStdio = ['pipe', 'pipe' | number, 'pipe' | number];

/**
 * The CLI (`bin`, the checkout's own by default) as a child of `node` (this test's Node by default), in
 * `cwd` (this one by default); the single executable instead when CHECKIN_TEST_BINARY is set and no
 * other `node` or `bin` is asked for. Its streams are pipes to this test unless `stdio` says otherwise.
 */
export function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  { node, bin, cwd, stdio = ['pipe', 'pipe', 'pipe'] }: { node?: string; bin?: string; cwd?: string; stdio?: CliStdio } = {},
): ChildProcess {
  if (BINARY && node === undefined && bin === undefined) {
    return track(spawn(BINARY, args, { env: { ...env, PATH: pathWithoutNode(env.PATH) }, stdio, ...(cwd !== undefined && { cwd }) }));
  }
  return track(spawn(node ?? process.execPath, [bin ?? BIN, ...args], { env, stdio, ...(cwd !== undefined && { cwd }) }));
}

export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; node?: string; bin?: string; cwd?: string } = {},
): Promise<CliResult> {
  const child = spawnCli(args, opts.env ?? cleanEnv(), opts);
  const done = outcome(child, `checkin ${args.join(' ')}`, opts.timeoutMs);
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  else child.stdin!.end();
  return done;
}

/**
 * What a child wrote and how it ended, waited for at most `timeoutMs` (15 s on an idle machine,
 * stretched by the load: test/helpers/patience.ts): past it the child is killed and the wait fails,
 * naming `what` and what it had written.
 */
export function outcome(child: ChildProcess, what: string, timeoutMs = patient(15_000)): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Resolves with the first line of `stream` that matches `re` (within 10 s on an idle machine, stretched by the load). */
export function waitForLine(stream: NodeJS.ReadableStream, re: RegExp, timeoutMs = patient(10_000)): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${re} within ${timeoutMs} ms; got: ${buf}`)), timeoutMs);
    stream.on('data', (d: Buffer | string) => {
      buf += d.toString();
      const m = re.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
  });
}

/** Starts `checkin sandbox` (the built binary) with `args`, and resolves with it and the URL and token of its export line. */
export function startCliSandbox(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = track(
    spawn(process.execPath, [BIN, 'sandbox', '--no-log', ...(args.includes('--port') ? [] : ['--port', '0']), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no export line: ${out} ${err}`)), patient(10_000));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^export CHECKIN_API_URL=(\S+)\nexport CHECKIN_TOKEN=(\S+)\n/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, token: m[2]! });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited ${code}: ${err}`));
    });
  });
}

/** A clean environment (its own HOME) and an empty project folder, with `run` running checkin in that folder. */
export function projectSetup() {
  const env = cleanEnv();
  const home = env.HOME!;
  const project = tempDir('checkin-project-');
  const run = (args: string[]) => runCli(args, { env, cwd: project });
  return { env, home, project, run };
}
