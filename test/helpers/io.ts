// An IO over buffers, for running commands in-process.
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/ui/io.js';

export interface BufferIO extends IO {
  stdoutText(): string;
  stderrText(): string;
}

export function bufferIO(opts: { tty?: boolean; stdin?: string } = {}): BufferIO {
  let out = '';
  let err = '';
  const stdin = new PassThrough();
  if (opts.stdin !== undefined) stdin.end(opts.stdin);
  const tty = Boolean(opts.tty);
  return {
    stdin,
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    columns: 100,
    colorLevel: 0,
    canPrompt: tty,
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    readStdin: async () => {
      let text = '';
      for await (const chunk of stdin) text += chunk.toString();
      return text;
    },
    onInterrupt: () => () => {},
    stdoutText: () => out,
    stderrText: () => err,
  };
}
