// One reason per refusal, said once, in checkin's words (issue 48, case 8), as a person meets it: the
// built CLI against the sandbox, its exact stderr and exit code, what the service received, and the
// outbox's rows. A piped resume whose only draft is an agent's says that it needs the person's yes
// (and how to give it); a draft another checkin holds is said as held, never as "no draft"; a drafts
// database checkin cannot use is named with the reason in checkin's words (a folder, a link, the
// disk failing), and said once however often the run looks.
import { mkdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { useMcp, type Answer, type McpSession } from '../helpers/mcp.js';
import { draftsDir, outboxDb, outboxRows, rowsIn } from '../helpers/outbox.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { patient } from '../helpers/patience.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  env = e;
});
const connect = useMcp(() => env);
const writes = () => sb.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const configDir = () => env.CHECKIN_CONFIG_DIR!;
/** Where checkin keeps drafts when its drafts folder cannot be used: $TMPDIR/checkin-<uid>/drafts. */
const fallbackDir = () => join(env.TMPDIR!, `checkin-${process.getuid!()}`, 'drafts');
const DOWN = { method: 'POST', path: '/activities', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' };

/** Spawned processes (the CLI, the MCP server) on a machine at load 30: a bound such a machine meets. */
const LOADED = { timeout: patient(60_000) };

/** An activity the agent kept: log_activity from a client that cannot ask the person is refused, its draft kept. */
async function agentDraft(s: McpSession, description: string): Promise<string> {
  const r = await s.call('log_activity', { description });
  expect(r.isError).toBe(true);
  return outboxRows(configDir()).find((row) => JSON.parse(row.data).content.input.description === description)!.id;
}

describe("a piped resume whose drafts need the person's yes", LOADED, () => {
  it("the only draft is the agent's: the error is that reason, with how to give the yes; exit 2, nothing sent, the draft kept", async () => {
    const id = await agentDraft(await connect(), 'Reviewed the invoices PR');
    sb.requests.length = 0;
    const r = await runCli(['log', '--resume'], { env });
    expect(r.stderr).toBe(
      `error: The draft ${id} was written by an agent: it needs your yes, and there is no terminal to ask on; it was not sent and is still kept\n` +
        `At a terminal, \`checkin drafts send ${id}\` shows it whole and asks.\n`,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(writes()).toEqual([]);
    expect(outboxRows(configDir()).map((row) => [row.id, row.state, row.maybe_at])).toEqual([[id, 'kept', null]]);
  });

  it("two of the agent's: each said once with its advice, then that nothing went; exit 1, nothing sent, both kept", async () => {
    const agent = await connect();
    const a = await agentDraft(agent, 'First thing');
    const b = await agentDraft(agent, 'Second thing');
    sb.requests.length = 0;
    const r = await runCli(['log', '--resume'], { env });
    // Oldest first: the order they were written.
    const [first, second] = outboxRows(configDir())
      .map((row) => JSON.parse(row.data) as { id: string; created_at: string })
      .sort((x, y) => (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : x.id < y.id ? -1 : 1))
      .map((e) => e.id);
    expect([first, second].sort()).toEqual([a, b].sort());
    const line = (id: string) =>
      `warning: The draft ${id} was written by an agent: it needs your yes, and there is no terminal to ask on; it was not sent and is still kept\n` +
      `At a terminal, \`checkin drafts send ${id}\` shows it whole and asks.\n`;
    expect(r.stderr).toBe(`${line(first!)}${line(second!)}error: Nothing was sent: none of the 2 drafts for an activity could go, each for the reason above\n`);
    expect(r.code).toBe(1);
    expect(writes()).toEqual([]);
    expect(outboxRows(configDir()).map((row) => row.state)).toEqual(['kept', 'kept']);
  });
});

describe('a draft another checkin holds', LOADED, () => {
  it('the agent has the person asked about its activity: a resume says the draft is held, once, not that there is none; exit 2, nothing sent', async () => {
    let asked!: () => void;
    const question = new Promise<void>((resolve) => (asked = resolve));
    let answer!: (a: Answer) => void;
    const given = new Promise<Answer>((resolve) => (answer = resolve));
    const s = await connect({
      answer: () => {
        asked();
        return given;
      },
    });
    const call = s.call('log_activity', { description: 'Paired on the flaky test' });
    await question;
    // Held by the server while the person is asked (one row, held by its process).
    const [row] = outboxRows(configDir());
    expect([row!.state, JSON.parse(row!.holder!).pid]).toEqual(['held', s.pid]);
    sb.requests.length = 0;
    const r = await runCli(['log', '--resume'], { env });
    expect(r.stderr).toBe(
      'error: The draft for an activity is being written or sent by another checkin right now; it was left to it\n' +
        'Look again with `checkin drafts` once it has finished.\n',
    );
    expect(r.code).toBe(2);
    expect(writes()).toEqual([]);
    expect(outboxRows(configDir()).map((x) => [x.id, x.state])).toEqual([[row!.id, 'held']]);
    answer('decline');
    // A no keeps the agent's draft (issue 52: the decline may be the client's), released by the server.
    expect((await call).structuredContent).toMatchObject({ sent: false, draft_kept: true, reason: 'declined' });
    expect(writes()).toEqual([]);
    expect(outboxRows(configDir()).map((x) => [x.id, x.state])).toEqual([[row!.id, 'kept']]);
  });
});

describe('a drafts database checkin cannot use: named, in its words, said once', LOADED, () => {
  // What the fallback folder holds is asserted in each test; the folder goes with it.
  afterEach(() => rmSync(join(fallbackDir(), '..'), { recursive: true, force: true }));
  const cases: Array<[string, (drafts: string) => void, (file: string) => string]> = [
    ['outbox.db is a folder', (d) => mkdirSync(join(d, 'outbox.db'), { recursive: true }), (f) => `${f} is a folder, not a file`],
    [
      'outbox.db is a symbolic link',
      (d) => {
        mkdirSync(d, { recursive: true, mode: 0o700 });
        writeFileSync(join(d, 'elsewhere.db'), '');
        symlinkSync('elsewhere.db', join(d, 'outbox.db'));
      },
      (f) => `${f} is a symbolic link, which checkin does not follow there (or a loop of them)`,
    ],
    [
      "the database's -wal file is a folder",
      (d) => {
        // A database made by a run before, its write-ahead log then replaced by a folder.
        mkdirSync(d, { recursive: true, mode: 0o700 });
        writeFileSync(join(d, 'outbox.db'), '', { mode: 0o600 });
        mkdirSync(join(d, 'outbox.db-wal'));
      },
      (f) => `the disk failed to read or write ${f} or the -wal and -shm files beside it (SQLite: disk I/O error)`,
    ],
  ];
  for (const [what, breakIt, why] of cases) {
    it(`${what}: a piped log says so once, keeps the draft in the fallback folder while it goes, sends once; exit 0`, async () => {
      const drafts = draftsDir(configDir());
      breakIt(drafts);
      const r = await runCli(['log', '-'], { env, input: 'Fixed the build\n' });
      expect(r.stderr).toBe(
        `warning: Cannot keep a draft in ${drafts} (${why(outboxDb(configDir()))}); it is kept in ${fallbackDir()} for now — a temporary folder, emptied at reboot on many systems; it moves home at the next run that can write there\n`,
      );
      expect(r.code).toBe(0);
      expect(writes()).toEqual(['POST /api/v2/activities']);
      // Sent, so gone from the fallback; the thing in the way is as it was.
      expect(rowsIn(fallbackDir())).toEqual([]);
      if (what.includes('link')) expect(readlinkSync(outboxDb(configDir()))).toBe('elsewhere.db');
      else if (what === 'outbox.db is a folder') expect(statSync(outboxDb(configDir())).isDirectory()).toBe(true);
    });
  }

  it('two activities kept in the fallback folder: a resume says the drafts folder cannot be read once (however often it looks), sends both; exit 0', async () => {
    const drafts = draftsDir(configDir());
    mkdirSync(join(drafts, 'outbox.db'), { recursive: true });
    for (const text of ['First', 'Second']) {
      sb.inject(DOWN);
      expect((await runCli(['log', text], { env })).code).toBe(1);
    }
    expect(rowsIn(fallbackDir()).map((row) => row.state)).toEqual(['kept', 'kept']);
    sb.requests.length = 0;
    const r = await runCli(['log', '--resume'], { env });
    expect(r.stderr).toBe(`warning: cannot read the drafts in ${drafts}: ${outboxDb(configDir())} is a folder, not a file\n`);
    expect(r.code).toBe(0);
    expect(writes()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities']);
    expect(sb.requests.filter((x) => x.method === 'POST').map((x) => (x.body as { description: string }).description)).toEqual(['First', 'Second']);
    expect(rowsIn(fallbackDir())).toEqual([]);
  });
});
