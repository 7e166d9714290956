// goal create and echo ask at the real prompts: the built CLI in a pseudo-terminal against the
// sandbox, the screen read back through a headless terminal, the request checked in the log.
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { describeRequest } from '../helpers/harness.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { KEY, Screen } from '../helpers/terminal.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const person = (username: string) => sb.service.data.people.find((p) => p.username === username)!.id;
const team = (name: string) => sb.service.data.teams.find((t) => t.name === name)!.id;

describe('at the real prompts', () => {
  for (const cols of [100, 50])
    it(`goal create asks each field, shows a preview and creates it with one POST (${cols} columns)`, async () => {
      const s = new Screen(['goal', 'create'], env, { cols, rows: 60 });
      await s.answer('? Title', 'Write the on-call runbook' + KEY.enter);
      await s.answer('? Description', '- Alerts' + KEY.enter + '- Escalation' + KEY.enter + KEY.enter);
      await s.answer('? Start date', KEY.enter);
      await s.answer('? Due date', '2027-13-01' + KEY.enter); // no month 13: said, and asked again
      await s.answer(/The due date takes a date written YYYY-MM-DD, or\s+none; got "2027-13-01"\n\? Due date/, '2027-02-26' + KEY.enter);
      await s.answer('? Owner', KEY.enter); // me
      await s.answer('? Teams', ' ' + KEY.enter); // the first of my teams
      await s.answer('? Contributors', '@linus' + KEY.enter);
      await s.answer('? Parent goal id', KEY.enter);
      await s.waitFor('Create it?');
      expect(s.text()).toContain(
        'Preview (not created yet):\nWrite the on-call runbook\nowner        me\nteams        Platform\ncontributors @linus\ndue          2027-02-26\n\n  - Alerts\n  - Escalation',
      );
      s.type(KEY.enter);
      expect(await s.exit()).toEqual({ code: 0, signal: 0 });
      expect(s.text()).toMatch(/✓ Created the goal\s+http:\/\/127\.0\.0\.1:\d+\/app\/goa/); // (a link too long for the line is on its own)
      const posts = sb.requests.filter((r) => r.method === 'POST');
      expect(posts.map(describeRequest)).toEqual(['POST /api/v2/goals']);
      expect(posts[0]!.body).toEqual({
        title: 'Write the on-call runbook',
        description: '- Alerts\n- Escalation',
        end_date: '2027-02-26',
        owner_id: person('ada'),
        team_ids: [team('Platform')],
        contributor_ids: [person('linus')],
      });
      // Names cost the account and the directory once each: nothing else was asked of the service.
      expect(sb.requests.map(describeRequest).sort()).toEqual([
        'GET /api/v2/me',
        'GET /api/v2/people?page=1&per_page=50',
        'GET /api/v2/teams?page=1&per_page=50',
        'POST /api/v2/goals',
      ]);
    });

  it('goal create: Ctrl-C at a later question says the goal is kept as a draft (130); --resume creates it', async () => {
    const s = new Screen(['goal', 'create'], env, { cols: 160, rows: 40 });
    await s.answer('? Title', 'Cut the build time in half' + KEY.enter);
    await s.answer('? Description', 'Cache the dependencies' + KEY.enter + KEY.enter);
    await s.waitFor('? Start date');
    s.type(KEY.ctrlC);
    expect((await s.exit()).code).toBe(130);
    expect(s.text()).toBe(
      '✔ Title Cut the build time in half\n✔ Description (Markdown; an empty line ends it)\n  Cache the dependencies\n? Start date (YYYY-MM-DD, empty for none)\nNot created. What you wrote is kept as a draft: `checkin goal create --resume` sends it (`checkin drafts` lists everything waiting).',
    );
    expect(sb.requests.filter((r) => r.method === 'POST')).toEqual([]);
    const again = new Screen(['goal', 'create', '--resume'], env);
    expect(await again.exit()).toEqual({ code: 0, signal: 0 });
    expect(sb.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { title?: string }).title)).toEqual(['Cut the build time in half']);
  });

  it('echo ask: Ctrl-C at the title keeps the typed question as a draft (130); --resume asks it', async () => {
    const s = new Screen(['echo', 'ask', '--day', 'friday'], env, { cols: 160, rows: 40 });
    await s.answer('? Question', 'What surprised you this week?' + KEY.enter + KEY.enter);
    await s.waitFor('? Title');
    s.type(KEY.ctrlC);
    expect((await s.exit()).code).toBe(130);
    // The one line says what was kept and the command that sends it.
    expect(s.text()).toBe(
      '✔ Question (an empty line ends it)\n  What surprised you this week?\n? Title (empty: made from the question)\nNot asked. What you wrote is kept as a draft: `checkin echo ask --resume` sends it (`checkin drafts` lists everything waiting).',
    );
    expect(sb.requests.filter((r) => r.method === 'POST')).toEqual([]);
    const again = new Screen(['echo', 'ask', '--resume'], env);
    expect(await again.exit()).toEqual({ code: 0, signal: 0 });
    expect(sb.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ prompt: 'What surprised you this week?', answer_day: 'friday' }]);
  });
});
