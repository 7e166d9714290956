// Man pages (roff, section 1) from the manual's Markdown pages, for `man checkin-today` once the
// package is installed (npm links `man/` into its prefix's share/man: package.json "directories").
// The pages use little Markdown — headings, paragraphs, fenced blocks, two-column tables, `code`,
// **bold**, [links](…), a whole-line <!-- comment --> (a roff comment) — and that is all this reads. scripts/docs.mjs calls it; no date goes in, so
// the pages change only when the commands do.

/** Text for roff: backslashes escaped, a line never starting with a control character. */
const esc = (s) => s.replace(/\\/g, '\\e').replace(/-/g, '\\-');
const line = (s) => (/^[.']/.test(s) ? `\\&${s}` : s);

/** Inline Markdown → roff fonts: `code` and **bold** in bold, [text](url) as its text; `\|` a bar. */
function inline(s) {
  return esc(s.replace(/\\\|/g, '|'))
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]+)`/g, '\\fB$1\\fR')
    .replace(/\*\*([^*]+)\*\*/g, '\\fB$1\\fR');
}

/** A table row's cells (a `\|` inside a cell is a bar, not a border). */
const cells = (row) =>
  row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** One manual page (`# checkin goal update`, its description, sections) as a man page. */
export function manPage(markdown, version) {
  const src = markdown.split('\n');
  const title = src[0].replace(/^# /, '');
  const name = title.replace(/ /g, '-');
  const out = [`.TH "${name.toUpperCase()}" "1" "" "checkin ${version}" "checkin manual"`, '.SH NAME', `${esc(name)} \\- ${inline(src[2] ?? '')}`];
  let i = 3;
  let first = true;
  /** A section heading; a paragraph break just before it is left out. */
  const section = (name) => {
    if (out.at(-1) === '.PP') out.pop();
    out.push(`.SH ${esc(name.toUpperCase())}`);
  };
  for (; i < src.length; i++) {
    const l = src[i];
    if (l.startsWith('```')) {
      const block = [];
      for (i++; i < src.length && !src[i].startsWith('```'); i++) block.push(src[i]);
      // The first block is the usage line(s).
      if (first) section('synopsis');
      out.push(first ? '.nf' : '.PP\n.RS 4\n.nf', ...block.map((b) => line(esc(b))), first ? '.fi' : '.fi\n.RE');
      first = false;
    } else if (/^<!--.*-->$/.test(l)) {
      // A note for whoever edits the page (the generated-file notice): a roff comment under the title, never shown.
      out.splice(1, 0, `.\\" ${l.slice(4, -3).trim()}`);
      if (src[i + 1]?.trim() === '') i++;
    } else if (l.startsWith('## ')) section(l.slice(3));
    else if (l.startsWith('|')) {
      if (/^\|-/.test(l) || /^\| (option|argument|code|command|topic|variable) \|/.test(l)) continue;
      const [term, ...rest] = cells(l);
      out.push('.TP', line(inline(term)), line(inline(rest.join(' '))));
    } else if (l.trim() === '') {
      if (!/^\.(SH|PP|TP)/.test(out.at(-1))) out.push('.PP');
    } else out.push(line(inline(l)));
  }
  while (out.at(-1) === '.PP') out.pop();
  return `${out.join('\n')}\n`;
}

/** The man pages for the manual's files (docs/commands/checkin-*.md → man/checkin-*.1, the index → man/checkin.1). */
export function manPages(files, version) {
  const pages = new Map();
  for (const [path, text] of files) {
    const m = /^docs\/commands\/(checkin-[\w-]+)\.md$/.exec(path);
    if (m && m[1] !== 'checkin-help') pages.set(`man/${m[1]}.1`, manPage(text, version));
    // The index is `man checkin`: every command, in the help's groups.
    if (path === 'docs/commands/README.md') pages.set('man/checkin.1', manPage(text.replace(/^# .*/, '# checkin'), version));
  }
  return pages;
}
