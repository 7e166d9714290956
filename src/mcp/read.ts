// The read-only tools: a check-in, the suggestion for *previous*, the team's day, a list, the
// inbox, a goal with its latest updates, goals, the feed, the drafts waiting, the open blockers,
// me. Each calls the domain's operation (the CLI's own loaders), and renders its text with
// marked.ts: every word from outside in a block naming its author (kit.ts othersWords).
import { getGoal, listGoalUpdates } from '../api/endpoints.js';
import type { CheckIn } from '../api/types.js';
import * as z from 'zod';
import { me } from '../domain/account.js';
import { checkInFilter, checkInPage } from '../domain/list-checkins.js';
import { dayRange, rangeDay, today } from '../domain/days.js';
import { teamDay } from '../domain/team-day.js';
import { fetchOrNull } from '../domain/target.js';
import { renderCheckIn } from '../ui/render.js';
import { sanitizeDeep } from '../ui/sanitize.js';
import { suggestionFor } from '../domain/suggest.js';
import { gatherInbox, inboxKey, inboxThreads, readMarker } from '../domain/inbox-gather.js';
import { goalIdOf } from '../domain/short-ids.js';
import { openBlockers } from '../domain/blockers.js';
import { waitingDrafts } from '../domain/drafts-waiting.js';
import { project } from '../api/validate.js';
import { ME_RECORD } from '../core/shapes.js';
import { AGENT_DRAFT } from './results.js';
import { feedStart, MAX_FEED_ENTRIES, readFeed } from '../domain/feed.js';
import { findGoals } from '../domain/goals-list.js';
import { checkInTarget, done, guard, othersWords, plainView, outputOf, type Served } from './kit.js';
import {
  markedBlockers,
  markedCheckIn,
  markedCheckIns,
  markedDrafts,
  markedFeed,
  markedGoal,
  markedGoals,
  markedInbox,
  markedMe,
  markedTeamDays,
  sendToolOf,
} from './marked.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
const DAY = z
  .string()
  .describe('today (the default), yesterday, a weekday name (the most recent before today), last (my latest before today), YYYY-MM-DD, or a check-in UUID');
const RANGE_DAY = z.string().describe('YYYY-MM-DD, today, yesterday or a weekday name');
const PEOPLE = z.array(z.string()).optional().describe('people: me, a UUID, a name or an @username');
const TEAMS = z.array(z.string()).optional().describe('teams: a UUID or a name');
/** A check-in as text: heading, state and answers (Markdown as written, sanitised). */
export async function checkInText(served: Served, c: CheckIn): Promise<string> {
  const v = await plainView(served.ctx);
  return renderCheckIn(sanitizeDeep(c), v.c, false);
}

export function registerReadTools(served: Served): void {
  const { server, ctx } = served;

  server.registerTool(
    'get_checkin',
    {
      title: 'Get a check-in',
      description:
        "My check-in for a day (today's by default): its answers, mood, whether it is filled in, and its link. check_in is null when no check-in is scheduled that day.",
      inputSchema: { day: DAY.optional() },
      outputSchema: outputOf('get_checkin'),
      annotations: { title: 'Get a check-in', ...READ },
    },
    ({ day }) =>
      guard(ctx, async () => {
        const target = await checkInTarget(ctx, day);
        const c = await fetchOrNull(ctx, target);
        if (!c) return done(`No check-in scheduled for ${target.label}.`, { day: target.label, check_in: null });
        return done(markedCheckIn(await plainView(ctx), c), { day: target.label, check_in: c });
      }),
  );

  server.registerTool(
    'suggest_previous',
    {
      title: 'Suggest "previous"',
      description:
        "What to answer for *previous* (what I did since my last check-in): the intentions of my last check-in, then my activities on the service (merged PRs, tickets, logged work) and my commits in local git repositories since then, each line with where it came from. Sends nothing. Use it as the start of draft_checkin's previous, with context added.",
      inputSchema: { day: DAY.optional() },
      outputSchema: outputOf('suggest_previous'),
      annotations: { title: 'Suggest "previous"', ...READ },
    },
    ({ day }) =>
      guard(ctx, async () => {
        const target = await checkInTarget(ctx, day);
        const found = await suggestionFor(ctx, target);
        if (!found)
          return done(`No check-in scheduled for ${target.label}: nothing to suggest.`, {
            day: target.label,
            scheduled: false,
            previous: null,
            sources: [],
            notes: [],
          });
        const { last, work, text } = found;
        const intentions = (last?.intentions ?? '').split('\n').filter((l) => l.trim() !== '');
        const sources = [
          ...(last && intentions.length > 0
            ? [{ source: 'intentions' as const, title: `The intentions of my check-in of ${last.date}`, date: last.date, lines: intentions }]
            : []),
          ...work.groups.map((g) => ({
            source: g.title.startsWith('Commits') ? ('commits' as const) : ('activity' as const),
            title: g.title,
            lines: g.bullets,
          })),
        ];
        const by = (await me(ctx)).name;
        const body =
          sources.length === 0
            ? 'Nothing to suggest: no earlier intentions, activities or commits.'
            : sources
                .map(
                  (s) =>
                    `${s.title}:\n${othersWords(s.source === 'commits' ? undefined : by, s.lines.join('\n'), { from: s.source === 'commits' ? 'local git repositories' : 'the service' })}`,
                )
                .join('\n');
        const notes = work.notes.map((n) => `note: ${n}`).join('\n');
        return done(`Suggestion for previous (${target.label}):\n\n${body}${notes ? `\n\n${notes}` : ''}\n`, {
          day: target.label,
          scheduled: true,
          previous: text,
          sources,
          notes: work.notes,
        });
      }),
  );

  server.registerTool(
    'team_day',
    {
      title: "The team's day",
      description:
        "For each of my teams (or those named), each person's state that day — blocked (and by what), pending, filled, absent or nothing scheduled — with their check-in.",
      inputSchema: {
        day: RANGE_DAY.optional().describe('the day (default today): YYYY-MM-DD, today, yesterday or a weekday name'),
        team: z.array(z.string()).optional().describe('only these teams (UUIDs or names)'),
      },
      outputSchema: outputOf('team_day'),
      annotations: { title: "The team's day", ...READ },
    },
    ({ day, team }) =>
      guard(ctx, async () => {
        const report = await teamDay(ctx, { date: await rangeDay(ctx, day, 'day'), teams: team });
        if (!report) return done('You are in no team.', { teams: [] });
        return done(markedTeamDays(await plainView(ctx, true), report), { teams: report });
      }),
  );

  server.registerTool(
    'list_checkins',
    {
      title: 'List check-ins',
      description: 'Check-ins, newest first, filtered by days, blocked, people and teams; one page at a time.',
      inputSchema: {
        since: RANGE_DAY.optional().describe('from this day'),
        until: RANGE_DAY.optional().describe('up to this day, inclusive'),
        blocked: z.boolean().optional().describe('only check-ins with blockers'),
        person: z.array(z.string()).optional().describe('people: me, a UUID, a name or an @username'),
        team: z.array(z.string()).optional().describe('teams: a UUID or a name'),
        page: z.number().int().min(1).max(100000).optional(),
        per_page: z.number().int().min(1).max(50).optional().describe('at most 50 (the service gives 20 by default)'),
      },
      outputSchema: outputOf('list_checkins'),
      annotations: { title: 'List check-ins', ...READ },
    },
    (args) =>
      guard(ctx, async () => {
        const days = await dayRange(ctx, args, { since: 'since', until: 'until' });
        const filter = await checkInFilter(ctx, { ...days, blocked: args.blocked, people: args.person, teams: args.team });
        const { list, full } = await checkInPage(ctx, filter, { page: args.page, perPage: args.per_page });
        const text =
          list.length === 0
            ? 'No check-ins match.'
            : `${markedCheckIns(await plainView(ctx), list)}${full ? `More may follow: page ${(args.page ?? 1) + 1}.` : ''}`;
        return done(text, { check_ins: list, more_may_follow: full });
      }),
  );

  server.registerTool(
    'inbox',
    {
      title: 'Inbox',
      description:
        "Comments and reactions others left on my check-ins and goal updates: what is new since I last looked with `checkin inbox` (all: everything of the last two weeks). Reading it here does not mark anything as seen. Reply with draft_comment on a thread's type and id.",
      inputSchema: {
        all: z.boolean().optional().describe('everything, not only what is new'),
        since: RANGE_DAY.optional().describe('look at check-ins and updates from this day on'),
      },
      outputSchema: outputOf('inbox'),
      annotations: { title: 'Inbox', ...READ },
    },
    ({ all, since }) =>
      guard(ctx, async () => {
        const marker = readMarker(ctx, await inboxKey(ctx));
        const from = await rangeDay(ctx, since, 'since');
        const inbox = await gatherInbox(ctx, { ...(from && { since: from }), ...(marker?.seen_at && !all && { seenAt: marker.seen_at }) });
        const threads = inboxThreads(inbox);
        const text =
          inbox.threads.length === 0
            ? `Nothing ${marker?.seen_at && !all ? 'new ' : ''}on your check-ins and goal updates since ${marker?.seen_at && !all ? marker.seen_at : inbox.since}.`
            : markedInbox(await plainView(ctx), inbox);
        return done(text, { since: inbox.since, seen_before: marker?.seen_at ?? null, threads });
      }),
  );

  server.registerTool(
    'goal',
    {
      title: 'A goal and its latest updates',
      description:
        "A goal (its title, progress and confidence) with its latest updates, newest first. Goal ids are in the service's links and in `checkin goals`.",
      inputSchema: {
        goal_id: z.string().describe("the goal's id: its UUID, or the start of it (8 characters, as the goals tool's short ids)"),
        updates: z.number().int().min(1).max(20).optional().describe('how many of the latest updates (default 3)'),
      },
      outputSchema: outputOf('goal'),
      annotations: { title: 'A goal and its latest updates', ...READ },
    },
    ({ goal_id, updates }) =>
      guard(ctx, async () => {
        const id = await goalIdOf(ctx, goal_id, 'The goal id');
        const api = await ctx.api();
        const [goal, list] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: updates ?? 3 })]);
        return done(markedGoal(await plainView(ctx, true), goal, list), { goal, updates: list });
      }),
  );

  server.registerTool(
    'goals',
    {
      title: 'Goals',
      description:
        'Goals with their ids (the goal_id that goal and draft_goal_update take): mine by default, or those of the people or teams named. Each with its progress, confidence, due date and owner.',
      inputSchema: { person: PEOPLE, team: TEAMS },
      outputSchema: outputOf('goals'),
      annotations: { title: 'Goals', ...READ },
    },
    ({ person, team }) =>
      guard(ctx, async () => {
        const found = await findGoals(ctx, { people: person, teams: team });
        const n = found.goals.length;
        const text =
          n === 0
            ? `No goals ${found.whose === 'mine' ? 'of yours' : 'match'}.`
            : `${n} goal${n === 1 ? '' : 's'}${found.whose === 'mine' ? ' of yours' : ''}; the goal tool takes a goal_id for its latest updates:\n${markedGoals(found.goals)}`;
        return done(text, { whose: found.whose, goals: found.goals });
      }),
  );

  server.registerTool(
    'feed',
    {
      title: 'What is new',
      description:
        "What is new for me since a time, newest first, from the service's own feed (its digest): comments on my check-ins and goal updates and @mentions of me, my teams' check-ins, others' updates of my goals. Reply to an entry with draft_comment on its reply_on. A service without a digest gives my teams' check-ins only (source says which). Reading it marks nothing as seen.",
      inputSchema: {
        since: z
          .string()
          .optional()
          .describe(
            'from this time: ISO 8601 (2026-05-06T09:00:00Z), or a day — YYYY-MM-DD, today, yesterday or a weekday name — from its start (UTC); default yesterday',
          ),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_FEED_ENTRIES)
          .optional()
          .describe(`at most this many entries (default 50, the most one request brings; up to ${MAX_FEED_ENTRIES})`),
      },
      outputSchema: outputOf('feed'),
      annotations: { title: 'What is new', ...READ },
    },
    ({ since, limit }) =>
      guard(ctx, async () => {
        const feed = await readFeed(ctx, { since: await feedStart(ctx, since ?? 'yesterday', 'since'), ...(limit !== undefined && { limit }) });
        const note =
          feed.source === 'check-ins'
            ? " This service has no feed (no digest): these are my teams' check-ins only; comments on mine are in the inbox tool."
            : '';
        const text =
          feed.items.length === 0
            ? `Nothing new since ${feed.since}.${note}`
            : `${feed.items.length} entr${feed.items.length === 1 ? 'y' : 'ies'} since ${feed.since}, newest first.${note}${feed.more_may_follow ? ' More may follow: ask again with since set to the oldest one shown, or a larger limit.' : ''}\n${markedFeed(await plainView(ctx), feed)}`;
        return done(text, feed);
      }),
  );

  server.registerTool(
    'drafts',
    {
      title: 'Drafts waiting',
      description:
        "The drafts waiting in the outbox for this account (the person's own, kept after a failed or refused send, and agents'), as `checkin drafts --json` has them: each one's id (the draft_id the send_* tools take), what it is for, its first words, how it was written and when it was kept, its state, and which send_* tool takes it (others are sent from a terminal with `checkin drafts send`). Reads files on this machine; no request.",
      inputSchema: {},
      outputSchema: outputOf('drafts'),
      annotations: { title: 'Drafts waiting', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () =>
      guard(ctx, async () => {
        const list = waitingDrafts(ctx);
        const drafts = list.map((d) => ({ ...project(AGENT_DRAFT, d), send_tool: sendToolOf(d) }));
        const text =
          list.length === 0 ? 'No drafts are waiting.' : `${list.length} draft${list.length === 1 ? '' : 's'} waiting, oldest first:\n${markedDrafts(list)}`;
        return done(text, { drafts });
      }),
  );

  server.registerTool(
    'blockers',
    {
      title: "The team's open blockers",
      description:
        "The open blockers of my teams (or those named) on a day (default today): who is blocked, by what, for how many check-ins in a row (days) the longest-standing blocker has stood and since when (looking back a week), and the check-in's id (draft_comment takes it to offer help).",
      inputSchema: { day: RANGE_DAY.optional().describe('the day (default today): YYYY-MM-DD, today, yesterday or a weekday name'), team: TEAMS },
      outputSchema: outputOf('blockers'),
      annotations: { title: "The team's open blockers", ...READ },
    },
    ({ day, team }) =>
      guard(ctx, async () => {
        const found = await openBlockers(ctx, { date: await rangeDay(ctx, day, 'day'), teams: team });
        if (!found) return done('You are in no team.', { date: (await rangeDay(ctx, day, 'day')) ?? (await today(ctx)), looked_back_to: '', blockers: [] });
        const n = found.blockers.length;
        const text =
          n === 0
            ? `No open blockers on ${found.date} in ${found.team_ids.length === 1 ? 'the team' : `the ${found.team_ids.length} teams`} asked about.`
            : `${n} open blocker${n === 1 ? '' : 's'} on ${found.date}:\n${markedBlockers(found)}`;
        return done(text, { date: found.date, looked_back_to: found.looked_back_to, blockers: found.blockers });
      }),
  );

  server.registerTool(
    'me',
    {
      title: 'Me',
      description: 'Who the token belongs to: id, name, @username (for mentions), time zone, teams; and the date of my today.',
      inputSchema: {},
      outputSchema: outputOf('me'),
      annotations: { title: 'Me', ...READ },
    },
    () =>
      guard(ctx, async () => {
        const person = await me(ctx);
        const day = await today(ctx);
        return done(markedMe(await plainView(ctx), person, day), { me: project(ME_RECORD, person), today: day });
      }),
  );
}
