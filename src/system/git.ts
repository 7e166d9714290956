// git as a careful guest. The *previous* suggestion reads `git log` in folders the user works in,
// and a repository's own .git/config is not the user's: it can name programs (a signature
// verifier, a pager, an fsmonitor hook, an external diff, a lazy fetch from a promisor remote).
// Every run here outranks those settings from the command line, where git gives them the last
// word, and runs with --no-optional-locks; the user's system and global config stay theirs.
// Each run is bounded: a deadline that kills git's whole process group (wrappers and their
// children too), and a cap on what is read (a huge subject is cut by git itself).

import type { ChildProcess } from 'node:child_process';

/** One git command may take this long. */
export const GIT_TIMEOUT_MS = 5000;
/** The most read from one git command's output; the lines that fit are kept. */
export const GIT_MAX_BYTES = 512 * 1024;

/**
 * Settings that outrank the repository's: nothing it names runs. Signature checks and their
 * programs off (and any program git would still start is `false`), no pager, no fsmonitor hook,
 * no hooks, no fetching objects from a remote.
 */
const GUEST_CONFIG = [
  'log.showSignature=false',
  'gpg.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'core.pager=cat',
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'protocol.allow=never',
];

/** The options every git command here starts with. */
export const GUEST_ARGS = ['--no-optional-locks', '--no-pager', ...GUEST_CONFIG.flatMap((c) => ['-c', c])];

export type GitResult = { ok: true; out: string; cut: boolean } | { ok: false; why: 'no-git' | 'timeout' | 'failed'; code?: number | null; stderr: string };

export interface GitOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxBytes?: number;
}

/** Process groups still running, killed if checkin exits first (Ctrl-C while git runs). */
const running = new Set<ChildProcess>();
let exitHook = false;

/** Kills git's process group (on Windows, git alone, where it can: a run waited for has ended already). */
function killGroup(child: Pick<ChildProcess, 'pid'> & Partial<Pick<ChildProcess, 'kill'>>): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill?.('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The environment git runs with: the user's, with prompts and pagers off. */
export function guestEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_LAZY_FETCH: '1',
    LC_ALL: 'C',
  };
  // Programs the environment could add to a log run.
  delete out.GIT_EXTERNAL_DIFF;
  delete out.GIT_ASKPASS;
  delete out.SSH_ASKPASS;
  return out;
}

/** How git is started here: as a guest, in a process group of its own (killed whole: killGroup). */
const gitCommand = (dir: string, args: string[], env: NodeJS.ProcessEnv) =>
  ['git', [...GUEST_ARGS, '-C', dir, ...args], { env: guestEnv(env), detached: process.platform !== 'win32' }] as const;

/** What a run that ended comes to: its output (when cut at `maxBytes`, the lines that fit), or its exit code. */
function ended(out: Buffer, maxBytes: number, cut: boolean, code: number | null, stderr: string): GitResult {
  const text = out.subarray(0, maxBytes).toString('utf8');
  if (cut) return { ok: true, out: text.slice(0, text.lastIndexOf('\n') + 1), cut: true };
  if (code === 0) return { ok: true, out: text, cut: false };
  return { ok: false, why: 'failed', code, stderr };
}

/** Runs `git -C dir …args` as a guest (see above). Never throws; says why it failed. */
export async function runGit(dir: string, args: string[], opts: GitOptions): Promise<GitResult> {
  const { spawn } = await import('node:child_process');
  const timeoutMs = opts.timeoutMs ?? GIT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? GIT_MAX_BYTES;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      const [file, argv, options] = gitCommand(dir, args, opts.env);
      child = spawn(file, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      resolve({ ok: false, why: 'failed', stderr: (err as Error).message });
      return;
    }
    running.add(child);
    if (!exitHook) {
      exitHook = true;
      process.once('exit', () => running.forEach(killGroup));
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let cut = false;
    let timedOut = false;
    let stderr = '';
    let settled = false;
    const finish = (result: GitResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      running.delete(child);
      // Whatever git left behind in its group (a wrapper's children) goes with it.
      killGroup(child);
      resolve(result);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      // Done now, not when the pipes close: a process that left the group could hold them open.
      child.stdout!.destroy();
      child.stderr!.destroy();
      finish({ ok: false, why: 'timeout', stderr });
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      if (cut) return;
      if (bytes + d.length > maxBytes) {
        chunks.push(d.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        cut = true;
        killGroup(child);
        return;
      }
      chunks.push(d);
      bytes += d.length;
    });
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString('utf8');
    });
    child.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, why: err.code === 'ENOENT' ? 'no-git' : 'failed', stderr: err.message }));
    child.on('close', (code) => {
      if (timedOut) return finish({ ok: false, why: 'timeout', stderr });
      finish(ended(Buffer.concat(chunks), maxBytes, cut, code, stderr));
    });
  });
}

/**
 * runGit, waited for: no stream is set up for git's output (Node's own buffers; about a fifth of
 * Node's start in instructions less), and nothing else runs meanwhile. For a run that has nothing
 * else to do while git runs (the hooks). The same bounds: at the deadline (or past `maxBytes`) git
 * is killed and its pipes closed, whoever holds them; then its whole group.
 */
export function runGitSync(dir: string, args: string[], opts: GitOptions): GitResult {
  const maxBytes = opts.maxBytes ?? GIT_MAX_BYTES;
  const [file, argv, options] = gitCommand(dir, args, opts.env);
  const r = process.getBuiltinModule('node:child_process').spawnSync(file, argv, {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: opts.timeoutMs ?? GIT_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: maxBytes,
  });
  if (r.pid) killGroup({ pid: r.pid });
  const stderr = r.stderr?.subarray(0, 4096).toString('utf8') ?? '';
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ETIMEDOUT') return { ok: false, why: 'timeout', stderr };
  if (code === 'ENOENT') return { ok: false, why: 'no-git', stderr: r.error!.message };
  if (r.error && code !== 'ENOBUFS') return { ok: false, why: 'failed', stderr: r.error.message };
  return ended(r.stdout, maxBytes, code === 'ENOBUFS', r.status, stderr);
}
