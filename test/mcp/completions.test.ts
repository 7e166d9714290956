// `checkin mcp`: completion/complete, from what checkin has cached or keeps on disk — never a
// request: day words (the write_checkin prompt's day), team names (checkin://teams/{team}), goal ids
// in their short forms, by the id's start or the title (checkin://goals/{goal_id}), and draft ids
// (checkin://drafts/{draft_id}); for the 2025 client and the 2026 one alike. What is completed reads.
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { type McpSession, useMcpSandbox } from '../helpers/mcp.js';

let sb: Sandbox;
const { connect } = useMcpSandbox((s) => {
  sb = s;
});

for (const revision of ['2025-11-25', '2026-07-28'] as const) {
  describe(`checkin mcp ${revision}: completions`, () => {
    it('day words, team names, goal ids (short, by start or title), draft ids: from the cache and the outbox, no request; each completed value reads', async () => {
      const s: McpSession = await connect({ revision });
      const client = s.client as unknown as ModernClient;
      const values = async (ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, name: string, value: string) =>
        (await client.complete({ ref, argument: { name, value } })).completion.values;
      // What the cache holds after an ordinary session: me (and its teams), the goals listed.
      const me = (await s.call('me')).structuredContent!.me as { teams: Array<{ name: string }> };
      const goals = (await s.call('goals')).structuredContent!.goals as Array<{ id: string; title: string }>;
      const draft = (await s.call('draft_checkin', { previous: '- Shipped it' })).structuredContent!.draft_id as string;
      sb.requests.length = 0;

      expect(await values({ type: 'ref/prompt', name: 'write_checkin' }, 'day', 'ye')).toEqual(['yesterday']);
      expect(await values({ type: 'ref/prompt', name: 'write_checkin' }, 'day', 'T')).toEqual([
        'today',
        'tomorrow',
        'tuesday',
        'thursday',
        'yesterday',
        'saturday',
      ]);
      const team = me.teams[0]!.name;
      expect(await values({ type: 'ref/resource', uri: 'checkin://teams/{team}' }, 'team', team.slice(0, 2))).toContain(team);
      const goal = goals[0]!;
      const short = goal.id.slice(0, 8);
      expect(await values({ type: 'ref/resource', uri: 'checkin://goals/{goal_id}' }, 'goal_id', goal.id.slice(0, 3))).toContain(short);
      const word = goal.title
        .split(' ')
        .find((w) => w.length > 4)!
        .toLowerCase();
      expect(await values({ type: 'ref/resource', uri: 'checkin://goals/{goal_id}' }, 'goal_id', word)).toContain(short);
      expect(await values({ type: 'ref/resource', uri: 'checkin://drafts/{draft_id}' }, 'draft_id', draft.slice(0, 3))).toEqual([draft]);
      expect(sb.requests).toEqual([]);

      expect(await s.read(`checkin://teams/${encodeURIComponent(team)}`)).toContain(`--- text by "${team}"`);
      expect(await s.read(`checkin://goals/${short}`)).toContain(goal.title);
      expect(await s.read(`checkin://drafts/${draft}`)).toContain('- Shipped it');
    });
  });
}
