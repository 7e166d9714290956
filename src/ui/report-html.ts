// `checkin report --format html`: the report as one self-contained page — inline CSS and inline SVG
// charts (each person's calendar of scheduled days, mood over the days, blocked days a week and the
// open blockers) beside their answers, the person's Markdown rendered as HTML. No script and no
// outside request: the page's Content-Security-Policy forbids both (default-src 'none'; the one
// style block allowed by its hash, not 'unsafe-inline'). Every name, answer, mood and date is
// sanitised and escaped; a link is kept only when it is http(s), and it is a link to follow, never
// something the page loads. Readable on a phone (one column), on a desktop (charts side by side)
// and printed (no backgrounds needed, each person on a new page). The day charts keep their size —
// a label under every day, at 12 px — and scroll sideways where the screen is narrower. Drawn by hand: a few rects and
// texts per chart, tested in a real browser; a charting package would bring a script, which the
// page must not have.
import { moodEmoji } from '../api/types.js';
import { SECTIONS } from '../core/checkin-answers.js';
import { shortDay } from '../core/dayname.js';
import { addDays } from '../core/datekey.js';
import type { DayCell, OpenBlocker, Streaks, TeamDayTally, WeekTally } from '../core/stats.js';
import { weekStart } from '../core/keys.js';
import type { ReportModel, ReportPerson } from './report-formats.js';
import { dayState, summaryLine } from './report-formats.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import { CELL, cellKind, streakLine } from './stats-view.js';

/** What the page draws of a person besides the report: the figures of core/stats.ts over the period. */
export interface PersonFigures {
  cells: DayCell[];
  weeks: WeekTally[];
  streak: Streaks;
  open: OpenBlocker[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text from outside as HTML text or an attribute value: sanitised, then every special character escaped. */
export function esc(text: string): string {
  return sanitizeLine(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
const escBlock = (text: string) => sanitize(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Inline Markdown on escaped text: code, bold, italic, http(s) links; nothing else becomes markup. */
function inline(escaped: string): string {
  return escaped
    .split(/(`[^`]+`)/)
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${part.slice(1, -1)}</code>`;
      return part
        .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, (_m, text: string, url: string) => `<a href="${url}" rel="noopener noreferrer">${text}</a>`)
        .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_m, a?: string, b?: string) => `<strong>${a ?? b ?? ''}</strong>`)
        .replace(
          /(^|[^*\w])\*([^*\s][^*]*)\*(?!\*)|(^|\W)_([^_\s][^_]*)_(?!\w)/g,
          (_m, p1?: string, a?: string, p2?: string, b?: string) => `${p1 ?? p2 ?? ''}<em>${a ?? b ?? ''}</em>`,
        );
    })
    .join('');
}

/** A person's Markdown answer as HTML: paragraphs, bullet and numbered lists, fenced code; escaped first. */
export function markdownHtml(text: string): string {
  const out: string[] = [];
  let list: 'ul' | 'ol' | undefined;
  let para: string[] = [];
  let fence: string[] | undefined;
  const flush = () => {
    if (para.length) out.push(`<p>${para.map(inline).join('<br>')}</p>`);
    para = [];
  };
  const close = () => {
    if (list) out.push(`</${list}>`);
    list = undefined;
  };
  for (const raw of escBlock(text).split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) {
      if (fence) {
        out.push(`<pre><code>${fence.join('\n')}</code></pre>`);
        fence = undefined;
      } else {
        flush();
        close();
        fence = [];
      }
      continue;
    }
    if (fence) {
      fence.push(raw);
      continue;
    }
    const bullet = /^\s{0,3}[-*+]\s+(.*)$/.exec(raw);
    const numbered = /^\s{0,3}\d{1,3}[.)]\s+(.*)$/.exec(raw);
    if (bullet || numbered) {
      flush();
      const kind = bullet ? 'ul' : 'ol';
      if (list !== kind) {
        close();
        out.push(`<${kind}>`);
        list = kind;
      }
      out.push(`<li>${inline((bullet ?? numbered)![1]!)}</li>`);
    } else if (raw.trim() === '') {
      flush();
      close();
    } else {
      close();
      para.push(raw.trim());
    }
  }
  if (fence) out.push(`<pre><code>${fence.join('\n')}</code></pre>`);
  flush();
  close();
  return out.join('\n');
}

const COLOURS: Record<keyof typeof CELL, string> = {
  filled: '#2da44e',
  late: '#0a7ea4',
  missed: '#cf222e',
  absent: '#bf8700',
  pending: '#8250df',
  'nothing-scheduled': '#d0d7de',
};
const ROWS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The calendar: a column a week, a row a weekday, each day its colour and its symbol, its words in a title. */
export function calendarSvg(cells: DayCell[], since: string, until: string): string {
  const byDate = new Map(cells.map((c) => [c.date, c]));
  const mondays: string[] = [];
  for (let m = weekStart(since); m <= until; m = addDays(m, 7)) mondays.push(m);
  const size = 18;
  const gap = 3;
  const left = 30;
  const top = 16;
  const width = left + mondays.length * (size + gap);
  const height = top + 7 * (size + gap);
  const parts = [
    `<svg class="calendar" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="cal-t"><title id="cal-t">Calendar of scheduled days</title>`,
  ];
  ROWS.forEach((r, i) => parts.push(`<text class="axis" x="0" y="${top + i * (size + gap) + 13}">${r}</text>`));
  let labelled = -3;
  mondays.forEach((monday, col) => {
    // A month's name where it begins, when the last one is far enough off not to run into it.
    const starts =
      col === 0
        ? mondays.length > 1 && mondays[1]!.slice(5, 7) === monday.slice(5, 7)
        : monday.slice(5, 7) !== mondays[col - 1]!.slice(5, 7) && col - labelled >= 2;
    if (starts && (labelled = col) >= 0)
      parts.push(`<text class="axis" x="${left + col * (size + gap)}" y="10">${esc(shortDay(monday).split(' ')[2]!)}</text>`);
    for (let row = 0; row < 7; row++) {
      const date = addDays(monday, row);
      if (date < since || date > until) continue;
      const cell = byDate.get(date);
      const kind = cell ? cellKind(cell) : 'nothing-scheduled';
      const x = left + col * (size + gap);
      const y = top + row * (size + gap);
      const words = `${shortDay(date)}: ${CELL[kind].words}${cell?.blocked ? ', blocked' : ''}${cell?.mood ? `, ${cell.mood}` : ''}`;
      parts.push(
        `<g class="day ${kind}"><title>${esc(words)}</title><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="3" fill="${COLOURS[kind]}"/><text x="${x + size / 2}" y="${y + 13}" text-anchor="middle">${CELL[kind].symbol}</text></g>`,
      );
    }
  });
  parts.push('</svg>');
  return parts.join('');
}

/** The width each day has in the day charts: its two-line label fits under it at the charts' own size (never scaled). */
const DAY_STEP = 26;
/** The day labels' lines, in px: the weekday and the day of the month; the month's name below where one begins. */
const LABEL_LINE = 13;
const LABEL_HEIGHT = 3 * LABEL_LINE + 4;

/**
 * Under each day of a chart, centred on `x(i)` from `y`: its weekday ("Mo") over its day of the month
 * ("26") — and the month's name under the first day and under each 1st. A day's words are its own
 * element (class day-label), its title the whole date.
 */
function dayLabels(dates: string[], x: (i: number) => number, y: number): string {
  return dates
    .map((date, i) => {
      const [weekday, day, month] = shortDay(date).split(' ') as [string, string, string];
      const cx = x(i);
      const head = i === 0 || day === '1' ? `<text class="axis month" x="${cx}" y="${y + 2 * LABEL_LINE + 2}" text-anchor="middle">${esc(month)}</text>` : '';
      return `<text class="axis day-label" x="${cx}" y="${y}" text-anchor="middle"><title>${esc(shortDay(date))}</title><tspan x="${cx}">${esc(weekday.slice(0, 2))}</tspan><tspan x="${cx}" dy="${LABEL_LINE}">${esc(day)}</tspan></text>${head}`;
    })
    .join('');
}

/** Mood over the days: a row a mood chosen (its word and emoji), a dot a day it was chosen; days without one are gaps. Every day labelled. */
export function moodSvg(cells: DayCell[]): string {
  const moods = [...new Set(cells.filter((c) => c.state === 'filled' && c.mood).map((c) => c.mood!))];
  if (moods.length === 0) return '<p class="empty">No mood chosen in this period.</p>';
  const rowH = 20;
  const left = 110;
  const step = DAY_STEP;
  const top = 6;
  const width = left + cells.length * step + 10;
  const plot = top + moods.length * rowH;
  const height = plot + LABEL_HEIGHT + 10;
  const parts = [
    `<svg class="mood" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="mood-t"><title id="mood-t">Mood over the days</title>`,
  ];
  moods.forEach((m, i) => {
    const emoji = moodEmoji(m) ? `${moodEmoji(m)} ` : '';
    parts.push(
      `<text class="axis" x="0" y="${top + i * rowH + 14}">${emoji}${esc(m)}</text><line class="grid" x1="${left}" x2="${width - 6}" y1="${top + i * rowH + 10}" y2="${top + i * rowH + 10}"/>`,
    );
  });
  const x = (i: number) => left + i * step + step / 2;
  parts.push(
    dayLabels(
      cells.map((c) => c.date),
      x,
      plot + 16,
    ),
  );
  cells.forEach((c, i) => {
    if (c.state !== 'filled' || !c.mood) return;
    const y = top + moods.indexOf(c.mood) * rowH + 10;
    parts.push(`<circle cx="${x(i)}" cy="${y}" r="5"><title>${esc(`${shortDay(c.date)}: ${c.mood}`)}</title></circle>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

/** Blocked days a week (bars, the number beside each), and the open blockers with how long each has stood. */
export function blockersSvg(weekList: WeekTally[], open: OpenBlocker[]): string {
  const rowH = 20;
  const left = 60;
  const scale = Math.max(7, ...weekList.map((w) => w.blocked), ...open.map((b) => b.run.days));
  const unit = 200 / scale;
  const rows = weekList.length + (open.length ? open.length + 1 : 0);
  const width = left + 200 + 120;
  const height = rows * rowH + 6;
  const parts = [
    `<svg class="blockers" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="blk-t"><title id="blk-t">Blocked days a week, and open blockers</title>`,
  ];
  weekList.forEach((w, i) => {
    const y = i * rowH + 4;
    parts.push(
      `<text class="axis" x="0" y="${y + 13}">${esc(shortDay(w.week).slice(4))}</text><rect class="bar" x="${left}" y="${y + 3}" width="${Math.max(w.blocked ? 3 : 0, w.blocked * unit)}" height="12"/><text class="axis" x="${left + w.blocked * unit + 6}" y="${y + 13}">${esc(plural(w.blocked, 'day'))} blocked</text>`,
    );
  });
  open.forEach((b, i) => {
    const y = (weekList.length + 1 + i) * rowH + 4;
    if (i === 0) parts.push(`<text class="axis" x="0" y="${y - 5}">Open blockers</text>`);
    const label = `${b.run.days}${b.run.at_least ? '+' : ''} ${b.run.days === 1 && !b.run.at_least ? 'day' : 'days'} since ${shortDay(b.run.since)}`;
    parts.push(
      `<g><title>${esc(b.blockers)}</title><rect class="bar open" x="${left}" y="${y + 3}" width="${b.run.days * unit}" height="12"/><text class="axis" x="${left + b.run.days * unit + 6}" y="${y + 13}">${esc(label)}</text></g>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

/** A team's days: a bar a day, how many filled of those scheduled (the rest in grey), the numbers in each title. Every day labelled. */
export function teamDaysSvg(days: TeamDayTally[]): string {
  const top = Math.max(1, ...days.map((d) => d.scheduled));
  const step = DAY_STEP;
  const left = 30;
  const h = 80;
  const width = left + days.length * step;
  const height = h + LABEL_HEIGHT + 10;
  const parts = [
    `<svg class="team" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="team-t"><title id="team-t">How many filled each day, of those scheduled</title>`,
  ];
  parts.push(`<text class="axis" x="0" y="10">${top}</text><text class="axis" x="0" y="${h}">0</text>`);
  days.forEach((d, i) => {
    const x = left + i * step + 3;
    const sh = (d.scheduled / top) * (h - 4);
    const fh = (d.filled / top) * (h - 4);
    const words =
      d.scheduled === 0
        ? `${shortDay(d.date)}: nothing scheduled`
        : `${shortDay(d.date)}: ${d.filled} of ${d.scheduled} filled${d.blocked ? `, ${d.blocked} blocked` : ''}`;
    parts.push(
      `<g><title>${esc(words)}</title><rect class="sched" x="${x}" y="${h - sh}" width="${step - 6}" height="${sh}"/><rect class="fill" x="${x}" y="${h - fh}" width="${step - 6}" height="${fh}"/></g>`,
    );
  });
  parts.push(
    dayLabels(
      days.map((d) => d.date),
      (i) => left + i * step + step / 2,
      h + 16,
    ),
  );
  parts.push('</svg>');
  return parts.join('');
}

function teamHtml(days: TeamDayTally[], weekList: WeekTally[]): string {
  const mix = weekList.map(
    (w) =>
      `<li>Week of ${esc(shortDay(w.week).slice(4))}: ${w.filled} of ${esc(plural(w.scheduled, 'scheduled check-in'))} filled, ${w.blocked} blocked${w.moods.length ? `; ${w.moods.map((m) => `${esc(m.mood)} ×${m.count}`).join(', ')}` : ''}</li>`,
  );
  return `<section class="team"><h2>The team as a whole</h2><p class="summary">Counts of everyone's check-ins together, never person by person.</p><div class="charts"><figure class="days">${teamDaysSvg(days)}<figcaption>How many filled each day (green), of those scheduled (grey)</figcaption></figure></div><ul>${mix.join('')}</ul></section>`;
}

const CSS = `
:root{color-scheme:light;--fg:#1f2328;--muted:#59636e;--line:#d0d7de;--bg:#fff;--accent:#0969da}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0}
h2{font-size:1.25rem;margin:2rem 0 .25rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{font-size:1rem;margin:1.25rem 0 .25rem}
.summary,.streak,.empty,figcaption,.legend{color:var(--muted)}
.charts{display:grid;grid-template-columns:1fr;gap:1rem;margin:1rem 0}
@media (min-width:48rem){.charts{grid-template-columns:repeat(3,minmax(0,1fr))}}
figure{margin:0;overflow-x:auto}
svg{max-width:100%;height:auto;font:12px system-ui,sans-serif}
svg .day text{fill:#fff;font-size:11px}
svg .day.nothing-scheduled text{fill:#59636e}
svg .axis{fill:#59636e}
svg .grid{stroke:#eaeef2}
svg circle{fill:#8250df}
svg .bar{fill:#cf222e}
svg .bar.open{fill:#bf8700}
section.team .charts{grid-template-columns:1fr}
svg.team,svg.mood{max-width:none}
svg .day-label{font-size:12px}
svg .month{font-size:11px}
.charts figure.days{grid-column:1/-1}
svg .sched{fill:#d0d7de}
svg .fill{fill:#2da44e}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none;font-size:.875rem}
.legend b{display:inline-block;min-width:1.2em;text-align:center;border-radius:3px;color:#fff;margin-right:.25rem}
.legend .filled{background:#2da44e}.legend .late{background:#0a7ea4}.legend .missed{background:#cf222e}.legend .absent{background:#bf8700}.legend .pending{background:#8250df}.legend .nothing-scheduled{background:#d0d7de;color:#1f2328}
article{border-left:3px solid var(--line);padding-left:.75rem;margin:.75rem 0}
article.blocked{border-left-color:#cf222e}
pre{overflow-x:auto;background:#f6f8fa;padding:.5rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
a{color:var(--accent)}
@media print{main{max-width:none;padding:0}section.person{break-before:page}section.person:first-of-type{break-before:auto}.charts{grid-template-columns:repeat(3,1fr)}figure{overflow:visible}a{color:inherit}}
`.trim();

function legendHtml(): string {
  return `<ul class="legend">${(Object.keys(CELL) as Array<keyof typeof CELL>).map((k) => `<li><b class="${k}">${CELL[k].symbol}</b>${esc(CELL[k].words)}</li>`).join('')}</ul>`;
}

function personHtml(p: ReportPerson, f: PersonFigures, r: ReportModel): string {
  const out = [
    `<section class="person"><h2>${esc(p.person.name)}</h2>`,
    `<p class="summary">${summaryLine(p, esc)}</p>`,
    `<p class="streak">${esc(streakLine(f.streak))}</p>`,
  ];
  out.push('<div class="charts">');
  out.push(`<figure>${calendarSvg(f.cells, r.since, r.until)}<figcaption>Scheduled days</figcaption>${legendHtml()}</figure>`);
  out.push(`<figure class="days">${moodSvg(f.cells)}<figcaption>Mood over the days (a gap: no mood that day)</figcaption></figure>`);
  out.push(
    `<figure>${blockersSvg(f.weeks, f.open)}<figcaption>Blocked days a week${f.open.length ? '; open blockers, how long each has stood' : ''}</figcaption></figure>`,
  );
  out.push('</div>');
  if (p.updates.length) {
    out.push('<h3>Goal updates</h3><ul>');
    for (const u of p.updates)
      out.push(
        `<li>“${esc(u.title)}” on ${esc(u.goal?.title ?? '')} (${esc(u.created_at.slice(0, 10))}): ${esc(String(u.progress))}%${u.confidence_description ? `, ${esc(u.confidence_description)}` : ''}</li>`,
      );
    out.push('</ul>');
  }
  for (const d of p.days) {
    const c = d.checkIn;
    const state = dayState(c, (mood) => (mood ? `${moodEmoji(mood) ? `${moodEmoji(mood)} ` : ''}${esc(mood)}` : ''));
    out.push(`<article${c.completed_at && c.blocked ? ' class="blocked"' : ''}><h3>${esc(d.label)}${state ? ` — ${state}` : ''}</h3>`);
    if (c.completed_at && c.absent !== true) {
      if (c.previous_completed !== null && c.previous_completed !== undefined) out.push(`<p>Did what was intended: ${c.previous_completed ? 'yes' : 'no'}</p>`);
      for (const section of SECTIONS) {
        const text = c[section.field];
        if (text && text.trim()) out.push(`<h4>${esc(section.title)}</h4>${markdownHtml(text)}`);
      }
    }
    out.push('</article>');
  }
  out.push('</section>');
  return out.join('\n');
}

/** The whole page. `figures`: each person's, by id; `team`: everyone's days together (shown when more than one person). */
export function reportHtml(r: ReportModel, figures: Map<string, PersonFigures>, team?: { days: TeamDayTally[]; weeks: WeekTally[] }): string {
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256').update(CSS).digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`;
  const people = r.people.map((p) => personHtml(p, figures.get(p.person.id)!, r)).join('\n');
  const body =
    r.people.length === 0
      ? '<p class="empty">No check-ins in this period.</p>'
      : `${team && r.people.length > 1 ? teamHtml(team.days, team.weeks) : ''}${people}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Check-ins, ${esc(r.title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>Check-ins, ${esc(r.title)}</h1>
<p class="summary">${esc(plural(r.people.length, 'person', 'people'))} · made by checkin, a page with no script that loads nothing from outside.</p>
${body}
</main>
</body>
</html>
`;
}
