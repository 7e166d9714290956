// The real-terminal layer: the built CLI in a pseudo-terminal with the real @inquirer/prompts and
// a real editor, the screen read back through a headless xterm. Assertions are on the screen a
// person sees and on what the sandbox received.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import { shortDay } from '../../src/core/dayname.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { describeRequest } from '../helpers/harness.js';
import { call } from '../helpers/http.js';
import { POISON, startHostile } from '../helpers/hostile.js';
import { KEY, Screen } from '../helpers/terminal.js';
import { tempDir } from '../helpers/cleanup.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { draftEntries } from '../helpers/outbox.js';

const VIM = (() => {
  try {
    execFileSync('vim', ['--version'], { stdio: 'ignore' });
    return 'vim';
  } catch {
    return undefined;
  }
})();

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const today = () => localDateKey(new Date());
const patches = () => sb.requests.filter((r) => r.method === 'PATCH');
const drafts = () => draftEntries(env.CHECKIN_CONFIG_DIR!);
/** Presses Down `n` times, then Enter: picks the n-th entry below the highlighted one. */
const pick = (n: number) => KEY.down.repeat(n) + KEY.enter;
/** In the demo data Ada merged this PR after her last check-in: it is offered for *previous*. */
const PR = '- [Add invoices endpoint (#412)](https://github.com/engines/billing/pull/412) (GitHub PR)';

describe('checkin today, answered at the real prompts', () => {
  it('walks the questions, shows a preview, sends one PATCH and shows the result', async () => {
    const me = sb.service.data.tokens[0]!.person_id;
    const last = sb.service.data.check_ins.filter((c) => c.person_id === me && c.date < today() && c.intentions).sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
    const s = new Screen(['today'], env);
    // First the checkbox: the last intentions and what went on since (a PR merged after that check-in).
    await s.waitFor('What went on since your last check-in?');
    // Grouped by where each line came from; Markdown shown as its words (the line itself keeps it).
    expect(s.text()).toMatch(/What you intended on \w{3} \d+ \w{3}\n/);
    expect(s.text()).toContain('Your activity\n');
    expect(s.text()).toContain('◉ - Add invoices endpoint (#412) (GitHub PR)');
    s.type(KEY.enter); // all picked
    await s.waitFor('What did you do previously?');
    // The suggestion (my last intentions, then the PR) is there as lines, and says where it came from
    // (the question is drawn before the lines under it: each is waited for, within the bound).
    for (const line of last.intentions!.split('\n')) await s.waitFor(`  ${line}`);
    await s.waitFor(`Suggested from what you intended on ${shortDay(last.date)}, and what went on since.`);
    s.type(KEY.enter); // an empty line: keep it as it is
    await s.answer('What do you intend to do next?', '- Write the pty tests' + KEY.enter + '- And more' + KEY.enter + KEY.enter);
    await s.answer('Are you blocked by anything?', KEY.enter);
    await s.answer('Mood (type to search)', 'foc');
    await s.answer('❯ 🧐 focused', KEY.enter);
    await s.answer('Did you do what you intended?', KEY.enter); // Yes is the default
    await s.waitFor('Send it?');
    expect(s.text()).toContain('Preview (not sent yet):');
    expect(s.text()).toMatch(/mood: 🧐 focused/);
    expect(patches()).toEqual([]);
    s.type(KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).toMatch(new RegExp(`✓ Checked in for ${shortDay(today())}\\s+http://127\\.0\\.0\\.1:\\d+/app/check-ins/`)); // (a link too long for the line is on its own)
    expect(patches().map(describeRequest)).toEqual([`PATCH /api/v2/check-ins/${today()}`]);
    expect(patches()[0]!.body).toEqual({
      previous: `${last.intentions}\n${PR}`,
      intentions: '- Write the pty tests\n- And more',
      blockers: '',
      mood: 'focused',
      previous_completed: true,
    });
    expect(drafts()).toEqual([]);
  });

  it('a suggestion is edited in place: Backspace on an empty line takes the line above back', async () => {
    const s = new Screen(['today'], env);
    // Drop the PR in the checkbox (Up wraps to the last choice, Space drops it): only the intentions stay.
    await s.answer('What went on since your last check-in?', KEY.up + ' ' + KEY.enter);
    await s.waitFor('What did you do previously?');
    const me = sb.service.data.tokens[0]!.person_id;
    const last = sb.service.data.check_ins.filter((c) => c.person_id === me && c.date < today() && c.intentions).sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
    const lines = last.intentions!.split('\n');
    // Take the last line back, drop its last word, end it differently; take the one before away entirely.
    s.type(KEY.backspace); // the last line is back in the input
    s.type(KEY.backspace.repeat(lines.at(-1)!.length) + KEY.backspace); // empty it, then pull the one above
    s.type(KEY.backspace.repeat(lines.at(-2)!.length + 1)); // empty that one too: only lines[0..-3] remain
    s.type('- Rewritten at the prompt' + KEY.enter + KEY.enter);
    await s.answer('What do you intend to do next?', KEY.enter);
    await s.answer('Are you blocked by anything?', KEY.enter);
    await s.answer('Mood (type to search)', KEY.enter);
    await s.answer('Did you do what you intended?', KEY.enter);
    await s.answer('Send it?', KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(patches()[0]!.body).toMatchObject({ previous: [...lines.slice(0, -2), '- Rewritten at the prompt'].join('\n') });
  });

  for (const cols of [120, 60])
    it(`Ctrl-C at a prompt exits 130, sends nothing and keeps what was typed as a draft; the next run shows it first (${cols} columns)`, async () => {
      const s = new Screen(['today'], env, { cols, rows: 60 });
      await s.answer('What went on since your last check-in?', KEY.enter); // all picked: the intentions and Ada's merged PR
      await s.answer('What did you do previously?', 'and this' + KEY.enter + KEY.enter);
      await s.answer('What do you intend to do next?', '- Typed before Ctrl-C' + KEY.enter + KEY.enter);
      await s.answer('Are you blocked by anything?', 'Half a blocker');
      s.type(KEY.ctrlC);
      expect(await s.exit()).toEqual({ code: 130, signal: 0 });
      // (The line is wider than the terminal: it wraps at word edges.)
      expect(s.text().replace(/\s*\n\s*/g, ' ')).toMatch(
        /Not sent\. What you wrote is kept as a draft: `checkin today --resume` sends it \(`checkin drafts` lists everything waiting\)\. `checkin today` goes through it again\.$/,
      );
      expect(patches()).toEqual([]);
      expect(drafts()).toMatchObject([
        {
          target: { kind: 'check-in', key: today() },
          content: { kind: 'answers', answers: { previous: expect.stringMatching(/\nand this$/), intentions: '- Typed before Ctrl-C' } },
        },
      ]);

      // The next run offers the draft first.
      const again = new Screen(['today'], env, { cols, rows: 60 });
      await again.waitFor('What now?');
      expect(again.text().replace(/\n/g, '')).toContain(`An unsent draft for today (${today()}), saved`);
      expect(again.text()).toContain('  - Typed before Ctrl-C');
      again.type(KEY.enter); // Send the draft
      expect(await again.exit()).toEqual({ code: 0, signal: 0 });
      expect(patches().at(-1)!.body).toMatchObject({ intentions: '- Typed before Ctrl-C' });
      expect(drafts()).toEqual([]);
    });

  it.skipIf(!VIM)(
    `"Edit in $EDITOR first" opens real vim (-u NONE) on the answers; what is saved is sent${VIM ? '' : ' — skipped: vim is not installed'}`,
    async () => {
      const s = new Screen(['today'], { ...env, EDITOR: 'vim -u NONE -i NONE -N', VISUAL: '' });
      await s.answer('What went on since your last check-in?', KEY.enter); // all picked: the intentions and Ada's merged PR
      await s.answer('What did you do previously?', KEY.enter);
      await s.answer('What do you intend to do next?', '- Short' + KEY.enter + KEY.enter);
      await s.answer('Are you blocked by anything?', KEY.enter);
      await s.answer('Mood (type to search)', KEY.enter); // — none
      await s.answer('Did you do what you intended?', pick(2)); // Skip
      await s.answer('Send it?', pick(1)); // Edit in $EDITOR first
      await s.waitFor(/[a-z0-9]{8}\.md/); // vim's file line: the draft's own file
      s.type(`${KEY.escape}:%s/^- Short$/- Short\\r- Added in vim/${KEY.enter}:wq${KEY.enter}`);
      await s.waitFor(/Send it\?[\s\S]*Send it\?/); // back at the question, under a new preview
      expect(s.text()).toContain('  - Added in vim');
      s.type(KEY.enter);
      expect(await s.exit()).toEqual({ code: 0, signal: 0 });
      expect(patches()).toHaveLength(1);
      expect(patches()[0]!.body).toEqual({ previous: expect.any(String), intentions: '- Short\n- Added in vim', blockers: '', mood: null });
    },
  );
});

describe('at 120 and 60 columns', () => {
  for (const cols of [120, 60]) {
    it(`list and the whole daily flow read well at ${cols} columns`, async () => {
      const day = localDateKey(new Date(Date.now() - 3 * 86_400_000));
      const list = new Screen(['list', '--since', day, '--until', day], env, { cols, rows: 40 });
      expect((await list.exit()).code).toBe(0);
      const rows = list.text().split('\n');
      expect(rows[0]).toMatch(/^DATE +PERSON +MOOD +STATE +ID( +INTENTIONS)?$/);
      expect(rows.length).toBeGreaterThan(2);
      // Nothing wrapped: every row is one screen line, and ids are whole or absent.
      for (const row of rows.slice(1)) expect(row).toMatch(new RegExp(`^${day}  `));
      if (cols < 100) expect(list.text()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
      else expect(list.text()).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);

      const s = new Screen(['today'], env, { cols, rows: 60 });
      await s.answer('What went on since your last check-in?', KEY.enter);
      await s.answer('What did you do previously?', KEY.enter);
      await s.answer('What do you intend to do next?', '- One thing' + KEY.enter + KEY.enter);
      await s.answer('Are you blocked by anything?', KEY.enter);
      await s.answer('Mood (type to search)', 'cal');
      await s.answer('❯ 😌 calm', KEY.enter);
      await s.answer('Did you do what you intended?', KEY.enter);
      await s.answer('Send it?', KEY.enter);
      expect(await s.exit()).toEqual({ code: 0, signal: 0 });
      expect(s.text()).toContain(`✓ Checked in for ${shortDay(today())}`);
      expect(patches().at(-1)!.body).toMatchObject({ intentions: '- One thing', mood: 'calm' });

      // Again, now that it is filled in: it is shown, and one answer changes.
      const again = new Screen(['today'], env, { cols, rows: 60 });
      await again.waitFor('Change something?');
      expect(again.text()).toContain('Already filled in:');
      expect(again.text()).toContain('  - One thing');
      again.type(pick(3)); // Nothing, Previous, Intentions, Blockers
      await again.answer('Are you blocked by anything?', 'Waiting on review' + KEY.enter + KEY.enter);
      await again.answer('Send it?', KEY.enter);
      expect(await again.exit()).toEqual({ code: 0, signal: 0 });
      expect(patches().at(-1)!.body).toMatchObject({ intentions: '- One thing', blockers: 'Waiting on review', mood: 'calm' });
      for (const line of again.text().split('\n')) expect([...line].length).toBeLessThanOrEqual(cols);
    });
  }
});

describe('standard input on a terminal', () => {
  it('`today -p -` says it is reading standard input and how to end it', async () => {
    const s = new Screen(['today', '-p', '-', '--json'], env);
    await s.waitFor('Reading standard input: type the text, then press Ctrl-D on an empty line.');
    s.type('Typed into the terminal\r\u0004');
    expect((await s.exit()).code).toBe(0);
    expect(patches()[0]!.body).toEqual({ previous: 'Typed into the terminal' });
  });
});

describe('the editor, losslessly', () => {
  it.skipIf(!VIM)(
    `text that cannot be read reopens real vim with the problem on top; nothing is lost; the fixed text is sent${VIM ? '' : ' — skipped: vim is not installed'}`,
    async () => {
      const s = new Screen(['today', '-e'], { ...env, EDITOR: 'vim -u NONE -i NONE -N', VISUAL: '' });
      await s.waitFor(/[a-z0-9]{8}\.md/);
      s.type(`${KEY.escape}:%s/^Mood: $/Mood: focussed/${KEY.enter}:%s/^## Intentions$/## Intentions\\r- A paragraph I wrote/${KEY.enter}:wq${KEY.enter}`);
      await s.waitFor('checkin could not read what you saved:');
      expect(s.text()).toMatch(/line \d+: Unknown mood "focussed"\. Did you mean "focused"\?/);
      // Kept before it was read, exactly as saved.
      expect(drafts()).toMatchObject([{ content: { kind: 'text', text: expect.stringContaining('- A paragraph I wrote\n') } }]);
      expect(patches()).toEqual([]);
      s.type(`${KEY.escape}:%s/focussed/focused/${KEY.enter}:wq${KEY.enter}`);
      expect(await s.exit()).toEqual({ code: 0, signal: 0 });
      expect(patches()).toHaveLength(1);
      expect(patches()[0]!.body).toMatchObject({ intentions: '- A paragraph I wrote', mood: 'focused' });
      expect(drafts()).toEqual([]);
    },
  );

  it('no editor is started without a terminal: one line naming --from-file and the flags', async () => {
    const r = await import('../helpers/cli.js').then(({ runCli }) => runCli(['today', '-e'], { env: { ...env, EDITOR: 'touch /tmp/should-not-run' } }));
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: The editor needs standard input to be a terminal\nGive the answers with --from-file FILE (- reads standard input), or with -p, -i, -b and --mood.\n',
    });
  });
});

describe('a hostile service at the real prompts', () => {
  it("the prompt's default and the suggestion above it (the service's text) never write on the terminal", async () => {
    const h = await startHostile();
    try {
      const s = new Screen(['today'], { ...env, CHECKIN_API_URL: h.url });
      await s.answer('Change something?', pick(6)); // Everything: every answer is shown at its prompt
      await s.waitFor('What did you do previously?');
      s.type(KEY.ctrlC);
      expect((await s.exit()).code).toBe(130);
      expect(s.text()).toContain('- did'); // the words are there…
      // …but nothing the terminal would act on: no title or clipboard write, no clear, no bidi.
      for (const bad of ['\u001b]0;pwned', '\u001b]52;', '\u001b[2J', '\u202e', '\u200b', '\u009b']) {
        expect(POISON).toContain(bad); // the service did send it
        expect(s.raw).not.toContain(bad);
      }
    } finally {
      await h.close();
    }
  });
});

describe('other prompts in a real terminal', () => {
  it.skipIf(!VIM)(
    `inbox on a terminal, then --reply 1 -e in it: the reply written in real vim is posted on that check-in${VIM ? '' : ' — skipped: vim is not installed'}`,
    async () => {
      const s = new Screen(
        { script: 'checkin inbox && checkin inbox --reply 1 -e' },
        { ...env, EDITOR: 'vim -u NONE -i NONE -N', VISUAL: '' },
        { cols: 160, rows: 40 },
      );
      await s.waitFor('1  Linus Torvalds');
      expect(s.text()).toContain('Reply: checkin inbox --reply <n> "text"');
      await s.waitFor(/[a-z0-9]{8}\.md/);
      // What is being answered is quoted below, in a comment that is taken out (vim draws it after the file's name).
      await s.waitFor('Replying to Linus Torvalds:');
      await s.waitFor('> I can pair on the `checkout` flake after lunch, @ada.');
      s.type(`i14:00 works, @linus${KEY.escape}:wq${KEY.enter}`);
      expect(await s.exit()).toEqual({ code: 0, signal: 0 });
      const ada = sb.service.data.tokens[0]!.person_id;
      const last = sb.service.data.check_ins
        .filter((c) => c.person_id === ada && c.completed_at && c.date < today())
        .sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
      const posted = sb.requests.filter((r) => r.method === 'POST');
      expect(posted.map(describeRequest)).toEqual([`POST /api/v2/check-ins/${last.id}/comments`]);
      expect(posted[0]!.body).toEqual({ body: '14:00 works, @linus' });
      expect(s.text()).toMatch(/Replying to item 1 \(listed in this terminal just now\): .+ · Linus Torvalds's comment\n/);
      expect(s.text()).toContain('✓ Replied on the check-in');
    },
  );

  it('two terminals: B lists after A, and A’s --reply 1 still answers the item 1 A was shown, naming it', async () => {
    const ada = sb.service.data.tokens[0]!.person_id;
    const a = new Screen({ script: 'checkin inbox; echo "-- A waits --"; read go; checkin inbox --reply 1 "Answered from A"' }, env, { cols: 160, rows: 60 });
    await a.waitFor('-- A waits --');
    // A's item 1: the first thread A was shown (its link names it), and who wrote the item.
    const shownToA = a.text().split('\n');
    const LINK = /\/app\/(check-ins|goal_updates)\/([0-9a-f-]{36})/;
    const [, linkKind, idA] = shownToA.find((l) => LINK.test(l))!.match(LINK)!;
    const kindA = linkKind!.replace('_', '-');
    const labelA = shownToA.find((l) => l.includes(idA!))!.replace(/ http:\S+$/, '');
    const whoA = shownToA
      .find((l) => /^ +1 {2}/.test(l))!
      .replace(/^ +1 {2}/, '')
      .replace(/ · .*$/, '');
    // Someone comments on Ada's latest goal update; terminal B lists it as its item 1.
    const update = sb.service.data.goal_updates.filter((u) => u.person_id === ada).sort((x, y) => (x.created_at < y.created_at ? 1 : -1))[0]!;
    expect(update.id).not.toBe(idA);
    expect(
      (await call(sb.url, 'POST', `/goal-updates/${update.id}/comments`, { token: 'sandbox_pat_grace', body: { body: 'Booked the review room.' } })).status,
    ).toBe(201);
    const b = new Screen(['inbox'], env, { cols: 120, rows: 40 });
    expect(await b.exit()).toEqual({ code: 0, signal: 0 });
    expect(b.text()).toMatch(/^ +1 {2}Grace Hopper · just now\n +Booked the review room\.$/m);
    expect(b.text()).not.toMatch(/^ +2 /m);
    sb.requests.length = 0;
    a.type(KEY.enter);
    expect(await a.exit()).toEqual({ code: 0, signal: 0 });
    const posted = sb.requests.filter((r) => r.method === 'POST');
    expect(posted.map(describeRequest)).toEqual([`POST /api/v2/${kindA}/${idA}/comments`]);
    expect(posted[0]!.body).toEqual({ body: 'Answered from A' });
    expect(a.text()).toContain(`Replying to item 1 (listed in this terminal just now): ${labelA} · ${whoA}'s `);
  });

  it('login asks for the token without echoing it, verifies it and stores it', async () => {
    const s = new Screen(['login', '--api-url', sb.url], { ...env, CHECKIN_TOKEN: '' });
    await s.answer('Paste your token:', sb.token + KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).toContain(`Logged in as Ada Lovelace (@ada) at ${sb.url}`);
    expect(s.raw).not.toContain(sb.token);
    expect(JSON.parse(readFileSync(join(env.CHECKIN_CONFIG_DIR!, 'config.json'), 'utf8'))).toMatchObject({
      profiles: { default: { token: sb.token, api_url: sb.url } },
    });
    expect(sb.requests.map(describeRequest)).toEqual(['GET /api/v2/me']);
  });

  for (const cols of [120, 60])
    it(`goal update shows the goal, asks for the title, takes the body from the editor, asks progress and confidence, previews and posts it (${cols} columns)`, async () => {
      const goal = sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!;
      const dir = tempDir('checkin-editor-');
      const editor = join(dir, 'editor.sh');
      writeFileSync(editor, '#!/bin/sh\nprintf -- "- Webhooks unblocked\\n- Next: retries\\n" > "$1"\n');
      chmodSync(editor, 0o755);
      const s = new Screen(['goal', 'update', goal.id, '--progress', '45'], { ...env, EDITOR: editor }, { cols, rows: 60 });
      await s.waitFor('Ship the v2 billing API — progress 35%, At risk');
      expect(s.text()).toContain('Latest update:');
      await s.answer('? Title', KEY.enter); // empty: asked again, before any editor opens
      await s.waitFor('A goal update needs a title.');
      await s.answer(/A goal update needs a title\.\n\? Title/, 'Security review passed' + KEY.enter);
      await s.answer('? Confidence', KEY.enter); // the latest update's: At risk
      await s.waitFor('Post it?');
      expect(s.text()).toContain('Preview (not posted yet):\nSecurity review passed\nShip the v2 billing API · progress 45% · At risk');
      s.type(KEY.enter);
      expect(await s.exit()).toEqual({ code: 0, signal: 0 });
      expect(s.text()).toMatch(/✓ Posted the goal update\s+http:\/\/127\.0\.0\.1:\d+\//);
      expect(sb.requests.at(-1)).toMatchObject({
        method: 'POST',
        path: `/api/v2/goals/${goal.id}/goal-updates`,
        body: { title: 'Security review passed', body: '- Webhooks unblocked\n- Next: retries', progress: 45, confidence: 60 },
      });
    });

  it('goal update delete asks first; "No" deletes nothing (130)', async () => {
    const update = sb.service.data.goal_updates[0]!;
    const s = new Screen(['goal', 'update', 'delete', update.id], env);
    await s.answer('Delete this goal update? (y/N)', 'n' + KEY.enter);
    expect(await s.exit()).toEqual({ code: 130, signal: 0 });
    expect(s.text().split('\n').at(-1)).toBe('Not deleted');
    expect(sb.requests.map((r) => r.method)).toEqual(['GET']);
  });
});
