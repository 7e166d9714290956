// Questions asked of a person at a terminal. Commands get a Prompter; tests inject a scripted
// one. The real one loads the @inquirer prompts (./prompts.ts) only when a question is actually
// asked; in the accessible mode (io.accessible) the questions are plain lines instead
// (./plain-prompts.ts). A question's message says what is asked, never which keys to press: each
// prompter says how it is answered.

import { CancelledError } from '../errors.js';
import type { IO } from './io.js';
import type { Choice, Prompter } from './prompt-types.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import { plainInline } from './markdown.js';
import { plainPrompter } from './plain-prompts.js';

export type { Choice, Prompter } from './prompt-types.js';

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

/**
 * The real prompts (@inquirer's, ./prompts.ts), which write to the terminal themselves: every message,
 * default and choice passes the sanitiser first (a default can be the service's text).
 */
/** The prompter for this terminal: plain lines in the accessible mode, else the @inquirer prompts. */
export function terminalPrompter(io: IO): Prompter {
  return io.accessible ? accessiblePrompter(io) : inquirerPrompter(io);
}

/** The accessible mode's questions (./plain-prompts.ts), made when the first is asked. */
export function accessiblePrompter(io: IO): Prompter {
  let made: Promise<Prompter> | undefined;
  const get = () => (made ??= Promise.resolve(plainPrompter(io)));
  return {
    input: async (message, opts) => (await get()).input(message, opts),
    lines: async (message, opts) => (await get()).lines(message, opts),
    search: async (message, choices) => (await get()).search(message, choices),
    password: async (message) => (await get()).password(message),
    confirm: async (message, opts) => (await get()).confirm(message, opts),
    select: async (message, choices, opts) => (await get()).select(message, choices, opts),
    checkbox: async (message, choices) => (await get()).checkbox(message, choices),
  };
}

export function inquirerPrompter(io: IO): Prompter {
  const context = { input: io.stdin, output: io.stdout, clearPromptOnDone: false };
  const lib = () => import('./prompts.js');
  return {
    warm() {
      // After the requests being made now are on the wire (their connections are served before
      // the check phase): loading is CPU work, and would otherwise hold them back.
      setImmediate(() => {
        void lib().catch(() => undefined);
        void import('./lines-prompt.js').catch(() => undefined);
      });
    },
    async input(message, opts = {}) {
      const { input } = await lib();
      return guard(input({ message: sanitizeLine(message), ...(opts.default !== undefined && { default: sanitize(opts.default) }) }, context));
    },
    async lines(message, opts = {}) {
      const { linesPrompt } = await import('./lines-prompt.js');
      return guard(
        linesPrompt(
          {
            message: sanitizeLine(message),
            ...(opts.lines && { lines: opts.lines.map(sanitize) }),
            ...((opts.note || opts.keys) && { note: sanitizeLine([opts.note, opts.keys].filter(Boolean).join(' ')) }),
            ...(opts.onInput && { onInput: opts.onInput }),
          },
          context,
        ),
      );
    },
    async search<T>(message: string, choices: Choice<T>[]) {
      const { search } = await lib();
      const safe = choices.map((c) => ({ ...c, name: sanitizeLine(c.name) }));
      return guard(
        search<T>(
          {
            message: `${sanitizeLine(message)} (type to search)`,
            pageSize: 8,
            source: (term) => {
              const t = (term ?? '').trim().toLowerCase();
              if (!t) return safe;
              // Words that start with what was typed first, then any that contain it.
              const starts = safe.filter((c) =>
                c.name
                  .toLowerCase()
                  .split(/\s+/)
                  .some((w) => w.startsWith(t)),
              );
              return [...starts, ...safe.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(t))];
            },
          },
          context,
        ),
      );
    },
    async password(message) {
      const { password } = await lib();
      return guard(password({ message: sanitizeLine(message) }, context)); // no echo at all
    },
    async confirm(message, opts = {}) {
      const { confirm } = await lib();
      return guard(confirm({ message: sanitizeLine(message), default: opts.default ?? true }, context));
    },
    async checkbox<T>(message: string, choices: Array<Choice<T> & { checked?: boolean; group?: string }>) {
      const { checkbox, Separator } = await lib();
      const safe: Array<{ value: T; name: string; checked: boolean } | InstanceType<typeof Separator>> = [];
      let group: string | undefined;
      for (const c of choices) {
        if (c.group !== undefined && c.group !== group) safe.push(new Separator(sanitizeLine(c.group)));
        group = c.group;
        // Markdown shown as its words, one line.
        safe.push({ value: c.value, name: plainInline(sanitizeLine(c.name)), checked: Boolean(c.checked) });
      }
      // When done: how many were picked, not every name in one paragraph.
      const renderSelectedChoices = (picked: ReadonlyArray<unknown>) => `${picked.length} picked`;
      return guard(
        checkbox<T>(
          {
            message: `${sanitizeLine(message)} (Space picks or drops, Enter goes on)`,
            choices: safe,
            pageSize: Math.min(safe.length, 24),
            theme: { style: { renderSelectedChoices } },
          },
          context,
        ),
      );
    },
    async select<T>(message: string, choices: Choice<T>[], opts: { default?: T } = {}) {
      const { select } = await lib();
      const safe = choices.map((c) => ({ ...c, name: sanitizeLine(c.name), ...(c.description !== undefined && { description: sanitizeLine(c.description) }) }));
      return guard(
        select<T>({ message: sanitizeLine(message), choices: safe, pageSize: 12, ...(opts.default !== undefined && { default: opts.default }) }, context),
      );
    },
  };
}
