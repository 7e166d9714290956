// checkin's hooks in an agent's hook settings: Claude Code's `hooks` in its settings.json (user:
// ~/.claude/settings.json, project: .claude/settings.json) and Codex's hooks.json (user:
// $CODEX_HOME/hooks.json, ~/.codex by default; project: .codex/hooks.json), which share one shape —
// event → matcher groups → handlers `{ type: "command", command, timeout }`. checkin adds one
// group per event (SessionStart → `checkin hook session-start || true`, Stop → `checkin hook stop || true`), merged
// with what is there: every other key, event, group and handler is kept as it was; a second install
// changes nothing; uninstall takes out only checkin's handlers (and a group or event left empty by
// that). Only that part of the file's text is rewritten, in its own indent (every other byte stays:
// numbers, escapes, key order); a file that is not a JSON object, or that could not be edited so, is
// never written over.
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fsReason, readRegularFile, writeDurably } from '../config/files.js';
import { buildKind } from '../config/installation.js';
import { home } from '../config/paths.js';
import { validProfileName } from '../config/profiles.js';
import { CliError, EXIT } from '../errors.js';
import { findProgram } from './programs.js';
import { indentOf, jsonSpans, JsonTextError, member, splice, type JsonNode } from '../core/json-text.js';
import { cliPaths, program, shellQuote } from './schedule.js';
import { skillFolders, type SkillScope } from './skill.js';

/** The agents whose hook settings checkin writes (GitHub Copilot's are not written). */
export const HOOK_AGENTS = ['claude', 'codex'] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];

/** The host's event, and checkin's subcommand it runs. */
export const HOST_EVENTS: ReadonlyArray<readonly [event: string, sub: string]> = [
  ['SessionStart', 'session-start'],
  ['Stop', 'stop'],
];
/** Seconds the host gives a handler: a hook answers in well under one; git's two commands are bounded at 1.5 s each. */
const HANDLER_TIMEOUT_S = 10;

/** Where `agent` reads hooks in `scope` (project: the folder checkin runs in). */
export function hooksFile(env: NodeJS.ProcessEnv, agent: HookAgent, scope: SkillScope, cwd: string): string {
  if (agent === 'claude') return join(scope === 'user' ? home(env) : cwd, '.claude', 'settings.json');
  if (scope === 'project') return join(cwd, '.codex', 'hooks.json');
  const codexHome = env.CODEX_HOME && isAbsolute(env.CODEX_HOME) ? env.CODEX_HOME : join(home(env), '.codex');
  return join(codexHome, 'hooks.json');
}

/** What ends every hook command checkin writes: the command never exits non-zero (an older checkin without `hook` exits 2, which a Stop hook would read as "block"). */
const NEVER_FAILS = ' || true';

/**
 * The words a hook runs for `sub`: `checkin hook <sub>` when the `checkin` on PATH is this one
 * (it then survives a new Node or a moved prefix), or in a project's settings (a file meant to be
 * committed: no path of this machine in it, `checkin` is found on PATH of whoever runs the agent),
 * else this checkin by its absolute paths; with `--profile NAME` when a profile was chosen by flag;
 * ending `|| true`.
 */
export function hookCommandLine(env: NodeJS.ProcessEnv, sub: string, scope: SkillScope, profile?: string): string {
  const tail = `${profile === undefined ? '' : ` --profile ${shellQuote(profile)}`} hook ${sub}${NEVER_FAILS}`;
  if (scope === 'project') return `checkin${tail}`;
  const { node, script } = cliPaths();
  const me = script ?? node;
  const onPath = findProgram('checkin', env);
  let same = false;
  try {
    same = onPath !== undefined && (realpathSync(onPath) === realpathSync(me) || (buildKind() === 'npm' && realpathSync(onPath) === script));
  } catch {
    same = false;
  }
  const prog = same ? 'checkin' : thisProgram().map(shellQuote).join(' ');
  return `${prog}${tail}`;
}

/** This checkin's program words by their absolute paths: Node and the script, or the single executable, whatever either is named. */
function thisProgram(): string[] {
  const { node, script } = cliPaths();
  return program(node, script);
}

/**
 * Whether a hook line's program words are a checkin's, as a checkin writes them: `checkin` (from
 * PATH); this checkin's own paths, whatever its file is named (a single executable renamed
 * `checkin-linux-x64` or `ck` writes its own path, and must know it again); or the paths earlier
 * checkins wrote, Node and a script or the executable named checkin.
 */
function checkinProgram(prog: string[]): boolean {
  if (prog.length === 1 && prog[0] === 'checkin') return true;
  if (prog.length === 0 || prog.length > 2 || !prog.every((w) => isAbsolute(w))) return false;
  const mine = thisProgram();
  if (mine.length === prog.length && mine.every((w, i) => w === prog[i])) return true;
  return /^checkin(?:\.c?js|\.exe)?$/i.test(basename(prog.at(-1)!));
}

/** A command's words as shellQuote wrote them (one space apart), or undefined when it is not such a line. */
function quotedWords(line: string): string[] | undefined {
  const words: string[] = [];
  const word = /(?:'((?:[^']|'\\'')*)'|([^\s']+))(?: (?!$)|$)/y;
  while (word.lastIndex < line.length) {
    const m = word.exec(line);
    if (!m) return undefined;
    words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  }
  return words.map(shellQuote).join(' ') === line ? words : undefined;
}

/** One of the commands hookCommandLine writes (a checkin's program words, checkinProgram; any profile; with or without `|| true`): its program words, profile and subcommand. */
export function ourHook(command: unknown): { program: string[]; profile?: string; sub: string } | undefined {
  if (typeof command !== 'string') return undefined;
  const words = quotedWords(command.endsWith(NEVER_FAILS) ? command.slice(0, -NEVER_FAILS.length) : command);
  if (!words || words.length < 3) return undefined;
  const sub = words.at(-1)!;
  if (words.at(-2) !== 'hook' || !HOST_EVENTS.some(([, s]) => s === sub)) return undefined;
  let end = words.length - 2;
  let profile: string | undefined;
  if (end >= 3 && words[end - 2] === '--profile') {
    try {
      profile = validProfileName(words[end - 1]!);
    } catch {
      return undefined;
    }
    end -= 2;
  }
  const prog = words.slice(0, end);
  return checkinProgram(prog) ? { program: prog, ...(profile !== undefined && { profile }), sub } : undefined;
}

/** Whether a handler under `event` is checkin's own (SessionStart's session-start, Stop's stop): the only ones checkin changes or removes. */
function oursFor(event: string, handler: unknown): boolean {
  const sub = HOST_EVENTS.find(([e]) => e === event)?.[1];
  return sub !== undefined && isObject(handler) && ourHook(handler.command)?.sub === sub;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a hook settings file holds of checkin's. */
export type HooksState =
  | { kind: 'missing' }
  /** The file is there; `commands` are checkin's handlers in it, by event (empty: none). */
  | { kind: 'read'; commands: Array<{ event: string; command: string }> }
  | { kind: 'unreadable'; reason: string };

/** The file's settings and its text (with where each part of it is); missing when there is none. */
function readSettings(file: string): { settings: Json; text: string; root?: JsonNode } | { missing: true } {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    throw new CliError(`${file} cannot be read (${fsReason(err)}): left as it is`);
  }
  if (text.trim() === '') return { settings: {}, text };
  let root: JsonNode;
  let value: unknown;
  try {
    root = jsonSpans(text);
    value = JSON.parse(text);
  } catch (err) {
    // Where, never what: the file's text may hold anything (a token, a person's notes).
    const at = err instanceof JsonTextError ? ` (${err.message})` : '';
    throw new CliError(`${file} is not valid JSON${at}: left as it is`, EXIT.FAILURE, 'Mend it (or move it aside), then run this again.');
  }
  if (!isObject(value)) throw new CliError(`${file} does not hold a JSON object: left as it is`);
  if (value.hooks !== undefined && !isObject(value.hooks)) throw new CliError(`${file}'s "hooks" is not an object: left as it is`);
  return { settings: value, text, root };
}

/** checkin's handlers in `settings`, by event. */
function ourCommands(settings: Json): Array<{ event: string; command: string }> {
  const commands: Array<{ event: string; command: string }> = [];
  for (const [event, groups] of Object.entries(isObject(settings.hooks) ? settings.hooks : {})) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups)
      for (const h of isObject(g) && Array.isArray(g.hooks) ? g.hooks : [])
        if (oursFor(event, h)) commands.push({ event, command: (h as Json).command as string });
  }
  return commands;
}

export function hooksState(file: string): HooksState {
  let read;
  try {
    read = readSettings(file);
  } catch (err) {
    return { kind: 'unreadable', reason: (err as Error).message };
  }
  if ('missing' in read) return { kind: 'missing' };
  return { kind: 'read', commands: ourCommands(read.settings) };
}

/** The settings with checkin's handlers as `commandOf` says (install), or with none (uninstall): every other entry as it was. */
function merged(settings: Json, file: string, commandOf: ((sub: string) => string) | undefined): Json {
  const hooks: Json = { ...(isObject(settings.hooks) ? settings.hooks : {}) };
  const wanted = new Map(commandOf ? HOST_EVENTS.map(([event, sub]) => [event, commandOf(sub)]) : []);
  // Only SessionStart and Stop are touched: every other event is the person's, whatever it runs.
  for (const [event] of HOST_EVENTS) {
    const before = hooks[event];
    if (before !== undefined && !Array.isArray(before)) throw new CliError(`${file}'s hooks.${event} is not a list: left as it is`);
    const want = wanted.get(event);
    let placed = false;
    const groups: unknown[] = [];
    for (const g of before ?? []) {
      if (!isObject(g) || !Array.isArray(g.hooks) || !g.hooks.some((h) => oursFor(event, h))) {
        groups.push(g);
        continue;
      }
      // checkin's handler: kept (its words brought up to date) the first time it is met, else taken out.
      const handlers = g.hooks.flatMap((h) => {
        if (!oursFor(event, h)) return [h];
        if (want === undefined || placed) return [];
        placed = true;
        return [{ ...h, type: 'command', command: want }];
      });
      if (handlers.length > 0) groups.push({ ...g, hooks: handlers });
    }
    if (want !== undefined && !placed) groups.push({ hooks: [{ type: 'command', command: want, timeout: HANDLER_TIMEOUT_S }] });
    if (groups.length > 0) hooks[event] = groups;
    else if (before !== undefined) delete hooks[event];
  }
  // Every key where it was (a file people read keeps its order).
  const out: Json = { ...settings };
  if (Object.keys(hooks).length > 0 || (isObject(settings.hooks) && Object.keys(settings.hooks).length === 0)) out.hooks = hooks;
  else delete out.hooks;
  return out;
}

/** The file written: a user's settings that are a link (dotfiles) are written where the link leads; a project's may not be a link. */
function writeTarget(file: string, scope: SkillScope): string {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return file;
  }
  if (!st.isSymbolicLink()) return file;
  if (scope === 'project')
    throw new CliError(`${file} is a symbolic link: a project's settings are written only inside the project, never where a link points`);
  return realpathSync(file);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** A JSON text without the white space between its tokens. */
const minified = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"|\s+/g, (m) => (m.startsWith('"') ? m : ''));

/**
 * `text` with checkin's part of the settings changed from `settings` to `next`: only the "hooks"
 * member's SessionStart and Stop lists are rewritten (a group kept as it was keeps its text), in the
 * file's own indent; every other byte stays. A group of the person's that holds one of checkin's
 * handlers is written anew, so it must come back the same: else the file is refused, untouched.
 */
function edited(file: string, text: string, root: JsonNode, settings: Json, next: Json): string {
  const unit = indentOf(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const pad = (depth: number) => eol + unit.repeat(depth);
  const fresh = (value: unknown, depth: number) => JSON.stringify(value, null, unit).replaceAll('\n', pad(depth));
  if (!isObject(next.hooks)) return removeMember(text, root, 'hooks');
  const hooksAt = member(root, 'hooks');
  if (!hooksAt) return addMember(text, root, 'hooks', fresh(next.hooks, 1), pad, 0);
  const before = settings.hooks as Json;
  for (const [event] of HOST_EVENTS) {
    const want = next.hooks[event];
    if (sameJson(before[event], want)) continue;
    const hooksNode = member(jsonSpans(text), 'hooks')!.value;
    const at = member(hooksNode, event);
    if (want === undefined) {
      text = removeMember(text, hooksNode, event);
      continue;
    }
    const old = Array.isArray(before[event]) ? (before[event] as unknown[]) : [];
    const items = at?.value.kind === 'array' ? at.value.items : [];
    for (const [i, g] of old.entries()) {
      // A group written anew that holds handlers of the person's: its text must survive JSON.parse and stringify.
      const mine = isObject(g) && Array.isArray(g.hooks) && g.hooks.some((h) => !oursFor(event, h));
      const itemText = items[i] ? text.slice(items[i].start, items[i].end) : '';
      if (mine && !(want as unknown[]).includes(g) && minified(itemText) !== JSON.stringify(g))
        throw new CliError(`${file}: checkin's hooks.${event} entry shares a group written in a form that would change: left as it is`);
    }
    const list = (want as unknown[]).map((g) => {
      const i = old.indexOf(g);
      return i >= 0 && items[i] ? text.slice(items[i].start, items[i].end) : fresh(g, 3);
    });
    const value = `[${pad(3)}${list.join(`,${pad(3)}`)}${pad(2)}]`;
    text = at ? splice(text, at.value.start, at.value.end, value) : addMember(text, hooksNode, event, value, pad, 1);
  }
  return text;
}

/** `text` with `key: value` added at the end of the object `node` (at `depth`). */
function addMember(text: string, node: JsonNode, key: string, value: string, pad: (depth: number) => string, depth: number): string {
  if (node.kind !== 'object') return text;
  const entry = `${JSON.stringify(key)}: ${value}`;
  const last = node.members.at(-1);
  if (last) return splice(text, last.value.end, last.value.end, `,${pad(depth + 1)}${entry}`);
  return splice(text, node.start, node.end, `{${pad(depth + 1)}${entry}${pad(depth)}}`);
}

/** `text` without the object `node`'s member `key` (and the comma and white space that went with it). */
function removeMember(text: string, node: JsonNode, key: string): string {
  if (node.kind !== 'object') return text;
  const i = node.members.findLastIndex((m) => m.key === key);
  if (i < 0) return text;
  const m = node.members[i]!;
  if (i > 0) return splice(text, node.members[i - 1]!.value.end, m.value.end, '');
  const after = node.members[1];
  return after ? splice(text, m.start, after.start, '') : splice(text, node.start, node.end, '{}');
}

/** What changing a hook settings file did. */
export interface HooksChange {
  file: string;
  changed: boolean;
  /** checkin's handlers in it before. */
  before: number;
}

/** A change worked out and not yet written: `write` writes it (merged again if the file changed since it was read). */
export interface HooksPlan extends HooksChange {
  write(): void;
}

/** How many times a file that changes under checkin is read and merged again before checkin gives up. */
const MERGE_TRIES = 3;

function plan(env: NodeJS.ProcessEnv, agent: HookAgent, scope: SkillScope, cwd: string, install: boolean, profile?: string, tries = MERGE_TRIES): HooksPlan {
  const file = hooksFile(env, agent, scope, cwd);
  const read = readSettings(file);
  const nothing = (before: number): HooksPlan => ({ file, changed: false, before, write: () => undefined });
  if ('missing' in read && !install) return nothing(0);
  const settings = 'missing' in read ? {} : read.settings;
  const count = ourCommands(settings).length;
  const next = merged(settings, file, install ? (sub) => hookCommandLine(env, sub, scope, profile) : undefined);
  if (!('missing' in read) && sameJson(next, settings)) return nothing(count);
  const was = 'missing' in read ? undefined : read.text;
  const text = 'missing' in read || !read.root ? JSON.stringify(next, null, 2) + '\n' : edited(file, read.text, read.root, settings, next);
  let target: string;
  try {
    // A project's folders are checked whether or not the file is there: never a link, never outside the project.
    if (scope === 'project' || was === undefined) skillFolders(scope === 'user' ? home(env) : cwd, dirname(file), scope);
    target = writeTarget(file, scope);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot write ${file}: ${fsReason(err)}`);
  }
  const write = () => {
    // Read once more just before the rename: a file someone changed meanwhile is merged again, never written over.
    const now = readSettings(file);
    if (('missing' in now ? undefined : now.text) !== was) {
      if (tries <= 1) throw new CliError(`${file} kept changing while checkin was merging its hooks: left as it is`);
      return plan(env, agent, scope, cwd, install, profile, tries - 1).write();
    }
    try {
      const mode = existsSync(target) ? statSync(target).mode & 0o777 : scope === 'user' ? 0o600 : 0o644;
      writeDurably(target, text, { mode, dirMode: scope === 'user' ? 0o700 : 0o755 });
    } catch (err) {
      throw new CliError(`cannot write ${file}: ${fsReason(err)}`);
    }
  };
  return { file, changed: true, before: count, write };
}

/** Works out adding checkin's SessionStart and Stop hooks to `agent`'s settings in `scope` (merged; nothing to write when they are there already); `write()` writes it. */
export function planHooksInstall(env: NodeJS.ProcessEnv, cwd: string, opts: { agent: HookAgent; scope: SkillScope; profile?: string }): HooksPlan {
  return plan(env, opts.agent, opts.scope, cwd, true, opts.profile);
}

/** Takes checkin's hooks out of `agent`'s settings in `scope`; everything else stays. */
export function uninstallHooks(env: NodeJS.ProcessEnv, cwd: string, opts: { agent: HookAgent; scope: SkillScope }): HooksChange {
  const { write, ...change } = plan(env, opts.agent, opts.scope, cwd, false);
  write();
  return change;
}

/**
 * The other scope's settings file of `agent` when it holds checkin's hooks too (the agent runs the
 * hooks of both files: each reminder would come twice); undefined when it holds none, or is this one
 * (a project in the home folder).
 */
export function hooksElsewhere(env: NodeJS.ProcessEnv, agent: HookAgent, scope: SkillScope, cwd: string): { scope: SkillScope; file: string } | undefined {
  const other: SkillScope = scope === 'user' ? 'project' : 'user';
  const file = hooksFile(env, agent, other, cwd);
  if (file === hooksFile(env, agent, scope, cwd)) return undefined;
  const state = hooksState(file);
  return state.kind === 'read' && state.commands.length > 0 ? { scope: other, file } : undefined;
}

/** Where Claude Code reads the machine's managed settings: managed-settings.json, and the drop-ins of managed-settings.d/ beside it. */
const CLAUDE_MANAGED_DIR =
  process.platform === 'darwin'
    ? '/Library/Application Support/ClaudeCode'
    : process.platform === 'win32'
      ? 'C:\\Program Files\\ClaudeCode'
      : '/etc/claude-code';

/**
 * Claude Code's settings files that can say `"disableAllHooks": true`, the one that decides first:
 * managed (the machine's: the drop-ins of managed-settings.d/, whose `*.json` are merged in
 * alphabetical order over managed-settings.json, so the last to set a key wins, read first), the
 * project's own local file, the project's, the person's. `managedDir`: where the managed ones are.
 */
function claudeSettingsFiles(env: NodeJS.ProcessEnv, cwd: string, managedDir: string): Array<{ file: string; managed: boolean }> {
  const dropIns = join(managedDir, 'managed-settings.d');
  let names: string[] = [];
  try {
    names = readdirSync(dropIns).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    // none there
  }
  const managed = [
    ...names
      .sort()
      .reverse()
      .map((n) => join(dropIns, n)),
    join(managedDir, 'managed-settings.json'),
  ];
  const project = hooksFile(env, 'claude', 'project', cwd);
  return [
    ...managed.map((file) => ({ file, managed: true })),
    ...[join(dirname(project), 'settings.local.json'), project, hooksFile(env, 'claude', 'user', cwd)].map((file) => ({ file, managed: false })),
  ];
}

/**
 * The Claude Code settings file whose `"disableAllHooks": true` turns every hook off here (checkin's
 * too), and whether it is the machine's managed settings (the person's to ask for, not to edit), or
 * undefined: the first file that sets it decides (one that sets it false turns them back on below
 * it). A file that cannot be read or is not JSON says nothing (doctor's hooks check names it).
 */
export function claudeHooksOff(env: NodeJS.ProcessEnv, cwd: string, managedDir = CLAUDE_MANAGED_DIR): { file: string; managed: boolean } | undefined {
  for (const at of claudeSettingsFiles(env, cwd, managedDir)) {
    let value: unknown;
    try {
      value = JSON.parse(readRegularFile(at.file));
    } catch {
      continue;
    }
    if (isObject(value) && typeof value.disableAllHooks === 'boolean') return value.disableAllHooks ? at : undefined;
  }
  return undefined;
}

/** The program a hook's command starts (`checkin`, found on PATH, or absolute paths: Node and the script, or the single executable). */
export function hookProgramFiles(command: string, env: NodeJS.ProcessEnv): { missing: string[] } {
  const prog = ourHook(command)?.program ?? [];
  if (prog[0] === 'checkin') return { missing: findProgram('checkin', env) ? [] : ['checkin (on PATH)'] };
  return { missing: prog.filter((f) => !existsSync(f)) };
}
