// What commands are handed: streams, environment, clock and sleep — and lazily built services,
// so `checkin --help` never reads config or builds an HTTP client (gh's cmdutil.Factory).

import { ApiClient } from './api/client.js';
import type { TraceHook } from './api/trace.js';
import { Outbox, type DraftTarget } from './config/outbox-files.js';
import { preferences } from './config/prefs.js';
import { fallbackDraftsDir } from './config/paths.js';
import type { SecretStore } from './config/secrets.js';
import { ConfigStore, normalizeApiUrl, type Resolved } from './config/store.js';
import { sanitizeLine } from './ui/sanitize.js';
import { nearMatches } from './core/match.js';
import { DEFAULT_PROFILE, profileOrigin, type ProfileChoice } from './config/profiles.js';
import { AuthError, terminal, UsageError } from './errors.js';
import type { IdKind } from './core/short-ids.js';
import type { Editor } from './ui/editor.js';
import type { IO } from './ui/io.js';
import { terminalPrompter, type Prompter } from './ui/prompter.js';
import { editText } from './ui/editor.js';
import { formatTrace } from './ui/trace-lines.js';
import { USER_AGENT } from './version.js';

/**
 * What was read of standard input before the command ran, and the answer already given: `checkin
 * mcp`'s first answer, written by bin/checkin.js before the full CLI is loaded (mcp/first.ts). The
 * agent face reads the bytes first, as if they came now, and says nothing twice.
 */
export interface StdinOpening {
  /** The bytes read, as they came. */
  read: Uint8Array;
  /** Standard input ended while they were read. */
  ended: boolean;
  /** The first request's answer, already written: its id, and its line (without the newline). */
  answered?: { id: string | number; line: string };
  /** The profile that answer was given for: the session's, whatever the settings say by the time the server starts. */
  profile?: ProfileChoice;
  /** Writing that answer failed otherwise than by the client going (EPIPE): the error, for the CLI to say (ui/io.ts protocolIO). */
  failed?: unknown;
}

export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** The current instant (tests inject a fixed one). */
  now: () => Date;
  /** Waiting (retries, rate-limit pauses); tests inject one that returns at once. An aborted `signal` ends the wait at once. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  config(): ConfigStore;
  /** The profile this run uses, and where it was named (config/profiles.ts). */
  profile(): ProfileChoice;
  /** --profile, once program.ts has read the command line (before any command's action). */
  profileFlag?: string;
  /** Standard input as read before the command ran (bin/checkin.js, for `checkin mcp`), handed to the one that reads it next. */
  opening?: StdinOpening;
  /** The outbox: every write kept until the service accepted it (config/outbox-files.ts). */
  drafts(): Outbox;
  /** The API client for the resolved URL and token; throws AuthError when there is no token. */
  api(): Promise<ApiClient>;
  /** CHECKIN_DEBUG, as debugFrom reads it; --debug sets `api` too. */
  debug: Debug;
  /** The trace hook an ApiClient is given while debug.api is set (writes each exchange on stderr). */
  onTrace: TraceHook;
  prompter(): Prompter;
  editor(): Editor;
  /** How this face words what to run (the CLI's: commands/flags.ts `CLI_ADVICE`, set by main.ts `run`). */
  advice?: AdviceWords;
  /** Releases what was built (keep-alive sockets), so the process exits at once. */
  close(): Promise<void>;
}

export type { DraftTarget };

/**
 * What to run, in a face's words: the domain says what happened (which target, that something was
 * kept, which kind of id was not found) and the face says what to run. The domain gives these words
 * as advice for a terminal (errors.ts `terminal()`), which the agent face leaves out: under
 * `checkin mcp` the context is still the CLI's, and the agent's own words come from the data (src/mcp).
 */
export interface AdviceWords {
  /** `command` as this run would be run again (the CLI: carrying the profile the person chose by --profile). */
  here(command: string): string;
  /** What sends everything waiting for `target`. */
  resume(target: DraftTarget): string;
  /** What was kept, and that `resume` sends it. */
  kept(resume: string): string;
  /** What sends one kept entry by its id (showing it whole and asking, where the person's yes is needed); `target`, the entry's, where what sends it depends on it. */
  send(id: string, target?: DraftTarget): string;
  /** What drops one kept entry by its id. */
  drop(id: string): string;
  /** What shows one kept entry's words. */
  show(id: string): string;
  /** What lists everything waiting. */
  list(): string;
  /** What opens what waits for `target` in the editor again. */
  edit(target: DraftTarget): string;
  /** What lists ids of `kind` (for an id nothing known starts with). */
  listIds(kind: IdKind): string;
  /** What logs in (stores the service's URL and a token); `how`: with the token in the settings file, or giving the URL. */
  login(how?: 'insecure-storage' | 'api-url'): string;
  /** What runs the checks again. */
  doctor(): string;
  /** What shows one request's exchange with the service. */
  traced(): string;
  /** What installs, runs now, or shows the state of the daily reminder. */
  remind(step: 'install' | 'run' | 'status'): string;
  /** What schedules the notices, shows their schedule, or looks once now (run). */
  notifySchedule(step: 'install' | 'status' | 'run'): string;
  /** What prints an agent's MCP entry for checkin. */
  mcpConfig(agent: string): string;
  /** What installs the Agent Skill (for one agent and scope, over its changes with `force`). */
  skillInstall(place?: { agent: string; scope: string; force: boolean; hooks?: boolean }): string;
  /** What takes checkin's skill and hooks out of one agent's place. */
  skillUninstall(place: { agent: string; scope: string }): string;
  /** `command` (one of these words) run under the profile `profile`: what sends a draft kept under another profile. */
  asProfile(command: string, profile: string): string;
  /** What sets the setting `key` to `value`, and what unsets it. */
  setSetting(key: string, value: string): string;
  unsetSetting(key: string): string;
}

export interface ContextParts {
  io: IO;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  prompter?: Prompter;
  editor?: Editor;
  /** The keychain (tests inject one; default: the OS keychain, loaded when needed). */
  secrets?: () => SecretStore | string;
}

/** What CHECKIN_DEBUG asks for: a word or a list of them (`api,1`). */
export interface Debug {
  /** `api` (or --debug): each HTTP exchange traced on stderr. */
  api: boolean;
  /** `1`: an error's stack after its lines (the CLI's and the MCP server's tool errors alike). */
  stacks: boolean;
}

/** The one reading of CHECKIN_DEBUG, for both faces (the CLI and `checkin mcp`). */
export function debugFrom(env: NodeJS.ProcessEnv): Debug {
  const words = (env.CHECKIN_DEBUG ?? '').split(/[\s,]+/);
  return { api: words.includes('api'), stacks: words.includes('1') };
}

const MAX_TIMEOUT_S = 3600;

/**
 * A header value HTTP can carry: visible Latin-1 and spaces or tabs, nothing else (a newline
 * would end the header; anything past Latin-1 cannot be sent at all).
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function timeoutFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.CHECKIN_TIMEOUT;
  if (raw === undefined || raw === '') return undefined;
  const s = Number(raw);
  // A timer holds at most 2^31 - 1 ms; an hour is more than any request needs.
  if (!Number.isFinite(s) || s < 0.001 || s > MAX_TIMEOUT_S)
    throw new UsageError(`CHECKIN_TIMEOUT must be a number of seconds from 0.001 to ${MAX_TIMEOUT_S}, got "${raw}"`);
  return Math.round(s * 1000);
}

/** The outbox in the state folder; drafts an earlier version kept in the config folder are moved in when it is first read. */
function openOutbox(cfg: ConfigStore, env: NodeJS.ProcessEnv, warn: (m: string) => void): Outbox {
  const legacy = cfg.paths.legacyDrafts;
  return new Outbox(cfg.draftsDir, warn, { ...(legacy && { legacy }), fallback: (opts) => fallbackDraftsDir(env, opts) });
}

/**
 * The token (its value is also the key of what is cached per account) and where it was found, or
 * the AuthError of not being logged in — the one api() throws before any request.
 */
export function loggedInToken(ctx: Pick<Context, 'config'>): Resolved<string> {
  const cfg = ctx.config();
  const foreign = cfg.foreignService();
  if (foreign) throw foreignServiceError(cfg, foreign);
  const token = cfg.token();
  if (token) return token;
  const { name } = cfg.profile;
  // One profile, "default" (everyone before profiles): the words as they were.
  if (name === DEFAULT_PROFILE && cfg.profileNames().every((n) => n === DEFAULT_PROFILE))
    throw new AuthError('Not logged in: no token found', terminal('Run `checkin login`, or set CHECKIN_TOKEN (STEADY_TOKEN works too).'));
  throw new AuthError(
    `Not logged in under the profile ${name} (${profileOrigin(cfg.profile)}): no token found`,
    terminal(`Run \`checkin login --profile ${name}\`, or set CHECKIN_TOKEN (STEADY_TOKEN works too); \`checkin auth status\` lists the profiles.`),
  );
}

/**
 * A stored token asked to go to another service than its own (CHECKIN_API_URL, no CHECKIN_TOKEN):
 * what each is, and what to do — another profile already for that service, a login for it, or a token
 * beside the variable.
 */
export function foreignServiceError(cfg: ConfigStore, foreign: NonNullable<ReturnType<ConfigStore['foreignService']>>): AuthError {
  const named = sanitizeLine(foreign.named);
  const theirs = cfg.profileNames().find((n) => {
    const other = cfg.read(n);
    return (
      n !== foreign.profile && (other.token || other.token_store === 'keychain') && normalizeApiUrl(other.api_url ?? '') === normalizeApiUrl(foreign.named)
    );
  });
  return new AuthError(
    `CHECKIN_API_URL names ${named}, but the token of the profile ${foreign.profile} is for ${sanitizeLine(foreign.own)}: it is sent nowhere else`,
    terminal(
      theirs
        ? `The profile ${theirs} is for ${named}: unset CHECKIN_API_URL and run \`checkin --profile ${theirs} …\`; or set CHECKIN_TOKEN beside CHECKIN_API_URL.`
        : `To use ${named}, log in to it as a profile of its own: \`checkin login --profile <name> --api-url ${named}\`; or set CHECKIN_TOKEN beside CHECKIN_API_URL. Unset CHECKIN_API_URL to use the profile ${foreign.profile}.`,
    ),
  );
}

/** A profile named by --profile or CHECKIN_PROFILE that config.json does not hold: the names it does, the nearest, and what makes it. */
export function unknownProfileError(chosen: ProfileChoice, names: string[]): UsageError {
  const near = nearMatches(chosen.name, names, 1)[0];
  return new UsageError(
    `No profile named ${chosen.name} (from ${profileOrigin(chosen)}); profiles: ${names.length > 0 ? names.join(', ') : 'none yet'}`,
    terminal(`${near !== undefined ? `Did you mean ${near}? ` : ''}\`checkin login --profile ${chosen.name}\` makes it.`),
  );
}

/** The longest one timer can wait: setTimeout takes a signed 32-bit number of ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * setTimeout as a promise, of any length (see MAX_TIMER_MS); an aborted signal ends it at once.
 * Every timer is in `timers`, so that close() can release one a command left behind (a retry's
 * wait under a watch that was quit).
 */
function realSleep(timers: Set<NodeJS.Timeout>) {
  return (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      // A timer set for longer than MAX_TIMER_MS fires after 1 ms (and Node warns): a longer wait is
      // made of several, one after another.
      let left = Number.isNaN(ms) ? 0 : Math.max(0, ms);
      let timer: NodeJS.Timeout;
      const done = () => {
        clearTimeout(timer);
        timers.delete(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const arm = () => {
        const step = Math.min(left, MAX_TIMER_MS);
        left -= step;
        timer = setTimeout(() => {
          timers.delete(timer);
          if (left > 0) arm();
          else done();
        }, step);
        timers.add(timer);
      };
      arm();
      signal?.addEventListener('abort', done, { once: true });
    });
}

export function createContext(parts: ContextParts): Context {
  const { io, env } = parts;
  let config: ConfigStore | undefined;
  let drafts: Outbox | undefined;
  let client: ApiClient | undefined;
  let prompter = parts.prompter;
  let editor = parts.editor;
  const timers = new Set<NodeJS.Timeout>();
  // The sink of what the settings, cache and outbox warn of: each line said once a run, however many
  // reads meet the same unreadable file (the MCP server's run is its process).
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    io.err(`warning: ${message}\n`);
  };

  const ctx: Context = {
    io,
    env,
    now: parts.now ?? (() => new Date()),
    sleep: parts.sleep ?? realSleep(timers),
    debug: debugFrom(env),
    onTrace: (event) => io.err(formatTrace(event), { asIs: true }),
    config: () => (config ??= new ConfigStore(env, warn, parts.secrets, () => ctx.profileFlag, unknownProfileError)),
    profile: () => ctx.config().profile,
    drafts: () => (drafts ??= openOutbox(ctx.config(), env, warn)),
    async api() {
      if (client) return client;
      const cfg = ctx.config();
      const token = loggedInToken(ctx);
      const from = token.name ?? (token.where === 'keychain' ? 'the keychain' : cfg.file);
      if (token.value === '') throw new AuthError(`The token in ${from} is empty`);
      if (!HEADER_VALUE.test(token.value)) {
        throw new AuthError(
          `The token in ${from} cannot be sent: it holds ${/[\r\n]/.test(token.value) ? 'a line break' : 'a character HTTP headers cannot carry'}`,
          'Copy the token again, exactly as the service shows it.',
        );
      }
      const url = cfg.apiUrl();
      const timeoutMs = timeoutFrom(env);
      client = new ApiClient({
        baseUrl: url.value,
        token: token.value,
        env,
        userAgent: USER_AGENT,
        sleep: ctx.sleep,
        now: () => ctx.now().getTime(),
        ...(timeoutMs !== undefined && { timeoutMs }),
        onRetry: ({ delayMs, why }) => io.err(`${why}; retrying in ${(delayMs / 1000).toFixed(delayMs < 1000 ? 1 : 0)} s…\n`),
        onWarning: (message) => io.err(`warning: ${message}\n`),
        // Built in a command's action, after --debug was read: no trace work at all without it.
        ...(ctx.debug.api && { onTrace: ctx.onTrace }),
      });
      return client;
    },
    prompter: () => (prompter ??= terminalPrompter(io)),
    editor: () =>
      (editor ??= {
        edit: async (text, opts) =>
          io.hold(
            editText(text, env, {
              configured: preferences(ctx.config()).editor,
              ...(opts?.file && { file: opts.file }),
              ...(opts?.started && { started: opts.started }),
            }),
          ),
      }),
    async close() {
      // A wait nobody is left to resume (its command has returned) no longer holds the process.
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // What this run held and did not send waits for the next run.
      drafts?.releaseHolds();
      await client?.close();
    },
  };
  return ctx;
}
