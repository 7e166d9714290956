// An agent's draft sent later at the person's terminal while `checkin mcp` still runs: the server,
// long-lived, holds none of what it drafted (nor what failed to send), so `checkin drafts send <id>`
// asks the person and sends; never "busy".
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { text, useMcpSandbox } from '../helpers/mcp.js';
import { outboxRows } from '../helpers/outbox.js';
import { sendAtTerminal } from '../helpers/terminal.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect, writes } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});
const DOWN = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' };

describe("an agent's draft at the terminal while the server runs", () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`${revision}: drafted, then sent at the terminal`, async () => {
      const s = await connect({ revision });
      const d = await s.call('draft_checkin', { intentions: '- Review the webhook PR' });
      expect(d.isError, text(d)).toBeFalsy();
      const id = d.structuredContent!.draft_id as string;
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((r) => [r.id, r.state])).toEqual([[id, 'kept']]);
      const { exit, screen } = await sendAtTerminal(id, env);
      expect(exit.code, screen).toBe(0);
      expect(writes().filter((w) => w.startsWith('PATCH'))).toHaveLength(1);
    });
  }

  it('2025-11-25: a send_checkin the service refused (500), then sent at the terminal', async () => {
    const s = await connect({ answer: 'accept' });
    const d = await s.call('draft_checkin', { intentions: '- Review the webhook PR' });
    const id = d.structuredContent!.draft_id as string;
    sb.inject({ method: 'PATCH', ...DOWN });
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r.isError, text(r)).toBe(true);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((x) => [x.id, x.state])).toEqual([[id, 'kept']]);
    const { exit, screen } = await sendAtTerminal(id, env);
    expect(exit.code, screen).toBe(0);
  });

  it('2025-11-25: log_activity the service refused (500), then sent at the terminal', async () => {
    const s = await connect({ answer: 'accept' });
    sb.inject({ method: 'POST', ...DOWN });
    const r = await s.call('log_activity', { description: 'Fixed the build' });
    expect(r.isError, text(r)).toBe(true);
    const id = /The draft (\w+) is kept/.exec(text(r))?.[1] as string;
    expect(id, text(r)).toBeTruthy();
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((x) => [x.id, x.state])).toEqual([[id, 'kept']]);
    const { exit, screen } = await sendAtTerminal(id, env);
    expect(exit.code, screen).toBe(0);
  });
});
