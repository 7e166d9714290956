// One description per output shape, for both faces (issue 40), as an agent's client meets it: the
// official client lists the tools, then calls each one (that is when it checks a result against the
// declared schema) against the sandbox with data that fills every field a result may leave out —
// teammates blocked for days, goals with updates, comments and reactions on my check-ins, the
// person's kept draft beside the agent's, a send declined. What tools/list declares is, field by
// field and word by word, the description in core/shapes.ts / api/types.ts (mcp/results.ts puts
// them together); and the CLI's --json prints the same objects from the same descriptions.
import { describe, expect, it } from 'vitest';
import { ACTIVITY, CHECK_IN, COMMENT, GOAL, GOAL_UPDATE } from '../../src/api/types.js';
import { fieldsOf, type Shape } from '../../src/api/validate.js';
import { DRAFT, INBOX_THREAD, ME_RECORD, TEAM_DAY } from '../../src/core/shapes.js';
import { LONG_WORDS } from '../../src/mcp/kit.js';
import { AGENT_DRAFT } from '../../src/mcp/results.js';
import { RESULTS } from '../../src/mcp/tools/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { schemaErrors, text, type McpSession, type ToolResult, useMcpSandbox } from '../helpers/mcp.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});

type Json = Record<string, unknown>;
interface ListedTool {
  name: string;
  outputSchema?: Json;
}

/** Where the JSON Schema tools/list declared differs from the one description it was made from (nothing: it is that description). */
function differences(s: Shape<unknown>, declared: Json | undefined, path: string, defs: Record<string, Json> = {}): string[] {
  if (!declared) return [`${path}: not declared`];
  // A part written once under the root's $defs and referred to (mcp/kit.ts slim) is read where it is.
  const ref = typeof declared.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(declared.$ref)?.[1] : undefined;
  const schema = ref !== undefined ? defs[ref] : declared;
  if (!schema) return [`${path}: refers to ${String(declared.$ref)}, which is not defined`];
  let d = s.def;
  while (d.kind === 'optional') d = d.of.def;
  const out: string[] = [];
  // Words longer than LONG_WORDS are left out of the listing (the budget); the others are the description's own.
  const words = d.description !== undefined && d.description.length <= LONG_WORDS ? d.description : undefined;
  if (schema.description !== words) out.push(`${path}: described ${JSON.stringify(schema.description)}, not ${JSON.stringify(words)}`);
  const type = (t: string) => (schema.type === t ? [] : [`${path}: ${JSON.stringify(schema.type)}, not ${t}`]);
  switch (d.kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return [...out, ...type(d.kind)];
    case 'enum':
      return [...out, ...(JSON.stringify(schema.enum) === JSON.stringify(d.values) ? [] : [`${path}: enum ${JSON.stringify(schema.enum)}`])];
    case 'nullable': {
      const any = (schema.anyOf ?? []) as Json[];
      if (any.length !== 2 || any[1]?.type !== 'null') return [...out, `${path}: not "or null"`];
      return [...out, ...differences(d.of, any[0], path, defs)];
    }
    case 'array':
      return [...out, ...type('array'), ...differences(d.of, schema.items as Json, `${path}[]`, defs)];
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const fields = Object.entries(d.fields).filter(([, f]) => f.def.kind !== 'unknown');
      const named = fields.map(([k]) => k);
      if (JSON.stringify(Object.keys(props)) !== JSON.stringify(named)) out.push(`${path}: fields ${Object.keys(props).join(',')}, not ${named.join(',')}`);
      const required = fields.filter(([, f]) => f.def.kind !== 'optional').map(([k]) => k);
      if (JSON.stringify(schema.required ?? []) !== JSON.stringify(required))
        out.push(`${path}: required ${JSON.stringify(schema.required)}, not ${JSON.stringify(required)}`);
      return [...out, ...type('object'), ...fields.flatMap(([k, f]) => differences(f, props[k], `${path}.${k}`, defs))];
    }
    default:
      return out;
  }
}

/** Every path a result filled (arrays as []), to show that the data left no optional field out. */
function filled(value: unknown, path: string, into: Set<string>): void {
  into.add(path);
  if (Array.isArray(value)) for (const v of value) filled(v, `${path}[]`, into);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (v !== null) filled(v, `${path}.${k}`, into);
}

/** Every optional field (or "or null") a result's description has, by path; the service's own objects are not walked (their fields are theirs). */
function optionalPaths(s: Shape<unknown>, path: string, into: string[], top = true): void {
  const d = s.def;
  if (d.kind === 'optional' || d.kind === 'nullable') {
    into.push(path);
    return optionalPaths(d.of, path, into, false);
  }
  if (d.kind === 'array') return optionalPaths(d.of, `${path}[]`, into, false);
  if (d.kind !== 'object' || (!top && SERVICE_FIELDS.has(d.fields))) return;
  for (const [k, f] of Object.entries(d.fields)) if (f.def.kind !== 'unknown') optionalPaths(f, `${path}.${k}`, into, false);
}
const SERVICE_FIELDS = new Set<object>([CHECK_IN, COMMENT, GOAL, GOAL_UPDATE, ACTIVITY].map((x) => (x.def.kind === 'object' ? x.def.fields : {})));

/** Teammates blocked with the same blocker for the last `days` days. */
function blockTeammates(days: number): void {
  const data = sb.service.data;
  const dates = [...new Set(data.check_ins.map((c) => c.date))].sort().slice(-days);
  const me = data.people.find((p) => p.username === 'ada')!.id;
  for (const c of data.check_ins) if (dates.includes(c.date) && c.person_id !== me) c.blockers = 'Waiting on the staging database';
}

async function listed(s: McpSession): Promise<ListedTool[]> {
  return (await (s.client as unknown as { listTools: () => Promise<{ tools: ListedTool[] }> }).listTools()).tools;
}

describe('one description per output shape, through the official client', () => {
  it("tools/list declares, for every tool, its result as mcp/results.ts puts it together: each field, type, 'or null', optional and description", async () => {
    const s = await connect();
    const tools = await listed(s);
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(RESULTS).sort());
    for (const tool of tools)
      expect(differences(RESULTS[tool.name]!, tool.outputSchema, tool.name, (tool.outputSchema?.$defs ?? {}) as Record<string, Json>), tool.name).toEqual([]);
  });

  for (const revision of ['2025-11-25', '2026-07-28'] as const)
    it(`${revision}: every tool, listed then called, on data that fills every optional field: each result validates (the client checks, and so does this test)`, async () => {
      blockTeammates(4);
      // A look at the inbox in the terminal first: what was seen before (seen_before).
      expect((await runCli(['inbox'], { env })).code).toBe(0);
      // The person's own kept draft (a comment whose POST failed) beside the agent's.
      const s = await connect({ answer: 'accept', revision });
      const tools = await listed(s);
      const yesterday = ((await s.call('get_checkin', { day: 'yesterday' })).structuredContent!.check_in as { id: string }).id;
      sb.inject({ method: 'POST', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' });
      expect((await runCli(['comments', yesterday, '--add', 'Kept by the person'], { env })).code).toBe(1);
      const goalId = ((await s.call('goals')).structuredContent!.goals as Array<{ id: string }>)[0]!.id;
      const calls: Array<[string, Json]> = [
        ['get_checkin', {}],
        ['get_checkin', { day: 'yesterday' }],
        ['suggest_previous', {}],
        ['team_day', {}],
        ['list_checkins', { blocked: true }],
        ['inbox', { all: true }],
        ['goal', { goal_id: goalId, updates: 5 }],
        ['goals', {}],
        ['feed', { since: '2000-01-01' }],
        ['blockers', {}],
        ['me', {}],
        [
          'draft_checkin',
          { previous: '- Shipped', intentions: '- Review @grace', blockers: 'none', mood: 'focused', previous_completed: true, team: ['Platform'] },
        ],
        ['draft_comment', { on: 'check-in', id: yesterday, body: 'Agent comment' }],
        ['draft_goal_update', { goal_id: goalId, title: 'On track', body: 'Done', progress: 50, confidence: 'at-risk' }],
        ['drafts', {}],
        ['log_activity', { description: 'Merged the index', url: 'https://example.com/pr/1' }],
      ];
      const results: Array<[string, ToolResult]> = [];
      for (const [name, args] of calls) results.push([name, await s.call(name, args)]);
      // The inbox once more, from a service without a digest (the walk: each thread's date or title, and the reactions).
      sb.inject({ method: 'GET', path: '/digest', status: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"not here"}' });
      results.push(['inbox', await s.call('inbox', { all: true })]);
      const drafted = (name: string) => results.find(([n]) => n === name)![1].structuredContent!.draft_id as string;
      results.push(['send_checkin', await s.call('send_checkin', { draft_id: drafted('draft_checkin') })]);
      results.push(['send_comment', await s.call('send_comment', { draft_id: drafted('draft_comment') })]);
      results.push(['send_goal_update', await s.call('send_goal_update', { draft_id: drafted('draft_goal_update') })]);
      // Declined: the sends' and log_activity's reason.
      const no = await connect({ answer: 'decline', revision });
      await listed(no);
      const declined = async (draft: string, args: Json, send: string) => {
        const id = (await no.call(draft, args)).structuredContent!.draft_id as string;
        results.push([send, await no.call(send, { draft_id: id })]);
      };
      await declined('draft_checkin', { intentions: '- Another' }, 'send_checkin');
      await declined('draft_comment', { on: 'check-in', id: yesterday, body: 'Another' }, 'send_comment');
      await declined('draft_goal_update', { goal_id: goalId, title: 'Another' }, 'send_goal_update');
      results.push(['log_activity', await no.call('log_activity', { description: 'Not this one' })]);

      const seen = new Map<string, Set<string>>();
      for (const [name, r] of results) {
        expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
        const schema = tools.find((t) => t.name === name)!.outputSchema!;
        expect(schemaErrors(schema, r.structuredContent), name).toEqual([]);
        filled(r.structuredContent, name, seen.get(name) ?? seen.set(name, new Set()).get(name)!);
      }
      expect(new Set(results.map(([n]) => n))).toEqual(new Set(Object.keys(RESULTS)));
      // Every optional field and every "or null" of every result was there at least once (the CLI's numbering, n, is not the agent's).
      const missing = Object.entries(RESULTS).flatMap(([name, shape]) => {
        const paths: string[] = [];
        optionalPaths(shape, name, paths);
        return [...new Set(paths)].filter((p) => !seen.get(name)?.has(p));
      });
      expect(missing).toEqual(['inbox.threads[].items[].n']);
    });
});

describe('both faces print the same objects, from the same descriptions', () => {
  it('me, a check-in, a list, the inbox, the drafts, the goals, a goal’s updates and the team: `--json` and the tool agree', async () => {
    blockTeammates(3);
    const s = await connect();
    const cli = async (...args: string[]) => {
      const r = await runCli([...args, '--json'], { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout) as unknown;
    };
    const agent = async (name: string, args: Json = {}) => (await s.call(name, args)).structuredContent!;

    const me = (await cli('me')) as Json;
    expect(Object.keys(me)).toEqual(fieldsOf(ME_RECORD));
    expect((await agent('me')).me).toEqual(me);

    const threads = (await agent('inbox', { all: true })).threads as Json[];
    const printed = (await cli('inbox', '--all')) as { threads: Json[] };
    expect(threads.length).toBeGreaterThan(0);
    expect(printed.threads.map((t) => ({ ...t, items: (t.items as Json[]).map(({ n: _n, ...i }) => i) }))).toEqual(threads);
    for (const [i, t] of printed.threads.entries()) expect(INBOX_THREAD(t, `threads[${i}]`)).toBeUndefined();

    sb.inject({ method: 'PATCH', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' });
    expect((await runCli(['today', '-p', 'Shipped the index'], { env })).code).toBe(1);
    await agent('draft_comment', { on: 'check-in', id: 'yesterday', body: 'Agent comment' });
    const rows = (await cli('drafts')) as Json[];
    expect(rows).toHaveLength(2);
    for (const [i, row] of rows.entries()) expect(DRAFT(row, `[${i}]`)).toBeUndefined();
    const picked = fieldsOf(AGENT_DRAFT);
    const listedDrafts = ((await agent('drafts')).drafts as Json[]).map(({ send_tool: _t, ...d }) => d);
    expect(listedDrafts).toEqual(rows.map((r) => Object.fromEntries(picked.map((k) => [k, r[k]]))));

    const goals = (await cli('goals')) as Json[];
    expect((await agent('goals')).goals).toEqual(goals);
    // A goal with updates: the agent's latest ones are the newest of `goal update list`'s.
    const updates = await Promise.all(goals.map(async (g) => [g.id as string, (await cli('goal', 'update', 'list', g.id as string)) as Json[]] as const));
    const [goalId, all] = updates.find(([, list]) => list.length >= 2)!;
    expect((await agent('goal', { goal_id: goalId, updates: 20 })).updates).toEqual(all);
    expect((await agent('list_checkins', { blocked: true })).check_ins).toEqual(await cli('list', '--blocked'));
    expect((await agent('get_checkin', { day: 'yesterday' })).check_in).toEqual(await cli('checkin', 'yesterday'));
    const team = (await cli('team')) as unknown[];
    for (const [i, day] of team.entries()) expect(TEAM_DAY(day, `[${i}]`)).toBeUndefined();
    expect((await agent('team_day')).teams).toEqual(team);
  });
});
