// The one harness of the integration tests: a sandbox on a fake clock, and checkin run against it
// in-process (terminal or piped IO, the same clock, a sleep that only moves the clock) or spawned
// as the built binary. Tests assert what the sandbox received and what the user saw.
import { afterEach, beforeEach } from 'vitest';
import { createContext } from '../../src/context.js';
import { localDateKey } from '../../src/core/datekey.js';
import { run } from '../../src/main.js';
import { startSandbox, type RecordedRequest, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import type { Editor } from '../../src/ui/editor.js';
import type { Prompter } from '../../src/ui/prompter.js';
import { cleanEnv, runCli, type CliResult } from './cli.js';
import { bufferIO } from './io.js';

/** A clock that only moves when told to: sleeping moves it (so rate-limit windows pass at once). */
export class FakeClock {
  private t: number;
  /** Every wait asked for, in ms, in order. */
  readonly slept: number[] = [];
  constructor(start: Date) {
    this.t = start.getTime();
  }
  now = (): Date => new Date(this.t);
  sleep = async (ms: number): Promise<void> => {
    this.slept.push(ms);
    this.t += ms;
  };
}

/** A Sunday morning, UTC (tests run with TZ=UTC). */
export const START = new Date('2026-11-22T09:30:00Z');
export const TODAY = localDateKey(START);

export const describeRequest = (r: RecordedRequest) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`;

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  tty?: boolean;
  /** Colour level of the terminal (default none). */
  color?: 0 | 1 | 2 | 3;
  /** Prompts allowed (default: when tty). */
  prompt?: boolean;
  /** Terminal width (default 100). */
  columns?: number;
  /** The accessible mode (default off; the harness's io does not read CHECKIN_ACCESSIBLE). */
  accessible?: boolean;
  /** The keychain (default: none, the 0600 file). */
  secrets?: () => import('../../src/config/secrets.js').SecretStore | string;
  prompter?: Prompter;
  editor?: Editor;
  /** The terminal the run is in (a key, as ui/io.ts's terminalKey gives); null: none. Default: one test terminal. */
  terminal?: string | null;
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface World {
  sb: Sandbox;
  clock: FakeClock;
  env: NodeJS.ProcessEnv;
  configDir: string;
  /** checkin in this process, against the sandbox. */
  cli(args: string[], opts?: RunOptions): Promise<Result>;
  /** The built binary, spawned (real clock: use with a sandbox on the real clock). */
  bin(args: string[], opts?: { env?: Record<string, string | undefined>; input?: string }): Promise<CliResult>;
  /** What the sandbox received, as "METHOD /path?query". */
  sent(): string[];
  forget(): void;
  id(username: string): string;
  team(name: string): string;
}

/** Runs checkin in-process against whatever env names, with the clock's now and sleep. */
export async function runIn(args: string[], env: NodeJS.ProcessEnv, clock: FakeClock, opts: RunOptions = {}): Promise<Result> {
  const io = bufferIO({
    tty: Boolean(opts.tty),
    ...(opts.input !== undefined && { stdin: opts.input }),
    ...(opts.color !== undefined && { color: opts.color }),
    ...(opts.prompt !== undefined && { prompt: opts.prompt }),
    ...(opts.columns !== undefined && { columns: opts.columns }),
    ...(opts.terminal !== undefined && { terminal: opts.terminal }),
    ...(opts.accessible !== undefined && { accessible: opts.accessible }),
  });
  const merged = { ...env };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  const ctx = createContext({
    io,
    env: merged,
    now: clock.now,
    sleep: clock.sleep,
    ...(opts.prompter && { prompter: opts.prompter }),
    ...(opts.editor && { editor: opts.editor }),
    secrets: opts.secrets ?? (() => 'there is no keychain in the tests'),
  });
  const code = await run(args, ctx);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

/** A sandbox (fake clock, limits off unless asked) for each test of the file, and checkin against it. */
export function useWorld(options: Omit<SandboxOptions, 'clock'> = {}, start = START): World {
  const world = {} as World;
  beforeEach(async () => {
    const clock = new FakeClock(start);
    const sb = await startSandbox({ rateLimit: false, ...options, clock: clock.now });
    const env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token });
    Object.assign(world, {
      sb,
      clock,
      env,
      configDir: env.CHECKIN_CONFIG_DIR!,
      cli: (args: string[], opts: RunOptions = {}) => runIn(args, env, clock, opts),
      bin: (args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}) =>
        runCli(args, { env: { ...env, ...opts.env }, ...(opts.input !== undefined && { input: opts.input }) }),
      sent: () => sb.requests.map(describeRequest),
      forget: () => void (sb.requests.length = 0),
      id: (username: string) => sb.service.data.people.find((p) => p.username === username)!.id,
      team: (name: string) => sb.service.data.teams.find((t) => t.name === name)!.id,
    });
  });
  afterEach(async () => {
    await world.sb.close();
  });
  return world;
}

/** A second sandbox for one test (other data or limits), on its own fake clock. */
export async function otherSandbox(options: Omit<SandboxOptions, 'clock'>, start = START) {
  const clock = new FakeClock(start);
  const sb = await startSandbox({ rateLimit: false, ...options, clock: clock.now });
  const env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token });
  return { sb, clock, env, cli: (args: string[], opts: RunOptions = {}) => runIn(args, env, clock, opts) };
}
