// `checkin mcp`'s first answer, before the SDK (or commander) is loaded: a host gives a server about
// a second to answer `initialize` (2025-11-25) or `server/discover` (2026-07-28), and loading the
// agent face costs most of that on a loaded machine. bin/checkin.js requires this (its own bundle,
// dist/mcp-first.cjs) when the command line is `checkin mcp` with nothing it does not know, and the
// single executable calls it from its start-up heap (binary.ts) before the CLI runs; it reads
// standard input up to the first line and, when that line is one of the two requests in the shape
// the SDK answers, writes the answer from identity.ts (which the server is made from too). Then the
// full CLI runs as ever, handed what was read and what was said (context.ts StdinOpening): the
// server reads those bytes first, as if they came now, so its state (the revision, the client's
// capabilities) is what it would have been, and its own answer to that request is checked equal to
// the one sent and not sent again (stdio.ts). Anything else (another first request, a shape not
// known here, a flag, profile or tool name the CLI would refuse, a warning to say) is left whole to
// the full CLI: nothing is answered here. CONTRIBUTING.md, "Start-up".
import type { Readable, Writable } from 'node:stream';
import { ConfigStore } from '../config/store.js';
import type { ProfileChoice } from '../config/profiles.js';
import type { StdinOpening } from '../context.js';
import { readerGone } from '../ui/io.js';
import { frame } from './frame.js';
import { CAPABILITIES, FIRST_LEGACY_REVISION, instructionsFor, MODERN_REVISIONS, SERVER_INFO } from './identity.js';
import { chooseTools, servedTools, toolChoice } from './toolsets.js';

/** The program's options that may come before `mcp` (program.ts): those without a value, and those with one. */
export const PROGRAM_FLAGS = { bare: ['--debug', '--no-pager'], valued: ['--profile'] };
/** `checkin mcp`'s own options (commands/mcp/mcp.ts), but --print-config and --help, which the full CLI answers. */
export const MCP_FLAGS = { bare: ['--allow-send', '--read-only'], valued: ['--tools', '--toolsets'] };

/** The longest first line read here: a longer one is the full server's to read (stdio.ts). */
const MAX_FIRST_LINE = 64 * 1024;

/** Each option given (the value's, or true), or undefined when the words hold one not known here or one given twice. */
function optionsOf(words: readonly string[], flags: typeof PROGRAM_FLAGS): Map<string, string | true> | undefined {
  const got = new Map<string, string | true>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const eq = word.indexOf('=');
    const name = eq > 0 ? word.slice(0, eq) : word;
    if (got.has(name)) return undefined;
    if (flags.bare.includes(word)) got.set(word, true);
    else if (flags.valued.includes(name)) {
      const value = eq > 0 ? word.slice(eq + 1) : words[++i];
      if (value === undefined || (eq < 0 && value.startsWith('-'))) return undefined;
      got.set(name, value);
    } else return undefined;
  }
  return got;
}

/**
 * The instructions the server will give, when the command line is `checkin mcp` as the full CLI
 * would serve it: the program's options, `mcp`, its options; tool names it knows; a profile it
 * would take, read without a warning. Undefined otherwise: the full CLI says what it says.
 */
export function firstInstructions(argv: readonly string[], env: NodeJS.ProcessEnv): { instructions: string; profile: ProfileChoice } | undefined {
  const at = argv.indexOf('mcp');
  if (at < 0) return undefined;
  const program = optionsOf(argv.slice(0, at), PROGRAM_FLAGS);
  const own = optionsOf(argv.slice(at + 1), MCP_FLAGS);
  if (!program || !own) return undefined;
  const value = (v: string | true | undefined) => (typeof v === 'string' ? v : undefined);
  const choice = chooseTools(toolChoice({ tools: value(own.get('--tools')), toolsets: value(own.get('--toolsets')) }, env));
  if (!('chosen' in choice)) return undefined;
  let warned = false;
  const flag = value(program.get('--profile'));
  try {
    const cfg = new ConfigStore(
      env,
      () => (warned = true),
      () => 'not read here',
      () => flag,
    );
    const instructions = instructionsFor(cfg.profileToName(), servedTools(choice.chosen, own.has('--read-only')));
    return warned ? undefined : { instructions, profile: cfg.profile };
  } catch {
    return undefined; // a profile refused, a file that cannot be read: the full CLI says so
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const only = (o: Json, keys: readonly string[]) => Object.keys(o).every((k) => keys.includes(k));
const isId = (v: unknown): v is string | number => typeof v === 'string' || Number.isSafeInteger(v);
/** A client's name and version (a title beside them), as both revisions carry them. */
const isClientInfo = (v: unknown) =>
  isObject(v) &&
  only(v, ['name', 'version', 'title']) &&
  typeof v.name === 'string' &&
  typeof v.version === 'string' &&
  ['string', 'undefined'].includes(typeof v.title);
/** The flags in a client's capabilities that the SDK reads as booleans; it reads every other known field as an object. */
const CAPABILITY_FLAGS = [
  ['roots', 'listChanged'],
  ['elicitation', 'form', 'applyDefaults'],
];
/**
 * A client's capabilities that the SDK takes whatever they hold: objects within objects all the way
 * down, but for its flags, booleans. Any other value (a number, a string, a list: `"sampling":
 * {"context": 5}`, which the SDK refuses) is left to the SDK to answer.
 */
const isCapabilities = (v: unknown, path: readonly string[] = []): boolean =>
  isObject(v) &&
  Object.entries(v).every(([key, value]) => {
    const at = [...path, key];
    return CAPABILITY_FLAGS.some((flag) => flag.length === at.length && flag.every((k, i) => k === at[i]))
      ? typeof value === 'boolean'
      : isCapabilities(value, at);
  });

const ENVELOPE = {
  version: 'io.modelcontextprotocol/protocolVersion',
  client: 'io.modelcontextprotocol/clientInfo',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  server: 'io.modelcontextprotocol/serverInfo',
};

/**
 * The answer to a first line, when it is `initialize` in 2025-11-25 or `server/discover` in
 * 2026-07-28, whole and in the shape the SDK reads (anything more or other is left to it); its
 * fields in the SDK's order, so that the line is the one it writes.
 */
export function firstAnswer(line: string, instructions: string): { id: string | number; line: string } | undefined {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(msg) || !only(msg, ['jsonrpc', 'id', 'method', 'params']) || msg.jsonrpc !== '2.0' || !isId(msg.id) || !isObject(msg.params)) return undefined;
  const { id, params } = msg;
  let result: Json | undefined;
  if (msg.method === 'initialize') {
    if (only(params, ['protocolVersion', 'capabilities', 'clientInfo']) && params.protocolVersion === FIRST_LEGACY_REVISION)
      if (isCapabilities(params.capabilities) && isClientInfo(params.clientInfo))
        result = { protocolVersion: FIRST_LEGACY_REVISION, capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions };
  } else if (msg.method === 'server/discover' && only(params, ['_meta']) && isObject(params._meta)) {
    const meta = params._meta;
    if (only(meta, [ENVELOPE.version, ENVELOPE.client, ENVELOPE.capabilities]) && MODERN_REVISIONS.includes(meta[ENVELOPE.version] as string))
      if (isClientInfo(meta[ENVELOPE.client]) && isCapabilities(meta[ENVELOPE.capabilities]))
        result = {
          supportedVersions: MODERN_REVISIONS,
          capabilities: CAPABILITIES,
          instructions,
          // Complete, and not to be cached beyond this connection (the SDK's default cache hint).
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
          _meta: { [ENVELOPE.server]: SERVER_INFO },
        };
  }
  return result && { id, line: frame({ result, jsonrpc: '2.0', id }) };
}

/**
 * Reads standard input up to its first line and answers it when it can (firstAnswer); what was read
 * and said, for the full CLI. Undefined (nothing read) when the command line is not one answered
 * here (firstInstructions). `streams`: the process (bin/checkin.js) or its IO (binary.ts), whose
 * streams are made when first asked for: only then (making stdin costs a run that never reads it).
 */
export function answerFirst(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  streams: { readonly stdin: Readable; readonly stdout: Writable },
): Promise<StdinOpening> | undefined {
  const first = firstInstructions(argv, env);
  if (first === undefined) return undefined;
  const { instructions, profile } = first;
  const { stdin: input, stdout: output } = streams;
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = (ended: boolean, answered?: StdinOpening['answered']) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onEnd);
      input.pause();
      const opening: StdinOpening = { read: Buffer.concat(parts, size), ended, answered, profile };
      if (!answered) return resolve(opening);
      // Handed over once the answer is out (a pipe is written later on some systems): loading the rest blocks.
      // A failure to write it is handed over with the rest, for the full CLI to say as it says the
      // server's own (commands/mcp/mcp.ts, ui/io.ts protocolIO): never thrown from the stream's event
      // (an uncaught crash, with a stack). The client gone (EPIPE) is not one: the full server finds it.
      output.once('error', () => undefined);
      output.write(`${answered.line}\n`, (err) => resolve(err && !readerGone(err) ? { ...opening, failed: err } : opening));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const newline = bytes.indexOf(0x0a);
      parts.push(bytes);
      size += bytes.length;
      if (newline === -1) {
        if (size > MAX_FIRST_LINE) done(false);
        return;
      }
      const all = Buffer.concat(parts, size);
      const answered = firstAnswer(
        all
          .subarray(0, size - bytes.length + newline)
          .toString('utf8')
          .replace(/\r$/, ''),
        instructions,
      );
      done(false, answered);
    };
    // Ended (or failed) before a line: the full server reads what there was, and ends.
    const onEnd = () => done(true);
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onEnd);
  });
}
