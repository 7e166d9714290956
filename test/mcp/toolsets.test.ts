// `checkin mcp --tools` / `--toolsets` (and CHECKIN_MCP_TOOLS / CHECKIN_MCP_TOOLSETS, the flag winning):
// which tools tools/list gives each choice, through the official 2025 and 2026 clients; a name that
// is neither a tool nor a set stops the start (exit 2) naming the ones there are; --print-config
// carries the choice; and the context an agent pays for each choice, in bytes of tools/list, held
// to its budget.
import { describe, expect, it } from 'vitest';
import { kindOf, TOOL_NAMES, type ToolName } from '../../src/mcp/toolsets.js';
import { runCli } from '../helpers/cli.js';
import { type McpSession, useMcpSandbox } from '../helpers/mcp.js';

let env: NodeJS.ProcessEnv;
const { connect } = useMcpSandbox((_, e) => {
  env = e;
});

interface Listed {
  tools: Array<{ name: string }>;
}
const list = async (s: McpSession): Promise<Listed> => (s.client as unknown as { listTools: () => Promise<Listed> }).listTools();
const names = (l: Listed) => l.tools.map((t) => t.name);
/** The bytes of a tools/list result as it travels (its JSON). */
const bytes = (l: Listed) => Buffer.byteLength(JSON.stringify(l));

/** The team set as tools/list gives it (the list's order). */
const TEAM_LISTED = ['team_day', 'list_checkins', 'feed', 'blockers', 'me'];
const DEFAULT = [
  'get_checkin',
  'suggest_previous',
  'team_day',
  'list_checkins',
  'feed',
  'drafts',
  'blockers',
  'me',
  'draft_checkin',
  'send_checkin',
  'log_activity',
];

describe('checkin mcp: tool sets', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`${revision}: the default serves the daily flow; a set with tools by name, --read-only, a tool left out`, async () => {
      const unset = { ...env, CHECKIN_MCP_TOOLSETS: '' };
      expect(names(await list(await connect({ revision, env: unset })))).toEqual(DEFAULT);
      // Tools by name, beside a set.
      expect(names(await list(await connect({ revision, env: unset, args: ['--toolsets', 'team', '--tools', 'goal, drafts'] })))).toEqual([
        'team_day',
        'list_checkins',
        'goal',
        'feed',
        'drafts',
        'blockers',
        'me',
      ]);
      // --read-only combines: the chosen tools that only read.
      expect(names(await list(await connect({ revision, env: unset, args: ['--toolsets', 'checkin', '--read-only'] })))).toEqual([
        'get_checkin',
        'suggest_previous',
      ]);
      // A tool left out is not there to call.
      const s = await connect({ revision, env: unset, args: ['--tools', 'me'] });
      const r = await s.call('goals').catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toContain('goals');
    });
  }

  // Which tools a choice names is the command's (commands/mcp runMcp, before either revision is
  // spoken; the server is handed the names): the other choices through one client.
  it('--toolsets and --tools choose, or the environment when no flag is given; the flag wins', async () => {
    const revision = '2025-11-25';
    const unset = { ...env, CHECKIN_MCP_TOOLSETS: '' };
    expect(names(await list(await connect({ revision, env: unset, args: ['--toolsets', 'checkin'] })))).toEqual([
      'get_checkin',
      'suggest_previous',
      'draft_checkin',
      'send_checkin',
      'log_activity',
    ]);
    expect(names(await list(await connect({ revision, env: unset, args: ['--toolsets', 'goals,comments'] })))).toEqual([
      'inbox',
      'goal',
      'goals',
      'draft_comment',
      'send_comment',
      'draft_goal_update',
      'send_goal_update',
    ]);
    // The environment's choice is the flag's when no flag is given.
    expect(names(await list(await connect({ revision, env: { ...unset, CHECKIN_MCP_TOOLS: 'me,inbox' } })))).toEqual(['inbox', 'me']);
    const both = { ...unset, CHECKIN_MCP_TOOLSETS: 'goals', CHECKIN_MCP_TOOLS: 'me' };
    expect(names(await list(await connect({ revision, env: both, args: ['--toolsets', 'team'] })))).toEqual(TEAM_LISTED);
  });

  // The instructions come from the tools served (identity.ts), in the first answer (first.ts) and the server alike.
  it('the instructions name only the tools listed: the default, checkin, all, --read-only, a --tools pick', async () => {
    const unset = { ...env, CHECKIN_MCP_TOOLSETS: '' };
    const isTool = (n: string): n is ToolName => (TOOL_NAMES as string[]).includes(n);
    for (const args of [[], ['--toolsets', 'checkin'], ['--toolsets', 'all'], ['--read-only'], ['--tools', 'me,draft_comment']]) {
      const s = await connect({ revision: '2025-11-25', env: unset, args });
      const listed = names(await list(s));
      const said = s.client.getInstructions() ?? '';
      // A tool is named as snake_case, in backticks or in the list of those that read (some names are English words too).
      const reading = /Read freely \(([^)]*)\)/.exec(said)?.[1]?.split(', ') ?? [];
      const named = [...said.matchAll(/\b[a-z]+(?:_[a-z]+)+\b|`([a-z_]+)`/g)]
        .map((m) => m[1] ?? m[0])
        .concat(reading)
        .filter(isTool);
      expect(
        named.filter((n) => !listed.includes(n)),
        args.join(' '),
      ).toEqual([]);
      expect(reading, args.join(' ')).toEqual(listed.filter((n) => isTool(n) && kindOf(n) === 'reads'));
      // Writing is said only where a tool that writes is listed; the check-in's guidance with draft_checkin.
      expect(said.includes('Never send'), args.join(' ')).toBe(listed.some((n) => isTool(n) && kindOf(n) === 'sends'));
      expect(said.includes('Writing guidance'), args.join(' ')).toBe(listed.includes('draft_checkin'));
      expect(s.stderr()).not.toContain('the first answer');
    }
  });

  it('a name that is neither a tool nor a set stops the start: exit 2, what was wrong and the names there are, nothing served', async () => {
    const r = await runCli(['mcp', '--toolsets', 'checkin,gaols', '--tools', 'me,send_everything'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: checkin mcp: no tool named "send_everything"; no tool set named "gaols"\n' +
        'The tool sets: checkin, team, goals, comments, drafts, all.\n' +
        'The tools: get_checkin, suggest_previous, team_day, list_checkins, inbox, goal, goals, feed, drafts, blockers, me, draft_checkin, send_checkin, draft_comment, send_comment, draft_goal_update, send_goal_update, log_activity.\n',
    );
    const fromEnv = await runCli(['mcp'], { env: { ...env, CHECKIN_MCP_TOOLSETS: 'everything' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('no tool set named "everything"');
    expect((await runCli(['mcp', '--print-config', 'claude', '--tools', 'nope'], { env })).code).toBe(2);
  });

  it('--print-config carries the choice into the command the agent runs', async () => {
    const r = await runCli(['mcp', '--print-config', 'claude', '--read-only', '--toolsets', 'checkin,team', '--tools', 'goal'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('claude mcp add checkin -- checkin mcp --read-only --tools goal --toolsets checkin,team\n');
    const codex = await runCli(['mcp', '--print-config', 'codex'], { env: { ...env, CHECKIN_MCP_TOOLSETS: 'goals' } });
    expect(codex.stdout).toContain('args = ["mcp", "--toolsets", "goals"]');
    // The profile named by --profile or CHECKIN_PROFILE is the agent's too (a folder's .checkin.json is read where it starts);
    // one config.json holds (an unknown name is refused, exit 2).
    expect((await runCli(['--profile', 'work', 'mcp', '--print-config', 'claude'], { env })).code).toBe(2);
    for (const name of ['work', 'ci']) expect((await runCli(['--profile', name, 'config', 'set', 'team', 'Platform'], { env })).code).toBe(0);
    expect((await runCli(['--profile', 'work', 'mcp', '--print-config', 'claude'], { env })).stdout).toBe(
      'claude mcp add checkin -- checkin mcp --profile work\n',
    );
    expect((await runCli(['mcp', '--print-config', 'codex'], { env: { ...env, CHECKIN_PROFILE: 'ci' } })).stdout).toContain(
      'args = ["mcp", "--profile", "ci"]',
    );
  });

  it('the context an agent pays, in bytes of tools/list: the default ≤ 25,000, `checkin` ≤ 10,000, everything ≤ 35,000, read-only less', async () => {
    const unset = { ...env, CHECKIN_MCP_TOOLSETS: '' };
    const measured: Record<string, number> = {};
    for (const [label, args, budget] of [
      ['default', [], 25_000],
      ['checkin', ['--toolsets', 'checkin'], 10_000],
      ['all', ['--toolsets', 'all'], 35_000],
      ['read-only', ['--read-only'], 25_000],
    ] as const) {
      const l = await list(await connect({ env: unset, args: [...args] }));
      measured[label] = bytes(l);
      expect(measured[label], `${label}: ${measured[label]} bytes`).toBeLessThanOrEqual(budget);
    }
    expect(measured['read-only']).toBeLessThan(measured.default!);
    expect(measured.checkin).toBeLessThan(measured.default!);
    expect(measured.default).toBeLessThan(measured.all!);
  });
});
