// The agent face's draft preview carries the same writing hints as the CLI's form (domain/writing-hints.ts),
// through the SDK's own client over stdio against the sandbox; "none" as blockers is previewed and sent as none.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { text, useMcpSandbox } from '../helpers/mcp.js';

let sb: Sandbox;
const { connect } = useMcpSandbox((s) => {
  sb = s;
});

describe('checkin mcp: writing hints in the draft preview', () => {
  it('an @mention of nobody on my teams, "none" as blockers and empty intentions: hints beside the preview; nothing is sent', async () => {
    const s = await connect();
    sb.requests.length = 0;
    const r = await s.call('draft_checkin', { previous: 'Paired with @grace and @margret', intentions: '', blockers: 'None' });
    expect(r.isError, text(r)).toBeFalsy();
    expect(r.structuredContent!.hints).toEqual([
      'Blockers "None" are sent as no blockers: the check-in is not marked blocked.',
      'Intentions are empty: your team sees no plan for the day, and your next check-in has nothing to start "previous" from.',
      '@margret matches nobody on your teams: did you mean @margaret?',
    ]);
    expect(text(r)).toContain(
      '\n\nHints for the person (they do not stop sending):\n- Blockers "None" are sent as no blockers: the check-in is not marked blocked.\n',
    );
    // The preview is the check-in as sent: no blockers in it.
    expect(r.structuredContent!.preview).not.toContain('None');
    expect(sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('no @mention, intentions given, real blockers: no hints, and no request for who is on my teams', async () => {
    const s = await connect();
    await s.call('me');
    sb.requests.length = 0;
    const r = await s.call('draft_checkin', { intentions: '- Ship it', blockers: 'Waiting on the staging database' });
    expect(r.structuredContent!.hints).toEqual([]);
    expect(sb.requests.map((q) => q.path).filter((p) => p.endsWith('/people') || p.endsWith('/teams'))).toEqual([]);
  });
});
