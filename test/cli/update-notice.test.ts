// The quiet update notice (src/domain/update-notice.ts, src/commands/upgrade/notice.ts): said once a
// day on a terminal's stderr from what the previous run learnt; silent in CI, with
// CHECKIN_NO_UPDATE_NOTIFIER, NO_UPDATE_NOTIFIER or DO_NOT_TRACK, with --json, under `checkin mcp`,
// when stderr is not a terminal (cron), and when checkin runs from a clone; the release is asked by
// a detached child the command does not wait for, and that one request is all it sends (counted
// against a release server on this machine). Runs at a terminal are of an installed checkin: the
// npm build copied where `npm install -g` puts it (or the single binary, CHECKIN_TEST_BINARY).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decide, quietBecause } from '../../src/domain/update-notice.js';
import type { InstallKind } from '../../src/domain/upgrade.js';
import { tempDir } from '../helpers/cleanup.js';
import { BIN, BINARY, cleanEnv, ROOT, runCli } from '../helpers/cli.js';
import { Screen } from '../helpers/terminal.js';
import { patient } from '../helpers/patience.js';

const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
const HOUR = 3600_000;
/** Wide enough for the line not to wrap. */
const WIDE = { cols: 200, rows: 40 };
const NOW = new Date('2026-03-02T09:00:00Z');

describe('when the notice is quiet', () => {
  const tty = true;
  const installed = () => 'npm-global' as const;
  it.each([
    [['today'], { CHECKIN_NO_UPDATE_NOTIFIER: '1' }, tty, 'CHECKIN_NO_UPDATE_NOTIFIER'],
    [['today'], { NO_UPDATE_NOTIFIER: '1' }, tty, 'NO_UPDATE_NOTIFIER'],
    // npm's update-notifier is off with it at any value, 0 too: so is checkin's.
    [['today'], { NO_UPDATE_NOTIFIER: '0' }, tty, 'NO_UPDATE_NOTIFIER'],
    [['today'], { DO_NOT_TRACK: '1' }, tty, 'DO_NOT_TRACK'],
    [['today'], { DO_NOT_TRACK: 'true' }, tty, 'DO_NOT_TRACK'],
    [['today'], { CI: 'true' }, tty, 'CI'],
    [['today'], { BUILD_NUMBER: '12' }, tty, 'CI'],
    [['today'], {}, false, 'not a terminal'],
    [['today', '--json'], {}, tty, '--json'],
    [['list', '--json=date'], {}, tty, '--json'],
    [['mcp'], {}, tty, 'mcp'],
    [['complete', '--shell', 'bash', '--', 'checkin t'], {}, tty, 'complete'],
    [['--version'], {}, tty, 'no command'],
  ] as Array<[string[], NodeJS.ProcessEnv, boolean, string]>)('%o with %o (terminal: %s): %s', (argv, env, isTTY, why) => {
    expect(quietBecause(argv, env, isTTY, installed)).toBe(why);
  });
  it('speaks for a command at a terminal, outside CI, for every installed checkin', () => {
    const env = { CHECKIN_NO_UPDATE_NOTIFIER: '0', NO_UPDATE_NOTIFIER: '', DO_NOT_TRACK: '0', CI: '' };
    const kinds: InstallKind[] = ['npm-global', 'npx', 'npm-project', 'homebrew', 'deb', 'scoop', 'windows-binary', 'binary'];
    for (const kind of kinds) expect(quietBecause(['today'], env, true, () => kind)).toBeUndefined();
  });
  it('is quiet run from a clone, and reads how checkin was installed only when nothing else has decided', () => {
    let asked = 0;
    const clone = () => {
      asked++;
      return 'clone' as const;
    };
    expect(quietBecause(['today'], {}, true, clone)).toBe('a clone');
    expect(asked).toBe(1);
    expect(quietBecause(['today'], { DO_NOT_TRACK: '1' }, true, clone)).toBe('DO_NOT_TRACK');
    expect(quietBecause(['today'], {}, false, clone)).toBe('not a terminal');
    expect(asked).toBe(1);
  });
});

describe('once a day', () => {
  const hint = 'checkin upgrade';
  it('says a newer version once, then not again for a day; asks the release at most once a day', () => {
    const fresh = { checkedAt: new Date(NOW.getTime() - HOUR).toISOString(), latest: '99.0.0' };
    const first = decide(fresh, NOW, hint);
    expect(first).toEqual({
      line: `A newer checkin is out: ${VERSION} → 99.0.0. To upgrade: checkin upgrade`,
      check: false,
      state: { ...fresh, notifiedAt: NOW.toISOString() },
    });
    expect(decide(first.state, new Date(NOW.getTime() + 23 * HOUR), hint).line).toBeUndefined();
    expect(decide(first.state, new Date(NOW.getTime() + 25 * HOUR), hint)).toMatchObject({ line: expect.any(String), check: true });
  });
  it('says nothing when the newest is this version, and asks when it never has (or the clock went back)', () => {
    expect(decide({}, NOW, hint)).toEqual({ check: true, state: {} });
    expect(decide({ checkedAt: NOW.toISOString(), latest: VERSION }, NOW, hint)).toEqual({
      check: false,
      state: { checkedAt: NOW.toISOString(), latest: VERSION },
    });
    expect(decide({ checkedAt: new Date(NOW.getTime() + HOUR).toISOString() }, NOW, hint).check).toBe(true);
  });
});

// In a pseudo-terminal, as a person meets it: `checkin drafts` (no request of its own), run by an
// installed checkin.
const hint = BINARY ? 'checkin upgrade' : 'npm install -g checkin-cli@latest';
const quote = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;
/** The words that run an installed checkin: the single binary, or the npm build copied as `npm install -g` lays it out. */
function installed(): string[] {
  if (BINARY) return [BINARY];
  const pkg = join(tempDir('checkin-installed-'), 'lib', 'node_modules', 'checkin-cli');
  for (const file of ['package.json', 'bin/checkin.js', 'bin/package.json', 'dist/checkin.cjs']) {
    mkdirSync(dirname(join(pkg, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(pkg, file));
  }
  return [process.execPath, join(pkg, 'bin', 'checkin.js')];
}
/** `words` and `args` run at a terminal of their own, as typed there. */
const at = (words: string[], args: string[], env: NodeJS.ProcessEnv) => new Screen({ script: [...words, ...args].map(quote).join(' ') }, env, WIDE);

let held: ServerResponse[] = [];
afterEach(() => {
  for (const r of held) r.destroy();
  held = [];
});

/** A release server on this machine whose SHA256SUMS answer waits until `release()`; counts every request, and `asked` is the first. */
async function slowRelease() {
  const asks: string[] = [];
  const headers: Array<Record<string, string | string[] | undefined>> = [];
  let open!: () => void;
  let first!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const asked = new Promise<void>((r) => (first = r));
  const server = createServer((req, res) => {
    asks.push(`${req.method} ${req.url}`);
    headers.push(req.headers);
    held.push(res);
    first();
    void opened.then(() => res.writeHead(200).end(`${'a'.repeat(64)}  checkin-99.0.0-linux-x64.tar.gz\n`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asks, headers, asked, release: open, close: () => new Promise((r) => server.close(r)) };
}

function envWithState(state: Record<string, string> | undefined, extra: NodeJS.ProcessEnv = {}) {
  const env = cleanEnv({ CHECKIN_NO_UPDATE_NOTIFIER: undefined, CI: undefined, CHECKIN_RELEASE_URL: 'http://127.0.0.1:9', ...extra });
  mkdirSync(env.CHECKIN_CONFIG_DIR!, { recursive: true });
  if (state) writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'update-check.json'), JSON.stringify(state));
  return env;
}
const stateFile = (env: NodeJS.ProcessEnv) => join(env.CHECKIN_CONFIG_DIR!, 'update-check.json');
const stateOf = (env: NodeJS.ProcessEnv) => JSON.parse(readFileSync(stateFile(env), 'utf8')) as Record<string, string>;
/** Until the detached check has kept its answer (it writes the file whole, by a rename), within the test's patience. */
async function answerKept(env: NodeJS.ProcessEnv): Promise<void> {
  const until = Date.now() + patient(15_000);
  while (stateOf(env).latest === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

describe('at a terminal', () => {
  it(
    'says the line once on stderr, then not on the next run the same day',
    async () => {
      const words = installed();
      const env = envWithState({ checkedAt: new Date().toISOString(), latest: '99.0.0' });
      const first = at(words, ['drafts'], env);
      expect((await first.exit()).code).toBe(0);
      expect(first.text()).toContain(`A newer checkin is out: ${VERSION} → 99.0.0. To upgrade: ${hint}`);
      expect(stateOf(env).notifiedAt).toBeDefined();
      const second = at(words, ['drafts'], env);
      expect((await second.exit()).code).toBe(0);
      expect(second.text()).toContain('No drafts are waiting.');
      expect(second.text()).not.toContain('A newer checkin');
    },
    patient(30_000),
  );

  // The release is due to be asked (last asked in 2020) and knows a newer version: each switch
  // keeps the line unsaid and the release unasked. A run that asks marks the state first, before
  // its child starts: the state as it was is the proof that no child was started, and the release
  // server on this machine heard nothing.
  it.each([
    ['CI=true', ['drafts'], { CI: 'true' }],
    ['CHECKIN_NO_UPDATE_NOTIFIER=1', ['drafts'], { CHECKIN_NO_UPDATE_NOTIFIER: '1' }],
    ['NO_UPDATE_NOTIFIER=1', ['drafts'], { NO_UPDATE_NOTIFIER: '1' }],
    ['NO_UPDATE_NOTIFIER=0', ['drafts'], { NO_UPDATE_NOTIFIER: '0' }],
    ['DO_NOT_TRACK=1', ['drafts'], { DO_NOT_TRACK: '1' }],
    ['--json', ['drafts', '--json'], {}],
    // A clone: this checkout's bin/checkin.js, not the installed copy.
    ['a run from a clone', ['drafts'], {}, [process.execPath, BIN]],
  ] as Array<[string, string[], NodeJS.ProcessEnv, string[]?]>)(
    'is silent with %s, and asks nothing',
    async (_, args, extra, words) => {
      const rel = await slowRelease();
      try {
        const env = envWithState({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' }, { CHECKIN_RELEASE_URL: rel.url, ...extra });
        const screen = at(words ?? installed(), args, env);
        expect((await screen.exit()).code).toBe(0);
        if (!args.includes('--json')) expect(screen.text()).toContain('No drafts are waiting.');
        expect(screen.text()).not.toContain('A newer checkin');
        expect(stateOf(env)).toEqual({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' });
        expect(rel.asks).toEqual([]);
      } finally {
        await rel.close();
      }
    },
    patient(30_000),
  );

  it(
    'asks the release once, in a detached child after the command, which has exited before the answer comes; the answer is kept for the next runs, which ask nothing',
    async () => {
      const rel = await slowRelease();
      try {
        const words = installed();
        const env = envWithState(undefined, { CHECKIN_RELEASE_URL: rel.url });
        const screen = at(words, ['drafts'], env);
        expect((await screen.exit()).code).toBe(0);
        expect(screen.text()).not.toContain('A newer checkin');
        // The command has exited; its check asks (or is about to), and waits on the held answer.
        await rel.asked;
        expect(rel.asks).toEqual(['GET /SHA256SUMS']);
        // Nothing about the person: no token, no cookie; checkin's version is all it says.
        expect(rel.headers[0]).toMatchObject({ 'user-agent': `checkin/${VERSION}` });
        expect(Object.keys(rel.headers[0]!).filter((h) => /authorization|cookie|token/i.test(h))).toEqual([]);
        rel.release();
        await answerKept(env);
        expect(stateOf(env).latest).toBe('99.0.0');
        const asked = stateOf(env).checkedAt;
        // The next run says it; neither it nor the one after asks again the same day.
        const next = at(words, ['drafts'], env);
        expect((await next.exit()).code).toBe(0);
        expect(next.text()).toContain(`A newer checkin is out: ${VERSION} → 99.0.0.`);
        const third = at(words, ['drafts'], env);
        expect((await third.exit()).code).toBe(0);
        expect(stateOf(env).checkedAt).toBe(asked);
        expect(rel.asks).toEqual(['GET /SHA256SUMS']);
      } finally {
        await rel.close();
      }
    },
    patient(40_000),
  );
});

describe('without a terminal (cron, a pipe)', () => {
  it('writes nothing to stderr and asks nothing', async () => {
    const env = envWithState({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' });
    const [node, bin] = installed();
    const r = await runCli(['drafts'], BINARY ? { env } : { env, node, bin });
    // (drafts says its one line on stderr; nothing follows it.)
    expect(r).toEqual({ code: 0, signal: null, stdout: '', stderr: 'No drafts are waiting.\n' });
    expect(stateOf(env)).toEqual({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' });
    expect(existsSync(join(env.CHECKIN_CONFIG_DIR!, 'update-check.json'))).toBe(true);
  });
});
