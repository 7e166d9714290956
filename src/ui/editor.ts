// Opens the user's editor on a file, git-commit style: CHECKIN_EDITOR, then the editor setting
// (`checkin config set editor …`), then VISUAL, then EDITOR, then vi.
// Editor commands with arguments (`code --wait`) work: the command goes through the shell (the
// user's own setting; the file's name is passed as an argument, never as shell text). Standard
// input must be the terminal; when standard output is not (`checkin today -e | head`), the editor
// draws on the controlling terminal, as git commit's does.

import type { StdioOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { EditorError } from '../errors.js';

/** Opens an editor on `text` and returns what was saved (tests inject their own). */
export interface Editor {
  /** `file`: the file to write in (the outbox's own, so that what is saved is kept whatever happens to this process); default a private temp file. */
  edit(text: string, opts?: { file?: string; started?: (pid: number) => void }): Promise<string>;
}

/** The editor and where its command came from, as a person reads it; `configured` is the editor setting. */
function chooseEditor(env: NodeJS.ProcessEnv, configured?: string): { command: string; source: string } {
  const own = env.CHECKIN_EDITOR?.trim();
  if (own) return { command: own, source: 'CHECKIN_EDITOR' };
  if (configured?.trim()) return { command: configured.trim(), source: 'the editor setting' };
  for (const name of ['VISUAL', 'EDITOR']) {
    const v = env[name]?.trim();
    if (v) return { command: v, source: name };
  }
  return { command: process.platform === 'win32' ? 'notepad' : 'vi', source: 'the default editor' };
}

/** The editor's streams: the terminal for all three (the controlling one when stdout is redirected). */
function terminalStdio(): { stdio: StdioOptions; close(): void } {
  if (process.platform === 'win32') return { stdio: 'inherit', close: () => undefined };
  let fd: number | undefined;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch {
    return { stdio: 'inherit', close: () => undefined };
  }
  return { stdio: ['inherit', fd, fd], close: () => closeSync(fd) };
}

/**
 * Writes `text` to `opts.file` (or a temporary `.md` file), opens the editor on it, and returns
 * what was saved. A file given is left where it is: its owner (the outbox) removes it.
 */
export async function editText(
  text: string,
  env: NodeJS.ProcessEnv,
  opts: { name?: string; configured?: string; file?: string; started?: (pid: number) => void } = {},
): Promise<string> {
  const name = opts.name ?? 'CHECKIN.md';
  const [{ spawn }, { mkdtemp, readFile, rm, writeFile }, { tmpdir }] = await Promise.all([
    import('node:child_process'),
    import('node:fs/promises'),
    import('node:os'),
  ]);
  const dir = opts.file ? undefined : await mkdtemp(join(tmpdir(), 'checkin-'));
  const file = opts.file ?? join(dir!, name);
  await writeFile(file, text, { mode: 0o600 });
  const { command: editor, source } = chooseEditor(env, opts.configured);
  const terminal = terminalStdio();
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child =
        process.platform === 'win32'
          ? spawn(`${editor} "${file}"`, { stdio: terminal.stdio, shell: true, env })
          : // The shell waits for the editor whatever signal comes (`trap :` is a handler, not an
            // ignore: the editor gets each signal as usual), so checkin learns when the editor is done.
            spawn('/bin/sh', ['-c', `trap : INT TERM HUP; ${editor} "$@"`, editor, file], { stdio: terminal.stdio, env });
      child.on('error', reject);
      child.on('close', resolve);
      // The process that lives exactly as long as the editor (the shell waits for it whatever comes): the outbox records it.
      if (child.pid !== undefined) opts.started?.(child.pid);
    });
    const saved = await readFile(file, 'utf8');
    // The shell's "command not found" (127) and "not executable" (126).
    if (code === 127 || code === 126) throw new EditorError(`The editor "${editor}" (${source}) was not found or cannot run; nothing was sent`, saved, true);
    if (code !== 0) throw new EditorError(`The editor (${editor}) quit with status ${code ?? 'unknown'}, as vim's :cq does: nothing was sent`, saved);
    return saved;
  } finally {
    terminal.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
