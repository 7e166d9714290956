// Colour for checkin's own output, at the level computed once from NO_COLOR / FORCE_COLOR / the TTY.
// The nine styles checkin uses, written as chalk writes them (a style reopened after a nested one
// closes it, and closed and reopened around line breaks), without loading chalk and its
// terminal probing (~2 ms of every coloured run).
import type { ColorLevel } from './io.js';

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;

type StyleName = keyof typeof CODES;

/** `c.bold(text)`, `c.magenta.bold(text)`… */
export type Style = ((text: string) => string) & { readonly [K in StyleName]: Style };
export type Colors = Style;

interface Styler {
  open: string;
  close: string;
  openAll: string;
  closeAll: string;
  parent?: Styler;
}

/** Each `find` in `text` followed by `add`. */
function afterEach(text: string, find: string, add: string): string {
  return text.split(find).join(find + add);
}

function style(on: boolean, styler: Styler | undefined): Style {
  const apply = (text: string): string => {
    if (!on || !text || !styler) return text;
    let out = text;
    if (out.includes('\u001b')) for (let s: Styler | undefined = styler; s; s = s.parent) out = afterEach(out, s.close, s.open);
    if (out.includes('\n')) out = out.replace(/\r?\n/g, (nl) => styler.closeAll + nl + styler.openAll);
    return styler.openAll + out + styler.closeAll;
  };
  for (const name of Object.keys(CODES) as StyleName[]) {
    Object.defineProperty(apply, name, {
      get: () => {
        const [open, close] = CODES[name];
        const o = `\u001b[${open}m`;
        const c = `\u001b[${close}m`;
        return style(on, { open: o, close: c, openAll: (styler?.openAll ?? '') + o, closeAll: c + (styler?.closeAll ?? ''), ...(styler && { parent: styler }) });
      },
    });
  }
  return apply as Style;
}

export function makeColors(level: ColorLevel): Colors {
  return style(level > 0, undefined);
}
