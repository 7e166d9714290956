// What doctor's checks read of the machine, apart from their verdicts (domain/doctor.ts): the
// keychain asked by a child with a scheduled run's environment, folders' modes and owners, and the
// agents' MCP registrations in their own files. Nothing here writes; every child is bounded.

import { accessSync, constants, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fsReason, readJson, readRegularFile } from '../config/files.js';
import { home, pathVariables } from '../config/paths.js';
import { osKeychain } from '../config/secrets.js';

// ---- the keychain ------------------------------------------------------------------------------

/** How a child looks the token up in the keychain: a fixed script, the module and the account as arguments; it prints found, missing or error <why>, never the token. */
const PROBE = `const say=(t)=>require('node:fs').writeSync(1,t);try{const{Entry}=require(process.argv[1]);const v=new Entry('checkin',process.argv[2]).getPassword();say(v?'found':'missing')}catch(e){say('error '+String(e&&e.message||e).split('\\n')[0].slice(0,200))}`;

export type ProbeResult = { found: boolean } | { error: string };

/**
 * The look-up itself, as the probe child of the single binary does it (`checkin doctor
 * --keychain-probe <account>`: a binary runs no `node -e`): found, missing or error <why>.
 */
export function keychainLookup(env: NodeJS.ProcessEnv, account: string): string {
  try {
    const store = osKeychain(env);
    if (typeof store === 'string') return `error ${store.split('\n')[0]!.slice(0, 200)}`;
    return store.get(account) ? 'found' : 'missing';
  } catch (err) {
    return `error ${String((err as Error)?.message ?? err)
      .split('\n')[0]!
      .slice(0, 200)}`;
  }
}

/**
 * The keychain asked for `account` by a child with exactly `env`, killed after `timeoutMs`: this
 * Node running PROBE with the module at `modulePath`, or in the single binary the binary itself.
 */
export async function probeKeychain(modulePath: string | 'binary', account: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ProbeResult> {
  const { execFile } = await import('node:child_process');
  const args = modulePath === 'binary' ? ['doctor', '--keychain-probe', account] : ['-e', PROBE, modulePath, account];
  return new Promise((resolve) => {
    // A helper the child started (a keyring daemon) may keep its output open after it is killed:
    // the answer is not waited for past the limit and a second more.
    const late = setTimeout(() => resolve({ error: `no answer within ${timeoutMs / 1000} s` }), timeoutMs + 1000);
    const child = execFile(
      process.execPath,
      args,
      { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024, encoding: 'utf8', windowsHide: true },
      (err, stdout) => {
        clearTimeout(late);
        const out = stdout.trim();
        if (out === 'found' || out === 'missing') return resolve({ found: out === 'found' });
        if (out.startsWith('error ')) return resolve({ error: out.slice(6) });
        resolve({ error: err?.killed || err?.signal ? `no answer within ${timeoutMs / 1000} s` : (err?.message.split('\n')[0] ?? 'no answer') });
      },
    );
    child.stdin?.end();
  });
}

/**
 * The environment a scheduled run has: what `checkin remind install` and `checkin cron` give it (the
 * folders' variables, HOME, TZ, CHECKIN_API_URL, CHECKIN_PROFILE, a PATH of the system's folders) and
 * nothing of this session's — no D-Bus session address, no display: the strictest of the schedulers (cron).
 */
export function scheduledEnvironment(env: NodeJS.ProcessEnv, apiUrlFromEnv: string | undefined, profile?: string): NodeJS.ProcessEnv {
  return {
    ...pathVariables(env),
    ...(env.HOME && { HOME: env.HOME }),
    ...(env.TZ && { TZ: env.TZ }),
    ...(apiUrlFromEnv && { CHECKIN_API_URL: apiUrlFromEnv }),
    ...(profile !== undefined && { CHECKIN_PROFILE: profile }),
    PATH: [...new Set([dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
  };
}

// ---- folders -------------------------------------------------------------------------------------

export const modeOf = (st: Stats) => `0${(st.mode & 0o777).toString(8)}`;

export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
export function readdirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
export function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// ---- MCP registrations -------------------------------------------------------------------------------

export interface Registration {
  agent: string;
  file: string;
  command: string;
  args: string[];
  /** Its environment names CHECKIN_TOKEN or STEADY_TOKEN with a value written into the file. */
  tokenInFile: boolean;
}

/** checkin's entries among one file's servers (an object of name → {command, args, env}). */
function entriesOf(agent: string, file: string, servers: unknown): Registration[] {
  if (typeof servers !== 'object' || servers === null) return [];
  return Object.entries(servers as Record<string, unknown>).flatMap(([name, v]) => {
    if (typeof v !== 'object' || v === null) return [];
    const s = v as { command?: unknown; args?: unknown; env?: unknown };
    const command = typeof s.command === 'string' ? s.command : '';
    const args = Array.isArray(s.args) ? s.args.filter((a): a is string => typeof a === 'string') : [];
    const ours = name === 'checkin' || /(^|[/\\])checkin(\.js|\.cmd)?$/.test(command) || args.some((a) => /(^|[/\\])checkin(\.js)?$/.test(a));
    if (!ours) return [];
    const env = typeof s.env === 'object' && s.env !== null ? (s.env as Record<string, unknown>) : {};
    const tokenInFile = ['CHECKIN_TOKEN', 'STEADY_TOKEN'].some((k) => typeof env[k] === 'string' && !/^\$\{?\w+\}?$/.test(env[k] as string) && env[k] !== '');
    return [{ agent, file, command, args, tokenInFile }];
  });
}

/** The [mcp_servers.<name>] tables of a Codex config.toml: command, args and env keys (only as much TOML as these need). */
export function codexServers(toml: string): Record<string, { command?: string; args?: string[]; env?: Record<string, string> }> {
  const out: Record<string, { command?: string; args?: string[]; env?: Record<string, string> }> = {};
  let current: { command?: string; args?: string[]; env?: Record<string, string> } | undefined;
  let inEnv = false;
  const str = (v: string) => /^"((?:[^"\\]|\\.)*)"$|^'([^']*)'$/.exec(v.trim());
  for (const raw of toml.split('\n')) {
    const line = raw.trim();
    const table = /^\[\s*mcp_servers\.("?)([\w-]+)\1(\.env)?\s*\]$/.exec(line);
    if (table) {
      current = out[table[2]!] ??= {};
      inEnv = Boolean(table[3]);
      continue;
    }
    if (line.startsWith('[')) {
      current = undefined;
      continue;
    }
    if (!current) continue;
    const kv = /^([\w-]+)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const [, key, value] = kv as unknown as [string, string, string];
    if (inEnv) {
      const s = str(value);
      (current.env ??= {})[key] = s ? (s[1] ?? s[2] ?? '') : value;
    } else if (key === 'command') {
      const s = str(value);
      if (s) current.command = s[1] ?? s[2] ?? '';
    } else if (key === 'args') current.args = [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '');
    else if (key === 'env') current.env = Object.fromEntries([...value.matchAll(/([\w-]+)\s*=\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
  }
  return out;
}

export function readRegistrations(env: NodeJS.ProcessEnv, cwd: string): { found: Registration[]; unreadable: string[] } {
  const h = home(env);
  const found: Registration[] = [];
  const unreadable: string[] = [];
  const json = (file: string): Record<string, unknown> | undefined => {
    const { value, damaged } = readJson(file, 64 * 1024 * 1024);
    if (damaged) {
      unreadable.push(`${file} (${damaged})`);
      return undefined;
    }
    return value;
  };
  const claude = json(join(h, '.claude.json'));
  if (claude) {
    found.push(...entriesOf('Claude Code', join(h, '.claude.json'), claude.mcpServers));
    const projects = claude.projects as Record<string, { mcpServers?: unknown }> | undefined;
    const here = projects && typeof projects === 'object' ? projects[cwd] : undefined;
    if (here && typeof here === 'object') found.push(...entriesOf('Claude Code', join(h, '.claude.json'), here.mcpServers));
  }
  const project = json(join(cwd, '.mcp.json'));
  if (project) found.push(...entriesOf('Claude Code', join(cwd, '.mcp.json'), project.mcpServers));
  const codexHome = env.CODEX_HOME && isAbsolute(env.CODEX_HOME) ? env.CODEX_HOME : join(h, '.codex');
  const codexFile = join(codexHome, 'config.toml');
  try {
    found.push(...entriesOf('Codex', codexFile, codexServers(readRegularFile(codexFile, 1024 * 1024))));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadable.push(`${codexFile} (${fsReason(err)})`);
  }
  const vscode = json(join(cwd, '.vscode', 'mcp.json'));
  if (vscode) found.push(...entriesOf('VS Code', join(cwd, '.vscode', 'mcp.json'), vscode.servers));
  for (const file of [join(h, '.cursor', 'mcp.json'), join(cwd, '.cursor', 'mcp.json')]) {
    const cursor = json(file);
    if (cursor) found.push(...entriesOf('Cursor', file, cursor.mcpServers));
  }
  // A project in the home folder: its files are the user's, said once.
  const seen = new Set<string>();
  return { found: found.filter((r) => !seen.has(`${r.agent} ${r.file}`) && seen.add(`${r.agent} ${r.file}`)), unreadable: [...new Set(unreadable)] };
}
