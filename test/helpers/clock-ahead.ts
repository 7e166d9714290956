// A machine whose clock is ahead of the service's: Debian's faketime in front of a checkin, its
// clock started that far ahead of the test's own (faked or not) and left to run. Issue 48, case 2.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { track } from './cleanup.js';
import { CLI_WORDS, FAKED_CLOCK, outcome, type CliResult } from './cli.js';
import { outboxRows } from './outbox.js';

export const FAKETIME = '/usr/bin/faketime';
/** Why a test that needs it is skipped, when faketime is missing. */
export const NO_FAKETIME = existsSync(FAKETIME) ? undefined : `${FAKETIME} is missing (Debian's faketime package)`;

/** faketime's words for a clock `ms` ahead of the test's, and the environment without the test's own faked clock (the child's is set by them). */
export function aheadBy(ms: number, env: NodeJS.ProcessEnv): { words: string[]; env: NodeJS.ProcessEnv } {
  const start = new Date(Date.now() + ms).toISOString().replace('T', ' ').slice(0, 19);
  return { words: [FAKETIME, '-f', `@${start}`], env: { ...Object.fromEntries(Object.entries(env).filter(([k]) => !(k in FAKED_CLOCK))), TZ: 'UTC' } };
}

/** The built checkin, piped (`input` on standard input), on a clock `ms` ahead. */
export function runCliAhead(ms: number, args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  const at = aheadBy(ms, env);
  const child = track(spawn(at.words[0]!, [...at.words.slice(1), ...CLI_WORDS, ...args], { env: at.env, stdio: ['pipe', 'pipe', 'pipe'] }));
  const done = outcome(child, `checkin ${args.join(' ')} (clock ahead)`);
  child.stdin!.end(input);
  return done;
}

const DOWN = { method: 'PATCH', status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' }, body: '{"message":"down"}' };

/**
 * `words` piped to checkin on a clock `ms` ahead while the service is down (503 to each of the
 * client's three tries of the PATCH): the check-in's date it addressed, and the draft kept. The
 * request log is emptied first.
 */
export async function keptWhileDownAhead(
  ms: number,
  sb: Sandbox,
  env: NodeJS.ProcessEnv,
  words: string,
  args: string[] = ['today', '-p', '-'],
): Promise<{ day: string; id: string }> {
  sb.requests.length = 0;
  sb.inject(DOWN, DOWN, DOWN);
  const r = await runCliAhead(ms, args, env, `${words}\n`);
  expect(r.code, r.stderr).toBe(1);
  const tries = sb.requests.filter((q) => q.method === 'PATCH');
  expect(tries.map((q) => q.status)).toEqual([503, 503, 503]);
  const rows = outboxRows(env.CHECKIN_CONFIG_DIR!);
  expect(rows.map((row) => row.state)).toEqual(['kept']);
  return { day: tries[0]!.path.split('/').at(-1)!, id: rows[0]!.id };
}

/** The person's other device writes `previous` on the check-in of `day` with a token of its own: when the service saved it. The request log is emptied after it. */
export async function writtenOnAnotherDevice(sb: Sandbox, day: string, previous: string): Promise<string> {
  const tokens = sb.service.data.tokens;
  const person = tokens.find((t) => t.token === sb.token)!.person_id;
  if (!tokens.some((t) => t.token === 'the-phone-token'))
    tokens.push({ token: 'the-phone-token', person_id: person, scope: 'write' } as (typeof tokens)[number]);
  const res = await fetch(`${sb.url}/check-ins/${day}`, {
    method: 'PATCH',
    headers: { authorization: 'Bearer the-phone-token', 'content-type': 'application/json' },
    body: JSON.stringify({ previous }),
  });
  expect(res.status).toBe(200);
  const savedAt = ((await res.json()) as { updated_at: string }).updated_at;
  sb.requests.length = 0;
  return savedAt;
}
