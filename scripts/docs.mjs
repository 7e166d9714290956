// npm run docs: the manual, made from the commands' own definitions (as gh's cmd/gen-docs makes
// its manual from its cobra commands), so the help and the manual cannot drift apart.
//
//   docs/commands/checkin-<command>[-<sub>…].md  one page per command: its description, usage,
//                                                arguments, options, subcommands, the text its
//                                                --help ends with (examples, JSON fields), exit codes
//   docs/commands/README.md                      the index, in the help's groups
//   src/help-topics.ts                           docs/topics/*.md as strings, for `checkin help <topic>`
//   man/checkin[-<command>…].1                   the same pages as man pages (scripts/man.mjs)
//
// The program comes from the build (dist/checkin.cjs, `manualProgram()`): run `npm run build` first
// (`npm run docs` does). test/unit/manual.test.ts makes the same files in memory and compares.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { manPages } from './man.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The exit codes every command can end with (src/errors.ts's EXIT, in words). */
const EXIT_WORDS = {
  OK: 'success',
  FAILURE: 'the service, the network or this system failed',
  USAGE: 'bad usage, or input rejected (by checkin or by the service)',
  PENDING: "today's check-in is still pending (`checkin status` only)",
  AUTH: 'not logged in, or the token was rejected',
  CANCELLED: 'cancelled at a prompt (Ctrl-C, or "No")',
};

/** A command's words from the root: ['goal', 'update', 'view']. */
const pathOf = (cmd) => (cmd.parent ? [...pathOf(cmd.parent), cmd.name()] : []);
const fileOf = (cmd) => `checkin-${pathOf(cmd).join('-')}.md`;
const titleOf = (cmd) => ['checkin', ...pathOf(cmd)].join(' ');

/** Every command under `program`, depth first, in the order the help lists them. */
export function commandsOf(program) {
  const out = [];
  const walk = (cmd) => {
    for (const sub of cmd.commands) {
      out.push(sub);
      walk(sub);
    }
  };
  walk(program);
  return out;
}

/** What the command's --help prints after its options (addHelpText 'after'), as commander writes it. */
function afterText(cmd) {
  let text = '';
  cmd.emit('afterHelp', { error: false, command: cmd, write: (s) => (text += s) });
  return text;
}

/**
 * The after-help text as Markdown: a "Heading:" line after a blank line becomes a heading, the
 * indented lines under it a text block, and lines of prose a paragraph.
 */
function afterMarkdown(text) {
  const out = [];
  let block = [];
  let prose = [];
  const flush = () => {
    if (prose.length) out.push(prose.join(' '), '');
    prose = [];
    while (block.length && block.at(-1).trim() === '') block.pop();
    if (block.length) {
      const indent = Math.min(...block.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length));
      out.push('```', ...block.map((l) => l.slice(indent)), '```', '');
    }
    block = [];
  };
  let previous = '';
  for (const line of text.split('\n')) {
    if (previous.trim() === '' && /^[A-Z][^.`]{0,80}:$/.test(line)) {
      flush();
      out.push(`## ${line.slice(0, -1)}`, '');
    } else if (/^\S/.test(line)) {
      if (block.length) flush();
      prose.push(line);
    } else if (line.trim() === '') {
      if (prose.length) flush();
      else if (block.length) block.push(line);
    } else {
      if (prose.length) flush();
      block.push(line);
    }
    previous = line;
  }
  flush();
  return out;
}

const cell = (s) => s.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** An option's help line as commander shows it, with its default and choices. */
function optionHelp(cmd, option) {
  const help = cmd.createHelp();
  return cell(help.optionDescription(option));
}

function optionsTable(cmd, options) {
  if (!options.length) return [];
  return ['| option | meaning |', '|---|---|', ...options.map((o) => `| \`${o.flags}\` | ${optionHelp(cmd, o)} |`), ''];
}

/** One command's page. */
export function commandPage(cmd, program) {
  const help = cmd.createHelp();
  const lines = [`# ${titleOf(cmd)}`, '', cmd.description(), ''];
  lines.push('```', help.commandUsage(cmd), '```', '');
  if (cmd.aliases().length)
    lines.push(
      `Also: ${cmd
        .aliases()
        .map((a) => `\`${a}\``)
        .join(', ')}.`,
      '',
    );
  if (cmd.registeredArguments.length) {
    lines.push('## Arguments', '', '| argument | meaning |', '|---|---|');
    for (const arg of cmd.registeredArguments) lines.push(`| \`${help.argumentTerm(arg)}\` | ${cell(help.argumentDescription(arg)) || '—'} |`);
    lines.push('');
  }
  const own = cmd.options.filter((o) => !o.hidden);
  if (own.length) lines.push('## Options', '', ...optionsTable(cmd, own));
  const subs = cmd.commands.filter((c) => !c._hidden);
  if (subs.length) {
    lines.push('## Commands', '', '| command | what it does |', '|---|---|');
    for (const sub of subs) lines.push(`| [\`${titleOf(sub)}\`](${fileOf(sub)}) | ${cell(sub.summary() || sub.description())} |`);
    lines.push('');
  }
  lines.push(...afterMarkdown(afterText(cmd)));
  lines.push(
    '## Options of every command',
    '',
    ...optionsTable(
      program,
      program.options.filter((o) => !o.hidden && o.long !== '--version'),
    ),
  );
  lines.push('`-h, --help` shows this page in the terminal.', '');
  lines.push('## Exit codes', '', '| code | meaning |', '|---|---|');
  for (const [name, code] of Object.entries(EXIT_CODES)) lines.push(`| ${code} | ${EXIT_WORDS[name]} |`);
  lines.push('', 'More: [exit codes](../topics/exit-codes.md), [environment](../topics/environment.md), [all commands](README.md).', '');
  return lines.join('\n');
}

let EXIT_CODES = {};

/** The topics (docs/topics/*.md): name → { title, text }. */
export function readTopics(root = ROOT) {
  const dir = `${root}/docs/topics`;
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => {
        const text = readFileSync(`${dir}/${f}`, 'utf8');
        return [f.slice(0, -3), { title: /^# (.*)$/m.exec(text)[1], text }];
      }),
  );
}

/** `src/help-topics.ts`: the topics as strings, bundled into the CLI. */
export function topicsModule(topics) {
  const entries = Object.entries(topics).map(
    ([name, t]) => `  ${JSON.stringify(name)}: {\n    title: ${JSON.stringify(t.title)},\n    text: ${JSON.stringify(t.text)},\n  },`,
  );
  return `// Made by \`npm run docs\` from docs/topics/*.md (scripts/docs.mjs): edit those files, not this one.\n// \`checkin help <topic>\` prints one (program.ts \`helpTopic\`).\n\nexport const TOPICS: Record<string, { title: string; text: string }> = {\n${entries.join('\n')}\n};\n`;
}

/** `checkin help`: commander's own help command, and the topics. */
function helpPage(topics) {
  const lines = [
    '# checkin help',
    '',
    'Show the help of a command, or read a topic.',
    '',
    '```',
    'checkin help [command|topic]',
    'checkin help topics',
    '```',
    '',
  ];
  lines.push('`checkin help <command>` is `checkin <command> --help`; `checkin help` alone is `checkin --help`.', '');
  lines.push('## Topics', '', '| topic | page |', '|---|---|');
  for (const [name, t] of Object.entries(topics)) lines.push(`| \`checkin help ${name}\` | [${t.title}](../topics/${name}.md) |`);
  lines.push('');
  return lines.join('\n');
}

/** The index: the commands in the help's groups. */
function indexPage(program, topics) {
  const lines = [
    '# The checkin manual',
    '',
    program.description(),
    '',
    // For whoever edits the file, not for the reader: a comment (in the man page too, scripts/man.mjs).
    "<!-- Made by `npm run docs` from the commands' own definitions (scripts/docs.mjs); the same words as `checkin <command> --help`. -->",
    '',
  ];
  const groups = new Map();
  for (const cmd of program.commands) {
    const group = cmd.helpGroup() ?? 'Commands:';
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(cmd);
  }
  for (const [group, cmds] of groups) {
    lines.push(`## ${group.replace(/:$/, '')}`, '', '| command | what it does |', '|---|---|');
    for (const cmd of cmds) {
      lines.push(`| [\`${titleOf(cmd)}\`](${fileOf(cmd)}) | ${cell(cmd.summary() || cmd.description())} |`);
      for (const sub of commandsOf(cmd)) lines.push(`| [\`${titleOf(sub)}\`](${fileOf(sub)}) | ${cell(sub.summary() || sub.description())} |`);
    }
    lines.push('');
  }
  lines.push('## Topics', '', '| topic | in the terminal |', '|---|---|');
  for (const [name, t] of Object.entries(topics)) lines.push(`| [${t.title}](../topics/${name}.md) | \`checkin help ${name}\` |`);
  lines.push('');
  return lines.join('\n');
}

/**
 * Every generated file: path (from the repository's root) → content. `program` is the whole
 * program, built and not run; `exit` the EXIT table of src/errors.ts.
 */
export function renderManual(program, exit, topics = readTopics()) {
  EXIT_CODES = exit;
  const files = new Map();
  for (const cmd of commandsOf(program)) files.set(`docs/commands/${fileOf(cmd)}`, commandPage(cmd, program));
  files.set('docs/commands/checkin-help.md', helpPage(topics));
  files.set('docs/commands/README.md', indexPage(program, topics));
  files.set('src/help-topics.ts', topicsModule(topics));
  for (const [path, text] of manPages(files, program.version())) files.set(path, text);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cli = createRequire(import.meta.url)(`${ROOT}/dist/checkin.cjs`);
  const files = renderManual(await cli.manualProgram(), cli.EXIT);
  for (const dir of ['docs/commands', 'man']) {
    rmSync(`${ROOT}/${dir}`, { recursive: true, force: true });
    mkdirSync(`${ROOT}/${dir}`, { recursive: true });
  }
  for (const [path, text] of files) writeFileSync(`${ROOT}/${path}`, text);
  const count = (dir) => [...files.keys()].filter((p) => p.startsWith(dir)).length;
  process.stdout.write(`${count('docs/commands/')} pages in docs/commands, ${count('man/')} man pages in man/, and src/help-topics.ts\n`);
}
