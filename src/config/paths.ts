// Where checkin keeps its files, after the XDG Base Directory conventions (on every OS):
// settings in the config folder, what can be asked of the service again in the cache folder, and
// what must not be lost but is not a setting (drafts, the inbox marker) in the state folder.
// CHECKIN_CONFIG_DIR keeps all three in that one folder, as it always has.
// Only names are made here: nothing is read or written.

import { lstatSync, mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export interface CheckinPaths {
  /** config.json: the API URL, the token (or where it is), git_repos. */
  config: string;
  /** cache.json: what the service said (me, people and teams, goals, today's check-in). */
  cache: string;
  /** drafts/ and state.json (the inbox marker). */
  state: string;
  /** Where earlier versions kept drafts (config/drafts), when that is not the drafts folder now. */
  legacyDrafts?: string;
}

/** The user's home folder: HOME, else the OS's idea of it. */
export function home(env: NodeJS.ProcessEnv): string {
  // node:os only when HOME is unset: it is not otherwise loaded on the way to a request.
  return env.HOME || process.getBuiltinModule('node:os').homedir();
}

/** A path as a setting keeps it (`~` and `~/…` stand for the home folder, so the setting follows HOME), made usable. */
export function inHome(env: NodeJS.ProcessEnv, path: string): string {
  return path === '~' || path.startsWith('~/') ? `${home(env)}${path.slice(1)}` : path;
}

/** $<name>/checkin when it is an absolute path (XDG: a relative one is ignored), else ~/<fallback>/checkin. */
function xdg(env: NodeJS.ProcessEnv, name: 'XDG_CONFIG_HOME' | 'XDG_CACHE_HOME' | 'XDG_STATE_HOME', fallback: string[]): string {
  const base = env[name];
  return base && isAbsolute(base) ? join(base, 'checkin') : join(home(env), ...fallback, 'checkin');
}

export function checkinPaths(env: NodeJS.ProcessEnv): CheckinPaths {
  const one = env.CHECKIN_CONFIG_DIR;
  if (one) return { config: one, cache: one, state: one };
  const config = xdg(env, 'XDG_CONFIG_HOME', ['.config']);
  const state = xdg(env, 'XDG_STATE_HOME', ['.local', 'state']);
  return { config, cache: xdg(env, 'XDG_CACHE_HOME', ['.cache']), state, ...(config !== state && { legacyDrafts: join(config, 'drafts') }) };
}

/**
 * The variables that name these folders, as they are set now: what a process started without this
 * environment (cron) needs to find the same files. HOME is the caller's to add.
 */
export function pathVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  // A relative folder would be cron's own (its working folder is HOME): made absolute here.
  if (env.CHECKIN_CONFIG_DIR) return { CHECKIN_CONFIG_DIR: resolve(env.CHECKIN_CONFIG_DIR) };
  const out: Record<string, string> = {};
  for (const name of ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'] as const) {
    const v = env[name];
    if (v && isAbsolute(v)) out[name] = v;
  }
  return out;
}

/**
 * A private folder under the temp folder ($TMPDIR/checkin-<uid>/drafts) for drafts that cannot be
 * kept where they belong (a read-only home). Undefined when there is none that is this user's alone:
 * it is made 0700, and one that another user made, or others can write, is never used.
 */
export function fallbackDraftsDir(env: NodeJS.ProcessEnv, opts: { create: boolean }): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  // The temp folder of this environment (os.tmpdir() reads the process's own).
  const tmp = [env.TMPDIR, env.TMP, env.TEMP].find((d) => d && isAbsolute(d)) ?? process.getBuiltinModule('node:os').tmpdir();
  const top = join(tmp, `checkin-${uid}`);
  const dir = join(top, 'drafts');
  try {
    // Each level is looked at (not through a symbolic link) before anything is made inside it.
    for (const d of [top, dir]) {
      if (opts.create && !lstatSync(d, { throwIfNoEntry: false })) {
        try {
          mkdirSync(d, { mode: 0o700 });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // made by another run meanwhile: looked at below
        }
      }
      const st = lstatSync(d);
      if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}
