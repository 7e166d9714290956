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

/** Cuts `text` (plain) to `max` cells, with an ellipsis when something was cut. */
export function truncate(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return out + '…';
}

/** Rows padded into columns; the last column is cut to fit `width`. */
export function table(rows: string[][], width: number): string {
  if (rows.length === 0) return '';
  const cols = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: cols - 1 }, (_, i) => Math.max(...rows.map((r) => displayWidth(r[i] ?? ''))));
  const used = widths.reduce((a, b) => a + b + 2, 0);
  return (
    rows
      .map((r) => {
        const cells = r.slice(0, cols - 1).map((cell, i) => cell + ' '.repeat(widths[i]! - displayWidth(cell)));
        const last = r[cols - 1] ?? '';
        return [...cells, truncate(last, Math.max(10, width - used))].join('  ').trimEnd();
      })
      .join('\n') + '\n'
  );
}

/** Tab-separated values: tabs and newlines inside a field become spaces. */
export function tsv(rows: string[][]): string {
  return rows.map((r) => r.map((f) => f.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n') + (rows.length ? '\n' : '');
}
