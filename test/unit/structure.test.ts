// The shape of src/, checked from its own imports: no import cycles (static or lazy), each feature
// in its own room (src/commands/<noun>/…) with the cross-noun imports listed here by name, layers
// that point inward, and the habits ARCHITECTURE.md names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const rel = (p: string) => relative(SRC, p).split('\\').join('/');
const sources = files(SRC).map((p) => ({ path: rel(p), text: readFileSync(p, 'utf8') }));

/** Every relative import of a file (static, type-only and dynamic), as paths under src/. */
function importsOf(file: { path: string; text: string }): string[] {
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;
  for (const m of file.text.matchAll(re)) {
    const spec = (m[1] ?? m[2])!;
    out.push(rel(resolve(join(SRC, dirname(file.path)), spec.replace(/\.js$/, '.ts'))));
  }
  return out;
}

const graph = new Map(sources.map((f) => [f.path, importsOf(f)]));
/** The noun a file under commands/ belongs to ('checkin' for commands/checkin/fill.ts); undefined elsewhere and for commands/flags.ts. */
const nounOf = (p: string) => /^commands\/([^/]+)\//.exec(p)?.[1];

describe('src/ structure', () => {
  it('every import names a file that exists', () => {
    const missing = [...graph].flatMap(([from, tos]) => tos.filter((to) => !graph.has(to)).map((to) => `${from} → ${to}`));
    expect(missing).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (node: string, stack: string[]) => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(node)), node].join(' → '));
        return;
      }
      state.set(node, 'visiting');
      for (const next of graph.get(node) ?? []) visit(next, [...stack, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('has no shared/ folder: what several nouns share is the domain (domain/) or a flag helper (commands/flags.ts)', () => {
    expect(sources.map((f) => f.path).filter((p) => /(^|\/)shared\//.test(p))).toEqual([]);
    expect(sources.map((f) => f.path).filter((p) => p.startsWith('commands/') && !nounOf(p) && p !== 'commands/flags.ts')).toEqual([]);
  });

  it("each noun keeps to its room: no import into another noun's room; only program.ts imports the rooms", () => {
    const bad = [...graph].flatMap(([from, tos]) =>
      tos
        .filter((to) => {
          const noun = nounOf(to);
          if (!noun) return false;
          if (nounOf(from) === noun) return false;
          return true;
        })
        .filter((to) => !(from === 'program.ts' && /^commands\/[^/]+\/[^/]+\.ts$/.test(to)))
        .map((to) => `${from} → ${to}`),
    );
    expect(bad).toEqual([]);
  });

  it('layers point inward: api, config, ui, core, sandbox, system, domain and the agent face know nothing of commands; the lower ones nothing of each other', () => {
    // What each layer may import besides itself: the wire types and the error vocabulary are shared words.
    const allowed: Record<string, RegExp> = {
      'api/': /^(api\/|errors\.ts$)/,
      'config/': /^(config\/|api\/types\.ts$|errors\.ts$)/,
      // The shapes' vocabulary (api/validate.ts) too: core/shapes.ts describes what both faces answer with.
      'core/': /^(core\/|api\/types\.ts$|api\/validate\.ts$|errors\.ts$)/,
      'ui/': /^(ui\/|api\/types\.ts$|api\/validate\.ts$|core\/|errors\.ts$)/,
      'sandbox/': /^(sandbox\/|api\/types\.ts$|core\/datekey\.ts$|core\/zone\.ts$)/,
      // What talks to the machine (schedulers' units, skill files, programs, git, doctor's probes): below the domain's rules.
      'system/': /^(system\/|api\/types\.ts$|config\/|core\/|context\.ts$|errors\.ts$|version\.ts$)/,
      // The domain serves both faces: it knows the layers below, never a command, the flags or the agent face.
      'domain/': /^(domain\/|system\/|api\/|config\/|core\/|ui\/|context\.ts$|errors\.ts$|version\.ts$)/,
      // The agent face: the domain and the layers below, never the CLI's commands.
      'mcp/': /^(mcp\/|domain\/|api\/|config\/|core\/|ui\/|context\.ts$|error-text\.ts$|errors\.ts$|version\.ts$)/,
      // The CLI's words for the outbox's advice (and its refusals: the error vocabulary is shared words).
      'commands/flags.ts': /^(context\.ts$|errors\.ts$)/,
    };
    const bad = [...graph].flatMap(([from, tos]) => {
      const layer = Object.keys(allowed).find((l) => from.startsWith(l));
      return layer ? tos.filter((to) => !allowed[layer]!.test(to)).map((to) => `${from} → ${to}`) : [];
    });
    expect(bad).toEqual([]);
  });

  it('the cached `me` is read and written only through domain/account.ts (me, cachedMe, rememberZone, startAccountCache)', () => {
    const code = (t: string) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    // The cache's kind 'me' named in a read or a write of the cache, a login's new cache holding `me`, the record built by hand,
    // or every entry read at once (cacheEntries: a merge of them holds `me` without naming it).
    const touchesMe = (t: string) =>
      /\.cached?\s*\([^;]*?'me'\s*[,)]/.test(t) || /replaceCache\s*\([^;]*\{\s*me\s*:/.test(t) || /\btoCachedMe\b/.test(t) || /\.cacheEntries\s*\(/.test(t);
    // config/store.ts is the cache itself: it keeps entries by kind, and names none.
    const own = new Set(['domain/account.ts', 'config/store.ts']);
    const outside = sources.filter((f) => !own.has(f.path) && !f.path.startsWith('sandbox/') && touchesMe(code(f.text))).map((f) => f.path);
    expect(outside).toEqual([]);
    // It can fail: account.ts itself does so, and so did candidates.ts's merge of every entry.
    expect(touchesMe(code(sources.find((f) => f.path === 'domain/account.ts')!.text))).toBe(true);
    expect(touchesMe('const entries = Object.entries(cfg.cacheEntries()).filter(([key]) => key.startsWith(prefix));')).toBe(true);
  });

  it('no `any`, no process.exit, and only ui/io.ts touches the standard streams', () => {
    const code = (t: string) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(sources.filter((f) => /:\s*any\b|<any>|\bas any\b|any\[\]/.test(code(f.text))).map((f) => f.path)).toEqual([]);
    expect(sources.filter((f) => /process\.exit\s*\(/.test(code(f.text))).map((f) => f.path)).toEqual([]);
    expect(sources.filter((f) => /process\.(stdout|stdin|stderr)\b/.test(code(f.text))).map((f) => f.path)).toEqual(['ui/io.ts']);
  });

  it("the domain names no command or flag in its words: what to run is each face's (context.ts AdviceWords, commands/flags.ts; the agent face its own)", () => {
    // Comments, and string and template literals (a template's \${…} read as one word), in source order.
    const TOKENS = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\$]|\\.|\$\{(?:[^{}`]|`[^`]*`|\{[^{}]*\})*\}|\$(?!\{))*`/g;
    // Words (a string with a space: not one argument of a child's argv, such as git's `--no-merges`) that name `checkin …` or a --flag.
    const namesCommand = (literal: string) => {
      const words = literal.slice(1, -1).replace(/\$\{(?:[^{}`]|`[^`]*`|\{[^{}]*\})*\}/g, 'x');
      return /\s/.test(words) && (/`checkin\b|^checkin\s/.test(words) || /(^|[\s(`'"])--[a-z]/.test(words));
    };
    const naming = (text: string) => [...text.matchAll(TOKENS)].map((m) => m[0]).filter((t) => !t.startsWith('/') && namesCommand(t));
    const domain = sources.filter((f) => f.path.startsWith('domain/'));
    expect(domain.filter((f) => naming(f.text).length > 0).map((f) => `${f.path}: ${naming(f.text)[0]}`)).toEqual([]);
    // It can fail: the words the domain once said.
    expect(naming('terminal(`\\`checkin drafts send ${entry.id}\\` sends it.`)')).toHaveLength(1);
    expect(naming("'--resume sends what was kept'")).toHaveLength(1);
    expect(naming("[`--since=${addDays(day, -7)}T00:00:00Z`, '--no-merges']")).toEqual([]);
  });

  it('test/unit is pure: no process started, no socket, no sandbox, no terminal (those tests live in test/cli, test/sandbox, test/terminal)', () => {
    const unit = join(ROOT, 'test', 'unit');
    const impure =
      /node:child_process|node:net|node:https?'|node-pty|helpers\/(harness|terminal|http|hostile)\.js|sandbox\/server\.js|\brunCli\(|\bspawn(Sync)?\(|\bexecFile(Sync)?\(/;
    const found = readdirSync(unit)
      .filter((name) => name.endsWith('.ts'))
      .filter((name) =>
        impure.test(
          readFileSync(join(unit, name), 'utf8')
            .replace(/^\s*\/\/.*$/gm, '')
            .replace(/const impure =[^;]*;/, ''),
        ),
      );
    expect(found).toEqual([]);
  });
});
