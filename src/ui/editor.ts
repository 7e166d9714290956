// Opens the user's editor on a file, git-commit style: VISUAL, then EDITOR, then vi.
// Editor commands with arguments (`code --wait`) work: the command goes through the shell (the
// user's own setting; the file's name is passed as an argument, never as shell text). Standard
// input must be the terminal; when standard output is not (`checkin today -e | head`), the editor
// draws on the controlling terminal, as git commit's does.

import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EditorError } from '../errors.js';

/** Opens an editor on `text` and returns what was saved (tests inject their own). */
export interface Editor {
  edit(text: string): Promise<string>;
}

export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || (process.platform === 'win32' ? 'notepad' : 'vi');
}

/** Where the editor command came from, as a person reads it. */
function editorSource(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() ? 'VISUAL' : env.EDITOR?.trim() ? 'EDITOR' : 'the default editor';
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

/** Writes `text` to a temporary `.md` file, opens the editor on it, and returns what was saved. */
export async function editText(text: string, env: NodeJS.ProcessEnv, name = 'CHECKIN.md'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'checkin-'));
  const file = join(dir, name);
  await writeFile(file, text, { mode: 0o600 });
  const editor = editorCommand(env);
  const terminal = terminalStdio();
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child =
        process.platform === 'win32'
          ? spawn(`${editor} "${file}"`, { stdio: terminal.stdio, shell: true, env })
          : spawn('/bin/sh', ['-c', `${editor} "$@"`, editor, file], { stdio: terminal.stdio, env });
      child.on('error', reject);
      child.on('close', resolve);
    });
    const saved = await readFile(file, 'utf8');
    // The shell's "command not found" (127) and "not executable" (126).
    if (code === 127 || code === 126) throw new EditorError(`The editor "${editor}" (${editorSource(env)}) was not found or cannot run; nothing was sent`, saved, true);
    if (code !== 0) throw new EditorError(`The editor (${editor}) exited with status ${code}; nothing was sent`, saved);
    return saved;
  } finally {
    terminal.close();
    await rm(dir, { recursive: true, force: true });
  }
}
