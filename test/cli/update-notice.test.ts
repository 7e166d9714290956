// The quiet update notice (src/domain/update-notice.ts, src/commands/upgrade/notice.ts): said once a
// day on a terminal's stderr from what the previous run learnt; silent in CI, with
// CHECKIN_NO_UPDATE_NOTIFIER, with --json, under `checkin mcp`, and when stderr is not a terminal
// (cron); the release is asked by a detached child the command does not wait for.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decide, quietBecause } from '../../src/domain/update-notice.js';
import { BINARY, cleanEnv, runCli } from '../helpers/cli.js';
import { Screen } from '../helpers/terminal.js';
import { patient } from '../helpers/patience.js';

const VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
const HOUR = 3600_000;
/** Wide enough for the line not to wrap. */
const WIDE = { cols: 200, rows: 40 };
const NOW = new Date('2026-03-02T09:00:00Z');

describe('when the notice is quiet', () => {
  const tty = true;
  it.each([
    [['today'], { CHECKIN_NO_UPDATE_NOTIFIER: '1' }, tty, 'CHECKIN_NO_UPDATE_NOTIFIER'],
    [['today'], { CI: 'true' }, tty, 'CI'],
    [['today'], { BUILD_NUMBER: '12' }, tty, 'CI'],
    [['today'], {}, false, 'not a terminal'],
    [['today', '--json'], {}, tty, '--json'],
    [['list', '--json=date'], {}, tty, '--json'],
    [['mcp'], {}, tty, 'mcp'],
    [['complete', '--shell', 'bash', '--', 'checkin t'], {}, tty, 'complete'],
    [['--version'], {}, tty, 'no command'],
  ] as Array<[string[], NodeJS.ProcessEnv, boolean, string]>)('%o with %o (terminal: %s): %s', (argv, env, isTTY, why) => {
    expect(quietBecause(argv, env, isTTY)).toBe(why);
  });
  it('speaks for a command at a terminal, outside CI', () => {
    expect(quietBecause(['today'], { CHECKIN_NO_UPDATE_NOTIFIER: '0', CI: '' }, true)).toBeUndefined();
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

// In a pseudo-terminal, as a person meets it: `checkin drafts` (no request of its own).
const hint = BINARY ? 'checkin upgrade' : 'git pull && npm ci (in the clone checkin runs from)';
let held: ServerResponse[] = [];
afterEach(() => {
  for (const r of held) r.destroy();
  held = [];
});

/** A release server whose SHA256SUMS answer waits until `release()`; counts the asks. */
async function slowRelease() {
  const asks: string[] = [];
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const server = createServer((req, res) => {
    asks.push(req.url ?? '');
    held.push(res);
    void opened.then(() => res.writeHead(200).end(`${'a'.repeat(64)}  checkin-99.0.0-linux-x64.tar.gz\n`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, asks, release: open, close: () => new Promise((r) => server.close(r)) };
}

function envWithState(state: Record<string, string> | undefined, extra: NodeJS.ProcessEnv = {}) {
  const env = cleanEnv({ CHECKIN_NO_UPDATE_NOTIFIER: undefined, CI: undefined, CHECKIN_RELEASE_URL: 'http://127.0.0.1:9', ...extra });
  mkdirSync(env.CHECKIN_CONFIG_DIR!, { recursive: true });
  if (state) writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'update-check.json'), JSON.stringify(state));
  return env;
}
const stateOf = (env: NodeJS.ProcessEnv) => JSON.parse(readFileSync(join(env.CHECKIN_CONFIG_DIR!, 'update-check.json'), 'utf8')) as Record<string, string>;

describe('at a terminal', () => {
  it(
    'says the line once on stderr, then not on the next run the same day',
    async () => {
      const env = envWithState({ checkedAt: new Date().toISOString(), latest: '99.0.0' });
      const first = new Screen(['drafts'], env, WIDE);
      expect((await first.exit()).code).toBe(0);
      expect(first.text()).toContain(`A newer checkin is out: ${VERSION} → 99.0.0. To upgrade: ${hint}`);
      expect(stateOf(env).notifiedAt).toBeDefined();
      const second = new Screen(['drafts'], env, WIDE);
      expect((await second.exit()).code).toBe(0);
      expect(second.text()).toContain('No drafts are waiting.');
      expect(second.text()).not.toContain('A newer checkin');
    },
    patient(30_000),
  );

  it.each([
    ['CI', ['drafts'], { CI: 'true' }],
    ['CHECKIN_NO_UPDATE_NOTIFIER', ['drafts'], { CHECKIN_NO_UPDATE_NOTIFIER: '1' }],
    ['--json', ['drafts', '--json'], {}],
  ] as Array<[string, string[], NodeJS.ProcessEnv]>)(
    'is silent with %s, and asks nothing',
    async (_, args, extra) => {
      const env = envWithState({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' }, extra);
      const screen = new Screen(args, env, WIDE);
      expect((await screen.exit()).code).toBe(0);
      expect(screen.text()).not.toContain('A newer checkin');
      // Not asked again either: the kept state is as it was.
      expect(stateOf(env)).toEqual({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' });
    },
    30_000,
  );

  it(
    'asks the release in a detached child after the command, which has exited before the answer comes; the answer is kept for the next run',
    async () => {
      const rel = await slowRelease();
      try {
        const env = envWithState(undefined, { CHECKIN_RELEASE_URL: rel.url });
        const screen = new Screen(['drafts'], env, WIDE);
        expect((await screen.exit()).code).toBe(0);
        expect(screen.text()).not.toContain('A newer checkin');
        // The command has exited; its check is waiting on the held answer (or about to ask).
        for (let i = 0; i < 200 && rel.asks.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
        expect(rel.asks).toEqual(['/SHA256SUMS']);
        rel.release();
        for (let i = 0; i < 200 && stateOf(env).latest === undefined; i++) await new Promise((r) => setTimeout(r, 25));
        expect(stateOf(env).latest).toBe('99.0.0');
        // The next run says it.
        const next = new Screen(['drafts'], env, WIDE);
        expect((await next.exit()).code).toBe(0);
        expect(next.text()).toContain(`A newer checkin is out: ${VERSION} → 99.0.0.`);
      } finally {
        await rel.close();
      }
    },
    patient(30_000),
  );
});

describe('without a terminal (cron, a pipe)', () => {
  it('writes nothing to stderr and asks nothing', async () => {
    const env = envWithState({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' });
    const r = await runCli(['drafts'], { env });
    // (drafts says its one line on stderr; nothing follows it.)
    expect(r).toEqual({ code: 0, signal: null, stdout: '', stderr: 'No drafts are waiting.\n' });
    expect(stateOf(env)).toEqual({ checkedAt: '2020-01-01T00:00:00Z', latest: '99.0.0' });
    expect(existsSync(join(env.CHECKIN_CONFIG_DIR!, 'update-check.json'))).toBe(true);
  });
});
