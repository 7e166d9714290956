// `checkin mcp`: change notices. A client subscribed to the drafts (checkin://drafts) and today's
// check-in (checkin://check-ins/today) — with resources/subscribe under 2025-11-25, with
// subscriptions/listen under 2026-07-28 — is told when a draft appears or goes, here by the person
// in a terminal: `checkin today -p …` whose send fails keeps an entry, `checkin drafts drop` drops
// it. Each wait is bounded (the server looks at the outbox once a second).
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { draftEntries } from '../helpers/outbox.js';
import { useMcpSandbox } from '../helpers/mcp.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const { connect } = useMcpSandbox((s, e) => {
  sb = s;
  env = e;
});

/** The notices a client was given, and a bounded wait for the next that matches. */
function noticeBoard() {
  const seen: string[] = [];
  const waiters: Array<{ match: (n: string) => boolean; done: () => void }> = [];
  const add = (n: string) => {
    seen.push(n);
    for (const w of waiters.splice(0))
      if (w.match(n)) w.done();
      else waiters.push(w);
  };
  const next = (match: (n: string) => boolean, ms = 10_000) =>
    new Promise<void>((resolve, reject) => {
      if (seen.some(match)) return resolve();
      const timer = setTimeout(() => reject(new Error(`no notice in ${ms} ms; seen: ${JSON.stringify(seen)}`)), ms);
      waiters.push({ match, done: () => (clearTimeout(timer), resolve()) });
    });
  return { seen, add, next, clear: () => seen.splice(0) };
}

async function terminalKeepsThenDrops(board: ReturnType<typeof noticeBoard>): Promise<void> {
  // The person's send fails (the service refuses it): the words are kept in the outbox.
  sb.inject({ method: 'PATCH', status: 403, headers: { 'content-type': 'application/json' }, body: '{"message":"not now"}' });
  const failed = await runCli(['today', '-p', 'Shipped the index'], { env });
  expect(failed.code).not.toBe(0);
  const [entry] = draftEntries<{ id: string }>(env.CHECKIN_CONFIG_DIR!);
  expect(entry).toBeDefined();
  await board.next((n) => n === 'updated checkin://drafts');
  await board.next((n) => n === 'updated checkin://check-ins/today');
  await board.next((n) => n === 'list_changed');
  board.clear();
  const dropped = await runCli(['drafts', 'drop', entry!.id, '--yes'], { env });
  expect(dropped.code, dropped.stderr).toBe(0);
  await board.next((n) => n === 'updated checkin://drafts');
  await board.next((n) => n === 'list_changed');
}

describe('checkin mcp: change notices', () => {
  it('2025-11-25: resources/subscribe to the drafts and today; a draft kept and dropped in a terminal reaches the client', async () => {
    const s = await connect();
    const client = s.client as unknown as Client;
    const board = noticeBoard();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => board.add(`updated ${n.params.uri}`));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => board.add('list_changed'));
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true, listChanged: true });
    await client.subscribeResource({ uri: 'checkin://drafts' });
    await client.subscribeResource({ uri: 'checkin://check-ins/today' });
    await terminalKeepsThenDrops(board);
    // Nothing is said of what the client did not subscribe to.
    expect(board.seen.filter((n) => n.startsWith('updated ') && !['updated checkin://drafts', 'updated checkin://check-ins/today'].includes(n))).toEqual([]);
  });

  it('2026-07-28: subscriptions/listen for the drafts, today and the list; the same changes reach the stream', async () => {
    const s = await connect({ revision: '2026-07-28' });
    const client = s.client as unknown as ModernClient;
    const board = noticeBoard();
    client.setNotificationHandler('notifications/resources/updated', (n) => board.add(`updated ${(n.params as { uri: string }).uri}`));
    client.setNotificationHandler('notifications/resources/list_changed', () => board.add('list_changed'));
    const sub = await client.listen({ resourceSubscriptions: ['checkin://drafts', 'checkin://check-ins/today'], resourcesListChanged: true });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: ['checkin://drafts', 'checkin://check-ins/today'], resourcesListChanged: true });
    await terminalKeepsThenDrops(board);
    await sub.close();
  });

  it('the drafts list is a resource of its own, read as the drafts tool says it', async () => {
    const s = await connect();
    expect(await s.read('checkin://drafts')).toBe('No drafts are waiting.\n');
    sb.inject({ method: 'PATCH', status: 403, headers: { 'content-type': 'application/json' }, body: '{"message":"not now"}' });
    await runCli(['today', '-p', 'Shipped the index'], { env });
    expect(await s.read('checkin://drafts')).toMatch(/^1 draft waiting, oldest first:\nDraft [a-z0-9]{8}: /);
  });
});
