// checkin against a hostile service: escapes, bidi and zero-width characters in every field of
// every answer, through every command, on a terminal (with colour) and piped; and a service that
// trickles, floods, ignores paging, sends wrong shapes or asks for absurd waits. Every bad input
// gets one clear line and the documented exit code — never a stack trace, a hang or lost text.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';
import { FakeClock, runIn, START, type RunOptions } from '../helpers/harness.js';
import { FORBIDDEN, startHostile, type HostileOptions } from '../helpers/hostile.js';
import { folderEntries } from '../helpers/outbox.js';

const ID = '3308a89a-1006-5ad0-94a3-d9510e51aecb';
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function hostile(opts: HostileOptions = {}) {
  const h = await startHostile(opts);
  close = h.close;
  const env = cleanEnv({ CHECKIN_API_URL: h.url, CHECKIN_TOKEN: 'hostile' });
  const clock = new FakeClock(START);
  return { ...h, env, clock, cli: (args: string[], o: RunOptions = {}) => runIn(args, env, clock, o) };
}

const COMMANDS = [
  ['today'],
  ['today', '-i', 'typed'],
  ['checkin', 'yesterday'],
  ['checkin', ID],
  ['list'],
  ['list', '--all', '--person', 'me'],
  ['team'],
  ['comments', 'yesterday'],
  ['comments', ID, '--add', 'hello'],
  ['reactions', 'yesterday'],
  ['reactions', '--goal-update', ID],
  ['goals'],
  ['goal', 'update', ID, '--title', 't', '--body', 'b'],
  ['goal', 'update', 'list', ID],
  ['goal', 'update', 'view', ID],
  ['goal', 'update', 'edit', ID, '--progress', '10'],
  ['me'],
  ['teams'],
  ['people'],
  ['activity'],
  ['status'],
  ['auth', 'status'],
  ['log', 'Did a thing'],
  ['inbox', '--all'],
  ['report', '--since', '2026-11-16'],
  ['report', '--format', 'csv'],
  ['today', '--suggest'],
];

describe('a service that writes escapes, bidi and zero-width characters in every field', () => {
  for (const mode of ['terminal', 'piped'] as const) {
    it(`never lets them reach the ${mode}, in any command`, async () => {
      const h = await hostile();
      for (const args of COMMANDS) {
        const r = await h.cli(args, mode === 'terminal' ? { tty: true, color: 3, prompt: false } : {});
        expect([args.join(' '), r.code, r.stderr]).toEqual([args.join(' '), 0, expect.any(String)]);
        // (The inbox leaves out one's own comments, and here everyone is the same poisoned person: it says so on stderr.)
        if (args[0] !== 'inbox') expect(r.stdout.length, args.join(' ')).toBeGreaterThan(0);
        for (const [name, text] of [
          ['stdout', r.stdout],
          ['stderr', r.stderr],
        ] as const) {
          const bad = FORBIDDEN.exec(text);
          expect(bad ? `${args.join(' ')} ${name}: ${JSON.stringify(text.slice(Math.max(0, bad.index - 20), bad.index + 20))}` : '').toBe('');
        }
      }
    });
  }

  it('--json prints the service objects exactly (escaped, so a terminal acts on nothing)', async () => {
    const h = await hostile();
    const r = await h.cli(['today', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).intentions).toMatch(/^- will\n- more\u001b\]0;pwned\u0007.*\u202e\u200b\u009b31m\u0007$/s);
    expect(r.stdout).not.toMatch(FORBIDDEN);
  });

  it('a retry line carrying the service message is sanitised too', async () => {
    const h = await hostile({ poisonedRetry: true });
    const r = await h.cli(['today']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^GET \/api\/v2\/check-ins\/2026-11-22: 503 Service Unavailable: maintenance[^\n]*; retrying in 0\.5 s…\n$/);
    expect(r.stderr).not.toMatch(FORBIDDEN);
  });
});

describe('a broken service: bounded, one clear line, the documented exit code', () => {
  it('a body that trickles in is cut off by one deadline for the whole answer (exit 1)', async () => {
    const h = await hostile({ trickleMs: 40 });
    const r = await h.cli(['today'], { env: { CHECKIN_TIMEOUT: '0.3' } });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^error: GET \/api\/v2\/check-ins\/2026-11-22: no whole answer from 127\.0\.0\.1:\d+ within 0\.3 s\n/),
    });
  });

  it('a flood is cut off at 32 MiB (exit 1)', async () => {
    const h = await hostile({ hugeBytes: 40 * 1024 * 1024 });
    const r = await h.cli(['today']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: GET /api/v2/check-ins/2026-11-22: answered with more than 32 MiB; checkin stopped reading');
  });

  it('a service that ignores page: the walk stops at the first page that brings nothing new', async () => {
    const h = await hostile({ ignorePage: true });
    const r = await h.cli(['people', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(50);
    expect(h.requests).toEqual(['GET /people?page=1&per_page=50', 'GET /people?page=2&per_page=50']);
    expect(r.stderr).toBe('warning: page 2 of people repeated earlier pages; stopped there (50 items)\n');
  });

  it('wrong shapes and empty answers: "unexpected answer", exit 1, no TypeError', async () => {
    for (const [body, problem] of [
      ['[]', 'the answer is an array, not an object'],
      ['null', 'the answer is null, not an object'],
      ['{"id": 5}', 'the answer.id is a number, not a string'],
      ['{"id": "x", "date": "2026-11-22", "intentions": {"evil": true}}', 'the answer.intentions is an object, not a string'],
      ['', 'the answer is missing, not an object'],
    ]) {
      const h = await hostile({ checkInBody: body });
      const r = await h.cli(['today']);
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: GET /api/v2/check-ins/2026-11-22: unexpected answer: ${problem}\nThe service answered with something checkin does not understand; check CHECKIN_API_URL, or try again later.\n`,
      });
      await h.close();
    }
  });

  it('an empty or null 200 to a PATCH keeps the draft (exit 1)', async () => {
    for (const body of ['', 'null', '{}']) {
      const h = await hostile({ patchBody: body });
      const r = await h.cli(['today', '-i', '-'], { input: 'Typed into a pipe\n' });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error: PATCH \/api\/v2\/check-ins\/2026-11-22: unexpected answer: [^\n]+\n[^\n]+\nWhat you wrote is kept as a draft: `checkin today --resume` sends it \(`checkin drafts` lists everything waiting\)\.\n$/,
      );
      const dir = join(h.env.CHECKIN_CONFIG_DIR!, 'drafts');
      expect(folderEntries(dir)).toMatchObject([
        { target: { kind: 'check-in', key: '2026-11-22' }, made: 'piped', content: { kind: 'answers', answers: { intentions: 'Typed into a pipe' } } },
      ]);
      await h.close();
    }
  });

  it('Retry-After: 3600, or a rate-limit window of an hour: fails at once, saying when to try again', async () => {
    const h = await hostile({ retryAfter: '3600' });
    const r = await h.cli(['today']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: GET \/api\/v2\/check-ins\/2026-11-22: 503 Service Unavailable \(Retry-After asks to wait 3600 s, more than the 60 s checkin waits\)\nTry again later \(after ([A-Z][a-z]{2} [A-Z][a-z]{2} \d\d )?\d\d:\d\d\)\.\n$/,
    );
    expect(h.clock.slept).toEqual([]);
    await h.close();
    const limited = await hostile({ endless: true, rateLimitReset: 3600 });
    const list = await limited.cli(['list', '--all', '--json']);
    expect(list.code).toBe(1);
    expect(list.stderr.split('\n')[0]).toBe(
      'error: GET /api/v2/check-ins: 429 Too Many Requests (the rate limit asks to wait 3600 s, more than the 60 s checkin waits)',
    );
    expect(limited.clock.slept).toEqual([]);
    expect(limited.requests).toHaveLength(1);
  });
});
