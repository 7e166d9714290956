// Questions asked of a person at a terminal. Commands get a Prompter; tests inject a scripted
// one. The real one loads @inquirer/prompts only when a question is actually asked.

import { CancelledError } from '../errors.js';
import type { IO } from './io.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  input(message: string, opts?: { default?: string }): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
  select<T>(message: string, choices: Choice<T>[], opts?: { default?: T }): Promise<T>;
}

function isCancel(err: unknown): boolean {
  const name = (err as Error)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError';
}

async function guard<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (isCancel(err)) throw new CancelledError();
    throw err;
  }
}

export function inquirerPrompter(io: IO): Prompter {
  const context = { input: io.stdin, output: io.stdout, clearPromptOnDone: false };
  const lib = () => import('@inquirer/prompts');
  return {
    async input(message, opts = {}) {
      const { input } = await lib();
      return guard(input({ message, ...(opts.default !== undefined && { default: opts.default }) }, context));
    },
    async password(message) {
      const { password } = await lib();
      return guard(password({ message }, context)); // no echo at all
    },
    async confirm(message, opts = {}) {
      const { confirm } = await lib();
      return guard(confirm({ message, default: opts.default ?? true }, context));
    },
    async select<T>(message: string, choices: Choice<T>[], opts: { default?: T } = {}) {
      const { select } = await lib();
      return guard(select<T>({ message, choices, pageSize: 12, ...(opts.default !== undefined && { default: opts.default }) }, context));
    },
  };
}
