// `checkin report --format slack|slack-blocks`, and what `--post` sends: the week as a chat digest,
// by Steady's own digest rules — the team's counts, never a ranking of people; the open blockers
// as bullets without names (who is blocked, and @mentions in the words, are left out unless
// `names`). Slack's mrkdwn (`*bold*`, `•`, &, < and > as entities, which is all Slack asks
// escaped), Block Kit (a header and sections, each within Slack's limits), or plain Markdown for
// Discord and Mattermost (`**bold**`, `- `). Everything from the service passes the sanitiser.
import type { OpenBlocker } from '../core/stats.js';
import { blockerItems, daysLabel } from '../core/blockers.js';
import { moodEmoji } from '../api/types.js';
import type { ReportModel } from './report-formats.js';
import { markdownText } from './report-formats.js';
import { sanitizeLine } from './sanitize.js';

/** How the chat reads text: Slack's mrkdwn, Markdown (Mattermost), or Discord's Markdown (which reads no HTML entity). */
export type Dialect = 'mrkdwn' | 'markdown' | 'discord';

export interface DigestOptions {
  /** Name who is blocked, and keep @mentions in the blockers' words. */
  names?: boolean;
}

/** The week as a team: counts only, and the blockers standing at its end. */
export interface Digest {
  title: string;
  /** People with a check-in in the period. */
  people: number;
  scheduled: number;
  done: number;
  late: number;
  absent: number;
  blocked: number;
  goalUpdates: number;
  moods: Array<{ mood: string; count: number }>;
  /** One per blocker item standing at the period's end, the longest-standing first. */
  blockers: Array<{ who?: string; text: string; days: string }>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** An @mention (as core/blockers.ts reads one): left out without --names. */
const MENTION = /(?<![\w@./:])@([A-Za-z0-9](?:[\w.-]*[A-Za-z0-9_])?)(?![\w/])/g;
/** A bullet's words on one line, at most this long. */
const ITEM_CHARS = 300;

export function weekDigest(model: ReportModel, open: OpenBlocker[], opts: DigestOptions = {}): Digest {
  const sum = (f: (s: ReportModel['people'][number]['summary']) => number | undefined) => model.people.reduce((n, p) => n + (f(p.summary) ?? 0), 0);
  const moods = new Map<string, number>();
  for (const p of model.people) for (const m of p.summary.moods) moods.set(m.mood, (moods.get(m.mood) ?? 0) + m.count);
  const blockers: Digest['blockers'] = [];
  for (const b of [...open].sort((x, y) => y.run.days - x.run.days || (x.run.since < y.run.since ? -1 : 1))) {
    for (const item of blockerItems(b.blockers)) {
      let text = sanitizeLine(item.text.replace(/^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/gm, '').replace(/\s+/g, ' ')).trim();
      if (!opts.names) text = text.replace(MENTION, 'a teammate');
      // Markdown's **bold** as Slack's *bold* (Discord and Mattermost read it as emphasis: still marked, never two stray asterisks).
      text = text.replace(/\*\*([^*\n]+)\*\*/g, '*$1*');
      if (text.length > ITEM_CHARS) text = `${text.slice(0, ITEM_CHARS - 1)}…`;
      if (text) blockers.push({ ...(opts.names && b.person && { who: sanitizeLine(b.person.name) }), text, days: daysLabel(b.run) });
    }
  }
  return {
    title: `Check-ins, ${model.title}`,
    people: model.people.length,
    scheduled: sum((s) => s.scheduled),
    done: sum((s) => s.done),
    late: sum((s) => s.late),
    absent: sum((s) => s.absent),
    blocked: sum((s) => s.blocked),
    goalUpdates: model.people.reduce((n, p) => n + p.updates.length, 0),
    moods: [...moods].map(([mood, count]) => ({ mood, count })).sort((a, b) => b.count - a.count || (a.mood < b.mood ? -1 : 1)),
    blockers,
  };
}

/** Slack's mrkdwn escapes: &, < and > (so no <!channel>, link or mention can come out of the words). */
export const mrkdwnText = (s: string) => sanitizeLine(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/**
 * Discord's and Mattermost's Markdown: report-formats.ts's plain text; an @ kept from pinging anyone
 * on Mattermost (a word joiner after it). Discord shows an HTML entity as typed: its &, < and > are
 * written as they are (< and > behind a backslash).
 */
const markdownPlain = (s: string, entities = true) => markdownText(s, { entities }).replace(/@/g, '@\u2060');

/** The counts line: "4 people · 17 of 20 scheduled days checked in (2 later) · …". */
function countsLine(d: Digest): string {
  if (d.people === 0) return 'No check-ins in this period.';
  const parts = [plural(d.people, 'person', 'people'), `${d.done} of ${plural(d.scheduled, 'scheduled day')} checked in${d.late ? ` (${d.late} later)` : ''}`];
  if (d.absent) parts.push(`${plural(d.absent, 'day')} absent`);
  parts.push(`${plural(d.blocked, 'day')} blocked`, d.goalUpdates === 0 ? 'no goal updates' : plural(d.goalUpdates, 'goal update'));
  return parts.join(' · ');
}

interface Pieces {
  head: string;
  counts: string;
  moods?: string;
  blockersHead?: string;
  bullets: string[];
}

function pieces(d: Digest, dialect: Dialect): Pieces {
  const esc = dialect === 'mrkdwn' ? mrkdwnText : (s: string) => markdownPlain(s, dialect === 'markdown');
  const bold = (s: string) => (dialect === 'mrkdwn' ? `*${s}*` : `**${s}**`);
  const bullet = dialect === 'mrkdwn' ? '•' : '-';
  return {
    head: bold(esc(d.title)),
    counts: esc(countsLine(d)),
    ...(d.moods.length > 0 && { moods: `Moods: ${d.moods.map((m) => `${moodEmoji(m.mood)} ${esc(m.mood)} ×${m.count}`.trim()).join(', ')}` }),
    ...(d.blockers.length > 0 && { blockersHead: bold(`Open blockers (${d.blockers.length})`) }),
    bullets: d.blockers.map((b) => `${bullet} ${b.who ? `${esc(b.who)}: ` : ''}${esc(b.text)} (${b.days})`),
  };
}

/**
 * The digest as one message in the dialect, within `limit` characters: bullets that do not fit are
 * left out, and a last line says how many ("… and 3 more").
 */
export function digestText(d: Digest, dialect: Dialect, limit = Infinity): string {
  const p = pieces(d, dialect);
  const top = [p.head, p.counts, ...(p.moods ? [p.moods] : []), ...(p.blockersHead ? [p.blockersHead] : [])].join('\n');
  const lines = [top];
  let size = top.length;
  for (let i = 0; i < p.bullets.length; i++) {
    const line = p.bullets[i]!;
    const rest = p.bullets.length - i - 1;
    const tail = rest > 0 ? `\n… and ${rest} more`.length + 4 : 0;
    if (size + 1 + line.length + tail > limit) {
      lines.push(`… and ${p.bullets.length - i} more`);
      break;
    }
    lines.push(line);
    size += 1 + line.length;
  }
  return lines.join('\n').slice(0, limit === Infinity ? undefined : limit) + '\n';
}

/** Slack's limits: a header's text 150 characters, a section's 3000, 50 blocks a message. */
const HEADER_CHARS = 150;
const SECTION_CHARS = 3000;
const MAX_BLOCKS = 50;

/** The digest as Slack's Block Kit payload (`text` is the notification's words and the fallback): what `--post` sends with --format slack-blocks. */
export function digestBlocks(d: Digest): { text: string; blocks: unknown[] } {
  const p = pieces(d, 'mrkdwn');
  const header = sanitizeLine(d.title);
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: header.length > HEADER_CHARS ? `${header.slice(0, HEADER_CHARS - 1)}…` : header, emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: [p.counts, ...(p.moods ? [p.moods] : [])].join('\n') } },
  ];
  if (p.blockersHead) {
    // The bullets in sections of at most SECTION_CHARS, and no more blocks than Slack takes (the rest counted in the last).
    let section = p.blockersHead;
    let shown = 0;
    const flush = () => void blocks.push({ type: 'section', text: { type: 'mrkdwn', text: section } });
    for (const line of p.bullets) {
      if (section.length + 1 + line.length > SECTION_CHARS) {
        if (blocks.length + 1 >= MAX_BLOCKS) break;
        flush();
        section = '';
      }
      section = section ? `${section}\n${line}` : line;
      shown++;
    }
    if (shown < p.bullets.length) section = `${section}\n… and ${p.bullets.length - shown} more`.slice(-SECTION_CHARS);
    flush();
  }
  return { text: `${sanitizeLine(d.title)}: ${countsLine(d)}`.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'), blocks };
}
