// Issue 29, case 6: the editor's file is an outbox entry from the start. `checkin today -e` in a
// real terminal with real vim: the person types and saves (:w), then the terminal closes (SIGHUP to
// the process group) or the group gets SIGTERM. What was saved is a draft that `checkin drafts`
// shows and `checkin today --resume` sends; where the terminal remains, the stop line says so.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDateKey } from '../../src/core/datekey.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { KEY, Screen, sendAtTerminal } from '../helpers/terminal.js';
import { folderView, outboxRows, rowsIn } from '../helpers/outbox.js';
import { tempDir } from '../helpers/cleanup.js';

const VIM = (() => {
  try {
    execFileSync('vim', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));
const draftsDir = () => join(env.CHECKIN_CONFIG_DIR!, 'drafts');

/** Opens `checkin today -e` in vim, writes a line under ## Intentions and saves it (:w), leaving vim open. */
async function typeAndSave(line: string): Promise<Screen> {
  const s = new Screen(['today', '-e'], { ...env, EDITOR: 'vim -u NONE -i NONE -N', VISUAL: '' });
  // vim shows the file's name: the outbox entry's own file, not a temp folder's CHECKIN.md.
  await s.waitFor(/[a-z0-9]{8}\.md/);
  s.type(`${KEY.escape}/^## Intentions${KEY.enter}o${line}${KEY.escape}:w${KEY.enter}`);
  await s.waitFor(/written/);
  return s;
}

describe.skipIf(!VIM)(`the editor's file is a draft from the start${VIM ? '' : ' — skipped: vim is not installed'}`, () => {
  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    it(`${signal} to the terminal's process group while vim has the saved text: the text is a draft, and --resume sends it`, async () => {
      const s = await typeAndSave(`- Ship the ${signal} fix`);
      expect(readdirSync(draftsDir()).filter((n) => n.endsWith('.md'))).toHaveLength(1);
      process.kill(-s.pid, signal);
      const exit = await s.exit();
      expect(exit.signal ?? exit.code).not.toBe(0);
      if (signal === 'SIGTERM') {
        // The terminal remains: the stop line says where the words are.
        await s.waitFor('Stopped. What you wrote is kept as a draft:');
      }
      expect(sb.requests.filter((r) => r.method === 'PATCH')).toEqual([]);

      const listed = await runCli(['drafts', '--json', 'id,for,made,text'], { env });
      expect(listed.code).toBe(0);
      const drafts = JSON.parse(listed.stdout) as Array<{ id: string; for: string; made: string; text: string }>;
      expect(drafts).toHaveLength(1);
      expect(drafts[0]).toMatchObject({ for: `the check-in ${localDateKey(new Date())}`, made: 'editor' });
      expect(drafts[0]!.text).toContain(`## Intentions\n- Ship the ${signal} fix`);

      // Written in an editor checkin no longer watched: not sent without the person's yes (no terminal here: refused, kept).
      const refused = await runCli(['today', '--resume', '--json', 'intentions'], { env });
      const id = drafts[0]!.id;
      expect(refused).toEqual({
        code: 2,
        signal: null,
        stdout: '',
        stderr: `error: The draft ${id} was written in an editor after checkin stopped watching it: it needs your yes, and there is no terminal to ask on; it was not sent and is still kept\nAt a terminal, \`checkin drafts send ${id}\` shows it whole and asks.\n`,
      });
      expect(sb.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
      const sent = await sendAtTerminal(id, env);
      expect(sent.exit.code, sent.screen).toBe(0);
      expect(sent.screen).toContain(`- Ship the ${signal} fix`);
      const patches = sb.requests.filter((r) => r.method === 'PATCH');
      expect(patches).toHaveLength(1);
      expect((patches[0]!.body as { intentions: string }).intentions).toContain(`- Ship the ${signal} fix`);
      // Sent: nothing of it waits, the editor's file included; its row is remembered as sent, for a save its editor may still make.
      expect(folderView(draftsDir(), { waiting: true })).toEqual([]);
      expect(rowsIn(draftsDir()).map((r) => [r.id, r.state])).toEqual([[id, 'sent']]);
    });
  }

  it('an emptied file saved (the cancel) leaves no draft and sends nothing', async () => {
    const s = new Screen(['today', '-e'], { ...env, EDITOR: 'vim -u NONE -i NONE -N', VISUAL: '' });
    await s.waitFor(/[a-z0-9]{8}\.md/);
    s.type(`${KEY.escape}:%d${KEY.enter}:wq${KEY.enter}`);
    await s.waitFor('Nothing was written; the check-in was not sent');
    expect((await s.exit()).code).toBe(130);
    expect(folderView(draftsDir())).toEqual([]);
    expect(sb.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
  });
});

describe('the questions, when the terminal closes', () => {
  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    it(`${signal} while an answer is being typed: the lines typed so far are a draft, and --resume sends them`, async () => {
      const s = new Screen(['today'], env, { cols: 120, rows: 60 });
      await s.answer('What went on since your last check-in?', KEY.enter);
      await s.answer('What did you do previously?', KEY.enter);
      await s.answer('What do you intend to do next?', `- one${KEY.enter}- second line`);
      await s.waitFor('- second line');
      process.kill(-s.pid, signal);
      const exit = await s.exit();
      expect(exit.signal ?? exit.code).not.toBe(0);
      expect(sb.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
      const listed = await runCli(['drafts', '--json', 'for,made,content'], { env });
      const drafts = JSON.parse(listed.stdout) as Array<{ for: string; content: { answers: { intentions?: string } } }>;
      expect(drafts).toHaveLength(1);
      expect(drafts[0]!.content.answers.intentions).toBe('- one\n- second line');
      expect((await runCli(['today', '--resume'], { env })).code).toBe(0);
      expect((sb.requests.filter((r) => r.method === 'PATCH').at(-1)!.body as { intentions: string }).intentions).toBe('- one\n- second line');
    });
  }
});

describe('resuming over newer words: "Open both in the editor"', () => {
  it('shows both, opens the editor on the draft with what is on the service below it; what is saved is sent, the draft gone', async () => {
    const { runCli: run } = await import('../helpers/cli.js');
    sb.inject({ method: 'PATCH', status: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"down"}' });
    expect((await run(['today', '-p', '-'], { env, input: 'Words A\n' })).code).toBe(1);
    expect((await run(['today', '-p', '-'], { env, input: 'Words B\n' })).code).toBe(0);
    // An editor that takes from both, as a person would: the draft's line and the service's, then saves.
    const editor = join(tempDir('checkin-editor-'), 'edit.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/^Words A$/Words A, then B/" "$1"\ngrep -q "Words B" "$1" || exit 3\n');
    chmodSync(editor, 0o755);
    const s = new Screen(['today', '--resume'], { ...env, EDITOR: editor, VISUAL: '' });
    await s.waitFor('Which should the check-in hold?');
    expect(s.text()).toMatch(/On the service now:[\s\S]*Words B[\s\S]*The draft:[\s\S]*Words A/);
    s.type(KEY.down.repeat(2) + KEY.enter); // Open both in the editor
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    const patches = sb.requests.filter((r) => r.method === 'PATCH' && r.status < 300);
    expect(patches).toHaveLength(2);
    expect((patches[1]!.body as { previous: string }).previous).toBe('Words A, then B');
    expect(folderView(draftsDir())).toEqual([]);
  });
});

describe('an editor that outlives checkin (issue 48, case 3)', () => {
  it('checkin killed while a windowed editor has the draft: no send while it is open (refused, kept); closed, its last save is what is sent, no file left', async () => {
    const dir = tempDir();
    const [saved, close] = [join(dir, 'saved'), join(dir, 'close')];
    execFileSync('mkfifo', [saved, close]);
    // A windowed editor: no signal of the terminal's stops it; it saves, says so (with the pid of the
    // shell checkin started it under, which lives as long as it), waits to be closed, saves again.
    const editor = join(dir, 'window-editor');
    writeFileSync(
      editor,
      `#!/bin/sh\ntrap '' HUP TERM INT\nsed -i 's/^## Intentions$/## Intentions\\n- First save/' "$1"\necho $PPID > '${saved}'\nread line < '${close}'\nsed -i 's/^- First save$/- First save\\n- Second save/' "$1"\n`,
    );
    chmodSync(editor, 0o755);
    const s = new Screen(['today', '-e'], { ...env, EDITOR: editor, VISUAL: '' });
    const shell = Number((await readFile(saved, 'utf8')).trim());
    process.kill(s.pid, 'SIGKILL');
    await s.exit();
    const listed = JSON.parse((await runCli(['drafts', '--json', 'id,made,text'], { env })).stdout) as Array<{ id: string; made: string; text: string }>;
    expect(listed).toHaveLength(1);
    expect(listed[0]!.text).toContain('## Intentions\n- First save');
    const id = listed[0]!.id;

    // The editor is open: refused at a terminal, before any question, and by a piped resume; nothing sent, the draft kept.
    const t = new Screen(['drafts', 'send', id], env);
    await t.waitFor(`The draft ${id} is still open in an editor (process ${shell})`);
    expect((await t.exit()).code).toBe(2);
    expect(t.text()).not.toContain('Send the draft');
    const piped = await runCli(['today', '--resume'], { env });
    expect(piped.code, piped.stderr).toBe(2);
    expect(piped.stderr).toContain(`The draft ${id} is still open in an editor (process ${shell})`);
    // Nor dropped: a save after it would land in a file no command lists.
    const dropped = await runCli(['drafts', 'drop', id, '--yes'], { env });
    expect(dropped.code, dropped.stderr).toBe(2);
    expect(dropped.stderr).toContain(`The draft ${id} is still open in an editor (process ${shell}) that checkin no longer watches: it was not dropped`);
    expect(sb.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((r) => r.id)).toEqual([id]);

    // Closed: its last save is the draft, and the person's yes sends it whole.
    await writeFile(close, 'close\n');
    await gone(shell);
    const sent = await sendAtTerminal(id, env);
    expect(sent.exit.code, sent.screen).toBe(0);
    expect(sent.screen.replace(/\s+/g, ' ')).toContain('written in an editor after checkin stopped watching it');
    const patches = sb.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect((patches[0]!.body as { intentions: string }).intentions).toBe('- First save\n- Second save');
    // Nothing waits, no file is left; the row is remembered as sent a while, for a save its editor may still make.
    expect(outboxRows(env.CHECKIN_CONFIG_DIR!).map((r) => [r.id, r.state])).toEqual([[id, 'sent']]);
    expect(folderView(draftsDir(), { waiting: true })).toEqual([]);

    // An editor that saves once more after the send (one that left its shell, or an earlier build's):
    // what it saved is a new draft for the same check-in, listed and said once, never a file no command lists.
    writeFileSync(join(draftsDir(), `${id}.md`), '## Intentions\n- First save\n- Second save\n- Saved after the send\n');
    const after = await runCli(['drafts', '--json', 'id,for,made,text'], { env });
    const now = JSON.parse(after.stdout) as Array<{ id: string; for: string; made: string; text: string }>;
    expect(now).toHaveLength(1);
    expect(now[0]).toMatchObject({ for: `the check-in ${localDateKey(new Date())}`, made: 'editor' });
    expect(now[0]!.text).toContain('- Saved after the send');
    expect(now[0]!.id).not.toBe(id);
    expect(after.stderr).toBe(
      `warning: the editor saved the draft ${id} again after it was sent; what it saved then is kept as a new draft, ${now[0]!.id} (\`checkin drafts\` lists it)\n`,
    );
    expect(readdirSync(draftsDir()).filter((n) => n.endsWith('.md'))).toEqual([]);
    expect(sb.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });
});

/** Resolves once a process has ended (gone, or a zombie nobody reaps); bounded for a loaded machine. */
async function gone(pid: number, ms = 30_000): Promise<void> {
  const ended = () => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
    } catch {
      return true;
    }
  };
  const until = Date.now() + ms;
  while (!ended()) {
    if (Date.now() > until) throw new Error(`process ${pid} did not end within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
