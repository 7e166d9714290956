// `checkin hook session-start|stop|post-commit` and `checkin skill install --hooks`, as an agent host
// and git run them: the built CLI spawned with a HOME of its own (a Claude-Code-style ~/.claude and a
// Codex ~/.codex), the hooks run from the commands written into settings.json, a git repository with
// commits of mine and someone else's. What today is and whether its check-in is pending comes from
// the sandbox's data (as `checkin status --json` reads it), never from the calendar. Every hook is
// checked to send nothing: the sandbox's request log does not move, and a listener standing in for the
// service sees no connection.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
// @ts-expect-error: a script of the repository's, plain JavaScript
import { instructions } from '../../scripts/callgrind.mjs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tempDir, track } from '../helpers/cleanup.js';
import { CLI_WORDS, FAKED_CLOCK, outcome, runCli, spawnCli, type CliResult } from '../helpers/cli.js';
import { patient } from '../helpers/patience.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  env = e;
});

const ME = 'ada@example.com';

/** A repository with `mine` commits by me and one by someone else, made now (git's own clock). */
function repository(mine: number): { dir: string; commit: (message: string, at?: Date) => void } {
  const dir = tempDir('checkin-hook-repo-');
  const gitEnv = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
  const git = (args: string[], extra: NodeJS.ProcessEnv = {}) => execFileSync('git', ['-C', dir, ...args], { env: { ...gitEnv, ...extra }, encoding: 'utf8' });
  git(['init', '-q']);
  git(['config', 'user.email', ME]);
  git(['config', 'user.name', 'Ada']);
  const dated = (at: Date) => ({ GIT_AUTHOR_DATE: at.toISOString(), GIT_COMMITTER_DATE: at.toISOString() });
  const commit = (message: string, at?: Date) => void git(['commit', '-q', '--allow-empty', '-m', message], at ? dated(at) : {});
  // Earlier today (TZ=UTC: the hooks' today), whole seconds before anything is sent.
  const now = Date.now();
  const earlier = new Date(Math.max(now - (now % 86_400_000) + 1_000, now - 600_000));
  for (let i = 1; i <= mine; i++) commit(`Work ${i}`, earlier);
  git(['commit', '-q', '--allow-empty', '-m', 'Theirs'], {
    ...dated(earlier),
    GIT_AUTHOR_EMAIL: 'grace@example.com',
    GIT_COMMITTER_EMAIL: 'grace@example.com',
  });
  return { dir, commit };
}

/** A hook command as the host runs it: through sh, in `cwd`, the event's JSON on stdin (or nothing). */
function host(command: string, cwd: string, event?: Record<string, unknown>, e: NodeJS.ProcessEnv = env): Promise<CliResult> {
  const child = track(spawn('sh', ['-c', command], { cwd, env: e, stdio: ['pipe', 'pipe', 'pipe'] }));
  const done = outcome(child, command);
  child.stdin!.end(event === undefined ? '' : JSON.stringify(event));
  return done;
}

/** Today's state as the sandbox's data has it (status's own look, which the hooks then read). */
async function look(cwd: string): Promise<{ date: string; state: string }> {
  const r = await runCli(['status', '--json'], { env, cwd });
  return JSON.parse(r.stdout) as { date: string; state: string };
}

/** The commands checkin wrote into a settings file, by event. */
function commandsIn(file: string): Record<string, string[]> {
  const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  return Object.fromEntries(
    Object.entries(settings.hooks).map(([event, groups]) => [event, groups.flatMap((g) => g.hooks.map((h) => h.command)).filter((c) => / hook /.test(c))]),
  );
}

const PENDING = "today's check-in is still pending";
/** What SessionStart's line ends with (the agent's context): the person's yes first. */
const ASK_FIRST = ". Send nothing without the person's yes: ask them first.";

describe('the hooks, installed in a Claude-Code-style settings folder', () => {
  it('say what is to do on a pending day, nothing on a done one; never a request', async () => {
    const home = env.HOME!;
    mkdirSync(join(home, '.claude'), { recursive: true });
    const settingsFile = join(home, '.claude', 'settings.json');
    const before = {
      model: 'opus',
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
      },
      permissions: { allow: ['Bash(ls)'] },
    };
    writeFileSync(settingsFile, JSON.stringify(before, null, 2) + '\n');
    const repo = repository(3);

    const installed = await runCli(['skill', 'install', '--hooks'], { env, cwd: repo.dir });
    expect(installed).toMatchObject({ code: 0, stderr: '' });
    expect(installed.stdout).toContain(`Added checkin's hooks (SessionStart, Stop) for Claude Code (user): ${settingsFile}\n`);
    // Merged: the person's own hooks and settings kept, in their places; checkin's added.
    const merged = JSON.parse(readFileSync(settingsFile, 'utf8')) as typeof before & { hooks: Record<string, unknown[]> };
    expect(Object.keys(merged)).toEqual(['model', 'hooks', 'permissions']);
    expect(merged.model).toBe('opus');
    expect(merged.permissions).toEqual(before.permissions);
    expect(merged.hooks.PreToolUse).toEqual(before.hooks.PreToolUse);
    expect(merged.hooks.Stop![0]).toEqual(before.hooks.Stop[0]);
    const commands = commandsIn(settingsFile);
    expect(commands.SessionStart).toHaveLength(1);
    expect(commands.Stop).toHaveLength(1);
    // Never an exit 2 (a Stop hook's "block"): each ends `|| true`.
    expect(commands.SessionStart![0]).toMatch(/ hook session-start \|\| true$/);
    expect(commands.Stop![0]).toMatch(/ hook stop \|\| true$/);
    expect(merged.hooks.Stop![1]).toEqual({ hooks: [{ type: 'command', command: commands.Stop![0], timeout: 10 }] });
    // A second install changes nothing.
    const { ino, mtimeMs } = statSync(settingsFile);
    const again = await runCli(['skill', 'install', '--hooks'], { env, cwd: repo.dir });
    expect(again.stdout).toContain(`checkin's hooks for Claude Code (user) are up to date: ${settingsFile}\n`);
    expect(statSync(settingsFile)).toMatchObject({ ino, mtimeMs });

    const start = (cwd: string, event?: Record<string, unknown>) => host(commands.SessionStart![0]!, cwd, event);
    const stop = (event?: Record<string, unknown>) => host(commands.Stop![0]!, home, event);

    // Before any look at today: the commits only (today's state is not known without a request).
    let requests = sb.requests.length;
    expect(await start(repo.dir)).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `checkin: 3 commits since your last log (\`checkin log\` records work)${ASK_FIRST}\n`,
    });

    const today = await look(repo.dir);
    expect(today.state).toBe('pending'); // the demo person's team checks in every day
    requests = sb.requests.length;
    const line = `checkin: ${PENDING}; 3 commits since your last log (\`checkin today\` fills it in)`;
    // SessionStart: the folder is the event's (the host runs the hook wherever it is).
    expect(await start(home, { session_id: 's1', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' })).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: `${line}${ASK_FIRST}\n`,
    });
    // Stop: handed to the agent once a session, then let through.
    const stopEvent = { session_id: 's1', cwd: repo.dir, hook_event_name: 'Stop', stop_hook_active: false };
    const first = await stop(stopEvent);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout)).toEqual({
      decision: 'block',
      reason: `${line}. Tell the person before you finish${ASK_FIRST} (Said once a session.)`,
    });
    expect(first.stdout.split('\n')).toHaveLength(2); // one line
    expect(await stop(stopEvent)).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });
    expect(await stop({ ...stopEvent, session_id: 's2', stop_hook_active: true })).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });
    // Run by hand (no event): the plain line.
    expect((await runCli(['hook', 'stop'], { env, cwd: repo.dir })).stdout).toBe(`${line}\n`);
    // git's post-commit hook, in the repository.
    expect(await runCli(['hook', 'post-commit'], { env, cwd: repo.dir })).toEqual({ code: 0, signal: null, stderr: '', stdout: `${line}\n` });
    expect(sb.requests.length).toBe(requests);

    // The check-in sent: a done day, and the commits it came after are reported.
    expect((await runCli(['today', '-i', 'Shipped the hooks'], { env, cwd: repo.dir })).code).toBe(0);
    expect((await look(repo.dir)).state).toBe('filled');
    requests = sb.requests.length;
    expect(await start(home, { session_id: 's3', cwd: repo.dir, hook_event_name: 'SessionStart' })).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });
    expect(await stop({ ...stopEvent, session_id: 's3' })).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });
    expect(await runCli(['hook', 'post-commit'], { env, cwd: repo.dir })).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });

    // A commit after it (dated ahead: git keeps whole seconds), then a log of it.
    repo.commit('After the check-in', new Date(Date.now() + 5_000));
    expect((await runCli(['hook', 'post-commit'], { env, cwd: repo.dir })).stdout).toBe('checkin: 1 commit since your last log (`checkin log` records work)\n');
    expect(sb.requests.length).toBe(requests);
    expect((await runCli(['log', 'After the check-in'], { env, cwd: repo.dir })).code).toBe(0);
    requests = sb.requests.length;
    // The log moved the mark; the commit is dated 5 s ahead of it, so a mark past the commit (a log made later) is what silences it.
    const marks = JSON.parse(readFileSync(join(env.CHECKIN_CONFIG_DIR!, 'hooks.json'), 'utf8')) as {
      accounts: Record<string, { reported_at: string; sent: string }>;
    };
    const mark = Object.values(marks.accounts)[0]!;
    expect(mark.sent).toBe(today.date);
    expect(Date.parse(mark.reported_at)).toBeGreaterThan(Date.now() - patient(60_000));
    marks.accounts[Object.keys(marks.accounts)[0]!]!.reported_at = new Date(Date.now() + 10_000).toISOString();
    writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'hooks.json'), JSON.stringify(marks));
    expect((await runCli(['hook', 'post-commit'], { env, cwd: repo.dir })).stdout).toBe('');
    expect(sb.requests.length).toBe(requests);

    // Uninstall: only checkin's go; the file is the person's again.
    const removed = await runCli(['skill', 'uninstall'], { env, cwd: repo.dir });
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toBe(
      `Removed checkin's hooks for Claude Code (user): ${settingsFile}\nRemoved the checkin skill for Claude Code (user): ${join(home, '.claude', 'skills', 'checkin', 'SKILL.md')}\n`,
    );
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(before);
    expect(existsSync(join(home, '.claude', 'skills', 'checkin'))).toBe(false);
    expect((await runCli(['skill', 'uninstall'], { env, cwd: repo.dir })).stdout).toBe("Nothing of checkin's is installed for Claude Code (user)\n");
  });

  it('drafts kept and not sent are said too; the drafts stay as they were', async () => {
    const cwd = tempDir('checkin-hook-plain-');
    // A log kept while the service cannot be reached: a draft.
    const down = { ...env, CHECKIN_API_URL: 'http://127.0.0.1:9/api/v2', CHECKIN_TIMEOUT: '2' };
    expect((await runCli(['log', 'Kept while offline'], { env: down, cwd })).code).not.toBe(0);
    const kept = (await runCli(['drafts', '--json'], { env: down, cwd })).stdout;
    expect(JSON.parse(kept)).toHaveLength(1);
    const r = await runCli(['hook', 'session-start'], { env: down, cwd });
    expect(r).toEqual({ code: 0, signal: null, stderr: '', stdout: `checkin: 1 draft kept, not sent (\`checkin drafts\` lists them)${ASK_FIRST}\n` });
    expect((await runCli(['drafts', '--json'], { env: down, cwd })).stdout).toBe(kept);
  });

  it('a damaged outbox is only read: not set aside nor made again, nothing said', async () => {
    const cwd = tempDir('checkin-hook-damaged-');
    const down = { ...env, CHECKIN_API_URL: 'http://127.0.0.1:9/api/v2', CHECKIN_TIMEOUT: '2' };
    expect((await runCli(['log', 'Kept while offline'], { env: down, cwd })).code).not.toBe(0);
    const db = execFileSync('find', [env.HOME!, '-name', 'outbox.db'], { encoding: 'utf8' }).trim();
    expect(db).not.toBe('');
    const folder = join(db, '..');
    for (const log of ['-wal', '-shm']) rmSync(db + log, { force: true });
    writeFileSync(db, 'not a database, only damage '.repeat(200));
    const before = readdirSync(folder).sort();
    for (const sub of ['session-start', 'stop', 'post-commit']) {
      const r = await runCli(['hook', sub], { env: down, cwd, input: '{"session_id":"d"}' });
      expect(r, sub).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });
    }
    expect(readdirSync(folder).sort()).toEqual(before);
    expect(readFileSync(db, 'utf8')).toBe('not a database, only damage '.repeat(200));
  });
});

describe('a hook never breaks the session it runs in', () => {
  /** A stand-in for the service on loopback that counts connections (none may come). */
  async function listener(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
    let n = 0;
    const server = createServer((socket) => {
      n++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}/api/v2`, connections: () => n, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('exit 0 and nothing sent: a damaged config, a cache that is not JSON, no git, odd arguments, input that is not JSON or never ends', async () => {
    const service = await listener();
    try {
      const repo = repository(2);
      const e = { ...env, CHECKIN_API_URL: service.url };
      // The same account's look, then damage.
      const cases: Array<[string, NodeJS.ProcessEnv, string[], string | undefined]> = [
        ['plain', e, ['hook', 'stop'], undefined],
        ['odd arguments', e, ['hook', 'session-start', '--bogus', 'extra'], 'not json'],
        ['no git on PATH', { ...e, PATH: '/nonexistent' }, ['hook', 'post-commit'], undefined],
        [
          'unknown profile',
          { ...Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'CHECKIN_TOKEN')), CHECKIN_PROFILE: 'nobody' },
          ['hook', 'stop'],
          '{"session_id": 3}',
        ],
      ];
      for (const [label, ce, args, input] of cases) {
        const r = await runCli(args, { env: ce, cwd: repo.dir, ...(input !== undefined && { input }) });
        expect(r.code, label).toBe(0);
        // Nothing, the line, or (a Stop hook given a host's event) the line as its JSON systemMessage.
        expect(r.stdout, label).toMatch(/^(checkin: [^\n]*\n|\{"systemMessage":"checkin: [^\n]*\}\n)?$/);
      }
      mkdirSync(env.CHECKIN_CONFIG_DIR!, { recursive: true });
      writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'config.json'), '{not json');
      writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'cache.json'), '[]');
      writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'hooks.json'), '"no"');
      for (const sub of ['session-start', 'stop', 'post-commit']) {
        const r = await runCli(['hook', sub], { env: e, cwd: repo.dir, input: '{"hook_event_name":"Stop"}' });
        expect(r.code, sub).toBe(0);
        const line = 'checkin: 2 commits since your last log (`checkin log` records work)';
        expect(r.stdout, sub).toBe(`${sub === 'stop' ? JSON.stringify({ systemMessage: line }) : sub === 'session-start' ? line + ASK_FIRST : line}\n`);
      }
      // Standing input that never ends (a pipe left open): waited for a moment, not forever.
      const child = spawnCli(['hook', 'session-start'], e, { cwd: repo.dir });
      const open = await outcome(child, 'hook with open stdin', patient(10_000));
      expect(open.code).toBe(0);
      expect(service.connections()).toBe(0);
    } finally {
      await service.close();
    }
  });

  it.skipIf(!existsSync('/dev/full'))('output that cannot be written (a full disk): exit 0, nothing said', async () => {
    const repo = repository(2);
    for (const sub of ['session-start', 'stop', 'post-commit']) {
      const full = openSync('/dev/full', 'w');
      try {
        // The line it has to say (2 commits) cannot be written.
        const child = spawnCli(['hook', sub], env, { cwd: repo.dir, stdio: ['pipe', full, 'pipe'] });
        child.stdin!.end();
        expect({ sub, ...(await outcome(child, `checkin hook ${sub} > /dev/full`)) }).toEqual({ sub, code: 0, signal: null, stdout: '', stderr: '' });
      } finally {
        closeSync(full);
      }
    }
  });

  it('never asks the keychain: a token kept there is as if there were none, said nowhere', async () => {
    const dir = tempDir('checkin-hook-keychain-');
    const out = join(dir, 'loaded.txt');
    const preload = join(dir, 'preload.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, Object.keys(require.cache).join('\\n')));\n`);
    mkdirSync(env.CHECKIN_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'config.json'), JSON.stringify({ api_url: env.CHECKIN_API_URL, token_store: 'keychain' }));
    const repo = repository(1);
    const kc = Object.fromEntries(Object.entries(env).filter(([k]) => !['CHECKIN_TOKEN', 'CHECKIN_NO_KEYCHAIN'].includes(k)));
    for (const sub of ['session-start', 'stop', 'post-commit']) {
      const r = await runCli(['hook', sub], { env: { ...kc, NODE_OPTIONS: `--require ${preload}` }, cwd: repo.dir, input: '{"session_id":"k"}' });
      expect(r, sub).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout, sub).toMatch(/1 commit since your last log/);
      expect(readFileSync(out, 'utf8'), sub).not.toMatch(/keyring/);
    }
  });

  it('loads no HTTP client, no TLS, no SQLite, no crypto', async () => {
    const dir = tempDir('checkin-hook-loaded-');
    const out = join(dir, 'loaded.txt');
    const preload = join(dir, 'preload.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => m.slice(13)).join(' ')));\n`,
    );
    await look(tempDir('checkin-hook-look-'));
    const r = await runCli(['hook', 'stop'], { env: { ...env, NODE_OPTIONS: `--require ${preload}` }, cwd: dir });
    expect(r.code).toBe(0);
    const builtins = readFileSync(out, 'utf8').split(' ');
    for (const heavy of ['http', 'https', 'tls', 'sqlite', 'crypto', 'http2', 'zlib']) expect(builtins, heavy).not.toContain(heavy);
  });
});

describe("the Stop hook holds the agent back once a session, and the day is the profile's", () => {
  it('a count that grew is the same reminder: not said again; a mark that cannot be written never blocks', async () => {
    const repo = repository(2);
    const event = { session_id: 'grow', cwd: repo.dir, hook_event_name: 'Stop', stop_hook_active: false };
    const first = await runCli(['hook', 'stop'], { env, cwd: repo.dir, input: JSON.stringify(event) });
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: 'block' });
    // One more commit: "3 commits" now, the same kind of reminder: let through, nothing said.
    repo.commit('Work 3', new Date()); // dated by this process's clock (git's own is not faked under a dated pass)
    expect(await runCli(['hook', 'stop'], { env, cwd: repo.dir, input: JSON.stringify(event) })).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });
    // A new session: held back once for it.
    const other = { ...event, session_id: 'other' };
    expect(JSON.parse((await runCli(['hook', 'stop'], { env, cwd: repo.dir, input: JSON.stringify(other) })).stdout)).toMatchObject({ decision: 'block' });
    // The marks cannot be written (hooks.json is a folder): the line as the host's message to show (JSON:
    // Codex fails a Stop hook whose stdout is not), never a block, at every stop; and so with no session id.
    const marks = join(env.CHECKIN_CONFIG_DIR!, 'hooks.json');
    rmSync(marks, { force: true });
    mkdirSync(marks);
    const shown = `${JSON.stringify({ systemMessage: 'checkin: 3 commits since your last log (`checkin log` records work)' })}\n`;
    for (const session of ['new-1', 'new-1'])
      expect(await runCli(['hook', 'stop'], { env, cwd: repo.dir, input: JSON.stringify({ ...event, session_id: session }) })).toEqual({
        code: 0,
        signal: null,
        stderr: '',
        stdout: shown,
      });
    const { session_id: _none, ...sessionless } = event;
    expect(await runCli(['hook', 'stop'], { env, cwd: repo.dir, input: JSON.stringify(sessionless) })).toEqual({
      code: 0,
      signal: null,
      stderr: '',
      stdout: shown,
    });
  });

  it("commits count from the start of today in the profile's zone (cached), not from this machine's midnight", async () => {
    const zone = 'Pacific/Kiritimati'; // UTC+14 all year, no DST: far from any test machine's
    const ada = sb.service.data.people.find((p) => p.email === ME) ?? sb.service.data.people[0]!;
    ada.time_zone = zone;
    const noTz = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'TZ'));
    // The profile and its zone cached by a look (status).
    const looked = await runCli(['status', '--json'], { env: noTz, cwd: tempDir('checkin-hook-zone-') });
    expect(looked.stderr).toBe('');
    expect(readFileSync(join(env.CHECKIN_CONFIG_DIR!, 'cache.json'), 'utf8')).toContain(zone);
    const dayThere = () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    let start = Date.parse(`${dayThere()}T00:00:00+14:00`);
    // In the first seconds of that day, the commit below would not be in the past yet: wait for the clock to pass it.
    while (Date.now() < start + 3_000) await new Promise((r) => setTimeout(r, 250));
    start = Date.parse(`${dayThere()}T00:00:00+14:00`);
    const repo = repository(0);
    // One commit of mine a second into the profile's today: 14 hours before that date's midnight at UTC.
    repo.commit('Early in the profile day', new Date(start + 1_000));
    const r = await runCli(['hook', 'post-commit'], { env: noTz, cwd: repo.dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^checkin: (today's check-in is still pending; )?1 commit since your last log /);
  });
});

describe("the person's own hooks are theirs", () => {
  it('a command that merely ends in `checkin hook stop`, or runs it under another event, is never rewritten nor removed', async () => {
    const home = env.HOME!;
    mkdirSync(join(home, '.claude'), { recursive: true });
    const settingsFile = join(home, '.claude', 'settings.json');
    const before = {
      hooks: {
        Stop: [
          { hooks: [{ type: 'command', command: 'afplay done.aiff; checkin hook stop' }] },
          { hooks: [{ type: 'command', command: 'echo checkin hook stop' }] },
          { hooks: [{ type: 'command', command: 'checkin hook stop && say hi' }] },
        ],
        SessionStart: [{ hooks: [{ type: 'command', command: 'cd /x && checkin hook session-start' }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'checkin hook stop' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'checkin hook session-start' }] }],
      },
    };
    writeFileSync(settingsFile, JSON.stringify(before, null, 2) + '\n');
    const cwd = tempDir('checkin-hook-theirs-');
    expect((await runCli(['skill', 'install', '--hooks'], { env, cwd })).code).toBe(0);
    const merged = JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks: Record<string, unknown[]> };
    // Theirs all kept as they were, checkin's added after them.
    expect(merged.hooks.Stop!.slice(0, 3)).toEqual(before.hooks.Stop);
    expect(merged.hooks.Stop).toHaveLength(4);
    expect(merged.hooks.SessionStart![0]).toEqual(before.hooks.SessionStart[0]);
    expect(merged.hooks.SessionStart).toHaveLength(2);
    expect(merged.hooks.PreToolUse).toEqual(before.hooks.PreToolUse);
    expect(merged.hooks.UserPromptSubmit).toEqual(before.hooks.UserPromptSubmit);
    // Uninstall: exactly theirs again.
    expect((await runCli(['skill', 'uninstall'], { env, cwd })).code).toBe(0);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual(before);
  });

  it('--profile chosen by flag is carried by the hooks; an older checkin without `hook` on PATH (exit 2) never blocks a stop', async () => {
    const cwd = tempDir('checkin-hook-profile-');
    const r = await runCli(['--profile', 'client-a', 'skill', 'install', '--hooks', '--scope', 'project'], { env, cwd });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const file = join(cwd, '.claude', 'settings.json');
    const commands = commandsIn(file);
    expect(commands.SessionStart![0]).toMatch(/ --profile client-a hook session-start \|\| true$/);
    expect(commands.Stop![0]).toMatch(/ --profile client-a hook stop \|\| true$/);
    // Installed again without the flag: the same two handlers, now without the profile (never a second pair).
    await runCli(['skill', 'install', '--hooks', '--scope', 'project'], { env, cwd });
    const plain = commandsIn(file);
    expect(plain.Stop).toHaveLength(1);
    expect(plain.Stop![0]).toMatch(/[^e] hook stop \|\| true$/);
    expect(plain.Stop![0]).not.toContain('--profile');
    // This checkin on PATH: the hooks say `checkin`. Then an older one takes its place, which knows no `hook`: exit 2, which the host would read as "block".
    const bin = tempDir('checkin-bin-');
    symlinkSync(CLI_WORDS.at(-1)!, join(bin, 'checkin'));
    await runCli(['skill', 'install', '--hooks', '--scope', 'project'], { env: { ...env, PATH: `${bin}:${env.PATH ?? ''}` }, cwd });
    const byName = commandsIn(file);
    expect(byName.Stop).toEqual(['checkin hook stop || true']);
    expect(byName.SessionStart).toEqual(['checkin hook session-start || true']);
    const old = tempDir('checkin-old-bin-');
    writeFileSync(join(old, 'checkin'), '#!/bin/sh\necho "error: unknown command \'hook\'" >&2\nexit 2\n', { mode: 0o755 });
    const oldOnPath = { ...env, PATH: `${old}:${env.PATH ?? ''}` };
    for (const command of [byName.Stop![0]!, byName.SessionStart![0]!])
      expect(await host(command, cwd, { session_id: 's', cwd, hook_event_name: 'Stop' }, oldOnPath)).toMatchObject({ code: 0, stdout: '' });
    // uninstall takes out the profile's form too
    await runCli(['--profile', 'client-a', 'skill', 'install', '--hooks', '--scope', 'project'], { env, cwd });
    await runCli(['skill', 'uninstall', '--scope', 'project'], { env, cwd });
    expect(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}).toEqual({});
  });
});

describe('checkin skill install --hooks for Codex, and what is refused', () => {
  it("writes $CODEX_HOME/hooks.json (the same shape), says Codex asks to trust them; uninstall leaves the person's", async () => {
    const codexHome = tempDir('checkin-codex-home-');
    const e = { ...env, CODEX_HOME: codexHome };
    const file = join(codexHome, 'hooks.json');
    const theirs = { hooks: { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hi' }] }] } };
    writeFileSync(file, JSON.stringify(theirs));
    const cwd = tempDir('checkin-hook-project-');
    const r = await runCli(['skill', 'install', '--hooks', '--agent', 'codex'], { env: e, cwd });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain(
      `Added checkin's hooks (SessionStart, Stop) for Codex (user): ${file}\nCodex runs new hooks once you have reviewed and trusted them (/hooks).\n`,
    );
    const commands = commandsIn(file);
    expect(commands.SessionStart).toHaveLength(1);
    expect(commands.Stop).toHaveLength(1);
    expect((JSON.parse(readFileSync(file, 'utf8')) as typeof theirs).hooks.SessionStart[0]).toEqual(theirs.hooks.SessionStart[0]);
    await runCli(['skill', 'uninstall', '--agent', 'codex'], { env: e, cwd });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(theirs);
  });

  it('settings that are not JSON are left as they are; VS Code gets no hooks', async () => {
    const cwd = tempDir('checkin-hook-project-');
    mkdirSync(join(cwd, '.claude'));
    const file = join(cwd, '.claude', 'settings.json');
    writeFileSync(file, '{ "hooks": { oops');
    const r = await runCli(['skill', 'install', '--hooks', '--scope', 'project'], { env, cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file} is not valid JSON`);
    expect(readFileSync(file, 'utf8')).toBe('{ "hooks": { oops');
    const v = await runCli(['skill', 'install', '--hooks', '--agent', 'vscode'], { env, cwd });
    expect(v).toMatchObject({ code: 2, stdout: '' });
    expect(v.stderr).toContain('checkin writes hooks for Claude Code and Codex only');
  });

  it("a project's settings name no path of this machine: `checkin` from PATH, as doctor checks; and when their checkin is gone", async () => {
    const cwd = tempDir('checkin-hook-project-');
    const installed = await runCli(['skill', 'install', '--hooks', '--scope', 'project'], { env, cwd });
    expect(installed.stdout).toContain('They run `checkin` from PATH: whoever works in this project needs checkin on PATH where the agent runs.\n');
    const file = join(cwd, '.claude', 'settings.json');
    expect(commandsIn(file)).toEqual({ SessionStart: ['checkin hook session-start || true'], Stop: ['checkin hook stop || true'] });
    const bin = tempDir('checkin-bin-');
    symlinkSync(CLI_WORDS.at(-1)!, join(bin, 'checkin'));
    const hooksOf = async (e: NodeJS.ProcessEnv = { ...env, PATH: `${bin}:${env.PATH ?? ''}` }) =>
      (
        JSON.parse((await runCli(['doctor', '--json'], { env: e, cwd })).stdout) as Array<{ id: string; status: string; message: string; fix: string | null }>
      ).find((c) => c.id === 'hooks')!;
    expect(await hooksOf()).toEqual({
      id: 'hooks',
      status: 'ok',
      message: `Claude Code (project, ${file}): SessionStart, Stop`,
      fix: null,
    });
    // No checkin on PATH: the hooks do nothing, and doctor says what to do.
    expect(await hooksOf({ ...env, PATH: '/nonexistent' })).toMatchObject({
      status: 'warning',
      message: `Claude Code (project, ${file}) runs checkin (on PATH), which is not there: the hook does nothing`,
      fix: "Put checkin on PATH where the agent runs (the folder npm installs programs in, or the binary's).",
    });
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/"command": "[^"]* hook stop \|\| true"/, '"command": "/gone/node /gone/bin/checkin.js hook stop || true"'),
    );
    expect(await hooksOf()).toMatchObject({
      status: 'warning',
      message: `Claude Code (project, ${file}) runs /gone/node and /gone/bin/checkin.js, which is not there: the hook does nothing`,
      fix: 'Run `checkin skill install --agent claude --scope project --hooks` to point it at this checkin.',
    });
  });
});

const valgrind = spawnSync('valgrind', ['--version']).status === 0;

// Instructions do not depend on the date: counted in the passes on the real clock, not again in each
// dated one (.ci/run runs this file under faketime four times more; valgrind under it is slow). And
// they are Node 24's figures (the Node users run, which the house measures on): counted on 24 only,
// not again on 22 and 26 (~45 s of CPU each; measured there once: 1.58× and 1.64×, CONTRIBUTING.md).
const MEASURED_NODE = process.versions.node.split('.')[0] === '24';
describe.skipIf(!valgrind || !MEASURED_NODE || Object.keys(FAKED_CLOCK).length > 0)('the hooks, run as the host runs them, within their budget', () => {
  /**
   * Instructions (callgrind, V8's random hash-seed search left out: scripts/callgrind.mjs), which a
   * loaded machine does not move: the node process `command` starts through sh, its event on stdin.
   * git, which the hook starts, runs as itself (its instructions are its own, not counted): under
   * callgrind each of its runs took ~0.5 s of CPU. No gdbserver (--vgdb=no): valgrind made its pipes
   * for one in TMPDIR, which the check of what a checkin leaves there once found and failed the file.
   */
  async function counted(command: string, cwd: string, event: string): Promise<number> {
    const dir = tempDir('checkin-hook-callgrind-');
    const r = await new Promise<number | null>((resolve) => {
      const child = track(
        spawn(
          'valgrind',
          [
            '--tool=callgrind',
            '--vgdb=no',
            '--trace-children=yes',
            '--trace-children-skip=*/git',
            `--callgrind-out-file=${join(dir, 'cg.%p')}`,
            'sh',
            '-c',
            command,
          ],
          {
            cwd,
            env,
            stdio: ['pipe', 'ignore', 'ignore'],
          },
        ),
      );
      child.on('close', resolve);
      child.stdin!.end(event);
    });
    expect(r).toBe(0);
    // The node process's file (sh's is beside it).
    const node = readdirSync(dir)
      .map((f) => join(dir, f))
      .filter((f) => /^cmd: +\S*node /m.test(readFileSync(f, 'utf8')));
    expect(node).toHaveLength(1);
    return (instructions(node[0]) as { net: number }).net;
  }

  it(
    'each costs at most 1.8 times the instructions of `node -e 0` (72 ms where Node starts in 40: its own small bundle, dist/hook.cjs), on a pending day (a line) and a done one (nothing)',
    { timeout: patient(120_000) },
    async () => {
      const home = env.HOME!;
      const repo = repository(2);
      expect((await runCli(['skill', 'install', '--hooks'], { env, cwd: repo.dir })).code).toBe(0);
      const commands = commandsIn(join(home, '.claude', 'settings.json'));
      const hooks = [commands.SessionStart![0]!, commands.Stop![0]!];
      const event = JSON.stringify({ cwd: repo.dir }); // no session: Stop prints the line as SessionStart does, never held back;
      const [nodeCmd] = hooks[0]!.split(' ');
      const floor = await counted(`${nodeCmd} -e 0`, repo.dir, '');
      const budget = 1.8 * floor;
      expect((await look(repo.dir)).state).toBe('pending');
      // What a host shows: SessionStart's line, Stop's as its JSON systemMessage.
      const shown = (out: string) => (out.startsWith('{') ? (JSON.parse(out) as { systemMessage: string }).systemMessage : out);
      for (const command of hooks) {
        expect(shown((await host(command, repo.dir, JSON.parse(event) as Record<string, unknown>)).stdout), command).toMatch(
          /^checkin: today's check-in is still pending; 2 commits/,
        );
        expect(await counted(command, repo.dir, event), command).toBeLessThanOrEqual(budget);
      }
      expect((await runCli(['today', '-i', 'Within budget'], { env, cwd: repo.dir })).code).toBe(0);
      for (const command of hooks) {
        expect((await host(command, repo.dir, JSON.parse(event) as Record<string, unknown>)).stdout, command).toBe('');
        expect(await counted(command, repo.dir, event), command).toBeLessThanOrEqual(budget);
      }
    },
  );
});
