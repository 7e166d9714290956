// The settings that only a terminal shows, on a real pseudo-terminal with the built CLI: colour,
// prompts, the editor; and `checkin auth token` refusing to show the token on a terminal. What only
// sets things up or reads a setting back (config set, login, auth status) runs in-process (`cli`).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { runCli } from '../helpers/cli.js';
import { FakeClock, runIn } from '../helpers/harness.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { KEY, Screen } from '../helpers/terminal.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => ((sb = s), (env = e)));

const SGR = /\x1b\[[0-9;]*m/;
/** checkin in-process against the sandbox (on the real clock, as the terminal's checkin is). */
const cli = (args: string[], e: NodeJS.ProcessEnv = env, input?: string) => runIn(args, e, new FakeClock(new Date()), input === undefined ? {} : { input });
const config = async (...args: string[]) => expect((await cli(['config', ...args])).code).toBe(0);

/** An editor script that writes `text` into the file it is given. */
function editorWriting(text: string): string {
  const script = join(tempDir('checkin-editor-'), 'editor.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' '${text}' > "$1"\n`);
  chmodSync(script, 0o755);
  return script;
}

describe('color', () => {
  it('never: no colour on a terminal; always: colour into a pipe; NO_COLOR and FORCE_COLOR still win', async () => {
    const plain = new Screen(['people', '--no-pager'], env);
    expect(await plain.exit()).toEqual({ code: 0, signal: 0 });
    expect(plain.raw).toMatch(SGR);

    await config('set', 'color', 'never');
    const never = new Screen(['people', '--no-pager'], env);
    expect(await never.exit()).toEqual({ code: 0, signal: 0 });
    expect(never.raw).not.toMatch(SGR);
    expect(never.text()).toBe(plain.text());
    // (A check-in printed into a pipe keeps its headings' colour when colour is asked for.)
    const view = ['checkin', 'today'];
    expect((await runCli(view, { env: { ...env, FORCE_COLOR: '1' } })).stdout).toMatch(SGR);

    await config('set', 'color', 'always');
    expect((await runCli(view, { env })).stdout).toMatch(SGR);
    expect((await runCli(view, { env: { ...env, NO_COLOR: '1' } })).stdout).not.toMatch(SGR);
    expect((await runCli(view, { env: { ...env, FORCE_COLOR: '0' } })).stdout).not.toMatch(SGR);

    await config('unset', 'color');
    expect((await runCli(view, { env })).stdout).not.toMatch(SGR);
  });
});

describe('prompt', () => {
  it('disabled: `checkin today` on a terminal shows the check-in instead of asking; CHECKIN_NO_PROMPT still wins over enabled', async () => {
    await config('set', 'prompt', 'disabled');
    const s = new Screen(['today', '--no-pager'], env);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).not.toContain('What went on since your last check-in?');
    expect(s.text()).toMatch(/^Check-in \d{4}-\d\d-\d\d/);

    await config('set', 'prompt', 'enabled');
    const env1 = new Screen(['today', '--no-pager'], { ...env, CHECKIN_NO_PROMPT: '1' });
    expect(await env1.exit()).toEqual({ code: 0, signal: 0 });
    expect(env1.text()).not.toContain('What went on since your last check-in?');

    const asks = new Screen(['today'], env);
    await asks.waitFor('What went on since your last check-in?');
    asks.type(KEY.ctrlC);
    expect(await asks.exit()).toEqual({ code: 130, signal: 0 });
    expect(sb.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('editor', () => {
  it('the editor setting is used by the edit flow, before VISUAL and EDITOR; CHECKIN_EDITOR wins over it', async () => {
    const checkIn = sb.service.data.check_ins.find((c) => c.completed_at)!;
    const comments = () => sb.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { body: string }).body);
    await config('set', 'editor', editorWriting('From the editor setting'));
    const s = new Screen(['comments', checkIn.id, '--edit'], { ...env, VISUAL: '/nonexistent/visual', EDITOR: '/nonexistent/editor' });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(comments()).toEqual(['From the editor setting']);

    const own = new Screen(['comments', checkIn.id, '--edit'], { ...env, CHECKIN_EDITOR: editorWriting('From CHECKIN_EDITOR') });
    expect(await own.exit()).toEqual({ code: 0, signal: 0 });
    expect(comments()).toEqual(['From the editor setting', 'From CHECKIN_EDITOR']);
  });

  it('an editor setting that cannot run: says where it came from, sends nothing', async () => {
    const checkIn = sb.service.data.check_ins.find((c) => c.completed_at)!;
    await config('set', 'editor', '/nonexistent/editor');
    const s = new Screen(['comments', checkIn.id, '--edit'], env);
    expect(await s.exit()).toEqual({ code: 2, signal: 0 });
    expect(s.text().replace(/\s*\n\s*/g, ' ')).toContain('The editor "/nonexistent/editor" (the editor setting) was not found or cannot run; nothing was sent');
    expect(sb.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe('checkin auth token on a terminal', () => {
  it('refused without --show (exit 2, the token not on the screen); shown with it; printed into a pipe', async () => {
    const s = new Screen(['auth', 'token'], env);
    expect(await s.exit()).toEqual({ code: 2, signal: 0 });
    expect(s.text()).toBe(
      'error: The token is not printed on a terminal unless you ask: add --show\nIn a script it is printed as it is: TOKEN=$(checkin auth token)',
    );
    expect(s.raw).not.toContain(sb.token);

    const shown = new Screen(['auth', 'token', '--show'], env);
    expect(await shown.exit()).toEqual({ code: 0, signal: 0 });
    expect(shown.text()).toBe(sb.token);

    const piped = new Screen(['auth', 'token'], env, undefined, '| cat');
    expect(await piped.exit()).toEqual({ code: 0, signal: 0 });
    expect(piped.text()).toBe(sb.token);
  });
});

describe('auth switch', () => {
  it('without a name, with three profiles: a choice of them on the terminal, the default marked; the one picked is the default', async () => {
    const { CHECKIN_TOKEN: _token, ...mine } = env;
    for (const name of ['default', 'work', 'client-a']) {
      const r = await cli(['login', '--profile', name, '--with-token'], mine, sb.token);
      expect(r.code, r.stderr).toBe(0);
    }
    const s = new Screen(['auth', 'switch'], mine);
    await s.waitFor('Which profile should be the default?');
    expect(s.text()).toContain('default (the default now)');
    expect(s.text()).toContain('client-a');
    s.type(KEY.down);
    await s.answer(/❯ work/, KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).toContain(`The default profile is now work (${sb.url}).`);
    const status = await cli(['auth', 'status'], mine);
    expect(status.stdout).toContain('  profile: work (the default: checkin auth switch)\n');
  });
});
