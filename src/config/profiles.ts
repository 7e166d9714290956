// Profiles: a person's several accounts, each a name for a service (API URL), its token and the
// settings that belong to that account (team, git_repos, template). Which one a run uses is decided
// here, once: --profile > CHECKIN_PROFILE > the nearest .checkin.json > config.json's "profile"
// (what `checkin auth switch` sets) > "default". A folder's .checkin.json is found as git finds
// .git, walking up from the current folder; it names a profile and the team and template of the
// work in it, and never a secret.
// Only what a run needs is read: the walk is a few lstat calls, done when a profile is first asked for.

import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { readJson } from './files.js';

/** The profile of a config.json made before profiles, and of a run that names none. */
export const DEFAULT_PROFILE = 'default';

/** Where the profile in use was named. */
export type ProfileOrigin = 'flag' | 'env' | 'directory' | 'config' | 'default';

export interface ProfileChoice {
  name: string;
  origin: ProfileOrigin;
  /** The .checkin.json (origin "directory") or config.json (origin "config") that named it. */
  file?: string;
}

/** What a folder's .checkin.json says (the template made absolute, inside the file's folder). */
export interface DirectoryFile {
  file: string;
  dir: string;
  profile?: string;
  team?: string;
  template?: string;
  /** The repositories whose commits prefill "previous" for work in this folder (made absolute). */
  git_repos?: string[];
}

export const DIRECTORY_FILE = '.checkin.json';

/** The keys a .checkin.json may hold. */
const DIRECTORY_KEYS = ['profile', 'team', 'template', 'git_repos'] as const;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `name` when it can name a profile, else a UsageError saying what can. */
export function validProfileName(name: string, from = 'A profile name'): string {
  if (!NAME.test(name))
    throw new UsageError(
      `${from} must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; not ${JSON.stringify(name)}`,
      'For example: checkin login --profile client-a',
    );
  return name;
}

/** A key that looks like it holds a secret: refused in a file that may be shared in a repository. */
const SECRET_KEY = /token|secret|password|api[_-]?key|webhook/i;

/**
 * The nearest .checkin.json at or above `cwd`, read as data. One that another user could have
 * written (owned by someone else than the user or root, or writable by group or others) is not
 * read: a warning says so and the walk stops there, as nothing above it is nearer. A file holding a
 * secret is an error: it names the file and says where a token belongs.
 */
export function findDirectoryFile(cwd: string, warn: (message: string) => void): DirectoryFile | undefined {
  const uid = process.getuid?.();
  for (let dir = resolve(cwd); ;) {
    const file = join(dir, DIRECTORY_FILE);
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st) {
      if (!st.isFile()) {
        warn(`${file} is not a regular file; it is not read`);
        return undefined;
      }
      // Where there are no owners (Windows), the file's folder is the person's own tree.
      if (uid !== undefined && ((st.uid !== uid && st.uid !== 0) || (st.mode & 0o022) !== 0)) {
        warn(
          `${file} is not read: it is ${st.uid !== uid && st.uid !== 0 ? "another user's" : 'writable by others'} (it must be yours or root's, and only its owner may write it)`,
        );
        return undefined;
      }
      return parseDirectoryFile(file, readJson(file, 64 * 1024), warn);
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function parseDirectoryFile(file: string, read: ReturnType<typeof readJson>, warn: (message: string) => void): DirectoryFile | undefined {
  if (read.damaged) {
    warn(`${file} cannot be read (${read.damaged}); going on without it`);
    return undefined;
  }
  const data = read.value;
  const secrets = Object.keys(data).filter((k) => SECRET_KEY.test(k));
  if (secrets.length > 0)
    throw new UsageError(
      `${file} holds ${secrets.map((k) => JSON.stringify(k)).join(', ')}: a folder's .checkin.json is shared with the folder and never holds a secret, so it was not read`,
      'Take it out of that file; a token belongs in `checkin login --profile <name>` (the keychain or your own config file).',
    );
  const dir = dirname(file);
  const out: DirectoryFile = { file, dir };
  for (const key of Object.keys(data)) {
    if (!(DIRECTORY_KEYS as readonly string[]).includes(key)) {
      warn(`${file}: "${key}" is not a key it takes (${DIRECTORY_KEYS.join(', ')}); left out`);
      continue;
    }
    const v = data[key];
    if (key === 'git_repos') {
      // The folders of the work this file is about, relative to its own folder: the folder itself or
      // folders inside it, never one that leads out of it, by its path or its real path (a cloned
      // repository cannot make checkin read the person's other repositories' commit messages).
      const list = typeof v === 'string' ? [v] : v;
      if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p.trim() !== '' && !/[\x00-\x1f\x7f-\x9f]/.test(p))) {
        warn(`${file}: "git_repos" must be a list of folders; left out`);
        continue;
      }
      const kept: string[] = [];
      for (const p of list as string[]) {
        const path = resolve(dir, p);
        if (isAbsolute(p) || !within(dir, path) || !within(realPath(dir), realPath(path)))
          warn(`${file}: "git_repos" takes folders inside ${dir}; ${JSON.stringify(p)} left out`);
        else kept.push(path);
      }
      if (kept.length > 0) out.git_repos = kept;
      continue;
    }
    if (typeof v !== 'string' || v.trim() === '' || /[\x00-\x1f\x7f-\x9f]/.test(v)) {
      warn(`${file}: "${key}" must be one line of text; left out`);
      continue;
    }
    if (key === 'profile') {
      if (!NAME.test(v)) warn(`${file}: "profile" is not a profile name (${JSON.stringify(v)}); left out`);
      else out.profile = v;
    } else if (key === 'team') out.team = v.trim();
    else {
      // The template is the folder's own: a path inside the folder of the file, never one that
      // leads out of it (a cloned repository cannot point at the person's other files).
      // Its real path too: a symbolic link inside the folder that leads out of it is refused as well.
      const path = resolve(dir, v);
      if (isAbsolute(v) || !inside(dir, path) || !inside(realPath(dir), realPath(path))) warn(`${file}: "template" must be a file inside ${dir}; left out`);
      else out.template = path;
    }
  }
  return out;
}

/** A path's real path (symbolic links followed), or the path when it is not there (yet: read as missing, said when used). */
function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Whether `path` is `dir` or below it. */
function within(dir: string, path: string): boolean {
  return relative(dir, path) === '' || inside(dir, path);
}

/** Whether `path` is below `dir` (not `dir` itself, nor anything beside or above it). */
function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** The profile in use, from the flag, the environment, the folder's file and config.json's default, in that order. */
export function chooseProfile(given: {
  flag?: string;
  env: NodeJS.ProcessEnv;
  directory?: () => DirectoryFile | undefined;
  configured?: string;
  configFile: string;
}): ProfileChoice {
  if (given.flag !== undefined) return { name: validProfileName(given.flag, '--profile'), origin: 'flag' };
  const env = given.env.CHECKIN_PROFILE;
  if (env) return { name: validProfileName(env, 'CHECKIN_PROFILE'), origin: 'env' };
  const dir = given.directory?.();
  if (dir?.profile) return { name: dir.profile, origin: 'directory', file: dir.file };
  if (given.configured && NAME.test(given.configured)) return { name: given.configured, origin: 'config', file: given.configFile };
  return { name: DEFAULT_PROFILE, origin: 'default' };
}

/** How the profile's choice is said: "client-a (from CHECKIN_PROFILE)". */
export function profileOrigin(choice: ProfileChoice): string {
  switch (choice.origin) {
    case 'flag':
      return '--profile';
    case 'env':
      return 'CHECKIN_PROFILE';
    case 'directory':
    case 'config':
      return choice.file!;
    case 'default':
      return 'the default';
  }
}

/**
 * The name of the profile in use where a person could mistake it (the yes of a write, the first
 * line of `status`, the wall's title), or undefined where naming it would say nothing: one profile,
 * called "default", chosen by no flag, variable or folder. A person with one account reads what
 * they read before profiles; one with several, or who chose one, always sees which it is.
 */
export function profileToName(choice: ProfileChoice, known: readonly string[]): string | undefined {
  const chosen = choice.origin === 'flag' || choice.origin === 'env' || choice.origin === 'directory';
  const several = known.filter((n) => n !== choice.name).length > 0;
  return chosen || several || choice.name !== DEFAULT_PROFILE ? choice.name : undefined;
}

/** A question asked before a write, naming the profile it writes as when that is worth saying: "Post it (profile client-a)?". */
export function askedAs(question: string, profile: string | undefined): string {
  if (profile === undefined) return question;
  const words = `(profile ${profile})`;
  return question.endsWith('?') ? `${question.slice(0, -1)} ${words}?` : `${question} ${words}`;
}
