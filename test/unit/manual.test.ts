// The manual (docs/commands/, made by `npm run docs` from the commands' own definitions) against the
// program as it is: every command and flag has its page and its line, no page names a command or a
// flag that does not exist, and the files on disk are what the generator makes now (not stale).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script of the repository, without types
import { commandsOf, renderManual } from '../../scripts/docs.mjs';
import { EXIT } from '../../src/errors.js';
import { manualProgram } from '../../src/main.js';
import { helpTopic } from '../../src/program.js';
import { ROOT } from '../helpers/cli.js';

const program = await manualProgram();
const commands = (commandsOf as (p: CommandUnknownOpts) => CommandUnknownOpts[])(program);
const files = (renderManual as (p: CommandUnknownOpts, e: typeof EXIT) => Map<string, string>)(program, EXIT);
const pathOf = (cmd: CommandUnknownOpts): string[] => (cmd.parent ? [...pathOf(cmd.parent), cmd.name()] : []);
const DIR = join(ROOT, 'docs', 'commands');
const onDisk = readdirSync(DIR).filter((f) => f.endsWith('.md'));
const read = (file: string) => readFileSync(join(DIR, file), 'utf8');
/** Every `--flag` a command accepts: its own, its ancestors' (--debug, --no-pager) and --help. */
const flagsOf = (cmd: CommandUnknownOpts | null): string[] =>
  cmd ? [...cmd.options.flatMap((o) => [o.long, o.short]), ...flagsOf(cmd.parent)].filter((f): f is string => !!f) : ['--help', '-h'];
const NOT_A_FLAG = /^--(json|version)$/; // named in JSON-field headings and the root's help

describe('the manual (docs/commands/)', () => {
  it('has a page for every command and subcommand, and one flag line for each of its options', () => {
    expect(commands.length).toBeGreaterThan(40);
    const missing: string[] = [];
    for (const cmd of commands) {
      const file = `checkin-${pathOf(cmd).join('-')}.md`;
      if (!existsSync(join(DIR, file))) {
        missing.push(`${file} (checkin ${pathOf(cmd).join(' ')})`);
        continue;
      }
      const page = read(file);
      for (const o of cmd.options.filter((o) => !o.hidden)) if (!page.includes(`| \`${o.flags}\` |`)) missing.push(`${file}: ${o.flags}`);
      for (const a of cmd.registeredArguments) if (!page.includes(`\`${a.name()}`)) missing.push(`${file}: <${a.name()}>`);
    }
    expect(missing, 'run `npm run docs`').toEqual([]);
    expect(read('README.md')).toContain('(checkin-today.md)');
  });

  it('names no command and no flag that does not exist', () => {
    const byPath = new Map(commands.map((c) => [pathOf(c).join(' '), c]));
    const wrong: string[] = [];
    for (const file of onDisk.filter((f) => f !== 'README.md' && f !== 'checkin-help.md')) {
      const cmd = byPath.get(file.slice('checkin-'.length, -'.md'.length).replace(/-/g, ' '));
      // A page's name is its command's words joined by "-", which a command's own "-" would blur: match on the title.
      const title = /^# checkin (.*)$/m.exec(read(file))?.[1];
      const named = cmd ?? (title ? byPath.get(title) : undefined);
      if (!named) {
        wrong.push(`${file}: no such command`);
        continue;
      }
      const known = new Set(flagsOf(named));
      const table = read(file)
        .split('\n')
        .filter((l) => l.startsWith('| `-'));
      for (const line of table)
        for (const [, flag = ''] of line.split(' | ')[0]!.matchAll(/[`\s](--?[a-zA-Z][\w-]*)/g))
          if (!known.has(flag) && !NOT_A_FLAG.test(flag)) wrong.push(`${file}: ${flag}`);
    }
    // The index and the topics: every `checkin <command …>` in a code span or an example is a command.
    const texts = ['README.md', 'checkin-help.md']
      .map(read)
      .concat(readdirSync(join(ROOT, 'docs', 'topics')).map((f) => readFileSync(join(ROOT, 'docs', 'topics', f), 'utf8')));
    const top = new Set([...program.commands.map((c) => c.name()), 'help']);
    for (const text of texts) for (const m of text.matchAll(/`checkin ([a-z][\w-]*)/g)) if (!top.has(m[1]!)) wrong.push(`\`checkin ${m[1]}\``);
    expect(wrong).toEqual([]);
  });

  it('is what `npm run docs` makes now: the pages, the index, the man pages and src/help-topics.ts are not stale', () => {
    const stale = [...files].filter(([path, text]) => !existsSync(join(ROOT, path)) || readFileSync(join(ROOT, path), 'utf8') !== text).map(([path]) => path);
    const extra = [...onDisk.map((f) => `docs/commands/${f}`), ...readdirSync(join(ROOT, 'man')).map((f) => `man/${f}`)].filter((p) => !files.has(p));
    expect({ stale, extra }, 'run `npm run docs` and commit what it changes').toEqual({ stale: [], extra: [] });
  });

  it('pages are deterministic: no dates, no paths of this machine', () => {
    for (const [path, text] of [...files].filter(([p]) => p.startsWith('docs/commands/') || p.startsWith('man/'))) {
      expect(text, path).not.toMatch(/\/(home|tmp|work|Users)\//);
      expect(text, path).not.toMatch(/\b20\d\d-\d\d-\d\dT/);
    }
  });
});

describe('checkin help <topic>', () => {
  it('prints a topic, lists them, and leaves `checkin help <command>` to commander', async () => {
    const topic = readFileSync(join(ROOT, 'docs', 'topics', 'exit-codes.md'), 'utf8');
    expect(await helpTopic(['help', 'exit-codes'])).toEqual({ text: topic, markdown: true });
    expect((await helpTopic(['help', 'topics']))?.markdown).toBe(false);
    expect((await helpTopic(['help', 'topics']))?.text).toMatch(
      /^Topics \(checkin help <topic>\):\n {2}agents {16}Using checkin from a coding agent \(MCP\)\n(.*\n)* {2}environment {11}Environment\n/,
    );
    expect(await helpTopic(['help', 'sandbox'])).toBeUndefined();
    expect(await helpTopic(['help', 'today'])).toBeUndefined();
    expect(await helpTopic(['help'])).toBeUndefined();
    expect(await helpTopic(['today', 'environment'])).toBeUndefined();
    // Neither a command nor a topic: exit 2, the nearest names, not the whole help with exit 0.
    await expect(helpTopic(['help', 'enviroment'])).rejects.toMatchObject({
      exitCode: 2,
      message: 'No command or topic named "enviroment"',
      hints: ['Did you mean `checkin help environment`? `checkin help topics` lists the topics.'],
    });
    await expect(helpTopic(['help', 'zzzzzz'])).rejects.toMatchObject({
      exitCode: 2,
      hints: ['`checkin --help` lists the commands, `checkin help topics` the topics.'],
    });
    expect(await helpTopic(['help', 'help'])).toBeUndefined();
  });
});
