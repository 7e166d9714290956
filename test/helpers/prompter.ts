// A prompter that answers from a script and records what it was asked.
import { CancelledError } from '../../src/errors.js';
import type { Choice, Prompter } from '../../src/ui/prompter.js';

export interface Asked {
  kind: string;
  message: string;
  default?: unknown;
  choices?: string[];
}

/** Answers questions from a script; `CANCEL` acts like Ctrl-C at that prompt. */
export function scripted(answers: unknown[]): Prompter & { asked: Asked[] } {
  const asked: Asked[] = [];
  const next = (q: Asked) => {
    asked.push(q);
    if (answers.length === 0) throw new Error(`unexpected prompt: ${q.message}`);
    const a = answers.shift();
    if (a === 'CANCEL') throw new CancelledError();
    return a;
  };
  return {
    asked,
    input: async (message, opts) => next({ kind: 'input', message, default: opts?.default }) as string,
    lines: async (message, opts) => next({ kind: 'lines', message, default: opts?.lines?.join('\n') }) as string,
    search: async <T>(message: string, choices: Choice<T>[]) => next({ kind: 'search', message, choices: choices.map((c) => c.name) }) as T,
    password: async (message) => next({ kind: 'password', message }) as string,
    confirm: async (message, opts) => next({ kind: 'confirm', message, default: opts?.default }) as boolean,
    checkbox: async <T>(message: string, choices: Array<Choice<T> & { checked?: boolean }>) =>
      next({ kind: 'checkbox', message, choices: choices.map((c) => `${c.checked ? '[x]' : '[ ]'} ${c.name}`) }) as T[],
    select: async <T>(message: string, choices: Choice<T>[], opts?: { default?: T }) =>
      next({ kind: 'select', message, default: opts?.default, choices: choices.map((c) => c.name) }) as T,
  };
}
