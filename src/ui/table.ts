// Columns for people (padded to display width) and for scripts (tab-separated, one record a line).

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** Display width: emoji and wide East Asian characters take two cells, combining marks none. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text.replace(ANSI, '')) {
    if (/\p{Mn}|\p{Me}|\u200d|\ufe0f/u.test(ch)) continue;
    w += /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 2 : 1;
  }
  return w;
}

/** Cuts `text` (plain) to `max` cells, at a word edge when one is near, with an ellipsis when something was cut. */
export function truncate(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) > max - 1) break;
    out += ch;
  }
  const edge = out.search(/\s\S*$/);
  if (edge >= Math.floor(max * 0.6)) out = out.slice(0, edge);
  return out.trimEnd() + '…';
}

export interface TableOptions {
  /** Column titles, shown above the rows. */
  header?: string[];
  /** Columns that may go, in this order, when the table does not fit (ids: never cut, better left out). */
  droppable?: number[];
  /** Styles the header row (dim, bold…). */
  style?: (text: string) => string;
}

interface Layout {
  /** Indexes of the columns shown. */
  keep: number[];
  /** Widths of the shown columns but the last. */
  widths: number[];
  /** Cells left for the last column. */
  last: number;
}

/** Which columns fit `width` and how wide each is, measured over `all` (header included). */
function layoutOf(all: string[][], width: number, opts: TableOptions): Layout {
  const cols = Math.max(...all.map((r) => r.length));
  const widthOfColumn = (i: number) => Math.max(...all.map((r) => displayWidth(r[i] ?? '')));
  const fixedWidth = (k: number[]) => k.slice(0, -1).reduce((a, i) => a + widthOfColumn(i) + 2, 0);
  let keep = Array.from({ length: cols }, (_, i) => i);
  for (const drop of opts.droppable ?? []) {
    if (width - fixedWidth(keep) >= 24) break;
    keep = keep.filter((i) => i !== drop);
  }
  const widths = keep.slice(0, -1).map(widthOfColumn);
  return { keep, widths, last: Math.max(10, width - widths.reduce((a, b) => a + b + 2, 0)) };
}

/** One row laid out: shown cells padded to their column (cut when wider), the last cut to what is left. */
function lineOf(row: string[], { keep, widths, last }: Layout): string {
  const cells = keep.map((i) => row[i] ?? '');
  const fixed = cells.slice(0, -1).map((cell, i) => {
    const c = displayWidth(cell) > widths[i]! ? truncate(cell, widths[i]!) : cell;
    return c + ' '.repeat(widths[i]! - displayWidth(c));
  });
  return [...fixed, truncate(cells.at(-1) ?? '', last)].join('  ').trimEnd();
}

/**
 * Rows padded into columns that fit `width`: whole columns (ids, dates) are never cut; when the
 * table is too wide, droppable columns go first, then the last column is cut at a word edge.
 */
export function table(rows: string[][], width: number, opts: TableOptions = {}): string {
  return tableStream(width, opts)(rows);
}

/**
 * A table that arrives in parts (pages): the first part fixes the columns (and the header);
 * later rows are padded to them, and a cell wider than its column is cut.
 */
export function tableStream(width: number, opts: TableOptions = {}): (rows: string[][]) => string {
  let layout: Layout | undefined;
  return (rows) => {
    if (rows.length === 0) return '';
    if (!layout) {
      const all = opts.header ? [opts.header, ...rows] : rows;
      layout = layoutOf(all, width, opts);
      const text = all.map((r) => lineOf(r, layout!));
      if (opts.header && opts.style) text[0] = opts.style(text[0]!);
      return text.join('\n') + '\n';
    }
    return rows.map((r) => lineOf(r, layout!)).join('\n') + '\n';
  };
}

/** Tab-separated values: tabs and newlines inside a field become spaces. */
export function tsv(rows: string[][]): string {
  return rows.map((r) => r.map((f) => f.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n') + (rows.length ? '\n' : '');
}
