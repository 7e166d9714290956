// Blockers as people follow them through: the items of a blockers answer, how many check-ins in a
// row (days) an item has stood, who an @mention names, the words that mean "no blockers", and the
// writing hints a preview shows. Pure: no IO. domain/blockers.ts (a team's open blockers) and
// today's form both count with blockerRuns, so every face says the same number.

import type { CheckIn, CheckInAnswers } from '../api/types.js';
import { SECTIONS } from './checkin-answers.js';
import { nearMatches } from './match.js';
import type { Infer } from '../api/validate.js';
import type { BLOCKER_RUN } from './shapes.js';

/** One blocker of an answer: its lines as written, and its words compared (case and spacing do not count). */
export interface BlockerItem {
  text: string;
  key: string;
}

const BULLET = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/;
const words = (s: string) => s.replace(BULLET, '').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The blockers of an answer: each bullet (its continuation lines with it) is one; text without
 * bullets is one blocker per paragraph. Empty and "none"-like answers have none.
 */
export function blockerItems(text: string | null | undefined): BlockerItem[] {
  if (!text || isNoBlockers(text)) return [];
  const items: string[][] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const bulleted = lines.some((l) => BULLET.test(l));
  let current: string[] | undefined;
  for (const line of lines) {
    if (line.trim() === '') {
      if (!bulleted) current = undefined;
      continue;
    }
    if ((bulleted && BULLET.test(line)) || !current) {
      current = [line];
      items.push(current);
    } else current.push(line);
  }
  return items.map((l) => ({ text: l.join('\n'), key: words(l.join(' ')) })).filter((i) => i.key !== '');
}

/**
 * Blockers kept one by one (today's form: still, or changed) as one answer that blockerItems reads
 * back as the same items: bullets stay bullets (an unbulleted one among them gets "- "); without
 * bullets, one paragraph each.
 */
export function joinBlockers(items: string[]): string {
  const kept = items.map((i) => i.replace(/\s+$/, '')).filter((i) => i.trim() !== '');
  if (!kept.some((i) => BULLET.test(i))) return kept.join('\n\n');
  return kept.map((i) => (BULLET.test(i) ? i : `- ${i}`)).join('\n');
}

/** How long a blocker has stood: check-ins in a row (scheduled days; absent ones skipped) ending with the one asked about (core/shapes.ts BLOCKER_RUN). */
export type BlockerRun = Infer<typeof BLOCKER_RUN>;

const carries = (c: CheckIn, key: string) => c.blocked !== false && blockerItems(c.blockers).some((i) => i.key === key);

/**
 * Each blocker of `anchor` with its run: counted back from `anchor` through `history` (that
 * person's check-ins; other people's and later days are ignored). A check-in not filled in, or
 * filled in without that blocker, ends the run; an absent day is skipped.
 */
export function blockerRuns(anchor: CheckIn, history: CheckIn[]): Array<BlockerItem & BlockerRun> {
  const who = anchor.person?.id;
  const byDate = new Map<string, CheckIn>();
  for (const c of history) if (c.date < anchor.date && c.person?.id === who && !c.absent) byDate.set(c.date, c);
  const before = [...byDate.values()].sort((a, b) => (a.date < b.date ? 1 : -1));
  return blockerItems(anchor.blockers).map((item) => {
    let since = anchor.date;
    let days = 1;
    let i = 0;
    for (; i < before.length; i++) {
      const c = before[i]!;
      if (!c.completed_at || !carries(c, item.key)) break;
      days++;
      since = c.date;
    }
    return { ...item, days, since, at_least: before.length > 0 && i === before.length };
  });
}

/** The run of the blocker that has stood longest (the first one on a tie); undefined when `anchor` has none. */
export function longestRun(anchor: CheckIn, history: CheckIn[]): BlockerRun | undefined {
  const runs = blockerRuns(anchor, history);
  if (runs.length === 0) return undefined;
  const top = runs.reduce((a, b) => (b.days > a.days ? b : a));
  return { days: top.days, since: top.since, at_least: top.at_least };
}

/** "1 day", "3 days", "7+ days". */
export function daysLabel(run: BlockerRun): string {
  return `${run.days}${run.at_least ? '+' : ''} day${run.days === 1 && !run.at_least ? '' : 's'}`;
}

/** What people type to mean "nothing blocks me" (any case, trimmed, a full stop at the end allowed, one bullet allowed). */
export const NO_BLOCKER_WORDS = ['none', 'no', 'n/a', 'nothing', '-', 'no blockers', 'no blocker'] as const;

export function isNoBlockers(text: string | null | undefined): boolean {
  if (!text) return false;
  const line = text.trim();
  // One line only: "No access to prod" or a list is never read as "none".
  if (line.includes('\n')) return false;
  const t = (line === '-' ? line : line.replace(BULLET, ''))
    .toLowerCase()
    .replace(/(.)\.$/, '$1')
    .trim();
  return (NO_BLOCKER_WORDS as readonly string[]).includes(t);
}

/** The answers as they are sent: blockers that say "none" go as no blockers, so the check-in is not marked blocked. */
export function asSent<T extends CheckInAnswers>(answers: T): T {
  return isNoBlockers(answers.blockers) ? { ...answers, blockers: '' } : answers;
}

/** The line both faces say when a "none" is sent as no blockers. */
export function noBlockersNote(typed: string): string {
  return `Blockers "${typed.trim()}" are sent as no blockers: the check-in is not marked blocked.`;
}

/** An @mention as the service reads one: @handle, not inside a word, an e-mail address or a URL's path. */
const MENTION = /(?<![\w@./:])@([A-Za-z0-9](?:[\w.-]*[A-Za-z0-9_])?)(?![\w/])/g;

/** The handles @mentioned in a text, lower case, each once, in order; not inside `code` (a package such as `@types/node`). */
export function mentionsIn(text: string | null | undefined): string[] {
  const prose = (text ?? '').replace(/```[\s\S]*?(```|$)|`[^`\n]*`/g, ' ');
  return [...new Set([...prose.matchAll(MENTION)].map((m) => m[1]!.toLowerCase()))];
}

export interface Named {
  name: string;
  username?: string | null;
}

/** Whether @handle names the person: their @username (any case), which is what the service links. */
export function mentionNames(handle: string, person: Named): boolean {
  const h = handle.toLowerCase().replace(/^@/, '');
  return h !== '' && h === (person.username ?? '').toLowerCase();
}

const firstName = (p: Named) => p.name.trim().split(/\s+/)[0]?.toLowerCase() ?? '';

/** Whether a text @mentions the person. */
export function mentions(text: string | null | undefined, person: Named): boolean {
  return mentionsIn(text).some((h) => mentionNames(h, person));
}

/** A hint about what is about to be sent: it never stops the sending. */
export interface WritingHint {
  kind: 'no-blockers' | 'unknown-mention' | 'empty-intentions';
  text: string;
}

/**
 * The hints a preview shows of answers as they will stand: blockers that say "none", empty
 * intentions, and @mentions that match nobody on the person's teams (`members`; undefined when
 * they are not known, and no such hint is given).
 */
export function writingHints(answers: CheckInAnswers, members: Named[] | undefined): WritingHint[] {
  const hints: WritingHint[] = [];
  if (answers.blockers && isNoBlockers(answers.blockers)) hints.push({ kind: 'no-blockers', text: noBlockersNote(answers.blockers) });
  if (answers.intentions !== undefined && !answers.intentions?.trim()) {
    hints.push({
      kind: 'empty-intentions',
      text: 'Intentions are empty: your team sees no plan for the day, and your next check-in has nothing to start "previous" from.',
    });
  }
  if (members) {
    const handles = members.flatMap((m) => (m.username ? [m.username] : []));
    for (const { field } of SECTIONS) {
      for (const h of mentionsIn(answers[field])) {
        if (members.some((m) => mentionNames(h, m))) continue;
        if (hints.some((x) => x.kind === 'unknown-mention' && x.text.startsWith(`@${h} `))) continue;
        // A first name where the @username was meant ("@ada" for @alovelace): that person's, else near spellings.
        const byName = members.filter((m) => m.username && firstName(m) === h).map((m) => `@${m.username}`);
        const near = byName.length > 0 ? byName : nearMatches(h, handles).map((n) => `@${n}`);
        hints.push({ kind: 'unknown-mention', text: `@${h} matches nobody on your teams${near.length > 0 ? `: did you mean ${near.join(' or ')}?` : '.'}` });
      }
    }
  }
  return hints;
}
