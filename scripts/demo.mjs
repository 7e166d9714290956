// npm run demo: a local sandbox in this process, and the main job of checkin against it —
// fill in today's check-in (interactively on a terminal, scripted otherwise), show it, ask status.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
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
// The demo's own lines are dim as checkin decides colour (NO_COLOR, FORCE_COLOR, a terminal): plain
// when either stream is piped (`npm run demo | cat`), as the commands' own output is.
const { colorLevelFor } = createRequire(import.meta.url)('../dist/checkin.cjs');
const dim = colorLevelFor(process.env, Boolean(process.stdout.isTTY && process.stderr.isTTY)) > 0 ? (t) => `\x1b[2m${t}\x1b[0m` : (t) => t;

// On a terminal, the demo's own lines fit its width (broken at word edges, a long command continued
// with a backslash as a shell reads it); piped, they are written whole.
const columns = process.stderr.isTTY ? process.stderr.columns || 80 : 0;

/**
 * Words laid into lines of at most `columns`: a continuation line starts `indent` in, and every line
 * but the last ends with `tail` (within the width).
 */
function fold(words, { indent = '', tail = '' } = {}) {
  if (!columns) return words.join(' ');
  const lines = [];
  let line = '';
  for (const word of words) {
    if (line.trim() && line.length + 1 + word.length + tail.length > columns) {
      lines.push(line + tail);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** Prose to the terminal: each line folded at word edges. */
const say = (text) =>
  process.stderr.write(
    text
      .split('\n')
      .map((l) => fold(l.split(' ')))
      .join('\n'),
  );

/** An argument as a shell takes it back: bare, in double quotes, or $'…' when it holds a line break. */
const quoted = (a) => (/\n/.test(a) ? `$'${a.replace(/[\\']/g, '\\$&').replace(/\n/g, '\\n')}'` : /\s|^$/.test(a) ? JSON.stringify(a) : a);
const isFlag = (a) => /^--?[a-z]/i.test(a);

function checkin(args) {
  // A flag stays with its value when the command is continued on the next line.
  const parts = [];
  args.forEach((a, i) => {
    if (i > 0 && isFlag(args[i - 1]) && !isFlag(a)) parts[parts.length - 1] += ` ${quoted(a)}`;
    else parts.push(quoted(a));
  });
  process.stderr.write(`\n${dim(fold(['$ checkin', ...parts], { indent: '    ', tail: ' \\' }))}\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: interactive ? 'inherit' : ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code) => {
      process.stderr.write(`${dim(`(exit ${code})`)}\n`);
      resolve(code);
    });
  });
}

say(`A sandbox is answering at ${sb.url} as Ada Lovelace (token ${sb.token}).\n`);
try {
  await checkin(['status']);
  if (interactive) {
    say('Answer the questions (Enter keeps a suggestion; Ctrl-C keeps a draft):\n');
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
  say(
    '\nTry it yourself: `npm link --ignore-scripts` puts `checkin` on your PATH (the README says what to do ' +
      'if npm may not write there); then run `checkin sandbox` and paste the two export lines it prints into ' +
      'another shell.\n',
  );
} finally {
  await sb.close();
  rmSync(home, { recursive: true, force: true });
}
