// Opens the user's editor on a file, git-commit style: VISUAL, then EDITOR, then vi.
// Editor commands with arguments (`code --wait`) work: the command goes through the shell.

import { spawn } from 'node:child_process';
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

/** Writes `text` to a temporary `.md` file, opens the editor on it, and returns what was saved. */
export async function editText(text: string, env: NodeJS.ProcessEnv, name = 'CHECKIN.md'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'checkin-'));
  const file = join(dir, name);
  await writeFile(file, text, { mode: 0o600 });
  const editor = editorCommand(env);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child =
        process.platform === 'win32'
          ? spawn(`${editor} "${file}"`, { stdio: 'inherit', shell: true, env })
          : spawn('/bin/sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit', env });
      child.on('error', reject);
      child.on('close', resolve);
    });
    const saved = await readFile(file, 'utf8');
    if (code !== 0) throw new EditorError(`The editor (${editor}) exited with status ${code}; nothing was sent`, saved);
    return saved;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
