// The interactive `checkin today` flow in-process, with a scripted prompter and editor (the unit
// layer of the prompts; test/terminal/prompts-editor.test.ts drives the real ones in a pseudo-terminal).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mood } from '../../src/api/types.js';
import { addDays, localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { Prompter } from '../../src/ui/prompter.js';
import { useWorld } from '../helpers/harness.js';
import { scripted } from '../helpers/prompter.js';
import { draftEntries } from '../helpers/outbox.js';

const NOW = new Date(2026, 10, 18, 9, 0, 0);
const TODAY = localDateKey(NOW);
const w = useWorld({}, NOW);
let sb: Sandbox;
beforeEach(() => {
  sb = w.sb;
});
const drafts = () => draftEntries(w.configDir);

async function runToday(prompter: Prompter, edit?: (t: string) => Promise<string>) {
  const r = await w.cli(['today'], { tty: true, prompter, ...(edit && { editor: { edit } }) });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

describe('interactive checkin today', () => {
  it('asks the questions with previous prefilled from my last intentions (and says from when), then sends one PATCH and says so', async () => {
    const me = sb.service.data.tokens[0]!.person_id;
    const last = sb.service.data.check_ins.filter((c) => c.person_id === me && c.date < TODAY && c.intentions).sort((a, b) => b.date.localeCompare(a.date))[0]!;
    const lastIntentions = last.intentions;
    expect(lastIntentions).toContain('\n');
    // What went on since (Ada's merged PR, recorded after her last check-in) is offered beside the
    // intentions in a checkbox, all picked; the lines prompt then starts from what was picked.
    const pr = '- [Add invoices endpoint (#412)](https://github.com/engines/billing/pull/412) (GitHub PR)';
    const picked = [...lastIntentions!.split('\n'), pr];
    const p = scripted([picked, picked.join('\n'), '- Write the tests', '', 'focused' as Mood, true, 'send']);
    const r = await runToday(p);
    expect(r.err.split('\n').slice(0, 2)).toEqual(['', 'Preview (not sent yet):']);
    expect(r.code).toBe(0);
    expect(p.asked.map((q) => [q.kind, q.message])).toEqual([
      ['checkbox', 'What went on since your last check-in?'],
      ['lines', 'What did you do previously?'],
      ['lines', 'What do you intend to do next?'],
      ['lines', 'Are you blocked by anything?'],
      ['search', 'Mood'],
      ['select', 'Did you do what you intended?'],
      ['select', 'Send it?'],
    ]);
    expect(p.asked[0]!.choices).toEqual(picked.map((l) => `[x] ${l}`));
    expect(p.asked[1]!.default).toBe(picked.join('\n'));
    expect(p.asked[4]!.choices).toHaveLength(22);
    expect(p.asked[4]!.choices![7]).toBe('🧐 focused');
    const requests = sb.requests.map((q) => `${q.method} ${q.path}${q.query ? `?${q.query}` : ''}`);
    // The check-in, the earlier ones and my activities of the week (after /me, on a first run) are
    // asked for together; then the one PATCH.
    expect(requests.slice(0, 4).sort()).toEqual(
      [
        `GET /api/v2/check-ins/${TODAY}`,
        'GET /api/v2/me',
        `GET /api/v2/check-ins?people_ids[]=${me}&until=${addDays(TODAY, -1)}&per_page=10`,
        `GET /api/v2/activities?people_ids[]=${me}&since=${addDays(TODAY, -7)}T00%3A00%3A00Z&page=1&per_page=50`,
      ].sort(),
    );
    // The suggestion @mentions people: who is on my teams, for the preview's hints (the directory, cached from then on).
    expect(requests.slice(4, 6).sort()).toEqual(['GET /api/v2/people?page=1&per_page=50', 'GET /api/v2/teams?page=1&per_page=50']);
    expect(requests.slice(6)).toEqual([`PATCH /api/v2/check-ins/${TODAY}`]);
    expect(sb.requests.at(-1)!.body).toEqual({
      previous: picked.join('\n'),
      intentions: '- Write the tests',
      blockers: '',
      mood: 'focused',
      previous_completed: true,
    });
    expect(r.err.split('\n').at(-2)).toMatch(new RegExp(`^✓ Checked in for Wed 18 Nov  http://127\\.0\\.0\\.1:\\d+/app/check-ins/`));
    // Nothing is left behind once the service accepted it.
    expect(drafts()).toEqual([]);
  });

  it('Ctrl-C at a prompt exits 130 and keeps what was typed; the next run shows the draft and offers it first', async () => {
    const first = await runToday(scripted([[], 'Did things', '- Typed before Ctrl-C', 'CANCEL'])); // nothing picked in the checkbox
    expect(first.code).toBe(130);
    expect(first.err).toBe(
      'Not sent. What you wrote is kept as a draft: `checkin today --resume` sends it (`checkin drafts` lists everything waiting). `checkin today` goes through it again.\n',
    );
    expect(sb.requests.filter((q) => q.method === 'PATCH')).toEqual([]);
    expect(drafts()).toMatchObject([{ content: { kind: 'answers', answers: { previous: 'Did things', intentions: '- Typed before Ctrl-C' } } }]);

    const p = scripted(['send']);
    const second = await runToday(p);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(
      new RegExp(
        `^An unsent draft for today \\(${TODAY}\\), saved Wed 18 Nov 09:00:\n✓ Checked in for Wed 18 Nov  http://127\\.0\\.0\\.1:\\d+/app/check-ins/\\S+\n$`,
      ),
    );
    expect(second.out).toContain('Previous\n  Did things\nIntentions\n  - Typed before Ctrl-C');
    expect(p.asked[0]!.message).toBe('What now?');
    // The one PATCH (the suggestions' GETs, started before, may still be on their way).
    expect(sb.requests.filter((q) => q.method === 'PATCH').map((q) => q.body)).toMatchObject([{ previous: 'Did things', intentions: '- Typed before Ctrl-C' }]);
    expect(drafts()).toEqual([]);
  });

  it('filled in already: shows it and changes one answer only', async () => {
    await runToday(scripted([[], 'Prev', '- Plan', '', null, true, 'send']));
    sb.requests.length = 0;
    const p = scripted(['blockers', 'Waiting on review', 'send']);
    const r = await runToday(p);
    expect(r.code).toBe(0);
    expect(r.err).toContain('Already filled in:\n');
    expect(p.asked.map((q) => q.message)).toEqual(['Change something?', 'Are you blocked by anything?', 'Send it?']);
    expect(sb.requests.filter((q) => q.method === 'PATCH').map((q) => q.body)).toEqual([
      { previous: 'Prev', intentions: '- Plan', blockers: 'Waiting on review', mood: null, previous_completed: true },
    ]);
    const nothing = await runToday(scripted(['nothing']));
    expect(nothing).toMatchObject({ code: 0, err: expect.stringContaining('Nothing changed.\n') });
  });

  it('"Edit in $EDITOR first" opens the template with the answers, and what was saved is sent', async () => {
    let seen = '';
    const edit = async (text: string) => {
      seen = text;
      return text.replace('- Short', '- Short\n- And a much longer second line');
    };
    const p = scripted([[], 'Prev', '- Short', 'Waiting on review', null, null, 'edit', 'send']);
    const r = await runToday(p, edit);
    expect(r.code).toBe(0);
    expect(seen).toContain('## Intentions\n<!-- What do you intend to do next? -->\n- Short\n');
    expect(seen).toContain('## Blockers\n<!-- Are you blocked by anything? -->\nWaiting on review\n');
    expect(sb.requests.at(-1)!.body).toEqual({
      previous: 'Prev',
      intentions: '- Short\n- And a much longer second line',
      blockers: 'Waiting on review',
      mood: null,
    });
  });

  it('shows "No check-in scheduled" and asks nothing on a day without one', async () => {
    sb.service.data.absences.push({ person_id: sb.service.data.tokens[0]!.person_id, from: TODAY, to: TODAY });
    const p = scripted([]);
    const r = await runToday(p);
    expect(r).toMatchObject({ code: 0, out: '', err: `No check-in scheduled for today (${TODAY})\n` });
    expect(p.asked).toEqual([]);
  });
});
