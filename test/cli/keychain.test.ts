// The token in the OS keychain: the code path with an injected store (in-process), the fallback
// where there is none, and — where a Secret Service can be started (dbus-run-session +
// gnome-keyring) — the real keychain through the built binary.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../../src/config/secrets.js';
import { BINARY, CLI_WORDS } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { runIn, TODAY, useWorld, type RunOptions } from '../helpers/harness.js';

const w = useWorld();

function memoryStore(): SecretStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { name: 'the test keychain', data, get: (a) => data.get(a), set: (a, s) => void data.set(a, s), delete: (a) => void data.delete(a) };
}

const config = () => JSON.parse(readFileSync(join(w.configDir, 'config.json'), 'utf8'));
/** What config.json holds for the profile "default" (a run that names none uses it). */
const profile = () => config().profiles.default;

describe('CHECKIN_NO_KEYCHAIN', () => {
  it('the built checkin never touches the keychain with it set (as every test sets it): the token goes to the 0600 file, and says why', async () => {
    const r = await w.bin(['login', '--with-token'], { env: { CHECKIN_TOKEN: undefined }, input: w.sb.token });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toBe(
      `Logged in as Ada Lovelace (@ada) at ${w.sb.url}\nThe token is in ${join(w.configDir, 'config.json')} (mode 0600): CHECKIN_NO_KEYCHAIN is set.\n`,
    );
    expect(profile()).toMatchObject({ api_url: w.sb.url, token: w.sb.token });
    expect(profile().token_store).toBeUndefined();
  });
});

describe('the token in the keychain (injected store)', () => {
  it('login stores it in the keychain, not the file; runs read it from there; auth status says where; logout removes it', async () => {
    const store = memoryStore();
    const cli = (args: string[], opts: RunOptions = {}) =>
      runIn(args, { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, { ...opts, secrets: () => store } as RunOptions);
    const login = await cli(['login', '--with-token'], { input: w.sb.token });
    expect(login).toMatchObject({ code: 0, stderr: `Logged in as Ada Lovelace (@ada) at ${w.sb.url}\nThe token is in the test keychain.\n` });
    expect(store.data.get(`default ${w.sb.url}`)).toBe(w.sb.token);
    expect(profile()).toMatchObject({ token_store: 'keychain', api_url: w.sb.url });
    expect(profile().token).toBeUndefined();
    expect(JSON.stringify(config())).not.toContain(w.sb.token);
    const today = await cli(['today', '--json']);
    expect(today.code).toBe(0);
    expect(JSON.parse(today.stdout).date).toBe(TODAY);
    expect(w.sb.requests.at(-1)!.headers.authorization).toBe(`Bearer ${w.sb.token}`);
    const status = await cli(['auth', 'status']);
    expect(status).toMatchObject({
      code: 0,
      stdout: `Logged in to ${w.sb.url} as Ada Lovelace (@ada)\n  token from: the test keychain\n  the token works (GET /me answered)\n`,
    });
    expect(status.stdout + status.stderr).not.toContain(w.sb.token);
    const out = await cli(['logout']);
    expect(out).toMatchObject({ code: 0, stderr: 'Logged out: the token was removed from the test keychain\n' });
    expect(store.data.size).toBe(0);
    expect((await cli(['today'])).code).toBe(4);
  });

  it("an agent's hook finds a keychain-only profile's cached state without the keychain (the entry's alias in cache.json, no secret in it); logout drops it", async () => {
    const store = memoryStore();
    const cli = (args: string[], opts: RunOptions = {}) =>
      runIn(args, { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, { ...opts, secrets: () => store } as RunOptions);
    expect((await cli(['login', '--with-token'], { input: w.sb.token })).code).toBe(0);
    const cacheFile = join(w.configDir, 'cache.json');
    const aliases = () => (JSON.parse(readFileSync(cacheFile, 'utf8')) as { profiles?: Record<string, string> }).profiles;
    expect(Object.keys(aliases() ?? {})).toEqual([`default ${w.sb.url}`]);
    expect(readFileSync(cacheFile, 'utf8')).not.toContain(w.sb.token);
    // status's look: today's copy, pending.
    expect((await cli(['status', '--json'])).code).toBe(3);
    const untouchable = (): SecretStore => ({
      name: 'a keychain no hook may touch',
      get: () => {
        throw new Error('the hook asked the keychain');
      },
      set: () => undefined,
      delete: () => undefined,
    });
    const event = JSON.stringify({ session_id: 'k', cwd: tempDir('checkin-hook-keychain-'), hook_event_name: 'SessionStart' });
    const hook = await runIn(['hook', 'session-start'], { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, { input: event, secrets: untouchable } as RunOptions);
    expect(hook).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `checkin: today's check-in is still pending (\`checkin today\` fills it in). Send nothing without the person's yes: ask them first.\n`,
    });
    expect((await cli(['logout'])).code).toBe(0);
    expect(aliases()).toBeUndefined();
  });

  it('no keychain: the 0600 file, with one line saying why; --insecure-storage chooses the file', async () => {
    const broken = (): SecretStore => ({
      name: 'the system keychain',
      get: () => undefined,
      set: () => {
        throw new Error("Couldn't access platform storage: AccessDenied\n backtrace…");
      },
      delete: () => undefined,
    });
    const r = await runIn(['login', '--with-token'], { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, { input: w.sb.token, secrets: broken } as RunOptions);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[1]).toBe(
      `The token is in ${join(w.configDir, 'config.json')} (mode 0600): the system keychain cannot be used (Couldn't access platform storage: AccessDenied).`,
    );
    expect(profile()).toMatchObject({ token: w.sb.token });
    const store = memoryStore();
    const file = await runIn(['login', '--with-token', '--insecure-storage'], { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, {
      input: w.sb.token,
      secrets: () => store,
    } as RunOptions);
    expect(file.stderr.split('\n')[1]).toBe(`The token is in ${join(w.configDir, 'config.json')} (mode 0600): as asked (--insecure-storage).`);
    expect(store.data.size).toBe(0);
  });

  it('a login an earlier build kept in the keychain (its entry named by the API URL) is still read as the profile "default"; a new login moves it under the profile\'s name', async () => {
    const store = memoryStore();
    store.data.set(w.sb.url, w.sb.token);
    mkdirSync(w.configDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(w.configDir, 'config.json'), JSON.stringify({ api_url: w.sb.url, token_store: 'keychain', team: 'Platform' }), { mode: 0o600 });
    const cli = (args: string[], opts: RunOptions = {}) =>
      runIn(args, { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, { ...opts, secrets: () => store } as RunOptions);
    expect((await cli(['today', '--json'])).code).toBe(0);
    expect(w.sb.requests.at(-1)!.headers.authorization).toBe(`Bearer ${w.sb.token}`);
    expect((await cli(['login', '--with-token'], { input: w.sb.token })).code).toBe(0);
    expect([...store.data.keys()]).toEqual([`default ${w.sb.url}`]);
    expect(config()).toEqual({
      profiles: { default: { api_url: w.sb.url, token_store: 'keychain', keychain_account: `default ${w.sb.url}`, team: 'Platform' } },
    });
  });

  it('the keychain holds the token but cannot be read (a locked keychain under cron): one line that says what to do, exit 4', async () => {
    const store = memoryStore();
    expect(
      (await runIn(['login', '--with-token'], { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, { input: w.sb.token, secrets: () => store } as RunOptions)).code,
    ).toBe(0);
    const locked = (): SecretStore => ({
      name: 'the system keychain',
      get: () => {
        throw new Error('Locked');
      },
      set: () => undefined,
      delete: () => undefined,
    });
    const r = await runIn(['status'], { ...w.env, CHECKIN_TOKEN: undefined }, w.clock, { secrets: locked } as RunOptions);
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toBe(
      'warning: your token is in the system keychain, which cannot be read (Locked); run `checkin login --insecure-storage`, or set CHECKIN_TOKEN',
    );
    // CHECKIN_TOKEN still wins, without touching the keychain.
    expect((await runIn(['status', '--json'], w.env, w.clock, { secrets: locked } as RunOptions)).code).toBe(3);
  });
});

describe('the single binary (CHECKIN_TEST_BINARY): the keychain addon it carries', () => {
  const w = useWorld();
  it.skipIf(!BINARY)(
    `is written out only into a cache folder of the user's own; elsewhere one line says why and the token goes to the 0600 file${BINARY ? '' : ' — skipped: CHECKIN_TEST_BINARY is not set'}`,
    async () => {
      // A cache folder others can write: a planted addon there would run as the user.
      const cache = join(w.env.HOME!, 'shared-cache');
      mkdirSync(join(cache, 'checkin'), { recursive: true });
      chmodSync(join(cache, 'checkin'), 0o777);
      const env = { ...w.env, CHECKIN_TOKEN: undefined, CHECKIN_NO_KEYCHAIN: undefined, XDG_CACHE_HOME: cache };
      const r = await w.bin(['login', '--with-token'], { env, input: w.sb.token });
      expect(r.code).toBe(0);
      expect(r.stderr.split('\n')[1]).toBe(
        `The token is in ${join(w.configDir, 'config.json')} (mode 0600): the keychain addon inside this binary cannot be loaded (${join(cache, 'checkin')} is not a folder of yours that only you can write).`,
      );
      expect(readdirSync(join(cache, 'checkin'))).toEqual([]);
      // In a folder of the user's own it is written (named by its digest) and loaded: the keychain itself answers.
      chmodSync(join(cache, 'checkin'), 0o700);
      const again = await w.bin(['login', '--with-token'], { env, input: w.sb.token });
      expect(again.code).toBe(0);
      expect(readdirSync(join(cache, 'checkin')).filter((f) => /^keyring-[0-9a-f]{16}\.node$/.test(f))).toHaveLength(1);
      expect(again.stderr).not.toContain('addon inside this binary');
      expect(existsSync(join(w.configDir, 'config.json'))).toBe(true);
    },
  );
});

const run = promisify(execFile);
const haveSecretService = await run('sh', ['-c', 'command -v dbus-run-session && command -v dbus-send && command -v gnome-keyring-daemon']).then(
  () => true,
  () => false,
);

describe('the real keychain (Secret Service)', () => {
  it.skipIf(!haveSecretService)(
    `login, a run and logout through gnome-keyring in a D-Bus session${haveSecretService ? '' : ' — skipped: dbus-run-session, dbus-send or gnome-keyring-daemon is not installed'}`,
    async () => {
      // checkin: node and the script, or the single binary (CHECKIN_TEST_BINARY), which writes out the
      // keychain addon it carries and loads it.
      const script = `
      checkin() { ${CLI_WORDS.map((w) => `'${w}'`).join(' ')} "$@"; }
      eval $(echo -n pw | gnome-keyring-daemon --unlock --components=secrets) >/dev/null
      # The unlocked daemon takes the Secret Service's bus name a moment after it returns; a call before
      # then makes D-Bus start a second, empty daemon ("no result found"). Wait for the name (bounded).
      i=0; until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; do
        i=$((i+1)); [ $i -ge 200 ] && { echo "the Secret Service never took its name"; exit 1; }; sleep 0.05
      done
      echo "$TOKEN" | checkin login --with-token 2>&1
      checkin today --json >/dev/null && echo "today: ok"
      checkin auth status
      checkin doctor --json id,status | tr -d ' \n' ; echo
      checkin logout 2>&1
      checkin today 2>&1; echo "exit $?"`;
      const env = { ...w.env, CHECKIN_TOKEN: undefined, TOKEN: w.sb.token };
      delete env.CHECKIN_TOKEN;
      // The Secret Service of this D-Bus session, started for the test: the one keychain a test may use.
      delete (env as NodeJS.ProcessEnv).CHECKIN_NO_KEYCHAIN;
      const r = await run('dbus-run-session', ['--', 'sh', '-c', script], { env: env as NodeJS.ProcessEnv, timeout: 30_000 });
      expect(r.stdout).toContain('The token is in the system keychain.\n');
      expect(r.stdout).toContain('today: ok\n');
      expect(r.stdout).toContain('  token from: the system keychain\n');
      // doctor asks the keychain from children (the binary is its own probe): this session's finds the
      // token; a scheduled run's environment (no D-Bus session) cannot open it: a warning, not a problem.
      expect(r.stdout).toContain('{"id":"token","status":"ok"}');
      expect(r.stdout).toContain('{"id":"keychain","status":"warning"}');
      expect(r.stdout).toContain('Logged out: the token was removed from the system keychain\n');
      expect(r.stdout).toMatch(/error: Not logged in: no token found\n.*\nexit 4\n$/);
    },
    40_000,
  );
});
