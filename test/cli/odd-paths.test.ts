// Paths that are not plain: a home, config, cache and state folder with spaces, quotes, % and
// non-ASCII letters, named by XDG_CONFIG_HOME / XDG_CACHE_HOME / XDG_STATE_HOME — login, a draft
// kept and resumed, the inbox marker, completion from the cache, and a cron line run as cron runs
// it. Then a read-only home (reads work, writes say which folder, typed text is kept elsewhere),
// and the drafts of earlier versions turned into outbox entries in the state folder.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, linkSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { BIN, FAKED_CLOCK_ARGS, ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { tempDir, track } from '../helpers/cleanup.js';
import { entryOf, writeOldDraft } from '../helpers/earlier.js';
import { describeRequest } from '../helpers/harness.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { folderEntries, folderView } from '../helpers/outbox.js';
import { patient } from '../helpers/patience.js';

let sb: Sandbox;
let base: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (base = e)));
const today = () => localDateKey(new Date()); // the CLI runs with TZ=UTC, as this process does
const fail = (method: string) => sb.inject({ method, status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' });
/** A folder's files; a drafts folder's entries as `<id>.json` (test/helpers/outbox.ts). */
const files = (dir: string) => (existsSync(dir) ? folderView(dir) : []);
/** An entry by the name files() gives it. */
const entry = (dir: string, name: string) => folderEntries(dir).find((e) => `${e.id}.json` === name);
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/** A user whose every folder is hard to spell: HOME and the three XDG folders, no CHECKIN_CONFIG_DIR. */
function oddUser() {
  const root = tempDir('checkin-paths-');
  const home = join(root, "100% Zoë's Ünïcode home");
  const xdg = { config: join(root, 'cönfig dir'), cache: join(root, 'cäche $HOME dir'), state: join(root, 'stâte `dir`') };
  for (const d of [home, ...Object.values(xdg)]) mkdirSync(d, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...base, HOME: home, XDG_CONFIG_HOME: xdg.config, XDG_CACHE_HOME: xdg.cache, XDG_STATE_HOME: xdg.state };
  delete env.CHECKIN_CONFIG_DIR;
  const dirs = { config: join(xdg.config, 'checkin'), cache: join(xdg.cache, 'checkin'), state: join(xdg.state, 'checkin') };
  return { root, home, env, dirs, drafts: join(dirs.state, 'drafts') };
}

describe('a home and XDG folders with spaces, quotes, % and non-ASCII letters', () => {
  it('login keeps the token in the config folder and `me` in the cache folder; a draft is kept in the state folder and resumed', async () => {
    const u = oddUser();
    const user = { ...u.env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined };
    const login = await runCli(['login', '--with-token', '--api-url', sb.url], { env: user, input: sb.token });
    expect(login.code).toBe(0);
    expect(login.stderr.split('\n')[1]).toMatch(/^The token is in (.+) \(mode 0600\): /);
    expect(/^The token is in (.+) \(mode 0600\)/.exec(login.stderr.split('\n')[1]!)![1]).toBe(join(u.dirs.config, 'config.json'));
    // config.json holds settings only; what the service said is in the cache folder.
    expect(json(join(u.dirs.config, 'config.json'))).toEqual({ profiles: { default: { api_url: sb.url, token: sb.token } } });
    expect(Object.values(json(join(u.dirs.cache, 'cache.json')).cache as object)).toEqual([{ me: expect.objectContaining({ username: 'ada' }) }]);
    expect(files(u.home)).toEqual([]); // nothing under HOME: every folder was named

    fail('PATCH');
    const failed = await runCli(['today', '-i', '-'], { env: user, input: 'Zoë wrote this — ünïcode\n' });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('`checkin today --resume`');
    expect(failed.stderr.split('\n').at(-2)).toBe(
      'What you wrote is kept as a draft: `checkin today --resume` sends it (`checkin drafts` lists everything waiting).',
    );
    const [draft, ...more] = files(u.drafts);
    expect(more).toEqual([]);
    expect(entry(u.drafts, draft!)).toMatchObject({
      id: draft!.replace(/\.json$/, ''),
      target: { kind: 'check-in', key: today() },
      content: { kind: 'answers', answers: { intentions: 'Zoë wrote this — ünïcode' } },
      made: 'piped',
    });
    sb.requests.length = 0;
    const resumed = await runCli(['today', '--resume', '--json'], { env: user });
    expect(resumed).toMatchObject({ code: 0, stderr: '' });
    expect(sb.requests.map((r) => [describeRequest(r), r.body])).toEqual([
      [`GET /api/v2/check-ins/${today()}`, undefined],
      [`PATCH /api/v2/check-ins/${today()}`, { intentions: 'Zoë wrote this — ünïcode' }],
    ]);
    expect(files(u.drafts)).toEqual([]);
  });

  it('the inbox marker is kept in the state folder; completion offers names from the cache folder', async () => {
    const u = oddUser();
    expect((await runCli(['inbox'], { env: u.env })).code).toBe(0);
    const state = json(join(u.dirs.state, 'state.json'));
    expect(Object.keys(state.inbox as object)).toEqual([`${sb.url} ${sb.service.data.people.find((p) => p.username === 'ada')!.id}`]);
    // (The numbering is kept only for a terminal, and this run may have none: see cli/inbox.test.ts.)
    expect((state.inbox as Record<string, { seen_at: string; checked_at: string }>)[Object.keys(state.inbox as object)[0]!]).toMatchObject({
      seen_at: expect.any(String),
      checked_at: expect.any(String),
    });
    expect(existsSync(join(u.dirs.config, 'config.json'))).toBe(false); // nothing there is a setting

    expect((await runCli(['list', '--person', '@grace'], { env: u.env })).code).toBe(0);
    const grace = sb.service.data.people.find((p) => p.username === 'grace')!;
    const r = await runCli(['complete', '--', 'list', '--person', '@gr'], { env: u.env });
    expect(r).toMatchObject({ code: 0, stdout: `@grace\t${grace.name}\n:4\n` });
    // The completion script names no path of this machine: nothing in it needs quoting.
    const script = await runCli(['completion', 'bash'], { env: u.env });
    expect(script.code).toBe(0);
    expect(script.stdout).not.toContain(u.root);
  });

  it('the cron line quotes every path: run with `env -i sh -c` from an install folder with a space, %, a quote and ü in its name', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const sh = async (command: string) =>
      (await promisify(execFile)('env', ['-i', ...FAKED_CLOCK_ARGS, '/bin/sh', '-c', command], { encoding: 'utf8', timeout: 10_000 })).stdout;
    const u = oddUser();
    // An installed copy in a folder as hard to spell as the home.
    const pkg = join(u.root, "app 100% Zoë's ü");
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    const user: NodeJS.ProcessEnv = { ...u.env, CHECKIN_TOKEN: undefined, CHECKIN_API_URL: undefined };
    expect((await runCli(['login', '--with-token', '--api-url', sb.url], { env: user, input: sb.token, bin: join(pkg, 'bin', 'checkin.js') })).code).toBe(0);
    const flag = join(u.root, 'notified ë');
    const r = await runCli(['cron', '--notify', `echo pending > '${flag}'`], { env: user, bin: join(pkg, 'bin', 'checkin.js') });
    expect(r.code).toBe(0);
    const line = r.stdout.trimEnd();
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`).replace(/%/g, '\\%')}'`;
    expect(line).toContain(
      ` XDG_CONFIG_HOME=${q(user.XDG_CONFIG_HOME!)} XDG_CACHE_HOME=${q(user.XDG_CACHE_HOME!)} XDG_STATE_HOME=${q(user.XDG_STATE_HOME!)} HOME=${q(u.home)} TZ=UTC `,
    );
    expect(line).toContain(` ${q(join(pkg, 'bin', 'checkin.js'))} status --quiet; `);
    // What cron runs: the command after the five time fields, \% turned back into %, no environment.
    const command = line.split(' ').slice(5).join(' ').replace(/\\%/g, '%');
    expect(await sh(command)).toBe('');
    expect(readFileSync(flag, 'utf8')).toBe('pending\n');
    // status read the cache where login put it: no GET /me, only today's check-in.
    expect(sb.requests.filter((x) => x.path.endsWith('/me'))).toHaveLength(1); // login's own
  });
});

/** Runs the built CLI as `uid` (another user than root, where the tests run as root: root writes anywhere). */
function runAs(
  uid: number | undefined,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  cli = { node: process.execPath, bin: BIN },
): Promise<CliResult> {
  const child = track(spawn(cli.node, [cli.bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], ...(uid !== undefined && { uid, gid: uid }) }));
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin!.end(input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`checkin ${args.join(' ')}: no exit in 15 s\n${stderr}`))), 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => (clearTimeout(timer), resolve({ code, signal, stdout, stderr })));
  });
}

describe('a read-only home (0555), no XDG folders set', () => {
  const restore: Array<() => void> = [];
  afterEach(() => restore.splice(0).forEach((f) => f()));

  /** The home and a temp folder of the user who runs the CLI (nobody, 65534, when the tests run as root). */
  function readOnlyHome(homeMode = 0o555) {
    const uid = process.getuid?.() === 0 ? 65534 : undefined;
    const root = tempDir('checkin-ro-');
    chmodSync(root, 0o755);
    if (uid !== undefined) {
      // The run's temp folder (0700) must let that user pass through to the home, for this test only.
      const run = dirname(root);
      const mode = statSync(run).mode & 0o7777;
      chmodSync(run, mode | 0o011);
      restore.push(() => chmodSync(run, mode));
    }
    const home = join(root, 'Zoë read-only home');
    const tmp = join(root, 'tmp');
    mkdirSync(home);
    mkdirSync(tmp, { mode: 0o700 });
    if (uid !== undefined) for (const d of [home, tmp]) chownSync(d, uid, uid);
    chmodSync(home, homeMode);
    const env = { ...base, HOME: home, TMPDIR: tmp, CHECKIN_CONFIG_DIR: undefined };
    delete env.CHECKIN_CONFIG_DIR;
    const fallback = join(tmp, `checkin-${uid ?? process.getuid!()}`, 'drafts');
    // That user cannot read this checkout or this Node where they sit in a folder of root's own
    // (a clone made with mktemp -d, Node under ~/.cache): an installed copy of both, beside the home.
    let cli: { node: string; bin: string } | undefined;
    if (uid !== undefined) {
      const app = join(root, 'app');
      for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(app, part), { recursive: true });
      const node = join(root, 'node');
      try {
        linkSync(process.execPath, node);
      } catch {
        copyFileSync(process.execPath, node);
      }
      chmodSync(node, 0o755);
      cli = { node, bin: join(app, 'bin', 'checkin.js') };
    }
    return { uid, home, tmp, env, fallback, run: (args: string[], input?: string) => runAs(uid, args, env, input, cli) };
  }

  it('reads work and say nothing of the folders; login fails with one line naming the file, exit 1', async () => {
    const h = readOnlyHome();
    for (const args of [
      ['me', '--json'],
      ['status', '--json'],
      ['people', '--json'],
      ['today', '--json'],
    ]) {
      const r = await h.run(args);
      expect([args, r.code, r.stderr]).toEqual([args, args[0] === 'status' ? 3 : 0, '']);
    }
    expect(readdirSync(h.home)).toEqual([]);
    const login = await h.run(['login', '--with-token'], sb.token);
    expect(login).toMatchObject({
      code: 1,
      stderr: `error: Cannot write ${join(h.home, '.config', 'checkin', 'config.json')} (permission denied)\nMake that folder writable, or set CHECKIN_CONFIG_DIR to a folder you can write.\n`,
    });
  });

  it('typed text is kept in a private temp folder, the message says where, and --resume sends it from there', async () => {
    const h = readOnlyHome();
    fail('PATCH');
    const r = await h.run(['today', '-i', '-'], 'Kept though home is read-only\n');
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(
      `warning: Cannot keep a draft in ${join(h.home, '.local', 'state', 'checkin', 'drafts')} (permission denied); it is kept in ${h.fallback} for now — a temporary folder, emptied at reboot on many systems; it moves home at the next run that can write there`,
    );
    expect(lines.at(-2)).toBe('What you wrote is kept as a draft: `checkin today --resume` sends it (`checkin drafts` lists everything waiting).');
    const [draft, ...more] = files(h.fallback);
    expect(more).toEqual([]);
    expect(entry(h.fallback, draft!)).toMatchObject({
      id: draft!.replace(/\.json$/, ''),
      target: { kind: 'check-in', key: today() },
      content: { answers: { intentions: 'Kept though home is read-only' } },
    });
    sb.requests.length = 0;
    const resumed = await h.run(['today', '--resume', '--json']);
    expect(resumed.code).toBe(0);
    expect(sb.requests.map((x) => [describeRequest(x), x.body])).toEqual([
      [`GET /api/v2/check-ins/${today()}`, undefined],
      [`PATCH /api/v2/check-ins/${today()}`, { intentions: 'Kept though home is read-only' }],
    ]);
    expect(files(h.fallback)).toEqual([]);
  });

  it('a temp folder someone else made (or others can write) is never used: what was typed is printed', async () => {
    const h = readOnlyHome();
    const planted = join(h.tmp, `checkin-${h.uid ?? process.getuid!()}`);
    mkdirSync(planted, { mode: 0o777 });
    chmodSync(planted, 0o777); // whoever made it, others can write it
    if (h.uid !== undefined) chownSync(planted, h.uid, h.uid);
    fail('PATCH');
    const r = await h.run(['today', '-i', '-'], 'Printed, not planted\n');
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      `warning: Cannot keep a draft in ${join(h.home, '.local', 'state', 'checkin', 'drafts')} (permission denied); going on without one`,
    );
    expect(r.stderr).toContain('No draft could be kept; here is what you wrote:\n');
    expect(r.stderr).toContain('Printed, not planted\n');
    expect(readdirSync(planted)).toEqual([]);
  });

  it('an earlier version’s draft in a config folder that cannot be written: left where it is and said, never copied (a copy sent would leave the original to be sent again); moved in and sent once the folder can be written', async () => {
    const h = readOnlyHome(0o755);
    const old = join(h.home, '.config', 'checkin', 'drafts');
    const kept = writeOldDraft(old, {
      apiUrl: sb.url,
      target: { kind: 'check-in', key: today() },
      targetId: `check-in ${today()}`,
      content: { kind: 'answers', answers: { intentions: 'Old and stuck' } },
      savedAt: '2026-11-20T09:00:00.000Z',
    });
    const name = kept.file.slice(old.length + 1);
    chmodSync(kept.file, 0o644);
    // Someone else's folder (root's, as the CLI runs as nobody), or one of the user's made read-only.
    for (const d of [join(h.home, '.config'), join(h.home, '.config', 'checkin'), old]) chmodSync(d, h.uid === undefined && d === old ? 0o555 : 0o755);
    const now = join(h.home, '.local', 'state', 'checkin', 'drafts');
    const stuck = `warning: the drafts of an earlier version in ${old} cannot be moved into ${now} (permission denied); they are left where they are\n`;
    for (const args of [
      ['today', '--resume', '--json'],
      ['drafts', '--json'],
    ]) {
      const r = await h.run(args);
      expect([args, r.code, r.stderr, r.stdout]).toEqual([
        args,
        args[0] === 'today' ? 2 : 0,
        args[0] === 'today' ? `${stuck}error: There is no draft for today (${today()})\n` : `${stuck}No drafts are waiting.\n`,
        args[0] === 'today' ? '' : '[]\n',
      ]);
      expect(files(now)).toEqual([]);
      expect(files(old)).toEqual([name]);
      expect(readFileSync(kept.file, 'utf8')).toBe(kept.text);
    }
    expect(sb.requests.filter((x) => x.method !== 'GET')).toEqual([]);

    // The folder made writable: moved in, sent, and gone from both places; the next run sends nothing.
    if (h.uid === undefined) chmodSync(old, 0o755);
    else chownSync(old, h.uid, h.uid);
    sb.requests.length = 0;
    const r = await h.run(['today', '--resume', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(sb.requests.map((x) => [describeRequest(x), x.body])).toEqual([
      [`GET /api/v2/check-ins/${today()}`, undefined],
      [`PATCH /api/v2/check-ins/${today()}`, { intentions: 'Old and stuck' }],
    ]);
    expect(files(now)).toEqual([]);
    expect(files(old)).toEqual([]);
    const again = await h.run(['today', '--resume']);
    expect([again.code, again.stderr]).toEqual([2, `error: There is no draft for today (${today()})\n`]);
    expect(sb.requests.filter((x) => x.method !== 'GET')).toHaveLength(1);
  });
});

describe('drafts of earlier versions (in the config folder) become entries in the state folder, once', () => {
  /** A user whose drafts an earlier checkin left in ~/.config/checkin/drafts, as it wrote them. */
  function earlierUser(n: number) {
    const u = oddUser();
    const env = { ...u.env, XDG_STATE_HOME: undefined };
    delete env.XDG_STATE_HOME;
    const old = join(u.dirs.config, 'drafts');
    const now = join(u.home, '.local', 'state', 'checkin', 'drafts');
    const written = Array.from({ length: n }, (_, i) =>
      writeOldDraft(old, {
        apiUrl: 'https://elsewhere.example/api/v2',
        target: { kind: 'comment', on: 'check-in', id: String(i) },
        targetId: `comment check-in ${i}`,
        content: { kind: 'comment', body: `Zoë's comment ${i}` },
        savedAt: `2026-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`,
      }),
    );
    return { ...u, env, old, now, written };
  }
  /** The entries in the state folder, by file name. */
  const entries = (dir: string) => Object.fromEntries(files(dir).map((n) => [n, entry(dir, n) as { id: string; created_at: string }]));
  /** Each entry is in the file its id names; returned oldest first. */
  const byAge = (all: Record<string, { id: string; created_at: string }>) => {
    expect(Object.keys(all)).toEqual(Object.values(all).map((x) => `${x.id}.json`));
    return Object.values(all).sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
  };

  it('today --resume sends the check-in draft an earlier version kept; the others become entries as they were; a second run moves and sends nothing', async () => {
    const e = earlierUser(3);
    writeOldDraft(e.old, {
      apiUrl: sb.url,
      target: { kind: 'check-in', key: today() },
      targetId: `check-in ${today()}`,
      content: { kind: 'answers', answers: { intentions: 'From before the move' } },
      savedAt: '2026-01-02T00:00:00.000Z',
    });
    const resumed = await runCli(['today', '--resume', '--json'], { env: e.env });
    expect(resumed).toMatchObject({ code: 0, stderr: '' });
    expect(sb.requests.map((x) => [describeRequest(x), x.body])).toEqual([
      [`GET /api/v2/check-ins/${today()}`, undefined],
      [`PATCH /api/v2/check-ins/${today()}`, { intentions: 'From before the move' }],
    ]);
    // Nothing is left in the old folder; the sent one is gone; the others are entries, each once.
    expect(files(e.old)).toEqual([]);
    const after = entries(e.now);
    expect(byAge(after)).toEqual(e.written.map(entryOf));

    const again = await runCli(['today', '--resume'], { env: e.env });
    expect([again.code, again.stderr]).toEqual([2, `error: There is no draft for today (${today()})\n`]);
    expect(entries(e.now)).toEqual(after);
    expect(sb.requests.filter((x) => x.method !== 'GET')).toHaveLength(1);
  });

  it('four processes moving 300 drafts at once lose none, make none twice and leave no temporary file', { timeout: patient(60_000) }, async () => {
    const e = earlierUser(300);
    const runs = await Promise.all([0, 1, 2, 3].map(() => runCli(['today', '--resume'], { env: e.env })));
    // Each finds no draft for today once the move is done; a run that found another holding the
    // database longer than a look waits (1 s: a loaded machine) says it is busy, and nothing else.
    const busy = /^error: Cannot read the drafts in .*: the drafts database is busy \(another checkin is writing it\); try again in a moment\n$/;
    for (const r of runs)
      if (r.code === 1) expect(r.stderr).toMatch(busy);
      else expect([r.code, r.stderr]).toEqual([2, `error: There is no draft for today (${today()})\n`]);
    expect(runs.filter((r) => r.code === 2).length).toBeGreaterThan(0);
    expect(files(e.old)).toEqual([]);
    const after = entries(e.now);
    expect(Object.keys(after)).toHaveLength(300);
    expect(byAge(after)).toEqual(e.written.map(entryOf));
  });
});
