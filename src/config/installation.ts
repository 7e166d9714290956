// Which build of checkin is running, and where its own files are. The npm build keeps them beside
// its bundle (dist/mcp-server.cjs, skills/checkin/SKILL.md, the keychain addon in node_modules); the
// single executable (`npm run binary`) carries them inside as assets (scripts/binary.mjs), read here.
// Nothing is read at the top of this file: in the binary this module is in the start-up snapshot,
// made on the build machine, so everything about the running process is asked when it is needed.
import { isAbsolute, join } from 'node:path';

type Sea = typeof import('node:sea');

/** node:sea, when this process is a single executable application; undefined for the npm build. */
function sea(): Sea | undefined {
  const mod = process.getBuiltinModule('node:sea') as Sea | undefined;
  return mod?.isSea() ? mod : undefined;
}

/** 'binary' (the single executable) or 'npm' (Node running the package's bundle). */
export function buildKind(): 'binary' | 'npm' {
  return sea() ? 'binary' : 'npm';
}

/** A text file the binary carries (its name as in scripts/binary.mjs); undefined in the npm build. */
export function assetText(name: string): string | undefined {
  return sea()?.getAsset(name, 'utf8');
}

/**
 * A CommonJS bundle the binary carries (the MCP server), run as Node would run the file: with a
 * `require` of Node's own modules (a bundle of ours needs nothing else). Undefined in the npm build.
 */
export function requireAsset(name: string): unknown {
  const source = assetText(name);
  if (source === undefined) return undefined;
  const { compileFunction } = process.getBuiltinModule('node:vm');
  const filename = join(process.execPath, name);
  const fn = compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename }) as (...args: unknown[]) => void;
  const module = { exports: {} as unknown };
  const require = (id: string) => {
    const builtin = process.getBuiltinModule(id);
    if (builtin === undefined) throw new Error(`${name} asked for ${id}, which is not inside the binary`);
    return builtin;
  };
  fn(module.exports, require, module, filename, process.execPath);
  return module.exports;
}

/**
 * One of checkin's own bundles that only one command runs (scripts/build.mjs: dist/<name>.cjs beside
 * dist/checkin.cjs; scripts/binary.mjs: an asset of that name inside the binary), required when that
 * command runs, so no other run reads, parses or compiles it. From source (in-process tests, where
 * this file is src/config/installation.ts) it is the module `source` names, a path from src/: named
 * through a variable, so esbuild leaves it out of dist/checkin.cjs (CONTRIBUTING.md, "Start-up").
 */
export async function ownBundle(name: string, source: string): Promise<unknown> {
  const inside = requireAsset(name);
  if (inside !== undefined) return inside;
  if (import.meta.url.endsWith('.cjs')) return process.getBuiltinModule('node:module').createRequire(import.meta.url)(`./${name}.cjs`);
  const file = new URL(`../${source}`, import.meta.url).href;
  return import(/* @vite-ignore */ file);
}

/**
 * Whether a stat is of a folder of this user's that neither group nor others can write (as bin/checkin.js
 * asks). On Windows there is neither: Node reports owner 0 and made-up mode bits there (a file's ACL is
 * not in its stat), so no such check can be made, and none is (see windowsCacheFolder).
 */
const mine = (st: import('node:fs').Stats) => st.isDirectory() && (process.platform === 'win32' || (st.uid === process.getuid?.() && (st.mode & 0o022) === 0));

/**
 * Where the binary writes the addon out on Windows: %LOCALAPPDATA%\checkin (HOME is not set there).
 * Node cannot read an ACL, so owners and modes are not asked: LOCALAPPDATA is in the user's profile
 * folder, which Windows makes readable and writable only by that user, SYSTEM and the administrators
 * (who could run as the user anyway), and what is made in it inherits that. The bytes are still compared
 * with the carried ones before each load.
 */
function windowsCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  return [env.XDG_CACHE_HOME, env.LOCALAPPDATA].find((d) => d && isAbsolute(d));
}

/**
 * The keychain addon (@napi-rs/keyring's `.node` for this platform) the binary carries, loaded
 * the only way a native addon can be: written out to a file, then `process.dlopen`. The file goes in
 * $XDG_CACHE_HOME/checkin (or ~/.cache/checkin; on Windows %LOCALAPPDATA%\checkin), only when that
 * folder is the user's and no one else can write it (a planted addon would run as the user), named by
 * its content's digest, and its bytes are compared with the carried ones before each load. Throws with
 * the reason it cannot be.
 */
export function loadCarriedAddon(name: string, env: NodeJS.ProcessEnv): unknown {
  const s = sea();
  if (!s) throw new Error('not a single executable');
  const fs = process.getBuiltinModule('node:fs');
  const bytes = Buffer.from(s.getRawAsset(name) as ArrayBuffer);
  const windows = process.platform === 'win32';
  const base = windows ? windowsCacheFolder(env) : [env.XDG_CACHE_HOME, env.HOME && join(env.HOME, '.cache')].find((d) => d && isAbsolute(d));
  if (!base) throw new Error(`no cache folder to write the keychain addon in (${windows ? 'LOCALAPPDATA' : 'HOME'} is not set)`);
  const dir = join(base, 'checkin');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!mine(fs.lstatSync(dir))) throw new Error(`${dir} is not a folder of yours that only you can write`);
  // Nor may anyone else swap that folder between the checks and the load: its parent is yours (or
  // the system's) and only its owner can rename what is in it (not writable by others, or sticky).
  // (Not asked on Windows, where Node cannot see who may: windowsCacheFolder says why that is safe.)
  const parent = fs.statSync(base);
  const uid = process.getuid?.();
  if (!parent.isDirectory() || (!windows && ((parent.uid !== uid && parent.uid !== 0) || ((parent.mode & 0o022) !== 0 && (parent.mode & 0o1000) === 0)))) {
    throw new Error(`${base} can be changed by others, so the keychain addon is not written out there`);
  }
  const digest = process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const file = join(dir, `${name.replace(/\.node$/, '')}-${digest}.node`);
  let same = false;
  try {
    const st = fs.lstatSync(file);
    same = st.isFile() && (windows || (st.uid === process.getuid?.() && (st.mode & 0o022) === 0)) && fs.readFileSync(file).equals(bytes);
  } catch {
    // not written yet
  }
  if (!same) {
    // A new file under a temporary name, renamed over: a reader never sees half an addon.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.rmSync(tmp, { force: true });
    fs.writeFileSync(tmp, bytes, { mode: 0o700, flag: 'wx' });
    fs.renameSync(tmp, file);
  }
  const module = { exports: {} as unknown };
  process.dlopen(module, file);
  return module.exports;
}
