// `checkin mcp` on its guard: against the hostile service every tool's text is clean and its
// structured content exact; stdout carries nothing but JSON-RPC; the server ends when its client
// closes standard input. (That no other command loads the SDK: test/install/startup.test.ts.)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_WORDS, cleanEnv, spawnCli } from '../helpers/cli.js';
import { FORBIDDEN, hostileObjects, startHostile } from '../helpers/hostile.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

const UUID = '3308a89a-1006-5ad0-94a3-d9510e51aecb';

let close: (() => Promise<void>) | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await close?.();
  close = undefined;
});

let env: NodeJS.ProcessEnv;
useSandboxEnv((_sb, e) => {
  env = e;
});

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('checkin mcp against a hostile service', () => {
  it("every tool's text is free of escapes, controls, bidi and zero-width characters; structured content is exact", async () => {
    const h = await startHostile();
    close = h.close;
    const hostileEnv = cleanEnv({ CHECKIN_API_URL: h.url, CHECKIN_TOKEN: 'hostile' });
    const transport = new StdioClientTransport({
      command: CLI_WORDS[0]!,
      args: [...CLI_WORDS.slice(1), 'mcp', '--toolsets', 'all'],
      env: hostileEnv as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: 'decline' };
    });
    await client.connect(transport);
    clients.push(client);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_checkin', {}],
      ['get_checkin', { day: 'yesterday' }],
      ['suggest_previous', {}],
      ['team_day', {}],
      ['list_checkins', {}],
      ['inbox', { all: true }],
      ['goal', { goal_id: UUID }],
      ['me', {}],
      ['draft_checkin', { intentions: '- next \u001b]0;agent\u0007', blockers: '' }],
      ['send_checkin', { draft_id: 'zzzzzzzz' }],
      ['draft_goal_update', { goal_id: UUID, title: 'T', body: 'b', progress: 10 }],
      ['draft_comment', { on: 'goal-update', id: UUID, body: 'c' }],
      ['log_activity', { description: 'Did a thing' }],
    ];
    const results: Record<string, CallToolResult> = {};
    for (const [name, args] of calls) {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      results[`${name} ${JSON.stringify(args)}`] = r;
      const t = text(r);
      expect(t.length, name).toBeGreaterThan(0);
      const bad = FORBIDDEN.exec(t);
      expect(bad ? `${name}: ${JSON.stringify(t.slice(Math.max(0, bad.index - 20), bad.index + 20))}` : '').toBe('');
    }
    for (const [name, r] of Object.entries(results)) if (!name.startsWith('send_checkin')) expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
    expect(results['send_checkin {"draft_id":"zzzzzzzz"}']).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'error: There is no draft zzzzzzzz (already sent or dropped, or never kept)\nThe draft resources (checkin://drafts/{id}, listed by resources/list) are what waits.',
        },
      ],
    });
    // The draft kept, sent: the person is asked, with the service's team names in the question (declined here), and the text is clean.
    const draftId = (results[`draft_checkin ${JSON.stringify(calls[8]![1])}`]!.structuredContent as { draft_id: string }).draft_id;
    const declined = (await client.callTool({ name: 'send_checkin', arguments: { draft_id: draftId } })) as CallToolResult;
    expect(declined.isError, text(declined)).toBeFalsy();
    expect(declined.structuredContent).toMatchObject({ sent: false, draft_id: draftId, draft_kept: true, reason: 'declined' });
    expect(text(declined)).not.toMatch(FORBIDDEN);
    // log_activity asks too now (declined here: nothing recorded, the draft kept), before the check-in's question.
    expect(results['log_activity {"description":"Did a thing"}']!.structuredContent).toMatchObject({ sent: false, draft_kept: true, reason: 'declined' });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/^Record this activity under your name \(Eve[^\n]*\)\? It shows in the web app/);
    // The escape the draft holds is named, not hidden (changed on purpose: it was removed from the question).
    // The service's updated_at is no time ("x"): nothing says the answers there are older than the
    // draft, so they are shown as possibly newer (issue 48, case 2), their escapes named too.
    expect(asked[1]).toMatch(
      /^Send your check-in for today \(2026-\d\d-\d\d\) over words that may be newer\? The draft \w+ has no time to set against when the check-in was saved, so answers on the service \(saved x\) may be newer than it; sending the draft replaces these answers there\.\n\nOn the service now \(replaced if you say yes\):\n\n[^\x1b\x07]*\n\nThe draft:\n\nShared with: Team \(all your teams\)\n\nIntentions \(17 characters\):\n- next \[U\+001B\]\]0;agent\[U\+0007\]\n\nBlockers:\n\(nothing\)$/,
    );
    for (const uri of ['checkin://check-ins/today', 'checkin://team/today']) {
      const read = (await client.readResource({ uri })).contents[0] as { text: string };
      expect(read.text, uri).toContain('Eve');
      expect(read.text, uri).not.toMatch(FORBIDDEN);
    }
    const o = hostileObjects();
    // Exact: the service's strings as it sent them, escapes and all (JSON carries them escaped).
    expect(results['get_checkin {}']!.structuredContent).toEqual({ day: expect.any(String), check_in: o.checkIn });
    expect((results['me {}']!.structuredContent as { me: { name: string } }).me.name).toBe(o.person.name);
    expect((results['list_checkins {}']!.structuredContent as { check_ins: Array<{ intentions: string }> }).check_ins[0]!.intentions).toBe(
      o.checkIn.intentions,
    );
    expect((results[`goal ${JSON.stringify({ goal_id: UUID })}`]!.structuredContent as { goal: unknown }).goal).toEqual(o.goal);
    // What the person is asked is clean too.
    for (const q of asked) expect(q).not.toMatch(FORBIDDEN);
  });
});

describe('checkin mcp on stdio', () => {
  it('writes nothing but JSON-RPC messages on stdout, answers each request, and ends when stdin closes', async () => {
    const child = spawnCli(['mcp', '--toolsets', 'all'], env);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    const send = (m: object) => child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    const answered = (id: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${id}: ${out}\n${err}`)), 15_000);
        const check = () => {
          if (out.split('\n').some((l) => l.includes(`"id":${id}`))) {
            clearTimeout(timer);
            child.stdout!.off('data', check);
            resolve();
          }
        };
        child.stdout!.on('data', check);
        check();
      });
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await answered(1);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'get_checkin', arguments: {} } });
    send({ id: 3, method: 'tools/call', params: { name: 'get_checkin', arguments: { day: 'blursday' } } });
    send({ id: 4, method: 'tools/call', params: { name: 'draft_checkin', arguments: { blockers: '' } } });
    send({ id: 5, method: 'tools/call', params: { name: 'send_checkin', arguments: { draft_id: 'nosuch99' } } });
    send({ id: 6, method: 'resources/read', params: { uri: 'checkin://team/today' } });
    for (const id of [2, 3, 4, 5, 6]) await answered(id);
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin!.end();
    expect(await exited).toBe(0);
    const lines = out.split('\n').filter((l) => l !== '');
    expect(out.endsWith('\n')).toBe(true);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    const messages = lines.map((l) => JSON.parse(l) as { id?: number; method?: string; result?: { isError?: boolean; content?: Array<{ text: string }> } });
    // Besides the answers, only notifications: the draft kept by call 4 may be told as a change of
    // the resource list (the drafts folder is watched), before stdin closes or not.
    for (const m of messages.filter((m) => m.id === undefined)) expect(m).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    const byId = new Map(messages.filter((m) => m.id !== undefined).map((m) => [m.id, m]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(byId.get(2)!.result!.isError).toBeFalsy();
    expect(byId.get(3)!.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^error: .*blursday/) }] });
    expect(byId.get(5)!.result).toMatchObject({
      isError: true,
      content: [
        {
          text: 'error: There is no draft nosuch99 (already sent or dropped, or never kept)\nThe draft resources (checkin://drafts/{id}, listed by resources/list) are what waits.',
        },
      ],
    });
  });
});
