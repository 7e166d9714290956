// Colour for checkin's own output, through chalk at the level computed once from NO_COLOR /
// FORCE_COLOR / the TTY (ui/io.ts), not chalk's own look at the terminal. Without colour chalk
// is not loaded at all.
import type { ColorLevel } from './io.js';

const NAMES = ['bold', 'dim', 'italic', 'underline', 'red', 'green', 'yellow', 'magenta', 'cyan'] as const;

type StyleName = (typeof NAMES)[number];

/** `c.bold(text)`, `c.magenta.bold(text)`… */
export type Style = ((text: string) => string) & { readonly [K in StyleName]: Style };
export type Colors = Style;

/** Level 0: every style, however chained, gives the text back as it is. */
const plain = ((text: string) => text) as Style;
for (const name of NAMES) Object.defineProperty(plain, name, { value: plain });

export async function makeColors(level: ColorLevel): Promise<Colors> {
  if (level === 0) return plain;
  const { Chalk } = await import('chalk');
  return new Chalk({ level });
}
