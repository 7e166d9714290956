// The read-only tools: a check-in, the suggestion for *previous*, the team's day, a list, the
// inbox, a goal with its latest updates, me. Each is the CLI's own loader, without the printing.
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
import { checkInRows, goalHeaderView, goalUpdateRows, inboxRows, meView, teamDayView } from '../ui/views.js';
import { suggestionFor } from '../domain/suggest.js';
import { gatherInbox, inboxKey, readMarker } from '../domain/inbox-gather.js';
import { uuidOf } from '../domain/goal-updates.js';
import { checkInTarget, done, guard, plainView, shapes, type Served } from './kit.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
const DAY = z.string().describe('today (the default), yesterday, a weekday name (the most recent before today), last (my latest before today), YYYY-MM-DD, or a check-in UUID');
const RANGE_DAY = z.string().describe('YYYY-MM-DD, today, yesterday or a weekday name');

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
      description: "My check-in for a day (today's by default): its answers, mood, whether it is filled in, and its link. check_in is null when no check-in is scheduled that day.",
      inputSchema: { day: DAY.optional() },
      outputSchema: { day: z.string().describe('the check-in asked for, as the CLI names it'), check_in: shapes.checkIn.nullable() },
      annotations: { title: 'Get a check-in', ...READ },
    },
    ({ day }) =>
      guard(ctx, async () => {
        const target = await checkInTarget(ctx, day);
        const c = await fetchOrNull(ctx, target);
        if (!c) return done(`No check-in scheduled for ${target.label}.`, { day: target.label, check_in: null });
        return done(await checkInText(served, c), { day: target.label, check_in: c });
      }),
  );

  server.registerTool(
    'suggest_previous',
    {
      title: 'Suggest "previous"',
      description:
        "What to answer for *previous* (what I did since my last check-in): the intentions of my last check-in, then my activities on the service (merged PRs, tickets, logged work) and my commits in local git repositories since then, each line with where it came from. Sends nothing. Use it as the start of draft_checkin's previous, with context added.",
      inputSchema: { day: DAY.optional() },
      outputSchema: {
        day: z.string(),
        scheduled: z.boolean().describe('false when no check-in is scheduled that day (nothing is suggested)'),
        previous: z.union([z.string(), z.null().describe('none')]).describe('the suggestion as one Markdown text (null when there is nothing)'),
        sources: z.array(z.object({ source: z.enum(['intentions', 'activity', 'commits']), title: z.string(), date: z.string().optional(), lines: z.array(z.string()) })),
        notes: z.array(z.string()).describe('sources left out, and why'),
      },
      annotations: { title: 'Suggest "previous"', ...READ },
    },
    ({ day }) =>
      guard(ctx, async () => {
        const target = await checkInTarget(ctx, day);
        const found = await suggestionFor(ctx, target);
        if (!found) return done(`No check-in scheduled for ${target.label}: nothing to suggest.`, { day: target.label, scheduled: false, previous: null, sources: [], notes: [] });
        const { last, work, text } = found;
        const intentions = (last?.intentions ?? '').split('\n').filter((l) => l.trim() !== '');
        const sources = [
          ...(last && intentions.length > 0 ? [{ source: 'intentions' as const, title: `The intentions of my check-in of ${last.date}`, date: last.date, lines: intentions }] : []),
          ...work.groups.map((g) => ({ source: g.title.startsWith('Commits') ? ('commits' as const) : ('activity' as const), title: g.title, lines: g.bullets })),
        ];
        const body = sources.length === 0 ? 'Nothing to suggest: no earlier intentions, activities or commits.' : sources.map((s) => `${s.title}:\n${s.lines.join('\n')}`).join('\n\n');
        const notes = work.notes.map((n) => `note: ${n}`).join('\n');
        return done(`Suggestion for previous (${target.label}):\n\n${body}${notes ? `\n\n${notes}` : ''}\n`, { day: target.label, scheduled: true, previous: text, sources, notes: work.notes });
      }),
  );

  server.registerTool(
    'team_day',
    {
      title: "The team's day",
      description: "For each of my teams (or those named), who has filled in the day's check-in, who has not yet, who is blocked and by what, and who has none.",
      inputSchema: { day: RANGE_DAY.optional().describe('the day (default today): YYYY-MM-DD, today, yesterday or a weekday name'), team: z.array(z.string()).optional().describe('only these teams (UUIDs or names)') },
      outputSchema: {
        teams: z.array(z.object({ team: shapes.ref, date: z.string(), members: z.array(z.object({ person: shapes.ref, state: z.enum(['blocked', 'pending', 'filled', 'none']), check_in: shapes.checkIn.nullable() })) })),
      },
      annotations: { title: "The team's day", ...READ },
    },
    ({ day, team }) =>
      guard(ctx, async () => {
        const report = await teamDay(ctx, { date: await rangeDay(ctx, day, 'day'), teams: team });
        if (!report) return done('You are in no team.', { teams: [] });
        return done(teamDayView(await plainView(ctx, true), sanitizeDeep(report)), { teams: report });
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
      outputSchema: { check_ins: z.array(shapes.checkIn), more_may_follow: z.boolean().describe('the page was full: ask for the next one') },
      annotations: { title: 'List check-ins', ...READ },
    },
    (args) =>
      guard(ctx, async () => {
        const days = await dayRange(ctx, args, { since: 'since', until: 'until' });
        const filter = await checkInFilter(ctx, { ...days, blocked: args.blocked, people: args.person, teams: args.team });
        const { list, full } = await checkInPage(ctx, filter, { page: args.page, perPage: args.per_page });
        const text = list.length === 0 ? 'No check-ins match.' : `${checkInRows(await plainView(ctx), sanitizeDeep(list))}${full ? `More may follow: page ${(args.page ?? 1) + 1}.` : ''}`;
        return done(text, { check_ins: list, more_may_follow: full });
      }),
  );

  server.registerTool(
    'inbox',
    {
      title: 'Inbox',
      description:
        "Comments and reactions others left on my check-ins and goal updates: what is new since I last looked with `checkin inbox` (all: everything of the last two weeks). Reading it here does not mark anything as seen. Reply with draft_comment on a thread's type and id.",
      inputSchema: { all: z.boolean().optional().describe('everything, not only what is new'), since: RANGE_DAY.optional().describe('look at check-ins and updates from this day on') },
      outputSchema: {
        since: z.string(),
        seen_before: z.union([z.string(), z.null().describe('none')]),
        threads: z.array(z.object({ type: z.enum(['check-in', 'goal-update']).nullable(), id: z.union([z.string(), z.null().describe('none')]), date: z.string().optional(), title: z.string().optional(), url: z.union([z.string(), z.null().describe('none')]), items: z.array(z.looseObject({ kind: z.enum(['comment', 'reaction']), id: z.string() }).meta({ additionalProperties: true })) })),
      },
      annotations: { title: 'Inbox', ...READ },
    },
    ({ all, since }) =>
      guard(ctx, async () => {
        const marker = readMarker(ctx, await inboxKey(ctx));
        const from = await rangeDay(ctx, since, 'since');
        const inbox = await gatherInbox(ctx, { ...(from && { since: from }), ...(marker?.seen_at && !all && { seenAt: marker.seen_at }) });
        let n = 0;
        const threads = inbox.threads.map((t) => ({ type: t.on?.kind ?? null, id: t.on?.id ?? null, ...(t.date && { date: t.date }), ...(t.title && { title: t.title }), url: t.url ?? null, items: t.items }));
        const views = inbox.threads.map((t) => ({ label: t.label ?? (t.on?.kind === 'goal-update' ? `Goal update “${t.title ?? ''}” (${t.on.id})` : `Check-in ${t.date ?? ''}${t.on ? ` (${t.on.id})` : ''}`), ...(t.url && { url: t.url }), items: t.items.map((i) => ({ ...i, n: ++n })) }));
        const text = views.length === 0 ? `Nothing ${marker?.seen_at && !all ? 'new ' : ''}on your check-ins and goal updates since ${marker?.seen_at && !all ? marker.seen_at : inbox.since}.` : inboxRows(await plainView(ctx, true), sanitizeDeep(views));
        return done(text, { since: inbox.since, seen_before: marker?.seen_at ?? null, threads });
      }),
  );

  server.registerTool(
    'goal',
    {
      title: 'A goal and its latest updates',
      description: "A goal (its title, progress and confidence) with its latest updates, newest first. Goal ids are in the service's links and in `checkin goals`.",
      inputSchema: { goal_id: z.string().describe("the goal's UUID"), updates: z.number().int().min(1).max(20).optional().describe('how many of the latest updates (default 3)') },
      outputSchema: { goal: shapes.goal, updates: z.array(shapes.goalUpdate) },
      annotations: { title: 'A goal and its latest updates', ...READ },
    },
    ({ goal_id, updates }) =>
      guard(ctx, async () => {
        const id = uuidOf(goal_id, 'The goal id');
        const api = await ctx.api();
        const [goal, list] = await Promise.all([getGoal(api, id), listGoalUpdates(api, id, { per_page: updates ?? 3 })]);
        const v = await plainView(ctx);
        const text = goalHeaderView(v, sanitizeDeep(goal), undefined) + (list.length === 0 ? 'No updates yet.\n' : `Latest updates:\n${goalUpdateRows(v, sanitizeDeep(list))}`);
        return done(text, { goal, updates: list });
      }),
  );

  server.registerTool(
    'me',
    {
      title: 'Me',
      description: 'Who the token belongs to: id, name, @username (for mentions), time zone, teams; and the date of my today.',
      inputSchema: {},
      outputSchema: { me: shapes.me, today: z.string() },
      annotations: { title: 'Me', ...READ },
    },
    () =>
      guard(ctx, async () => {
        const person = await me(ctx);
        const day = await today(ctx);
        return done(`${meView(await plainView(ctx), sanitizeDeep(person))}today: ${day}\n`, { me: person, today: day });
      }),
  );
}
