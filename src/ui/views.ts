// Human and piped views: check-ins, comments, reactions, goals, updates, people, teams,
// activities, the team report, status and me. Rich (a terminal) gets columns, colour and Markdown; piped gets tab-separated rows.
// Tables follow the width rule (table.ts); whole texts are wrapped at word edges to the width (wrap.ts).

import {
  moodEmoji,
  nearestConfidence,
  type Activity,
  type CheckIn,
  type Comment,
  type Goal,
  type GoalUpdate,
  type Person,
  type Reaction,
  type Ref,
  type Team,
} from '../api/types.js';
import { daysLabel } from '../core/blockers.js';
import { isDateKey } from '../core/datekey.js';
import { weekdayWord } from '../core/dayname.js';
import { MEMBER_STATE_WORDS, MEMBER_STATES, memberState, type MemberState, type TeamDay } from '../core/member-states.js';
import type { AuthProfile, AuthStatus, DraftRow } from '../core/shapes.js';
import type { Colors } from './color.js';
import { plainLine, renderMarkdown } from './markdown.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import { displayWidth, table, tableStream, tsv, type Column } from './table.js';
import { wrap } from './wrap.js';

export interface View {
  c: Colors;
  /** stdout is a terminal: columns, colour, Markdown. Otherwise: plain, tab-separated. */
  rich: boolean;
  width: number;
  now: Date;
}

const firstLine = (text: string | null | undefined) => sanitizeLine((text ?? '').split('\n').find((l) => l.trim()) ?? '').trim();
/** The first line of a text for a table cell: Markdown shown plainly (fence lines skipped). */
export const firstPlainLine = (text: string | null | undefined) =>
  plainLine(
    firstLine(
      (text ?? '')
        .split('\n')
        .filter((l) => !/^\s*(```|~~~)/.test(l))
        .join('\n'),
    ),
  );
/** A one-line title from outside, for a table cell: Markdown shown plainly. */
const plainTitle = (text: string | null | undefined) => plainLine(sanitizeLine(text ?? ''));
const moodCell = (m: string | null | undefined) => (m ? moodEmoji(m) || '?' : '');

export function relativeTime(iso: string, now: Date): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return sanitizeLine(iso);
  const s = Math.round((now.getTime() - t) / 1000);
  const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (s < 0) return 'just now';
  if (s < 60) return 'just now';
  if (s < 3600) return ago(Math.floor(s / 60), 'minute');
  if (s < 86400) return ago(Math.floor(s / 3600), 'hour');
  if (s < 86400 * 30) return ago(Math.floor(s / 86400), 'day');
  return iso.slice(0, 10);
}

export function text(v: View, body: string | null | undefined): string {
  if (!body) return '';
  return v.rich ? renderMarkdown(body, v.c) : sanitize(body);
}

/** A rich view's text wrapped at word edges to the terminal (piped text is left as it is). */
const fit = (v: View, out: string) => (v.rich ? wrap(out, v.width) : out);

export function checkInRows(v: View, list: CheckIn[]): string {
  return v.rich ? table(checkInCells(v, list), v.width, checkInTable(v)) : checkInTsv(list);
}

function checkInTsv(list: CheckIn[]): string {
  return tsv(
    list.map((c) => [
      c.id,
      c.date,
      sanitizeLine(c.person?.name ?? ''),
      c.mood ?? '',
      MEMBER_STATE_WORDS[c.completed_at ? 'filled' : 'pending'].word,
      c.blocked ? MEMBER_STATE_WORDS.blocked.word : '',
      firstLine(c.intentions),
    ]),
  );
}

/** The states a listed check-in can be in (one that is listed is never "nothing scheduled"). */
const LISTED_STATES: MemberState[] = ['blocked', 'pending', 'filled', 'absent'];

function checkInCells(v: View, list: CheckIn[]): string[][] {
  // Each style looked up once a page, not once a row (a lookup builds the style: list --all has 20,000 rows).
  // A state as `checkin team` names it: a symbol and a word (read without colour, or where the symbol cannot be drawn).
  const { red, green, yellow, dim } = v.c;
  const said = (s: MemberState) => `${MEMBER_STATE_WORDS[s].symbol} ${MEMBER_STATE_WORDS[s].word}`;
  const shown: Record<MemberState, string> = {
    blocked: red(said('blocked')),
    filled: green(said('filled')),
    pending: yellow(said('pending')),
    absent: dim(said('absent')),
    'nothing-scheduled': dim(said('nothing-scheduled')),
  };
  return list.map((c) => [c.date, sanitizeLine(c.person?.name ?? ''), moodCell(c.mood) || ' ', shown[memberState(c)], dim(c.id), firstPlainLine(c.intentions)]);
}

const CHECK_IN_COLUMNS: Column[] = [
  { title: 'DATE', kind: 'whole' },
  { title: 'PERSON', kind: 'name' },
  { title: 'MOOD', kind: 'state' },
  // As wide as its widest word on every page (list --all fixes the columns on the first); worked
  // out when a table is drawn (the width's Unicode patterns cost a run ~1 ms to compile).
  {
    title: 'STATE',
    kind: 'state',
    get min() {
      return Math.max(...LISTED_STATES.map((s) => displayWidth(`${MEMBER_STATE_WORDS[s].symbol} ${MEMBER_STATE_WORDS[s].word}`)));
    },
  },
  { title: 'ID', kind: 'whole', drop: 1, short: true, outlastsText: true },
  { title: 'INTENTIONS', kind: 'text' },
];

const checkInTable = (v: View) => ({ columns: CHECK_IN_COLUMNS, style: v.c.dim });

/** Check-ins as they arrive page by page (list --all): rows under one header, columns fixed by the first page. */
export function checkInRowStream(v: View): (list: CheckIn[]) => string {
  if (!v.rich) return checkInTsv;
  const part = tableStream(v.width, checkInTable(v));
  return (list) => part(checkInCells(v, list));
}

export function commentRows(v: View, list: Comment[]): string {
  if (!v.rich) return tsv(list.map((c) => [c.id, c.created_at, sanitizeLine(c.person?.name ?? ''), sanitize(c.body)]));
  // A thread reads oldest first (the service lists newest first).
  return fit(
    v,
    [...list]
      .reverse()
      .map((c) => `${v.c.bold(sanitizeLine(c.person?.name ?? ''))} ${v.c.dim(relativeTime(c.created_at, v.now))}\n${text(v, c.body).replace(/^/gm, '  ')}\n`)
      .join('\n'),
  );
}

export function reactionRows(v: View, list: Reaction[]): string {
  if (!v.rich) return tsv(list.map((r) => [r.emoji, r.name, sanitizeLine(r.person?.name ?? ''), r.created_at]));
  return table(
    list.map((r) => [`${sanitizeLine(r.emoji)} ${sanitizeLine(r.name)}`, sanitizeLine(r.person?.name ?? '')]),
    v.width,
    {
      columns: [
        { title: 'REACTION', kind: 'state' },
        { title: 'WHO', kind: 'name' },
      ],
      style: v.c.dim,
    },
  );
}

export function confidenceLabel(v: View, u: { confidence?: number | null | undefined; confidence_description?: string | null | undefined }): string {
  const label = sanitizeLine(u.confidence_description ?? (u.confidence == null ? '—' : String(u.confidence)));
  if (!v.rich) return label;
  return u.confidence == null ? label : u.confidence >= 90 ? v.c.green(label) : u.confidence >= 60 ? v.c.yellow(label) : v.c.red(label);
}

/** A goal's columns after its id, as `checkin goals` and the wall's goals show them: progress, confidence, due date, title. */
export const GOAL_COLUMNS: readonly Column[] = [
  { title: 'PROGRESS', kind: 'state' },
  { title: 'CONFIDENCE', kind: 'state' },
  { title: 'DUE', kind: 'whole', drop: 1 },
  { title: 'GOAL', kind: 'text' },
];

export function goalRows(v: View, list: Goal[]): string {
  if (!v.rich)
    return tsv(
      list.map((g) => [
        g.id,
        sanitizeLine(g.title),
        g.progress == null ? '' : String(g.progress),
        sanitizeLine(g.confidence_description ?? ''),
        g.end_date ?? '',
        sanitizeLine(g.owner?.name ?? g.teams?.[0]?.name ?? ''),
      ]),
    );
  return table(
    list.map((g) => [
      v.c.dim(g.id),
      g.progress == null ? '  —' : `${String(g.progress).padStart(3)}%`,
      confidenceLabel(v, g),
      g.end_date ?? '',
      plainTitle(g.title),
    ]),
    v.width,
    {
      columns: [
        // `checkin goals` is where goal ids are found: short ids when room is tight, left out only
        // where the titles would otherwise go (40 columns).
        { title: 'ID', kind: 'whole', drop: 2, short: true },
        ...GOAL_COLUMNS,
      ],
      style: v.c.dim,
    },
  );
}

export function goalUpdateView(v: View, u: GoalUpdate): string {
  if (!v.rich)
    return tsv([
      [
        u.id,
        u.created_at,
        sanitizeLine(u.person?.name ?? ''),
        String(u.progress),
        String(u.confidence),
        sanitizeLine(u.confidence_description ?? ''),
        sanitizeLine(u.title),
        sanitize(u.body),
      ],
    ]);
  return fit(
    v,
    `${v.c.bold(sanitizeLine(u.title))}  ${v.c.dim(u.id)}\n` +
      `${sanitizeLine(u.goal?.title ?? '')} · ${sanitizeLine(u.person?.name ?? '')} · ${relativeTime(u.created_at, v.now)} · progress ${u.progress}% · ${confidenceLabel(v, u)} (${u.confidence})\n` +
      (u.body ? `\n${text(v, u.body).replace(/^/gm, '  ')}\n` : ''),
  );
}

export function goalUpdateRows(v: View, list: GoalUpdate[]): string {
  if (!v.rich) return list.map((u) => goalUpdateView(v, u)).join('');
  return table(
    list.map((u) => [
      u.created_at.slice(0, 10),
      `${String(u.progress).padStart(3)}%`,
      confidenceLabel(v, u),
      sanitizeLine(u.person?.name ?? ''),
      v.c.dim(u.id),
      plainTitle(u.title),
    ]),
    v.width,
    {
      columns: [
        { title: 'DATE', kind: 'whole' },
        { title: 'PROGRESS', kind: 'state' },
        { title: 'CONFIDENCE', kind: 'state' },
        { title: 'BY', kind: 'name', drop: 2 },
        { title: 'ID', kind: 'whole', drop: 1, short: true },
        { title: 'TITLE', kind: 'text' },
      ],
      style: v.c.dim,
    },
  );
}

export function peopleRows(v: View, list: Person[]): string {
  if (!v.rich) return tsv(list.map((p) => [p.id, sanitizeLine(p.name), sanitizeLine(p.username ?? ''), sanitizeLine(p.title ?? '')]));
  return table(
    list.map((p) => [sanitizeLine(p.name), v.c.cyan('@' + sanitizeLine(p.username ?? '')), v.c.dim(p.id), plainTitle(p.title)]),
    v.width,
    {
      columns: [
        { title: 'NAME', kind: 'name' },
        { title: 'USERNAME', kind: 'whole' },
        { title: 'ID', kind: 'whole', drop: 1 },
        { title: 'TITLE', kind: 'text' },
      ],
      style: v.c.dim,
    },
  );
}

export function teamRows(v: View, list: Team[], mine: Set<string>): string {
  if (!v.rich) return tsv(list.map((t) => [t.id, sanitizeLine(t.name), mine.has(t.id) ? 'member' : '']));
  return table(
    list.map((t) => [v.c.dim(t.id), mine.has(t.id) ? v.c.green('●') : ' ', sanitizeLine(t.name)]),
    v.width,
    {
      columns: [
        { title: 'ID', kind: 'whole', drop: 1 },
        { title: 'YOURS', kind: 'state' },
        { title: 'TEAM', kind: 'text' },
      ],
      style: v.c.dim,
    },
  );
}

export function activityRows(v: View, list: Activity[]): string {
  const what = (a: Activity) => sanitizeLine(a.title ?? a.description ?? '');
  if (!v.rich) return tsv(list.map((a) => [a.id, a.recorded_at, sanitizeLine(a.kind), sanitizeLine(a.person?.name ?? ''), what(a), sanitizeLine(a.url ?? '')]));
  return table(
    list.map((a) => [
      a.recorded_at.slice(0, 16).replace('T', ' '),
      v.c.cyan(sanitizeLine(a.group ?? a.kind)),
      sanitizeLine(a.person?.name ?? ''),
      `${plainLine(what(a))}${a.url ? ` ${sanitizeLine(a.url)}` : ''}`,
    ]),
    v.width,
    {
      columns: [
        { title: 'WHEN', kind: 'whole' },
        { title: 'WHAT', kind: 'whole' },
        { title: 'WHO', kind: 'name' },
        { title: 'TITLE', kind: 'text' },
      ],
      style: v.c.dim,
    },
  );
}

export function statusLine(v: View, date: string, state: MemberState, profile?: string): string {
  const word = MEMBER_STATE_WORDS[state].word;
  // The profile in use, first, where a person could take one account's day for another's.
  const as = profile === undefined ? '' : `${sanitizeLine(profile)}: `;
  if (state === 'nothing-scheduled') return fit(v, `${as}Today (${date}): ${word}\n`);
  if (state === 'pending') return fit(v, v.c.yellow(`${as}Today's check-in (${date}) is ${word}: run \`checkin today\``) + '\n');
  if (state === 'absent') return fit(v, v.c.dim(`${as}Today's check-in (${date}): ${word}`) + '\n');
  return fit(v, (state === 'blocked' ? v.c.red : v.c.green)(`${as}Today's check-in (${date}) is ${word}`) + '\n');
}

/** A teammate blocked on the person, as status and inbox tell it. */
export interface BlockedOnYou {
  person: Ref | null;
  since: string;
  days: number;
  at_least: boolean;
}

/** "Grace has been blocked on you since Mon (3 days)", one line each; `today` says "since today". */
export function blockedOnYouLines(v: View, list: BlockedOnYou[], today: string): string {
  return list
    .map((b) => {
      const who = sanitizeLine((b.person?.name ?? 'Someone').trim().split(/\s+/)[0] ?? 'Someone');
      const since = b.since === today ? 'today' : isDateKey(b.since) ? weekdayWord(b.since) : sanitizeLine(b.since);
      const long = b.days > 1 ? ` (${daysLabel(b)})` : '';
      return fit(v, v.c.yellow(`${who} has been blocked on you since ${since}${b.at_least ? ' or earlier' : ''}${long}`) + '\n');
    })
    .join('');
}

export function meView(v: View, me: { id: string; name: string; username: string; teams: Ref[]; time_zone?: string | null }): string {
  const teams = me.teams.map((t) => sanitizeLine(t.name)).join(', ') || 'none';
  const zone = me.time_zone ? `time zone: ${sanitizeLine(me.time_zone)}\n` : '';
  return fit(v, `${v.c.bold(sanitizeLine(me.name))} (@${sanitizeLine(me.username)})\nid: ${me.id}\nteams: ${teams}\n${zone}`);
}

/** A goal update about to be posted, as the service will show it. */
export function goalUpdatePreview(v: View, goalTitle: string, u: { title?: string; body?: string; progress?: number; confidence?: number }): string {
  const level = u.confidence === undefined ? undefined : nearestConfidence(u.confidence);
  const label = level ? confidenceLabel(v, { confidence: level.value, confidence_description: level.label }) : '—';
  return fit(
    v,
    `${v.c.bold(sanitizeLine(u.title ?? ''))}\n` +
      `${sanitizeLine(goalTitle)} · progress ${u.progress ?? '—'}% · ${label}\n` +
      (u.body ? `\n${text(v, u.body).replace(/^/gm, '  ')}\n` : ''),
  );
}

/** The goal and its latest update, shown above the questions of a new update. */
export function goalHeaderView(v: View, goal: Goal, latest: GoalUpdate | undefined): string {
  const head = `${v.c.bold(sanitizeLine(goal.title))} — progress ${goal.progress ?? '—'}%, ${sanitizeLine(goal.confidence_description ?? 'no update yet')}\n`;
  return latest ? `${fit(v, head)}Latest update:\n${goalUpdateView(v, latest)}\n` : fit(v, head);
}

type Member = TeamDay['members'][number];

/**
 * A person's blockers under a team's table or a chart (`team`, `stats`): four in, their name in bold
 * when given, then the blockers' Markdown rendered (a mention, bold, code), each further line of it
 * under the first, wrapped at word edges to `width`.
 */
export function blockerLines(c: Colors, width: number, blockers: string, name?: string): string {
  const who = name === undefined ? '' : `${c.bold(sanitizeLine(name))}: `;
  return wrap(`    ${who}${renderMarkdown(blockers, c).replace(/\n/g, '\n    ')}`, width);
}

/**
 * A person's state in a team's day, as `team` and the wall show it: the symbol and the word of the
 * one vocabulary (core/member-states.ts), in its colour; a blocker that repeats says for how long
 * ("⚠ blocked 3 days"). `unicode` false: the ASCII symbol.
 */
export function stateLabel(c: Colors, m: Pick<Member, 'state' | 'blocked_for'>, unicode = true): string {
  const style: Record<MemberState, (s: string) => string> = { blocked: c.red, pending: c.yellow, filled: c.green, absent: c.dim, 'nothing-scheduled': c.dim };
  const words = MEMBER_STATE_WORDS[m.state];
  const days = m.state === 'blocked' && m.blocked_for && m.blocked_for.days > 1 ? ` ${daysLabel(m.blocked_for)}` : '';
  return style[m.state](`${unicode ? words.symbol : words.ascii} ${words.word}${days}`);
}

/** How many of a team are in each state, in the vocabulary's order ("1 blocked", "2 pending"): the states nobody is in left out. */
export function stateCounts(r: TeamDay): string[] {
  return MEMBER_STATES.map((s) => [s, r.members.filter((m) => m.state === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${MEMBER_STATE_WORDS[s].word}`);
}

/** " (profile client-a)" after a title, where the profile in use is worth naming (config/profiles.ts profileToName); else nothing. */
export function profileWords(profile: string | undefined): string {
  return profile === undefined ? '' : ` (profile ${sanitizeLine(profile)})`;
}

export function teamDayView(v: View, report: TeamDay[], profile?: string): string {
  if (!v.rich) {
    return tsv(
      report.flatMap((r) =>
        r.members.map((m) => [
          sanitizeLine(r.team.name),
          r.date,
          sanitizeLine(m.person.name),
          MEMBER_STATE_WORDS[m.state].word,
          m.state === 'blocked' ? sanitizeLine(m.check_in?.blockers ?? '') : '',
        ]),
      ),
    );
  }
  let out = '';
  for (const r of report) {
    out += fit(v, `${v.c.bold(sanitizeLine(r.team.name))}${profileWords(profile)} — ${r.date}  ${v.c.dim(stateCounts(r).join(', '))}\n`);
    out += table(
      r.members.map((m) => [sanitizeLine(m.person.name), stateLabel(v.c, m)]),
      v.width,
      {
        columns: [
          { title: 'PERSON', kind: 'name' },
          { title: 'STATE', kind: 'state' },
        ],
        style: v.c.dim,
        indent: 2,
      },
    );
    for (const m of r.members.filter((x) => x.state === 'blocked')) out += `${blockerLines(v.c, v.width, m.check_in?.blockers ?? '', m.person.name)}\n`;
    out += '\n';
  }
  return out;
}

/** What `checkin auth status` reports (never the token). */
export function authStatusView(v: View, r: AuthStatus): string {
  const who = r.person
    ? `Logged in to ${sanitizeLine(r.api_url)} as ${sanitizeLine(r.person.name)} (@${sanitizeLine(r.person.username)})`
    : `A token for ${sanitizeLine(r.api_url)}`;
  // One profile named "default" (everyone before profiles): the words as they were.
  const several = r.profiles.length > 1 || r.profile !== 'default';
  const profile = several ? `  profile: ${sanitizeLine(r.profile)} (${PROFILE_FROM[r.profile_from]})\n` : '';
  const works = r.works ? 'the token works (GET /me answered)' : `the token was rejected (${sanitizeLine(r.why)})`;
  return fit(v, `${who}\n${profile}  token from: ${sanitizeLine(r.source)}\n  ${works}\n`) + (several ? profilesList(r.profiles) : '');
}

/** Why the profile in use is the one, as `auth status` says it. */
const PROFILE_FROM: Record<AuthStatus['profile_from'], string> = {
  flag: 'from --profile',
  env: 'from CHECKIN_PROFILE',
  directory: "from this folder's .checkin.json",
  config: 'the default: checkin auth switch',
  default: 'none is named',
};

const TOKEN_KEPT: Record<AuthProfile['token'], string> = { keychain: 'token in the keychain', file: 'token in the config file', none: 'logged out' };

/** Every profile, a line each, the one in use marked: name, service, person as cached, where its token is kept. */
function profilesList(list: AuthProfile[]): string {
  const rows = list.map((p) => [
    `${p.active ? '*' : ' '} ${sanitizeLine(p.name)}`,
    sanitizeLine(p.api_url),
    p.person ? `${sanitizeLine(p.person.name)}${p.person.username ? ` (@${sanitizeLine(p.person.username)})` : ''}` : '?',
    TOKEN_KEPT[p.token],
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => displayWidth(r[i]!))));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i]! - displayWidth(c)))).join('  ');
  return `\nProfiles (* in use):\n${rows.map((r) => `${line(r)}\n`).join('')}`;
}

/** One thread of `checkin inbox`: a check-in or goal update of mine, and what others left on it. */
export interface InboxThreadView {
  /** "Check-in Fri 20 Nov", "Goal update “Invoices shipped”". */
  label: string;
  url?: string;
  items: Array<{ n: number; kind: 'comment' | 'reaction'; person: Ref; created_at: string; body?: string; emoji?: string; name?: string }>;
}

export function inboxRows(v: View, threads: InboxThreadView[]): string {
  if (!v.rich) {
    return tsv(
      threads.flatMap((t) =>
        t.items.map((i) => [
          String(i.n),
          i.kind,
          sanitizeLine(t.label),
          i.created_at,
          sanitizeLine(i.person?.name ?? ''),
          i.kind === 'comment' ? sanitizeLine(i.body ?? '') : `${sanitizeLine(i.emoji ?? '')} ${sanitizeLine(i.name ?? '')}`,
        ]),
      ),
    );
  }
  const width = String(Math.max(...threads.flatMap((t) => t.items.map((i) => i.n)))).length;
  /** An item's first line; when it wraps, it hangs under the name, past the number. */
  const itemLine = (line: string) => wrap(line, v.width, width + 4);
  const out = threads
    .map((t) => {
      const head = `${v.c.bold(sanitizeLine(t.label))}${t.url ? ` ${v.c.dim(sanitizeLine(t.url))}` : ''}`;
      const items = t.items.map((i) => {
        const who = v.c.bold(sanitizeLine(i.person?.name ?? ''));
        const when = v.c.dim(relativeTime(i.created_at, v.now));
        const n = v.c.cyan(String(i.n).padStart(width));
        if (i.kind === 'reaction') return itemLine(`  ${n}  ${who} reacted ${sanitizeLine(i.emoji ?? '')} ${v.c.dim(sanitizeLine(i.name ?? ''))} · ${when}`);
        return `${itemLine(`  ${n}  ${who} · ${when}`)}\n${text(v, i.body).replace(/^/gm, ' '.repeat(width + 4))}`;
      });
      return `${head}\n${items.join('\n')}\n`;
    })
    .join('\n');
  return fit(v, out);
}

/** A draft waiting in the outbox, as `checkin drafts` lists it (commands/drafts). */
/** A draft as `checkin drafts` lists it: core/shapes.ts DRAFT. */
export type { DraftRow };

export function draftRows(v: View, list: DraftRow[], profiles = false): string {
  const first = (r: DraftRow) => sanitizeLine(r.words);
  const forWhat = (r: DraftRow) => `${sanitizeLine(r.for)}${r.here ? '' : ` (kept for ${sanitizeLine(r.kept_for ?? r.account.api_url)})`}`;
  // Each draft's profile, where the person has several or chose one ("-": kept before profiles).
  const profile = (r: DraftRow) => (profiles ? [sanitizeLine(r.account.profile ?? '-')] : []);
  if (!v.rich) return tsv(list.map((r) => [r.id, ...profile(r), r.created_at, forWhat(r), r.made, sanitizeLine(r.base), r.state, first(r)]));
  const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');
  const base = (b: string) => (/^\d{4}-\d\d-\d\dT/.test(b) ? when(b) : sanitizeLine(b));
  return table(
    list.map((r) => [
      v.c.bold(r.id),
      ...profile(r),
      when(r.created_at),
      forWhat(r),
      r.made,
      base(r.base),
      r.state === 'waiting' ? v.c.dim(r.state) : v.c.yellow(r.state),
      first(r),
    ]),
    v.width,
    {
      columns: [
        { title: 'ID', kind: 'whole' },
        ...(profiles ? [{ title: 'PROFILE', kind: 'whole' } as const] : []),
        { title: 'WRITTEN', kind: 'whole' },
        { title: 'FOR', kind: 'text' },
        { title: 'ORIGIN', kind: 'whole' },
        { title: 'BASE', kind: 'whole' },
        { title: 'STATE', kind: 'state' },
        { title: 'WORDS', kind: 'text' },
      ],
      style: v.c.dim,
    },
  );
}
