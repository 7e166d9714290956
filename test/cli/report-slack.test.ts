// `checkin report --format slack|slack-blocks`: the team's digest as a chat reads it, by Steady's
// digest rules — counts for the team (no ranking, no per-person line), open blockers without names
// unless --names, every word from the service escaped so nothing in it can ping a channel, link or
// mention. The sandbox's demo data on the fake clock (Sun 22 Nov 2026); the periods named by date.
import { describe, expect, it } from 'vitest';
import type { OpenBlocker } from '../../src/core/stats.js';
import { digestBlocks, digestText, weekDigest } from '../../src/ui/report-slack.js';
import type { ReportModel } from '../../src/ui/report-formats.js';
import { useWorld } from '../helpers/harness.js';

const w = useWorld();
const WEEK = ['--since', '2026-11-16', '--until', '2026-11-22'];

describe('checkin report --format slack', () => {
  it("the team's counts, moods and the open blocker without a name; no person's name anywhere; the same requests as the Markdown report", async () => {
    const r = await w.cli(['report', ...WEEK, '--format', 'slack']);
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout:
        '*Check-ins, Mon 16 Nov – Sun 22 Nov 2026*\n' +
        '6 people · 31 of 37 scheduled days checked in · 1 day absent · 4 days blocked · 2 goal updates\n' +
        'Moods: 🤓 nerdy ×6, 😌 calm ×4, 🙂 happy ×4, 🤯 stressed ×4, 🤔 thoughtful ×4, 🤗 excited ×3, 😴 tired ×3, 🧐 focused ×2, 😎 confident ×1\n' +
        '*Open blockers (1)*\n' +
        '• Waiting on a teammate to review the *webhook retry* change (3 days)\n',
    });
    // No ranking of people: none of the team's names (nor @usernames) is in it.
    for (const p of w.sb.service.data.people) {
      expect(r.stdout).not.toContain(p.name);
      expect(r.stdout).not.toContain(`@${p.username}`);
    }
    // The same requests as the Markdown report, from the same cache.
    w.forget();
    await w.cli(['report', ...WEEK, '--format', 'slack']);
    const asked = [...w.sent()].sort();
    w.forget();
    await w.cli(['report', ...WEEK]);
    expect([...w.sent()].sort()).toEqual(asked);
  });

  it('--names: who is blocked, and the @mention kept; the counts are the same (read from the data, not written down)', async () => {
    const named = (await w.cli(['report', ...WEEK, '--format', 'slack', '--names'])).stdout;
    const blocked = w.sb.service.data.people.find((p) => named.includes(`• ${p.name}: `))!;
    expect(blocked).toBeDefined();
    expect(named).toContain(`• ${blocked.name}: Waiting on @ada to review the *webhook retry* change (3 days)\n`);
    const plain = (await w.cli(['report', ...WEEK, '--format', 'slack'])).stdout;
    expect(named.split('\n').slice(0, 4)).toEqual(plain.split('\n').slice(0, 4));
  });

  it("a week with nothing in it says so; --names and the chat formats' flags are refused elsewhere", async () => {
    const empty = await w.cli(['report', '--since', '2025-11-17', '--until', '2025-11-23', '--format', 'slack']);
    expect(empty).toEqual({ code: 0, stderr: '', stdout: '*Check-ins, Mon 17 Nov – Sun 23 Nov 2025*\nNo check-ins in this period.\n' });
    const names = await w.cli(['report', '--names']);
    expect(names.code).toBe(2);
    expect(names.stderr).toContain('--names is for --format slack, slack-blocks or --post');
  });

  it('hostile words from the service: no <!channel>, link or mention comes out in mrkdwn, Block Kit or Markdown', async () => {
    const data = w.sb.service.data;
    // The one standing blocker of the week: its person's newest filled check-in (read from the data).
    const named = (await w.cli(['report', ...WEEK, '--format', 'slack', '--names'])).stdout;
    const who = data.people.find((p) => named.includes(`• ${p.name}: `))!;
    who.name = 'Linus <!channel> <https://evil.example|click>';
    const open = data.check_ins
      .filter((c) => c.person_id === who.id && c.completed_at && c.date <= '2026-11-22')
      .sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
    expect(open.blockers).toContain('webhook retry');
    open.blockers = '- Waiting on <!here> & <@U123> [x](https://evil.example) @grace\u202e';
    const text = (await w.cli(['report', ...WEEK, '--format', 'slack', '--names'])).stdout;
    expect(text).toContain(
      '• Linus &lt;!channel&gt; &lt;https://evil.example|click&gt;: Waiting on &lt;!here&gt; &amp; &lt;@U123&gt; [x](https://evil.example) @grace (1 day)\n',
    );
    expect(text).not.toMatch(/<[!@#]/);
    const blocks = JSON.parse((await w.cli(['report', ...WEEK, '--format', 'slack-blocks', '--names'])).stdout);
    expect(JSON.stringify(blocks)).not.toMatch(/<[!@#]/);
    // Without --names, the mention is not said either.
    expect((await w.cli(['report', ...WEEK, '--format', 'slack'])).stdout).toContain(
      '• Waiting on &lt;!here&gt; &amp; &lt;a teammate&gt; [x](https://evil.example) a teammate (1 day)\n',
    );
  });
});

describe('the digest within each chat’s limits', () => {
  const model: ReportModel = { since: '2026-11-16', until: '2026-11-22', title: 'Mon 16 Nov – Sun 22 Nov 2026', people: [] };
  const open: OpenBlocker[] = Array.from({ length: 120 }, (_, i) => ({
    person: { id: `p${i}`, name: `Person ${i}` },
    blockers: `- Blocker number ${i} ${'x'.repeat(60)}`,
    date: '2026-11-20',
    run: { days: 1 + (i % 5), since: '2026-11-16', at_least: false },
    check_in_id: `c${i}`,
  }));

  it("Discord's 2000 characters: the bullets that fit, the longest-standing first, and how many more", () => {
    const d = weekDigest(model, open);
    const text = digestText(d, 'markdown', 2000);
    expect(text.length).toBeLessThanOrEqual(2000);
    const lines = text.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^… and (\d+) more$/);
    const shown = lines.filter((l) => l.startsWith('- ')).length;
    expect(shown + Number(/(\d+) more$/.exec(lines.at(-1)!)![1])).toBe(120);
    expect(lines.find((l) => l.startsWith('- '))).toMatch(/\(5 days\)$/);
  });

  it("Slack's Block Kit: at most 50 blocks, each section within 3000 characters, the rest counted", () => {
    const many = Array.from({ length: 20 }, () => open).flat();
    const { blocks } = digestBlocks(weekDigest(model, many));
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const b of blocks as Array<{ type: string; text: { text: string } }>) if (b.type === 'section') expect(b.text.text.length).toBeLessThanOrEqual(3000);
    const last = (blocks.at(-1) as { text: { text: string } }).text.text;
    const more = Number(/… and (\d+) more$/.exec(last)![1]);
    const shown = (blocks as Array<{ text: { text: string } }>)
      .slice(2)
      .reduce((n, b) => n + b.text.text.split('\n').filter((l) => l.startsWith('• ')).length, 0);
    expect(shown + more).toBe(2400);
  });
});
