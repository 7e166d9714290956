// The quiet update notice: at most once a day, one line on stderr saying a newer checkin is out and
// how to get it. What it knows comes from the previous run: the check (a GET of the release's
// SHA256SUMS, src/domain/upgrade.ts) runs after a command's work, in a detached child of its own
// that the command does not wait for (`checkin upgrade --record`, bounded by the download's 30 s),
// at most once a day, and its answer is kept in the cache folder (update-check.json) for the next run.
// Never in CI or cron, never when stderr is not a terminal, with --json, under `checkin mcp`, with
// CHECKIN_NO_UPDATE_NOTIFIER, NO_UPDATE_NOTIFIER or DO_NOT_TRACK set, or when checkin runs from a
// clone; never for the commands whose output is read by a program. That GET is the only request
// checkin makes but those to the configured service (docs/topics/trust.md says so to the reader).
import { join } from 'node:path';
import { checkinPaths } from '../config/paths.js';
import { VERSION } from '../version.js';
import { isNewer, type InstallKind } from './upgrade.js';
import { commandWord } from '../core/command-word.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Commands that are read by programs or are about versions already: never a notice after them. */
const QUIET_COMMANDS = new Set(['mcp', 'complete', 'completion', 'upgrade', 'version', 'sandbox', 'api', '__complete', 'hook']);

export interface NoticeState {
  /** When the release was last asked (ISO). */
  checkedAt?: string;
  /** The newest version it listed then. */
  latest?: string;
  /** When the notice was last said (ISO). */
  notifiedAt?: string;
}

/**
 * Why this run is quiet (a word for the tests), or undefined when a notice may be said. `install`
 * says how this checkin was installed; it is asked last, since it reads the file system.
 */
export function quietBecause(argv: readonly string[], env: NodeJS.ProcessEnv, stderrIsTTY: boolean, install: () => InstallKind): string | undefined {
  const set = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  if (set(env.CHECKIN_NO_UPDATE_NOTIFIER)) return 'CHECKIN_NO_UPDATE_NOTIFIER';
  // The names other tools honour: npm's update-notifier is off with NO_UPDATE_NOTIFIER at any
  // value; DO_NOT_TRACK=1 (consoledonottrack.com) asks a tool to call nowhere it need not.
  if (env.NO_UPDATE_NOTIFIER) return 'NO_UPDATE_NOTIFIER';
  if (set(env.DO_NOT_TRACK)) return 'DO_NOT_TRACK';
  // CI services set CI (GitHub, GitLab, CircleCI, Travis…); Jenkins BUILD_NUMBER; TeamCity TEAMCITY_VERSION; Azure TF_BUILD.
  if (['CI', 'BUILD_NUMBER', 'RUN_ID', 'TEAMCITY_VERSION', 'TF_BUILD', 'GITHUB_ACTIONS'].some((k) => set(env[k]))) return 'CI';
  // cron and services start without a terminal: this covers them.
  if (!stderrIsTTY) return 'not a terminal';
  if (argv.some((a) => a === '--json' || a.startsWith('--json='))) return '--json';
  const command = commandWord(argv);
  if (command === undefined || argv.includes('--version') || argv.includes('-V')) return 'no command';
  if (QUIET_COMMANDS.has(command)) return command;
  // Run from a clone (not installed): whoever runs it follows the repository, not the releases,
  // and a clone's own runs (the tests, a demo) would each ask.
  if (install() === 'clone') return 'a clone';
  return undefined;
}

export function stateFile(env: NodeJS.ProcessEnv): string {
  return join(checkinPaths(env).cache, 'update-check.json');
}

export function readState(env: NodeJS.ProcessEnv): NoticeState {
  try {
    const raw = JSON.parse(process.getBuiltinModule('node:fs').readFileSync(stateFile(env), 'utf8')) as Record<string, unknown>;
    const str = (k: string) => (typeof raw[k] === 'string' && (raw[k] as string).length < 64 ? (raw[k] as string) : undefined);
    const latest = str('latest');
    return {
      checkedAt: str('checkedAt'),
      latest: latest && /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(latest) ? latest : undefined,
      notifiedAt: str('notifiedAt'),
    };
  } catch {
    return {};
  }
}

export function writeState(env: NodeJS.ProcessEnv, state: NoticeState): void {
  const fs = process.getBuiltinModule('node:fs');
  const file = stateFile(env);
  try {
    fs.mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // A notice is never worth an error.
  }
}

const older = (iso: string | undefined, now: Date) => {
  const t = iso ? Date.parse(iso) : Number.NaN;
  return !(t <= now.getTime() && now.getTime() - t < DAY_MS);
};

export interface NoticeDecision {
  /** The line to say on stderr, if any. */
  line?: string;
  /** Whether the release should be asked again (by a detached child). */
  check: boolean;
  /** The state to keep when a line is said. */
  state: NoticeState;
}

/** What this run says and does, from the kept state and the clock; `upgradeHint` is how this install upgrades. */
export function decide(state: NoticeState, now: Date, upgradeHint: string): NoticeDecision {
  const check = older(state.checkedAt, now);
  if (state.latest && isNewer(state.latest, VERSION) && older(state.notifiedAt, now)) {
    return {
      line: `A newer checkin is out: ${VERSION} → ${state.latest}. To upgrade: ${upgradeHint}`,
      check,
      state: { ...state, notifiedAt: now.toISOString() },
    };
  }
  return { check, state };
}
