// A live screen on the terminal (`checkin team --watch`): the alternate screen, the cursor hidden,
// keys read one at a time (raw mode), whole frames drawn in place from the top-left corner, single
// rows rewritten, and everything given back by restore() — which is safe to call on every path
// and more than once. Control sequences are written to the stream itself (io.out lets checkin's
// colours through and nothing else); the text of each row still goes through the terminal guard.

import type { IO } from './io.js';
import { guardTerminal } from './sanitize.js';

export interface LiveScreen {
  /** The terminal's size now (it follows resizes). */
  size(): { columns: number; rows: number };
  /** A whole frame: row 1 down, each row cleared first; rows below it cleared. */
  draw(lines: string[]): void;
  /** Rewrites one row (1-based) and nothing else. */
  drawRow(row: number, line: string): void;
  /** Back to the main screen as it was: cursor shown, keys cooked, listeners removed. */
  restore(): void;
}

export interface ScreenEvents {
  /** What was typed (a key, or an escape sequence whole). */
  key(keys: string): void;
  resize(): void;
}

const ESC = '\x1b';
const ENTER = `${ESC}[?1049h${ESC}[?25l`;
const LEAVE = `${ESC}[?25h${ESC}[?1049l`;
/** Every frame starts here (home); a single row is addressed by its number instead. */
export const FRAME_START = `${ESC}[H`;

type TtyIn = NodeJS.ReadableStream & { setRawMode?: (raw: boolean) => unknown; isRaw?: boolean };
type TtyOut = NodeJS.WritableStream & { columns?: number; rows?: number };

export function openLiveScreen(io: IO, on: ScreenEvents): LiveScreen {
  const out = io.stdout as TtyOut;
  const input = io.stdin as TtyIn;
  const wasRaw = Boolean(input.isRaw);
  const onData = (chunk: Buffer | string) => on.key(chunk.toString());
  const onResize = () => on.resize();
  let open = true;
  out.write(ENTER);
  input.setRawMode?.(true);
  input.on('data', onData);
  input.resume();
  out.on('resize', onResize);
  const size = () => ({ columns: out.columns || io.columns, rows: out.rows || 24 });
  return {
    size,
    draw(lines) {
      if (!open) return;
      const rows = size().rows;
      let frame = FRAME_START;
      lines.slice(0, rows).forEach((line, i) => {
        frame += `${i === 0 ? '' : `${ESC}[${i + 1};1H`}${ESC}[2K${guardTerminal(line)}`;
      });
      if (lines.length < rows) frame += `${ESC}[${lines.length + 1};1H${ESC}[J`;
      out.write(frame);
    },
    drawRow(row, line) {
      if (!open) return;
      out.write(`${ESC}[${row};1H${ESC}[2K${guardTerminal(line)}`);
    },
    restore() {
      if (!open) return;
      open = false;
      out.off('resize', onResize);
      input.off('data', onData);
      input.setRawMode?.(wasRaw);
      input.pause();
      out.write(LEAVE);
    },
  };
}

/**
 * Keys without a screen (the accessible mode's wall, written as lines): keys read one at a time
 * (raw mode: nothing is echoed, nothing written), the terminal's size not followed; restore() gives
 * the keys back as they were, safe to call on every path and more than once. Writes nothing at all.
 */
export function openKeys(io: IO, on: Pick<ScreenEvents, 'key'>): { restore(): void } {
  const input = io.stdin as TtyIn;
  const wasRaw = Boolean(input.isRaw);
  const onData = (chunk: Buffer | string) => on.key(chunk.toString());
  let open = true;
  input.setRawMode?.(true);
  input.on('data', onData);
  input.resume();
  return {
    restore() {
      if (!open) return;
      open = false;
      input.off('data', onData);
      input.setRawMode?.(wasRaw);
      input.pause();
    },
  };
}
