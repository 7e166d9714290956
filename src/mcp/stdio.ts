// The protocol's stdio transport: one JSON-RPC message a line, as the SDK's StdioServerTransport
// reads them, with what it does not do. The SDK's ReadBuffer holds everything that came (all
// lines, one Buffer.concat a chunk) and, past 10 MiB, throws: the transport closes, `checkin mcp`
// ends with exit 0, and nobody is answered. Here a message is read line by line and never more
// than MAX_MESSAGE_BYTES of a line is held: a longer one is let go as it comes (only a small scan
// of it runs, for its id) up to its newline, and answered with an error; a line that is not JSON
// (-32700) or not a JSON-RPC message (-32600) is answered too; and the next line is read as ever.
//
// Measured against the SDK's StdioServerTransport (the same server otherwise, Node 24, issue 49):
// to the first answers (initialize, tools/list) the two cost the same, 545 M and 541–556 M
// instructions under callgrind; on a 12 MiB request followed by tools/list, the SDK's ended the
// server after 10.2 s at a 165 MiB peak with neither answered, where this one answered both (the
// first with -32600) in 1.5 s at a 90 MiB peak. It stays for the second.
import type { Readable, Writable } from 'node:stream';
import {
  parseJSONRPCMessage,
  ProtocolErrorCode as ErrorCode,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { frame } from './frame.js';
import type { StdinOpening } from '../context.js';

/** The most one message (one line, its newline not counted) may hold: the SDK's own limit, 10 MiB. */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** What a message's top level said, as far as a scan could tell: its id, and whether it asks (method) or answers (result, error). */
interface Top {
  id: RequestId | null | undefined;
  method: boolean;
  answer: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** The longest id (as JSON) and key a scan keeps: longer ones are not read. */
const MAX_ID_BYTES = 256;
const MAX_KEY_BYTES = 16;

/**
 * Reads the top-level keys of a JSON object as its bytes go by, holding at most a few hundred of
 * them: enough to answer a message too large to keep with its own id, wherever in it the id is
 * (the SDK's client writes it last, after the params).
 */
export class TopScan {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private failed = false;
  /** At depth 1: a key is expected next (after `{` or `,`). */
  private keyNext = false;
  private key: number[] | undefined;
  private lastKey: string | undefined;
  private idBytes: number[] | undefined;
  private readonly top: Top = { id: undefined, method: false, answer: false };

  feed(bytes: Uint8Array): void {
    if (this.failed) return;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (this.idBytes) {
        if (!this.inString && this.depth === 1 && (b === COMMA || b === CLOSE_BRACE)) this.endId();
        else if (this.idBytes.length <= MAX_ID_BYTES) this.idBytes.push(b);
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.key) {
            this.lastKey = this.key.length <= MAX_KEY_BYTES ? String.fromCharCode(...this.key) : undefined;
            this.key = undefined;
          }
          continue;
        }
        if (this.key && this.key.length <= MAX_KEY_BYTES) this.key.push(b);
        continue;
      }
      if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) continue;
      if (!this.started) {
        this.started = true;
        if (b !== OPEN_BRACE) {
          this.failed = true;
          return;
        }
        this.depth = 1;
        this.keyNext = true;
        continue;
      }
      if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.keyNext) {
          this.key = [];
          this.keyNext = false;
        }
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) this.depth--;
      else if (this.depth === 1 && b === COMMA) this.keyNext = true;
      else if (this.depth === 1 && b === COLON && this.lastKey !== undefined) {
        const key = this.lastKey;
        this.lastKey = undefined;
        if (key === 'id') this.idBytes = [];
        else if (key === 'method') this.top.method = true;
        else if (key === 'result' || key === 'error') this.top.answer = true;
      }
    }
  }

  private endId(): void {
    const bytes = this.idBytes!;
    this.idBytes = undefined;
    this.top.id = null;
    if (bytes.length > MAX_ID_BYTES) return;
    const text = Buffer.from(bytes).toString('utf8').trim();
    try {
      const id: unknown = JSON.parse(text);
      if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) this.top.id = id;
    } catch {
      // not an id that can be answered
    }
  }

  result(): Top {
    return { ...this.top };
  }
}

/** A message's id, when it has one that can be answered. */
function idOf(value: unknown): RequestId | undefined {
  if (typeof value !== 'object' || value === null || !('id' in value)) return undefined;
  const id = (value as { id: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

function topOf(value: unknown): Top {
  const o = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { id: idOf(value), method: 'method' in o, answer: 'result' in o || 'error' in o };
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called once, on the turn after the first message is handed to the output: what waits until the first answer is out (CONTRIBUTING, "Start-up"). */
  afterFirstWrite?: () => void;

  /** The current line's pieces, at most `maxBytes` in all; undefined while a too-long line is let go. */
  private parts: Buffer[] | undefined = [];
  private size = 0;
  private scan: TopScan | undefined;
  private closed = false;

  /** The first request's answer, written before the server was loaded (first.ts): the server's own is checked against it, not sent. */
  private answered: StdinOpening['answered'];

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
    /** What was read of the input before (bin/checkin.js, first.ts): read first, as if it came now. */
    private opening?: StdinOpening,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= bytes.length && !this.closed) {
      const newline = bytes.indexOf(0x0a, start);
      const piece = bytes.subarray(start, newline === -1 ? bytes.length : newline);
      if (this.parts && this.size + piece.length > this.maxBytes) {
        // Too long to keep: scan what was kept for the id, let it go, and scan the rest as it comes.
        this.scan = new TopScan();
        for (const p of this.parts) this.scan.feed(p);
        this.parts = undefined;
        this.size = 0;
      }
      if (this.parts) {
        if (piece.length > 0) this.parts.push(piece);
        this.size += piece.length;
      } else this.scan!.feed(piece);
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onError = (error: Error): void => this.onerror?.(error);

  private endLine(): void {
    if (!this.parts) {
      const top = this.scan!.result();
      this.scan = undefined;
      this.parts = [];
      this.refuse(top, ErrorCode.InvalidRequest, `Message too large: a message may hold at most ${this.maxBytes / (1024 * 1024)} MiB; this one was not read`);
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.refuse({ id: null, method: false, answer: false }, ErrorCode.ParseError, `Parse error: the line is not JSON (${(err as Error).message})`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.refuse(topOf(value), ErrorCode.InvalidRequest, 'Invalid Request: the line is not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * A message that could not be read: a request (or what cannot be told) is answered with the error,
   * under its id when that could be read and null otherwise (JSON-RPC 2.0, section 5); a notification
   * is not answered. An answer to one of the server's own questions is never answered: its question
   * gets the error instead, at once (rather than waiting out its time).
   */
  private refuse(top: Top, code: number, message: string): void {
    this.onerror?.(new Error(message));
    const id = top.id ?? null;
    if (top.answer && !top.method) {
      if (id !== null) this.onmessage?.({ jsonrpc: '2.0', id, error: { code, message } });
      return;
    }
    if (top.method && top.id === undefined) return;
    this.write({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private write(message: JSONRPCMessage): Promise<void> {
    const said = this.answered;
    if (said && 'id' in message && message.id === said.id && ('result' in message || 'error' in message)) {
      // Already answered, before the server was loaded: said once. Its answer should be the same line.
      this.answered = undefined;
      const line = frame(message);
      if (line !== said.line)
        this.onerror?.(new Error(`the first answer, given before the server was loaded, was not the server's: sent ${said.line}, the server's ${line}`));
      this.afterWrite();
      return Promise.resolve();
    }
    // Every answer written while the output is full waits for the same one 'drain' (one listener, not
    // one per answer: a client asking twenty things at once made Node warn of a leak on stderr).
    const written = this.output.write(`${frame(message)}\n`) ? Promise.resolve() : this.drained();
    this.afterWrite();
    return written;
  }

  private draining: Promise<void> | undefined;
  private drained(): Promise<void> {
    this.draining ??= new Promise<void>((resolve) =>
      this.output.once('drain', () => {
        this.draining = undefined;
        resolve();
      }),
    );
    return this.draining;
  }

  private afterWrite(): void {
    const after = this.afterFirstWrite;
    this.afterFirstWrite = undefined;
    if (after) setImmediate(after);
  }

  async start(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    if (opening) {
      this.answered = opening.answered;
      this.onData(Buffer.from(opening.read.buffer, opening.read.byteOffset, opening.read.byteLength));
      // The bytes after them are still in the stream, which first.ts paused.
      if (!opening.ended) this.input.resume();
    }
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.scan = undefined;
    this.onclose?.();
  }
}
