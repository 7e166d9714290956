// What a Tab offers for the words typed so far, worked out from the command tree commander
// already holds: `completionTree` walks the program once (its visible commands, options and
// arguments, as --help shows them) into paths, and each option and argument may get a handler
// that offers values. Nothing reaches stdout but through `io`.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Command as PlainCommand } from 'commander';

export type Complete = (value: string, description: string) => void;
type Handler = (complete: Complete) => void;

export interface Option {
  value: string;
  description: string;
  /** The short flag's letter, if any. */
  alias?: string;
  /** Takes no value. */
  isBoolean: boolean;
  handler?: Handler;
}

export interface Argument {
  name: string;
  variadic: boolean;
  handler?: Handler;
}

export interface Command {
  /** Its path from the root ("goal update create"); '' for the root. */
  value: string;
  description: string;
  options: Map<string, Option>;
  arguments: Map<string, Argument>;
}

export interface RootCommand extends Command {
  /** Every command by its path. */
  commands: Map<string, Command>;
}

/** One command's options and arguments, as its help lists them; a value among fixed choices is offered. */
function nodeOf(path: string, c: PlainCommand): Command {
  const node: Command = { value: path, description: c.description() || '', options: new Map(), arguments: new Map() };
  for (const o of c.createHelp().visibleOptions(c)) {
    const name = o.long?.slice(2);
    if (!name) continue;
    const alias = o.short && !o.short.startsWith('--') ? o.short.slice(1) : undefined;
    const choices = o.argChoices ?? [];
    const takesValue = o.required || o.optional;
    node.options.set(name, {
      value: name,
      description: o.description,
      ...(alias && { alias }),
      isBoolean: !takesValue,
      ...(takesValue && choices.length > 0 && { handler: (complete: Complete) => choices.forEach((v) => complete(v, '')) }),
    });
  }
  for (const a of c.registeredArguments) {
    const choices = a.argChoices ?? [];
    node.arguments.set(a.name(), {
      name: a.name(),
      variadic: a.variadic,
      ...(choices.length > 0 && { handler: (complete: Complete) => choices.forEach((v) => complete(v, '')) }),
    });
  }
  return node;
}

/** The program's tree of visible commands, by path (the root at ''). */
export function completionTree(program: CommandUnknownOpts): RootCommand {
  const root = program as unknown as PlainCommand;
  const commands = new Map<string, Command>();
  const walk = (c: PlainCommand, path: string) => {
    if (path !== '') commands.set(path, nodeOf(path, c));
    for (const sub of c.createHelp().visibleCommands(c)) walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(root, '');
  return { ...nodeOf('', root), commands };
}

export interface Found {
  value: string;
  description?: string;
}

function findOption(command: Command, word: string): Option | undefined {
  const option = command.options.get(word) ?? command.options.get(word.replace(/^-+/, ''));
  if (option) return option;
  for (const o of command.options.values()) if (o.alias && `-${o.alias}` === word) return o;
  return undefined;
}

/** The option `word` names on the root or, failing that, on any command. */
function anyOption(root: RootCommand, word: string): Option | undefined {
  const own = findOption(root, word);
  if (own) return own;
  for (const command of root.commands.values()) {
    const o = findOption(command, word);
    if (o) return o;
  }
  return undefined;
}

/** The words that are not options or an option's value. */
function withoutOptions(root: RootCommand, words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    const word = words[i]!;
    if (!word.startsWith('-')) {
      out.push(word);
      i++;
      continue;
    }
    i++;
    const boolean = anyOption(root, word)?.isBoolean ?? false;
    if (!boolean && i < words.length && !words[i]!.startsWith('-')) i++;
  }
  return out;
}

/** The deepest command the words name (the root when none). */
function commandOf(root: RootCommand, words: string[]): Command {
  const path: string[] = [];
  let found: Command | undefined;
  for (const word of withoutOptions(root, words)) {
    path.push(word);
    const c = root.commands.get(path.join(' '));
    if (!c) break;
    found = c;
  }
  return found ?? root;
}

function collect(run: (complete: Complete) => void): Found[] {
  const out: Found[] = [];
  run((value, description) => out.push({ value, description }));
  return out;
}

/**
 * The word being completed (`typed`: '' after a space) and every candidate for it, before any
 * filtering by what was typed: an option's values, flags, subcommands, or an argument's values.
 * `words` ends with the word being completed.
 */
export function completionsFor(root: RootCommand, words: string[]): { typed: string; found: Found[] } {
  const rest = [...words];
  const afterSpace = rest.at(-1) === '';
  if (afterSpace) rest.pop();
  let typed = rest.at(-1) ?? '';
  const previous = rest.slice(0, -1);
  if (afterSpace) {
    if (typed !== '') previous.push(typed);
    typed = '';
  }
  const command = commandOf(root, previous);
  const last = previous.at(-1);

  if (typed.startsWith('-') || (last?.startsWith('-') && !anyOption(root, last)?.isBoolean)) {
    // The value of an option: `--mood=gr` or `--mood gr`.
    let name: string | undefined;
    // The program's own options (--profile) are taken after any command too.
    const optionOf = (word: string) => findOption(command, word) ?? findOption(root, word);
    if (typed.includes('=')) name = typed.split('=')[0];
    else if (last?.startsWith('-')) {
      const o = optionOf(last);
      if (o && !o.isBoolean) name = last;
    }
    if (name) {
      const o = optionOf(name);
      return { typed, found: o?.handler ? collect(o.handler) : [] };
    }
    // A flag: `-m` by its alias, `--mo` by its name.
    const found: Found[] = [];
    if (typed.startsWith('-')) {
      const short = !typed.startsWith('--');
      const stem = typed.replace(/^-+/, '');
      for (const [key, o] of command.options) {
        if (short && o.alias && `-${o.alias}`.startsWith(typed)) found.push({ value: `-${o.alias}`, description: o.description });
        else if (!short && key.startsWith(stem)) found.push({ value: `--${key}`, description: o.description });
      }
    }
    return { typed, found };
  }

  const found: Found[] = [];
  const plain = withoutOptions(root, previous);
  // A subcommand: the next word of a command's path that starts as the words typed do.
  for (const [path, c] of root.commands) {
    if (path === '') continue;
    const parts = path.split(' ');
    if (parts.slice(0, plain.length).every((p, i) => p === plain[i]) && parts[plain.length]?.startsWith(typed))
      found.push({ value: parts[plain.length]!, description: c.description });
  }
  // A positional argument: the one at this place, or the last when it takes many.
  const args = [...command.arguments.values()];
  if (args.length > 0) {
    const at = Math.max(0, plain.length - command.value.split(' ').length);
    const arg = at < args.length ? args[at] : args.at(-1)!.variadic ? args.at(-1) : undefined;
    if (typeof arg?.handler === 'function') found.push(...collect(arg.handler));
  }
  return { typed, found };
}
