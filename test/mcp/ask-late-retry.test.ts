// 2026-07-28: a retry that carries no answer is no answer yet, however late it comes — the same
// question again, never "stale answer" (that is for an answer that comes too late). Driven on
// personSaysYes itself with the server's clock moved (ctx.now), so no test waits ten minutes; the
// round trip through the official client is test/mcp/decline.test.ts's.
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { personSaysYes } from '../../src/mcp/ask.js';
import type { Served } from '../../src/mcp/kit.js';

const MINUTE = 60_000;

function server(start: number) {
  let now = start;
  const served = {
    era: 'modern',
    allowSend: false,
    asking: new Map(),
    ctx: { now: () => new Date(now), config: () => ({ profileToName: () => undefined }) },
  } as unknown as Served;
  const call = (state?: string, inputResponses?: Record<string, unknown>) =>
    personSaysYes(
      served,
      {
        mcpReq: {
          envelope: { [CLIENT_CAPABILITIES_META_KEY]: { elicitation: { form: {} } } },
          requestState: () => state,
          inputResponses,
        },
      } as never,
      'd1',
      'Record this activity?',
      () => new Error('refused'),
    );
  return { call, later: (ms: number) => void (now += ms) };
}

const stateOf = (asked: Awaited<ReturnType<typeof personSaysYes>>): string => {
  expect(asked).toHaveProperty('ask');
  return (asked as { ask: { requestState: string } }).ask.requestState;
};
const questionOf = (asked: Awaited<ReturnType<typeof personSaysYes>>) => (asked as { ask: { inputRequests: unknown } }).ask.inputRequests;

describe('2026-07-28: a late retry', () => {
  for (const [what, responses] of [
    ['no inputResponses', undefined],
    ['inputResponses without the question’s key', {}],
  ] as const)
    it(`${what}, 10 minutes and more after the question: the same question again (a new state), then a yes to it counts`, async () => {
      const s = server(Date.UTC(2026, 11, 31, 23, 55));
      const first = await s.call();
      s.later(10 * MINUTE + 1);
      const again = await s.call(stateOf(first), responses);
      expect(again).not.toHaveProperty('reason');
      expect(questionOf(again)).toEqual(questionOf(first));
      expect(stateOf(again)).not.toBe(stateOf(first));
      // Asked again, then answered in time: the person's yes.
      expect(await s.call(stateOf(again), { confirm: { action: 'accept' } })).toEqual({ yes: true });
    });

  it('an answer that comes more than 10 minutes after its question is stale; one in time is the answer', async () => {
    const s = server(Date.UTC(2026, 2, 29, 0, 58));
    const first = await s.call();
    s.later(10 * MINUTE + 1);
    expect(await s.call(stateOf(first), { confirm: { action: 'accept' } })).toMatchObject({ yes: false, reason: 'stale answer' });
    const again = await s.call();
    s.later(9 * MINUTE);
    expect(await s.call(stateOf(again), { confirm: { action: 'decline' } })).toMatchObject({ yes: false, reason: 'declined' });
  });
});
