// `checkin mcp` for both revisions of the protocol, driven by each one's official client as an agent's
// client drives it (connect — initialize, or server/discover — then list, then call): the 2025-11-25
// client (`@modelcontextprotocol/sdk` 1.x) and the 2026-07-28 one (`@modelcontextprotocol/client`
// 2.x). Both get the same tools, resources and prompt; every read tool's result validates against
// the schema tools/list declared for it (the clients check it themselves, and so does this test,
// with its own validator) against the sandbox's demo data, with teammates blocked for days, and
// against a service whose every string is hostile. Then the person's yes in the 2026 form: the
// question carries exactly what goes out; accept sends once; decline, cancel, a missing answer, a
// stale one or one given for another draft send nothing.
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { cleanEnv } from '../helpers/cli.js';
import { FORBIDDEN, startHostile } from '../helpers/hostile.js';
import { outboxRows } from '../helpers/outbox.js';
import { schemaErrors, text, type McpSession, type ModernSession, type ToolResult, useMcpSandbox } from '../helpers/mcp.js';
import { patient } from '../helpers/patience.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect, byHand, writes } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;

interface ListedTool {
  name: string;
  outputSchema?: object;
  annotations?: { readOnlyHint?: boolean };
}
const listTools = async (s: McpSession) => (await (s.client as unknown as { listTools: () => Promise<{ tools: ListedTool[] }> }).listTools()).tools;

/** Calls every read tool as listed, and checks each result against its declared schema with a validator of our own too. */
async function callEveryReadTool(s: McpSession, goalId: string | undefined): Promise<Map<string, ToolResult>> {
  const tools = (await listTools(s)).filter((t) => t.annotations?.readOnlyHint === true);
  const args: Record<string, Array<Record<string, unknown>>> = {
    get_checkin: [{}, { day: 'yesterday' }],
    suggest_previous: [{}],
    team_day: [{}, { day: 'yesterday' }],
    list_checkins: [{}, { blocked: true }],
    inbox: [{ all: true }],
    goal: goalId ? [{ goal_id: goalId }] : [],
    goals: [{}],
    feed: [{}],
    drafts: [{}],
    blockers: [{}],
    me: [{}],
  };
  expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(args).sort());
  const results = new Map<string, ToolResult>();
  for (const tool of tools) {
    expect(tool.outputSchema, tool.name).toBeDefined();
    for (const a of args[tool.name]!) {
      const r = await s.call(tool.name, a);
      expect(r.isError, `${tool.name} ${JSON.stringify(a)}: ${text(r)}`).toBeFalsy();
      expect(schemaErrors(tool.outputSchema!, r.structuredContent), `${tool.name} ${JSON.stringify(a)}`).toEqual([]);
      results.set(`${tool.name} ${JSON.stringify(a)}`, r);
    }
  }
  return results;
}

/** Blocks the demo's teammates with the same blocker for the last `days` days (their check-ins in the sandbox). */
function blockTeammates(days: number): void {
  const data = sb.service.data;
  const dates = [...new Set(data.check_ins.map((c) => c.date))].sort().slice(-days);
  for (const c of data.check_ins)
    if (dates.includes(c.date) && c.person_id !== data.people.find((p) => p.username === 'ada')!.id) c.blockers = 'Waiting on the staging database';
}

describe('checkin mcp: both revisions, one server', () => {
  it('the 2025 client (initialize) and the 2026 client (pinned, and auto: server/discover first) get the same tools, resources, templates and prompt; each negotiates its own revision', async () => {
    const old = await connect();
    const pinned = (await connect({ revision: '2026-07-28' })) as unknown as ModernSession;
    const auto = (await connect({ revision: 'auto' })) as unknown as ModernSession;
    expect(pinned.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(auto.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const names = async (s: McpSession) => {
      const c = s.client as unknown as ModernClient;
      return {
        tools: (await c.listTools()).tools.map((t) => [t.name, t.annotations?.readOnlyHint ?? false, t.outputSchema, t.inputSchema]),
        resources: (await c.listResources()).resources.map((r) => r.uri).filter((u) => !u.startsWith('checkin://drafts/')),
        templates: (await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
        prompts: (await c.listPrompts()).prompts.map((p) => p.name),
      };
    };
    const a = await names(old);
    expect(a.tools.length).toBeGreaterThan(15);
    expect(a.prompts).toEqual(['write_checkin']);
    expect(await names(pinned as unknown as McpSession)).toEqual(a);
    expect(await names(auto as unknown as McpSession)).toEqual(a);
    // The same answers: the same text and structured result from each.
    const me = async (s: McpSession) => {
      const r = await s.call('get_checkin', { day: 'yesterday' });
      return [text(r), r.structuredContent];
    };
    expect(await me(pinned as unknown as McpSession)).toEqual(await me(old));
  });

  it('the 2.x client in its default (legacy) mode falls back to initialize and gets 2025-11-25, the same tools', async () => {
    const { client } = await byHand({ legacy: true });
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect((await client.listTools()).tools.length).toBeGreaterThan(15);
  });

  it('a 2025 client never sees a 2026 field: the server answers it as a 2025 server (initialize result, no result_type, no envelope)', async () => {
    const old = await connect();
    const c = old.client as unknown as { getServerVersion: () => { name: string }; transport?: unknown };
    expect(c.getServerVersion().name).toBe('checkin');
    const r = (await old.call('me')) as Record<string, unknown>;
    expect(Object.keys(r).sort()).toEqual(['content', 'structuredContent']);
  });
});

describe('checkin mcp: every read tool validates against its declared schema, for both clients', () => {
  for (const revision of REVISIONS) {
    it(`${revision}: the demo's data, then with teammates blocked for four days in a row`, async () => {
      const s = await connect({ revision });
      const goalId = ((await s.call('goals')).structuredContent!.goals as Array<{ id: string }>)[0]?.id;
      await callEveryReadTool(s, goalId);
      blockTeammates(4);
      const results = await callEveryReadTool(s, goalId);
      const team = results.get('team_day {}')!.structuredContent!.teams as Array<{ members: Array<{ state: string; blocked_for: { days: number } | null }> }>;
      const blocked = team.flatMap((t) => t.members).filter((m) => m.state === 'blocked');
      expect(blocked.length).toBeGreaterThan(0);
      expect(Math.max(...blocked.map((m) => m.blocked_for?.days ?? 0))).toBeGreaterThanOrEqual(4);
    });

    it(`${revision}: a service whose every string is hostile: every read tool's result validates, and no text carries what must never reach a terminal`, async () => {
      const h = await startHostile();
      try {
        const s = await connect({ revision, env: cleanEnv({ CHECKIN_API_URL: h.url, CHECKIN_TOKEN: 'hostile' }) });
        // The goal tool takes a UUID (or its start); the hostile service answers any.
        const results = await callEveryReadTool(s, '0a1b2c3d-0000-4000-8000-000000000000');
        for (const [name, r] of results) expect(FORBIDDEN.test(text(r)), name).toBe(false);
      } finally {
        await h.close();
      }
    });
  }
});

const ACCEPT = { confirm: { action: 'accept', content: {} } };

describe("checkin mcp 2026-07-28: the person's yes as an input-required result", () => {
  async function drafted(
    call: (name: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>,
    body = 'Shipped it\u2800\u2800\u2800 and \u3164 more',
  ) {
    const yesterday = ((await call('get_checkin', { arguments: { day: 'yesterday' } })).structuredContent as { check_in: { id: string } }).check_in.id;
    const d = await call('draft_comment', { arguments: { on: 'check-in', id: yesterday, body } });
    return { id: (d.structuredContent as { draft_id: string }).draft_id, on: yesterday };
  }

  it('send_comment answers with the question (what goes out, whole, hidden characters shown), sends nothing; the retry with accept sends once; that answer again sends nothing', async () => {
    const { call } = await byHand();
    const { id, on } = await drafted(call);
    sb.requests.length = 0;
    const first = await call('send_comment', { arguments: { draft_id: id } });
    expect(first.resultType ?? first.result_type).toBe('input_required');
    const req = (first.inputRequests as Record<string, { method: string; params: { message: string } }>).confirm!;
    expect(req.method).toBe('elicitation/create');
    expect(req.params.message).toMatch(
      /^Post this comment on your check-in for \d{4}-\d\d-\d\d \(shared with [^)]+\)\?\n\nThe comment \(\d+ characters\):\nShipped it\[U\+2800\]\[U\+2800\]\[U\+2800\] and \[U\+3164\] more$/,
    );
    expect(writes()).toEqual([]);
    const state = first.requestState as string;
    const sent = await call('send_comment', { arguments: { draft_id: id }, inputResponses: ACCEPT, requestState: state });
    expect(sent.structuredContent).toMatchObject({ sent: true, draft_id: id });
    expect(writes()).toEqual([`POST /api/v2/check-ins/${on}/comments`]);
    const again = await call('send_comment', { arguments: { draft_id: id }, inputResponses: ACCEPT, requestState: state });
    expect(again.isError).toBe(true);
    expect(writes()).toHaveLength(1);
  });

  for (const [what, responses] of [
    ['decline', { confirm: { action: 'decline' } }],
    ['cancel', { confirm: { action: 'cancel' } }],
  ] as const) {
    it(`${what}: nothing is sent, the draft is kept`, async () => {
      const { call } = await byHand();
      const { id } = await drafted(call, 'Looks good');
      sb.requests.length = 0;
      const first = await call('send_comment', { arguments: { draft_id: id } });
      const r = await call('send_comment', { arguments: { draft_id: id }, inputResponses: responses, requestState: first.requestState });
      expect(r.structuredContent).toMatchObject({
        sent: false,
        draft_id: id,
        draft_kept: true,
        reason: what === 'decline' ? 'declined' : 'cancelled',
      });
      expect(writes()).toEqual([]);
    });
  }

  it('a stale answer (a later question about the same draft came), a forged state, and an answer given for another draft send nothing', async () => {
    const { call } = await byHand();
    const a = await drafted(call, 'First');
    const b = await drafted(call, 'Second');
    sb.requests.length = 0;
    const askedA1 = await call('send_comment', { arguments: { draft_id: a.id } });
    const askedA2 = await call('send_comment', { arguments: { draft_id: a.id } });
    const stale = await call('send_comment', { arguments: { draft_id: a.id }, inputResponses: ACCEPT, requestState: askedA1.requestState });
    expect(stale.structuredContent).toMatchObject({ sent: false, reason: 'stale answer' });
    const askedB = await call('send_comment', { arguments: { draft_id: b.id } });
    const other = await call('send_comment', { arguments: { draft_id: b.id }, inputResponses: ACCEPT, requestState: askedA2.requestState });
    expect(other.structuredContent).toMatchObject({ sent: false, reason: 'stale answer' });
    const [body, mac] = (askedB.requestState as string).split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), d: a.id })).toString('base64url');
    const f = await call('send_comment', { arguments: { draft_id: a.id }, inputResponses: ACCEPT, requestState: `${forged}.${mac}` });
    expect(f.structuredContent).toMatchObject({ sent: false, reason: 'stale answer' });
    expect(writes()).toEqual([]);
  });

  it(
    'log_activity answered for other words (a stale answer): nothing recorded, and the result says the draft is kept, as it is, with how to send it',
    async () => {
      const { call } = await byHand();
      sb.requests.length = 0;
      const asked = await call('log_activity', { arguments: { description: 'Reviewed the invoices PR' } });
      expect(asked.resultType ?? asked.result_type).toBe('input_required');
      const [row] = outboxRows(env.CHECKIN_CONFIG_DIR!);
      const id = row!.id;
      // The retry carries the yes to that question, but with other words to record.
      const r = await call('log_activity', {
        arguments: { description: 'Approved the wire transfer' },
        inputResponses: ACCEPT,
        requestState: asked.requestState,
      });
      expect(r.structuredContent).toEqual({ sent: false, draft_id: id, draft_kept: true, reason: 'stale answer' });
      expect(text(r as ToolResult)).toBe(
        `Not recorded: the answer was not to this question (what would be sent changed since the person was asked). Kept as draft ${id}: \`checkin drafts send ${id}\` records it from a terminal (shown whole, asked first), \`checkin drafts drop ${id}\` drops it.`,
      );
      expect(writes()).toEqual([]);
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((x) => [x.id, x.state, JSON.parse(x.data).content.input.description])).toEqual([
        [id, 'kept', 'Reviewed the invoices PR'],
      ]);
    },
    patient(60_000),
  );

  it('the auto-fulfilling client: accept sends one PATCH of the check-in; the question names the teams and the whole text', async () => {
    const s = await connect({ revision: '2026-07-28', answer: 'accept' });
    const d = await s.call('draft_checkin', { previous: '- Shipped\u2028it', blockers: '' });
    expect(d.isError, text(d)).toBeFalsy();
    sb.requests.length = 0;
    const r = await s.call('send_checkin', { draft_id: d.structuredContent!.draft_id });
    expect(r.structuredContent).toMatchObject({ sent: true });
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toMatch(
      /^Send your check-in for today \(\d{4}-\d\d-\d\d\)\?\n\nShared with: .+ \(all your teams\)\n\nPrevious \(\d+ characters\):\n- Shipped\[U\+2028\]it\n\nBlockers:\n\(nothing\)$/,
    );
    expect(writes().filter((w) => w.startsWith('PATCH'))).toHaveLength(1);
  });

  it('a 2026 client that cannot ask is refused, as a 2025 one is; nothing sent', async () => {
    const { call } = await byHand({ elicits: false });
    const { id } = await drafted(call, 'x');
    sb.requests.length = 0;
    const r = await call('send_comment', { arguments: { draft_id: id } });
    expect(r.isError).toBe(true);
    expect(text(r as ToolResult)).toContain("Sending needs the person's yes, and this client cannot ask for it");
    expect(writes()).toEqual([]);
  });
});

describe('checkin mcp --read-only', () => {
  for (const revision of REVISIONS) {
    it(`${revision}: lists only the tools marked read-only; a write called anyway is refused, nothing kept or sent; the drafts stay readable`, async () => {
      const writer = await connect({ revision });
      const kept = await writer.call('draft_checkin', { previous: '- Shipped it' });
      const id = kept.structuredContent!.draft_id as string;
      const s = await connect({ revision, args: ['--read-only'] });
      const tools = await listTools(s);
      expect(tools.map((t) => t.name).sort()).toEqual([
        'blockers',
        'drafts',
        'feed',
        'get_checkin',
        'goal',
        'goals',
        'inbox',
        'list_checkins',
        'me',
        'suggest_previous',
        'team_day',
      ]);
      for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      sb.requests.length = 0;
      for (const [name, args] of [
        ['draft_checkin', { previous: 'x' }],
        ['send_checkin', { draft_id: id }],
        ['log_activity', { description: 'x' }],
      ] as const) {
        const r = await s.call(name, args);
        expect(r.isError, name).toBe(true);
        expect(text(r)).toBe(
          `error: ${name} writes, and this server was started with \`checkin mcp --read-only\`: nothing was kept or sent.\nThe person can write it from their terminal, or start the server without --read-only.`,
        );
      }
      expect(writes()).toEqual([]);
      expect(((await s.call('drafts')).structuredContent!.drafts as Array<{ id: string }>).map((d) => d.id)).toEqual([id]);
      expect(await s.read(`checkin://drafts/${id}`)).toContain('- Shipped it');
    });
  }

  it('--print-config --read-only puts it in the command the agent runs', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const r = await runCli(['mcp', '--print-config', 'claude', '--read-only'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('claude mcp add checkin -- checkin mcp --read-only\n');
    const codex = await runCli(['mcp', '--print-config', 'codex', '--read-only'], { env });
    expect(codex.stdout).toContain('args = ["mcp", "--read-only"]');
  });
});

describe('one shape for both faces', () => {
  it("`checkin team --json` and team_day's structured result are the same objects, and both pass core/shapes.ts's TEAM_DAY (blocked_for included)", async () => {
    const { TEAM_DAY } = await import('../../src/core/shapes.js');
    const { runCli } = await import('../helpers/cli.js');
    blockTeammates(3);
    const cli = await runCli(['team', '--json'], { env });
    expect(cli.code, cli.stderr).toBe(0);
    const printed = JSON.parse(cli.stdout) as unknown[];
    for (const [i, day] of printed.entries()) expect(TEAM_DAY(day, `[${i}]`)).toBeUndefined();
    expect(JSON.stringify(printed)).toContain('"blocked_for":{"days":3');
    const s = await connect({ revision: '2026-07-28' });
    const agent = (await s.call('team_day')).structuredContent!.teams as unknown[];
    expect(agent).toEqual(printed);
  });
});

describe('checkin mcp 2026-07-28: log_activity', () => {
  for (const answer of ['accept', 'decline'] as const) {
    it(`the person ${answer}s: ${answer === 'accept' ? 'one POST, the draft gone' : 'nothing recorded, the draft kept'}`, async () => {
      const s = await connect({ revision: '2026-07-28', answer });
      sb.requests.length = 0;
      const r = await s.call('log_activity', { description: 'Reviewed the billing migration' });
      expect(r.isError, text(r)).toBeFalsy();
      expect(s.asked).toEqual([expect.stringMatching(/^Record this activity under your name \(Ada Lovelace\)\?/)]);
      expect(r.structuredContent).toMatchObject(
        answer === 'accept' ? { sent: true, draft_kept: false } : { sent: false, draft_kept: true, reason: 'declined' },
      );
      expect(writes()).toEqual(answer === 'accept' ? ['POST /api/v2/activities'] : []);
      expect(((await s.call('drafts')).structuredContent!.drafts as unknown[]).length).toBe(answer === 'accept' ? 0 : 1);
    });
  }
});
