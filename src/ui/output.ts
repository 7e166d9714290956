// How commands end: JSON (exactly the service's objects), views for people or rows for scripts,
// and a note on stderr when there is nothing to show (still exit 0). Colour (chalk) is loaded only
// when something is shown to a person, and the colour level is not 0.
import type { CheckIn } from '../api/types.js';
import { makeColors } from './color.js';
import type { IO } from './io.js';
import { jsonText, renderCheckIn, renderJson } from './render.js';
import { sanitizeDeep } from './sanitize.js';
import type { View } from './views.js';

/** The view of this run's stdout: colours at its level, rich on a terminal, plain when piped. */
export async function viewFor(io: IO, now: Date): Promise<View> {
  return { c: await makeColors(io.colorLevel), rich: io.stdoutIsTTY, width: io.columns, now };
}

export function printJson(io: IO, value: unknown): void {
  io.out(renderJson(value));
}

/** One object: as JSON (exact), or — every string of it sanitised first — through `render` for people and scripts. */
export async function printOne<T>(io: IO, now: Date, value: T, json: boolean | undefined, render: (v: View, value: T) => string): Promise<void> {
  if (json) return printJson(io, value);
  io.out(render(await viewFor(io, now), sanitizeDeep(value)));
}

export async function printList<T>(io: IO, now: Date, list: T[], json: boolean | undefined, none: string, rows: (v: View, list: T[]) => string): Promise<void> {
  if (json) printJson(io, list);
  if (list.length === 0) io.err(`${none}\n`);
  else if (!json) io.out(rows(await viewFor(io, now), sanitizeDeep(list)));
}

/**
 * A list printed as it arrives: a JSON array written item by item (the same text as printList's),
 * or rows for people and scripts; `end` closes it (and says when there was nothing).
 */
export async function streamList<T>(io: IO, now: Date, json: boolean | undefined, none: string, rows: (v: View) => (list: T[]) => string) {
  let n = 0;
  const part = json ? undefined : rows(await viewFor(io, now));
  return {
    add(items: T[]): void {
      if (items.length === 0) return;
      if (part) {
        io.out(part(sanitizeDeep(items)));
      } else {
        const text = items.map((item) => jsonText(item).replace(/^/gm, '  ')).join(',\n');
        io.out(`${n === 0 ? '[\n' : ',\n'}${text}`);
      }
      n += items.length;
    },
    end(): void {
      if (json) io.out(n === 0 ? '[]\n' : '\n]\n');
      if (n === 0) io.err(`${none}\n`);
    },
  };
}

export async function printCheckIn(io: IO, now: Date, c: CheckIn, json: boolean | undefined): Promise<void> {
  await printOne(io, now, c, json, (v, x) => renderCheckIn(x, v.c, v.rich));
}
