// Issue 39: a send never writes over newer words on the service, wherever it is sent — the agent's
// send_checkin too. The built server driven by the SDK's own clients (list, then call) against the
// sandbox; the check-in is changed on the service (the web app, another device) after the agent's
// draft was made. What the service received is read from its request log: no PATCH without a yes
// given to a question that showed the newer words.
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { whenLabel } from '../../src/domain/outbox.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { CLI_WORDS, runCli } from '../helpers/cli.js';
import { SCHEMAS_2026, text, type Answer, type McpSession as Session, useMcpSandbox } from '../helpers/mcp.js';
import { keptWhileDownAhead, NO_FAKETIME, writtenOnAnotherDevice } from '../helpers/clock-ahead.js';
import { outboxRows } from '../helpers/outbox.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect, writes, bodiesOf } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});
/** The 2026-07-28 clients a test drives by hand (the answer given with the retry), closed after it. */
const opened: ModernClient[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close().catch(() => undefined);
});

const sec = (title: string, value: string) => `${title} (${[...value].length} characters):\n${value}`;

const DRAFT = { previous: '- Shipped the invoices endpoint', intentions: '- Review the webhook PR' };
const WEB = '- Pair with @linus on the flaky test';

/** The agent drafts today's check-in; then the person changes it on the web. The draft's id, the day, and when the service saved the change. */
async function draftedThenChanged(s: Session): Promise<{ id: string; day: string; savedAt: string }> {
  expect((await s.client.listTools()).tools.map((t) => t.name)).toContain('send_checkin');
  const day = (await s.call('me')).structuredContent!.today as string;
  const d = await s.call('draft_checkin', DRAFT);
  expect(d.isError, text(d)).toBeFalsy();
  const id = d.structuredContent!.draft_id as string;
  return { id, day, savedAt: await changedOnTheWeb(day) };
}

/** The person changes the check-in in the web app: when the service saved it. The request log emptied after it. */
async function changedOnTheWeb(day: string): Promise<string> {
  const web = await fetch(`${sb.url}/check-ins/${day}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${sb.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ intentions: WEB }),
  });
  expect(web.status).toBe(200);
  const savedAt = ((await web.json()) as { updated_at: string }).updated_at;
  sb.requests.length = 0;
  return savedAt;
}

const question = (day: string, savedAt: string) =>
  `Send your check-in for today (${day}) over newer words? It was saved on the service after this draft was written (${whenLabel(savedAt)}); sending the draft replaces these answers there.\n\n` +
  `On the service now (replaced if you say yes):\n\n${sec('Intentions', WEB)}\n\n` +
  `The draft:\n\nShared with: Platform, Mobile (all your teams)\n\n${sec('Previous', DRAFT.previous)}\n\n${sec('Intentions', DRAFT.intentions)}`;

describe("send_checkin never writes over newer words on the service without the person's yes to them", () => {
  it('2025-11-25: the question shows what is there now; no sends nothing (the draft kept), yes sends exactly one PATCH', async () => {
    const answers: Answer[] = ['decline', 'accept'];
    const s = await connect({ answer: async () => answers.shift()! });
    const { id, day, savedAt } = await draftedThenChanged(s);

    const no = await s.call('send_checkin', { draft_id: id });
    expect(no.isError, text(no)).toBeFalsy();
    expect(s.asked).toEqual([question(day, savedAt)]);
    expect(no.structuredContent).toEqual({ sent: false, draft_id: id, draft_kept: true, reason: 'declined', resume_command: `checkin drafts send ${id}` });
    expect(sb.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/v2/check-ins/${day}`]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((r) => r.id)).toEqual([id]);

    const yes = await s.call('send_checkin', { draft_id: id });
    expect(yes.structuredContent).toMatchObject({ sent: true, draft_id: id, draft_kept: false });
    expect(s.asked).toEqual([question(day, savedAt), question(day, savedAt)]);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([DRAFT]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!)).toEqual([]);
  });

  it('2025-11-25: changed on the service while the person was asked: their yes was to what was there before, so nothing is sent; asked again, the question shows the newer words', async () => {
    let day = '';
    let savedAt = '';
    // The person takes their time: meanwhile the check-in is changed on the web; then they say yes.
    const answers: Array<() => Promise<Answer>> = [
      async () => {
        savedAt = await changedOnTheWeb(day);
        return 'accept';
      },
      async () => 'accept',
    ];
    const s = await connect({ answer: () => answers.shift()!() });
    day = (await s.call('me')).structuredContent!.today as string;
    const id = (await s.call('draft_checkin', DRAFT)).structuredContent!.draft_id as string;
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r.structuredContent, text(r)).toEqual({
      sent: false,
      draft_id: id,
      draft_kept: true,
      resume_command: `checkin drafts send ${id}`,
      reason: 'changed while asked',
    });
    expect(text(r)).toBe(
      `Not sent: the check-in was changed on the service while the person was asked (saved ${whenLabel(savedAt)}). The draft ${id} is kept: \`checkin drafts send ${id}\` sends it from a terminal. send_checkin asks again, showing what is there now.`,
    );
    expect(sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/v2/check-ins/${day}`]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((row) => [row.id, row.state])).toEqual([[id, 'kept']]);
    sb.requests.length = 0;
    const again = await s.call('send_checkin', { draft_id: id });
    expect(again.structuredContent, text(again)).toMatchObject({ sent: true, draft_id: id });
    expect(s.asked.at(-1)).toBe(question(day, savedAt));
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([DRAFT]);
  });

  it('2026-07-28: the question carried back to the client shows the newer words; accepted, one PATCH', async () => {
    const s = await connect({ revision: '2026-07-28', answer: 'accept' });
    const { id, day, savedAt } = await draftedThenChanged(s);
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r.structuredContent, text(r)).toMatchObject({ sent: true, draft_id: id });
    expect(s.asked).toEqual([question(day, savedAt)]);
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([DRAFT]);
  });

  it('2026-07-28: changed on the service between the question and the answer: that answer is stale, nothing sent; asked again, the question shows the newer words', async () => {
    const transport = new ModernStdio({
      command: CLI_WORDS[0]!,
      args: [...CLI_WORDS.slice(1), 'mcp', '--toolsets', 'all'],
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new ModernClient(
      { name: 'test-agent', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
        jsonSchemaValidator: SCHEMAS_2026,
      },
    );
    await client.connect(transport);
    opened.push(client);
    // Not listed first on this client: once it knows send_checkin's output schema, the SDK's client
    // (2.x) refuses an input-required result by hand ("did not return structured content"); the
    // tests above list, then call, with the same server.
    const call = async (name: string, params: Record<string, unknown>) =>
      (await client.callTool({ name, ...params } as never, { allowInputRequired: true })) as unknown as Record<string, unknown>;
    const asked = (r: Record<string, unknown>) => (r.inputRequests as { confirm: { params: { message: string } } }).confirm.params.message;
    const ACCEPT = { confirm: { action: 'accept', content: {} } };

    const day = ((await call('me', { arguments: {} })).structuredContent as { today: string }).today;
    const id = ((await call('draft_checkin', { arguments: DRAFT })).structuredContent as { draft_id: string }).draft_id;
    sb.requests.length = 0;
    const first = await call('send_checkin', { arguments: { draft_id: id } });
    expect(asked(first)).toBe(
      `Send your check-in for today (${day})?\n\nShared with: Platform, Mobile (all your teams)\n\n${sec('Previous', DRAFT.previous)}\n\n${sec('Intentions', DRAFT.intentions)}`,
    );
    const savedAt = await changedOnTheWeb(day);
    const late = await call('send_checkin', { arguments: { draft_id: id }, inputResponses: ACCEPT, requestState: first.requestState });
    expect(late.structuredContent).toMatchObject({ sent: false, draft_id: id, draft_kept: true, reason: 'stale answer' });
    expect(text(late as never)).toContain('what would be sent changed since the person was asked');
    expect(writes()).toEqual([]);

    const again = await call('send_checkin', { arguments: { draft_id: id } });
    expect(asked(again)).toBe(question(day, savedAt));
    const yes = await call('send_checkin', { arguments: { draft_id: id }, inputResponses: ACCEPT, requestState: again.requestState });
    expect(yes.structuredContent).toMatchObject({ sent: true, draft_id: id });
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
    expect(bodiesOf('PATCH')).toEqual([DRAFT]);
  });

  it('--allow-send is no yes to words the person never saw: refused, nothing sent, the draft kept; at a terminal without one, `drafts send` refuses too', async () => {
    const s = await connect({ args: ['--allow-send'] });
    const { id, day, savedAt } = await draftedThenChanged(s);
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: `error: The draft ${id} would replace answers saved on the service after it was written (${whenLabel(savedAt)}), and this client cannot ask the person: nothing was sent\nThe draft ${id} is kept: \`checkin drafts send ${id}\` sends it from a terminal. There the person sees both and chooses.`,
        },
      ],
    });
    expect(sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/v2/check-ins/${day}`]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((row) => [row.id, row.state])).toEqual([[id, 'kept']]);

    // The terminal's path keeps its own form (askOverNewer): without a terminal to ask on, refused, exit 1.
    const cli = await runCli(['drafts', 'send', id], { env });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(
      new RegExp(`^error: The draft ${id} \\([^)]+\\) would replace answers saved on the service later \\([^)]+\\); it was not sent and is still kept\\n`),
    );
    expect(writes()).toEqual([]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((row) => row.id)).toEqual([id]);
  });

  it('a yes or no changed on the web (did what was intended) is newer too: shown, and sent over only on a yes', async () => {
    const answers: Answer[] = ['decline'];
    const s = await connect({ args: ['--allow-send'], answer: async () => answers.shift()! });
    const day = (await s.call('me')).structuredContent!.today as string;
    const id = (await s.call('draft_checkin', { intentions: '- x', previous_completed: false })).structuredContent!.draft_id as string;
    const web = await fetch(`${sb.url}/check-ins/${day}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${sb.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ previous_completed: true }),
    });
    expect(web.status).toBe(200);
    sb.requests.length = 0;
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r.structuredContent, text(r)).toMatchObject({ sent: false, draft_kept: true, reason: 'declined' });
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toContain('On the service now (replaced if you say yes):\n\nDid what was intended: yes\n\nThe draft:');
    expect(s.asked[0]).toContain('Did what was intended: no');
    expect(writes()).toEqual([]);
  });

  it.skipIf(NO_FAKETIME !== undefined)(
    `a draft the terminal kept while the service was down, on a clock 10 minutes ahead, has no base: answers there that differ may be newer, and the question says so; declined, nothing sent${NO_FAKETIME ? ` (skipped: ${NO_FAKETIME})` : ''}`,
    async () => {
      const { day, id } = await keptWhileDownAhead(10 * 60_000, sb, env, DRAFT.previous);
      const phone = '- Shipped the invoices endpoint and its retries';
      const savedAt = await writtenOnAnotherDevice(sb, day, phone);
      const s = await connect({ answer: 'decline' });
      // The day the clock ahead kept it for is the agent's today, but for a draft kept in the ten minutes before midnight (then it is tomorrow).
      const today = (await s.call('me')).structuredContent!.today as string;
      const r = await s.call('send_checkin', { draft_id: id });
      expect(r.structuredContent, text(r)).toEqual({
        sent: false,
        draft_id: id,
        draft_kept: true,
        reason: 'declined',
        resume_command: `checkin drafts send ${id}`,
      });
      const asked = `Send your check-in for ${day === today ? `today (${day})` : day} over words that may be newer? The draft ${id} was kept without seeing the check-in, so answers on the service (saved ${whenLabel(savedAt)}) may be newer than it; sending the draft replaces these answers there.\n\nOn the service now (replaced if you say yes):\n\n${sec('Previous', phone)}\n\nThe draft:`;
      expect(s.asked.map((q) => q.slice(0, asked.length))).toEqual([asked]);
      expect(s.asked[0]).toContain(sec('Previous', DRAFT.previous));
      expect(writes()).toEqual([]);
      expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((row) => [row.id, row.state])).toEqual([[id, 'kept']]);
    },
  );

  it('nothing newer there: the question is the plain one, and --allow-send sends', async () => {
    const s = await connect({ args: ['--allow-send'] });
    const day = (await s.call('me')).structuredContent!.today as string;
    const id = (await s.call('draft_checkin', DRAFT)).structuredContent!.draft_id as string;
    sb.requests.length = 0;
    const r = await s.call('send_checkin', { draft_id: id });
    expect(r.structuredContent, text(r)).toMatchObject({ sent: true });
    expect(writes()).toEqual([`PATCH /api/v2/check-ins/${day}`]);
  });
});
