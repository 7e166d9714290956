// The preferences `checkin config get|set|list|unset` keeps, in config.json beside the token (the
// file stays 0600: ConfigStore.update writes it). Each is read where that thing is decided, and an
// environment variable for the same thing still wins:
//   editor     ui/editor.ts       CHECKIN_EDITOR > editor > VISUAL > EDITOR > vi
//   pager      ui/pager.ts        CHECKIN_PAGER > pager > PAGER > less -FRX ("" or "cat": none)
//   team       checkin team       --team > team > all my teams
//   git_repos  the prefill        CHECKIN_GIT_REPOS > git_repos > the current repository
//   template   the prefill        --no-template > template > none (domain/answer-template.ts reads it)
//   color      ui/io.ts           NO_COLOR / FORCE_COLOR > color > whether stdout is a terminal
//   prompt     ui/io.ts           CHECKIN_NO_PROMPT > prompt > whether both ends are a terminal
//   accessible ui/io.ts           CHECKIN_ACCESSIBLE > accessible > off (plain prompts, the wall as lines)
// A value in the file that is not one these take (edited by hand) is left out, as if unset.

import { delimiter, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { PROFILE_KEYS, type ConfigStore } from './store.js';

export interface Preferences {
  editor?: string;
  pager?: string;
  team?: string;
  git_repos?: string[];
  template?: string;
  color?: 'auto' | 'always' | 'never';
  prompt?: 'enabled' | 'disabled';
  accessible?: 'true' | 'false';
}

export type PreferenceKey = keyof Preferences;

interface Spec {
  /** What it sets, for the help. */
  about: string;
  /** The only values it takes, when it is a choice. */
  values?: readonly string[];
  /** Its value from the command line (throws a UsageError saying what it takes). */
  parse(raw: string): string | string[];
  /** Whether a value read from the file is one it takes. */
  valid(value: unknown): boolean;
}

const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

const oneLine = (key: string, raw: string, allowEmpty: boolean): string => {
  if (CONTROL.test(raw)) throw new UsageError(`The ${key} setting must be one line, without control characters`);
  if (!allowEmpty && raw.trim() === '') throw new UsageError(`The ${key} setting cannot be empty`, `To go back to the default: checkin config unset ${key}`);
  return raw.trim();
};

const isLine = (allowEmpty: boolean) => (v: unknown) => typeof v === 'string' && !CONTROL.test(v) && (allowEmpty || v.trim() !== '');

const choice = (key: string, values: readonly string[], about: string): Spec => ({
  about,
  values,
  parse(raw) {
    if (!values.includes(raw))
      throw new UsageError(`The ${key} setting takes ${values.join(', ')}; not ${JSON.stringify(raw)}`, `checkin config set ${key} ${values[0]}`);
    return raw;
  },
  valid: (v) => typeof v === 'string' && values.includes(v),
});

/** A path as a setting keeps it: made absolute (from the current folder), except ~ and ~/…, kept to be read as the home folder when used. */
const settingPath = (p: string): string => (p === '~' || p.startsWith('~/') ? p : resolve(p));

/** The folders of a git_repos value, separated like PATH; relative ones made absolute (~ is kept, and read as the home folder when used). */
function folders(raw: string): string[] {
  return raw
    .split(delimiter)
    .map((d) => d.trim())
    .filter(Boolean)
    .map(settingPath);
}

export const PREFERENCES: Record<PreferenceKey, Spec> = {
  editor: {
    about: 'the editor for answers and comments, e.g. "nano" or "code --wait" (CHECKIN_EDITOR wins; then this; then VISUAL, EDITOR)',
    parse: (raw) => oneLine('editor', raw, false),
    valid: isLine(false),
  },
  pager: {
    about: 'the pager for long output on a terminal, e.g. "less -R" ("" or "cat": none; CHECKIN_PAGER wins; then this; then PAGER)',
    parse: (raw) => oneLine('pager', raw, true),
    valid: isLine(true),
  },
  team: {
    about: 'the team `checkin team` shows when --team is not given (a UUID or a name)',
    parse: (raw) => oneLine('team', raw, false),
    valid: isLine(false),
  },
  git_repos: {
    about: `the git repositories whose commits are offered for *previous*, separated by "${delimiter}" ("" for none; CHECKIN_GIT_REPOS wins; default: the current one)`,
    parse: (raw) => {
      if (CONTROL.test(raw)) throw new UsageError('The git_repos setting must be one line, without control characters');
      return folders(raw);
    },
    valid: (v) => Array.isArray(v) && v.every(isLine(false)),
  },
  template: {
    about:
      "a Markdown file with the editor's ## Previous / ## Intentions / ## Blockers headings and Mood: line, whose text prefills the questions and the editor (never sent unless you send it; --no-template skips it)",
    parse: (raw) => settingPath(oneLine('template', raw, false)),
    valid: isLine(false),
  },
  color: choice('color', ['auto', 'always', 'never'], 'colour in what checkin prints (NO_COLOR and FORCE_COLOR win)'),
  prompt: choice('prompt', ['enabled', 'disabled'], 'whether checkin asks questions on a terminal (CHECKIN_NO_PROMPT wins)'),
  accessible: choice(
    'accessible',
    ['true', 'false'],
    'plain questions a screen reader reads once (numbered choices, answers typed as lines), `team --watch` writing what changed as lines, no redraw (CHECKIN_ACCESSIBLE wins)',
  ),
};

export const PREFERENCE_KEYS = Object.keys(PREFERENCES) as PreferenceKey[];

/** The key, or a UsageError naming the keys there are. */
export function preferenceKey(key: string): PreferenceKey {
  if (Object.hasOwn(PREFERENCES, key)) return key as PreferenceKey;
  const token = /token/i.test(key) ? '\nThe token is not a setting: `checkin auth token` prints it, `checkin login` changes it.' : '';
  throw new UsageError(`Unknown setting ${JSON.stringify(key)}`, `Settings: ${PREFERENCE_KEYS.join(', ')}${token}`);
}

/** The value `raw` sets `key` to (throws a UsageError when the key does not take it). */
export function parsePreference(key: PreferenceKey, raw: string): string | string[] {
  return PREFERENCES[key].parse(raw);
}

/** The preferences in a stored config: only the values each takes (a hand-edited value that is not is left out). */
export function preferencesOf(stored: object): Preferences {
  const record = stored as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of PREFERENCE_KEYS) {
    const v = record[key];
    if (v !== undefined && PREFERENCES[key].valid(v)) out[key] = v;
  }
  return out as Preferences;
}

/**
 * The settings that are the person's on every profile (editor, pager, color, prompt, accessible),
 * read without choosing a profile: what the terminal needs before the command line is read.
 */
export function sharedPreferences(store: ConfigStore): Preferences {
  const file = store.readFile();
  const shared = Object.fromEntries(Object.entries(file).filter(([key]) => !PROFILE_KEYS.includes(key)));
  return preferencesOf(shared);
}

/** Where a setting's value came from: the folder's .checkin.json, the profile in use, or config.json's shared settings. */
export interface PreferenceSource {
  key: PreferenceKey;
  value: string | string[];
  /** "directory": a .checkin.json (`file`); "profile": the profile's own in config.json; "config": config.json, on every profile. */
  origin: 'directory' | 'profile' | 'config';
  file: string;
  profile?: string;
}

/** Each setting that has a value, with where it came from (`checkin config list --show-origin`): the folder's file over the profile's. */
export function preferenceSources(store: ConfigStore): PreferenceSource[] {
  const name = store.profile.name;
  const own = preferencesOf(store.read()) as Record<string, string | string[]>;
  const dir = store.directory();
  const fromDir: Record<string, string | string[] | undefined> = { team: dir?.team, template: dir?.template, git_repos: dir?.git_repos };
  const out: PreferenceSource[] = [];
  for (const key of PREFERENCE_KEYS) {
    const d = fromDir[key];
    if (dir && d !== undefined) out.push({ key, value: d, origin: 'directory', file: dir.file });
    else if (own[key] !== undefined)
      out.push(
        PROFILE_KEYS.includes(key)
          ? { key, value: own[key], origin: 'profile', file: store.file, profile: name }
          : { key, value: own[key], origin: 'config', file: store.file },
      );
  }
  return out;
}

/** The preferences in force for this run: the folder's .checkin.json over the profile's own, and the shared ones (config.json is read once a run). */
export function preferences(store: ConfigStore): Preferences {
  return Object.fromEntries(preferenceSources(store).map((s) => [s.key, s.value])) as Preferences;
}

/** A value as `config get` and `config list` print it: git_repos joined as it is set. */
export function showPreference(value: string | string[]): string {
  return Array.isArray(value) ? value.join(delimiter) : value;
}

export async function setPreference(store: ConfigStore, key: PreferenceKey, value: string | string[]): Promise<void> {
  await store.update((c) => {
    (c as Record<string, unknown>)[key] = value;
  });
}

export async function unsetPreference(store: ConfigStore, key: PreferenceKey): Promise<void> {
  if (!Object.hasOwn(store.read(), key)) return;
  await store.update((c) => {
    delete (c as Record<string, unknown>)[key];
  });
}
