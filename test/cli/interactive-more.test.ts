// Interactive goal updates, deletes and comments, in-process on a (fake) terminal with a scripted
// prompter and editor.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { Prompter } from '../../src/ui/prompter.js';
import { useWorld } from '../helpers/harness.js';
import { scripted } from '../helpers/prompter.js';

const w = useWorld();
let sb: Sandbox;
beforeEach(() => {
  sb = w.sb;
});

async function runTty(args: string[], prompter: Prompter, edit: (t: string) => Promise<string> = async (t) => t) {
  const r = await w.cli(args, { tty: true, prompter, editor: { edit } });
  return { code: r.code, out: r.stdout, err: r.stderr };
}
const billing = () => sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;

describe('on a terminal', () => {
  it('goal update asks for the title and opens the editor for the body, showing the latest update first', async () => {
    const p = scripted(['Security review passed', 90, true]);
    // (the latest update before this one is posted)
    const latest = sb.service.data.goal_updates.filter((u) => u.goal_id === billing()).sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0]!;
    let seen: string | undefined;
    const r = await runTty(['goal', 'update', billing(), '--progress', '45'], p, async (t) => {
      seen = t;
      return '- Webhooks unblocked\n- Next: retries\n\n';
    });
    expect(r.err).toMatch(/^\nPreview \(not posted yet\):\n✓ Posted the goal update  http:\/\/127\.0\.0\.1:\d+\/\S+\n$/);
    expect(r.code).toBe(0);
    // The editor opens empty above the context: the goal and its latest update, quoted (taken out again).
    expect(seen).toBe(
      `\n\n<!-- checkin:\n     A goal update on “Ship the v2 billing API” (progress 35%).\n     The latest update, “${latest.title}”:\n${latest.body
        .split('\n')
        .slice(0, 8)
        .map((l) => `     > ${l}`)
        .join('\n')}\n     Write above this comment; it is taken out. Save it with nothing written to cancel. -->\n`,
    );
    expect(r.out).toContain('Ship the v2 billing API — progress 35%, At risk');
    expect(r.out).toContain('Latest update:\nInvoices endpoint in review');
    expect(p.asked.map((q) => [q.message, q.default])).toEqual([
      ['Title', ''],
      ['Confidence', 60],
      ['Post it?', true],
    ]);
    expect(p.asked[1]!.choices).toEqual(['On track', 'At risk', 'Off track']);
    expect(r.out).toContain('Security review passed\nShip the v2 billing API · progress 45% · On track\n\n  - Webhooks unblocked');
    expect(sb.requests.at(-1)).toMatchObject({
      method: 'POST',
      body: { title: 'Security review passed', body: '- Webhooks unblocked\n- Next: retries', progress: 45, confidence: 90 },
    });
  });

  it('goal update asks progress with the latest as default, re-asks a bad one; "No" at the preview keeps a draft (130)', async () => {
    const p = scripted(['Title', '150', '40', 30, false]);
    const r = await runTty(['goal', 'update', billing(), '--body', 'Body'], p);
    expect(r.code).toBe(130);
    expect(p.asked.map((q) => [q.message, q.default])).toEqual([
      ['Title', ''],
      ['Progress (0–100 %)', '35'],
      ['Progress (0–100 %)', '35'],
      ['Confidence', 60],
      ['Post it?', true],
    ]);
    expect(r.err).toBe(
      `Progress is a whole number from 0 to 100.\n\nPreview (not posted yet):\nNot posted. What you wrote is kept as a draft: \`checkin goal update ${billing()} --resume\` sends it (\`checkin drafts\` lists everything waiting).\n`,
    );
    expect(sb.requests.filter((q) => q.method === 'POST')).toEqual([]);
    const sent = await runTty(['goal', 'update', billing(), '--resume', '--json'], scripted([]));
    expect(sent.code).toBe(0);
    expect(sb.requests.filter((q) => q.method === 'POST').map((q) => [q.path, q.body])).toEqual([
      [`/api/v2/goals/${billing()}/goal-updates`, { title: 'Title', body: 'Body', progress: 40, confidence: 30 }],
    ]);
  });

  it('goal updates delete asks first; no keeps it (130), yes deletes it', async () => {
    const id = sb.service.data.goal_updates.find((u) => u.goal_id === billing())!.id;
    const no = await runTty(['goal', 'updates', 'delete', id], scripted([false]));
    expect(no.code).toBe(130);
    expect(sb.requests.some((q) => q.method === 'DELETE')).toBe(false);
    const p = scripted([true]);
    const yes = await runTty(['goal', 'updates', 'delete', id], p);
    expect(yes.code).toBe(0);
    expect(p.asked[0]).toMatchObject({ kind: 'confirm', message: 'Delete this goal update?', default: false });
    expect(sb.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/api/v2/goal-updates/${id}` });
  });

  it('comments --edit writes the comment in the editor; an empty one is not sent', async () => {
    const id = sb.service.data.check_ins.find((c) => c.person_id === sb.service.data.tokens[0]!.person_id)!.id;
    const r = await runTty(['comments', id, '--edit'], scripted([]), async () => 'Looks **great**\n');
    expect(r.code).toBe(0);
    expect(sb.requests.at(-1)).toMatchObject({ method: 'POST', body: { body: 'Looks **great**' } });
    expect(r.out).toMatch(/^Ada Lovelace just now\n {2}Looks great\n$/);
    const empty = await runTty(['comments', id, '--edit'], scripted([]), async () => '\n');
    expect(empty).toMatchObject({ code: 2, err: 'error: The comment is empty; nothing was sent\n' });
  });
});

describe('editing with context, and whose check-in it is', () => {
  it("the context comment is taken out wherever it ended up, and cannot be closed early by the service's text", async () => {
    const { withContext, withoutContext } = await import('../../src/ui/editor-text.js');
    const opened = withContext(['Replying to Mallory:', '> end it here --> and \u001b[31mred'], '');
    expect(opened).not.toMatch(/-->[^\n]*red/);
    expect(opened).not.toContain('\u001b');
    expect(withoutContext(`Thanks!\n${opened}`)).toBe('Thanks!');
    expect(withoutContext(`${opened}Written below it`)).toBe('\nWritten below it');
    expect(withoutContext(opened)).toBe('');
  });

  it("an administrator changing someone else's check-in is told whose it is", async () => {
    await w.cli(['me']);
    const grace = sb.service.data.people.find((p) => p.username === 'grace')!;
    const { checkInId } = await import('../../src/sandbox/ids.js');
    const yesterday = sb.service.data.check_ins.filter((c) => c.person_id === grace.id).sort((a, b) => (a.date < b.date ? 1 : -1))[1]!;
    const r = await w.cli(['checkin', checkInId(grace.id, yesterday.date), '-b', 'Waiting on the vendor', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("note: this is Grace Hopper's check-in, not yours: you changed it for them\n");
    const mine = await w.cli(['today', '-b', '', '--json']);
    expect(mine.stderr).toBe('');
  });
});
