// The accessible mode's questions (CHECKIN_ACCESSIBLE, the `accessible` setting): plain lines a
// screen reader reads once, answered with lines the terminal itself echoes. Nothing is redrawn,
// erased or moved: every question is written once, top to bottom; a choice is a numbered list
// answered by its number (or its words), several choices by numbers separated by commas or spaces,
// a yes/no by y or n, and an answer of several lines ends with an empty line. The answers are the
// same values the key-driven prompts (./prompter.ts) give, so drafts, the editor and what is sent
// do not change. Loaded only when a question is asked in that mode.
import type { Interface } from 'node:readline';
import { CancelledError } from '../errors.js';
import type { IO } from './io.js';
import { plainInline } from './markdown.js';
import type { Choice, Prompter } from './prompt-types.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import { sentences } from './wrap.js';

type TtyIn = NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isRaw?: boolean };

/**
 * Standard input as lines, one reader for every question of the run (lines typed or pasted ahead
 * are kept for the next question). The stream flows only while a question waits, so that an
 * editor started between questions has the terminal to itself and the process can exit.
 */
class Lines {
  private rl: Interface | undefined;
  private readonly queue: string[] = [];
  private waiter: ((line: string | null) => void) | undefined;
  private ended = false;

  constructor(private readonly input: NodeJS.ReadableStream) {}

  private open(): Interface {
    if (this.rl) return this.rl;
    // Loaded here, where it is used (CONTRIBUTING.md "Start-up").
    const rl = process.getBuiltinModule('node:readline').createInterface({ input: this.input, terminal: false, crlfDelay: Infinity });
    rl.on('line', (line) => {
      const w = this.waiter;
      this.waiter = undefined;
      if (w) w(line);
      else this.queue.push(line);
      if (!this.waiter) rl.pause();
    });
    rl.on('close', () => {
      if (this.rl !== rl) return;
      this.ended = true;
      const w = this.waiter;
      this.waiter = undefined;
      w?.(null);
    });
    this.rl = rl;
    return rl;
  }

  /** The next line typed; null once standard input has ended (Ctrl-D). */
  next(): Promise<string | null> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift()!);
    if (this.ended) return Promise.resolve(null);
    const rl = this.open();
    return new Promise((resolve) => {
      this.waiter = resolve;
      rl.resume();
    });
  }

  /**
   * A line typed without being shown (a token): the terminal's echo is turned off for it (raw
   * mode: nothing is written, nothing erased), Backspace takes a character back, Enter ends it,
   * Ctrl-C or Ctrl-D cancels. Null when cancelled.
   */
  secret(): Promise<string | null> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift()!);
    if (this.ended) return Promise.resolve(null);
    // The line reader lets go of the stream while the characters are read one by one.
    const old = this.rl;
    this.rl = undefined;
    old?.close();
    const input = this.input as TtyIn;
    const wasRaw = Boolean(input.isRaw);
    return new Promise((resolve) => {
      let typed = '';
      // Standard input that ends or fails while the token is typed is a cancel, never a wait without end.
      const onEnd = () => finish(null);
      const finish = (value: string | null) => {
        input.off('data', onData);
        input.off('end', onEnd);
        input.off('error', onEnd);
        input.setRawMode?.(wasRaw);
        input.pause();
        resolve(value);
      };
      const onData = (chunk: Buffer | string) => {
        for (const ch of chunk.toString()) {
          if (ch === '\r' || ch === '\n') return finish(typed);
          if (ch === '\x03' || (ch === '\x04' && typed === '')) return finish(null);
          if (ch === '\x7f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
          else if (ch >= ' ') typed += ch;
        }
      };
      input.setRawMode?.(true);
      input.on('data', onData);
      input.once('end', onEnd);
      input.once('error', onEnd);
      input.resume();
    });
  }
}

/** "1, 3 5-7" → [1, 3, 5, 6, 7]; undefined when something in it is not a number or a range of them. */
export function parseNumbers(typed: string): number[] | undefined {
  const out: number[] = [];
  for (const part of typed.split(/[\s,]+/).filter(Boolean)) {
    // A hyphen or an en dash (escaped: a regular expression is written in ASCII).
    const range = /^(\d+)\s*[-\u2013]\s*(\d+)$/.exec(part);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (b < a || b - a > 1000) return undefined;
      for (let n = a; n <= b; n++) out.push(n);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
    else return undefined;
  }
  return out;
}

/** A choice's words without a leading emoji or symbol ("🧐 focused" → "focused"), for matching what was typed. */
const words = (name: string) => name.replace(/^[^\p{L}\p{N}]+/u, '').toLowerCase();

/**
 * Which choices `typed` names: its number; else the choices whose words are exactly it; else those
 * starting with it; else those with a word starting with it; else those containing it.
 */
export function matchChoice(typed: string, names: string[]): number[] {
  const t = typed.trim().toLowerCase();
  if (t === '') return [];
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    return n >= 1 && n <= names.length ? [n - 1] : [];
  }
  const all = names.map((n, i) => ({ i, full: n.toLowerCase(), bare: words(n) }));
  const exact = all.filter((c) => c.full === t || c.bare === t);
  if (exact.length > 0) return exact.map((c) => c.i);
  for (const fits of [(c: (typeof all)[number]) => c.bare.startsWith(t), (c: (typeof all)[number]) => c.bare.split(/\s+/).some((w) => w.startsWith(t))]) {
    const found = all.filter(fits);
    if (found.length > 0) return found.map((c) => c.i);
  }
  return all.filter((c) => c.full.includes(t)).map((c) => c.i);
}

const YES = ['y', 'yes'];
const NO = ['n', 'no'];

export function plainPrompter(io: IO): Prompter {
  const lines = new Lines(io.stdin);
  // Wrapped at word edges to the terminal: a question or a choice is never cut in the middle of a word.
  const say = (text: string) => io.out(sentences(text, io));
  /** Writes the question's last line (the answer is typed after it) and reads the answer; Ctrl-D cancels. */
  const ask = async (line: string): Promise<string> => {
    say(`${line} `);
    const typed = await lines.next();
    if (typed === null) {
      say('\n');
      throw new CancelledError();
    }
    return typed;
  };
  const head = (message: string) => say(`${sanitizeLine(message)}\n`);

  /** One of `choices`, by number or words; `def` (an index) is what Enter alone picks. */
  const choose = async (names: string[], def: number | undefined, hint: string): Promise<number> => {
    names.forEach((n, i) => say(`  ${i + 1}. ${n}\n`));
    const range = names.length === 1 ? 'the number 1' : `a number from 1 to ${names.length}`;
    const enter = def !== undefined ? ` (Enter alone picks ${def + 1}, ${names[def]})` : '';
    for (;;) {
      const typed = (await ask(`Type ${range}${hint}${enter}:`)).trim();
      if (typed === '' && def !== undefined) return def;
      const found = matchChoice(typed, names);
      if (found.length === 1) {
        say(`Chosen: ${found[0]! + 1}. ${names[found[0]!]}\n`);
        return found[0]!;
      }
      if (found.length > 1)
        say(`"${sanitizeLine(typed)}" fits ${found.length} of them: ${found.map((i) => `${i + 1}. ${names[i]}`).join('; ')}. Type one number.\n`);
      else say(typed === '' ? 'Nothing was chosen.\n' : `"${sanitizeLine(typed)}" is not one of them.\n`);
    }
  };

  return {
    async input(message, opts = {}) {
      const def = opts.default !== undefined ? sanitizeLine(opts.default) : '';
      const typed = await ask(`${sanitizeLine(message)}${def ? ` (Enter alone keeps "${def}")` : ''}:`);
      return typed === '' ? (opts.default ?? '') : typed;
    },

    async lines(message, opts = {}) {
      head(message);
      if (opts.note) say(`${sanitizeLine(opts.note)}\n`);
      // The lines as they are (what is kept is the person's text, untouched), shown sanitised.
      let start = [...(opts.lines ?? [])];
      let mode: 'new' | 'add' = 'new';
      if (start.length > 0) {
        say(`It says now (${start.length === 1 ? '1 line' : `${start.length} lines`}):\n`);
        for (const l of start) say(`  ${sanitize(l)}\n`);
        const how = await choose(
          ['Keep it as it is', 'Add lines after it', 'Keep only some of its lines, then add lines', 'Write it anew', 'Clear it'],
          0,
          ', or its words',
        );
        if (how === 0) return start.join('\n');
        if (how === 4) {
          opts.onInput?.('');
          return '';
        }
        if (how === 3) start = [];
        if (how === 2) {
          const numbered = start.map((l, i) => `${i + 1}. ${sanitize(l)}`);
          for (const l of numbered) say(`  ${l}\n`);
          const keep = await pickNumbers(start.length, [...start.keys()], 'Which lines to keep');
          start = start.filter((_, i) => keep.includes(i));
        }
        mode = start.length > 0 ? 'add' : 'new';
      }
      say(
        mode === 'add'
          ? 'Type the lines to add, one at a time; an empty line ends the answer.\n'
          : 'Type the answer, one line at a time; an empty line ends it.\n',
      );
      const typed: string[] = [];
      for (;;) {
        // No mark before each line: the instruction above said what to do, once.
        const line = await lines.next();
        if (line === null) throw new CancelledError();
        if (line === '') break;
        typed.push(line);
        opts.onInput?.([...start, ...typed].join('\n'));
      }
      return [...start, ...typed].join('\n');
    },

    async search<T>(message: string, choices: Choice<T>[]) {
      head(message);
      const i = await choose(
        choices.map((c) => sanitizeLine(c.name)),
        0,
        ', or some of its words',
      );
      return choices[i]!.value;
    },

    async password(message) {
      // The echo is off before the question shows: nothing typed after it is ever shown.
      const reading = lines.secret();
      say(`${sanitizeLine(message)} (not shown as it is typed; Enter ends it) `);
      const typed = await reading;
      say('\n');
      if (typed === null) throw new CancelledError();
      return typed;
    },

    async confirm(message, opts = {}) {
      const def = opts.default ?? true;
      for (;;) {
        const typed = (await ask(`${sanitizeLine(message)} (y or n; Enter alone: ${def ? 'y' : 'n'}):`)).trim().toLowerCase();
        if (typed === '') return def;
        if (YES.includes(typed)) return true;
        if (NO.includes(typed)) return false;
        say(`"${sanitizeLine(typed)}": type y for yes or n for no.\n`);
      }
    },

    async select<T>(message: string, choices: Choice<T>[], opts: { default?: T } = {}) {
      head(message);
      const names = choices.map((c) => `${sanitizeLine(c.name)}${c.description ? ` (${sanitizeLine(c.description)})` : ''}`);
      const at = opts.default !== undefined ? choices.findIndex((c) => c.value === opts.default) : 0;
      const i = await choose(names, at >= 0 ? at : 0, ', or its words');
      return choices[i]!.value;
    },

    async checkbox<T>(message: string, choices: Array<Choice<T> & { checked?: boolean; group?: string }>) {
      head(message);
      let group: string | undefined;
      choices.forEach((c, i) => {
        if (c.group !== undefined && c.group !== group) say(`${sanitizeLine(c.group)}:\n`);
        group = c.group;
        say(`  ${i + 1}. ${c.checked ? '(picked) ' : ''}${plainInline(sanitizeLine(c.name))}\n`);
      });
      const picked = await pickNumbers(
        choices.length,
        choices.flatMap((c, i) => (c.checked ? [i] : [])),
        'The numbers to pick',
      );
      return picked.map((i) => choices[i]!.value);
    },
  };

  /** Several of `count` numbered items (0-based indexes back): Enter alone keeps `picked`; "all", "none" or numbers. */
  async function pickNumbers(count: number, picked: number[], what: string): Promise<number[]> {
    const now = picked.length === 0 ? 'none' : picked.length === count ? 'all' : picked.map((i) => i + 1).join(', ');
    for (;;) {
      const typed = (await ask(`${what}, separated by commas or spaces, or "all" or "none" (Enter alone: ${now}):`)).trim().toLowerCase();
      let chosen: number[] | undefined;
      if (typed === '') chosen = picked;
      else if (typed === 'all') chosen = [...Array(count).keys()];
      else if (typed === 'none') chosen = [];
      else {
        const ns = parseNumbers(typed);
        if (ns && ns.every((n) => n >= 1 && n <= count)) chosen = [...new Set(ns)].sort((a, b) => a - b).map((n) => n - 1);
      }
      if (chosen) {
        say(chosen.length === 0 ? 'None picked.\n' : `Picked ${chosen.length} of ${count}: ${chosen.map((i) => i + 1).join(', ')}.\n`);
        return chosen;
      }
      say(`"${sanitizeLine(typed)}" is not a list of numbers from 1 to ${count}.\n`);
    }
  }
}
