// `checkin mcp`: the built CLI as an MCP server, driven as a separate process over stdio by the
// SDK's own client against the sandbox. What the service received is read from its request log.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/sandbox/server.js';
import { BIN, runCli } from './helpers/cli.js';
import { useSandboxEnv } from './helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  env = e;
});

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
});

interface Session {
  client: Client;
  /** The questions the server asked the person (elicitation messages). */
  asked: string[];
  stderr: () => string;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult & { structuredContent?: Record<string, unknown> }>;
}

/** Starts `checkin mcp` and connects; `answer` is what the person says when asked (no answer: the client cannot be asked). */
async function connect(opts: { answer?: 'accept' | 'decline' | 'cancel'; args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...(opts.args ?? [])], env: (opts.env ?? env) as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'test-agent', version: '1.0.0' }, { capabilities: opts.answer ? { elicitation: { form: {} } } : {} });
  const asked: string[] = [];
  if (opts.answer) {
    const action = opts.answer;
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return action === 'accept' ? { action, content: {} } : { action };
    });
  }
  await client.connect(transport);
  open.push(client);
  return {
    client,
    asked,
    stderr: () => stderr,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, unknown> },
  };
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const writes = () => sb.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const draftFiles = () => {
  try {
    return readdirSync(join(env.CHECKIN_CONFIG_DIR!, 'drafts')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
};

const READ_TOOLS = ['get_checkin', 'suggest_previous', 'team_day', 'list_checkins', 'inbox', 'goal', 'me'];
const WRITE_TOOLS = ['draft_checkin', 'send_checkin', 'draft_comment', 'send_comment', 'draft_goal_update', 'send_goal_update', 'log_activity'];

async function today(s: Session): Promise<string> {
  return (await s.call('me')).structuredContent!.today as string;
}

describe('checkin mcp: tools', () => {
  it('lists every tool with an object input schema, an output schema and truthful hints', async () => {
    const s = await connect();
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description!.length, t.name).toBeGreaterThan(20);
    }
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of READ_TOOLS) expect(hints[name], name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    for (const name of ['draft_checkin', 'draft_comment', 'draft_goal_update']) expect(hints[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(hints.send_checkin).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const name of ['send_comment', 'send_goal_update', 'log_activity']) expect(hints[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.find((t) => t.name === 'draft_checkin')!.inputSchema.properties).toHaveProperty('intentions');
    expect(s.client.getInstructions()).toMatch(/never "none"/);
  });

  it('every read tool answers with a text and the exact objects, and sends nothing', async () => {
    const s = await connect();
    const me = await s.call('me');
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toMatchObject({ me: { name: 'Ada Lovelace', username: 'ada' } });
    expect(text(me)).toMatch(/^Ada Lovelace \(@ada\)\n/);
    const day = me.structuredContent!.today as string;

    const c = await s.call('get_checkin');
    expect(c.structuredContent).toMatchObject({ day: `today (${day})`, check_in: { date: day, person: { name: 'Ada Lovelace' } } });
    expect(text(c)).toMatch(new RegExp(`^Check-in ${day} · Ada Lovelace`));
    const y = await s.call('get_checkin', { day: 'yesterday' });
    expect((y.structuredContent!.check_in as { date: string }).date < day).toBe(true);

    const sug = await s.call('suggest_previous');
    const sources = sug.structuredContent!.sources as Array<{ source: string; title: string; lines: string[]; date?: string }>;
    expect(sources[0]).toMatchObject({ source: 'intentions', date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    expect(sources.some((x) => x.source === 'activity')).toBe(true);
    expect(sug.structuredContent!.previous).toBe([...sources.flatMap((x) => x.lines)].filter((l, i, all) => all.indexOf(l) === i).join('\n'));
    expect(text(sug)).toContain(`${sources[0]!.title}:\n${sources[0]!.lines[0]}`);

    const team = await s.call('team_day');
    const teams = team.structuredContent!.teams as Array<{ team: { name: string }; members: unknown[] }>;
    expect(teams.map((t) => t.team.name)).toEqual(['Platform', 'Mobile']);
    expect(text(team)).toMatch(/^Platform — /);

    sb.requests.length = 0;
    const list = await s.call('list_checkins', { person: ['me'], per_page: 2, blocked: false });
    expect((list.structuredContent!.check_ins as unknown[]).length).toBe(2);
    expect(list.structuredContent!.more_may_follow).toBe(true);
    const asked = sb.requests.find((r) => r.path === '/api/v2/check-ins')!;
    expect(asked.params).toEqual(expect.arrayContaining([['people_ids[]', (me.structuredContent!.me as { id: string }).id], ['per_page', '2']]));

    const inbox = await s.call('inbox', { all: true });
    expect(inbox.isError).toBeFalsy();
    expect((inbox.structuredContent!.threads as unknown[]).length).toBeGreaterThan(0);
    // Reading it here marks nothing as seen: the CLI's marker (state.json, in the one folder
    // CHECKIN_CONFIG_DIR names) is not written, nor the older place in config.json.
    expect(existsSync(join(env.CHECKIN_CONFIG_DIR!, 'state.json'))).toBe(false);
    const configFile = join(env.CHECKIN_CONFIG_DIR!, 'config.json');
    if (existsSync(configFile)) expect(JSON.parse(readFileSync(configFile, 'utf8')).inbox).toBeUndefined();

    const goals = (await (await fetch(`${sb.url}/goals`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as Array<{ id: string; title: string }>;
    const goal = await s.call('goal', { goal_id: goals[0]!.id, updates: 2 });
    expect(goal.structuredContent).toMatchObject({ goal: { id: goals[0]!.id, title: goals[0]!.title } });
    expect(text(goal)).toContain(goals[0]!.title);

    expect(writes()).toEqual([]);
  });

  it('an error is a tool error with the CLI\'s one line (a rejected token: the exit-code-4 wording), no stack', async () => {
    const s = await connect({ env: { ...env, CHECKIN_TOKEN: 'not-a-token' } as Record<string, string> });
    const r = await s.call('get_checkin');
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^error: The token was rejected \(401 on GET \/api\/v2\/(me|check-ins\/[\d-]+)\)/);
    expect(text(r)).not.toMatch(/\n\s+at /);
    const bad = await s.call('goal', { goal_id: 'nope' });
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: 'error: The goal id must be a UUID; "nope" is not one\nList your goals and their ids with `checkin goals`.' }] });
  });
});

describe('checkin mcp: sending needs the person\'s yes', () => {
  const answers = { previous: '- Shipped the [invoices endpoint](https://github.com/engines/billing/pull/412)', intentions: '- Review @grace\'s webhook PR', blockers: '' };

  it('draft_checkin keeps a draft and sends nothing; send_checkin asks, and on yes sends exactly one PATCH', async () => {
    const s = await connect({ answer: 'accept' });
    const day = await today(s);
    sb.requests.length = 0;
    const d = await s.call('draft_checkin', answers);
    expect(d.isError).toBeFalsy();
    expect(d.structuredContent).toMatchObject({ draft_id: `check-in.${day}`, answers, resume_command: 'checkin today --resume' });
    expect(text(d)).toContain('- Review @grace\'s webhook PR');
    expect(writes()).toEqual([]);
    expect(draftFiles()).toHaveLength(1);

    const sent = await s.call('send_checkin', { draft_id: `check-in.${day}` });
    expect(sent.isError).toBeFalsy();
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toBe(`Send your check-in for today (${day})?\n\nShared with: Platform, Mobile (all your teams)\n\nPrevious:\n${answers.previous}\n\nIntentions:\n${answers.intentions}\n\nBlockers:\n(nothing)`);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(sb.requests.find((r) => r.method === 'PATCH')!.body).toEqual(answers);
    expect(sent.structuredContent).toMatchObject({ sent: true, draft_kept: false, check_in: { date: day, intentions: answers.intentions } });
    expect(draftFiles()).toEqual([]);
  });

  it('on no, nothing is sent and the draft stays; `checkin today --resume` sends it from the terminal', async () => {
    const s = await connect({ answer: 'decline' });
    const day = await today(s);
    await s.call('draft_checkin', answers);
    sb.requests.length = 0;
    const r = await s.call('send_checkin', { draft_id: `check-in.${day}` });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ sent: false, draft_kept: true, reason: 'declined', resume_command: 'checkin today --resume' });
    expect(writes()).toEqual([]);
    expect(draftFiles()).toHaveLength(1);
    // The resource shows it.
    const res = await s.client.readResource({ uri: `checkin://drafts/check-in.${day}` });
    expect((res.contents[0] as { text: string }).text).toContain('Review @grace');

    const cli = await runCli(['today', '--resume'], { env });
    expect(cli.code).toBe(0);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(sb.requests.find((x) => x.method === 'PATCH')!.body).toEqual(answers);
    expect(draftFiles()).toEqual([]);
  });

  it('a client that cannot ask: refused (the draft stays); started with --allow-send, it is sent', async () => {
    const s = await connect();
    const day = await today(s);
    await s.call('draft_checkin', answers);
    sb.requests.length = 0;
    const r = await s.call('send_checkin', { draft_id: `check-in.${day}` });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("error: Sending needs the person's yes, and this client cannot ask for it (no MCP elicitation): nothing was sent\nThe draft is kept: `checkin today --resume` sends it from a terminal (or start the server with `checkin mcp --allow-send`).");
    expect(writes()).toEqual([]);
    expect(draftFiles()).toHaveLength(1);
    await s.client.close();

    const allowed = await connect({ args: ['--allow-send'] });
    const sent = await allowed.call('send_checkin', { draft_id: `check-in.${day}` });
    expect(sent.structuredContent).toMatchObject({ sent: true });
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(draftFiles()).toEqual([]);
  });

  it('a failed send keeps the draft and says how to send it; a draft the person kept is not replaced unasked', async () => {
    const s = await connect({ answer: 'accept' });
    const day = await today(s);
    await s.call('draft_checkin', answers);
    sb.inject({ method: 'PATCH', status: 422, headers: { 'content-type': 'application/json' }, body: '{"message":"Intentions is too long"}' });
    const r = await s.call('send_checkin', { draft_id: `check-in.${day}` });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(`error: PATCH /api/v2/check-ins/${day}: 422 Unprocessable Entity: Intentions is too long\nYour answers were kept as a draft; send them with \`checkin today --resume\`.`);
    expect(draftFiles()).toHaveLength(1);
    await s.client.close();

    // A new server did not write that draft: it is the person's now, and is not replaced unasked.
    const again = await connect({ answer: 'accept' });
    const refused = await again.call('draft_checkin', { intentions: '- something else' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(new RegExp(`^error: A draft check-in\\.${day} is already kept`));
    const replaced = await again.call('draft_checkin', { intentions: '- something else', replace: true });
    expect(replaced.isError).toBeFalsy();
  });

  it('a comment, a goal update and an activity: each one POST, only after the yes', async () => {
    const s = await connect({ answer: 'accept' });
    const c = await s.call('get_checkin', { day: 'yesterday' });
    const id = (c.structuredContent!.check_in as { id: string }).id;
    sb.requests.length = 0;
    const dc = await s.call('draft_comment', { on: 'check-in', id, body: 'Thanks, @grace!' });
    expect(dc.structuredContent).toMatchObject({ draft_id: `comment.check-in.${id}` });
    const goals = (await (await fetch(`${sb.url}/goals`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as Array<{ id: string }>;
    const dg = await s.call('draft_goal_update', { goal_id: goals[0]!.id, title: 'Invoices shipped', body: '- endpoint live', progress: 60, confidence: 'on-track' });
    expect(dg.isError).toBeFalsy();
    expect(writes()).toEqual([]);
    expect((await s.call('send_comment', { draft_id: `comment.check-in.${id}` })).structuredContent).toMatchObject({ sent: true, comment: { body: 'Thanks, @grace!' } });
    expect((await s.call('send_goal_update', { draft_id: `goal-update.${goals[0]!.id}` })).structuredContent).toMatchObject({ sent: true, goal_update: { title: 'Invoices shipped' } });
    expect(s.asked).toHaveLength(2);
    const a = await s.call('log_activity', { description: 'Paired with @grace on the flaky test', url: 'https://github.com/engines/web/pull/409' });
    expect(a.structuredContent).toMatchObject({ activity: { description: 'Paired with @grace on the flaky test' } });
    expect(writes()).toEqual([`POST /api/v2/check-ins/${id}/comments`, `POST /api/v2/goals/${goals[0]!.id}/goal-updates`, 'POST /api/v2/activities']);
    expect(sb.requests.find((r) => r.method === 'POST')!.body).toEqual({ body: 'Thanks, @grace!' });
    expect(draftFiles()).toEqual([]);
  });
});

describe('checkin mcp: resources, prompt, setup', () => {
  it("offers today's check-in, the team's day and the drafts as resources, and the write_checkin prompt", async () => {
    const s = await connect();
    const day = await today(s);
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['checkin://check-ins/today', 'checkin://team/today']);
    const t = await s.client.readResource({ uri: 'checkin://check-ins/today' });
    expect((t.contents[0] as { text: string }).text).toMatch(new RegExp(`^Check-in ${day} · Ada Lovelace`));
    const team = await s.client.readResource({ uri: 'checkin://team/today' });
    expect((team.contents[0] as { text: string }).text).toMatch(/^Platform — /);
    await s.call('draft_checkin', { blockers: '' });
    expect((await s.client.listResources()).resources.map((r) => r.uri)).toContain(`checkin://drafts/check-in.${day}`);

    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['write_checkin']);
    const p = await s.client.getPrompt({ name: 'write_checkin', arguments: {} });
    const body = (p.messages[0]!.content as { text: string }).text;
    for (const step of ['suggest_previous', 'draft_checkin', 'preview', 'send_checkin', '@mention', 'never "none"', 'checkin today --resume']) expect(body).toContain(step);
  });

  it("--print-config prints each agent's setup on stdout, exactly what to run or add (what it is, on stderr)", async () => {
    const claude = await runCli(['mcp', '--print-config', 'claude'], { env });
    expect(claude.stdout).toBe('claude mcp add checkin -- checkin mcp\n');
    expect(claude.stderr).toMatch(/^Claude Code: run this once/);
    // stdout is the file's content as it is: appended to config.toml, or parsed as JSON.
    const codex = await runCli(['mcp', '--print-config', 'codex'], { env });
    expect(codex.stdout).toBe('[mcp_servers.checkin]\ncommand = "checkin"\nargs = ["mcp"]\n');
    expect(codex.stderr).toContain('~/.codex/config.toml');
    expect(JSON.parse((await runCli(['mcp', '--print-config', 'vscode'], { env })).stdout)).toEqual({ servers: { checkin: { type: 'stdio', command: 'checkin', args: ['mcp'] } } });
    expect(JSON.parse((await runCli(['mcp', '--print-config', 'cursor', '--allow-send'], { env })).stdout)).toEqual({ mcpServers: { checkin: { command: 'checkin', args: ['mcp', '--allow-send'] } } });
    expect(await runCli(['mcp', '--print-config', 'emacs'], { env })).toMatchObject({ code: 2 });
  });
});

describe("checkin mcp: a draft the person kept is replaced only with their yes, and never lost", () => {
  const draftsDir = () => join(env.CHECKIN_CONFIG_DIR!, 'drafts');
  /** The drafts on disk: each kept one's file name and what it says. */
  const onDisk = () => draftFiles().map((n) => JSON.parse(readFileSync(join(draftsDir(), n), 'utf8')) as { content: Record<string, unknown> });
  const setAside = () => readdirSync(draftsDir()).filter((n) => n.includes('.replaced-'));
  const person = { intentions: 'PERSON TYPED THIS' };
  const agent = { intentions: '- what the agent wrote' };

  /** A draft kept by someone else than the server asked next (another session, like the person's terminal). */
  async function personKeeps(): Promise<string> {
    const s = await connect();
    const day = await today(s);
    expect((await s.call('draft_checkin', person)).isError).toBeFalsy();
    await s.client.close();
    return day;
  }

  it('replace: true asks the person; on no their draft is untouched, on yes it is replaced and what it said is kept where the result says', async () => {
    const day = await personKeeps();
    sb.requests.length = 0;

    const no = await connect({ answer: 'decline' });
    const refused = await no.call('draft_checkin', { ...agent, replace: true });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(`error: The person said no: the draft check-in.${day} kept earlier was not replaced\nRead it (resource checkin://drafts/check-in.${day}) and build on it; \`checkin today --resume\` sends it from a terminal.`);
    expect(no.asked).toHaveLength(1);
    expect(no.asked[0]).toMatch(new RegExp(`^Replace the draft check-in\\.${day} kept earlier \\(saved [^)]+\\)\\? What it says is kept in a file beside it, not deleted\\.\\n\\nIt says:\\n[^]*PERSON TYPED THIS[^]*\\n\\nThe new draft:\\n[^]*- what the agent wrote`));
    expect(onDisk().map((d) => d.content)).toEqual([{ kind: 'answers', answers: person }]);
    expect(setAside()).toEqual([]);
    await no.client.close();

    const yes = await connect({ answer: 'accept' });
    const replaced = await yes.call('draft_checkin', { ...agent, replace: true });
    expect(replaced.isError).toBeFalsy();
    expect(yes.asked).toHaveLength(1);
    const keptAs = replaced.structuredContent!.replaced_kept_as as string;
    expect(setAside().map((n) => join(draftsDir(), n))).toEqual([keptAs]);
    expect(keptAs).toMatch(/[0-9a-f]{32}\.json\.replaced-\d+$/);
    expect(JSON.parse(readFileSync(keptAs, 'utf8')).content).toEqual({ kind: 'answers', answers: person });
    expect(text(replaced)).toContain(`The draft kept earlier was replaced; what it said is kept in ${keptAs}.`);
    expect(onDisk().map((d) => d.content)).toEqual([{ kind: 'answers', answers: agent }]);
    // Its own draft it replaces without asking again.
    expect((await yes.call('draft_checkin', { ...agent, blockers: '' })).structuredContent).not.toHaveProperty('replaced_kept_as');
    expect(yes.asked).toHaveLength(1);
    expect(writes()).toEqual([]);

    // The terminal resumes the draft now kept (the agent's); the person's stays beside it.
    const cli = await runCli(['today', '--resume'], { env });
    expect(cli.code).toBe(0);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(sb.requests.find((r) => r.method === 'PATCH')!.body).toEqual({ ...agent, blockers: '' });
    expect(draftFiles()).toEqual([]);
    expect(JSON.parse(readFileSync(keptAs, 'utf8')).content).toEqual({ kind: 'answers', answers: person });
  });

  it("the agent's own draft, once the person kept other text in its place, is theirs: not replaced unasked", async () => {
    const s = await connect({ answer: 'decline' });
    const day = await today(s);
    expect((await s.call('draft_checkin', agent)).isError).toBeFalsy();
    sb.inject({ method: 'PATCH', status: 422, headers: { 'content-type': 'application/json' }, body: '{"message":"Intentions is too long"}' });
    // The person pipes their intentions at the terminal, and the send fails: what they piped is kept.
    const cli = await runCli(['today', '-i', '-'], { env, input: person.intentions });
    expect(cli.code).toBe(2);
    expect(onDisk().map((d) => d.content)).toEqual([{ kind: 'answers', answers: person }]);
    const again = await s.call('draft_checkin', agent);
    expect(text(again)).toMatch(new RegExp(`^error: A draft check-in\\.${day} is already kept \\(saved [^)]+\\); it may be what the person wrote, so it was not replaced\\n`));
    expect((await s.call('draft_checkin', { ...agent, replace: true })).isError).toBe(true);
    expect(s.asked).toHaveLength(1);
    expect(onDisk().map((d) => d.content)).toEqual([{ kind: 'answers', answers: person }]);
    expect(setAside()).toEqual([]);
  });

  it('a client that cannot ask: refused, the draft intact; started with --allow-send, replaced with the old one kept beside it', async () => {
    const day = await personKeeps();
    const s = await connect();
    const r = await s.call('draft_checkin', { ...agent, replace: true });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      `error: Replacing the draft check-in.${day} kept earlier needs the person's yes, and this client cannot ask for it (no MCP elicitation): it was not replaced\nRead it (resource checkin://drafts/check-in.${day}) and build on it; \`checkin today --resume\` sends it from a terminal (or start the server with \`checkin mcp --allow-send\`).`,
    );
    expect(onDisk().map((d) => d.content)).toEqual([{ kind: 'answers', answers: person }]);
    expect(setAside()).toEqual([]);
    await s.client.close();

    const allowed = await connect({ args: ['--allow-send'] });
    const done = await allowed.call('draft_checkin', { ...agent, replace: true });
    expect(done.isError).toBeFalsy();
    const keptAs = done.structuredContent!.replaced_kept_as as string;
    expect(setAside().map((n) => join(draftsDir(), n))).toEqual([keptAs]);
    expect(JSON.parse(readFileSync(keptAs, 'utf8')).content).toEqual({ kind: 'answers', answers: person });
    expect(onDisk().map((d) => d.content)).toEqual([{ kind: 'answers', answers: agent }]);
    expect(writes()).toEqual([]);
  });

  it('draft_comment and draft_goal_update: the same (asked; no keeps it; yes replaces it and keeps it beside)', async () => {
    const first = await connect();
    const id = ((await first.call('get_checkin', { day: 'yesterday' })).structuredContent!.check_in as { id: string }).id;
    const goals = (await (await fetch(`${sb.url}/goals`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as Array<{ id: string }>;
    await first.call('draft_comment', { on: 'check-in', id, body: 'PERSON TYPED THIS comment' });
    await first.call('draft_goal_update', { goal_id: goals[0]!.id, title: 'PERSON TYPED THIS update' });
    await first.client.close();
    const kept = () => onDisk().map((d) => d.content).sort((a, b) => String(a.kind).localeCompare(String(b.kind)));
    const theirs = [{ kind: 'comment', body: 'PERSON TYPED THIS comment' }, { kind: 'goal-update', input: { title: 'PERSON TYPED THIS update' } }];

    const no = await connect({ answer: 'decline' });
    expect((await no.call('draft_comment', { on: 'check-in', id, body: 'agent comment', replace: true })).isError).toBe(true);
    expect((await no.call('draft_goal_update', { goal_id: goals[0]!.id, title: 'agent update', replace: true })).isError).toBe(true);
    expect(no.asked).toHaveLength(2);
    expect(no.asked[0]).toContain('It says:\nPERSON TYPED THIS comment\n\nThe new draft:\nagent comment');
    expect(no.asked[1]).toContain('It says:\nPERSON TYPED THIS update\n\nThe new draft:\nagent update');
    expect(kept()).toEqual(theirs);
    expect(setAside()).toEqual([]);
    await no.client.close();

    const yes = await connect({ answer: 'accept' });
    const c = await yes.call('draft_comment', { on: 'check-in', id, body: 'agent comment', replace: true });
    const g = await yes.call('draft_goal_update', { goal_id: goals[0]!.id, title: 'agent update', replace: true });
    expect(kept()).toEqual([{ kind: 'comment', body: 'agent comment' }, { kind: 'goal-update', input: { title: 'agent update' } }]);
    const asides = [c, g].map((r) => JSON.parse(readFileSync(r.structuredContent!.replaced_kept_as as string, 'utf8')).content);
    expect(asides).toEqual(theirs);
    expect(setAside()).toHaveLength(2);
    expect(writes()).toEqual([]);
  });
});

describe('checkin mcp: who a check-in is shared with', () => {
  it("the draft's teams, by name, in the preview and in the question the person says yes to", async () => {
    const s = await connect({ answer: 'accept' });
    const day = await today(s);
    const mobile = ((await s.call('me')).structuredContent!.me as { teams: Array<{ id: string; name: string }> }).teams.find((t) => t.name === 'Mobile')!;
    const d = await s.call('draft_checkin', { intentions: 'x', team: ['Mobile'] });
    expect(d.isError).toBeFalsy();
    expect(d.structuredContent).toMatchObject({ answers: { intentions: 'x', team_ids: [mobile.id] }, shared_with: [{ id: mobile.id, name: 'Mobile' }] });
    expect(text(d)).toMatch(new RegExp(`\\n\\nCheck-in ${day} · Ada Lovelace · Mobile\\n`));
    expect(d.structuredContent!.preview).toMatch(new RegExp(`^Check-in ${day} · Ada Lovelace · Mobile\\n`));
    sb.requests.length = 0;
    const sent = await s.call('send_checkin', { draft_id: `check-in.${day}` });
    expect(sent.isError).toBeFalsy();
    expect(s.asked).toEqual([`Send your check-in for today (${day})?\n\nShared with: Mobile\n\nIntentions:\nx`]);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(sb.requests.find((r) => r.method === 'PATCH')!.body).toEqual({ intentions: 'x', team_ids: [mobile.id] });
  });
});
