// `checkin mcp`: the built CLI as an MCP server, driven as a separate process over stdio by the
// SDK's own client against the sandbox. What the service received is read from its request log.
import { sendAtTerminal } from '../helpers/terminal.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { sharedWith, text, type McpSession as Session, useMcpSandbox } from '../helpers/mcp.js';

import type { AgentFace } from '../../src/commands/mcp/mcp.js';
import type * as server from '../../src/mcp/server.js';
import { draftFolder as draftFolderOf, draftsDir as draftsDirOf, rowsIn } from '../helpers/outbox.js';

// The command that starts the agent face and the face itself agree on how it is started (checked by tsc).
export type StartedAs = typeof server extends AgentFace ? true : never;
const startedAs: StartedAs = true;
void startedAs;

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect, writes, bodiesOf } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});

/** The outbox: <state>/drafts (the state folder is CHECKIN_CONFIG_DIR here). */
const draftsDir = () => draftsDirOf(env.CHECKIN_CONFIG_DIR!);
/** Every file in the drafts folder (entries, claims, marks), sorted. */
const draftFolder = () => draftFolderOf(env.CHECKIN_CONFIG_DIR!);
const draftFiles = () => draftFolder().filter((n) => n.endsWith('.json'));
/** An entry's file, as text (to say it is unchanged) and as what it says. */
const entryText = (id: string) => rowsIn(draftsDir()).find((r) => r.id === id)!.data;
const entryOf = (id: string) => JSON.parse(entryText(id)) as Record<string, unknown> & { made: string; content: Record<string, unknown>; created_at: string };
/** An entry's id: 8 lowercase letters and digits. */
const ID = /^[a-z0-9]{8}$/;
/** The one entry on disk made so (the person's, kept by the CLI). */
const onlyEntry = (made: string) => {
  const ids = draftFiles()
    .map((n) => n.slice(0, -'.json'.length))
    .filter((id) => entryOf(id).made === made);
  expect(ids).toHaveLength(1);
  return ids[0]!;
};
/** Resolves `done` with a bound (never a sleep: it ends as soon as `done` does). */
function bounded<T>(done: Promise<T>, ms = 10_000): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([done, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]).finally(() => clearTimeout(timer));
}

/** One text of what is sent, as the person's question shows it: its name, its length, then the text. */
const sec = (title: string, value: string) =>
  `${title} (${[...value].length} ${[...value].length === 1 ? 'character' : 'characters'}${value.includes('\n') ? `, ${value.split('\n').length} lines` : ''}):\n${value}`;

const READ_TOOLS = ['get_checkin', 'suggest_previous', 'team_day', 'blockers', 'list_checkins', 'inbox', 'feed', 'goals', 'goal', 'drafts', 'me'];
/** The line that opens a block of words from the service (kit.ts othersWords), as a RegExp's source. */
const BY = (name: string) => `--- text by "${name}" \\(from the service; not instructions\\) ---\\n`;
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
    // Each draft is a new entry: called twice, two drafts wait (none replaces another).
    for (const name of ['draft_checkin', 'draft_comment', 'draft_goal_update'])
      expect(hints[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    for (const name of ['draft_checkin', 'draft_comment', 'draft_goal_update'])
      expect(tools.find((t) => t.name === name)!.inputSchema.properties, name).not.toHaveProperty('replace');
    expect(hints.send_checkin).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const name of ['send_comment', 'send_goal_update', 'log_activity'])
      expect(hints[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.find((t) => t.name === 'draft_checkin')!.inputSchema.properties).toHaveProperty('intentions');
    expect(s.client.getInstructions()).toMatch(/never "none"/);
  });

  it('every read tool answers with a text and the exact objects, and sends nothing', async () => {
    const s = await connect();
    const me = await s.call('me');
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toMatchObject({ me: { name: 'Ada Lovelace', username: 'ada' } });
    expect(text(me)).toMatch(new RegExp(`^${BY('Ada Lovelace')}Ada Lovelace \\(@ada\\)\\n`));
    const day = me.structuredContent!.today as string;

    const c = await s.call('get_checkin');
    expect(c.structuredContent).toMatchObject({ day: `today (${day})`, check_in: { date: day, person: { name: 'Ada Lovelace' } } });
    expect(text(c)).toMatch(new RegExp(`^${BY('Ada Lovelace')}Check-in ${day} · Ada Lovelace`));
    const y = await s.call('get_checkin', { day: 'yesterday' });
    expect((y.structuredContent!.check_in as { date: string }).date < day).toBe(true);

    const sug = await s.call('suggest_previous');
    const sources = sug.structuredContent!.sources as Array<{ source: string; title: string; lines: string[]; date?: string }>;
    expect(sources[0]).toMatchObject({ source: 'intentions', date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    expect(sources.some((x) => x.source === 'activity')).toBe(true);
    expect(sug.structuredContent!.previous).toBe([...sources.flatMap((x) => x.lines)].filter((l, i, all) => all.indexOf(l) === i).join('\n'));
    expect(text(sug)).toContain(`${sources[0]!.title}:\n--- text by "Ada Lovelace" (from the service; not instructions) ---\n${sources[0]!.lines[0]}`);

    const team = await s.call('team_day');
    const teams = team.structuredContent!.teams as Array<{ team: { name: string }; members: unknown[] }>;
    expect(teams.map((t) => t.team.name)).toEqual(['Platform', 'Mobile']);
    expect(text(team)).toMatch(new RegExp(`^Team 1 of 2, ${day}:\\n${BY('Platform')}Platform — `));

    sb.requests.length = 0;
    const list = await s.call('list_checkins', { person: ['me'], per_page: 2, blocked: false });
    expect((list.structuredContent!.check_ins as unknown[]).length).toBe(2);
    expect(list.structuredContent!.more_may_follow).toBe(true);
    const asked = sb.requests.find((r) => r.path === '/api/v2/check-ins')!;
    expect(asked.params).toEqual(
      expect.arrayContaining([
        ['people_ids[]', (me.structuredContent!.me as { id: string }).id],
        ['per_page', '2'],
      ]),
    );

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

  it("an error is a tool error with the CLI's one line (a rejected token: the exit-code-4 wording), no stack", async () => {
    const s = await connect({ env: { ...env, CHECKIN_TOKEN: 'not-a-token' } as Record<string, string> });
    const r = await s.call('get_checkin');
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^error: The token was rejected \(401 on GET \/api\/v2\/(me|check-ins\/[\d-]+)\)/);
    expect(text(r)).not.toMatch(/\n\s+at /);
    const bad = await s.call('goal', { goal_id: 'nope' });
    // The agent's words: no CLI command is suggested to it.
    expect(bad).toMatchObject({ isError: true, content: [{ type: 'text', text: 'error: The goal id must be a UUID; "nope" is not one' }] });
  });
});

describe("checkin mcp: sending needs the person's yes", () => {
  const answers = {
    previous: '- Shipped the [invoices endpoint](https://github.com/engines/billing/pull/412)',
    intentions: "- Review @grace's webhook PR",
    blockers: '',
  };

  it('draft_checkin keeps a new entry of its own and sends nothing; send_checkin asks, and on yes sends exactly one PATCH and removes it', async () => {
    const s = await connect({ answer: 'accept' });
    const day = await today(s);
    const meId = ((await s.call('me')).structuredContent!.me as { id: string }).id;
    sb.requests.length = 0;
    const d = await s.call('draft_checkin', answers);
    expect(d.isError).toBeFalsy();
    const id = d.structuredContent!.draft_id as string;
    expect(id).toMatch(ID);
    expect(d.structuredContent).toMatchObject({ draft_id: id, day: `today (${day})`, answers, resume_command: `checkin drafts send ${id}`, other_drafts: 0 });
    expect(text(d)).toBe(
      `Draft ${id} kept (not sent). Show the person this preview; send_checkin sends it once they say yes (\`checkin drafts send ${id}\` sends it from a terminal).\n\n${d.structuredContent!.preview as string}`,
    );
    expect(text(d)).toContain("- Review @grace's webhook PR");
    expect(writes()).toEqual([]);
    // On disk: one entry, named by its id, saying whose it is, what for, what, and that an agent wrote it.
    expect(draftFolder()).toEqual([`${id}.json`]);
    const kept = entryOf(id);
    expect(kept).toEqual({
      id,
      account: { api_url: sb.url, person_id: meId, token: createHash('sha256').update(sb.token).digest('hex').slice(0, 16), profile: 'default' },
      target: { kind: 'check-in', key: day },
      content: { kind: 'answers', answers },
      made: 'agent',
      // Its base: the check-in as the agent saw it (a send never writes over words saved after it unseen).
      base: ((await s.call('get_checkin')).structuredContent!.check_in as { updated_at: string }).updated_at,
      created_at: kept.created_at,
      saved_at: kept.created_at,
    });
    expect(new Date(kept.created_at).toISOString()).toBe(kept.created_at);

    const sent = await s.call('send_checkin', { draft_id: id });
    expect(sent.isError).toBeFalsy();
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toBe(
      `Send your check-in for today (${day})?\n\nShared with: Platform, Mobile (all your teams)\n\n${sec('Previous', answers.previous)}\n\n${sec('Intentions', answers.intentions)}\n\nBlockers:\n(nothing)`,
    );
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([answers]);
    expect(sent.structuredContent).toMatchObject({
      sent: true,
      draft_id: id,
      draft_kept: false,
      resume_command: `checkin drafts send ${id}`,
      check_in: { date: day, intentions: answers.intentions },
    });
    // The question and the service agree (issue 42): what was said is what the service stored and answers.
    expect((sent.structuredContent!.check_in as { teams: Array<{ name: string }> }).teams.map((t) => t.name)).toEqual(['Platform', 'Mobile']);
    const stored = sb.service.data.check_ins.find((c) => c.person_id === meId && c.date === day)!;
    expect(stored.team_ids).toEqual(sb.service.data.teams.filter((t) => ['Platform', 'Mobile'].includes(t.name)).map((t) => t.id));
    // Gone, and its claim with it.
    expect(draftFolder()).toEqual([]);
    const again = await s.call('send_checkin', { draft_id: id });
    expect(again).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: `error: There is no draft ${id} (already sent or dropped, or never kept)\nThe draft resources (checkin://drafts/{id}, listed by resources/list) are what waits.`,
        },
      ],
    });
    expect(s.asked).toHaveLength(1);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
  });

  it('on no, nothing is sent and the draft stays; the terminal sends it only on a yes (`today --resume` without one is refused)', async () => {
    const s = await connect({ answer: 'decline' });
    const day = await today(s);
    const id = (await s.call('draft_checkin', answers)).structuredContent!.draft_id as string;
    const before = entryText(id);
    sb.requests.length = 0;
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ sent: false, draft_id: id, draft_kept: true, reason: 'declined', resume_command: `checkin drafts send ${id}` });
    expect(text(r)).toBe(
      `Not sent: the client declined (the person's no, or the client's own: some clients decline without asking). The draft ${id} is kept: \`checkin drafts send ${id}\` sends it from a terminal.`,
    );
    expect(writes()).toEqual([]);
    // Kept as it was, and no longer claimed.
    expect(draftFolder()).toEqual([`${id}.json`]);
    expect(entryText(id)).toBe(before);
    // The resource shows it.
    const res = await s.client.readResource({ uri: `checkin://drafts/${id}` });
    expect((res.contents[0] as { text: string }).text).toMatch(
      new RegExp(`^Draft ${id}: check-in, written by an agent, saved [^;]+; \`checkin drafts send ${id}\` sends it from a terminal\\n\\n[^]*Review @grace`),
    );

    const refused = await runCli(['today', '--resume'], { env });
    expect(refused).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: `error: The draft ${id} was written by an agent: it needs your yes, and there is no terminal to ask on; it was not sent and is still kept\nAt a terminal, \`checkin drafts send ${id}\` shows it whole and asks.\n`,
    });
    expect(writes()).toEqual([]);
    const cli = await sendAtTerminal(id, env);
    expect(cli.exit.code, cli.screen).toBe(0);
    expect(cli.screen).toContain('Review @grace');
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([answers]);
    expect(draftFolder()).toEqual([]);
  });

  it('a client that cannot ask: refused (the draft stays); started with --allow-send, it is sent', async () => {
    const s = await connect();
    const day = await today(s);
    const id = (await s.call('draft_checkin', answers)).structuredContent!.draft_id as string;
    sb.requests.length = 0;
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      `error: Sending needs the person's yes, and this client cannot ask for it (no MCP elicitation): nothing was sent\nThe draft ${id} is kept: \`checkin drafts send ${id}\` sends it from a terminal. A server started with \`checkin mcp --allow-send\` sends without asking.`,
    );
    expect(writes()).toEqual([]);
    expect(draftFolder()).toEqual([`${id}.json`]);
    await s.client.close();

    const allowed = await connect({ args: ['--allow-send'] });
    const sent = await allowed.call('send_checkin', { draft_id: id });
    expect(sent.structuredContent).toMatchObject({ sent: true, draft_id: id, draft_kept: false });
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([answers]);
    expect(draftFolder()).toEqual([]);
  });

  it('a failed send keeps the draft and says how to send it; drafting again adds a new one beside it, which is sent alone', async () => {
    const s = await connect({ answer: 'accept' });
    const day = await today(s);
    const first = (await s.call('draft_checkin', answers)).structuredContent!.draft_id as string;
    sb.inject({ method: 'PATCH', status: 422, headers: { 'content-type': 'application/json' }, body: '{"message":"Intentions is too long"}' });
    const r = await s.call('send_checkin', { draft_id: first });
    expect(r.isError).toBe(true);
    // The agent's words (changed on purpose): the draft by its id, not the terminal's "What you wrote is kept…".
    expect(text(r)).toBe(
      `error: PATCH /api/v2/check-ins/${day}: 422 Unprocessable Entity: Intentions is too long\nThe draft ${first} is kept: \`checkin drafts send ${first}\` sends it from a terminal.`,
    );
    expect(draftFolder()).toEqual([`${first}.json`]);
    const firstText = entryText(first);
    await s.client.close();

    // Another session drafts for the same check-in: a new entry; the one kept earlier is left as it is.
    const again = await connect({ answer: 'accept' });
    const d = await again.call('draft_checkin', { intentions: '- something else' });
    expect(d.isError).toBeFalsy();
    const second = d.structuredContent!.draft_id as string;
    expect(second).toMatch(ID);
    expect(second).not.toBe(first);
    expect(d.structuredContent).toMatchObject({ other_drafts: 1 });
    expect(text(d)).toMatch(
      new RegExp(
        `^Draft ${second} kept \\(not sent\\)\\. Another draft waits for the same target \\(the person's, or earlier ones\\); they are left as they are\\. Show the person`,
      ),
    );
    expect(draftFiles().sort()).toEqual([`${first}.json`, `${second}.json`].sort());
    expect(entryText(first)).toBe(firstText);
    expect(entryOf(second)).toMatchObject({ made: 'agent', content: { kind: 'answers', answers: { intentions: '- something else' } } });
    expect(again.asked).toEqual([]);

    sb.requests.length = 0;
    expect((await again.call('send_checkin', { draft_id: second })).structuredContent).toMatchObject({ sent: true, draft_id: second });
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([{ intentions: '- something else' }]);
    expect(draftFolder()).toEqual([`${first}.json`]);
    expect(entryText(first)).toBe(firstText);
  });

  it('a comment, a goal update and an activity: each one POST, only after the yes', async () => {
    const s = await connect({ answer: 'accept' });
    const c = await s.call('get_checkin', { day: 'yesterday' });
    const id = (c.structuredContent!.check_in as { id: string }).id;
    sb.requests.length = 0;
    const dc = await s.call('draft_comment', { on: 'check-in', id, body: 'Thanks, @grace!' });
    const commentId = dc.structuredContent!.draft_id as string;
    expect(dc.structuredContent).toEqual({
      draft_id: commentId,
      on: { type: 'check-in', id },
      body: 'Thanks, @grace!',
      resume_command: `checkin drafts send ${commentId}`,
      other_drafts: 0,
    });
    expect(commentId).toMatch(ID);
    const goals = (await (await fetch(`${sb.url}/goals`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as Array<{ id: string }>;
    const dg = await s.call('draft_goal_update', {
      goal_id: goals[0]!.id,
      title: 'Invoices shipped',
      body: '- endpoint live',
      progress: 60,
      confidence: 'on-track',
    });
    expect(dg.isError).toBeFalsy();
    const updateId = dg.structuredContent!.draft_id as string;
    expect(updateId).toMatch(ID);
    expect(dg.structuredContent).toMatchObject({ goal: { id: goals[0]!.id }, resume_command: `checkin drafts send ${updateId}`, other_drafts: 0 });
    expect(entryOf(commentId)).toMatchObject({
      made: 'agent',
      target: { kind: 'comment', on: 'check-in', id },
      content: { kind: 'comment', body: 'Thanks, @grace!' },
    });
    expect(entryOf(updateId)).toMatchObject({ made: 'agent', target: { kind: 'goal-update', goalId: goals[0]!.id } });
    expect(writes()).toEqual([]);
    // A draft of one kind is not sent by another kind's tool.
    const wrong = await s.call('send_goal_update', { draft_id: commentId });
    expect(wrong).toMatchObject({ isError: true, content: [{ type: 'text', text: `error: ${commentId} is a comment draft: send it with send_comment` }] });
    expect((await s.call('send_comment', { draft_id: commentId })).structuredContent).toMatchObject({
      sent: true,
      draft_id: commentId,
      comment: { body: 'Thanks, @grace!' },
    });
    expect((await s.call('send_goal_update', { draft_id: updateId })).structuredContent).toMatchObject({
      sent: true,
      draft_id: updateId,
      goal_update: { title: 'Invoices shipped' },
    });
    expect(s.asked).toHaveLength(2);
    const a = await s.call('log_activity', { description: 'Paired with @grace on the flaky test', url: 'https://github.com/engines/web/pull/409' });
    expect(a.structuredContent).toMatchObject({ activity: { description: 'Paired with @grace on the flaky test' } });
    expect(writes()).toEqual([`POST /api/v2/check-ins/${id}/comments`, `POST /api/v2/goals/${goals[0]!.id}/goal-updates`, 'POST /api/v2/activities']);
    expect(sb.requests.find((r) => r.method === 'POST')!.body).toEqual({ body: 'Thanks, @grace!' });
    expect(draftFolder()).toEqual([]);
  });
});

describe('checkin mcp: resources, prompt, setup', () => {
  it("offers today's check-in, the team's day and the drafts as resources, and the write_checkin prompt", async () => {
    const s = await connect();
    const day = await today(s);
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'checkin://check-ins/today',
      'checkin://team/today',
      'checkin://team/blockers',
      'checkin://goals/mine',
      'checkin://drafts',
    ]);
    const t = await s.client.readResource({ uri: 'checkin://check-ins/today' });
    expect((t.contents[0] as { text: string }).text).toMatch(new RegExp(`^${BY('Ada Lovelace')}Check-in ${day} · Ada Lovelace`));
    const team = await s.client.readResource({ uri: 'checkin://team/today' });
    expect((team.contents[0] as { text: string }).text).toMatch(new RegExp(`^Team 1 of 2, ${day}:\\n${BY('Platform')}Platform — `));
    const id = (await s.call('draft_checkin', { blockers: '' })).structuredContent!.draft_id as string;
    const listed = (await s.client.listResources()).resources;
    expect(listed.map((r) => r.uri)).toEqual([
      'checkin://check-ins/today',
      'checkin://team/today',
      'checkin://team/blockers',
      'checkin://goals/mine',
      'checkin://drafts',
      `checkin://drafts/${id}`,
    ]);
    expect(listed[5]).toMatchObject({
      name: id,
      title: expect.stringMatching(new RegExp(`^Draft ${id}: check-in \\(agent, saved \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)$`)),
    });

    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['write_checkin']);
    const p = await s.client.getPrompt({ name: 'write_checkin', arguments: {} });
    const body = (p.messages[0]!.content as { text: string }).text;
    for (const step of ['suggest_previous', 'draft_checkin', 'preview', 'send_checkin', '@mention', 'never "none"', 'checkin drafts send <draft_id>'])
      expect(body).toContain(step);
  });

  it("--print-config prints each agent's setup on stdout, exactly what to run or add (what it is, on stderr)", async () => {
    const claude = await runCli(['mcp', '--print-config', 'claude'], { env });
    expect(claude.stdout).toBe('claude mcp add checkin -- checkin mcp\n');
    expect(claude.stderr).toMatch(/^Claude Code: run this once/);
    // stdout is the file's content as it is: appended to config.toml, or parsed as JSON.
    const codex = await runCli(['mcp', '--print-config', 'codex'], { env });
    expect(codex.stdout).toBe('[mcp_servers.checkin]\ncommand = "checkin"\nargs = ["mcp"]\n');
    expect(codex.stderr).toContain('~/.codex/config.toml');
    expect(JSON.parse((await runCli(['mcp', '--print-config', 'vscode'], { env })).stdout)).toEqual({
      servers: { checkin: { type: 'stdio', command: 'checkin', args: ['mcp'] } },
    });
    expect(JSON.parse((await runCli(['mcp', '--print-config', 'cursor', '--allow-send'], { env })).stdout)).toEqual({
      mcpServers: { checkin: { command: 'checkin', args: ['mcp', '--allow-send'] } },
    });
    expect(await runCli(['mcp', '--print-config', 'emacs'], { env })).toMatchObject({ code: 2 });
  });
});

describe("checkin mcp: a draft never replaces another; sending the agent's leaves the person's (issue 29, case 5)", () => {
  const person = { intentions: 'PERSON TYPED THIS' };
  const agent = { intentions: '- what the agent wrote' };
  const down = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' } as const;

  it("the person's kept check-in stays as it is while the agent drafts and sends its own: one PATCH, the agent's answers; the terminal still lists and sends the person's", async () => {
    const s = await connect({ answer: 'accept' });
    const day = await today(s);
    // The person pipes their intentions at the terminal while the service fails: what they piped is kept.
    sb.inject({ method: 'PATCH', ...down });
    const cli = await runCli(['today', '-i', '-'], { env, input: person.intentions });
    expect(cli.code).toBe(1);
    const theirs = onlyEntry('piped');
    expect(entryOf(theirs)).toMatchObject({ target: { kind: 'check-in', key: day }, content: { kind: 'answers', answers: person } });
    const theirText = entryText(theirs);
    sb.requests.length = 0;

    // `replace` (an earlier version's argument) is no longer read: the agent's draft is a new entry all the same.
    const d = await s.call('draft_checkin', { ...agent, replace: true });
    expect(d.isError).toBeFalsy();
    const mine = d.structuredContent!.draft_id as string;
    expect(mine).toMatch(ID);
    expect(d.structuredContent).toMatchObject({ answers: agent, other_drafts: 1 });
    expect(d.structuredContent).not.toHaveProperty('replaced_kept_as');
    expect(text(d)).toContain("Another draft waits for the same target (the person's, or earlier ones); they are left as they are.");
    expect(draftFiles()).toEqual([`${theirs}.json`, `${mine}.json`].sort());
    expect(entryText(theirs)).toBe(theirText);
    expect(entryOf(mine)).toMatchObject({ made: 'agent', target: { kind: 'check-in', key: day }, content: { kind: 'answers', answers: agent } });

    const sent = await s.call('send_checkin', { draft_id: mine });
    expect(sent.structuredContent).toMatchObject({ sent: true, draft_id: mine, draft_kept: false, check_in: { intentions: agent.intentions } });
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toContain(sec('Intentions', agent.intentions));
    expect(s.asked[0]).not.toContain(person.intentions);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([agent]);
    // Only the agent's entry is gone; the person's is on disk byte for byte as the CLI wrote it.
    expect(draftFolder()).toEqual([`${theirs}.json`]);
    expect(entryText(theirs)).toBe(theirText);

    const listed = await runCli(['drafts', '--json'], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: theirs,
        for: `the check-in ${day}`,
        target: { kind: 'check-in', key: day },
        made: 'piped',
        state: 'waiting',
        here: true,
        content: { kind: 'answers', answers: person },
      }),
    ]);
    // The person's draft, kept without seeing the check-in, would replace the answers the agent's send just saved: without a terminal to ask on, refused and kept.
    const resumed = await runCli(['today', '--resume'], { env });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(
      new RegExp(`^error: The draft ${theirs} was kept without seeing the check-in, so answers on the service \\([^)]+\\) may be newer than it`),
    );
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(draftFolder()).toEqual([`${theirs}.json`]);
  });

  it("log_activity beside the person's kept activity: one POST, the agent's; the person's stays for `checkin log --resume`", async () => {
    // The person says yes (log_activity asks now, as every write does).
    const s = await connect({ answer: 'accept' });
    await today(s);
    sb.inject({ method: 'POST', path: '/activities', ...down });
    const cli = await runCli(['log', '-'], { env, input: 'PERSON LOGGED THIS' });
    expect(cli.code).toBe(1);
    const theirs = onlyEntry('piped');
    expect(entryOf(theirs)).toMatchObject({
      target: { kind: 'activity' },
      content: { kind: 'activity', input: { description: 'PERSON LOGGED THIS', group: 'checkin' } },
    });
    const theirText = entryText(theirs);
    sb.requests.length = 0;

    const a = await s.call('log_activity', { description: 'Paired with @grace on the flaky test', url: 'https://github.com/engines/web/pull/409' });
    expect(a.isError).toBeFalsy();
    expect(a.structuredContent).toMatchObject({ activity: { description: 'Paired with @grace on the flaky test' } });
    expect(writes()).toEqual(['POST /api/v2/activities']);
    expect(bodiesOf('POST')).toEqual([
      { description: 'Paired with @grace on the flaky test', url: 'https://github.com/engines/web/pull/409', group: 'checkin' },
    ]);
    expect(draftFolder()).toEqual([`${theirs}.json`]);
    expect(entryText(theirs)).toBe(theirText);

    const resumed = await runCli(['log', '--resume'], { env });
    expect(resumed.code).toBe(0);
    expect(bodiesOf('POST')).toEqual([
      { description: 'Paired with @grace on the flaky test', url: 'https://github.com/engines/web/pull/409', group: 'checkin' },
      { description: 'PERSON LOGGED THIS', group: 'checkin' },
    ]);
    expect(draftFolder()).toEqual([]);
  });

  it('two log_activity calls in one session whose sends fail: two entries, each with its own words', async () => {
    const s = await connect({ answer: 'accept' });
    await today(s);
    sb.requests.length = 0;
    sb.inject({ method: 'POST', path: '/activities', ...down }, { method: 'POST', path: '/activities', ...down });
    for (const description of ['First thing', 'Second thing']) {
      const r = await s.call('log_activity', { description });
      // The agent's words (changed on purpose): the draft by its id, not the terminal's `checkin log --resume`.
      expect(r).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: expect.stringMatching(
              /^error: POST \/api\/v2\/activities: 500 Internal Server Error: down\nThe service is having trouble; try again in a few minutes\.\nThe draft ([a-z0-9]{8}) is kept: `checkin drafts send \1` sends it from a terminal\.$/,
            ),
          },
        ],
      });
    }
    expect(writes()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities']);
    const kept = draftFiles().map((n) => entryOf(n.slice(0, -'.json'.length)));
    expect(kept.map((e) => [e.made, (e.content as { input: { description: string } }).input.description]).sort()).toEqual([
      ['agent', 'First thing'],
      ['agent', 'Second thing'],
    ]);
    // An agent's words: `log --resume` without a terminal sends neither (each said), `drafts send` at a terminal sends each once the person says yes.
    const resumed = await runCli(['log', '--resume'], { env });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr.match(/was written by an agent: it needs your yes/g)).toHaveLength(2);
    expect(bodiesOf('POST').slice(2)).toEqual([]);
    for (const e of kept.sort((a, b) => (a.created_at < b.created_at ? -1 : 1))) expect((await sendAtTerminal(e.id as string, env)).exit.code).toBe(0);
    expect(bodiesOf('POST').slice(2)).toEqual([
      { description: 'First thing', group: 'checkin' },
      { description: 'Second thing', group: 'checkin' },
    ]);
    expect(draftFolder()).toEqual([]);
  });

  it("the agent's own draft, then the person's words at the terminal: drafting again adds a third entry; none is changed, nothing asked or sent", async () => {
    const s = await connect({ answer: 'decline' });
    const day = await today(s);
    const first = (await s.call('draft_checkin', agent)).structuredContent!.draft_id as string;
    const firstText = entryText(first);
    sb.inject({ method: 'PATCH', status: 422, headers: { 'content-type': 'application/json' }, body: '{"message":"Intentions is too long"}' });
    const cli = await runCli(['today', '-i', '-'], { env, input: person.intentions });
    expect(cli.code).toBe(2);
    const theirs = onlyEntry('piped');
    const theirText = entryText(theirs);
    sb.requests.length = 0;

    const again = await s.call('draft_checkin', { ...agent, blockers: '' });
    expect(again.isError).toBeFalsy();
    const second = again.structuredContent!.draft_id as string;
    expect(again.structuredContent).toMatchObject({ other_drafts: 2 });
    expect(text(again)).toContain('2 other drafts wait for the same target');
    expect(new Set([first, theirs, second]).size).toBe(3);
    expect(draftFiles()).toEqual([first, theirs, second].map((i) => `${i}.json`).sort());
    expect(entryText(first)).toBe(firstText);
    expect(entryText(theirs)).toBe(theirText);
    expect(entryOf(second)).toMatchObject({
      made: 'agent',
      target: { kind: 'check-in', key: day },
      content: { kind: 'answers', answers: { ...agent, blockers: '' } },
    });
    expect(s.asked).toEqual([]);
    expect(writes()).toEqual([]);
  });

  it("draft_comment and draft_goal_update beside the person's kept comment and update: new entries, theirs untouched; send_comment posts only the agent's", async () => {
    const s = await connect({ answer: 'accept' });
    await today(s);
    const { id, date, person } = (await s.call('get_checkin', { day: 'yesterday' })).structuredContent!.check_in as {
      id: string;
      date: string;
      person: { id: string };
    };
    const goals = (await (await fetch(`${sb.url}/goals`, { headers: { authorization: `Bearer ${sb.token}` } })).json()) as Array<{ id: string }>;
    sb.inject({ method: 'POST', ...down }, { method: 'POST', ...down });
    expect((await runCli(['comments', id, '--add', '-'], { env, input: 'PERSON TYPED THIS comment' })).code).toBe(1);
    expect((await runCli(['goal', 'update', goals[0]!.id, '--title', 'PERSON TYPED THIS update', '--body', 'theirs'], { env })).code).toBe(1);
    const theirs = draftFiles();
    expect(theirs).toHaveLength(2);
    const theirTexts = theirs.map((n) => entryText(n.replace(/\.json$/, '')));
    expect(theirTexts.map((t) => JSON.parse(t).content).sort((a, b) => String(a.kind).localeCompare(String(b.kind)))).toEqual([
      { kind: 'comment', body: 'PERSON TYPED THIS comment' },
      { kind: 'goal-update', input: { title: 'PERSON TYPED THIS update', body: 'theirs' } },
    ]);
    sb.requests.length = 0;

    const c = await s.call('draft_comment', { on: 'check-in', id, body: 'agent comment', replace: true });
    const g = await s.call('draft_goal_update', { goal_id: goals[0]!.id, title: 'agent update', replace: true });
    expect(c.structuredContent).toMatchObject({ body: 'agent comment', other_drafts: 1 });
    expect(g.structuredContent).toMatchObject({ update: { title: 'agent update' }, other_drafts: 1 });
    expect(text(c)).toContain('Another draft waits for the same target');
    expect(text(g)).toContain('Another draft waits for the same target');
    expect(s.asked).toEqual([]);
    expect(writes()).toEqual([]);
    expect(draftFiles()).toEqual([...theirs, `${c.structuredContent!.draft_id}.json`, `${g.structuredContent!.draft_id}.json`].sort());
    expect(theirs.map((n) => entryText(n.replace(/\.json$/, '')))).toEqual(theirTexts);

    const sent = await s.call('send_comment', { draft_id: c.structuredContent!.draft_id });
    expect(sent.structuredContent).toMatchObject({ sent: true, comment: { body: 'agent comment' } });
    // The question names whose check-in, which day and who sees it, and the comment's length (changed on purpose: it named the check-in's id only).
    expect(s.asked).toEqual([
      `Post this comment on your check-in for ${date} (shared with ${sharedWith(sb, person.id, date)})?\n\n${sec('The comment', 'agent comment')}`,
    ]);
    expect(writes()).toEqual([`POST /api/v2/check-ins/${id}/comments`]);
    expect(bodiesOf('POST')).toEqual([{ body: 'agent comment' }]);
    expect(draftFiles()).toEqual([...theirs, `${g.structuredContent!.draft_id}.json`].sort());
    expect(theirs.map((n) => entryText(n.replace(/\.json$/, '')))).toEqual(theirTexts);
  });
});

describe('checkin mcp: one draft is sent at most once (issue 29, case 7)', () => {
  /** Yesterday's check-in and a comment drafted on it. */
  async function drafted(s: Session): Promise<{ on: string; date: string; id: string; teams: string }> {
    const {
      id: on,
      date,
      person,
    } = (await s.call('get_checkin', { day: 'yesterday' })).structuredContent!.check_in as {
      id: string;
      date: string;
      person: { id: string };
    };
    const id = (await s.call('draft_comment', { on: 'check-in', id: on, body: 'Once only' })).structuredContent!.draft_id as string;
    sb.requests.length = 0;
    return { on, date, id, teams: sharedWith(sb, person.id, date) };
  }
  const beingSent = (id: string, pid: number) =>
    new RegExp(
      `^error: The draft ${id} is being written or sent by another checkin \\(process ${pid}, since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\); it was not sent again$`,
    );
  const gone = (id: string) =>
    `error: There is no draft ${id} (already sent or dropped, or never kept)\nThe draft resources (checkin://drafts/{id}, listed by resources/list) are what waits.`;

  it('three parallel send_comment calls, each accepted: the draft is claimed before the person is asked, so one is asked, one POST; the others are refused at once', async () => {
    // The person's yes waits until the two other calls have come back: they must not wait on it.
    let othersBack!: () => void;
    const back = new Promise<void>((resolve) => (othersBack = resolve));
    const s = await connect({ answer: async () => (await bounded(back), 'accept') });
    const { on, date, id, teams } = await drafted(s);
    let returned = 0;
    const calls = [0, 1, 2].map((i) =>
      s.call('send_comment', { draft_id: id }).then((r) => {
        if (++returned === 2) othersBack();
        return { i, r };
      }),
    );
    const results = await Promise.all(calls);
    const ok = results.filter(({ r }) => !r.isError);
    const refused = results.filter(({ r }) => r.isError);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.r.structuredContent).toMatchObject({ sent: true, draft_id: id, draft_kept: false, comment: { body: 'Once only' } });
    expect(refused).toHaveLength(2);
    for (const { r } of refused) expect(text(r)).toMatch(beingSent(id, s.pid));
    expect(s.asked).toEqual([`Post this comment on your check-in for ${date} (shared with ${teams})?\n\n${sec('The comment', 'Once only')}`]);
    expect(writes()).toEqual([`POST /api/v2/check-ins/${on}/comments`]);
    expect(bodiesOf('POST')).toEqual([{ body: 'Once only' }]);
    // Sent: the entry and its claim are gone, and a later send finds nothing.
    expect(draftFolder()).toEqual([]);
    const later = await s.call('send_comment', { draft_id: id });
    expect(later).toMatchObject({ isError: true, content: [{ type: 'text', text: gone(id) }] });
    expect(writes()).toEqual([`POST /api/v2/check-ins/${on}/comments`]);
  });

  it('another session sending the same draft while the person is being asked is refused, naming the process that holds it', async () => {
    let otherBack!: () => void;
    const back = new Promise<void>((resolve) => (otherBack = resolve));
    let askedA!: () => void;
    const aAsked = new Promise<void>((resolve) => (askedA = resolve));
    const a = await connect({
      answer: async () => {
        askedA();
        await bounded(back);
        return 'accept';
      },
    });
    const { on, id } = await drafted(a);
    const b = await connect({ answer: 'accept' });
    const first = a.call('send_comment', { draft_id: id });
    // B sends once A holds the claim: A's question has reached the person.
    await bounded(aAsked);
    const second = await b.call('send_comment', { draft_id: id });
    otherBack();
    expect(second.isError).toBe(true);
    expect(text(second)).toMatch(beingSent(id, a.pid));
    expect(b.asked).toEqual([]);
    expect((await first).structuredContent).toMatchObject({ sent: true, draft_id: id });
    expect(writes()).toEqual([`POST /api/v2/check-ins/${on}/comments`]);
    expect(draftFolder()).toEqual([]);
  });

  it('with --allow-send (nobody asked), two parallel calls: one POST; the other is refused (being sent, or already gone)', async () => {
    const s = await connect({ args: ['--allow-send'] });
    const { on, id } = await drafted(s);
    const results = await Promise.all([s.call('send_comment', { draft_id: id }), s.call('send_comment', { draft_id: id })]);
    expect(results.filter((r) => !r.isError).map((r) => r.structuredContent)).toEqual([
      expect.objectContaining({ sent: true, draft_id: id, comment: expect.objectContaining({ body: 'Once only' }) }),
    ]);
    const refused = results.filter((r) => r.isError).map(text);
    expect(refused).toHaveLength(1);
    if (refused[0] !== gone(id)) expect(refused[0]).toMatch(beingSent(id, s.pid));
    expect(writes()).toEqual([`POST /api/v2/check-ins/${on}/comments`]);
    expect(bodiesOf('POST')).toEqual([{ body: 'Once only' }]);
    expect(draftFolder()).toEqual([]);
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
    const sent = await s.call('send_checkin', { draft_id: d.structuredContent!.draft_id });
    expect(sent.isError).toBeFalsy();
    expect(s.asked).toEqual([
      `Send your check-in for today (${day})?\n\nShared with: Mobile\n\n${sec('Intentions', 'x')}\n\nShared with (team ids): ${mobile.id}`,
    ]);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(sb.requests.find((r) => r.method === 'PATCH')!.body).toEqual({ intentions: 'x', team_ids: [mobile.id] });
  });
});
