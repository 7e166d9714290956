// The pager, on a real pseudo-terminal: long output goes through CHECKIN_PAGER / the pager setting /
// PAGER only when stdout is a terminal; never when piped, with --no-pager, with "" or "cat", or for
// the wizard. A stand-in pager (a script) records that it ran, with what arguments and environment,
// and everything it was given; the screen shows what reached the terminal directly.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tempDir } from '../helpers/cleanup.js';
import { runCli } from '../helpers/cli.js';
import { useSandboxEnv } from '../helpers/sandbox-env.js';
import { KEY, Screen } from '../helpers/terminal.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
useSandboxEnv((s, e) => {
  sb = s;
  // The tests' environment turns the pager off (CHECKIN_PAGER=""): here each test says what it wants.
  env = e;
  delete env.CHECKIN_PAGER;
});

/** A stand-in pager: `<script> <record> [args…]` writes its args and environment to <record>.env, what it is given to <record>, and one line on the terminal. */
function standIn(body = 'cat > "$rec"\necho "[stand-in pager: $(wc -l < "$rec") lines]"'): {
  command: string;
  rec: string;
  ran: () => boolean;
  given: () => string;
  env: () => string;
} {
  const dir = tempDir('checkin-pager-');
  const script = join(dir, 'pager.sh');
  const rec = join(dir, 'given');
  writeFileSync(
    script,
    `#!/bin/sh\nrec="$1"\nshift\nprintf 'args=%s|LESS=%s|LV=%s|LESSCHARSET=%s|PAGER=%s\\n' "$*" "$LESS" "$LV" "$LESSCHARSET" "\${PAGER-unset}" > "$rec.env"\n${body}\n`,
  );
  chmodSync(script, 0o755);
  return {
    // Quoted as the splitting rule reads it (ui/pager.ts): the folder's name has no quote in it.
    command: `'${script}' '${rec}' --from "the test"`,
    rec,
    ran: () => existsSync(`${rec}.env`),
    given: () => readFileSync(rec, 'utf8'),
    env: () => readFileSync(`${rec}.env`, 'utf8'),
  };
}

const names = () => sb.service.data.people.map((p) => p.name);
const SGR = /\x1b\[[0-9;]*m/;

describe('the pager', () => {
  it('on a terminal, a listing goes through CHECKIN_PAGER (split without a shell), with LESS and LV set and PAGER not passed on', async () => {
    const pager = standIn();
    const s = new Screen(['people'], { ...env, CHECKIN_PAGER: pager.command, PAGER: 'should-not-be-used' });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(pager.env()).toBe('args=--from the test|LESS=FRX|LV=-c|LESSCHARSET=utf-8|PAGER=unset\n');
    // Everything went to the pager (in colour: it is a terminal's output), nothing straight to the screen.
    for (const name of names()) expect(pager.given()).toContain(name);
    expect(pager.given()).toMatch(SGR);
    expect(s.text()).not.toMatch(SGR);
    for (const name of names()) expect(s.text()).not.toContain(name);
  });

  it("the user's own LESS, LV and LESSCHARSET are kept", async () => {
    const pager = standIn();
    const s = new Screen(['people'], { ...env, CHECKIN_PAGER: pager.command, LESS: '-S', LV: '-a', LESSCHARSET: 'latin1' });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(pager.env()).toBe('args=--from the test|LESS=-S|LV=-a|LESSCHARSET=latin1|PAGER=unset\n');
  });

  it('never when stdout is piped: the output is printed as it is', async () => {
    const pager = standIn();
    const r = await runCli(['people'], { env: { ...env, CHECKIN_PAGER: pager.command } });
    expect(r.code).toBe(0);
    for (const name of names()) expect(r.stdout).toContain(name);
    expect(pager.ran()).toBe(false);
    // The same on a terminal whose output goes on through a pipe.
    const s = new Screen(['people'], { ...env, CHECKIN_PAGER: pager.command }, undefined, '| cat');
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    for (const name of names()) expect(s.text()).toContain(name);
    expect(pager.ran()).toBe(false);
  });

  it('never with --no-pager (before or after the command), CHECKIN_PAGER="" or "cat"', async () => {
    const pager = standIn();
    for (const [args, extra] of [
      [['--no-pager', 'people'], { CHECKIN_PAGER: pager.command }],
      [['people', '--no-pager'], { CHECKIN_PAGER: pager.command }],
      [['people'], { CHECKIN_PAGER: '', PAGER: pager.command }],
      [['people'], { CHECKIN_PAGER: 'cat', PAGER: pager.command }],
    ] as const) {
      const s = new Screen([...args], { ...env, ...extra });
      expect(await s.exit()).toEqual({ code: 0, signal: 0 });
      for (const name of names()) expect(s.text()).toContain(name);
      expect(pager.ran()).toBe(false);
    }
  });

  it('the pager setting comes before PAGER, after CHECKIN_PAGER; set to "" it turns paging off', async () => {
    const fromSetting = standIn();
    const fromPager = standIn();
    const set = await runCli(['config', 'set', 'pager', fromSetting.command], { env });
    expect(set).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const s = new Screen(['people'], { ...env, PAGER: fromPager.command });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(fromSetting.ran()).toBe(true);
    expect(fromPager.ran()).toBe(false);
    // CHECKIN_PAGER wins over the setting.
    const fromEnv = standIn();
    const first = new Screen(['people'], { ...env, CHECKIN_PAGER: fromEnv.command });
    expect(await first.exit()).toEqual({ code: 0, signal: 0 });
    expect(fromEnv.ran()).toBe(true);

    expect((await runCli(['config', 'set', 'pager', ''], { env })).code).toBe(0);
    const off = new Screen(['people'], { ...env, PAGER: fromPager.command });
    expect(await off.exit()).toEqual({ code: 0, signal: 0 });
    for (const name of names()) expect(off.text()).toContain(name);
    expect(fromPager.ran()).toBe(false);

    // Unset: PAGER is used.
    expect((await runCli(['config', 'unset', 'pager'], { env })).code).toBe(0);
    const again = new Screen(['people'], { ...env, PAGER: fromPager.command });
    expect(await again.exit()).toEqual({ code: 0, signal: 0 });
    expect(fromPager.ran()).toBe(true);
  });

  it('a pager quit before the output ends (EPIPE) is not an error: exit 0, nothing said', async () => {
    // A check-in far longer than a pipe holds, and a pager that reads a little and quits.
    const me = sb.service.data.tokens[0]!.person_id;
    const mine = sb.service.data.check_ins.filter((c) => c.person_id === me && c.completed_at).sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
    mine.previous = Array.from({ length: 6000 }, (_, i) => `- Line ${i} of a very long check-in, to fill the pipe to the pager`).join('\n');
    const pager = standIn('head -c 100 > "$rec"\necho "[quit early]"');
    const s = new Screen(['checkin', mine.date], { ...env, CHECKIN_PAGER: pager.command });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    // Nothing but what the pager itself printed (when the terminal has shown it by the time all have exited).
    expect(s.text().replace('[quit early]', '')).toBe('');
    expect(Buffer.byteLength(pager.given())).toBe(100);
  });

  it('a pager that cannot start: a warning, and the output printed directly, none of it lost', async () => {
    const s = new Screen(['people'], { ...env, CHECKIN_PAGER: '/nonexistent/pager -R' });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).toContain('warning: /nonexistent/pager could not be started (ENOENT); printing without a pager');
    const direct = new Screen(['people', '--no-pager'], env);
    expect(await direct.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text().replace(/^warning: .*\n/m, '')).toBe(direct.text());
  });

  it('a pager command with an unclosed quote: a warning, and the output printed directly', async () => {
    const s = new Screen(['people'], { ...env, CHECKIN_PAGER: "less '-R" });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).toContain(`warning: The command "less '-R" has a single quote that is never closed; printing without a pager`);
    for (const name of names()) expect(s.text()).toContain(name);
  });

  it('each listing and view goes through the pager', async () => {
    const data = sb.service.data;
    const me = data.tokens[0]!.person_id;
    const commented = data.check_ins.find((c) => data.comments.some((m) => m.resource.type === 'check-in' && m.resource.id === c.id))!;
    const update = data.goal_updates[0]!;
    const mine = data.check_ins.filter((c) => c.person_id === me && c.completed_at).sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
    const commands = [
      ['list'],
      ['checkin', mine.date],
      ['team'],
      ['teams'],
      ['goals'],
      ['goal', 'update', 'list', update.goal_id],
      ['goal', 'update', 'view', update.id],
      ['inbox', '--all'],
      ['comments', commented.id],
      ['report'],
      ['people'],
      ['activity'],
    ];
    for (const args of commands) {
      const pager = standIn();
      const s = new Screen(args, { ...env, CHECKIN_PAGER: pager.command });
      expect({ args, exit: await s.exit() }).toEqual({ args, exit: { code: 0, signal: 0 } });
      expect({ args, ran: pager.ran() }).toEqual({ args, ran: true });
      expect(pager.given().length).toBeGreaterThan(0);
    }
  });

  it('never for the wizard: its questions are on the terminal', async () => {
    const pager = standIn();
    const s = new Screen(['today'], { ...env, CHECKIN_PAGER: pager.command });
    await s.waitFor('What went on since your last check-in?');
    s.type(KEY.ctrlC);
    expect(await s.exit()).toEqual({ code: 130, signal: 0 });
    expect(pager.ran()).toBe(false);
  });
});

describe('the default pager, less -FRX', () => {
  const longCheckIn = () => {
    const me = sb.service.data.tokens[0]!.person_id;
    const mine = sb.service.data.check_ins.filter((c) => c.person_id === me && c.completed_at).sort((a, b) => (a.date < b.date ? 1 : -1))[0]!;
    mine.previous = Array.from({ length: 200 }, (_, i) => `- Line ${i}`).join('\n');
    return mine.date;
  };

  it('output that fits on the screen is printed as it is (emoji too, with LANG=C) and less quits by itself', async () => {
    const s = new Screen(['list'], env);
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    const direct = new Screen(['list', '--no-pager'], env);
    expect(await direct.exit()).toEqual({ code: 0, signal: 0 });
    expect(s.text()).toBe(direct.text());
    expect(s.text()).toMatch(/\p{Extended_Pictographic}/u);
  });

  it('longer output: less shows the first screenful; q quits it, and checkin exits 0', async () => {
    const s = new Screen(['checkin', longCheckIn()], env, { cols: 100, rows: 20 });
    await s.waitFor('- Line 5');
    expect(s.text()).not.toContain('- Line 150');
    s.type('q');
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
  });
});

describe('a signal while the pager runs', () => {
  // Once in about 24 runs under CI's load (three files at a time) checkin ended with 0 instead of by
  // the signal; not reproduced alone (8 of 8 on Node 22). Tried again so a load race does not fail CI;
  // a checkin that never ends by the signal still fails every try.
  it('Ctrl-C reaches both: checkin waits until the pager exits, then ends by the signal', { retry: 2 }, async () => {
    // A pager that, like less, does not end on Ctrl-C, and waits for Enter before it exits.
    // On its way out it notes whether checkin (its parent) is still there.
    const pager = standIn(
      `cat > "$rec"\ntrap 'echo "[pager: interrupted]"' INT\necho "[pager: waiting]"\nwhile ! read line < /dev/tty; do :; done\nif kill -0 $PPID 2>/dev/null; then echo there > "$rec.parent"; else echo gone > "$rec.parent"; fi`,
    );
    const s = new Screen(['people'], { ...env, CHECKIN_PAGER: pager.command });
    await s.waitFor('[pager: waiting]');
    s.type(KEY.ctrlC);
    await s.waitFor('[pager: interrupted]');
    s.type(KEY.enter);
    expect(await s.exit()).toEqual({ code: 0, signal: 2 });
    expect(readFileSync(`${pager.rec}.parent`, 'utf8')).toBe('there\n');
    for (const name of names()) expect(pager.given()).toContain(name);
  });

  it('the accessible mode has no default pager (less redraws); a pager chosen is still used', async () => {
    // A stand-in `less` first on PATH: the default pager, as checkin finds it.
    const pager = standIn();
    const bin = tempDir('checkin-less-');
    writeFileSync(join(bin, 'less'), `#!/bin/sh\nexec ${pager.command}\n`);
    chmodSync(join(bin, 'less'), 0o755);
    const path = `${bin}:${env.PATH}`;
    delete env.PAGER;
    const plain = new Screen(['people'], { ...env, PATH: path, CHECKIN_ACCESSIBLE: '1' });
    expect(await plain.exit()).toEqual({ code: 0, signal: 0 });
    expect(pager.ran()).toBe(false);
    for (const n of names()) expect(plain.text()).toContain(n);
    // Without the mode, the same run goes through the default pager; in it, a pager chosen is used.
    const normal = new Screen(['people'], { ...env, PATH: path });
    expect(await normal.exit()).toEqual({ code: 0, signal: 0 });
    expect(pager.ran()).toBe(true);
    const chosen = standIn();
    const s = new Screen(['people'], { ...env, CHECKIN_ACCESSIBLE: '1', CHECKIN_PAGER: chosen.command });
    expect(await s.exit()).toEqual({ code: 0, signal: 0 });
    expect(chosen.ran()).toBe(true);
  });
});
