// A yes is a person's: a client may answer "no" for the person without asking them (one that
// advertises elicitation and declines it by itself), so log_activity keeps its draft on every no and
// says so; the person finds it in `drafts` (the tool and the terminal's command) and sends or drops it
// there. Under 2026-07-28 a retry that carries no answer is no answer yet: the same question comes
// back, never "not sent". Driven through the official clients of both revisions, the service's
// requests counted.
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { CLI_WORDS, runCli } from '../helpers/cli.js';
import { outboxRows } from '../helpers/outbox.js';
import { SCHEMAS_2026, text, type ToolResult, useMcpSandbox } from '../helpers/mcp.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect, writes } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});

const DECLINED = "the client declined (the person's no, or the client's own: some clients decline without asking)";
const kept = (id: string) =>
  `Kept as draft ${id}: \`checkin drafts send ${id}\` records it from a terminal (shown whole, asked first), \`checkin drafts drop ${id}\` drops it.`;

describe('log_activity: a decline keeps the draft, in both revisions', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`${revision}: declined → not recorded, kept as a draft the drafts tool and \`checkin drafts\` list; nothing sent`, async () => {
      const s = await connect({ revision, answer: 'decline' });
      sb.requests.length = 0;
      const r = await s.call('log_activity', { description: 'Reviewed the billing migration', url: 'https://example.com/pr/7' });
      expect(r.isError, text(r)).toBeFalsy();
      expect(s.asked).toEqual([expect.stringMatching(/^Record this activity under your name \(Ada Lovelace\)\?/)]);
      const id = r.structuredContent!.draft_id as string;
      expect(id).toMatch(/^[a-z0-9]{8}$/);
      expect(r.structuredContent).toEqual({ sent: false, draft_id: id, draft_kept: true, reason: 'declined' });
      expect(text(r)).toBe(`Not recorded: ${DECLINED}. ${kept(id)}`);
      // Nothing went out: only the reads the question needed (who "your name" is).
      expect(writes()).toEqual([]);
      expect(sb.requests.map((q) => `${q.method} ${q.path}`).filter((x) => !x.startsWith('GET '))).toEqual([]);
      // Kept, as written, no longer held: the agent's drafts tool and the terminal both list it.
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((x) => [x.id, x.state, JSON.parse(x.data).content.input.description])).toEqual([
        [id, 'kept', 'Reviewed the billing migration'],
      ]);
      const listed = (await s.call('drafts')).structuredContent!.drafts as Array<{ id: string; target: { kind: string } }>;
      expect(listed.map((d) => [d.id, d.target.kind])).toEqual([[id, 'activity']]);
      const cli = await runCli(['drafts', '--json'], { env });
      expect(cli.code, cli.stderr).toBe(0);
      expect((JSON.parse(cli.stdout) as Array<{ id: string; made: string }>).map((d) => [d.id, d.made])).toEqual([[id, 'agent']]);
      // A second decline of another activity keeps a second draft beside it: none replaces another.
      const again = await s.call('log_activity', { description: 'Paired on the flaky test' });
      expect(again.structuredContent).toMatchObject({ sent: false, draft_kept: true, reason: 'declined' });
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toHaveLength(2);
      expect(writes()).toEqual([]);
    });

    it(`${revision}: cancelled → kept too; accepted → exactly one POST, no draft left`, async () => {
      const answers = ['cancel', 'accept'] as const;
      let i = 0;
      const s = await connect({ revision, answer: async () => answers[i++]! });
      sb.requests.length = 0;
      const no = await s.call('log_activity', { description: 'Closed the question' });
      const id = no.structuredContent!.draft_id as string;
      expect(no.structuredContent).toEqual({ sent: false, draft_id: id, draft_kept: true, reason: 'cancelled' });
      expect(text(no)).toBe(`Not recorded: the person closed the question without answering (cancelled). ${kept(id)}`);
      const yes = await s.call('log_activity', { description: 'Merged the index' });
      expect(yes.isError, text(yes)).toBeFalsy();
      expect(yes.structuredContent).toMatchObject({ sent: true, draft_kept: false });
      expect(writes()).toEqual(['POST /api/v2/activities']);
      expect(sb.requests.filter((q) => q.method === 'POST').map((q) => (q.body as { description: string }).description)).toEqual(['Merged the index']);
      // The accepted one is gone; the cancelled one waits.
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((x) => x.id)).toEqual([id]);
    });
  }
});

/** A 2026 client that fulfils nothing by itself: each input-required result comes back to the test, which retries as it chooses. */
async function manual(): Promise<(name: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>> {
  const transport = new ModernStdio({
    command: CLI_WORDS[0]!,
    args: [...CLI_WORDS.slice(1), 'mcp', '--toolsets', 'all'],
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new ModernClient(
    { name: 'test-agent', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
      jsonSchemaValidator: SCHEMAS_2026,
    },
  );
  await client.connect(transport);
  opened.push(client);
  return async (name, params) => (await client.callTool({ name, ...params } as never, { allowInputRequired: true })) as unknown as Record<string, unknown>;
}
const opened: ModernClient[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close().catch(() => undefined);
});

const ACCEPT = { confirm: { action: 'accept', content: {} } };
type Question = { method: string; params: { message: string } };
const questionOf = (r: Record<string, unknown>) => (r.inputRequests as Record<string, Question>).confirm!;

describe('2026-07-28: a retry without the answer is asked again', () => {
  for (const [what, responses] of [
    ['no inputResponses at all', undefined],
    ['inputResponses without the question’s key', {}],
    ['an answer that is no elicitation answer', { confirm: { roots: 'x' } }],
  ] as const) {
    it(`log_activity, ${what}: the same question again (a new state), nothing sent; an answer to the first state is stale`, async () => {
      const call = await manual();
      sb.requests.length = 0;
      const args = { description: 'Reviewed the invoices PR' };
      const first = await call('log_activity', { arguments: args });
      expect(first.resultType ?? first.result_type).toBe('input_required');
      const [row] = outboxRows(env.CHECKIN_CONFIG_DIR!);
      const retry = await call('log_activity', { arguments: args, requestState: first.requestState, ...(responses && { inputResponses: responses }) });
      expect(retry.resultType ?? retry.result_type).toBe('input_required');
      expect(retry.isError).toBeFalsy();
      expect(questionOf(retry)).toEqual(questionOf(first));
      expect(retry.requestState).not.toBe(first.requestState);
      expect(writes()).toEqual([]);
      // Still the one draft, waiting: no new entry, none dropped.
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((x) => [x.id, x.state])).toEqual([[row!.id, 'kept']]);
      // The first state's question was replaced: its answer is stale, and sends nothing.
      const old = await call('log_activity', { arguments: args, requestState: first.requestState, inputResponses: ACCEPT });
      expect(old.structuredContent).toMatchObject({ sent: false, draft_id: row!.id, draft_kept: true, reason: 'stale answer' });
      expect(writes()).toEqual([]);
    });
  }

  it('log_activity: asked again, then accepted: one POST; the same answer again records nothing more', async () => {
    const call = await manual();
    sb.requests.length = 0;
    const args = { description: 'Reviewed the invoices PR' };
    const first = await call('log_activity', { arguments: args });
    const again = await call('log_activity', { arguments: args, requestState: first.requestState });
    expect(questionOf(again)).toEqual(questionOf(first));
    const yes = await call('log_activity', { arguments: args, requestState: again.requestState, inputResponses: ACCEPT });
    expect(yes.structuredContent).toMatchObject({ sent: true, draft_kept: false });
    expect(writes()).toEqual(['POST /api/v2/activities']);
    const twice = await call('log_activity', { arguments: args, requestState: again.requestState, inputResponses: ACCEPT });
    expect(twice.structuredContent).toMatchObject({ sent: false });
    expect(writes()).toEqual(['POST /api/v2/activities']);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toEqual([]);
  });

  it('send_comment: a retry without the answer gets the same question again, then decline keeps the draft; nothing sent', async () => {
    const call = await manual();
    const yesterday = ((await call('get_checkin', { arguments: { day: 'yesterday' } })).structuredContent as { check_in: { id: string } }).check_in.id;
    const id = ((await call('draft_comment', { arguments: { on: 'check-in', id: yesterday, body: 'Looks good' } })).structuredContent as { draft_id: string })
      .draft_id;
    sb.requests.length = 0;
    const first = await call('send_comment', { arguments: { draft_id: id } });
    const again = await call('send_comment', { arguments: { draft_id: id }, requestState: first.requestState, inputResponses: {} });
    expect(again.resultType ?? again.result_type).toBe('input_required');
    expect(questionOf(again)).toEqual(questionOf(first));
    const no = await call('send_comment', {
      arguments: { draft_id: id },
      requestState: again.requestState,
      inputResponses: { confirm: { action: 'decline' } },
    });
    expect(no.structuredContent).toMatchObject({ sent: false, draft_id: id, draft_kept: true, reason: 'declined' });
    expect(text(no as ToolResult)).toBe(`Not sent: ${DECLINED}. The draft ${id} is kept: \`checkin drafts send ${id}\` sends it from a terminal.`);
    expect(writes()).toEqual([]);
  });
});
