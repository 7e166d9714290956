// The yes shows every field that will be sent (issue 48, case 4): an agent's activity with a link and
// a label, and its goal update with progress and confidence, asked through the agent face (the SDK's
// client) and at the person's terminal (`checkin drafts send <id>` in a pseudo-terminal). Both show
// each field, in the same words (ui/as-sent.ts shownToSend, read by both faces); what the service was
// sent is read from its request log.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { text, useMcpSandbox } from '../helpers/mcp.js';
import { outboxRows } from '../helpers/outbox.js';
import { sendAtTerminal } from '../helpers/terminal.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect, writes, bodiesOf } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});
const DOWN = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' };

/** What the agent's question shows of the fields: all of it after its first paragraph (whose, and where). */
const agentFields = (question: string) => question.slice(question.indexOf('\n\n') + 2);
/** What the terminal's question shows of the fields: between "It sends:" and the question itself. */
function terminalFields(screen: string): string {
  // The question's mark is "?" while it is asked and "✔" once answered.
  const m = /It sends:\n\n([^]*?)\n\n\S+ Send the draft/.exec(screen);
  expect(m, screen).toBeTruthy();
  return m![1]!;
}

describe('the yes shows every field that will be sent, the same in both faces', () => {
  it("an agent's activity with a link and a label: asked by the agent face, then sent at the terminal", async () => {
    const s = await connect({ answer: 'accept' });
    // The service is down for the agent's send: the activity stays kept, for the terminal to send.
    sb.inject({ method: 'POST', ...DOWN });
    const r = await s.call('log_activity', { description: 'Reviewed the invoices PR', url: 'https://evil.example/x', group: 'GitHub PR' });
    expect(r.isError, text(r)).toBe(true);
    const id = /The draft (\w+) is kept/.exec(text(r))?.[1] as string;
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((x) => [x.id, x.state])).toEqual([[id, 'kept']]);
    const fields = 'The activity (24 characters):\nReviewed the invoices PR\n\nLink: https://evil.example/x\n\nLabel: GitHub PR';
    expect(agentFields(s.asked[0]!)).toBe(fields);
    sb.requests.length = 0;
    const { exit, screen } = await sendAtTerminal(id, env);
    expect(exit.code, screen).toBe(0);
    expect(terminalFields(screen)).toBe(fields);
    expect(writes()).toEqual(['POST /api/v2/activities']);
    expect(bodiesOf('POST')).toEqual([{ description: 'Reviewed the invoices PR', url: 'https://evil.example/x', group: 'GitHub PR' }]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toEqual([]);
  });

  it("an agent's goal update with progress and confidence: declined in the agent face, then sent at the terminal", async () => {
    const s = await connect({ answer: 'decline' });
    const goal = sb.service.data.goals[0]!;
    const d = await s.call('draft_goal_update', { goal_id: goal.id, title: 'Invoices shipped', body: '- endpoint live', progress: 70, confidence: 'at-risk' });
    expect(d.isError, text(d)).toBeFalsy();
    const id = d.structuredContent!.draft_id as string;
    const no = await s.call('send_goal_update', { draft_id: id });
    expect(no.structuredContent).toMatchObject({ sent: false, reason: 'declined', draft_kept: true });
    const fields = 'Title (16 characters):\nInvoices shipped\n\nBody (15 characters):\n- endpoint live\n\nProgress: 70%\n\nConfidence: At risk (60)';
    expect(agentFields(s.asked[0]!)).toBe(fields);
    sb.requests.length = 0;
    const { exit, screen } = await sendAtTerminal(id, env);
    expect(exit.code, screen).toBe(0);
    expect(terminalFields(screen)).toBe(fields);
    expect(writes()).toEqual([`POST /api/v2/goals/${goal.id}/goal-updates`]);
    expect(bodiesOf('POST')).toEqual([{ title: 'Invoices shipped', body: '- endpoint live', progress: 70, confidence: 60 }]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toEqual([]);
  });
});
