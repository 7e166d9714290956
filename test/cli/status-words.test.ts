// `checkin status` says what the README says it prints, in the one vocabulary of states that
// `team`, the wall and --json share (issue 42): in-process against the sandbox, on a fake clock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMBER_STATE_WORDS, MEMBER_STATES } from '../../src/core/member-states.js';
import { call } from '../helpers/http.js';
import { ROOT } from '../helpers/cli.js';
import { TODAY, useWorld } from '../helpers/harness.js';

const w = useWorld();
const readmeLine = (command: string) =>
  readFileSync(join(ROOT, 'README.md'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${command} `) && l.includes('#'))!;

describe("status's description matches what it prints", () => {
  it('the README names each line status prints on the demo day: the state, new comments, who is blocked on you', async () => {
    const said = readmeLine('checkin status');
    expect(said).not.toMatch(/one line/);
    // As after `checkin login` (status never asks GET /me just to count).
    await w.cli(['me']);
    const r = await w.cli(['status']);
    expect(r.code).toBe(3);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const [state, comments, onMe] = lines as [string, string, string];
    expect(state).toBe(`Today's check-in (${TODAY}) is pending: run \`checkin today\``);
    expect(said).toContain("today's state");
    expect(comments).toMatch(/new comments on your check-ins/);
    expect(said).toContain('new comments');
    expect(onMe).toMatch(/has been blocked on you/);
    expect(said).toContain('blocked on you');
    expect(said).toContain('exit 3 = pending');
  });
});

describe('status and team, in the same words', () => {
  const ada = () => w.sb.service.data.tokens[0]!.person_id;
  const cases: Array<[string, () => Promise<void>, string]> = [
    ['pending', async () => {}, 'pending'],
    ['filled', async () => void (await call(w.sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: w.sb.token, body: { intentions: 'x' } })), 'filled'],
    ['blocked', async () => void (await call(w.sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: w.sb.token, body: { blockers: 'CI is down' } })), 'blocked'],
    [
      'absent',
      async () => {
        await call(w.sb.url, 'PATCH', `/check-ins/${TODAY}`, { token: w.sb.token, body: { intentions: 'x' } });
        Object.assign(
          w.sb.service.data.check_ins.find((c) => c.person_id === ada() && c.date === TODAY)!,
          { absent: true, completed_at: null },
        );
      },
      'absent',
    ],
    ['nothing scheduled', async () => void w.sb.service.data.absences.push({ person_id: ada(), from: TODAY, to: TODAY }), 'nothing-scheduled'],
  ];
  for (const [label, arrange, state] of cases) {
    it(`${label}: status's line and --json, and team's row, say "${MEMBER_STATE_WORDS[state as keyof typeof MEMBER_STATE_WORDS].word}"`, async () => {
      await arrange();
      const word = MEMBER_STATE_WORDS[state as keyof typeof MEMBER_STATE_WORDS].word;
      const text = await w.cli(['status']);
      expect(text.code).toBe(state === 'pending' ? 3 : 0);
      expect(text.stdout.split('\n')[0]).toContain(word);
      const json = JSON.parse((await w.cli(['status', '--json'])).stdout);
      expect(json.state).toBe(state);
      const team = JSON.parse((await w.cli(['team', '--team', 'Platform', '--json'])).stdout) as Array<{
        members: Array<{ person: { id: string }; state: string }>;
      }>;
      const mine = team[0]!.members.find((m) => m.person.id === ada())!;
      expect(mine.state).toBe(state);
      expect(MEMBER_STATES).toContain(mine.state);
      const tty = await w.cli(['team', '--team', 'Platform'], { tty: true });
      expect(tty.stdout).toMatch(new RegExp(`Ada Lovelace +\\S+ ${word}\\n`));
    });
  }
});
