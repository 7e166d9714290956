// npm run demo: a local sandbox in this process, and the main job of checkin against it —
// fill in today's check-in (interactively on a terminal, scripted otherwise), show it, ask status.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox.js';

const bin = fileURLToPath(new URL('../bin/checkin.js', import.meta.url));
const sb = await startSandbox();
const home = mkdtempSync(join(tmpdir(), 'checkin-demo-'));
// No pager (CHECKIN_PAGER empty): the demo prints each answer whole and ends at the shell's prompt,
// never stopped in `less` waiting for a q the newcomer does not know to press.
const env = { ...process.env, CHECKIN_API_URL: sb.url, CHECKIN_TOKEN: sb.token, CHECKIN_CONFIG_DIR: join(home, 'config'), CHECKIN_PAGER: '' };
delete env.CHECKIN_NO_PROMPT;
const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);

function checkin(args) {
  process.stderr.write(`\n\x1b[2m$ checkin ${args.map((a) => (/\s|^$/.test(a) ? JSON.stringify(a) : a)).join(' ')}\x1b[0m\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: interactive ? 'inherit' : ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => {
      process.stderr.write(`\x1b[2m(exit ${code})\x1b[0m\n`);
      resolve(code);
    });
  });
}

process.stderr.write(`A sandbox is answering at ${sb.url} as Ada Lovelace (token ${sb.token}).\n`);
try {
  await checkin(['status']);
  if (interactive) {
    process.stderr.write('Answer the questions (Enter keeps a suggestion; Ctrl-C keeps a draft):\n');
    await checkin(['today']);
  } else {
    await checkin([
      'today',
      '-p',
      '- Reviewed the billing webhooks',
      '-i',
      '- Pair with @linus on the flaky test\n- Write the migration',
      '-b',
      '',
      '--mood',
      'focused',
      '--done',
    ]);
  }
  await checkin(['today']);
  await checkin(['status']);
  await checkin(['today', '--json']);
  process.stderr.write(
    '\nTry it yourself: `npm link --ignore-scripts` puts `checkin` on your PATH (the README says what to do\n' +
      'if npm may not write there); then run `checkin sandbox` and paste the export line it prints into\n' +
      'another shell.\n',
  );
} finally {
  await sb.close();
  rmSync(home, { recursive: true, force: true });
}
