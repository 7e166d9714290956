// One description per output shape, for both faces (issue 40): every object an agent's tool answers
// with is a shape of core/shapes.ts or api/types.ts (or picked or omitted from one), never one written
// beside them; the CLI's --json field lists are the same shapes' fields. test/mcp/shapes.test.ts
// checks that what tools/list declares is these descriptions, and that both faces print the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as TYPES from '../../src/api/types.js';
import { anything, arrayOf, described, fieldsOf, object, oneOf, optional, orNull, pick, str, type Def, type Shape } from '../../src/api/validate.js';
import * as SHAPES from '../../src/core/shapes.js';
import { DRAFT_FIELDS } from '../../src/commands/drafts/drafts.js';
import * as z from 'zod';
import { fullOutputJson, outputJson, outputOf, schemaOf } from '../../src/mcp/kit.js';
import { RESULTS } from '../../src/mcp/tools/index.js';
import { JSON_FIELDS } from '../../src/ui/output.js';

type ObjectDef = Extract<Def, { kind: 'object' }>;
const isShape = (v: unknown): v is Shape<unknown> => typeof v === 'function' && 'def' in v;
/** The fields of every object shape the two modules export: what "one of the shared shapes" means. */
const SHARED = new Set<object>(
  [...Object.values(TYPES), ...Object.values(SHAPES)].flatMap((s: unknown) => (isShape(s) && s.def.kind === 'object' ? [s.def.fields] : [])),
);
const isShared = (d: ObjectDef): boolean => SHARED.has(d.fields) || (d.from !== undefined && d.from.def.kind === 'object' && isShared(d.from.def));

/** Every object inside `s` (its own envelope aside) that is not a shared shape, by path. */
function strays(s: Shape<unknown>, path: string, envelope = true): string[] {
  const d = s.def;
  if (d.kind === 'nullable' || d.kind === 'optional' || d.kind === 'array') return strays(d.of, `${path}${d.kind === 'array' ? '[]' : ''}`, false);
  if (d.kind !== 'object') return [];
  if (!envelope) return isShared(d) ? [] : [path];
  return Object.entries(d.fields).flatMap(([name, f]) => strays(f, `${path}.${name}`, false));
}

describe('one description per output shape', () => {
  it("every object in every tool's result is a shape of core/shapes.ts or api/types.ts (or cut from one)", () => {
    expect(Object.keys(RESULTS).length).toBeGreaterThan(15);
    expect(Object.entries(RESULTS).flatMap(([tool, s]) => strays(s, tool))).toEqual([]);
  });

  it('the check can fail: an object written beside the shapes is found, one picked from a shape is not', () => {
    const beside = object({ goal: object({ id: str, title: str }), picked: pick(TYPES.GOAL, ['id', 'title']) });
    expect(strays(beside, 'x')).toEqual(['x.goal']);
  });

  it("the CLI's --json field lists are the shapes' fields, in their order", () => {
    expect(JSON_FIELDS.teamReport).toEqual(fieldsOf(SHAPES.TEAM_DAY));
    expect(JSON_FIELDS.me).toEqual(fieldsOf(SHAPES.ME_RECORD));
    expect(JSON_FIELDS.inbox.slice(0, fieldsOf(SHAPES.INBOX).length)).toEqual(fieldsOf(SHAPES.INBOX));
    expect(DRAFT_FIELDS).toEqual(fieldsOf(SHAPES.DRAFT));
    expect(JSON_FIELDS.status).toEqual(fieldsOf(SHAPES.STATUS));
    expect(JSON_FIELDS.authStatus).toEqual(fieldsOf(SHAPES.AUTH_STATUS));
    expect(JSON_FIELDS.answers).toEqual([...fieldsOf(TYPES.CHECK_IN), 'intentions_from', 'since_last_check_in']);
    const wire = {
      checkIn: TYPES.CHECK_IN,
      comment: TYPES.COMMENT,
      goal: TYPES.GOAL,
      goalUpdate: TYPES.GOAL_UPDATE,
      activity: TYPES.ACTIVITY,
      person: TYPES.PERSON,
    };
    for (const [kind, shape] of Object.entries(wire)) expect(JSON_FIELDS[kind as keyof typeof wire], kind).toEqual(Object.keys(shape.fields));
  });

  it('no --json field list is written by hand: ui/output.ts names shapes, never field names', () => {
    const source = readFileSync(join(__dirname, '..', '..', 'src', 'ui', 'output.ts'), 'utf8');
    const table = /export const JSON_FIELDS = \{([\s\S]*?)\n\}/.exec(source)![1]!;
    expect(Object.keys(JSON_FIELDS).length).toBeGreaterThan(10);
    // A quoted name in the table is a field listed beside its shape.
    expect(table.split('\n').filter((l) => /^\s*\w+:.*['"`]/.test(l))).toEqual([]);
  });

  it("a field added to a shape is in the agent's schema with its words, and in --json's fields", () => {
    const grown = object({ ...SHAPES.ME_RECORD.fields, pronouns: described(str, 'how to address them') });
    expect(fieldsOf(grown)).toContain('pronouns');
    const json = JSON.stringify(schemaOf(grown).toJSONSchema());
    expect(json).toContain('"pronouns":{"type":"string","description":"how to address them"}');
    // The words of a shape reach the schema: blocked_for's, as core/shapes.ts says them.
    expect(JSON.stringify(schemaOf(SHAPES.TEAM_DAY).toJSONSchema())).toContain("how long a blocked member's longest-standing blocker has stood");
  });

  it("every tool's output schema, as tools/list reads it from the shapes, is what zod writes for it, key for key (the start-up builds no zod)", () => {
    const grown = object({ maybe: described(optional(orNull(described(arrayOf(oneOf(['a', 'b'])), 'a list'))), 'perhaps'), left: anything });
    for (const [name, result] of [...Object.entries(RESULTS), ['grown', grown] as const]) {
      const zods = JSON.stringify(z.toJSONSchema(z.object(outputOf(result)), { target: 'draft-2020-12', io: 'output' }));
      expect(JSON.stringify(fullOutputJson(result)), name).toBe(zods);
    }
  });

  it("every tool's listed schema is the full one slimmed: its references put back, it is the full one without defaults, the null branch's word and long words", () => {
    const strip = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(strip);
      if (!node || typeof node !== 'object') return node;
      return Object.fromEntries(
        Object.entries(node)
          .filter(
            ([k, v]) => !(k === 'additionalProperties' && v === true) && !(k === 'description' && typeof v === 'string' && (v === 'none' || v.length > 40)),
          )
          .map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([f, fv]) => [f, strip(fv)])) : strip(v)]),
      );
    };
    let shared = 0;
    for (const [name, result] of Object.entries(RESULTS)) {
      const { $defs, ...listed } = outputJson(result) as { $defs?: Record<string, unknown> };
      const expand = (node: unknown): unknown => {
        if (Array.isArray(node)) return node.map(expand);
        if (!node || typeof node !== 'object') return node;
        const ref = (node as { $ref?: string }).$ref;
        if (ref) return expand($defs![ref.replace('#/$defs/', '')]);
        return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v)]));
      };
      shared += Object.keys($defs ?? {}).length;
      expect(JSON.stringify(expand(listed)), name).toBe(JSON.stringify(strip(fullOutputJson(result))));
    }
    expect(shared).toBeGreaterThan(0);
  });
});
