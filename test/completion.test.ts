// Shell completion in a real bash: an interactive bash in a pseudo-terminal, the script sourced
// the way the README says, Tab pressed, and the screen read back.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';
import { BIN, cleanEnv, runCli } from './helpers/cli.js';
import { tempDir, trackExit } from './helpers/cleanup.js';

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  sb = await startSandbox({ rateLimit: false });
  // `checkin` on PATH, as an installed one would be.
  const bin = tempDir('checkin-bin-');
  writeFileSync(join(bin, 'checkin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'checkin'), 0o755);
  env = cleanEnv({ CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token, PATH: `${bin}:${process.env.PATH}` });
});
afterEach(async () => {
  await sb.close();
});

/** An interactive bash with the completion sourced; type() then read the screen. */
async function bash() {
  const term = new xterm.Terminal({ cols: 160, rows: 30, allowProposedApi: true });
  const shell = pty.spawn('bash', ['--norc', '--noprofile', '-i'], { name: 'xterm', cols: 160, rows: 30, env: { ...env, PS1: '$ ', TERM: 'xterm' } as Record<string, string> });
  trackExit(() => shell.kill('SIGKILL'), new Promise((resolve) => shell.onExit(resolve))); // killed if the test fails before close()
  let waiters: Array<() => void> = [];
  shell.onData((d) => term.write(d, () => (waiters.splice(0).forEach((w) => w()))));
  const text = () => {
    const b = term.buffer.active;
    return Array.from({ length: b.length }, (_, i) => b.getLine(i)?.translateToString(true) ?? '').join('\n').replace(/\n+$/, '');
  };
  const waitFor = (re: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bash never showed ${re}; screen:\n${text()}`)), 10_000);
      const check = () => (re.test(text()) ? (clearTimeout(timer), resolve()) : waiters.push(check));
      check();
    });
  await waitFor(/\$ $/);
  shell.write('source <(checkin completion bash)\r');
  await waitFor(/\$ \n\$ $|\$ $/);
  return { text, waitFor, type: (s: string) => shell.write(s), close: () => shell.kill() };
}

describe('completion in a real bash', () => {
  it('checkin to<Tab>, checkin today --mood fo<Tab>, checkin list --person <Tab><Tab> (names from the cache, no request)', async () => {
    // The directory of people and the goals are cached by earlier runs, as a user's would have done.
    expect((await runCli(['list', '--person', '@grace'], { env })).code).toBe(0);
    expect((await runCli(['goals'], { env })).code).toBe(0);
    const billing = sb.service.data.goals.find((g) => g.title === 'Ship the v2 billing API')!.id;
    sb.requests.length = 0;
    const b = await bash();
    try {
      b.type('checkin to\t');
      await b.waitFor(/\$ checkin today $/m);
      b.type('--mood fo\t');
      await b.waitFor(/\$ checkin today --mood focused $/m);
      b.type('\u0015'); // clear the line
      b.type('checkin list --person \t\t');
      await b.waitFor(/@grace/);
      const offered = b.text().split('\n').slice(-3).join(' ');
      for (const name of ['me', '@ada', '@grace', '@linus', '@margaret', '@alan']) expect(offered).toContain(name);
      b.type('\u0015checkin goal update \t\t');
      await b.waitFor(/create\s+delete\s+edit\s+help\s+list\s+view/);
      b.type('\u0015checkin goal update list \t');
      await b.waitFor(new RegExp(`\\$ checkin goal update list ${billing} $`, 'm'));
      // A Tab never sends a request.
      expect(sb.requests).toEqual([]);
    } finally {
      b.close();
    }
  });
});

describe('the other shells', () => {
  it('zsh, fish and PowerShell scripts are printed (and syntax-checked where the shell is installed)', async () => {
    const { execFileSync } = await import('node:child_process');
    const has = (cmd: string) => {
      try {
        execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    };
    for (const [shell, check] of [['zsh', ['zsh', '-n']], ['fish', ['fish', '--no-execute']], ['powershell', undefined]] as const) {
      const r = await runCli(['completion', shell], { env });
      expect(r.code, shell).toBe(0);
      expect(r.stdout, shell).toMatch(/checkin/);
      if (check && has(check[0])) {
        const file = join(tempDir('checkin-comp-'), `checkin.${shell}`);
        writeFileSync(file, r.stdout);
        execFileSync(check[0], [...check.slice(1), file]);
      }
    }
  });
});
