// What the agent's hooks know of a report sent from a draft: a check-in kept when its send failed and
// sent later with `checkin drafts send` (or an activity so) is seen by `checkin hook session-start`
// as sent, as one sent by `checkin today` is (test/cli/hook.test.ts); a send that fails notes nothing.
// The built CLI against the sandbox, in a folder that is no repository (no commits to count).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { runCli } from '../helpers/cli.js';
import { patient } from '../helpers/patience.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  env = e;
});

const unavailable = { status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"a fault of the service"}' } as const;
const marksFile = () => join(env.CHECKIN_CONFIG_DIR!, 'hooks.json');
type Marks = { accounts: Record<string, { reported_at?: string; sent?: string }> };
const marks = (): Marks => JSON.parse(readFileSync(marksFile(), 'utf8')) as Marks;

/** The one draft kept here: its id. */
async function onlyDraft(cwd: string, what: string): Promise<string> {
  const rows = JSON.parse((await runCli(['drafts', '--json', 'id,for'], { env, cwd })).stdout) as Array<{ id: string; for: string }>;
  expect(rows.map((r) => r.for)).toEqual([what]);
  return rows[0]!.id;
}

describe('a report sent from a draft, as the hooks see it', () => {
  it.each([
    // What each prints once sent: `drafts send` nothing; `today --resume` the check-in.
    ['drafts send', (id: string) => ['drafts', 'send', id], () => /^$/],
    ['today --resume', () => ['today', '--resume'], (date: string) => new RegExp(`^Check-in ${date} · Ada Lovelace · [^]*\\n  Shipped the hooks\\n`)],
  ])('a check-in kept, then `%s`: not said to be pending any more; a failed send changed nothing', async (_, send, out) => {
    const cwd = tempDir('checkin-hook-reported-');
    // Today as the sandbox's data has it (the copy the hooks read): pending.
    const today = JSON.parse((await runCli(['status', '--json'], { env, cwd })).stdout) as { date: string; state: string };
    expect(today.state).toBe('pending');

    // The send fails: the answers are kept as a draft.
    sb.inject({ ...unavailable, method: 'PATCH', path: /^\/check-ins\// });
    expect((await runCli(['today', '-i', 'Shipped the hooks'], { env, cwd })).code).toBe(1);
    const id = await onlyDraft(cwd, `the check-in ${today.date}`);
    const said =
      "checkin: today's check-in is still pending; 1 draft kept, not sent (`checkin today` fills it in; `checkin drafts` lists them). Send nothing without the person's yes: ask them first.\n";
    expect(await runCli(['hook', 'session-start'], { env, cwd })).toEqual({ code: 0, signal: null, stderr: '', stdout: said });

    // Sent again, refused again: nothing noted.
    sb.inject({ ...unavailable, method: 'PATCH', path: /^\/check-ins\// });
    expect((await runCli(send(id), { env, cwd })).code).toBe(1);
    expect(existsSync(marksFile())).toBe(false);
    expect((await runCli(['hook', 'session-start'], { env, cwd })).stdout).toBe(said);

    // Sent: the hooks say nothing (no request of theirs: the copy still says pending, the mark says sent).
    const sent = await runCli(send(id), { env, cwd });
    expect(sent).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(sent.stdout).toMatch(out(today.date));
    const requests = sb.requests.length;
    expect(await runCli(['hook', 'session-start'], { env, cwd })).toEqual({ code: 0, signal: null, stderr: '', stdout: '' });
    expect(sb.requests.length).toBe(requests);
    const mine = Object.values(marks().accounts);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.sent).toBe(today.date);
  });

  it('an activity kept, then `drafts send`: the report is noted (commits count from then)', async () => {
    const cwd = tempDir('checkin-hook-reported-');
    sb.inject({ ...unavailable, method: 'POST', path: '/activities' });
    expect((await runCli(['log', 'Kept while the service was down'], { env, cwd })).code).toBe(1);
    const id = await onlyDraft(cwd, 'an activity');
    expect(existsSync(marksFile())).toBe(false);
    const before = Date.now();
    expect(await runCli(['drafts', 'send', id], { env, cwd })).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
    const mine = Object.values(marks().accounts);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.sent).toBeUndefined();
    expect(Date.parse(mine[0]!.reported_at!)).toBeGreaterThan(before - patient(60_000));
  });
});
