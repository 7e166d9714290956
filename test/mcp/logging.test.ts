// `checkin mcp`: the logging capability. What checkin warns of on stderr while it answers a request
// (here: its cache file cannot be read — a folder stands where cache.json belongs) is told to the
// client as a `notifications/message` at level warning — only at or above the level the client asked
// for: under 2025-11-25 with `logging/setLevel` (nothing before it is set), under 2026-07-28 with the
// request's `_meta` (`io.modelcontextprotocol/logLevel`; nothing for a request without it). The line
// is sanitised, with the home folder as ~. stderr still has it either way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { useMcpSandbox } from '../helpers/mcp.js';

let env: NodeJS.ProcessEnv;
const { connect } = useMcpSandbox((_sb, e) => {
  env = e;
});

interface Told {
  level: string;
  logger?: string;
  data: unknown;
}

/** A folder where cache.json belongs: every read of the cache is refused, and checkin warns of it (once a run). */
function unreadableCache(): void {
  mkdirSync(join(env.CHECKIN_CONFIG_DIR!, 'cache.json'), { recursive: true });
}

/** A completion of a team name: a request that reads the cache (and nothing else). */
const teamCompletion = { ref: { type: 'ref/resource' as const, uri: 'checkin://teams/{team}' }, argument: { name: 'team', value: 'a' } };

function expectTheWarning(told: Told[]): void {
  expect(told).toHaveLength(1);
  expect(told[0]!.level).toBe('warning');
  expect(told[0]!.logger).toBe('checkin');
  expect(told[0]!.data).toBe('~/config/cache.json cannot be read (a folder, not a regular file); going on without it');
  expect(String(told[0]!.data)).not.toContain(env.HOME!);
}

describe('checkin mcp 2025-11-25: logging', () => {
  it('declares logging; setLevel accepted (an empty result); at level warning a warning while answering is told, before the answer', async () => {
    unreadableCache();
    const s = await connect();
    const client = s.client as Client;
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const told: Told[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void told.push(n.params as Told));
    expect(await client.setLoggingLevel('warning')).toEqual({});
    await client.complete(teamCompletion);
    // The notification precedes the answer on the one stream.
    expectTheWarning(told);
    await s.stderrSays('cache.json cannot be read');
  });

  it('at level error a warning is not told (stderr has it)', async () => {
    unreadableCache();
    const s = await connect();
    const client = s.client as Client;
    const told: Told[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void told.push(n.params as Told));
    await client.setLoggingLevel('error');
    await client.complete(teamCompletion);
    await client.ping();
    expect(told).toEqual([]);
    await s.stderrSays('cache.json cannot be read');
  });

  it('without setLevel nothing is told (stderr has it)', async () => {
    unreadableCache();
    const s = await connect();
    const client = s.client as Client;
    const told: Told[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void told.push(n.params as Told));
    await client.complete(teamCompletion);
    await client.ping();
    expect(told).toEqual([]);
    await s.stderrSays('cache.json cannot be read');
  });
});

describe('checkin mcp 2026-07-28: logging', () => {
  const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
  const session = async () => {
    unreadableCache();
    const s = await connect({ revision: '2026-07-28' });
    const client = s.client as unknown as ModernClient;
    const told: Told[] = [];
    client.setNotificationHandler('notifications/message', (n) => void told.push(n.params as Told));
    return { s, client, told };
  };

  it('declares logging; a request whose _meta asks for warning is told the warning, on its own stream, before its answer', async () => {
    const { s, client, told } = await session();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await client.complete({ ...teamCompletion, _meta: { [LOG_LEVEL]: 'warning' } });
    expectTheWarning(told);
    await s.stderrSays('cache.json cannot be read');
  });

  it('a request asking for error only is told nothing (stderr has it)', async () => {
    const { s, client, told } = await session();
    await client.complete({ ...teamCompletion, _meta: { [LOG_LEVEL]: 'error' } });
    await client.listTools();
    expect(told).toEqual([]);
    await s.stderrSays('cache.json cannot be read');
  });

  it('a level in _meta that is not one is refused as invalid params (-32602), nothing told', async () => {
    const { client, told } = await session();
    const refused = await client.complete({ ...teamCompletion, _meta: { [LOG_LEVEL]: 'loud' } }).then(
      () => undefined,
      (err: { code?: number; message?: string }) => err,
    );
    expect(refused?.code).toBe(-32602);
    expect(refused?.message).toContain(LOG_LEVEL);
    expect(told).toEqual([]);
  });

  it('a request without a level in _meta is told nothing (stderr has it)', async () => {
    const { s, client, told } = await session();
    await client.complete(teamCompletion);
    await client.listTools();
    expect(told).toEqual([]);
    await s.stderrSays('cache.json cannot be read');
  });
});
