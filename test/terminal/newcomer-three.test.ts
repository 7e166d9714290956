// A newcomer's hour, round three (issue 42), met where a newcomer meets it: `checkin login` and
// `npm run demo` in a real terminal (80×24, as the newcomer's tmux), the built CLI and the demo script.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_PORT } from '../../src/commands/sandbox/sandbox.js';
import { DEMO_TOKEN } from '../../src/sandbox/demo.js';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { DEFAULT_API_URL } from '../../src/api/types.js';
import { spawn } from 'node:child_process';
import { BINARY, cleanEnv, outcome, ROOT } from '../helpers/cli.js';
import { KEY, Screen } from '../helpers/terminal.js';
import { patient } from '../helpers/patience.js';

const SMALL = { cols: 80, rows: 24 };
/** Text without its whitespace: a narrow terminal wraps a line anywhere. */
const squash = (t: string) => t.replace(/\s+/g, '');

describe('checkin login says where it logs in', () => {
  it('names the service before asking for the token, and how to log in to the sandbox instead', async () => {
    const env = cleanEnv({});
    delete env.CHECKIN_API_URL;
    delete env.CHECKIN_TOKEN;
    const s = new Screen(['login'], env, SMALL);
    await s.waitFor('Paste your token:');
    const text = s.text();
    const named = text.indexOf(`Logging in to ${DEFAULT_API_URL}`);
    expect(named).toBeGreaterThanOrEqual(0);
    expect(named).toBeLessThan(text.indexOf('Paste your token:'));
    expect(squash(text)).toContain(squash('(for a local sandbox, add --api-url with the URL `checkin sandbox` printed).'));
    s.type(KEY.ctrlC);
    expect((await s.exit()).code).toBe(130);
  });

  it('the sandbox line of the README logs in with the demo token, naming the sandbox first', async () => {
    // The README's line: the sandbox's own port and the demo token (run here on a free port, the same way).
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const logIn = readme.slice(readme.indexOf('## Log in'), readme.indexOf('## Your day'));
    expect(logIn).toContain(`checkin login --api-url http://127.0.0.1:${SANDBOX_PORT}/api/v2   # asks for the token: ${DEMO_TOKEN}`);
    const sb = await startSandbox({ rateLimit: false });
    try {
      const env = cleanEnv({});
      delete env.CHECKIN_API_URL;
      delete env.CHECKIN_TOKEN;
      const s = new Screen(['login', '--api-url', sb.url], env, SMALL);
      await s.waitFor('Paste your token:');
      expect(s.text()).toContain(`Logging in to ${sb.url}.`);
      s.type(`${sb.token}${KEY.enter}`);
      expect((await s.exit()).code).toBe(0);
      expect(s.text()).toContain(`Logged in as Ada Lovelace (@ada) at ${sb.url}`);
      expect(sb.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/me']);
    } finally {
      await sb.close();
    }
  });

  it('a loopback URL where nothing listens asks whether the sandbox is running (login and any command)', async () => {
    // A port that was just free: the sandbox is started and closed again.
    const sb = await startSandbox({ rateLimit: false, port: 0 });
    const url = sb.url;
    await sb.close();
    const origin = new URL(url).origin;
    const env = cleanEnv({});
    delete env.CHECKIN_API_URL;
    delete env.CHECKIN_TOKEN;
    const s = new Screen(['login', '--api-url', url], env, SMALL);
    await s.answer('Paste your token:', `sandbox_pat_demo${KEY.enter}`);
    expect((await s.exit()).code).not.toBe(0);
    expect(squash(s.text())).toContain(squash(`error: GET /api/v2/me: nothing is listening at ${origin} — is \`checkin sandbox\` running?`));
    expect(s.text()).not.toContain('may be down');
    for (const host of ['localhost', '[::1]']) {
      const there = url.replace('127.0.0.1', host);
      const t = new Screen(['status'], { ...env, CHECKIN_API_URL: there, CHECKIN_TOKEN: 'sandbox_pat_demo' }, SMALL);
      await t.exit();
      expect(squash(t.text())).toContain(squash(`nothing is listening at ${new URL(there).origin} — is \`checkin sandbox\` running?`));
    }
  });
});

describe.skipIf(BINARY !== undefined)('npm run demo ends at the prompt (the demo script is run by node, not the single binary)', () => {
  for (const [how, redirect] of [
    ['typed at a terminal', ''],
    ['with its input from /dev/null', ' < /dev/null'],
  ] as const) {
    it(
      `in 80×24, ${how}: no pager is left waiting; the last lines are the demo's own`,
      async () => {
        const env = cleanEnv({});
        delete env.CHECKIN_API_URL;
        delete env.CHECKIN_TOKEN;
        delete env.CHECKIN_PAGER;
        delete env.PAGER;
        const s = new Screen({ script: `"$node" '${join(ROOT, 'scripts', 'demo.mjs')}'${redirect}` }, { ...env, PAGER: 'less' }, SMALL);
        if (!redirect) {
          // The questions, answered as a newcomer would: the suggestions kept, one intention typed, sent.
          await s.answer('What went on since your last check-in?', KEY.enter);
          await s.answer('What did you do previously?', KEY.enter);
          await s.answer('What do you intend to do next?', `- Looked around${KEY.enter}${KEY.enter}`);
          await s.answer('Are you blocked by anything?', KEY.enter);
          await s.answer('Mood', KEY.enter);
          await s.answer('Did you do what you intended?', KEY.enter);
          await s.answer('Send it?', KEY.enter);
          // The demo shows the check-in again, and asks what to change: nothing.
          await s.answer('Change something?', KEY.enter);
        }
        const exit = await s.exit(60_000);
        expect(exit.code).toBe(0);
        const lines = s.text().split('\n');
        expect(squash(lines.slice(-4).join('\n'))).toContain(squash('paste the two export lines it prints into another shell.'));
        // The demo's own lines fit the 80 columns as written (the terminal folds none of them
        // mid-word); a long command goes on after a backslash, as a shell reads it.
        const written = s.raw
          .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
          .replace(/\r/g, '')
          .split('\n');
        const own = written.filter((l) => /^(A sandbox is|Try it yourself|\$ checkin|README says|and paste| {4}-)/.test(l));
        expect(own.length).toBeGreaterThanOrEqual(4);
        expect(own.filter((l) => l.length > 80)).toEqual([]);
        if (redirect)
          expect(
            written.filter((l) => /^\$ checkin today -p /.test(l) || /^ {4}(-|--mood)/.test(l)).every((l, i, all) => i === all.length - 1 || l.endsWith(' \\')),
          ).toBe(true);
        // No pager's prompt anywhere at the bottom of a page.
        expect(lines.filter((l) => /^:\s*$|\(END\)/.test(l))).toEqual([]);
        expect(s.raw).not.toContain('\u001b[?1049h');
        if (!redirect) {
          // The preview names the teams the service then stores (item 8): all of Ada's, on any day.
          const heads = lines.filter((l) => l.startsWith('Check-in ') && l.includes('Ada Lovelace'));
          expect(heads.length).toBeGreaterThanOrEqual(2);
          expect(new Set(heads.map((l) => l.split(' · ').at(-1)))).toEqual(new Set(['Platform, Mobile']));
        }
      },
      patient(90_000),
    );
  }

  it(
    'piped (npm run demo | cat): no escape codes, as checkin decides colour; on a terminal its lines are dim',
    async () => {
      const env = cleanEnv({});
      delete env.CHECKIN_API_URL;
      delete env.CHECKIN_TOKEN;
      const r = await outcome(
        spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
        'the demo',
        patient(60_000),
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/\n\$ checkin status\n[^]*\(exit \d+\)\n/);
      expect(r.stdout + r.stderr).not.toContain('\x1b');
      const s = new Screen({ script: `"$node" '${join(ROOT, 'scripts', 'demo.mjs')}' < /dev/null` }, env, SMALL);
      expect((await s.exit(60_000)).code).toBe(0);
      expect(s.raw).toContain('\x1b[2m$ checkin status\x1b[0m');
    },
    patient(120_000),
  );
});
