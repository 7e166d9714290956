// Today's form follows the previous check-in's blockers through, at the real prompts in a
// pseudo-terminal: each blocker with how many days in a row it has stood, still / resolved /
// changed, the result the blockers answer. The sandbox on the real clock; Ada (the demo person) is
// made blocked on her three check-ins before today.
import { describe, expect, it } from 'vitest';
import { addDays, localDateKey } from '../../src/core/datekey.js';
import { shortDay } from '../../src/core/dayname.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { describeRequest } from '../helpers/harness.js';
import { KEY, Screen } from '../helpers/terminal.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { draftEntries } from '../helpers/outbox.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = { ...e, CHECKIN_GIT_REPOS: '' })));
const today = () => localDateKey(new Date());
const patches = () => sb.requests.filter((r) => r.method === 'PATCH');
const drafts = () => draftEntries(env.CHECKIN_CONFIG_DIR!);

/** Ada's check-in `daysAgo` days before today, filled in with `blockers` (made when the demo left the day empty). */
function adaBlocked(daysAgo: number, blockers: string) {
  const ada = sb.service.data.tokens[0]!.person_id;
  const date = addDays(today(), -daysAgo);
  const stamp = `${date}T09:00:00Z`;
  const rec = sb.service.data.check_ins.find((c) => c.person_id === ada && c.date === date);
  if (rec) Object.assign(rec, { blockers, completed_at: rec.completed_at ?? stamp, absent: false });
  else
    sb.service.data.check_ins.push({
      id: `blocked-${date}`,
      person_id: ada,
      date,
      previous: '- Old work',
      intentions: '- More work',
      blockers,
      mood: null,
      previous_completed: true,
      team_ids: null,
      completed_at: stamp,
      updated_at: stamp,
    });
}

describe("today's form: the previous check-in's blockers", () => {
  it('a blocker three days running shows "3 days"; still keeps it, and it is sent as today\'s blockers', async () => {
    for (const d of [3, 2, 1]) adaBlocked(d, '- Waiting on the **security review**');
    const s = new Screen(['today'], env);
    await s.answer('What went on since your last check-in?', KEY.enter);
    await s.answer('What did you do previously?', KEY.enter);
    await s.answer('What do you intend to do next?', '- Write the blockers tests' + KEY.enter + KEY.enter);
    await s.waitFor(`Your blockers on ${shortDay(addDays(today(), -1))} — still there, resolved, or changed?`);
    await s.waitFor(`Waiting on the security review (3 days, since ${shortDay(addDays(today(), -3))})`);
    expect(s.text()).toContain('❯ Still blocked');
    expect(s.text()).toContain('  Resolved');
    expect(s.text()).toContain('  Changed: edit it');
    s.type(KEY.enter); // Still blocked
    await s.waitFor('Are you blocked by anything?');
    await s.waitFor('  - Waiting on the **security review**');
    s.type(KEY.enter); // an empty line: keep it as it is
    await s.answer('Mood (type to search)', 'foc');
    await s.answer('❯ 🧐 focused', KEY.enter);
    await s.answer('Did you do what you intended?', KEY.enter);
    await s.waitFor('Send it?');
    expect(patches()).toEqual([]);
    s.type(KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(patches().map(describeRequest)).toEqual([`PATCH /api/v2/check-ins/${today()}`]);
    expect(patches()[0]!.body).toMatchObject({ intentions: '- Write the blockers tests', blockers: '- Waiting on the **security review**' });
  });

  it("changed: its text is edited in place; Ctrl-C while typing keeps what was typed as the draft's blockers and sends nothing", async () => {
    for (const d of [2, 1]) adaBlocked(d, '- CI is red on main');
    const s = new Screen(['today'], env);
    await s.answer('What went on since your last check-in?', KEY.enter);
    await s.answer('What did you do previously?', KEY.enter);
    await s.answer('What do you intend to do next?', '- Fix CI' + KEY.enter + KEY.enter);
    await s.answer(`CI is red on main (2 days, since ${shortDay(addDays(today(), -2))})`, KEY.down + KEY.down + KEY.enter);
    await s.waitFor('The blocker now:');
    s.type('- CI is red on the release branch');
    await s.waitFor('- CI is red on the release branch');
    s.type(KEY.ctrlC);
    expect((await s.exit()).code).toBe(130);
    expect(patches()).toEqual([]);
    expect(drafts()).toMatchObject([
      { content: { kind: 'answers', answers: { intentions: '- Fix CI', blockers: '- CI is red on main\n- CI is red on the release branch' } } },
    ]);
  });
});
