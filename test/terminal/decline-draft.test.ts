// An agent's draft at the person's terminal (`checkin drafts send <id>`, typed in a pseudo-terminal):
// shown whole and asked. "No" is a person's answer at a prompt, not an error: one plain line says
// what was kept and how to go on, exit 130 as the manual's exit codes give for "No" at a prompt
// (PRODUCT.md: 130 cancelled at a prompt); Ctrl-C at the same question ends the same way. Nothing
// is sent either way (the sandbox's request log) and the draft stays.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { text, useMcpSandbox } from '../helpers/mcp.js';
import { outboxRows } from '../helpers/outbox.js';
import { KEY, Screen } from '../helpers/terminal.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});

/** An agent's draft of today's check-in, made through the SDK's client; the request log emptied after it. */
async function agentDraft(): Promise<string> {
  const s = await connect();
  const d = await s.call('draft_checkin', { intentions: '- Review the webhook PR' });
  expect(d.isError, text(d)).toBeFalsy();
  sb.requests.length = 0;
  return d.structuredContent!.draft_id as string;
}

describe("`checkin drafts send <id>` of an agent's draft, at a terminal", () => {
  for (const [answer, keys] of [
    ['"No"', 'n' + KEY.enter],
    ['Ctrl-C', KEY.ctrlC],
  ] as const) {
    it(`${answer}: nothing sent, the draft kept, one plain line with what to run next; exit 130`, async () => {
      const id = await agentDraft();
      const s = new Screen(['drafts', 'send', id], env);
      await s.answer(`Send the draft ${id} as it is? (y/N)`, keys);
      const exit = await s.exit();
      expect(exit.code, s.text()).toBe(130);
      expect(s.text()).toContain('- Review the webhook PR');
      // Its one line, wrapped at a word edge for the terminal's 100 columns.
      expect(s.text().split('\n').slice(-2)).toEqual([
        `Nothing was sent; the draft ${id} is still kept: \`checkin drafts send ${id}\` sends it,`,
        `\`checkin drafts drop ${id}\` drops it.`,
      ]);
      expect(sb.requests.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((r) => [r.id, r.state])).toEqual([[id, 'kept']]);
    });
  }
});
