// `checkin report --format html` opened in a real browser: Debian's headless Chromium driven by
// playwright-core, at a phone width and a desktop width. The page renders its charts, asks for
// nothing beyond its own file (every request is recorded, and any other is refused), logs no
// console error (a CSP violation is one), and a hostile name and answer appear as text — no
// element of theirs. The screenshots are written by the test into a temp folder (or into
// CHECKIN_TEST_SCREENSHOTS, kept, to look at). Skipped, saying why, when there is no Chromium.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cleanup.js';
import { useWorld } from '../helpers/harness.js';
import { patient } from '../helpers/patience.js';

const CHROMIUM = process.env.CHECKIN_TEST_CHROMIUM ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`report-html.test.ts: skipped — no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHECKIN_TEST_CHROMIUM)`);

const w = useWorld();
/** The 28 days the report below covers, as the charts' labels title them. */
const DAYS = Array.from({ length: 28 }, (_, i) => {
  const d = new Date(Date.UTC(2026, 9, 26 + i));
  return `${d.toUTCString().slice(0, 3)} ${d.getUTCDate()} ${d.toUTCString().slice(8, 11)}`;
});
const HOSTILE_NAME = 'Grace <img src=x onerror=alert(1)></svg><script>alert(2)</script>';
const HOSTILE_BLOCKER = 'Waiting on </title></g></svg><script>alert(5)</script><img src=x onerror=alert(6)>';
const HOSTILE_ANSWER = '- <script>alert(3)</script> and [a link](javascript:alert(4)) and <img src="http://127.0.0.1:9/x.png">';

type Browser = import('playwright-core').BrowserContext;
let browser: Browser | undefined;
let shots: string;

describe.skipIf(!HAVE_CHROMIUM)('report --format html in headless Chromium', () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    shots = process.env.CHECKIN_TEST_SCREENSHOTS ?? tempDir('checkin-shots-');
    mkdirSync(shots, { recursive: true });
    browser = await chromium.launchPersistentContext(tempDir('checkin-chromium-'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      timeout: 30_000,
    });
  }, patient(60_000));
  afterAll(async () => {
    await browser?.close();
  });

  it(
    'renders the charts at a phone and a desktop width, asks for nothing but its file, logs no error; a hostile name and answer are text',
    async () => {
      const data = w.sb.service.data;
      const grace = data.people.find((p) => p.username === 'grace')!;
      grace.name = HOSTILE_NAME;
      const day = data.check_ins.find((c) => c.person_id === grace.id && c.date === '2026-11-20')!;
      day.intentions = HOSTILE_ANSWER;
      // Linus's open blocker is drawn in an SVG (its words in the bar's title): hostile words there too.
      const linus = data.people.find((p) => p.username === 'linus')!;
      const blocked = data.check_ins.find((c) => c.person_id === linus.id && c.date === '2026-11-22')!;
      blocked.blockers = HOSTILE_BLOCKER;
      const r = await w.cli(['report', '--team', 'Platform', '--since', '2026-10-26', '--until', '2026-11-22', '--format', 'html']);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      const html = r.stdout;
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-`);
      // Their words are text: no tag of theirs, no attribute that loads or runs something.
      expect(html).not.toMatch(/<script|<img|<iframe|href="javascript|<[a-z]+[^>]*\s(src|on\w+)=/i);
      const file = join(tempDir('checkin-page-'), 'week.html');
      writeFileSync(file, html);
      const url = pathToFileURL(file).href;

      for (const [name, viewport] of [
        ['phone', { width: 390, height: 844 }],
        ['desktop', { width: 1200, height: 900 }],
      ] as const) {
        const page = await browser!.newPage();
        await page.setViewportSize(viewport);
        const requests: string[] = [];
        const problems: string[] = [];
        // Anything but the file itself is recorded and refused (it would have gone nowhere but here).
        await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
        page.on('request', (q) => requests.push(q.url()));
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('dialog', (d) => {
          problems.push(`dialog: ${d.message()}`);
          void d.dismiss();
        });
        await page.goto(url, { waitUntil: 'load' });
        expect(requests, name).toEqual([url]);
        expect(problems, name).toEqual([]);
        // The charts: a calendar, a mood chart and a blockers chart for each of the four people, drawn with a size.
        expect(await page.locator('svg.calendar').count(), name).toBe(4);
        expect(await page.locator('svg.mood').count(), name).toBe(4);
        expect(await page.locator('svg.blockers').count(), name).toBe(4);
        // The team as a whole: a bar a day, how many filled of those scheduled (the numbers in each bar's title).
        expect(await page.locator('svg.team').count(), name).toBe(1);
        expect(await page.locator('svg.team g title').first().textContent(), name).toMatch(/^Mon 26 Oct: \d of \d filled/);
        const box = await page.locator('svg.calendar').first().boundingBox();
        expect(box!.width, name).toBeGreaterThan(60);
        expect(box!.height, name).toBeGreaterThan(100);
        expect(
          await page
            .locator('svg.calendar .day')
            .first()
            .evaluate((g: any) => (globalThis as any).getComputedStyle(g.querySelector('rect')).fill as string),
          name,
        ).toMatch(/^rgb/);
        // The day charts (the team's, and each person's mood): a label under every day of the 28, its
        // weekday over its day of the month, at 12 px as shown (never scaled to the page), none over
        // another, each under its own day and inside its chart (the chart scrolls sideways on a phone).
        for (const chart of ['svg.team', 'svg.mood']) {
          const svgs = page.locator(chart);
          for (let n = 0; n < (await svgs.count()); n++) {
            const labels = await svgs.nth(n).evaluate((svg: any) => {
              const box = svg.getBoundingClientRect();
              return [...svg.querySelectorAll('.day-label')].map((t: any) => {
                const r = t.getBoundingClientRect();
                const style = (globalThis as any).getComputedStyle(t);
                return {
                  text: [...t.querySelectorAll('tspan')].map((s: any) => s.textContent).join(' '),
                  date: t.querySelector('title').textContent as string,
                  px: parseFloat(style.fontSize) * t.getScreenCTM().a,
                  shown: style.visibility !== 'hidden' && style.display !== 'none' && r.width > 0 && r.height > 0,
                  left: r.left,
                  right: r.right,
                  inside: r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom,
                };
              });
            });
            const where = `${name} ${chart} #${n}`;
            expect(
              labels.map((l) => l.date),
              where,
            ).toEqual(DAYS);
            for (const l of labels) {
              expect(l.text, `${where} ${l.date}`).toBe(`${l.date.slice(0, 2)} ${l.date.split(' ')[1]}`);
              expect(l.px, `${where} ${l.date}`).toBeCloseTo(12, 1);
              expect(l.shown && l.inside, `${where} ${l.date}`).toBe(true);
            }
            for (let i = 1; i < labels.length; i++) expect(labels[i]!.left, `${where} ${labels[i]!.date}`).toBeGreaterThan(labels[i - 1]!.right);
          }
        }
        // Each label under its own bar: the team chart's bars and labels share their centres.
        const centres = await page.locator('svg.team').evaluate((svg: any) => ({
          bars: [...svg.querySelectorAll('g rect.sched')].map((r: any) => r.getBoundingClientRect()).map((b: any) => b.left + b.width / 2),
          labels: [...svg.querySelectorAll('.day-label')].map((t: any) => t.getBoundingClientRect()).map((b: any) => b.left + b.width / 2),
        }));
        expect(centres.bars).toHaveLength(DAYS.length);
        centres.labels.forEach((c, i) => expect(Math.abs(c - centres.bars[i]!), name).toBeLessThan(2));
        // No element of theirs: no image, no script; the name and the answer are the text shown.
        expect(await page.locator('img, script, iframe, object, embed').count(), name).toBe(0);
        expect(await page.locator('a[href^="javascript"]').count(), name).toBe(0);
        await expect(page.locator('h2', { hasText: 'Grace' }).innerText()).resolves.toBe(HOSTILE_NAME);
        expect(await page.locator('body').innerText(), name).toContain('<script>alert(3)</script> and [a link](javascript:alert(4))');
        expect(await page.locator('svg.blockers g title').allTextContents(), name).toContain(HOSTILE_BLOCKER);
        // Readable: the page is no wider than the screen (charts scale down), and the calendar's words are there.
        const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
        expect(scrollWidth, name).toBeLessThanOrEqual(viewport.width);
        expect(await page.locator('.legend').first().innerText(), name).toContain('filled on the day');
        await page.screenshot({ path: join(shots, `report-${name}.png`), fullPage: false });
        await page.screenshot({ path: join(shots, `report-${name}-full.png`), fullPage: true });
        // The hostile person's heading, charts and the day with the hostile answer, as shown.
        await page.locator('h2', { hasText: 'Grace <img' }).screenshot({ path: join(shots, `report-${name}-hostile-name.png`) });
        await page.locator('article', { hasText: 'alert(3)' }).screenshot({ path: join(shots, `report-${name}-hostile-answer.png`) });
        if (name === 'desktop') {
          // Printed: the same page under print media (each person from a new page, the charts side by side).
          await page.emulateMedia({ media: 'print' });
          await page.evaluate('window.scrollTo(0, 0)');
          expect(
            await page
              .locator('section.person')
              .nth(1)
              .evaluate((el: any) => (globalThis as any).getComputedStyle(el).breakBefore as string),
          ).toBe('page');
          await page.screenshot({ path: join(shots, 'report-print.png'), fullPage: false });
        }
        await page.close();
      }
      expect(existsSync(join(shots, 'report-phone.png')) && existsSync(join(shots, 'report-desktop.png'))).toBe(true);
    },
    patient(60_000),
  );

  it('sends the same requests as the Markdown report', async () => {
    const period = ['--person', 'me', '--since', '2026-11-16', '--until', '2026-11-22'];
    await w.cli(['me']);
    w.forget();
    await w.cli(['report', ...period]);
    const md = w.sent();
    w.forget();
    await w.cli(['report', ...period, '--format', 'html']);
    // The goals go out beside the walk: the same requests, in either order.
    expect([...w.sent()].sort()).toEqual([...md].sort());
    // Two pages of the twelve weeks the streak is counted in, the goals, one goal's updates.
    expect(md).toHaveLength(4);
  });

  it('--open is only for --format html', async () => {
    expect(await w.cli(['report', '--open'])).toMatchObject({ code: 2, stderr: 'error: --open is for --format html\n' });
  });
});

describe('report --format html without a browser', () => {
  it('--open writes the page to a new 0600 file in the cache folder and hands its file:// URL to the browser', async () => {
    const { mkdtempSync, readFileSync, statSync, writeFileSync: write } = await import('node:fs');
    const dir = mkdtempSync(join(tempDir('checkin-open-'), 'x'));
    const opener = join(dir, 'browser.sh');
    write(opener, `#!/bin/sh\nprintf '%s' "$1" > '${dir}/opened'\n`, { mode: 0o755 });
    const r = await w.cli(['report', '--person', 'me', '--format', 'html', '--open'], { env: { BROWSER: opener } });
    expect(r.code).toBe(0);
    const file = /^The page is (.+\.html) \(the newest 10 are kept there\)$/m.exec(r.stderr)![1]!;
    expect(r.stderr).toContain(`Opening file://${file} in your browser.`);
    expect(readFileSync(join(dir, 'opened'), 'utf8')).toBe(pathToFileURL(file).href);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<h2>Ada Lovelace<\/h2>/);
    expect(r.stdout).toBe('');
  });

  it('--open keeps only the newest pages in the one folder: run after run, the older ones go (and nothing else there is touched)', async () => {
    const { mkdtempSync, readdirSync, writeFileSync: write } = await import('node:fs');
    const { dirname } = await import('node:path');
    const dir = mkdtempSync(join(tempDir('checkin-open-'), 'x'));
    const opener = join(dir, 'browser.sh');
    write(opener, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const files: string[] = [];
    for (let run = 0; run < 13; run++) {
      // Periods and clock vary (--since), and some runs fall in the same millisecond.
      if (run % 3 === 0) await w.clock.sleep(60_000);
      const r = await w.cli(['report', '--person', 'me', '--since', `2026-11-${String(10 + (run % 4)).padStart(2, '0')}`, '--format', 'html', '--open'], {
        env: { BROWSER: opener },
      });
      expect(r.code).toBe(0);
      files.push(/^The page is (.+\.html) /m.exec(r.stderr)![1]!);
      if (run === 0) write(join(dirname(files[0]!), 'notes.txt'), 'mine');
    }
    const folder = dirname(files[0]!);
    expect(new Set(files.map((f) => dirname(f)))).toEqual(new Set([folder]));
    expect(new Set(files).size).toBe(13);
    const left = readdirSync(folder).sort();
    expect(left.filter((f) => f.endsWith('.html'))).toHaveLength(10);
    // The newest page is always there, and what checkin did not write stays.
    expect(left).toContain(files.at(-1)!.slice(folder.length + 1));
    expect(left).toContain('notes.txt');
  });

  it('the style block is the one the policy allows by its hash; nothing else may load or run', async () => {
    const { createHash } = await import('node:crypto');
    const html = (await w.cli(['report', '--person', 'me', '--format', 'html'])).stdout;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const csp = /content="(default-src[^"]+)"/.exec(html)![1]!;
    expect(csp).toBe(
      `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`,
    );
    expect(html.match(/<style/g)).toHaveLength(1);
    expect(html).not.toMatch(/\sstyle=|<script|<link|@import|url\(/);
  });
});
