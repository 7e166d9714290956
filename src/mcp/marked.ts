// The read tools' and resources' text for an agent: checkin's own words plain, and every word from
// outside (the service's: answers, comments, names, titles; a kept draft's) inside a block of
// kit.ts's `othersWords`, labelled with its author. The person's own words on the service are
// marked too, labelled with their name: what the service holds is never read as instructions,
// whoever wrote it. Ids the other tools take are said in checkin's own words only when they are
// UUIDs; anything else the service sent stays inside its block (and exact in the structured result).
import { DATE_KEY_RE, UUID_RE, type CheckIn, type Goal, type GoalUpdate } from '../api/types.js';
import type { Commentable } from '../api/endpoints.js';
import type { TeamDay } from '../core/member-states.js';
import type { OpenBlockers } from '../domain/blockers.js';
import type { WaitingDraft } from '../domain/drafts-waiting.js';
import type { Feed } from '../core/shapes.js';
import type { Inbox } from '../domain/inbox-gather.js';
import { renderCheckIn } from '../ui/render.js';
import { sanitizeDeep, sanitizeLine } from '../ui/sanitize.js';
import { checkInRows, goalHeaderView, goalUpdateView, meView, relativeTime, teamDayView, type View } from '../ui/views.js';
import { othersWords } from './kit.js';

/** The command that shows a check-in whole, when its id is one a command can carry. */
const wholeCheckIn = (id: string | null | undefined) => (id && UUID_RE.test(id) ? `checkin checkin ${id}` : undefined);

/** A word from outside in checkin's own line: only a UUID (the ids the tools take), else a pointer to the structured result. */
const idWord = (id: string | null | undefined) => (id && UUID_RE.test(id) ? id : undefined);
const replyHint = (on: { type: Commentable['kind']; id: string } | undefined) => {
  const id = idWord(on?.id);
  return on && id ? ` (reply: draft_comment with on "${on.type}", id "${id}")` : '';
};

/** One check-in, whole, as its author's words. */
export function markedCheckIn(v: View, c: CheckIn): string {
  return othersWords(c.person?.name, renderCheckIn(sanitizeDeep(c), v.c, false), { whole: wholeCheckIn(c.id) });
}

/** A page of check-ins: one line each (id, date, person, mood, state, blocked, first line of intentions), each its author's. */
export function markedCheckIns(v: View, list: CheckIn[]): string {
  return `${list.length} check-in${list.length === 1 ? '' : 's'}, newest first (each: id, date, person, mood, state, blocked, the first line of intentions):\n${list.map((c) => othersWords(c.person?.name, checkInRows(v, [sanitizeDeep(c)]), { whole: wholeCheckIn(c.id) })).join('')}`;
}

/** Each team's day (`v` rich: a table of members), marked as the team's. */
export function markedTeamDays(v: View, report: TeamDay[]): string {
  return report
    .map(
      (r, i) =>
        `Team ${i + 1} of ${report.length}${DATE_KEY_RE.test(r.date) ? `, ${r.date}` : ''}:\n${othersWords(r.team.name, teamDayView(v, [sanitizeDeep(r)]), { whole: 'checkin team' })}`,
    )
    .join('\n');
}

/** Threads of the inbox: what each is about (the service's title), then each comment or reaction as its author's. */
export function markedInbox(v: View, inbox: Inbox): string {
  return inbox.threads
    .map((t, i) => {
      const about = t.label ?? (t.on?.kind === 'goal-update' ? `Goal update “${t.title ?? ''}”` : `Check-in ${t.date ?? ''}`);
      const items = t.items.map((item) =>
        othersWords(
          item.person?.name,
          item.kind === 'comment'
            ? `comment · ${item.created_at} (${relativeTime(item.created_at, v.now)})\n\n${item.body ?? ''}`
            : `reacted ${item.emoji ?? ''} ${item.name ?? ''} · ${item.created_at}`,
        ),
      );
      return `Thread ${i + 1}${replyHint(t.on && { type: t.on.kind, id: t.on.id })}: what it is about, then ${t.items.length} item${t.items.length === 1 ? '' : 's'}, newest first.\n${othersWords(undefined, `${about}${t.url ? `\n${t.url}` : ''}`)}${items.join('')}`;
    })
    .join('\n');
}

/** A goal (the owner's words) and its updates (each its author's); `v` rich. */
export function markedGoal(v: View, goal: Goal, updates: GoalUpdate[]): string {
  const g = sanitizeDeep(goal);
  const head = othersWords(g.owner?.name, `${goalHeaderView(v, g, undefined)}id: ${g.id}${g.end_date ? `\ndue: ${g.end_date}` : ''}`);
  if (updates.length === 0) return `The goal:\n${head}No updates yet.\n`;
  return `The goal:\n${head}Its latest ${updates.length === 1 ? 'update' : `${updates.length} updates`}, newest first:\n${updates.map((u) => othersWords(u.person?.name, goalUpdateView(v, sanitizeDeep(u)))).join('')}`;
}

/** Goals, each as its owner's words, with the id the goal tool takes said plainly when it is a UUID. */
export function markedGoals(goals: Goal[]): string {
  return goals
    .map((goal, i) => {
      const g = sanitizeDeep(goal);
      const id = idWord(goal.id);
      const facts = [
        g.title,
        `id: ${g.id}`,
        `progress: ${g.progress == null ? '—' : `${g.progress}%`} · confidence: ${g.confidence_description ?? (g.confidence == null ? '—' : String(g.confidence))}${g.end_date ? ` · due ${g.end_date}` : ''}`,
        `owner: ${g.owner?.name ?? '—'}${g.teams?.length ? ` · teams: ${g.teams.map((t) => t.name).join(', ')}` : ''}`,
      ];
      return `Goal ${i + 1}${id ? ` (goal_id "${id}")` : ''}:\n${othersWords(g.owner?.name, facts.join('\n'))}`;
    })
    .join('');
}

/** The person, as the service has them (their own words, marked as theirs), and their today. */
export function markedMe(v: View, person: Parameters<typeof meView>[1], day: string): string {
  return `${othersWords(person.name, meView(v, sanitizeDeep(person)))}today: ${day}\n`;
}

/** The feed: each entry's category and when in checkin's words, then the entry as its author's. */
export function markedFeed(v: View, feed: Feed): string {
  return feed.items
    .map((item, i) => {
      const what = /^[a-z][a-z-]{0,29}$/.test(item.category) ? item.category : 'an entry';
      const body = [
        item.title,
        `${item.published_at} (${relativeTime(item.published_at, v.now)})`,
        item.goal?.title ? `goal: ${item.goal.title}` : '',
        item.body ? `\n${item.body}` : '',
        item.url ?? '',
      ]
        .filter((l) => l !== '')
        .join('\n');
      return `${i + 1}. ${what}${replyHint(item.reply_on)}:\n${othersWords(item.by?.name, body)}`;
    })
    .join('');
}

/** The open blockers: who is named in the block; the check-in id (for a comment) in checkin's words. */
export function markedBlockers(found: OpenBlockers): string {
  return found.blockers
    .map((b, i) => {
      const lines = [
        `${b.person?.name ?? 'Someone'}${b.teams.length ? ` (${b.teams.map((t) => t.name).join(', ')})` : ''}`,
        `blocked${b.days > 1 ? ` ${b.days}${b.at_least ? ' or more' : ''} days in a row, since ${b.since}` : ', not by the same blocker the check-in before'}${b.reported_at ? `; filled in at ${b.reported_at}` : ''}`,
        '',
        b.blockers,
      ];
      const id = idWord(b.check_in.id);
      return `${i + 1}. ${id ? `the check-in ${id} (draft_comment with on "check-in" takes this id)` : 'a check-in (its id: in the structured result)'}:\n${othersWords(b.person?.name, lines.join('\n'), { whole: wholeCheckIn(b.check_in.id) })}`;
    })
    .join('');
}

/** Which tool sends a draft of this target, when one does (others are sent from a terminal). */
export function sendToolOf(d: WaitingDraft): 'send_checkin' | 'send_comment' | 'send_goal_update' | null {
  switch (d.target.kind) {
    case 'check-in':
      return d.entry.content.kind === 'answers' || d.entry.content.kind === 'text' ? 'send_checkin' : null;
    case 'comment':
      return 'send_comment';
    case 'goal-update':
      return d.entry.content.kind === 'goal-update' ? 'send_goal_update' : null;
    default:
      return null;
  }
}

const STATE_WORDS = { waiting: 'waiting', 'being-sent': 'being sent now', 'maybe-sent': 'may already have reached the service' } as const;

/** The drafts waiting: id, what for, how and when kept, state and how to send it in checkin's words; the first words as the writer's. */
export function markedDrafts(drafts: WaitingDraft[]): string {
  return drafts
    .map((d) => {
      const tool = sendToolOf(d);
      const how = tool ? `${tool} with draft_id "${d.id}" sends it once the person says yes` : `sent from a terminal: \`checkin drafts send ${d.id}\``;
      return `Draft ${d.id}: ${sanitizeLine(d.for)}; written ${d.made === 'agent' ? 'by an agent' : `by the person (${d.made})`}, kept ${d.saved_at}; ${STATE_WORDS[d.sending]}; ${how}. Its first words:\n${othersWords(d.made === 'agent' ? 'an agent' : 'the person', d.words, { from: 'a draft kept on this machine' })}`;
    })
    .join('');
}
