// The tools' schemas port: `tools/list` from the built server, held to the rules of the official
// MCP Inspector's schema portability check (`inspector --cli … --method tools/list` prints
// "Schema portability: N errors, N warnings across N tools"; `--strict` details them and exits 6
// on an error). The rules are the Inspector's own, from its source file core/json/schemaLint.ts
// (bundled as clients/cli/build/index.js in @modelcontextprotocol/inspector 2.12.0), applied here
// word for word, so the check runs on every Node CI runs (the Inspector needs Node 22.19+) without
// its 110 MB of packages. Where the Inspector itself is installed, it is run too.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, CLI_WORDS, cleanEnv, ROOT } from '../helpers/cli.js';
import { track } from '../helpers/cleanup.js';
import { SCHEMAS_2025 } from '../helpers/mcp.js';

// ---- The Inspector's rules (core/json/schemaLint.ts), as it states them. ----

/** Keywords whose boolean value is no finding (`additionalProperties: true`). */
const BOOLEAN_VALUED_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const SUBSCHEMA_KEYWORDS = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
];
const SUBSCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
/** A schema with none of these (and no if with then/else) constrains nothing: `untyped-schema`. */
const CONSTRAINING_KEYWORDS = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'format',
  'contentMediaType', 'contentEncoding', 'contentSchema', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties',
  'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items', 'prefixItems', 'contains', 'additionalItems', 'unevaluatedItems', 'properties',
  'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef', '$recursiveRef',
]); // prettier-ignore
const JSON_SCHEMA_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const MAX_DEPTH = 64;

interface Finding {
  rule: 'boolean-schema' | 'type-union' | 'remote-ref' | 'untyped-schema';
  severity: 'error' | 'warning';
  tool: string;
  path: string;
}
type Node = Record<string, unknown>;
const isRecord = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const childPath = (parent: string, key: string) =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? (parent === '' ? key : `${parent}.${key}`) : `${parent}[${JSON.stringify(key)}]`;

function forEachSubschema(node: Node, path: string, visit: (sub: unknown, path: string, keyword: string) => void): void {
  for (const key of SUBSCHEMA_MAP_KEYWORDS) {
    const map = node[key];
    if (isRecord(map)) for (const [name, sub] of Object.entries(map)) visit(sub, childPath(childPath(path, key), name), key);
  }
  for (const key of SUBSCHEMA_ARRAY_KEYWORDS) {
    const arr = node[key];
    if (Array.isArray(arr)) arr.forEach((sub, i) => visit(sub, `${childPath(path, key)}[${i}]`, key));
  }
  for (const key of SUBSCHEMA_KEYWORDS) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === 'items' && Array.isArray(value)) value.forEach((sub, i) => visit(sub, `${childPath(path, key)}[${i}]`, key));
    else visit(value, childPath(path, key), key);
  }
}

function declaresAnyId(node: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || !isRecord(node)) return false;
  if (typeof node.$id === 'string' && node.$id !== '') return true;
  let found = false;
  forEachSubschema(node, '', (child) => {
    if (!found) found = declaresAnyId(child, depth + 1);
  });
  return found;
}

/** The Inspector's lintToolSchemas: every finding in a tool's input and output schemas. */
export function lintTool(tool: Pick<Tool, 'name' | 'inputSchema' | 'outputSchema'>): Finding[] {
  const findings: Finding[] = [];
  const lint = (schema: unknown, kind: string) => {
    const hasEmbeddedIds = declaresAnyId(schema);
    const add = (rule: Finding['rule'], severity: Finding['severity'], path: string) =>
      findings.push({ rule, severity, tool: tool.name, path: path === '' ? kind : `${kind}.${path}` });
    const walk = (node: unknown, path: string, keyword: string | undefined, depth: number): void => {
      if (depth > MAX_DEPTH) return;
      if (typeof node === 'boolean') {
        if (keyword === undefined || !BOOLEAN_VALUED_KEYWORDS.has(keyword)) add('boolean-schema', 'error', path);
        return;
      }
      if (!isRecord(node)) return;
      const type = node.type;
      if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && JSON_SCHEMA_TYPES.has(t)) && new Set(type).size === type.length)
        add('type-union', 'warning', path);
      const ref = node.$ref;
      if (typeof ref === 'string' && ref !== '' && !ref.startsWith('#') && !hasEmbeddedIds) add('remote-ref', 'warning', path);
      const constrains = Object.keys(node).some((k) => CONSTRAINING_KEYWORDS.has(k)) || ('if' in node && ('then' in node || 'else' in node));
      if (!constrains && keyword !== 'not') add('untyped-schema', 'warning', path);
      forEachSubschema(node, path, (child, p, k) => walk(child, p, k, depth + 1));
    };
    walk(schema, '', undefined, 0);
  };
  if (tool.inputSchema !== undefined) lint(tool.inputSchema, 'inputSchema');
  if (tool.outputSchema !== undefined) lint(tool.outputSchema, 'outputSchema');
  return findings;
}

// ---- checkin's tools against them. ----

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
});

async function listTools(): Promise<Tool[]> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' }, { jsonSchemaValidator: SCHEMAS_2025 });
  open.push(client);
  await client.connect(
    new StdioClientTransport({
      command: CLI_WORDS[0]!,
      args: [...CLI_WORDS.slice(1), 'mcp', '--toolsets', 'all'],
      env: cleanEnv() as Record<string, string>,
      stderr: 'pipe',
    }),
  );
  return (await client.listTools()).tools;
}

describe("checkin mcp: the tools' schemas port (the Inspector's portability rules)", () => {
  it('the rules find what they are for: {} schemas, type arrays, bare booleans, remote references', () => {
    const findings = lintTool({
      name: 't',
      inputSchema: {
        type: 'object',
        properties: { a: { type: ['string', 'null'] }, b: {}, c: { $ref: 'https://example.invalid/s.json' }, d: { not: {} } },
        additionalProperties: true,
      },
      outputSchema: {
        type: 'object',
        properties: { e: true, f: { anyOf: [{ type: 'string' }, { type: 'null', description: 'none' }] } },
        additionalProperties: {},
      } as unknown as Tool['outputSchema'],
    });
    expect(findings.map((f) => `${f.severity} ${f.rule} ${f.path}`)).toEqual([
      'warning type-union inputSchema.properties.a',
      'warning untyped-schema inputSchema.properties.b',
      'warning remote-ref inputSchema.properties.c',
      'error boolean-schema outputSchema.properties.e',
      'warning untyped-schema outputSchema.additionalProperties',
    ]);
  });

  it('tools/list: 0 errors, 0 warnings across every tool', async () => {
    const tools = await listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.flatMap(lintTool)).toEqual([]);
  });
});

// ---- The Inspector itself, where it is installed (not a devDependency: 110 MB and Node 22.19+). ----

/** Its CLI's launcher: CHECKIN_TEST_INSPECTOR, or the package installed beside the checkout (`npm i --no-save @modelcontextprotocol/inspector`). */
function inspectorLauncher(): string | undefined {
  if (process.env.CHECKIN_TEST_INSPECTOR) return process.env.CHECKIN_TEST_INSPECTOR;
  try {
    const pkg = createRequire(join(ROOT, 'package.json')).resolve('@modelcontextprotocol/inspector/package.json');
    return join(dirname(pkg), 'clients', 'launcher', 'build', 'index.js');
  } catch {
    return undefined;
  }
}
const launcher = inspectorLauncher();
const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const nodeFits = major > 22 || (major === 22 && minor >= 19);
const why = !launcher
  ? 'not installed (npm i --no-save @modelcontextprotocol/inspector, or CHECKIN_TEST_INSPECTOR=<its launcher>)'
  : !nodeFits
    ? `it needs Node 22.19+, this is ${process.versions.node}`
    : '';

describe('checkin mcp: the official Inspector', () => {
  it.skipIf(why !== '')(
    `inspector --cli … --method tools/list --strict: 0 errors, 0 warnings${why ? ` (skipped: ${why})` : ''}`,
    async () => {
      const child = track(
        spawn(process.execPath, [launcher!, '--cli', process.execPath, BIN, 'mcp', '--toolsets', 'all', '--method', 'tools/list', '--strict'], {
          env: cleanEnv(),
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c))),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the Inspector did not finish within 60 s: ${stderr}`)), 60_000))),
      ]).finally(() => clearTimeout(timer));
      expect({ code, stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(/Schema portability|Warning:|Error:/) });
      expect((JSON.parse(stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
    },
    70_000,
  );
});
