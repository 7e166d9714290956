// CSV cells are safe in a spreadsheet and still lossless for text: generated cells full of formula
// characters, whitespace (ASCII and Unicode), CR/LF, fullwidth forms, quotes and apostrophes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../src/ui/report-formats.js';
import { sanitize } from '../../src/ui/sanitize.js';
import { anyCodePoint } from './arbitraries.js';

/** RFC 4180: one cell back from its CSV form (expect() only where it fails: it costs more than the rest of a generated run). */
function unquote(cell: string): string {
  if (!cell.startsWith('"')) {
    if (/[",\r\n]/.test(cell)) expect(cell).not.toMatch(/[",\r\n]/);
    return cell;
  }
  if (!cell.endsWith('"')) expect(cell.endsWith('"')).toBe(true);
  const inner = cell.slice(1, -1);
  if (inner.replace(/""/g, '').includes('"')) expect(inner.replace(/""/g, '')).not.toContain('"');
  return inner.replace(/""/g, '"');
}

/** What a spreadsheet may evaluate: a formula character first once whitespace and controls are skipped (fullwidth forms folded), or a cell starting with tab, CR or LF. */
function looksLikeFormula(text: string): boolean {
  const folded = text.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  return /^[\s\u0000-\u001f\u200b-\u200d\u2060]*[=+\-@]/u.test(folded) || /^[\t\r\n]/.test(text);
}

const tricky = fc.constantFrom(
  ' ',
  '\t',
  '\r',
  '\n',
  '\r\n',
  '=',
  '+',
  '-',
  '@',
  '＝',
  '＋',
  '－',
  '＠',
  '\u3000',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\u200b',
  "'",
  '"',
  ',',
  'SUM(A1)',
  'x',
);
const cellText = fc.array(fc.oneof(tricky, fc.string({ unit: anyCodePoint, maxLength: 4 })), { maxLength: 8 }).map((parts) => parts.join(''));

describe('csvCell', () => {
  it('never leaves a formula for a spreadsheet, and one leading apostrophe less gives the sanitised text back', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        const cell = unquote(csvCell(text));
        const defused = cell.startsWith("'");
        const back = defused ? cell.slice(1) : cell;
        if (back !== sanitize(text)) expect(back).toBe(sanitize(text));
        if (!defused && looksLikeFormula(cell)) expect(looksLikeFormula(cell), cell).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('the cases OWASP lists and the ones seen getting through', () => {
    const cases: Array<[string, string]> = [
      ['=1+1', "'=1+1"],
      [' =1+1', "' =1+1"],
      ['\t=1', "'\t=1"],
      ['\r=1', `"'\n=1"`],
      ['\n=1', `"'\n=1"`],
      ['＝1+1', "'＝1+1"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['-2', "'-2"],
      ["'quoted", "''quoted"],
      ['plain text', 'plain text'],
      ['a, b', '"a, b"'],
    ];
    expect(cases.map(([input]) => csvCell(input))).toEqual(cases.map(([, out]) => out));
  });
});
