// One reason per refusal, said once, in checkin's words (issue 48, case 8), as a person meets it: the
// built CLI against the sandbox, its exact stderr and exit code, what the service received, and the
// outbox's rows. A piped resume whose only draft is an agent's says that it needs the person's yes
// (and how to give it); a draft another checkin holds is said as held, never as "no draft".
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { useMcp, type Answer } from '../helpers/mcp.js';
import { outboxRows } from '../helpers/outbox.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  env = e;
});
const connect = useMcp(() => env);
const writes = () => sb.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const configDir = () => env.CHECKIN_CONFIG_DIR!;

/** An activity the agent kept: log_activity from a client that cannot ask the person is refused, its draft kept. */
async function agentDraft(description: string): Promise<string> {
  const s = await connect();
  const r = await s.call('log_activity', { description });
  expect(r.isError).toBe(true);
  return outboxRows(configDir()).find((row) => JSON.parse(row.data).content.input.description === description)!.id;
}

describe("a piped resume whose drafts need the person's yes", () => {
  it("the only draft is the agent's: the error is that reason, with how to give the yes; exit 2, nothing sent, the draft kept", async () => {
    const id = await agentDraft('Reviewed the invoices PR');
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
    const a = await agentDraft('First thing');
    const b = await agentDraft('Second thing');
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

describe('a draft another checkin holds', () => {
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
    expect((await call).structuredContent).toMatchObject({ sent: false, draft_kept: false, reason: 'declined' });
    expect(writes()).toEqual([]);
    expect(outboxRows(configDir())).toEqual([]);
  });
});
