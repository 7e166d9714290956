// The man pages as `man` shows them (man/*.1, the files the .deb and npm install): each opens on its
// NAME — the command and what it does — and no page shows a note meant for whoever made it (the
// generated-file notice is a roff comment). `man checkin` is read by `man -l` (or groff where man is
// missing); every page by groff in one run (man -l takes ~0.7 s a page on a loaded machine).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from '../helpers/cli.js';

const has = (cmd: string) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
const GROFF = has('groff');
const MAN = has('man');
if (!GROFF && !MAN) console.log('man-pages: skipped, neither man nor groff is installed');
const DIR = join(ROOT, 'man');
const env = cleanEnv({ PATH: '/usr/bin:/bin', MANWIDTH: '80', LANG: 'C.UTF-8' });

/** Pages as a person reads them at 80 columns, without bold and underline: each page's lines, in the order given. */
function rendered(files: string[], by: 'man' | 'groff'): string[][] {
  const args = by === 'man' ? ['-l', '-P', 'cat', ...files] : ['-man', '-Tutf8', '-rLL=80n', '-P', '-cbou', ...files];
  const r = spawnSync(by, args, { env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  expect(r.status, r.stderr).toBe(0);
  // Each page begins with its header line: NAME(1) checkin manual NAME(1).
  const pages = r.stdout.split(/^(?=\S+\(1\) +checkin manual +\S+\(1\)$)/m);
  expect(pages).toHaveLength(files.length);
  return pages.map((p) => p.split('\n'));
}

describe.skipIf(!GROFF && !MAN)('the man pages, rendered', () => {
  it('man checkin opens on its NAME: the header, then the command and what it does, then the first section', () => {
    const [lines] = rendered([join(DIR, 'checkin.1')], MAN ? 'man' : 'groff');
    const text = lines!.filter((l) => l !== '');
    expect(text[0]).toMatch(/^CHECKIN\(1\) +checkin manual +CHECKIN\(1\)$/);
    expect(text.slice(1, 4)).toEqual(['NAME', '       checkin - Daily team check-ins from the command line (Steady API v2).', 'CHECK-INS']);
  });

  // What lintian's documentation/manual asks of each page of the .deb (test/install/deb.test.ts
  // leaves that check out: it runs man and lexgrog once a page, 136 processes, ~290 s of its run on a
  // loaded machine), asked here of all the pages at once: groff warns of nothing (`man --warnings`,
  // input decoded as man does, -k), and lexgrog finds each page's whatis entry ("name - what it does").
  it.skipIf(!GROFF)("groff warns of nothing in any page, and lexgrog reads each page's whatis entry", () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.1'))
      .map((f) => join(DIR, f));
    const warned = spawnSync('groff', ['-k', '-man', '-ww', '-z', '-Tutf8', ...files], { env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    expect(warned.status, warned.stderr).toBe(0);
    expect(warned.stderr).toBe('');
    if (spawnSync('lexgrog', ['--version'], { stdio: 'ignore' }).status !== 0) return console.log('man-pages: no lexgrog (man-db): whatis entries not read');
    const whatis = spawnSync('lexgrog', files, { env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    expect(whatis.status, whatis.stderr).toBe(0);
    const lines = whatis.stdout.trim().split('\n');
    expect(lines).toHaveLength(files.length);
    for (const [i, line] of lines.entries()) expect(line, files[i]).toMatch(/^\S+\.1: "checkin(-[a-z-]+)? - \S.*"$/);
  });

  it('every page opens on its NAME, and none shows how it was made', () => {
    const pages = readdirSync(DIR).filter((f) => f.endsWith('.1'));
    expect(pages.length).toBeGreaterThan(40);
    const all = rendered(
      pages.map((p) => join(DIR, p)),
      GROFF ? 'groff' : 'man',
    );
    pages.forEach((page, i) => {
      const text = all[i]!.filter((l) => l !== '');
      expect(text[1], page).toBe('NAME');
      // The line is justified: the dash may have more than one space on either side.
      expect(text[2], page).toMatch(new RegExp(`^ {7}${page.slice(0, -2)} +- +\\S`));
      expect(text.join('\n'), page).not.toMatch(/npm run docs|scripts\/docs\.mjs/);
    });
  });
});
