// The package as users get it, installed every way the README shows, each from a clean prefix:
// the tarball `npm run package` makes (standing in for the registry's `checkin-cli`) globally,
// into a project, and run with npx against a sandbox; a project's install from git; and the
// global install from a clone the README gives instead of `npm install -g git+…` (which npm
// cannot do for a package whose build needs its devDependencies: npm/cli#8440). And the README's
// package facts against the package.
//
// No network. npm runs --offline with a user config of its own (no developer's ~/.npmrc):
// - the tarball needs nothing from anywhere (everything is bundled), so its installs get an empty
//   cache of their own; the one optional dependency (the OS keychain module) is then not in the
//   cache, and npm leaves out an optional dependency it cannot fetch, as it would on a platform
//   the module does not support;
// - a git install builds the package, so npm installs its devDependencies in the clone from the
//   lockfile: those come from the developer's npm cache, where `npm ci` put them (a cache without
//   them fails here with npm's ENOTCACHED).
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { tempDir, trackExit } from '../helpers/cleanup.js';
import { cleanEnv, ROOT, runCli } from '../helpers/cli.js';
import { patient } from '../helpers/patience.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cmd` to its end (bounded: its whole process group is killed after `timeoutMs`). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<Run> {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Run>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  if (child.pid !== undefined)
    trackExit(
      killGroup,
      done.catch(() => undefined),
    );
  return done;
}

/** Expects exit 0, saying what was printed when it is not. */
function ok(r: Run): Run {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
// The developer's npm cache, for the git installs' devDependencies (see the top).
// (npm's temp files, on Node 22+ its compile cache, in a folder removed after the file.)
const userCache = execFileSync('npm', ['config', 'get', 'cache'], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { ...process.env, TMPDIR: tempDir('checkin-npm-tmp-') },
}).trim();

/**
 * Whether that cache holds every package of the lockfile that this checkout installed (what a git
 * install's build needs offline); when it does not (a cache of another user, emptied, never filled
 * by `npm ci`), the git installs are skipped and say so: the network is not theirs to use.
 */
const cacheHoldsLockfile = ((): boolean => {
  // npm's temp files (on Node 22+ its compile cache) in a folder removed after the file.
  const probeEnv = { ...process.env, TMPDIR: tempDir('checkin-npm-tmp-') };
  try {
    const listed = new Set(
      execFileSync('npm', ['cache', 'ls'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
        env: probeEnv,
      })
        .split('\n')
        .map((l) => l.replace(/^make-fetch-happen:request-cache:/, '').trim()),
    );
    // The lockfile keeps no download addresses here: each package's is the registry's, from its name and version.
    const registry = execFileSync('npm', ['config', 'get', 'registry'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 60_000,
      env: probeEnv,
    })
      .trim()
      .replace(/\/?$/, '/');
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string; link?: boolean }>;
    };
    const needed = Object.entries(lock.packages).filter(([path, p]) => path !== '' && !p.link && p.version && existsSync(join(ROOT, path)));
    const address = (path: string, p: { version?: string; resolved?: string }) => {
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      return p.resolved ?? `${registry}${name}/-/${name.split('/').pop()}-${p.version}.tgz`;
    };
    return needed.length > 0 && needed.every(([path, p]) => listed.has(address(path, p)));
  } catch {
    return false;
  }
})();

/** An environment for npm: a home and user config of its own, offline, on `cache` (an empty one of its own by default). */
function npmEnv(cache?: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv(extra);
  // npm's own temp files (on Node 22+ its compile cache) go in the home, which is removed after the file.
  env.TMPDIR = join(env.HOME!, 'tmp');
  mkdirSync(env.TMPDIR);
  const userconfig = join(env.HOME!, '.npmrc');
  writeFileSync(userconfig, 'update-notifier=false\naudit=false\nfund=false\n');
  return {
    ...env,
    npm_config_userconfig: userconfig,
    npm_config_cache: cache ?? join(env.HOME!, '.npm'),
    npm_config_offline: 'true',
  };
}

/** npm's warnings (lines `npm warn …`). */
const warnings = (r: Run) => `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /^npm warn/i.test(l));

interface PackReport {
  filename: string;
  entryCount: number;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

let pack: PackReport;
let tarballDir: string;
let tarball: string;
let repo: string;

beforeAll(async () => {
  // The package, as `npm run package` makes it, from this checkout's build (global-setup made it
  // fresh; other test files run it meanwhile, so it is not rebuilt here).
  tarballDir = tempDir('checkin-pack-');
  const r = ok(await run(process.execPath, ['scripts/pack.mjs', '--no-build', '--json', '--pack-destination', tarballDir], ROOT, npmEnv()));
  pack = (JSON.parse(r.stdout) as PackReport[])[0]!;
  tarball = join(tarballDir, pack.filename);

  // A git repository of this checkout as it is (committed or not), without what git ignores.
  repo = tempDir('checkin-repo-');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(repo, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(repo, f));
  }
  const git = { ...cleanEnv(), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'checkin'],
  ]) {
    ok(await run('git', args, repo, git));
  }
}, patient(60_000));

describe('the package', () => {
  it('is checkin-cli with the bin checkin, and its package.json carries no scripts, devDependencies or dependencies', async () => {
    expect(pack.filename).toBe(`checkin-cli-${version}.tgz`);
    const dir = tempDir('checkin-unpack-');
    ok(await run('tar', ['-xzf', tarball, '-C', dir], dir, cleanEnv()));
    const published = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(published.name).toBe('checkin-cli');
    expect(published.bin).toEqual({ checkin: 'bin/checkin.js' });
    expect(published).not.toHaveProperty('scripts');
    expect(published).not.toHaveProperty('devDependencies');
    expect(published).not.toHaveProperty('dependencies');
    expect(published.optionalDependencies).toEqual({ '@napi-rs/keyring': expect.any(String) });
    const repoUrl = (published.repository as { url: string }).url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(published.bugs).toEqual({ url: `${repoUrl}/issues` });
    expect(published.homepage).toBe(`${repoUrl}#readme`);
    expect(pack.files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'bin/checkin.js',
        'bin/package.json',
        'dist/checkin.cjs',
        'dist/mcp-server.cjs',
        'dist/mcp-first.cjs',
        'dist/hook.cjs',
        'dist/help-topics.cjs',
        'dist/sandbox-server.cjs',
      ]),
    );
    // Nothing but those and the vendor files.
    expect(
      pack.files.filter(
        (f) =>
          !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|bin\/checkin\.js|bin\/package\.json|dist\/checkin\.cjs|dist\/mcp-server\.cjs|dist\/mcp-first\.cjs|dist\/hook\.cjs|dist\/help-topics\.cjs|dist\/sandbox-server\.cjs|dist\/vendor\/[^/]+\.cjs|skills\/checkin\/SKILL\.md|man\/checkin(-[a-z-]+)?\.1)$/.test(
            f.path,
          ),
      ),
    ).toEqual([]);
  });

  it('npm pack and npm publish in the repository are refused, saying what to run instead', async () => {
    const env = npmEnv();
    const packed = await run('npm', ['pack', '--dry-run'], repo, env);
    expect(packed.code).not.toBe(0);
    expect(packed.stderr).toContain(
      `npm pack in the repository would take its working package.json (scripts, devDependencies).\nnpm run package makes the package as it is published: ./${pack.filename}\n`,
    );
    const published = await run('npm', ['publish', '--dry-run'], repo, env);
    expect(published.code).not.toBe(0);
    expect(published.stderr).toContain(`Publish the package made for it:  npm run package && npm publish ./${pack.filename}\n`);
  });

  it('npm publish --dry-run of the tarball, logged in, to a registry that has not seen the name: no warning, nothing uploaded', async () => {
    // A stand-in registry on 127.0.0.1: the name is unknown (404), and a publish would be a PUT.
    const requests: string[] = [];
    const registry = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = registry.address() as AddressInfo;
      const env = npmEnv();
      delete env.npm_config_offline;
      const url = `http://127.0.0.1:${port}/`;
      // Logged in, as whoever publishes is (npm says so otherwise): a token for that registry.
      writeFileSync(
        env.npm_config_userconfig!,
        `update-notifier=false\naudit=false\nfund=false\nregistry=${url}\n//127.0.0.1:${port}/:_authToken=not-a-real-token\n`,
      );
      const r = ok(await run('npm', ['publish', '--dry-run', tarball], env.HOME!, env));
      expect(warnings(r)).toEqual([]);
      expect(r.stdout).toBe(`+ ${name}@${version}\n`);
      expect(r.stderr).toContain(`npm notice Publishing to ${url} with tag latest and default access (dry-run)`);
      expect(requests.filter((q) => !q.startsWith('GET '))).toEqual([]);
    } finally {
      await new Promise((resolve) => registry.close(resolve));
    }
  });

  it(
    'npm install -g of the tarball, into a clean prefix: no warning, and checkin runs',
    async () => {
      const env = npmEnv();
      const prefix = join(env.HOME!, 'prefix');
      const r = ok(await run('npm', ['install', '-g', '--prefix', prefix, tarball], env.HOME!, env));
      expect(warnings(r)).toEqual([]);
      expect(r.stdout).toMatch(/^added 1 package/m);
      const v = ok(await run(join(prefix, 'bin', 'checkin'), ['--version'], env.HOME!, cleanEnv()));
      expect(v.stdout).toBe(`${version}\n`);
      const installed = JSON.parse(readFileSync(join(prefix, 'lib', 'node_modules', name, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(installed).not.toHaveProperty('scripts');
      // The man pages, linked where man looks under the prefix: one per command, and `man checkin`.
      const man1 = join(prefix, 'share', 'man', 'man1');
      expect(readdirSync(man1).length).toBe(readdirSync(join(ROOT, 'man')).length);
      expect(readFileSync(join(man1, 'checkin-today.1'), 'utf8')).toMatch(
        /^\.TH "CHECKIN-TODAY" "1" "" "checkin [\d.]+" "checkin manual"\n\.SH NAME\ncheckin\\-today \\- Fill in or show today's check\\-in\n\.SH SYNOPSIS\n/,
      );
      const hasMan = (() => {
        try {
          execFileSync('man', ['--version'], { stdio: 'ignore' });
          return true;
        } catch {
          return false;
        }
      })();
      if (hasMan) {
        const page = ok(await run('man', ['-P', 'cat', 'checkin-today'], env.HOME!, { ...cleanEnv(), MANPATH: join(prefix, 'share', 'man'), MANWIDTH: '80' }));
        expect(page.stdout).toMatch(/NAME\n +checkin-today - Fill in or show today's check-in\n/);
        expect(page.stdout).toMatch(/ +--from-file <path>\n/);
      }
    },
    patient(30_000),
  );

  it(
    "npm install of the tarball into a project: no warning, and the project's checkin runs",
    async () => {
      const env = npmEnv();
      const project = join(env.HOME!, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), '{ "private": true }\n');
      const r = ok(await run('npm', ['install', tarball], project, env));
      expect(warnings(r)).toEqual([]);
      const v = ok(await run(join(project, 'node_modules', '.bin', 'checkin'), ['--version'], project, cleanEnv()));
      expect(v.stdout).toBe(`${version}\n`);
    },
    patient(30_000),
  );

  it(
    'npx ./checkin-cli-<version>.tgz today shows the same as the checkout, against a sandbox',
    async () => {
      const sb = await startSandbox({ rateLimit: false });
      try {
        const api = { CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token };
        const env = npmEnv(undefined, api);
        const viaNpx = ok(await run('npx', ['--yes', `./${pack.filename}`, 'today'], tarballDir, env));
        const checkout = await runCli(['today'], { env: cleanEnv(api) });
        expect(checkout.code).toBe(0);
        expect(viaNpx.stdout).toMatch(/^Check-in \d{4}-\d\d-\d\d · Ada Lovelace/);
        expect(viaNpx.stdout).toBe(checkout.stdout);
        expect(viaNpx.stderr).toBe('');
      } finally {
        await sb.close();
      }
    },
    patient(30_000),
  );
});

// Each installs the devDependencies in a clone from the lockfile (some 200 packages) to build:
// 10 to 50 s each, with the machine's load. What they test is npm's handling of a git dependency
// and our build, not the Node that runs checkin: CI runs them once, on the machine's Node, and not
// again on each further Node it runs the suite on (CHECKIN_TEST_NODE set, see .ci/run).
const gitSkip = process.env.CHECKIN_TEST_NODE
  ? ''
  : cacheHoldsLockfile
    ? ''
    : " — skipped: the npm cache does not hold the lockfile's packages (run `npm ci` as this user first; these tests stay offline)";
describe.skipIf(Boolean(process.env.CHECKIN_TEST_NODE) || !cacheHoldsLockfile)(`from git (once per CI run: on the machine's Node)${gitSkip}`, () => {
  it(
    "a project's npm install git+file://… builds it (prepare), and checkin runs",
    async () => {
      const env = npmEnv(userCache);
      const project = join(env.HOME!, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), '{ "private": true }\n');
      ok(await run('npm', ['install', `git+file://${repo}`], project, env, 150_000));
      const v = ok(await run(join(project, 'node_modules', '.bin', 'checkin'), ['--version'], project, cleanEnv()));
      expect(v.stdout).toBe(`${version}\n`);
    },
    patient(180_000),
  );

  it(
    'globally, as the README says instead of npm install -g git+…: clone, npm ci, npm run package, npm install -g the tarball',
    async () => {
      const env = npmEnv(userCache);
      const clone = join(env.HOME!, 'checkin');
      try {
        ok(await run('git', ['clone', '-q', repo, clone], env.HOME!, { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }));
        ok(await run('npm', ['ci'], clone, env, 150_000));
        const packed = ok(await run('npm', ['run', '--silent', 'package'], clone, env, 60_000));
        expect(packed.stdout).toMatch(new RegExp(`^checkin-cli-${version}\\.tgz: ${pack.entryCount} files, `));
        const prefix = join(env.HOME!, 'prefix');
        const r = ok(await run('npm', ['install', '-g', '--prefix', prefix, `./checkin-cli-${version}.tgz`], clone, env));
        expect(warnings(r)).toEqual([]);
        const v = ok(await run(join(prefix, 'bin', 'checkin'), ['--version'], clone, cleanEnv()));
        expect(v.stdout).toBe(`${version}\n`);
      } finally {
        // Its node_modules is some 200 packages: removed here, in the test's own time, not after the file.
        await rm(clone, { recursive: true, force: true });
      }
    },
    patient(240_000),
  );
  it(
    "the README's quick start, as written, in a fresh clone: npm install && npm run demo, npm link, then `checkin` is a command",
    async () => {
      const env = npmEnv(userCache);
      const clone = join(env.HOME!, 'quick');
      // npm link writes where npm keeps global commands: here a prefix of the test's own (as npm_config_prefix says), on PATH.
      const prefix = join(env.HOME!, 'global');
      const shellEnv = { ...env, npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${env.PATH}` };
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const block = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
      const lines = block
        .split('\n')
        .map((l) => l.replace(/\s+#.*$/, '').trim())
        .filter(Boolean);
      expect(lines).toEqual(['npm install && npm run demo', 'npm test', 'npm link --ignore-scripts', 'checkin --version']);
      try {
        ok(await run('git', ['clone', '-q', repo, clone], env.HOME!, { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }));
        // Each line in a shell, in the clone, as written; `npm test` is this suite (run by CI itself), not run again inside it.
        for (const line of lines.filter((l) => l !== 'npm test')) {
          const r = ok(await run('bash', ['-c', line], clone, shellEnv, 200_000));
          expect(warnings(r), line).toEqual([]);
          if (line === 'checkin --version') expect(r.stdout).toBe(`${version}\n`);
          if (line.includes('npm run demo')) expect(r.stderr).toContain('npm link --ignore-scripts');
        }
      } finally {
        await rm(clone, { recursive: true, force: true });
      }
    },
    patient(300_000),
  );
});

describe('the README and its install topic (docs/topics/install.md)', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8') + readFileSync(join(ROOT, 'docs', 'topics', 'install.md'), 'utf8');

  it("states the package's facts as they are: files exactly, sizes within 5%", () => {
    const m = /(\d+) files, about (\d+) kB packed \((\d+(?:\.\d+)?) MB unpacked\)/.exec(readme.replace(/\s+/g, ' '));
    expect(m, 'install.md: "<N> files, about <N> kB packed (<N.N> MB unpacked)"').not.toBeNull();
    const [, files, packedKb, unpackedMb] = m!;
    const facts = { files: Number(files), packed: Number(packedKb) * 1000, unpacked: Number(unpackedMb) * 1e6 };
    const actual = `${pack.entryCount} files, about ${Math.round(pack.size / 10_000) * 10} kB packed (${(pack.unpackedSize / 1e6).toFixed(1)} MB unpacked)`;
    expect(facts.files, `the pack: ${actual}`).toBe(pack.entryCount);
    expect(Math.abs(facts.packed - pack.size) / pack.size, `the pack: ${actual}`).toBeLessThan(0.05);
    expect(Math.abs(facts.unpacked - pack.unpackedSize) / pack.unpackedSize, `the pack: ${actual}`).toBeLessThan(0.05);
  });

  it('shows the install commands tested here, with the registry name and the tarball npm run package makes', () => {
    for (const command of [
      'npm install -g checkin-cli',
      'npx checkin-cli today',
      `npm install -g ./${pack.filename}`,
      `npx ./${pack.filename} today`,
      'npm run package',
      'npm ci && npm run package && npm install -g ./' + pack.filename,
    ]) {
      expect(readme.includes(command), `README has: ${command}`).toBe(true);
    }
    expect(/npm install -g checkin\b(?!-)/.test(readme), 'README has: npm install -g checkin (an unrelated package)').toBe(false);
  });
});
