// `checkin drafts`: everything waiting in the outbox, one place — list, show, send, drop — and the
// outbox's promises as a user meets them: several drafts for one target wait side by side, none
// replaces another; a send whose answer never came is not sent again without the person's word.
import { sendAtTerminal } from '../helpers/terminal.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();
const down = { method: 'POST', status: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"maintenance"}' } as const;
type Listed = { id: string; for: string; made: string; state: string; text: string; here: boolean; account: { api_url: string } };
const listed = async (): Promise<Listed[]> => JSON.parse((await w.cli(['drafts', '--json', 'id,for,made,state,text,here,account'])).stdout) as Listed[];

describe('checkin drafts', () => {
  it('lists every draft waiting, oldest first; shows one by the start of its id; sends one (one POST); drops one only on a yes', async () => {
    for (const text of ['fix A', 'fix B', 'fix C']) {
      w.sb.inject(down);
      expect((await w.cli(['log', '-', '--group', 'git'], { input: `${text}\n` })).code).toBe(1);
      await w.clock.sleep(60_000);
    }
    expect(w.sent()).toEqual(['POST /api/v2/activities', 'POST /api/v2/activities', 'POST /api/v2/activities']);
    const all = await listed();
    expect(all.map((d) => [d.for, d.made, d.state, d.text, d.here])).toEqual([
      ['an activity', 'piped', 'waiting', 'fix A', true],
      ['an activity', 'piped', 'waiting', 'fix B', true],
      ['an activity', 'piped', 'waiting', 'fix C', true],
    ]);
    for (const d of all) expect(d.id).toMatch(/^[a-z0-9]{8}$/);

    // The plain list: one row a draft (tab-separated into a pipe).
    const plain = await w.cli(['drafts']);
    // FOR, ORIGIN, BASE (a create's is "new"), STATE, WORDS.
    expect(
      plain.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(2)),
    ).toEqual([
      ['an activity', 'piped', 'new', 'waiting', 'fix A'],
      ['an activity', 'piped', 'new', 'waiting', 'fix B'],
      ['an activity', 'piped', 'new', 'waiting', 'fix C'],
    ]);

    const [a, b, c] = all as [Listed, Listed, Listed];
    const shown = await w.cli(['drafts', 'show', b.id.slice(0, 5)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`Draft ${b.id}: an activity\nWritten Sun 22 Nov 09:31 (piped; base: new), for ${w.sb.url}\nState: waiting\n\nfix B\n`);

    w.forget();
    const sent = await w.cli(['drafts', 'send', b.id]);
    expect(sent).toMatchObject({
      code: 0,
      stderr: 'note: 2 other drafts for this activity log are still waiting: `checkin log --resume` sends them, `checkin drafts` shows them.\n',
    });
    expect(w.sent()).toEqual(['POST /api/v2/activities']);
    expect(w.sb.requests[0]!.body).toEqual({ group: 'git', description: 'fix B' });
    expect((await listed()).map((d) => d.id)).toEqual([a.id, c.id]);

    // Dropping needs a yes: none can be asked here, so nothing is dropped.
    const refused = await w.cli(['drafts', 'drop', a.id]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(
      `error: Dropping the draft ${a.id} (an activity: "fix A") needs your yes, and there is no terminal to ask on; nothing was done\nRun \`checkin drafts drop ${a.id} --yes\` to do it anyway.\n`,
    );
    expect((await w.cli(['drafts', 'drop', a.id, '--yes'])).stderr).toBe(`Dropped the draft ${a.id}.\n`);
    expect((await listed()).map((d) => d.id)).toEqual([c.id]);

    // status says that something waits (no request for it).
    const status = await w.cli(['status']);
    expect(status.stdout).toContain('1 draft of yours waits to be sent: checkin drafts\n');

    expect(await w.cli(['drafts', 'send', 'zzzz'])).toMatchObject({
      code: 2,
      stderr: 'error: There is no draft zzzz\nList what waits with `checkin drafts`.\n',
    });
    await w.cli(['log', '--resume']);
    expect(await w.cli(['drafts'])).toMatchObject({ code: 0, stdout: '', stderr: 'No drafts are waiting.\n' });
  });

  it('a failed send then another send: the first is not replaced, and the second says it still waits', async () => {
    w.sb.inject({ ...down, method: 'PATCH', status: 500 });
    const first = await w.cli(['today', '-i', '-', '-b', 'waiting on DBA'], { input: 'PLAN-A: migrate the billing DB\n' });
    expect(first.code).toBe(1);
    const second = await w.cli(['today', '-p', '-'], { input: 'PREV-B\n' });
    expect(second.code).toBe(0);
    expect(w.sb.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
      { intentions: 'PLAN-A: migrate the billing DB', blockers: 'waiting on DBA' },
      { previous: 'PREV-B' },
    ]);
    expect(second.stderr).toBe('note: another draft for this check-in is still waiting: `checkin today --resume` sends it, `checkin drafts` shows it.\n');
    expect((await listed()).map((d) => d.text)).toEqual([expect.stringContaining('PLAN-A: migrate the billing DB')]);
    expect((await w.cli(['today', '--resume'])).code).toBe(0);
    expect(w.sb.requests.filter((r) => r.method === 'PATCH').at(-1)!.body).toEqual({
      intentions: 'PLAN-A: migrate the billing DB',
      blockers: 'waiting on DBA',
    });
    expect(await listed()).toEqual([]);
  });

  it('a POST whose answer never came may have made it: --resume leaves it (said), and only a yes at a terminal (`drafts send`) sends it again; no flag stands in for it', async () => {
    w.sb.inject({ method: 'POST', drop: true });
    const r = await w.cli(['log', 'Reviewed the invoices PR']);
    expect(r.code).toBe(1);
    const [d] = await listed();
    expect(r.stderr.split('\n').at(-2)).toMatch(
      new RegExp(
        `^The draft ${d!.id} may have reached the service \\(sent .+, no answer came\\); it is kept and will not be sent again on its own\\. Look for it, then \`checkin drafts send ${d!.id}\` sends it again or \`checkin drafts drop ${d!.id}\` drops it\\.$`,
      ),
    );
    expect(d!.state).toMatch(/^may have been sent /);
    w.forget();
    const resumed = await w.cli(['log', '--resume']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(new RegExp(`^error: The draft ${d!.id} may have reached the service [^\\n]*\\n$`));
    expect(w.sent()).toEqual([]);
    expect((await w.cli(['drafts', 'send', d!.id])).code).toBe(2);
    expect(w.sent()).toEqual([]);
    const flagged = await w.bin(['drafts', 'send', d!.id, '--yes']);
    expect([flagged.code, flagged.stderr]).toEqual([2, "error: unknown option '--yes'\n"]);
    expect(w.sent()).toEqual([]);
    const atTerminal = await sendAtTerminal(d!.id, w.env);
    expect(atTerminal.exit.code, atTerminal.screen).toBe(0);
    expect(atTerminal.screen).toContain('Reviewed the invoices PR');
    expect(w.sent()).toEqual(['POST /api/v2/activities']);
    expect(await listed()).toEqual([]);
  });

  it('a draft kept for another service is named, not sent; `drafts send` at a terminal sends it here once the person says yes', async () => {
    // As an earlier run against another service left it.
    const dir = join(w.configDir, 'drafts');
    const other = 'http://127.0.0.1:9/api/v2';
    const entry = {
      checkin_outbox: 1,
      id: 'q7k2m9xa',
      account: { api_url: other },
      target: { kind: 'activity' },
      content: { kind: 'activity', input: { group: 'git', description: 'kept elsewhere' } },
      made: 'piped',
      created_at: '2026-11-21T08:00:00.000Z',
      saved_at: '2026-11-21T08:00:00.000Z',
    };
    (await import('node:fs')).mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'q7k2m9xa.json'), JSON.stringify(entry));
    const resumed = await w.cli(['log', '--resume']);
    expect(resumed).toMatchObject({ code: 2 });
    expect(resumed.stderr).toBe(
      `error: There is no draft for an activity for this service; one was kept for another: q7k2m9xa (kept for ${other} on Sat 21 Nov 08:00)\n\`checkin drafts send q7k2m9xa\` sends it here once you say yes.\n`,
    );
    expect(w.sent()).toEqual([]);
    expect((await listed()).map((d) => [d.id, d.here])).toEqual([['q7k2m9xa', false]]);
    const refused = await w.cli(['drafts', 'send', 'q7k2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('At a terminal, `checkin drafts send q7k2m9xa` shows it and asks.');
    expect(w.sent()).toEqual([]);
    const atTerminal = await sendAtTerminal('q7k2', w.env);
    expect(atTerminal.exit.code, atTerminal.screen).toBe(0);
    expect(w.sb.requests.at(-1)!.body).toEqual({ group: 'git', description: 'kept elsewhere' });
    expect(await listed()).toEqual([]);
  });

  it('words are kept before anything that can fail on the way: no token yet, a check-in named `last`; --resume with new piped text is refused unread', async () => {
    const noToken = await w.cli(['log', '-', '--group', 'git'], { input: 'before login\n', env: { CHECKIN_TOKEN: undefined } });
    expect(noToken.code).toBe(4);
    expect(w.sent()).toEqual([]);
    expect((await listed()).map((d) => [d.for, d.text])).toEqual([['an activity', 'before login']]);
    expect((await w.cli(['log', '--resume'])).code).toBe(0);
    expect(w.sent()).toEqual(['POST /api/v2/activities']);

    w.forget();
    w.sb.inject(
      { method: 'GET', status: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' },
      { method: 'GET', status: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' },
      { method: 'GET', status: 503, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' },
    );
    const last = await w.cli(['comments', 'last', '--add', '-'], { input: 'on my last one\n' });
    expect(last.code).toBe(1);
    expect(w.sent().every((r) => r.startsWith('GET '))).toBe(true);
    expect((await listed()).map((d) => [d.for, d.text])).toEqual([['a comment on the check-in last', 'on my last one\n']]);

    w.forget();
    const refused = await w.cli(['today', '--resume', '-p', '-'], { input: 'NEW\n' });
    expect(refused).toMatchObject({
      code: 2,
      stderr:
        'error: --resume sends what was kept; standard input ("-") cannot be added to it, nothing was read or sent\nSend what was kept with `checkin today --resume`, then pipe the new text without --resume.\n',
    });
    expect(w.sent()).toEqual([]);
  });
});
