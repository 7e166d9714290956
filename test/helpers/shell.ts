// A real interactive shell (bash, with or without the bash-completion package, zsh or fish) in a
// pseudo-terminal, with checkin's completion installed the way the README says; keys are typed and
// the screen is read back through a headless xterm. Waiting is event-driven and bounded.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { trackExit } from './cleanup.js';
import { patient } from './patience.js';

export type ShellKind = 'bash' | 'bash+bash-completion' | 'zsh' | 'zsh (fpath)' | 'fish';
export const SHELLS: ShellKind[] = ['bash', 'bash+bash-completion', 'zsh', 'zsh (fpath)', 'fish'];

/** Debian's (and most distributions') bash-completion entry point. */
export const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

export function installed(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why a shell cannot be tested here, or undefined when it can. */
export function unavailable(kind: ShellKind): string | undefined {
  if (kind === 'bash+bash-completion' && !existsSync(BASH_COMPLETION)) return `the bash-completion package is not installed (no ${BASH_COMPLETION})`;
  const cmd = kind.split(/[+ ]/)[0]!;
  return installed(cmd) ? undefined : `${cmd} is not installed`;
}

export interface Shell {
  type(keys: string): void;
  text(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Runs `echo SYNC-n` and waits for its output: everything typed before has been handled. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `kind` in `cwd` with `env` (HOME a fresh folder; `checkin` on PATH) and installs the
 * completion: `source <(checkin completion bash|zsh)` as ~/.bashrc and ~/.zshrc would, the zsh
 * script saved as _checkin on $fpath, or the fish script saved in ~/.config/fish/completions.
 */
export async function startShell(kind: ShellKind, env: NodeJS.ProcessEnv, cwd: string, script: string): Promise<Shell> {
  const home = env.HOME!;
  const cols = 200;
  const rows = 50;
  let argv: string[];
  let setup: string;
  if (kind === 'fish') {
    mkdirSync(join(home, '.config', 'fish', 'completions'), { recursive: true });
    writeFileSync(join(home, '.config', 'fish', 'completions', 'checkin.fish'), script);
    writeFileSync(join(home, '.config', 'fish', 'config.fish'), "set -g fish_greeting\nfunction fish_prompt; printf '$ '; end\n");
    argv = ['fish', '-i'];
    // fish keeps its runtime files there (else in the temp folder, as fish.$USER): under this shell's home.
    env = { ...env, XDG_RUNTIME_DIR: join(home, 'run') };
    mkdirSync(join(home, 'run'), { mode: 0o700 });
    setup = '';
  } else if (kind.startsWith('zsh')) {
    argv = ['zsh', '-f', '-i'];
    setup = "PS1='$ '; unsetopt prompt_cr prompt_sp; bindkey -e; ";
    if (kind === 'zsh (fpath)') {
      mkdirSync(join(home, 'zfunc'));
      writeFileSync(join(home, 'zfunc', '_checkin'), script);
      setup += `fpath=(${join(home, 'zfunc')} $fpath); autoload -Uz compinit && compinit -D`;
    } else setup += 'autoload -Uz compinit && compinit -D; source <(checkin completion zsh)';
  } else {
    argv = ['bash', '--norc', '--noprofile', '-i'];
    setup = `${kind === 'bash+bash-completion' ? `source ${BASH_COMPLETION}; ` : ''}source <(checkin completion bash)`;
  }
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
  const proc = pty.spawn(argv[0]!, argv.slice(1), { name: 'xterm', cols, rows, cwd, env: { ...env, PS1: '$ ', TERM: 'xterm' } as Record<string, string> });
  let waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  proc.onData((d) => term.write(d, wake));
  let exited = false;
  const exit = new Promise<void>((resolve) => proc.onExit(() => ((exited = true), resolve())));
  trackExit(() => proc.kill('SIGKILL'), exit); // killed if the test fails before it closes
  const text = () => {
    const b = term.buffer.active;
    return Array.from({ length: b.length }, (_, i) => b.getLine(i)?.translateToString(true) ?? '')
      .join('\n')
      .replace(/\n+$/, '');
  };
  const waitFor = (pattern: RegExp, timeoutMs = patient(15_000)) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${kind} never showed ${pattern} within ${timeoutMs} ms; the screen:\n${text()}`)), timeoutMs);
      const check = () => (pattern.test(text()) ? (clearTimeout(timer), resolve()) : waiters.push(check));
      check();
    });
  let syncs = 0;
  const shell: Shell = {
    type: (keys) => proc.write(keys),
    text,
    waitFor,
    async sync() {
      const n = ++syncs;
      proc.write(`echo SYNC-${n}\r`);
      await waitFor(new RegExp(`^SYNC-${n}$`, 'm'));
    },
    async close() {
      if (!exited) proc.kill('SIGKILL');
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    },
  };
  try {
    await waitFor(/\$ $/);
    if (setup) proc.write(`${setup}\r`);
    await shell.sync();
  } catch (err) {
    await shell.close();
    throw err;
  }
  return shell;
}
