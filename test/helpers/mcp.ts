// `checkin mcp` driven as an agent's client drives it: the built CLI started over stdio and the SDK's
// own Client connected to it, closed after each test. `answer` is what the person says when the
// server asks (a function: said once it resolves); without one the client cannot be asked.
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator as ModernAjv } from '@modelcontextprotocol/client/validators/ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterEach } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { CLI_WORDS } from './cli.js';
import { patient } from './patience.js';
import { useSandboxEnv } from './sandbox-env.js';

export type Answer = 'accept' | 'decline' | 'cancel';
export type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

export interface McpSession {
  client: Client;
  /** The server's process id (named in a claim's refusal). */
  pid: number;
  /** The questions the server asked the person (elicitation messages). */
  asked: string[];
  stderr: () => string;
  /** Its stderr once it holds `text` (stderr is a stream of its own: a line may come after the answer it was written before). */
  stderrSays: (text: string) => Promise<string>;
  call: (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;
  /** A resource's text. */
  read: (uri: string) => Promise<string>;
}

export interface ConnectOptions {
  answer?: Answer | (() => Promise<Answer>);
  /**
   * The client: the 2025 one (`@modelcontextprotocol/sdk` 1.x, initialize; the default) or the 2026 one
   * (`@modelcontextprotocol/client` 2.x, pinned to 2026-07-28, or `auto`: server/discover first).
   */
  revision?: '2025-11-25' | '2026-07-28' | 'auto';
  args?: string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * A client's JSON Schema validator that compiles each schema once for the test process, keeping what
 * it compiled by the schema's text. Each client compiles the output schema of every tool anew in
 * every session (the 2025 one all of them at each tools/list, the 2026 one each tool's at its first
 * call): about 150 ms of the test's CPU a session, for the schemas the last session compiled. A
 * schema that differs in any byte is compiled for itself; every result is still checked, by the
 * client's own validator (Ajv, as the client makes it by default), against the schema listed.
 */
function compiledOnce<V extends { getValidator(schema: never): unknown }>(validator: V): V {
  const compiled = new Map<string, unknown>();
  const getValidator = (schema: object) => {
    const key = JSON.stringify(schema);
    if (!compiled.has(key)) compiled.set(key, (validator.getValidator as (s: object) => unknown).call(validator, schema));
    return compiled.get(key);
  };
  return { getValidator } as unknown as V;
}
/** The validators to give a 2025 client (`@modelcontextprotocol/sdk`) and a 2026 one (`@modelcontextprotocol/client`). */
export const SCHEMAS_2025 = compiledOnce(new AjvJsonSchemaValidator());
export const SCHEMAS_2026 = compiledOnce(new ModernAjv());

/** The tests' own check of a result against the schema listed (Ajv's 2020-12 validator, not a client's), each schema compiled once for the test process. */
const ownAjv = new Ajv2020({ strict: false, allErrors: true });
const ownChecks = new Map<string, ValidateFunction>();
/** What is wrong with `value` by `schema` (nothing: []). */
export function schemaErrors(schema: object, value: unknown): unknown[] {
  const key = JSON.stringify(schema);
  const check = ownChecks.get(key) ?? ownChecks.set(key, ownAjv.compile(schema)).get(key)!;
  return check(value) ? [] : (check.errors ?? []);
}

/**
 * The usual start of an MCP test file: a sandbox and an environment pointed at it before each test
 * (handed to `take`, for the file's own variables), a `connect` in that environment, and what the
 * service was sent — the writes as "METHOD path", and the bodies of one method.
 */
export function useMcpSandbox(take: (sb: Sandbox, env: NodeJS.ProcessEnv) => void): {
  connect: (opts?: ConnectOptions) => Promise<McpSession>;
  byHand: (opts?: ByHandOptions) => Promise<ByHand>;
  writes: () => string[];
  bodiesOf: (method: string) => unknown[];
} {
  let sb: Sandbox;
  let env: NodeJS.ProcessEnv;
  useSandboxEnv((s, e) => {
    sb = s;
    env = e;
    take(s, e);
  });
  return {
    connect: useMcp(() => env),
    byHand: useByHand(() => env),
    writes: () => sb.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
    bodiesOf: (method) => sb.requests.filter((r) => r.method === method).map((r) => r.body),
  };
}

/**
 * Who a check-in is shared with, in the question's words ("Platform, Mobile"), as the service's own
 * record says: the calendar decides it (a team that checks in on weekdays only is not on a Saturday's
 * or Sunday's), so a test reads it from the data it set up, never writes it down.
 */
export function sharedWith(sb: Sandbox, personId: string, date: string): string {
  return (sb.service.view(personId, date).teams ?? []).map((t) => t.name).join(', ');
}

/** How either client starts the server: the built CLI's `mcp`, in the test's environment (or the one named), its stderr kept. */
function serverProcess(opts: ConnectOptions, envOf: () => NodeJS.ProcessEnv) {
  return {
    command: CLI_WORDS[0]!,
    args: [...CLI_WORDS.slice(1), 'mcp', ...(opts.args ?? [])],
    // Every tool, unless the test chooses (the default sets are tested as such in toolsets.test.ts).
    env: { CHECKIN_MCP_TOOLSETS: 'all', ...(opts.env ?? envOf()) } as Record<string, string>,
    stderr: 'pipe' as const,
  };
}

/** What the person says to a question: accept (with no fields), decline or cancel. */
async function said(answer: Answer | (() => Promise<Answer>)) {
  const action = typeof answer === 'function' ? await answer() : answer;
  return action === 'accept' ? { action, content: {} } : { action };
}

interface Heard {
  text: () => string;
  says: (text: string) => Promise<string>;
}

/** What a stream has said so far, and a wait (bounded) for it to say something: woken by its data, never by a clock's tick. */
function heard(stream: { on(event: 'data', listener: (d: Buffer) => void): unknown } | null | undefined): Heard {
  let text = '';
  const waiting = new Set<() => void>();
  stream?.on('data', (d: Buffer) => {
    text += d.toString();
    for (const wake of [...waiting]) wake();
  });
  const says = (wanted: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!text.includes(wanted)) return;
        clearTimeout(timer);
        waiting.delete(check);
        resolve(text);
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`stderr never said ${JSON.stringify(wanted)}; it said: ${JSON.stringify(text)}`));
      }, patient(10_000));
      waiting.add(check);
      check();
    });
  return { text: () => text, says };
}

/** What either client's session offers a test besides its client: calling a tool, reading a resource. */
function sessionFace(
  client: {
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
    readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  },
  pid: number,
  asked: string[],
  stderr: Heard,
): Omit<McpSession, 'client'> {
  return {
    pid,
    asked,
    stderr: stderr.text,
    stderrSays: stderr.says,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    read: async (uri) => ((await client.readResource({ uri })).contents[0] as { text: string }).text,
  };
}

/** A `connect` for the test file: sessions in the environment `envOf` gives (unless one is named), each closed after its test. */
export function useMcp(envOf: () => NodeJS.ProcessEnv): (opts?: ConnectOptions) => Promise<McpSession> {
  const open: Client[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close().catch(() => undefined);
  });
  const openModern: ModernClient[] = [];
  afterEach(async () => {
    for (const c of openModern.splice(0)) await c.close().catch(() => undefined);
  });
  return async (opts = {}) => {
    if (opts.revision && opts.revision !== '2025-11-25') {
      const { session, client } = await connectModern(opts, envOf);
      openModern.push(client);
      return session;
    }
    const transport = new StdioClientTransport(serverProcess(opts, envOf));
    const stderr = heard(transport.stderr);
    const client = new Client(
      { name: 'test-agent', version: '1.0.0' },
      { capabilities: opts.answer ? { elicitation: { form: {} } } : {}, jsonSchemaValidator: SCHEMAS_2025 },
    );
    const asked: string[] = [];
    if (opts.answer) {
      const answer = opts.answer;
      client.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked.push(req.params.message);
        return said(answer);
      });
    }
    await client.connect(transport);
    open.push(client);
    return { client, ...sessionFace(client, transport.pid!, asked, stderr) };
  };
}

/** A 2026-07-28 session (`@modelcontextprotocol/client` 2.x): its client, and the same session face as the 2025 one. */
export interface ModernSession extends Omit<McpSession, 'client'> {
  client: ModernClient;
}

async function connectModern(opts: ConnectOptions, envOf: () => NodeJS.ProcessEnv): Promise<{ session: McpSession; client: ModernClient }> {
  const transport = new ModernStdio(serverProcess(opts, envOf));
  const stderr = heard(transport.stderr);
  const client = new ModernClient(
    { name: 'test-agent', version: '1.0.0' },
    {
      capabilities: opts.answer ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: opts.revision === 'auto' ? 'auto' : { pin: '2026-07-28' } },
      jsonSchemaValidator: SCHEMAS_2026,
    },
  );
  const asked: string[] = [];
  if (opts.answer) {
    const answer = opts.answer;
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push((req.params as { message: string }).message);
      return said(answer);
    });
  }
  await client.connect(transport);
  const session: ModernSession = { client, ...sessionFace(client, transport.pid!, asked, stderr) };
  return { session: session as unknown as McpSession, client };
}

/** A 2026 client a test drives by hand: the client, and a call that passes the params as given ({ arguments, inputResponses, requestState }) and gives back what came, an input-required result too. */
export interface ByHand {
  client: ModernClient;
  call: (name: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

export interface ByHandOptions {
  /** False: a client that cannot be asked (no elicitation capability). */
  elicits?: boolean;
  /** The client in its default mode (initialize first), nothing else set. */
  legacy?: boolean;
}

/**
 * 2026 clients (`@modelcontextprotocol/client` 2.x) a test drives by hand, each closed after its
 * test: pinned to 2026-07-28 and fulfilling nothing by itself, so that each input-required result
 * comes back to the test, which retries as it chooses.
 */
export function useByHand(envOf: () => NodeJS.ProcessEnv): (opts?: ByHandOptions) => Promise<ByHand> {
  const open: ModernClient[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close().catch(() => undefined);
  });
  return async (opts = {}) => {
    const client = new ModernClient(
      { name: 'test-agent', version: '1.0.0' },
      opts.legacy
        ? { jsonSchemaValidator: SCHEMAS_2026 }
        : {
            capabilities: opts.elicits === false ? {} : { elicitation: { form: {} } },
            versionNegotiation: { mode: { pin: '2026-07-28' } },
            inputRequired: { autoFulfill: false },
            jsonSchemaValidator: SCHEMAS_2026,
          },
    );
    await client.connect(new ModernStdio(serverProcess({}, envOf)));
    open.push(client);
    return {
      client,
      call: async (name, params) => (await client.callTool({ name, ...params } as never, { allowInputRequired: true })) as unknown as Record<string, unknown>,
    };
  };
}

/** A tool result's text. */
export const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
