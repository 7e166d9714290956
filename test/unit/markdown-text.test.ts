// A plain field in a Markdown report (a name, a title, a mood) renders as exactly its text: checked
// with two real renderers at their most permissive (markdown-it with raw HTML, bare-domain links and
// typographer off; marked, GitHub's flavour: tables, strikethrough, www. and e-mail autolinks), in
// the places the report puts such a field — a heading, a list item, after other text.
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { markdownText } from '../../src/ui/report-formats.js';
import { sanitizeLine } from '../../src/ui/sanitize.js';

const mdit = new MarkdownIt({ html: true, linkify: true });
const renderers: Array<[string, (md: string) => string]> = [
  ['markdown-it', (md) => mdit.render(md)],
  ['marked', (md) => marked.parse(md, { async: false, gfm: true })],
];
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** The text of rendered HTML that should hold no element but the ones named: its tags checked, its entities read. */
function textOf(html: string, allowed: string[]): string {
  const tags = [...html.matchAll(/<\/?([a-zA-Z][\w-]*)[^>]*>/g)].map((m) => m[0]);
  const ok = allowed.map((t) => [`<${t}>`, `</${t}>`]).flat();
  // expect() only for a tag that fails: 4000 generated runs, where each expect() costs more than the rendering.
  for (const tag of tags) if (!ok.includes(tag)) expect(ok, html).toContain(tag);
  return html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
}
/** Markdown's own blanks at the ends of a line are not text (spaces and tabs; tabs are gone after sanitizeLine). */
const trimmed = (s: string) => s.replace(/^ +| +$/g, '');

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '[x](javascript:alert(1))',
  '![i](http://evil/x.png)',
  '# | a | b |',
  '<script>alert(1)</script>',
  '<!-- hidden',
  '&lt;b&gt; &#60;img&#62; &amp;',
  'http://evil.example/x www.evil.example evil.example mail@evil.example <http://evil.example>',
  '*em* **strong** _u_ `code` ~~gone~~ $x^2$ :smile: ==mark== [^1] {#id}',
  'line\\',
  '[ref]: http://evil.example',
  'Jean-Luc O\'Brien, Ann; 100% "quoted"?',
];

describe('markdownText', () => {
  it('escapes what Markdown reads: entities for & < >, a backslash before the rest; plain names unchanged', () => {
    expect(markdownText('Ada Lovelace')).toBe('Ada Lovelace');
    expect(markdownText('Jean-Luc O\'Brien, Ann; 100% "quoted"?')).toBe('Jean-Luc O\'Brien, Ann; 100% "quoted"?');
    expect(markdownText('<img src=x onerror=alert(1)>')).toBe('&lt;img src\\=x onerror\\=alert\\(1\\)&gt;');
    expect(markdownText('[x](javascript:alert(1))')).toBe('\\[x\\]\\(javascript\\:alert\\(1\\)\\)');
    expect(markdownText('# | a |')).toBe('\\# \\| a \\|');
    expect(markdownText('evil.example a@b')).toBe('evil\\.example a\\@b');
    expect(markdownText('a\\b & c')).toBe('a\\\\b &amp; c');
    // One line, sanitised: no escape sequence, newline or tab survives to start a block.
    expect(markdownText('one\n# two\t\u001b[2Jthree\u202e')).toBe('one \\# two three');
  });

  for (const [name, render] of renderers) {
    it(`${name}: hostile fields render as their text, with no element or link of their own`, () => {
      for (const field of HOSTILE) {
        const text = trimmed(sanitizeLine(field));
        expect(textOf(render(`## ${markdownText(field)}\n`), ['h2']).trim(), field).toBe(text);
        expect(textOf(render(`- Goal update “${markdownText(field)}” on ${markdownText(field)}\n`), ['ul', 'li']).trim(), field).toBe(
          `Goal update “${text}” on ${text}`,
        );
        expect(textOf(render(`2 of 2 days · moods: 😌 ${markdownText(field)} ×1\n`), ['p']).trim(), field).toBe(`2 of 2 days · moods: 😌 ${text} ×1`);
      }
    });

    it(`${name}: any text at all renders as itself in a heading and in a line (generated)`, () => {
      const tricky = fc.constantFrom(
        ...'<>&[]()!#*_`~|\\:@.$^={}+-\'";,?%/ \t\n'.split(''),
        'www.',
        'http://',
        'javascript:',
        '<img src=x>',
        '&amp;',
        '&#60;',
        '\u00a0',
        '😌',
        'é',
        'x',
        '1.',
        '- ',
      );
      const field = fc.array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { maxLength: 10 }).map((parts) => parts.join(''));
      fc.assert(
        fc.property(field, (value) => {
          const text = trimmed(sanitizeLine(value));
          const heading = textOf(render(`## ${markdownText(value)}\n`), ['h2']).trim();
          if (heading !== text.trim()) expect(heading).toBe(text.trim());
          const line = textOf(render(`Seen: ${markdownText(value)} (done)\n`), ['p']).trim();
          if (line !== `Seen: ${sanitizeLine(value)} (done)`) expect(line).toBe(`Seen: ${sanitizeLine(value)} (done)`);
        }),
        { numRuns: 2000 },
      );
    });
  }
});
