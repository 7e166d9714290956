// What a run loads (scripts/build.mjs, CONTRIBUTING.md "Start-up"): a one-request command reads
// bin/checkin.js and dist/checkin.cjs and nothing else of ours, and no built-in Node had not already
// loaded but the HTTP ones its request needs; a vendor file or the MCP server only when a command
// gets that far. Checked on the process itself: a preload writes, at exit, the files it required
// and Node's own list of the built-ins it loaded.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRELOADED } from '../scripts/build-rules.mjs';
import { tempDir } from './helpers/cleanup.js';
import { ROOT, runCli } from './helpers/cli.js';
import { useSandboxEnv } from './helpers/sandbox-env.js';

let env: NodeJS.ProcessEnv;
useSandboxEnv((_sb, e) => {
  env = e;
});

interface Loaded {
  files: string[];
  builtins: string[];
}

/** Runs the CLI with a preload that records what the process loaded; its stdout is a pipe. */
async function loadedBy(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Loaded & { code: number | null; stdout: string }> {
  const dir = tempDir('checkin-loaded-');
  const out = join(dir, 'loaded.json');
  const preload = join(dir, 'preload.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({
  files: Object.keys(require.cache),
  builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => m.slice(13)),
})));\n`,
  );
  const r = await runCli(args, { env: { ...env, ...extra, NODE_OPTIONS: `--require ${preload}` } });
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as Loaded;
  return { ...r, files: loaded.files.filter((f) => f !== preload).map((f) => relative(ROOT, f)), builtins: loaded.builtins };
}

/** The built-ins a bare script loads to send one GET with node:http and print the answer (not sync: the sandbox answers from this process). */
async function bareGetBuiltins(): Promise<string[]> {
  const script = 'require("node:http").get(process.argv[1], (r) => r.resume().on("end", () => console.log(process.moduleLoadList.filter((m) => m.startsWith("NativeModule ") && !m.includes("internal/")).map((m) => m.slice(13)).join(" "))))';
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, `${env.CHECKIN_API_URL}/me`], { encoding: 'utf8', timeout: 10_000 });
  return stdout.trim().split(' ');
}

describe('what a run loads', () => {
  it('a one-request command: the bin and dist/checkin.cjs, and only the built-ins a bare node:http GET loads (and module, for the compile cache; process, which is the process object)', async () => {
    // crypto: the cache's file name is a hash (teams keeps the list for completion).
    const bare = new Set([...(await bareGetBuiltins()), 'module', 'process', 'crypto']);
    for (const args of [['today', '--json'], ['list'], ['teams'], ['status']]) {
      const r = await loadedBy(args);
      expect(r.code === 0 || r.code === 3, `${args.join(' ')}: exit ${r.code}`).toBe(true);
      expect(r.files, args.join(' ')).toEqual(['bin/checkin.js', 'dist/checkin.cjs']);
      expect(r.builtins.filter((b) => !bare.has(b)), args.join(' ')).toEqual([]);
    }
  });

  it('--version and --help: no HTTP module either (--help reads the completion library: anything that is not a command does; --version nothing)', async () => {
    for (const args of [['--version'], ['--help']]) {
      const r = await loadedBy(args);
      expect(r.code).toBe(0);
      expect(r.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs', ...(args[0] === '--help' ? ['dist/vendor/@bomb.sh+tab+commander.cjs'] : [])]);
      expect(r.builtins.filter((b) => ['http', 'https', 'child_process', 'tty', 'crypto', 'os'].includes(b))).toEqual([]);
    }
  });

  it('a package only some commands use is read from dist/vendor/ by those: completion reads its library, `checkin mcp --print-config` nothing', async () => {
    const completion = await loadedBy(['completion', 'bash']);
    expect(completion.code).toBe(0);
    expect(completion.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs', 'dist/vendor/@bomb.sh+tab+commander.cjs']);
    const config = await loadedBy(['mcp', '--print-config', 'claude']);
    expect(config.code).toBe(0);
    expect(config.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs']);
  });

  it('the MCP server and its SDK: in dist/mcp-server.cjs alone, read only by `checkin mcp`', async () => {
    const read = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');
    expect(read('mcp-server.cjs')).toContain('elicitation/create');
    expect(read('checkin.cjs')).not.toContain('elicitation/create');
    expect(read('checkin.cjs').match(/mcp-server\.cjs/g)).toHaveLength(1);
    const r = await loadedBy(['mcp'], {});
    expect(r.code).toBe(0); // standard input is closed at once: the server ends
    expect(r.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs', 'dist/mcp-server.cjs']);
  });

  it('the built-ins the build imports as they are (PRELOADED) are loaded by this Node before any code of ours', () => {
    const script = join(tempDir('checkin-preloaded-'), 'list.cjs');
    writeFileSync(script, 'process.stdout.write(process.moduleLoadList.join("\\n"))');
    const loaded = execFileSync(process.execPath, [script], { encoding: 'utf8' }).split('\n');
    expect(PRELOADED.filter((id: string) => !loaded.includes(`NativeModule ${id}`))).toEqual([]);
  });
});
