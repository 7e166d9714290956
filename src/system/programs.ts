// The machine `checkin remind` works on: which OS, where programs are (found on PATH, so tests put
// stand-ins first), and running them — always execFile with an argument array (never a shell),
// always with a time limit.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { shellQuote } from './schedule.js';

export interface Ran {
  /** The exit code; null when the program was killed (its time ran out) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Host {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The user id (launchd's gui/<uid> domain); undefined on Windows. */
  uid: number | undefined;
  /** A program's absolute path on PATH, or undefined when there is none. */
  find(name: string): string | undefined;
  /** Runs a program found with find(), stdin fed `input` (or closed). */
  run(file: string, args: string[], input?: string | Buffer): Promise<Ran>;
  /** The zone this machine's clock is set to (what cron, launchd and Task Scheduler fire in, whatever TZ says), when it can be read. */
  zone?(): string | undefined;
}

/** This machine's zone as /etc/localtime names it (a link into a zoneinfo folder), else /etc/timezone; undefined where neither says (Windows). */
export function machineZone(platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') return undefined;
  const { readlinkSync, readFileSync } = process.getBuiltinModule('node:fs');
  try {
    const m = /zoneinfo\/(.+)$/.exec(readlinkSync('/etc/localtime'));
    if (m) return m[1];
  } catch {
    // not a link (a copy of the zone's file), or missing
  }
  try {
    return readFileSync('/etc/timezone', 'utf8').trim().split('\n')[0] || undefined;
  } catch {
    return undefined;
  }
}

/** How long one scheduler command may take before it is stopped. */
export const COMMAND_TIMEOUT_MS = 20_000;

export function findProgram(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  // Only absolute folders: a relative one would find a program in whatever folder this runs in.
  for (const dir of (env.PATH ?? '').split(platform === 'win32' ? ';' : delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const ext of exts) {
      const file = join(dir, name + ext);
      try {
        if (!statSync(file).isFile()) continue;
        if (platform !== 'win32') accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not there, or not runnable
      }
    }
  }
  return undefined;
}

export function runProgram(file: string, args: string[], env: NodeJS.ProcessEnv, input?: string | Buffer, timeoutMs = COMMAND_TIMEOUT_MS): Promise<Ran> {
  return new Promise((resolve) => {
    const child = process
      .getBuiltinModule('node:child_process')
      .execFile(
        file,
        args,
        { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024, windowsHide: true, encoding: 'utf8' },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
          resolve({ code, stdout, stderr: stderr || (err && code === null ? `${err.message}\n` : '') });
        },
      );
    child.stdin?.on('error', () => undefined); // a program that does not read its input
    child.stdin?.end(input);
  });
}

export function systemHost(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Host {
  return {
    platform,
    env,
    uid: process.getuid?.(),
    find: (name) => findProgram(name, env, platform),
    run: (file, args, input) => runProgram(file, args, env, input),
    zone: () => machineZone(platform),
  };
}

/** A command as the user could type it (for --dry-run and messages): words with spaces quoted. */
export function showCommand(file: string, args: string[]): string {
  return [file, ...args].map(shellQuote).join(' ');
}
