// The shape of src/, checked from its own imports: no import cycles (static or lazy), no command
// importing another command, layers that point inward, and the habits ARCHITECTURE.md names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

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
const isCommand = (p: string) => p.startsWith('commands/') && !p.startsWith('commands/shared/');

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

  it('no command imports another command; commands are imported only by program.ts', () => {
    const bad = [...graph].flatMap(([from, tos]) =>
      tos.filter((to) => isCommand(to) && (isCommand(from) || (from !== 'program.ts' && !from.startsWith('commands/')) || from.startsWith('commands/shared/'))).map((to) => `${from} → ${to}`),
    );
    // The sandbox command loads the sandbox lazily; nothing else reaches into commands.
    expect(bad).toEqual([]);
  });

  it('layers point inward: api, config, ui, core and sandbox know nothing of commands or each other', () => {
    // What each layer may import besides itself: the wire types and the error vocabulary are shared words.
    const allowed: Record<string, RegExp> = {
      'api/': /^(api\/|errors\.ts$)/,
      'config/': /^(config\/|api\/types\.ts$|errors\.ts$)/,
      'core/': /^(core\/|api\/types\.ts$|errors\.ts$)/,
      'ui/': /^(ui\/|api\/types\.ts$|errors\.ts$)/,
      'sandbox/': /^(sandbox\/|api\/types\.ts$|core\/datekey\.ts$)/,
    };
    const bad = [...graph].flatMap(([from, tos]) => {
      const layer = Object.keys(allowed).find((l) => from.startsWith(l));
      return layer ? tos.filter((to) => !allowed[layer]!.test(to)).map((to) => `${from} → ${to}`) : [];
    });
    expect(bad).toEqual([]);
  });

  it('no `any`, no process.exit, and only ui/io.ts touches the standard streams', () => {
    const code = (t: string) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(sources.filter((f) => /:\s*any\b|<any>|\bas any\b|any\[\]/.test(code(f.text))).map((f) => f.path)).toEqual([]);
    expect(sources.filter((f) => /process\.exit\s*\(/.test(code(f.text))).map((f) => f.path)).toEqual([]);
    expect(sources.filter((f) => /process\.(stdout|stdin|stderr)\b/.test(code(f.text))).map((f) => f.path)).toEqual(['ui/io.ts']);
  });
});
