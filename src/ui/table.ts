// Columns for people (padded to display width) and for scripts (tab-separated, one record a line).
//
// THE WIDTH RULE — one rule for every table (list, goals, team, people, teams, activity, reactions,
// goal updates), so a narrow terminal degrades the same way everywhere:
//
// - Every column has a header, and says what it holds:
//     state  done/blocked, mood, confidence, membership: never cut, never left out;
//     whole  dates, ids, numbers, handles: never cut; some (ids, details) may be left out;
//     name   people's names: cut with "…" ("Linus Torva…") only when nothing else gives way;
//     text   free text (one column at most): takes what is left, cut at a word edge with "…".
// - A table wider than the terminal gives way in this order, and only as far as it must:
//     0. id columns a view marks `short` show short ids (the first 8 characters, as git shows
//        short hashes; longer where two ids of the listing share them: core/short-ids.ts);
//     1. the columns a view marks `drop` (ids, then details) are left out, in that order, until
//        the free text has TEXT_ROOM cells (or all it needs); one that left early comes back
//        when a later one made room for it;
//     2. names are cut, down to NAME_MIN cells, so that the free text keeps TEXT_MIN cells;
//        a short id column a view marks `drop` goes only here, when that is not enough;
//     3. then the free text is left out: the last column to go, as state never goes — but for a
//        short id a view marks `outlastsText` (`list`'s: the id `checkin checkin` takes), which
//        goes after the free text, only when the row does not fit without it;
//     4. names are cut, down to NAME_MIN cells, until the row fits.
// - Free text is cut at a word edge: the longest run of whole words that fits, then "…" (only a
//   first word longer than the room is cut inside it). Nothing wraps mid-word.
// - Below the floor (the columns that never go no longer fit: under 40 columns for `list`), a
//   row is folded between two cells onto the next line, never cut.
// - Markdown never reaches a cell as markers: views pass free text through plainLine (markdown.ts).
// Views that show whole texts (a check-in, comments, the inbox) wrap at word edges instead (wrap.ts).

import { ShortIds } from '../core/short-ids.js';
import { displayWidth } from './width.js';

export { displayWidth };

const ANSI = /\x1b\[[0-9;]*m/g;

/** Free text is kept while it gets at least this many cells. */
export const TEXT_MIN = 12;
/** Optional columns leave until the free text gets this many cells. */
export const TEXT_ROOM = 24;
/** A name is never cut shorter than this (nor than its header). */
export const NAME_MIN = 8;
const GAP = 2;

let segmenter: Intl.Segmenter | undefined;

/**
 * Cuts `text` to `max` cells at a word edge, with an ellipsis when something was cut: the longest
 * run of whole words that fits (trailing punctuation that only separated it from the next word
 * goes too); only a first word longer than the room is cut inside. `atWord` false: cut at the
 * last character that fits (a name reads better as "Linus Torva…" than "Linus…"). Styles (SGR)
 * do not survive a cut.
 */
export function truncate(text: string, max: number, atWord = true): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  const plain = text.replace(ANSI, '');
  let out = '';
  if (displayWidth(plain) === plain.length && !/[\u0300-\uffff]/.test(plain))
    out = plain.slice(0, max - 1); // one cell a character
  else {
    let used = 0;
    for (const { segment } of (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(plain)) {
      used += displayWidth(segment);
      if (used > max - 1) break;
      out += segment;
    }
  }
  if (!atWord) return out.trimEnd() + '…';
  // The prefix ends at a word edge when a space follows it; otherwise back to the last space in it.
  const atEdge = /^\s/.test(plain.slice(out.length)) || /\s$/.test(out);
  const edge = atEdge ? out.length : out.search(/\s\S*$/);
  // Trailing spaces and , ; : · — – -. A regular expression is written in ASCII (\u escapes): the
  // bundle must be (CONTRIBUTING.md, "Start-up").
  const words = edge > 0 ? out.slice(0, edge).replace(/[\s,;:\u00b7\u2014\u2013-]+$/u, '') : '';
  return (words || out.trimEnd()) + '…';
}

export type ColumnKind = 'state' | 'whole' | 'name' | 'text';

export interface Column {
  /** The header (every column has one). */
  title: string;
  /** What it holds, which says how it gives way (the rule above). */
  kind: ColumnKind;
  /** Left out when the table is too wide, lowest first (ids, details); never on state or text. */
  drop?: number;
  /** At least this wide: a state column whose widest value may first come on a later page. */
  min?: number;
  /** An id column (kind whole) whose cells may be shown as short ids (rule 0): kept before other optional columns. */
  short?: boolean;
  /** A short id the reader acts on (`list`'s, which `checkin checkin <id>` takes): it outlasts the free text (rule 3). */
  outlastsText?: boolean;
}

export interface TableOptions {
  columns: Column[];
  /** Styles the header row (dim, bold…). */
  style?: (text: string) => string;
  /** Spaces before every row (a table under a heading). */
  indent?: number;
}

interface Layout {
  /** Indexes of the columns shown. */
  keep: number[];
  /** Width of each column (by index). */
  widths: number[];
  /** The id columns shown by their short ids (by index). */
  short: boolean[];
}

/**
 * Which columns fit `width` and how wide each is, measured over `all` (header included): the rule
 * above. `shortAll`: the same rows with the `short` columns' ids shortened.
 */
export function layoutOf(all: string[][], width: number, opts: TableOptions, shortAll: string[][] = all): Layout {
  const { columns } = opts;
  for (const col of columns) {
    if (!col.title) throw new Error('every column has a header');
    if (col.drop !== undefined && (col.kind === 'state' || col.kind === 'text'))
      throw new Error(`column ${col.title}: state and free text are never dropped before the rest`);
  }
  const natural = columns.map((col, i) => Math.max(col.min ?? 0, ...all.map((r) => displayWidth(r[i] ?? ''))));
  const text = columns.findIndex((c) => c.kind === 'text');
  const names = columns.map((c, i) => (c.kind === 'name' ? i : -1)).filter((i) => i >= 0);
  const nameMin = (i: number) => Math.min(natural[i]!, Math.max(NAME_MIN, displayWidth(columns[i]!.title)));
  let keep = columns.map((_, i) => i);
  const widths = [...natural];
  const short = columns.map(() => false);
  /** Cells left for the free text (or spare, without it) once every other kept column has its width. */
  const room = () => width - (opts.indent ?? 0) - keep.filter((i) => i !== text).reduce((a, i) => a + widths[i]!, 0) - GAP * (keep.length - 1);
  const hasText = () => text >= 0 && keep.includes(text);
  /** Cuts names (the widest first, a cell at a time) down to their minimum while room() < need. */
  const shrinkNames = (need: number) => {
    for (;;) {
      if (room() >= need) return;
      const cut = names.filter((i) => keep.includes(i) && widths[i]! > nameMin(i)).sort((a, b) => widths[b]! - widths[a]!)[0];
      if (cut === undefined) return;
      widths[cut]!--;
    }
  };
  const wanted = text >= 0 ? Math.min(TEXT_ROOM, natural[text]!) : 0;
  // 0. Ids are shown short when the free text wants room (or the row does not fit).
  const shortCols = columns.map((c, i) => (c.short ? i : -1)).filter((i) => i >= 0);
  if (room() < wanted)
    for (const i of shortCols) {
      short[i] = true;
      widths[i] = Math.max(columns[i]!.min ?? 0, ...shortAll.map((r) => displayWidth(r[i] ?? '')));
    }
  // 1. Optional columns leave, in their order, until the free text has room (or everything fits).
  const optional = columns
    .map((c, i) => [c.drop, i] as const)
    .filter(([d, i]) => d !== undefined && !columns[i]!.short)
    .sort((a, b) => a[0]! - b[0]!);
  const dropped: number[] = [];
  for (const [, i] of optional) {
    if (room() >= wanted) break;
    keep = keep.filter((k) => k !== i);
    dropped.unshift(i);
  }
  // One that left before a wider one may fit again now (a due date, once the id is gone).
  for (const i of dropped.slice(1)) {
    keep = [...keep, i].sort((a, b) => a - b);
    if (room() < wanted) keep = keep.filter((k) => k !== i);
  }
  if (hasText()) {
    // 2. Names give way so the free text keeps TEXT_MIN cells (or all it needs).
    const least = Math.min(TEXT_MIN, natural[text]!);
    shrinkNames(least);
    // Short ids marked `drop` go only when the free text would otherwise go (one that outlasts it, after it).
    const shortOptional = columns
      .map((c, i) => [c.drop, i] as const)
      .filter(([d, i]) => d !== undefined && columns[i]!.short && !columns[i]!.outlastsText)
      .sort((a, b) => a[0]! - b[0]!);
    for (const [, i] of shortOptional) {
      if (room() >= least) break;
      keep = keep.filter((k) => k !== i);
      for (const n of names) widths[n] = natural[n]!;
      shrinkNames(least);
    }
    // 3. Still too narrow: the free text goes, and the names take back what they can.
    if (room() < least) {
      keep = keep.filter((k) => k !== text);
      for (const i of names) widths[i] = natural[i]!;
    } else widths[text] = keep.at(-1) === text ? room() : Math.min(natural[text]!, room()); // a later page's text may be longer
  }
  // 3b. A short id that outlasts the free text goes only when the row does not fit without the text.
  if (!hasText())
    for (const i of columns.map((c, i) => (c.outlastsText && c.drop !== undefined ? i : -1)).filter((i) => i >= 0))
      if (room() < 0) keep = keep.filter((k) => k !== i);
  // 4. Names are cut until the row fits (or they are at their minimum: below the floor).
  if (!hasText()) shrinkNames(0);
  return { keep, widths, short };
}

/**
 * One row laid out: cells padded to their column; names and free text cut, the rest never cut.
 * A row still wider than `width` (below the floor) is folded between two cells.
 */
function lineOf(full: string[], shortRow: string[], { keep, widths, short }: Layout, opts: TableOptions, width: number): string {
  const indent = ' '.repeat(opts.indent ?? 0);
  const lines: string[] = [];
  let line = '';
  /** Cells of `line` (the indent included), up to the end of its last cell's text. */
  let used = indent.length;
  for (const i of keep) {
    const cell = (short[i] ? shortRow : full)[i] ?? '';
    const w = widths[i]!;
    const kind = opts.columns[i]!.kind;
    const cellWidth = displayWidth(cell);
    const cut = cellWidth > w && (kind === 'name' || kind === 'text') ? truncate(cell, w, kind === 'text') : cell;
    const cutWidth = cut === cell ? cellWidth : displayWidth(cut);
    const padded = cut + ' '.repeat(Math.max(0, w - cutWidth));
    if (line && used + GAP + cutWidth > width) {
      lines.push(line);
      line = padded;
      used = indent.length + Math.max(w, cutWidth);
    } else {
      used += (line ? GAP : 0) + Math.max(w, cutWidth);
      line = line ? line + ' '.repeat(GAP) + padded : padded;
    }
  }
  lines.push(line);
  return lines.map((l) => (indent + l).trimEnd()).join('\n');
}

/** Rows padded into columns that fit `width`, under a header row, by the width rule above. */
export function table(rows: string[][], width: number, opts: TableOptions): string {
  return tableStream(width, opts)(rows);
}

/**
 * A table that arrives in parts (pages): the first part fixes the columns (and the header);
 * later rows are padded to them, and a name or free text wider than its column is cut.
 */
export function tableStream(width: number, opts: TableOptions): (rows: string[][]) => string {
  let layout: Layout | undefined;
  // Short ids are unique within the whole listing, every page so far.
  const ids = opts.columns.map((c) => (c.short ? new ShortIds() : undefined));
  const shorten = (rows: string[][]): string[][] => {
    if (!ids.some(Boolean)) return rows;
    ids.forEach((s, i) => s?.add(rows.map((r) => (r[i] ?? '').replace(ANSI, ''))));
    return rows.map((r) =>
      r.map((cell, i) => {
        const s = ids[i];
        if (!s) return cell;
        const plain = cell.replace(ANSI, '');
        return plain ? cell.replace(plain, s.short(plain)) : cell;
      }),
    );
  };
  return (rows) => {
    if (rows.length === 0) return '';
    const shortRows = shorten(rows);
    if (!layout) {
      const header = opts.columns.map((c) => c.title);
      layout = layoutOf([header, ...rows], width, opts, [header, ...shortRows]);
      const head = lineOf(header, header, layout, opts, width);
      const text = [opts.style ? opts.style(head) : head, ...rows.map((r, n) => lineOf(r, shortRows[n]!, layout!, opts, width))];
      return text.join('\n') + '\n';
    }
    return rows.map((r, n) => lineOf(r, shortRows[n]!, layout!, opts, width)).join('\n') + '\n';
  };
}

/** Tab-separated values: tabs and newlines inside a field become spaces. */
export function tsv(rows: string[][]): string {
  return rows.map((r) => r.map((f) => f.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n') + (rows.length ? '\n' : '');
}
