// The accessible mode in a real terminal (CHECKIN_ACCESSIBLE=1 or `checkin config set accessible
// true`): `checkin today` answered through plain numbered questions, read as lines, and what the
// sandbox received; the raw bytes written hold no cursor movement, no clearing, no hidden cursor,
// no alternate screen. The detector is shown to find those sequences in the normal mode's output.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { describeRequest } from '../helpers/harness.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/cleanup.js';
import { cursorSequences, KEY, Screen } from '../helpers/terminal.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const today = () => localDateKey(new Date());
const patches = () => sb.requests.filter((r) => r.method === 'PATCH');

/** Through the first two questions as offered (every suggestion picked, previous kept as it is), up to intentions. */
async function toIntentions(s: Screen): Promise<void> {
  await s.waitFor(/Enter alone: all\): $/);
  s.type(KEY.enter);
  await s.waitFor(/Keep it as it is\): $/);
  s.type(KEY.enter);
  await s.waitFor('What do you intend to do next?');
}

describe('the detector of cursor movement', () => {
  it('finds each kind of sequence, and not colours', () => {
    for (const seq of [
      '\x1b[A',
      '\x1b[2B',
      '\x1b[C',
      '\x1b[3D',
      '\x1b[E',
      '\x1b[F',
      '\x1b[1G',
      '\x1b[H',
      '\x1b[12;1H',
      '\x1b[J',
      '\x1b[2J',
      '\x1b[K',
      '\x1b[2K',
      '\x1b[?25l',
      '\x1b[?25h',
      '\x1b[?1049h',
      '\x1b[?1049l',
      '\x1b7',
      '\x1b8',
    ]) {
      expect(cursorSequences(`text${seq}more`), JSON.stringify(seq)).toEqual([seq]);
    }
    expect(cursorSequences('\x1b[1mbold\x1b[22m \x1b[38;5;2mgreen\x1b[39m plain\r\n')).toEqual([]);
  });

  it("finds them in the normal mode's prompts (so their absence below means something)", async () => {
    const s = new Screen(['today'], env);
    await s.waitFor('What went on since your last check-in?');
    s.type(KEY.down);
    await s.waitFor(/❯◉ - Ship the onboarding/);
    expect(cursorSequences(s.raw).length).toBeGreaterThan(0);
    s.type(KEY.ctrlC);
    expect((await s.exit()).code).toBe(130);
  });
});

describe('checkin today in the accessible mode', () => {
  it('a whole check-in answered with numbers and lines: the exact PATCH, and no cursor movement or clearing written', async () => {
    const s = new Screen(['today'], { ...env, CHECKIN_ACCESSIBLE: '1' });
    // A checkbox: numbered, the picked ones say so in words; Enter alone keeps them picked.
    await s.waitFor(/What went on since your last check-in\?[\s\S]*Enter alone: all\): $/);
    expect(s.text()).toContain("  1. (picked) - Review @grace's PR on the billing webhooks");
    expect(s.text()).toContain('  3. (picked) - Add invoices endpoint (#412) (GitHub PR)');
    s.type('1 3' + KEY.enter); // drops the second line
    await s.waitFor('Picked 2 of 3: 1, 3.');
    // Lines that are there already: read out, then what to do with them.
    await s.waitFor(
      /What did you do previously\?[\s\S]*It says now \(2 lines\):\n  - Review @grace's PR on the \*\*billing webhooks\*\*\n  - \[Add invoices endpoint[\s\S]*5\. Clear it\nType a number from 1 to 5, or its words \(Enter alone picks 1, Keep it as it is\): $/,
    );
    s.type('add' + KEY.enter);
    await s.waitFor('Chosen: 2. Add lines after it\nType the lines to add, one at a time; an empty line ends the answer.');
    s.type('- Tried the plain prompts' + KEY.enter);
    await s.waitFor(/Type the lines to add[\s\S]*\n- Tried the plain prompts/);
    s.type(KEY.enter);
    await s.waitFor('What do you intend to do next?\nType the answer, one line at a time; an empty line ends it.');
    for (const line of ['- Write the pty tests', '- And more', '']) {
      s.type(line + KEY.enter);
      if (line) await s.waitFor(`\n${line}`);
    }
    await s.waitFor('Are you blocked by anything?\nType the answer, one line at a time; an empty line ends it.');
    s.type(KEY.enter);
    // The mood: numbered, a number or some of its words.
    await s.waitFor(/Mood\n  1\. — none\n[\s\S]*  8\. 🧐 focused\n[\s\S]*Type a number from 1 to 22, or some of its words \(Enter alone picks 1, — none\): $/);
    s.type('zzz' + KEY.enter);
    await s.waitFor('"zzz" is not one of them.');
    s.type('foc' + KEY.enter);
    await s.waitFor('Chosen: 8. 🧐 focused');
    await s.waitFor(/Did you do what you intended\?\n  1\. Yes\n  2\. No\n  3\. Skip\n/);
    s.type(KEY.enter); // Yes
    await s.waitFor(/Preview \(not sent yet\):[\s\S]*Send it\?\n  1\. Send\n  2\. Edit in \$EDITOR first\n  3\. Cancel \(keep the draft\)\n/);
    expect(s.text()).toMatch(/mood: 🧐 focused · did what was intended: yes/);
    expect(patches()).toEqual([]);
    s.type('1' + KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).toMatch(/✓ Checked in for \w{3} \d+ \w{3}/);
    expect(patches().map(describeRequest)).toEqual([`PATCH /api/v2/check-ins/${today()}`]);
    expect(patches()[0]!.body).toEqual({
      previous:
        "- Review @grace's PR on the **billing webhooks**\n- [Add invoices endpoint (#412)](https://github.com/engines/billing/pull/412) (GitHub PR)\n- Tried the plain prompts",
      intentions: '- Write the pty tests\n- And more',
      blockers: '',
      mood: 'focused',
      previous_completed: true,
    });
    expect(cursorSequences(s.raw)).toEqual([]);
    // Written once, top to bottom: each question appears once on the screen.
    expect(s.text().split('What do you intend to do next?')).toHaveLength(2);
  });

  it('at 80 columns the checkbox question and its choices break at word edges, a choice continuing under its words', async () => {
    // An activity whose line is longer than the terminal, beside the demo's.
    const pr = sb.service.data.activities.find((a) => a.title === 'Add invoices endpoint (#412)')!;
    sb.service.data.activities.push({
      ...pr,
      id: '00000000-0000-4000-8000-0000000000c1',
      title: 'Moved the billing webhooks onto the retry queue and wrote the on-call runbook (#415)',
    });
    const s = new Screen(['today'], { ...env, CHECKIN_ACCESSIBLE: '1' }, { cols: 80, rows: 40 });
    await s.waitFor(/\(Enter\nalone: all\): $/);
    const lines = s.text().split('\n');
    expect(lines.slice(lines.indexOf('Your activity:'))).toEqual([
      'Your activity:',
      '  3. (picked) - Moved the billing webhooks onto the retry queue and wrote the',
      '     on-call runbook (#415) (GitHub PR)',
      '  4. (picked) - Add invoices endpoint (#412) (GitHub PR)',
      'The numbers to pick, separated by commas or spaces, or "all" or "none" (Enter',
      'alone: all): ',
    ]);
    s.type('4' + KEY.enter);
    await s.waitFor('Picked 1 of 4: 4.');
    s.type(KEY.ctrlC);
    expect((await s.exit()).signal).toBe(2);
    expect(cursorSequences(s.raw)).toEqual([]);
  });

  it('the setting turns it on (`checkin config set accessible true`); CHECKIN_ACCESSIBLE=0 turns it off again', async () => {
    expect(await runCli(['config', 'set', 'accessible', 'true'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const plain = new Screen(['today'], env);
    await plain.waitFor(/What went on since your last check-in\?\n[\s\S]*Enter alone: all\): $/);
    plain.type('none' + KEY.enter);
    await plain.waitFor(
      /What did you do previously\?\nSuggested from what you intended on [\s\S]*Type the answer, one line at a time; an empty line ends it\./,
    );
    expect(cursorSequences(plain.raw)).toEqual([]);
    plain.type(KEY.ctrlC);
    await plain.exit();

    const keys = new Screen(['today'], { ...env, CHECKIN_ACCESSIBLE: '0' });
    await keys.waitFor('What went on since your last check-in? (Space picks or drops, Enter goes on)');
    expect(cursorSequences(keys.raw).length).toBeGreaterThan(0);
    keys.type(KEY.ctrlC);
    expect((await keys.exit()).code).toBe(130);
  });

  it('Ctrl-D at a question ends it as Ctrl-C does at the key-driven prompts: nothing sent, what was answered kept as a draft', async () => {
    const s = new Screen(['today'], { ...env, CHECKIN_ACCESSIBLE: '1' });
    await toIntentions(s);
    s.type('- Typed before Ctrl-D' + KEY.enter + KEY.enter);
    await s.waitFor('Are you blocked by anything?');
    s.type('\x04');
    expect(await s.exit()).toEqual({ code: 130, signal: 0 });
    expect(s.text().replace(/\n/g, '')).toContain('Not sent. What you wrote is kept as a draft: `checkin today --resume` sends it');
    expect(patches()).toEqual([]);
    expect(cursorSequences(s.raw)).toEqual([]);
  });

  it('Ctrl-C at a plain question (a signal: the terminal is not in raw mode) keeps what was answered and says so; the next run offers it', async () => {
    const s = new Screen(['today'], { ...env, CHECKIN_ACCESSIBLE: '1' });
    await toIntentions(s);
    s.type('- Typed before Ctrl-C' + KEY.enter + KEY.enter);
    await s.waitFor('Are you blocked by anything?');
    s.type(KEY.enter);
    await s.waitFor(/Mood\n[\s\S]*\(Enter alone picks 1, — none\): $/);
    s.type(KEY.ctrlC);
    expect((await s.exit()).signal).toBe(2);
    expect(s.text().replace(/\n/g, '')).toMatch(/Stopped\. What you wrote is kept as a draft: `checkin [^`]*--resume` sends it/);
    expect(patches()).toEqual([]);
    const again = new Screen(['today'], { ...env, CHECKIN_ACCESSIBLE: '1' });
    await again.waitFor(/What now\?\n  1\. Send the draft\n[\s\S]*\(Enter alone picks 1, Send the draft\): $/);
    expect(again.text()).toContain('  - Typed before Ctrl-C');
    again.type(KEY.enter);
    expect(await again.exit()).toEqual({ code: 0, signal: 0 });
    expect(patches()[0]!.body).toMatchObject({ intentions: '- Typed before Ctrl-C' });
    expect(cursorSequences(s.raw + again.raw)).toEqual([]);
  });

  it('"Edit in $EDITOR first" still opens the editor on the answers; what it saves is sent', async () => {
    // An editor that changes the file and exits, as a person would after saving.
    const editor = join(tempDir('checkin-editor-'), 'edit.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/^- Short$/- Short\\n- Added in the editor/" "$1"\n');
    chmodSync(editor, 0o755);
    const s = new Screen(['today'], { ...env, CHECKIN_ACCESSIBLE: '1', EDITOR: editor, VISUAL: '' });
    await toIntentions(s);
    s.type('- Short' + KEY.enter + KEY.enter);
    await s.waitFor('Are you blocked by anything?');
    s.type(KEY.enter);
    await s.waitFor(/Mood\n[\s\S]*\(Enter alone picks 1, — none\): $/);
    s.type(KEY.enter);
    await s.waitFor(/Did you do what you intended\?[\s\S]*\(Enter alone picks 1, Yes\): $/);
    s.type('skip' + KEY.enter);
    await s.waitFor(/Send it\?[\s\S]*\(Enter alone picks 1, Send\): $/);
    s.type('2' + KEY.enter);
    // Back at the question, under a new preview that holds what the editor saved.
    await s.waitFor(/Send it\?[\s\S]*Send it\?[\s\S]*\(Enter alone picks 1, Send\): $/);
    expect(s.text()).toMatch(/Intentions\n {2}- Short\n {2}- Added in the editor\n/);
    s.type(KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(patches()).toHaveLength(1);
    expect(patches()[0]!.body).toEqual({ previous: expect.any(String), intentions: '- Short\n- Added in the editor', blockers: '', mood: null });
    expect(cursorSequences(s.raw)).toEqual([]);
  });

  it('login: the token is asked without being shown, and kept', async () => {
    const s = new Screen(['login'], { ...env, CHECKIN_ACCESSIBLE: '1', CHECKIN_TOKEN: '' });
    await s.waitFor(/Paste your token: \(not shown as it is typed; Enter ends it\) $/);
    s.type(sb.token + KEY.enter);
    expect((await s.exit()).code).toBe(0);
    expect(s.text()).not.toContain(sb.token);
    expect(cursorSequences(s.raw)).toEqual([]);
    const status = await runCli(['auth', 'status'], { env: { ...env, CHECKIN_TOKEN: undefined } });
    expect(status.stdout + status.stderr).toMatch(/Logged in to .* as Ada Lovelace/);
  });
});
