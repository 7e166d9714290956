// The agent face serves one profile: `checkin mcp --profile NAME` (or the default when the server
// starts) for its whole session, named in its initialize instructions and in every yes question
// (both revisions), against two sandboxes on two ports, each its own token and person. A change of
// the default meanwhile (what `checkin auth switch` writes) does not move it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cleanEnv } from '../helpers/cli.js';
import { useMcp } from '../helpers/mcp.js';

const TOKEN_B = 'sandbox_pat_profile_b_0123456789';
let a: Sandbox;
let b: Sandbox;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  a = await startSandbox({ rateLimit: false });
  b = await startSandbox({ rateLimit: false, token: TOKEN_B });
  const grace = b.service.data.people.find((p) => p.username === 'grace')!;
  b.service.data.tokens.find((t) => t.token === TOKEN_B)!.person_id = grace.id;
  env = cleanEnv();
  writeConfig('a');
});
afterEach(async () => {
  await a.close();
  await b.close();
});
const connect = useMcp(() => env);

/** config.json with the profiles a and b, `chosen` the default (as `checkin auth switch` leaves it). */
function writeConfig(chosen: string): void {
  mkdirSync(env.CHECKIN_CONFIG_DIR!, { recursive: true, mode: 0o700 });
  const profiles = { a: { api_url: a.url, token: a.token }, b: { api_url: b.url, token: TOKEN_B } };
  writeFileSync(join(env.CHECKIN_CONFIG_DIR!, 'config.json'), JSON.stringify({ profile: chosen, profiles }), { mode: 0o600 });
}
const writes = (sb: Sandbox) => sb.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
const text = (r: { content: unknown }) => (r.content as Array<{ text: string }>).map((c) => c.text).join('\n');

describe('checkin mcp under a profile', () => {
  it('--profile b: named in the instructions and the yes question; the write goes to b, as b', async () => {
    const s = await connect({ args: ['--profile', 'b'], answer: 'accept' });
    expect(s.client.getInstructions()).toContain(
      "This server serves the profile b (one of the person's accounts) for its whole session: everything read, drafted and sent is that profile's. Another profile is another server (`checkin mcp --profile <name>`).",
    );
    const r = await s.call('log_activity', { description: 'Paired on the flaky test' });
    expect(r.isError, text(r)).toBeFalsy();
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toMatch(/^Profile b: Record this activity under your name \(Grace Hopper\)\? /);
    expect(writes(b)).toEqual(['POST /api/v2/activities']);
    expect(writes(a)).toEqual([]);
  });

  it('never switches mid-session: the default changed while it runs, its next write still goes to the profile it started with', async () => {
    const s = await connect({ answer: 'accept' });
    expect(s.client.getInstructions()).toContain('This server serves the profile a ');
    writeConfig('b');
    expect(text(await s.call('me'))).toContain('Ada Lovelace');
    const r = await s.call('log_activity', { description: 'Reviewed the invoices PR' });
    expect(r.isError, text(r)).toBeFalsy();
    expect(s.asked[0]).toMatch(/^Profile a: Record this activity under your name \(Ada Lovelace\)\? /);
    expect(writes(a)).toEqual(['POST /api/v2/activities']);
    expect(writes(b)).toEqual([]);
  });

  it('the 2026-07-28 revision asks in the same words', async () => {
    const s = await connect({ revision: '2026-07-28', args: ['--profile', 'b'], answer: 'accept' });
    const r = await s.call('log_activity', { description: 'Wrote the runbook' });
    expect(r.isError, text(r)).toBeFalsy();
    expect(s.asked[0]).toMatch(/^Profile b: Record this activity under your name \(Grace Hopper\)\? /);
    expect(writes(b)).toEqual(['POST /api/v2/activities']);
  });
});
