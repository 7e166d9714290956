// What a run loads (scripts/build.mjs, CONTRIBUTING.md "Start-up"): a one-request command reads
// bin/checkin.js and dist/checkin.cjs and nothing else, no built-in but those a commander CLI doing
// a bare node:http GET loads (the prompts' readline and tty: none of them), and the
// MCP server only for `checkin mcp`. Checked on the process itself: a preload writes, at exit, the
// files it required and Node's own list of the built-ins it loaded. And the rule that makes it so:
// a top-level import of a `node:` module names only one Node has loaded before our code.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cleanup.js';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

/** The CLI's sources as [path from the root, text]: src/ but the sandbox and the agent face (bundles of their own). */
function cliSources(dir = join(ROOT, 'src')): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e): [string, string][] => {
    const file = join(dir, e.name);
    if (e.isDirectory()) return /src\/(sandbox|mcp)$/.test(file) ? [] : cliSources(file);
    return file.endsWith('.ts') ? [[relative(ROOT, file), readFileSync(file, 'utf8')]] : [];
  });
}

let env: NodeJS.ProcessEnv;
useSandboxEnv((_sb, e) => {
  env = e;
});

interface Loaded {
  files: string[];
  builtins: string[];
}

/** Runs the CLI with a preload that records what the process loaded; its stdout is a pipe (`input` on stdin, in `cwd`). */
async function loadedBy(args: string[], extra: NodeJS.ProcessEnv = {}, opts: { input?: string; cwd?: string } = {}): Promise<Loaded & CliResult> {
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
  const r = await runCli(args, { ...opts, env: { ...env, ...extra, NODE_OPTIONS: `--require ${preload}` } });
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as Loaded;
  return { ...r, files: loaded.files.filter((f) => f !== preload).map((f) => relative(ROOT, f)), builtins: loaded.builtins };
}

/** The built-ins a bare script loads to send one GET with node:http and print the answer (not sync: the sandbox answers from this process). */
async function bareGetBuiltins(): Promise<string[]> {
  const script =
    'require("node:http").get(process.argv[1], (r) => r.resume().on("end", () => console.log(process.moduleLoadList.filter((m) => m.startsWith("NativeModule ") && !m.includes("internal/")).map((m) => m.slice(13)).join(" "))))';
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, `${env.CHECKIN_API_URL}/me`], { encoding: 'utf8', timeout: 10_000 });
  return stdout.trim().split(' ');
}

/** The CLI alone, as bin/checkin.js ran it before the hooks had a bundle of their own: a script that runs dist/checkin.cjs. */
function fullCli(): string {
  const bin = join(tempDir('checkin-full-cli-'), 'checkin.cjs');
  writeFileSync(
    bin,
    `require(${JSON.stringify(join(ROOT, 'dist', 'checkin.cjs'))}).run(process.argv.slice(2)).then((code) => { process.exitCode = code; });\n`,
  );
  return bin;
}

describe('what a run loads', () => {
  it('a one-request command: the bin and dist/checkin.cjs, and only the built-ins a bare node:http GET loads (and module, for the compile cache; process, which is the process object)', async () => {
    // crypto: the cache's file name is a hash (teams keeps the list for completion). child_process:
    // commander requires it (and it dgram) when it is loaded, as in any commander CLI (the bench's commander floor).
    const bare = new Set([...(await bareGetBuiltins()), 'module', 'process', 'crypto', 'child_process', 'dgram']);
    for (const args of [['today', '--json'], ['list'], ['teams'], ['status']]) {
      const r = await loadedBy(args);
      expect(r.code === 0 || r.code === 3, `${args.join(' ')}: exit ${r.code}`).toBe(true);
      expect(r.files, args.join(' ')).toEqual(['bin/checkin.js', 'dist/checkin.cjs']);
      expect(
        r.builtins.filter((b) => !bare.has(b)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('--version and --help: no HTTP module, terminal or hashing either', async () => {
    for (const args of [['--version'], ['--help']]) {
      const r = await loadedBy(args);
      expect(r.code).toBe(0);
      expect(r.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs']);
      expect(r.builtins.filter((b) => ['http', 'https', 'tty', 'crypto', 'os'].includes(b))).toEqual([]);
    }
  });

  it('completion and `checkin mcp --print-config` read nothing beyond the bundle', async () => {
    const completion = await loadedBy(['completion', 'bash']);
    expect(completion.code).toBe(0);
    expect(completion.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs']);
    const config = await loadedBy(['mcp', '--print-config', 'claude']);
    expect(config.code).toBe(0);
    // The first answer's small bundle (bin/checkin.js requires it for a command line naming mcp) finds the line not its own.
    expect(config.files).toEqual(['bin/checkin.js', 'dist/mcp-first.cjs', 'dist/checkin.cjs']);
  });

  it('the MCP server and its SDK: in dist/mcp-server.cjs alone, read only by `checkin mcp`', async () => {
    const read = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');
    expect(read('mcp-server.cjs')).toContain('elicitation/create');
    expect(read('checkin.cjs')).not.toContain('elicitation/create');
    // One require of it (the help topics name the file in words too).
    expect(read('checkin.cjs').match(/\(["'`]\.\/mcp-server\.cjs["'`]\)/g)).toHaveLength(1);
    const r = await loadedBy(['mcp'], {});
    expect(r.code).toBe(0); // standard input is closed at once: the server ends
    expect(r.files).toEqual(['bin/checkin.js', 'dist/mcp-first.cjs', 'dist/checkin.cjs', 'dist/mcp-server.cjs']);
  });

  it('the help topics: in dist/help-topics.cjs alone, read only by `checkin help <topic>`', async () => {
    const read = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');
    const { TOPICS } = await import('../../src/help-topics.js');
    // dist/help-topics.cjs carries every topic as src/help-topics.ts has it; the bundle every run reads has
    // none of them (a topic's text is a string that starts with its heading).
    const built = process.getBuiltinModule('node:module').createRequire(import.meta.url)(join(ROOT, 'dist', 'help-topics.cjs')) as { TOPICS: unknown };
    expect(built.TOPICS).toEqual(TOPICS);
    const bundle = read('checkin.cjs');
    for (const { title } of Object.values(TOPICS)) {
      expect(read('help-topics.cjs'), title).toContain(`# ${title}`);
      for (const quote of ['"', "'", '`']) expect(bundle.includes(`${quote}# ${title}`), title).toBe(false);
    }
    const r = await loadedBy(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(TOPICS['exit-codes']!.title);
    expect(r.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs', 'dist/help-topics.cjs']);
    const list = await loadedBy(['help', 'topics']);
    expect(list.stdout).toContain(`exit-codes`);
    expect(list.files).toEqual(['bin/checkin.js', 'dist/checkin.cjs', 'dist/help-topics.cjs']);
    // `checkin help <command>` is commander's: no topics read.
    expect((await loadedBy(['help', 'today'])).files).toEqual(['bin/checkin.js', 'dist/checkin.cjs']);
  });

  it("the hooks: `checkin hook <event>` answered by dist/hook.cjs alone, with the CLI's own answer", async () => {
    const cwd = tempDir('checkin-hook-bundle-');
    // Today's copy as status leaves it (the demo person's day is pending): the hooks have a line to say.
    expect(JSON.parse((await runCli(['status', '--json'], { env, cwd })).stdout)).toMatchObject({ state: 'pending' });
    const cli = fullCli();
    // Each line twice, in a session of its own each time (a Stop hook holds an agent back once a session).
    const lines: Array<[string[], ((session: string) => string) | undefined]> = [
      [['hook', 'session-start'], (s) => JSON.stringify({ session_id: s, cwd, hook_event_name: 'SessionStart' })],
      [['hook', 'stop'], (s) => JSON.stringify({ session_id: s, cwd, hook_event_name: 'Stop', stop_hook_active: false })],
      [['hook', 'stop'], () => JSON.stringify({ cwd })],
      [['hook', 'stop'], (s) => JSON.stringify({ session_id: s, stop_hook_active: true })],
      [['hook', 'stop'], undefined],
      [['--profile', 'default', 'hook', 'post-commit', 'and', 'more'], undefined],
      [['--profile=default', 'hook', 'session-start'], () => 'not JSON'],
    ];
    for (const [i, [args, input]] of lines.entries()) {
      const fast = await loadedBy(args, {}, { cwd, ...(input && { input: input(`fast-${i}`) }) });
      expect(fast.files, args.join(' ')).toEqual(['bin/checkin.js', 'dist/hook.cjs']);
      expect(fast.builtins.filter((b) => ['net', 'stream', 'tty', 'http', 'crypto'].includes(b))).toEqual([]);
      const whole = await runCli(args, { env, cwd, bin: cli, ...(input && { input: input(`cli-${i}`) }) });
      expect({ ...fast, files: undefined, builtins: undefined }, args.join(' ')).toEqual({ ...whole, files: undefined, builtins: undefined });
    }
    // Not a vacuous sameness: the lines said.
    expect((await loadedBy(['hook', 'session-start'], {}, { cwd })).stdout).toMatch(/^checkin: today's check-in is still pending/);
    expect((await loadedBy(['hook', 'stop'], {}, { cwd, input: '{"session_id":"held"}' })).stdout).toMatch(/^\{"decision":"block"/);
  });

  it("the hooks: every other command line is the CLI's, untouched (the same output as without the small bundle)", async () => {
    const cwd = tempDir('checkin-hook-odd-');
    const cli = fullCli();
    const damaged = tempDir('checkin-hook-damaged-');
    writeFileSync(join(damaged, 'config.json'), '{not json');
    const lines: Array<[string[], NodeJS.ProcessEnv]> = [
      [['hook'], {}],
      [['hook', 'bogus'], {}],
      [['hook', 'stop', '--help'], {}],
      [['hook', 'session-start', '-h'], {}],
      [['hook', 'session-start', '--bogus', 'extra'], {}],
      [['hook', 'stop', '--profile', 'default'], {}],
      [['--debug', 'hook', 'stop'], {}],
      [['--profile', 'a', '--profile', 'b', 'hook', 'stop'], {}],
      [['--profile', 'nobody', 'hook', 'stop'], {}],
      [['--profile', '--debug', 'hook', 'stop'], {}],
      [['help', 'hook'], {}],
      // A settings file the CLI warns of: the warning is its to say.
      [['hook', 'post-commit'], { CHECKIN_CONFIG_DIR: damaged }],
    ];
    for (const [args, extra] of lines) {
      const fast = await loadedBy(args, extra, { cwd, input: '{}' });
      expect(fast.files, args.join(' ')).toEqual(['bin/checkin.js', 'dist/hook.cjs', 'dist/checkin.cjs']);
      const whole = await runCli(args, { env: { ...env, ...extra }, cwd, bin: cli, input: '{}' });
      expect({ ...fast, files: undefined, builtins: undefined }, args.join(' ')).toEqual({ ...whole, files: undefined, builtins: undefined });
    }
    expect((await runCli(['hook', 'post-commit'], { env: { ...env, CHECKIN_CONFIG_DIR: damaged }, cwd })).stderr).toMatch(
      /^warning: .*config\.json cannot be read/,
    );
  });

  it('dist/checkin.cjs is ASCII: Node reads it as a one-byte string and hashes it for the compile cache without transcoding', () => {
    // One non-ASCII character (esbuild leaves those in a regular expression literal as written) made
    // the whole 1 MB a two-byte string: reading it, and the compile cache turning it back into UTF-8
    // to check it, cost ~11% of `today --json`'s instructions. Write \u escapes in a regular expression.
    const text = readFileSync(join(ROOT, 'dist', 'checkin.cjs'), 'latin1');
    expect(text.match(/[^\x00-\x7f].{0,40}/gs) ?? []).toEqual([]);
  });

  it('every module of ours a run loads is set up from the compile cache: no import() reaches one', async () => {
    // esbuild makes the module an import() names, and every module it imports, an init function:
    // one the start loads too is then compiled at every run (its whole top level parsed), where
    // the cache would have held it. So import() is for a package or a module the start never
    // loads and that loads nothing the start does. A module of ours that shares the start's (the
    // sandbox shares the API's types, their checks and the date keys) is a bundle of its own instead
    // (installation.ts `ownBundle`), and so is the help topics' text: neither is in dist/checkin.cjs.
    const esbuild = await import('esbuild');
    // esbuild's service process is stopped here, not left to the run's end (nothing is left behind).
    const { metafile } = await esbuild
      .build({
        entryPoints: ['src/main.ts'],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        write: false,
        metafile: true,
        outfile: 'checkin.cjs',
        supported: { 'dynamic-import': false },
        absWorkingDir: ROOT,
        logLevel: 'silent',
      })
      .finally(() => esbuild.stop());
    const imports = (file: string, lazy: boolean) =>
      metafile.inputs[file]!.imports.filter((i) => !i.external && (i.kind === 'dynamic-import') === lazy && i.kind !== 'require-call').map((i) => i.path);
    const reach = (from: string[]) => {
      const seen = new Set<string>();
      const todo = [...from];
      for (let f = todo.pop(); f !== undefined; f = todo.pop()) if (!seen.has(f)) todo.push(...imports((seen.add(f), f), false));
      return seen;
    };
    const atStart = reach(['src/main.ts']);
    const lazyTargets = Object.keys(metafile.inputs).flatMap((f) => imports(f, true));
    const wrappedAtStart = [...reach(lazyTargets)].filter((f) => atStart.has(f) && f.startsWith('src/'));
    expect(wrappedAtStart.sort()).toEqual([]);
    expect(Object.keys(metafile.inputs).filter((f) => f.startsWith('src/sandbox/') || f === 'src/help-topics.ts')).toEqual([]);
  });

  it('no regular expression with a Unicode class is made at the top of a module: V8 compiles its classes when it is made, ~1 M instructions each', () => {
    const offenders = cliSources().flatMap(([file, text]) =>
      [...text.matchAll(/^(?:export )?(?:const|let|var) (\w+)\s*=\s*\/[^\n]*\\[pP]\{/gm)].map((m) => `${file}: ${m[1]}`),
    );
    expect(offenders).toEqual([]);
  });

  it('src/ imports at the top only the built-ins this Node has loaded before any code of ours; any other where it is used', () => {
    const script = join(tempDir('checkin-preloaded-'), 'list.cjs');
    writeFileSync(script, 'process.stdout.write(process.moduleLoadList.join("\\n"))');
    const loaded = new Set(execFileSync(process.execPath, [script], { encoding: 'utf8' }).split('\n'));
    const offenders = cliSources().flatMap(([file, text]) =>
      [...text.matchAll(/^import (?!type )[^;]*? from 'node:([a-z_/]+)';/gm)]
        .filter((m) => !loaded.has(`NativeModule ${m[1]}`))
        .map((m) => `${file}: node:${m[1]}`),
    );
    expect(offenders).toEqual([]);
  });
});
