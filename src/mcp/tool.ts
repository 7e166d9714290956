// One agent tool, declared: its name, words, arguments, result, whether it writes, and its work.
// Each tool is a file of tools/, named in toolsets.ts, and served from the one list in tools/index.ts. Nothing of a
// tool is built before it is needed: its arguments' zod (the tool's `input`) is made when a client
// lists the tools or calls it, its result's JSON Schema is read from the shape when the tools are
// listed, and its result's zod only when a call's answer is checked (kit.ts outputJson, schemaOf).
import type { CallToolResult, InputRequiredResult, ServerContext, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { guard, outputJson, outputOf, type Result, type Served } from './kit.js';
import { writes as writing, type ToolName } from './toolsets.js';

export type Fields = Record<string, z.ZodType>;

export interface Tool<F extends Fields = Fields, N extends ToolName = ToolName> {
  /** Its name, with its set and its kind (reads, drafts, sends, logs) in toolsets.ts. */
  name: N;
  title: string;
  description: string;
  /** The arguments (zod, as the SDK reads them): a function, so that they are built only when needed. */
  input: () => F;
  /** What it answers with: a shape of core/shapes.ts or api/types.ts, or an envelope of them (results.ts). */
  output: Result;
  /** The protocol's hints besides the title (which is the tool's). */
  hints: Omit<ToolAnnotations, 'title'>;
  /** The work: the domain's operation, its result worded (a throw becomes a tool error, kit.ts guard). */
  run(served: Served, args: z.infer<z.ZodObject<F>>, rctx: ServerContext): Promise<CallToolResult | InputRequiredResult>;
}

/** A tool's declaration, its arguments' types read from its input. */
export const tool = <F extends Fields, N extends ToolName>(t: Tool<F, N>): Tool<F, N> => t;

/** The hints of a tool that only reads the service. */
export const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
/** The hints of a draft_* tool: it keeps a file on this machine, and sends nothing. */
export const DRAFTS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
/** The hints of a tool that sends, once the person said yes. */
export const SENDS = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;

/**
 * A schema the SDK reads as any Standard Schema, made (by `make`) the first time it is read; its JSON
 * Schema may be given without it. Each JSON Schema is made once too (the SDK asks for it at every
 * tools/list: made each time, the tools' schemas were half of what a tools/list cost the server).
 */
function lazySchema(make: () => z.ZodType, json?: () => Record<string, unknown>): StandardSchemaWithJSON {
  let made: z.ZodType | undefined;
  const schema = () => (made ??= make());
  const converted = new Map<string, Record<string, unknown>>();
  const once = (key: string, convert: () => Record<string, unknown>) => converted.get(key) ?? converted.set(key, convert()).get(key)!;
  const zodJson = () => (schema() as unknown as StandardSchemaWithJSON)['~standard'].jsonSchema;
  return {
    '~standard': {
      version: 1,
      vendor: 'zod',
      validate: (value: unknown) => schema()['~standard'].validate(value),
      jsonSchema: {
        input: (opts) => once(`input ${JSON.stringify(opts)}`, () => zodJson().input(opts)),
        output: (opts) => once(json ? 'output' : `output ${JSON.stringify(opts)}`, () => json?.() ?? zodJson().output(opts)),
      },
    },
  } as StandardSchemaWithJSON;
}

/** Registers every tool of the list; under --read-only the writing ones are registered disabled (tools/list leaves them out). Returns their names. */
export function registerTools(served: Served, tools: readonly Tool[], { readOnly = false }: { readOnly?: boolean } = {}): Set<string> {
  const writes = new Set<string>();
  for (const t of tools) {
    const registered = served.server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: lazySchema(() => z.object(t.input())),
        outputSchema: lazySchema(
          () => z.object(outputOf(t.output)),
          () => outputJson(t.output),
        ),
        // The title once: the tool's own (clients read it before the annotations' one).
        annotations: { ...t.hints },
      },
      (args: unknown, rctx: ServerContext) => guard(served.ctx, () => t.run(served, args as never, rctx)),
    );
    if (writing(t.name)) writes.add(t.name);
    if (readOnly && writing(t.name)) registered.disable();
  }
  return writes;
}
