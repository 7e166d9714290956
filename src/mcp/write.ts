// The tools that write, always in two steps: draft_* keeps what the agent wrote as an entry of its
// own in the outbox (the CLI's own drafts, config/outbox-files.ts) and sends nothing; send_* sends that
// entry, and only once the person said yes — asked through the client (MCP elicitation) when it
// can ask, else only when the server was started with --allow-send. The entry is claimed before the
// person is asked: a second send of it (another call, another process) is refused at once, so one
// draft is sent at most once. A draft never replaces another: the person's own words for the same
// target stay where they are, and sending the agent's removes only the agent's.
import { createGoalUpdate, getGoal, postActivity, postComment } from '../api/endpoints.js';
import type { CheckInAnswers, GoalUpdateInput, Ref } from '../api/types.js';
import { answersOf, parseMood, readTemplate } from '../core/checkin-answers.js';
import { CliError, UsageError } from '../errors.js';
import { me, resolveTeams } from '../domain/account.js';
import { accountHere, commentBody, contentText, keptLine, sendWithDraft, waitingFor, type Claim, type DraftContent, type DraftTarget, type Entry } from '../domain/outbox.js';
import { fetchOrNull } from '../domain/target.js';
import { sanitize, sanitizeLine } from '../ui/sanitize.js';
import { goalUpdatePreview } from '../ui/views.js';
import * as z from 'zod';
import { activityInput, MAX_DESCRIPTION } from '../domain/activity-input.js';
import { sendAnswers } from '../domain/send-checkin.js';
import { commentTarget } from '../domain/comment-target.js';
import { parseConfidence, uuidOf } from '../domain/goal-updates.js';
import { checkInText } from './read.js';
import { checkInTarget, done, entryFor, guard, plainView, shapes, type Served } from './kit.js';

/**
 * Who a check-in is shared with once these answers are sent: the teams named (team_ids), else all
 * of the person's teams (the service's default when team_ids is left out), by name.
 */
async function sharedWith(served: Served, a: CheckInAnswers): Promise<{ teams: Ref[]; all: boolean }> {
  const mine = (await me(served.ctx)).teams;
  if (!a.team_ids) return { teams: mine, all: true };
  return { teams: a.team_ids.map((id) => mine.find((t) => t.id.toLowerCase() === id.toLowerCase()) ?? { id, name: id }), all: false };
}

/** Answers as a person reads them before saying yes: who sees them, then each given answer under its name. */
function answersText(a: CheckInAnswers, shared: { teams: Ref[]; all: boolean }): string {
  const names = shared.teams.map((t) => sanitizeLine(t.name)).join(', ');
  const parts: string[] = [`Shared with: ${shared.all ? `${names || 'no team'} (all your teams)` : names}`];
  for (const [key, title] of [['previous', 'Previous'], ['intentions', 'Intentions'], ['blockers', 'Blockers']] as const) {
    const value = a[key];
    if (value !== undefined) parts.push(`${title}:\n${value === null || value.trim() === '' ? '(nothing)' : value}`);
  }
  if (a.mood !== undefined) parts.push(`Mood: ${a.mood ?? 'none'}`);
  if (a.previous_completed !== undefined && a.previous_completed !== null) parts.push(`Did what was intended: ${a.previous_completed ? 'yes' : 'no'}`);
  return parts.join('\n\n');
}

/** How long the person has to answer "Send it?" in their client. */
const ASK_TIMEOUT_MS = 10 * 60 * 1000;

const DRAFT = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const DRAFT_ID = z.string().describe('the draft_id a draft_* tool returned');
const SENT = {
  sent: z.boolean(),
  draft_id: z.string(),
  draft_kept: z.boolean().describe('the draft is still on disk (not sent): `resume_command` sends it from a terminal'),
  resume_command: z.string(),
  reason: z.string().optional().describe('why nothing was sent'),
};
const OTHERS = z.number().int().describe('other drafts waiting for the same target (the person\'s, or earlier ones): left as they are');

/** The command that sends a draft from a terminal. */
const sendCommand = (entry: Entry) => `checkin drafts send ${entry.id}`;

/**
 * Keeps what the agent wrote as a new entry of its own: nothing kept earlier (the person's words,
 * another session's) is replaced or changed. Returns it and how many others wait for the target.
 */
function keepDraft(served: Served, target: DraftTarget, content: DraftContent, { hold = false }: { hold?: boolean } = {}): { entry: Entry; others: number } {
  const { ctx } = served;
  const others = waitingFor(ctx, target).here.length;
  // A draft waits for the person's yes, free for their terminal to send too; one sent at once is held until then.
  const entry = ctx.drafts().add(accountHere(ctx), target, content, 'agent', ctx.now(), { hold });
  return { entry, others };
}

/** What the result says of other drafts for the same target. */
const othersNote = (n: number) => (n === 0 ? '' : ` ${n === 1 ? 'Another draft waits' : `${n} other drafts wait`} for the same target (the person's, or earlier ones); they are left as they are.`);

/** The entry a send_* tool names, of the kind it sends. */
function draftFor(served: Served, id: string, kind: DraftTarget['kind']): Entry {
  const entry = entryFor(served.ctx, id);
  if (entry.target.kind !== kind) throw new UsageError(`${id} is a ${entry.target.kind} draft: send it with send_${entry.target.kind === 'check-in' ? 'checkin' : entry.target.kind.replace('-', '_')}`);
  return entry;
}

/**
 * Claims the entry for the whole send, the person's question included: a second send of the same
 * draft (another call, another process) is refused at once instead of asking again. Released on
 * every path; removed once sent.
 */
async function withClaim<T>(served: Served, entry: Entry, work: (claim: Claim) => Promise<T>): Promise<T> {
  const claim = served.ctx.drafts().claim(entry);
  try {
    return await work(claim);
  } finally {
    claim.release();
  }
}

/**
 * The person's yes: asked through the client when it can ask (sent only on accept); otherwise
 * given by starting the server with --allow-send; otherwise refused (the draft stays).
 */
async function personSaysYes(served: Served, question: string, preview: string, refusal: () => Error): Promise<boolean> {
  const form = served.server.server.getClientCapabilities()?.elicitation?.form;
  if (form) {
    const answer = await served.server.server.elicitInput({ mode: 'form', message: sanitize(`${question}\n\n${preview}`), requestedSchema: { type: 'object', properties: {} } }, { timeout: ASK_TIMEOUT_MS });
    return answer.action === 'accept';
  }
  if (served.allowSend) return true;
  throw refusal();
}

/** Why a send is refused when the client cannot ask the person. */
const cannotAsk = (entry: Entry) => () =>
  new UsageError(
    "Sending needs the person's yes, and this client cannot ask for it (no MCP elicitation): nothing was sent",
    `${keptLine(sendCommand(entry), { draft: entry.id })} A server started with \`checkin mcp --allow-send\` sends without asking.`,
  );

const declined = (id: string, resume: string) =>
  done(`Not sent: the person said no. ${keptLine(resume, { draft: id })}`, { sent: false, draft_id: id, draft_kept: true, resume_command: resume, reason: 'declined' });

export function registerWriteTools(served: Served): void {
  const { server, ctx } = served;

  server.registerTool(
    'draft_checkin',
    {
      title: 'Draft a check-in',
      description:
        'Keeps answers for a check-in as a draft on disk and returns its preview and draft_id; sends nothing. Show the preview to the person, then send_checkin sends it once they say yes. Answers left out keep what the check-in already says. Write short Markdown bullets; give every reference its context (what a PR or ticket is about, with its link); @mention people by @username; leave blockers empty ("") when nothing blocks — never "none".',
      inputSchema: {
        day: z.string().optional().describe('the check-in: today (default), yesterday, a weekday name, YYYY-MM-DD or a UUID'),
        previous: z.string().optional().describe('what I did since my last check-in (Markdown)'),
        intentions: z.string().optional().describe('what I intend to do next (Markdown)'),
        blockers: z.string().optional().describe('what blocks me; "" for nothing'),
        mood: z.string().optional().describe('one of the service\'s moods, e.g. focused, calm, happy, tired (none clears it)'),
        previous_completed: z.boolean().optional().describe('did I do what I intended last time?'),
        team: z.array(z.string()).optional().describe('share with these teams only (UUIDs or names; default all my teams)'),
      },
      outputSchema: {
        draft_id: z.string(),
        day: z.string(),
        answers: shapes.answers,
        shared_with: z.array(shapes.ref).describe('the teams that will see it once sent (team, else all my teams)'),
        preview: z.string().describe('the check-in as it will read once sent'),
        resume_command: z.string(),
        other_drafts: OTHERS,
      },
      annotations: { title: 'Draft a check-in', ...DRAFT },
    },
    (args) =>
      guard(ctx, async () => {
        const target = await checkInTarget(ctx, args.day);
        const answers: CheckInAnswers = {};
        if (args.previous !== undefined) answers.previous = args.previous;
        if (args.intentions !== undefined) answers.intentions = args.intentions;
        if (args.blockers !== undefined) answers.blockers = args.blockers;
        if (args.mood !== undefined) answers.mood = parseMood(args.mood);
        if (args.previous_completed !== undefined) answers.previous_completed = args.previous_completed;
        if (args.team?.length) answers.team_ids = await resolveTeams(ctx, args.team);
        if (Object.keys(answers).length === 0) throw new UsageError('Nothing to draft: give previous, intentions, blockers, mood or previous_completed');
        const current = await fetchOrNull(ctx, target);
        if (!current) throw new UsageError(`No check-in scheduled for ${target.label}: nothing to draft`);
        const draftTarget = { kind: 'check-in', key: target.key } as const;
        const shared = await sharedWith(served, answers);
        const { entry, others } = keepDraft(served, draftTarget, { kind: 'answers', answers });
        const preview = await checkInText(served, { ...current, ...answersOf({ ...current, ...answers }), teams: shared.teams });
        const resume = sendCommand(entry);
        return done(`Draft ${entry.id} kept (not sent).${othersNote(others)} Show the person this preview; send_checkin sends it once they say yes (\`${resume}\` sends it from a terminal).\n\n${preview}`, { draft_id: entry.id, day: target.label, answers, shared_with: shared.teams, preview, resume_command: resume, other_drafts: others });
      }),
  );

  server.registerTool(
    'send_checkin',
    {
      title: 'Send a check-in draft',
      description: "Sends a draft_checkin draft (one PATCH of the check-in) after asking the person; nothing is sent if they say no or cannot be asked. The draft is deleted only once the service has the answers.",
      inputSchema: { draft_id: DRAFT_ID },
      outputSchema: { ...SENT, check_in: shapes.checkIn.optional() },
      annotations: { title: 'Send a check-in draft', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ draft_id }) =>
      guard(ctx, async () => {
        const entry = draftFor(served, draft_id, 'check-in');
        const target = await checkInTarget(ctx, (entry.target as { key: string }).key);
        const resume = sendCommand(entry);
        let answers: CheckInAnswers;
        if (entry.content.kind === 'answers') answers = entry.content.answers;
        else if (entry.content.kind === 'text') {
          const read = readTemplate(entry.content.text);
          if (read.problems.length > 0) throw new UsageError(`The kept draft cannot be sent as it is: ${read.problems.slice(0, 3).join('; ')}`, `Fix it in the editor with \`${target.resumeCommand} --resume -e\`.`);
          answers = read.answers;
        } else throw new UsageError(`The draft ${draft_id} holds no answers`);
        return withClaim(served, entry, async (claim) => {
          if (!(await personSaysYes(served, `Send your check-in for ${target.label}?`, answersText(answers, await sharedWith(served, answers)), cannotAsk(entry)))) return declined(entry.id, resume);
          const sent = await sendAnswers(ctx, target, answers, { keepDraft: false, entry, claim, quiet: true, resume });
          if (!sent) return done(`Not sent: no check-in is scheduled for ${target.label}. ${keptLine(resume, { draft: entry.id })}`, { sent: false, draft_id: entry.id, draft_kept: true, resume_command: resume, reason: 'no check-in scheduled' });
          return done(`Sent: checked in for ${target.label}.\n\n${await checkInText(served, sent)}`, { sent: true, draft_id: entry.id, draft_kept: false, resume_command: resume, check_in: sent });
        });
      }),
  );

  server.registerTool(
    'draft_comment',
    {
      title: 'Draft a comment or reply',
      description: 'Keeps a comment on a check-in or a goal update (a reply to an inbox thread: its type and id) as a draft, and returns its draft_id; sends nothing. send_comment posts it once the person says yes.',
      inputSchema: {
        on: z.enum(['check-in', 'goal-update']).describe('what the comment goes on'),
        id: z.string().describe("the check-in (a UUID, YYYY-MM-DD or a day word: my own check-in that day) or the goal update's UUID"),
        body: z.string().min(1).describe('the comment (Markdown)'),
      },
      outputSchema: { draft_id: z.string(), on: z.object({ type: z.enum(['check-in', 'goal-update']), id: z.string() }), body: z.string(), resume_command: z.string(), other_drafts: OTHERS },
      annotations: { title: 'Draft a comment or reply', ...DRAFT },
    },
    ({ on, id, body }) =>
      guard(ctx, async () => {
        if (body.trim() === '') throw new UsageError('The comment is empty; nothing was kept');
        const what = await commentTarget(ctx, on === 'goal-update' ? { goalUpdate: id } : { checkIn: id });
        if ('none' in what) throw new UsageError(`No check-in scheduled for ${what.none}: nothing to comment on`);
        const target = { kind: 'comment', on: what.kind, id: what.id } as const;
        const { entry, others } = keepDraft(served, target, { kind: 'comment', body });
        return done(`Draft ${entry.id} kept (not sent): a comment on the ${what.kind} ${what.id}:\n\n${body}\n\nsend_comment posts it once the person says yes.${othersNote(others)}`, { draft_id: entry.id, on: { type: what.kind, id: what.id }, body, resume_command: sendCommand(entry), other_drafts: others });
      }),
  );

  server.registerTool(
    'send_comment',
    {
      title: 'Send a comment draft',
      description: 'Posts a draft_comment draft after asking the person; nothing is sent if they say no or cannot be asked.',
      inputSchema: { draft_id: DRAFT_ID },
      outputSchema: { ...SENT, comment: shapes.comment.optional() },
      annotations: { title: 'Send a comment draft', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ draft_id }) =>
      guard(ctx, async () => {
        const entry = draftFor(served, draft_id, 'comment');
        const target = entry.target;
        if (target.kind !== 'comment') throw new UsageError(`The draft ${draft_id} holds no comment`);
        const resume = sendCommand(entry);
        const body = commentBody(entry);
        return withClaim(served, entry, async (claim) => {
          if (!(await personSaysYes(served, `Post this comment on the ${target.on} ${target.id}?`, body, cannotAsk(entry)))) return declined(entry.id, resume);
          const api = await ctx.api();
          const comment = await sendWithDraft(ctx, { target, entry, claim, resume, quiet: true, send: () => postComment(api, { kind: target.on, id: target.id }, body) });
          return done(`Sent: commented on the ${target.on} ${target.id}.`, { sent: true, draft_id: entry.id, draft_kept: false, resume_command: resume, comment });
        });
      }),
  );

  server.registerTool(
    'draft_goal_update',
    {
      title: 'Draft a goal update',
      description: 'Keeps an update of a goal (title, Markdown body, progress, confidence) as a draft and returns its preview and draft_id; sends nothing. send_goal_update posts it once the person says yes.',
      inputSchema: {
        goal_id: z.string().describe("the goal's UUID"),
        title: z.string().min(1).describe('the title'),
        body: z.string().optional().describe('the body (Markdown)'),
        progress: z.number().int().min(0).max(100).optional().describe('progress in percent'),
        confidence: z.string().optional().describe('on-track, at-risk, off-track, 90, 60 or 30'),
      },
      outputSchema: { draft_id: z.string(), goal: z.object({ id: z.string(), title: z.string() }), update: shapes.goalUpdateInput, preview: z.string(), resume_command: z.string(), other_drafts: OTHERS },
      annotations: { title: 'Draft a goal update', ...DRAFT },
    },
    (args) =>
      guard(ctx, async () => {
        const id = uuidOf(args.goal_id, 'The goal id');
        const input: GoalUpdateInput = { title: args.title };
        if (args.body !== undefined) input.body = args.body;
        if (args.progress !== undefined) input.progress = args.progress;
        if (args.confidence !== undefined) input.confidence = parseConfidence(args.confidence, 'confidence');
        const goal = await getGoal(await ctx.api(), id);
        const target = { kind: 'goal-update', goalId: id } as const;
        const { entry, others } = keepDraft(served, target, { kind: 'goal-update', input });
        const preview = goalUpdatePreview(await plainView(ctx), sanitize(goal.title), { ...input, ...(input.title && { title: sanitize(input.title) }), ...(input.body && { body: sanitize(input.body) }) });
        return done(`Draft ${entry.id} kept (not sent).${othersNote(others)} Show the person this preview; send_goal_update posts it once they say yes.\n\n${preview}`, { draft_id: entry.id, goal: { id: goal.id, title: goal.title }, update: input, preview, resume_command: sendCommand(entry), other_drafts: others });
      }),
  );

  server.registerTool(
    'send_goal_update',
    {
      title: 'Send a goal update draft',
      description: 'Posts a draft_goal_update draft after asking the person; nothing is sent if they say no or cannot be asked.',
      inputSchema: { draft_id: DRAFT_ID },
      outputSchema: { ...SENT, goal_update: shapes.goalUpdate.optional() },
      annotations: { title: 'Send a goal update draft', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ draft_id }) =>
      guard(ctx, async () => {
        const entry = draftFor(served, draft_id, 'goal-update');
        const target = entry.target;
        if (target.kind !== 'goal-update' || entry.content.kind !== 'goal-update') throw new UsageError(`The draft ${draft_id} holds no goal update`);
        const resume = sendCommand(entry);
        const input = entry.content.input;
        return withClaim(served, entry, async (claim) => {
          if (!(await personSaysYes(served, 'Post this goal update?', contentText(entry.content), cannotAsk(entry)))) return declined(entry.id, resume);
          const api = await ctx.api();
          const created = await sendWithDraft(ctx, { target, entry, claim, resume, quiet: true, send: () => createGoalUpdate(api, target.goalId, input) });
          return done(`Sent: posted the goal update.`, { sent: true, draft_id: entry.id, draft_kept: false, resume_command: resume, goal_update: created });
        });
      }),
  );

  server.registerTool(
    'log_activity',
    {
      title: 'Log an activity',
      description: `Records an activity of mine on the service (POST /activities): it shows in the web app and in tomorrow's suggestion for previous. One short line (at most ${MAX_DESCRIPTION} characters) of what was done, with a link when there is one.`,
      inputSchema: {
        description: z.string().describe(`what was done, at most ${MAX_DESCRIPTION} characters`),
        url: z.string().optional().describe('an https:// link to it (a pull request, an issue…)'),
        group: z.string().optional().describe('the label it is shown under (default checkin)'),
      },
      outputSchema: { activity: shapes.activity },
      annotations: { title: 'Log an activity', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ description, url, group }) =>
      guard(ctx, async () => {
        const input = activityInput({ text: description, url, group: group ?? 'checkin' }, { url: 'url', group: 'group' });
        const api = await ctx.api();
        const target = { kind: 'activity' } as const;
        const content = { kind: 'activity', input } as const;
        // A new entry for each call: this long-lived process's earlier one (a send that failed) is never changed.
        let entry: Entry | undefined;
        try {
          entry = keepDraft(served, target, content, { hold: true }).entry;
        } catch (err) {
          if (!(err instanceof CliError)) throw err;
        }
        const activity = await sendWithDraft(ctx, { target, ...(entry ? { entry } : { content, made: 'agent' as const }), quiet: true, send: () => postActivity(api, input) });
        return done(`Recorded the activity: ${input.description}`, { activity });
      }),
  );
}
