// The tools that write. Every write is draft → the person's yes → send: draft_* keeps what the agent
// wrote as an entry of its own in the outbox (the CLI's own drafts, config/outbox-files.ts) and
// sends nothing; send_* sends that entry, and log_activity keeps its activity the same way and then
// sends it, each only once the person said yes — asked through the client (MCP elicitation) when it
// can ask, else only when the server was started with --allow-send (the one exception). The question
// shows exactly what will be sent: blank lines and runs of spaces counted, hidden characters
// named, each text's length, and the target in words. Accept, decline, cancel and no answer are
// each said as what they were. The entry is claimed before the person is asked: a second send of it
// (another call, another process) is refused at once, so one draft is sent at most once. A draft
// never replaces another: the person's own words for the same target stay where they are, and
// sending the agent's removes only the agent's.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  SdkError,
  SdkErrorCode,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApiClient } from '../api/client.js';
import { getCheckIn, getGoal, getGoalUpdate } from '../api/endpoints.js';
import { nearestConfidence, type ActivityInput, type CheckInAnswers, type Goal, type GoalUpdateInput, type Ref } from '../api/types.js';
import { ClaimedError, GoneError } from '../config/outbox-files.js';
import { ANSWER_FIELDS, ANSWER_NAMES, answersOf, orList, parseMood, readTemplate, SECTIONS, type TextField } from '../core/checkin-answers.js';
import { CliError, EXIT, isTerminalAdvice, UsageError, withHint } from '../errors.js';
import { me, resolveTeams } from '../domain/account.js';
import {
  accountHere,
  baseOf,
  checkInNow,
  commentBody,
  newerIn,
  newerWhy,
  timesCompare,
  waitingFor,
  whenLabel,
  type Claim,
  type DraftContent,
  type DraftTarget,
  type Entry,
  type NewerAnswers,
} from '../domain/outbox.js';
import { fetchOrNull } from '../domain/target.js';
import { sectionAsSent as section, shownAsSent, shownToSend } from '../ui/as-sent.js';
import { sanitize, sanitizeLine } from '../ui/sanitize.js';
import { goalUpdatePreview } from '../ui/views.js';
import * as z from 'zod';
import { activityInput, MAX_DESCRIPTION } from '../domain/activity-input.js';
import { sendAnswers, sharedWith } from '../domain/send-checkin.js';
import { logActivityKept, postCommentKept, postGoalUpdateKept } from '../domain/writes.js';
import { previewHints } from '../domain/writing-hints.js';
import { asSent } from '../core/blockers.js';
import { commentTarget } from '../domain/comment-target.js';
import { parseConfidence } from '../domain/goal-updates.js';
import { goalIdOf } from '../domain/short-ids.js';
import { checkInText } from './read.js';
import { checkInTarget, done, entryFor, guard, plainView, outputOf, type Served } from './kit.js';

/** draft_checkin's answer inputs, from the answer table (core/checkin-answers.ts): a text or mood is a string, yes-no a boolean. */
const ANSWER_INPUTS = Object.fromEntries(
  ANSWER_FIELDS.map((f) => [f.field, (f.prompt === 'yes-no' ? z.boolean() : z.string()).optional().describe(f.agent)]),
) as Record<TextField | 'mood', z.ZodOptional<z.ZodString>> & {
  previous_completed: z.ZodOptional<z.ZodBoolean>;
};

/** Answers as a person reads them before saying yes: who sees them, then every field as it will be sent (ui/as-sent.ts, as a terminal shows it). */
function answersText(typed: CheckInAnswers, shared: { teams: Ref[]; all: boolean }): string {
  const names = shared.teams.map((t) => label(t.name)).join(', ');
  return `Shared with: ${shared.all ? `${names || 'no team'} (all your teams)` : names}\n\n${shownToSend({ kind: 'answers', answers: typed })}`;
}

/** A person, a team or a goal by name, as a question says it. */
/** A name or title from the service on one line, its long runs of spaces counted too (a newline in a name becomes a space). */
function label(s: string): string {
  return shownAsSent(sanitizeLine(s));
}
const named = (r: { name?: string | null } | null | undefined, otherwise: string) => (r?.name ? label(r.name) : otherwise);
const teamsOf = (teams: Ref[] | undefined) => (teams?.length ? teams.map((t) => label(t.name)).join(', ') : undefined);

/** Whose words a comment goes under, in words: "Grace Hopper's check-in for 2026-11-24 (shared with Platform)". */
async function commentPlace(served: Served, api: ApiClient, target: { on: 'check-in' | 'goal-update'; id: string }): Promise<string> {
  const mine = (await me(served.ctx)).id;
  const whose = (p: { id?: string; name?: string | null } | null | undefined) => (p?.id && p.id === mine ? 'your' : `${named(p, 'someone')}'s`);
  if (target.on === 'check-in') {
    const c = await getCheckIn(api, target.id);
    const teams = teamsOf(c.teams);
    return `${whose(c.person)} check-in for ${label(c.date)}${teams ? ` (shared with ${teams})` : ''}`;
  }
  const u = await getGoalUpdate(api, target.id);
  return `${whose(u.person)} update "${label(u.title)}"${u.goal?.title ? ` of the goal "${label(u.goal.title)}"` : ''}`;
}

/** The goal update's question: which goal (who sees it, where it stands now), then every field as it will be sent (ui/as-sent.ts, as a terminal shows it). */
function goalUpdateQuestion(goal: Goal, input: GoalUpdateInput): string {
  const teams = teamsOf(goal.teams);
  const standing = [
    ...(goal.progress === undefined || goal.progress === null ? [] : [`progress ${goal.progress}%`]),
    ...(goal.confidence === undefined || goal.confidence === null ? [] : [`confidence ${nearestConfidence(goal.confidence).label}`]),
  ];
  return [
    `Post this update of the goal "${label(goal.title)}"${teams ? ` (shared with ${teams})` : ''}?${standing.length > 0 ? ` The goal now: ${standing.join(', ')}.` : ''}`,
    shownToSend({ kind: 'goal-update', input }),
  ].join('\n\n');
}

/** The activity's question: under whose name and where it shows, then every field as it will be sent (ui/as-sent.ts, as a terminal shows it). */
async function activityQuestion(served: Served, input: ActivityInput): Promise<string> {
  const person = await me(served.ctx);
  return [
    `Record this activity under your name (${named(person, 'you')})? It shows in the web app and in the suggestions for your next check-in.`,
    shownToSend({ kind: 'activity', input }),
  ].join('\n\n');
}

/** How every sending tool is gated, as its description says it. */
const GATED =
  "Gated: nothing is sent without the person's yes. The client asks them (MCP elicitation), showing exactly what will be sent; decline or cancel sends nothing. A client that cannot ask is refused, unless the person started the server with `checkin mcp --allow-send` (the one exception: then it is sent without asking).";
/** The drafting tools' gate. */
const DRAFT_ONLY = "Sends nothing and asks nothing: only a send_* tool sends, after the person's yes.";

/** Why an activity is refused when the client cannot ask and no draft could be kept. */
const cannotRecord = () =>
  new UsageError(
    "Recording needs the person's yes, and this client cannot ask for it (no MCP elicitation): nothing was recorded. A server started with `checkin mcp --allow-send` sends without asking.",
  );

/** How long the person has to answer "Send it?" in their client. */
const ASK_TIMEOUT_MS = 10 * 60 * 1000;

const DRAFT = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const DRAFT_ID = z.string().describe('the draft_id a draft_* tool returned');
/** The command that sends a draft from a terminal. */
const sendCommand = (entry: Entry) => `checkin drafts send ${entry.id}`;
const keptLine = (resume: string, { draft }: { draft: string }) => `The draft ${draft} is kept: \`${resume}\` sends it from a terminal.`;

/**
 * Keeps what the agent wrote as a new entry of its own: nothing kept earlier (the person's words,
 * another session's) is replaced or changed. Returns it and how many others wait for the target.
 */
function keepDraft(
  served: Served,
  target: DraftTarget,
  content: DraftContent,
  { hold = false, base }: { hold?: boolean; base?: string } = {},
): { entry: Entry; others: number } {
  const { ctx } = served;
  const others = waitingFor(ctx, target).here.length;
  // A draft waits for the person's yes, free for their terminal to send too; one sent at once is held until then.
  const entry = ctx.drafts().add(accountHere(ctx), target, content, 'agent', ctx.now(), { hold, ...(base !== undefined && { base }) });
  return { entry, others };
}

/** What the result says of other drafts for the same target. */
const othersNote = (n: number) =>
  n === 0
    ? ''
    : ` ${n === 1 ? 'Another draft waits' : `${n} other drafts wait`} for the same target (the person's, or earlier ones); they are left as they are.`;

/** The entry a send_* tool names, of the kind it sends. */
function draftFor(served: Served, id: string, kind: DraftTarget['kind']): Entry {
  const entry = entryFor(served.ctx, id);
  if (entry.target.kind !== kind)
    throw new UsageError(
      `${id} is a ${entry.target.kind} draft: send it with send_${entry.target.kind === 'check-in' ? 'checkin' : entry.target.kind.replace('-', '_')}`,
    );
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

/** What came of asking the person: their yes (or --allow-send's), or why nothing is sent. */
type Said = { yes: true } | { yes: false; reason: 'declined' | 'cancelled' | 'no answer' | 'stale answer'; words: string };
/** Or, under 2026-07-28: the question itself, the tool's answer until the client retries with the person's. */
type Asked = Said | { ask: InputRequiredResult };

/** This process's key for the questions' state: a retry's state is ours, unchanged, or refused. */
const STATE_KEY = randomBytes(32);
const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
const seal = (body: string) => createHmac('sha256', STATE_KEY).update(body).digest('base64url');

/** The state a question travels with (2026-07-28): which draft, a hash of exactly what was asked, and its nonce; sealed. */
interface QuestionState {
  /** The draft (or, for an activity, the entry) the question is about. */
  d: string;
  /** A hash of the question: what goes out, as the person read it. */
  q: string;
  /** This question's nonce: one answer each. */
  n: string;
}

function mintState(state: QuestionState): string {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${seal(body)}`;
}

function readState(raw: unknown): QuestionState | undefined {
  if (typeof raw !== 'string' || raw.length > 1024) return undefined;
  const [body, mac, ...rest] = raw.split('.');
  if (!body || !mac || rest.length > 0) return undefined;
  const want = Buffer.from(seal(body));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
  try {
    const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<QuestionState>;
    return typeof v.d === 'string' && typeof v.q === 'string' && typeof v.n === 'string' ? (v as QuestionState) : undefined;
  } catch {
    return undefined;
  }
}

/** Can this client ask the person (a form)? Under 2025 it said so at initialize; under 2026-07-28, in every request's envelope. */
function clientCanAsk(served: Served, rctx: ServerContext): boolean {
  if (served.era === 'modern') {
    const caps = rctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof NonNullable<typeof rctx.mcpReq.envelope>] as
      { elicitation?: { form?: object } } | undefined;
    return Boolean(caps?.elicitation && (caps.elicitation.form || Object.keys(caps.elicitation).length === 0));
  }
  const caps = served.server.server.getClientCapabilities();
  return Boolean(caps?.elicitation?.form);
}

/**
 * The person's yes, in the protocol's own form. Under 2025-11-25 the server asks (elicitation) and
 * waits; under 2026-07-28 the tool answers with the question (an input-required result carrying it
 * whole and a sealed state naming the draft, a hash of the question and a nonce), and the client's
 * retry carries the answer: it counts only for the same draft, the same question (nothing of what
 * goes out changed since), and the latest question asked about that draft, once. A client that can
 * do neither is refused unless the server was started with --allow-send. Decline, cancel, no answer
 * and a stale answer are each said as what they were.
 */
async function personSaysYes(served: Served, rctx: ServerContext, draftId: string, question: string, refusal: () => Error): Promise<Asked> {
  if (!clientCanAsk(served, rctx)) {
    if (served.allowSend) return { yes: true };
    throw refusal();
  }
  const message = sanitize(question);
  if (served.era === 'modern') {
    const raw = rctx.mcpReq.requestState();
    if (raw === undefined) {
      const state = { d: draftId, q: digest(message), n: randomBytes(12).toString('base64url') };
      // A new question about a draft replaces the one before it: an answer to that one is stale.
      served.asking.set(draftId, { nonce: state.n, at: served.ctx.now().getTime() });
      if (served.asking.size > 1000) served.asking.delete(served.asking.keys().next().value!);
      return {
        ask: inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ mode: 'form', message, requestedSchema: { type: 'object', properties: {} } }) },
          requestState: mintState(state),
        }),
      };
    }
    const state = readState(raw);
    const waiting = served.asking.get(draftId);
    const stale = (why: string): Said => ({ yes: false, reason: 'stale answer', words: `the answer was not to this question (${why})` });
    if (!state) return stale('its state is not one this server gave');
    if (state.d !== draftId) return stale('it was given for another draft');
    if (!waiting || waiting.nonce !== state.n) return stale('it was already used, or another question about this draft came after it');
    if (state.q !== digest(message)) return stale('what would be sent changed since the person was asked');
    if (served.ctx.now().getTime() - waiting.at > ASK_TIMEOUT_MS) {
      served.asking.delete(draftId);
      return stale(`it came more than ${ASK_TIMEOUT_MS / 60_000} minutes after the question`);
    }
    // One answer per question: used now, whatever it says.
    served.asking.delete(draftId);
    const answer = inputResponse(rctx.mcpReq.inputResponses, 'confirm');
    if (answer.kind !== 'elicit') return { yes: false, reason: 'no answer', words: 'the retry carried no answer from the person' };
    return said(answer.action);
  }
  let answer;
  try {
    answer = await served.server.server.elicitInput(
      { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
      { timeout: ASK_TIMEOUT_MS },
    );
  } catch (err) {
    const timedOut = err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;
    return {
      yes: false,
      reason: 'no answer',
      words: timedOut
        ? `the person did not answer within ${ASK_TIMEOUT_MS / 60_000} minutes`
        : `the client could not ask the person (${sanitizeLine(err instanceof Error ? err.message : String(err)).slice(0, 200)})`,
    };
  }
  return said(answer.action);
}

function said(action: 'accept' | 'decline' | 'cancel'): Said {
  if (action === 'accept') return { yes: true };
  if (action === 'decline') return { yes: false, reason: 'declined', words: 'the person said no' };
  return { yes: false, reason: 'cancelled', words: 'the person closed the question without answering (cancelled)' };
}

/** Why a send is refused when the client cannot ask the person. */
const cannotAsk = (entry: Entry) => () =>
  new UsageError(
    "Sending needs the person's yes, and this client cannot ask for it (no MCP elicitation): nothing was sent",
    `${keptLine(sendCommand(entry), { draft: entry.id })} A server started with \`checkin mcp --allow-send\` sends without asking.`,
  );

/** Answers on the service as the question shows them: each one the draft would replace, under its name, as it is there now. */
function replacedText({ theirs, replaced }: NewerAnswers): string {
  return ANSWER_FIELDS.filter((f) => replaced.includes(f.field))
    .map((f) => {
      const value = theirs[f.field];
      if (typeof value === 'boolean') return `${f.title}: ${value ? 'yes' : 'no'}`;
      return f.prompt === 'lines' ? section(f.title, String(value)) : `${f.title}: ${shownAsSent(String(value))}`;
    })
    .join('\n\n');
}

/** The question when the service holds newer words than the draft: what is there now, which the draft replaces, then the draft. */
function overNewerQuestion(label: string, entry: Entry, newer: NewerAnswers, shown: string): string {
  const saved = whenLabel(String(newer.now.updated_at));
  return [
    timesCompare(entry, String(newer.now.updated_at))
      ? `Send your check-in for ${label} over newer words? It was saved on the service after this draft was written (${saved}); sending the draft replaces these answers there.`
      : `Send your check-in for ${label} over words that may be newer? ${newerWhy(entry, { what: 'the check-in', words: 'answers', savedAt: String(newer.now.updated_at) })}; sending the draft replaces these answers there.`,
    `On the service now (replaced if you say yes):\n\n${replacedText(newer)}`,
    `The draft:\n\n${shown}`,
  ].join('\n\n');
}

/** Refused: newer words on the service, and no one to show them to (a client that cannot ask; --allow-send is no yes to words it never saw). */
const overNewer = (entry: Entry, newer: NewerAnswers) =>
  new CliError(
    `${timesCompare(entry, String(newer.now.updated_at)) ? `The draft ${entry.id} would replace answers saved on the service after it was written (${whenLabel(String(newer.now.updated_at))})` : newerWhy(entry, { what: 'the check-in', words: 'answers', savedAt: String(newer.now.updated_at) })}, and this client cannot ask the person: nothing was sent`,
    EXIT.FAILURE,
    `${keptLine(sendCommand(entry), { draft: entry.id })} There the person sees both and chooses.`,
  );

/** Nothing was sent, and why, the draft kept. */
const notSent = (said: Exclude<Said, { yes: true }>, id: string, resume: string) =>
  done(`Not sent: ${said.words}. ${keptLine(resume, { draft: id })}`, {
    sent: false,
    draft_id: id,
    draft_kept: true,
    resume_command: resume,
    reason: said.reason,
  });

/**
 * A send that failed, said to an agent: the error's own line, the advice that is not a terminal's,
 * and what became of the draft (kept, by its id; or maybe sent, and not sent again on its own).
 */
function sendFailed(served: Served, err: unknown, entry: Entry, resume: string): CliError {
  const e = err instanceof CliError ? err : undefined;
  if (!e || err instanceof ClaimedError || err instanceof GoneError) return withHint(err);
  const kept = served.ctx.drafts().find(entry.id) !== undefined;
  const maybe = kept && served.ctx.drafts().maybeSent(entry) !== undefined;
  const own = e.hints.filter((h) => !isTerminalAdvice(h));
  const line = maybe
    ? `The draft ${entry.id} may have reached the service (no answer came): it is kept and not sent again on its own. Ask the person to look for it; \`checkin drafts send ${entry.id}\` sends it again from a terminal.`
    : kept
      ? keptLine(resume, { draft: entry.id })
      : undefined;
  const copy = Object.create(Object.getPrototypeOf(e), Object.getOwnPropertyDescriptors(e)) as CliError;
  Object.defineProperty(copy, 'hints', { value: line ? [...own, line] : own, enumerable: true });
  return copy;
}

export function registerWriteTools(served: Served): void {
  const { server, ctx } = served;

  server.registerTool(
    'draft_checkin',
    {
      title: 'Draft a check-in',
      description:
        'Keeps answers for a check-in as a draft on disk and returns its preview and draft_id; sends nothing. Show the preview to the person, then send_checkin sends it once they say yes. Answers left out keep what the check-in already says. Write short Markdown bullets; give every reference its context (what a PR or ticket is about, with its link); @mention people by @username; leave blockers empty ("") when nothing blocks — never "none". ' +
        DRAFT_ONLY,
      inputSchema: {
        day: z.string().optional().describe('the check-in: today (default), yesterday, a weekday name, YYYY-MM-DD or a UUID'),
        ...ANSWER_INPUTS,
        team: z.array(z.string()).optional().describe('share with these teams only (UUIDs or names; default all my teams)'),
      },
      outputSchema: outputOf('draft_checkin'),
      annotations: { title: 'Draft a check-in', ...DRAFT },
    },
    (args) =>
      guard(ctx, async () => {
        const target = await checkInTarget(ctx, args.day);
        const answers: CheckInAnswers = {};
        for (const { field } of SECTIONS) if (args[field] !== undefined) answers[field] = args[field];
        if (args.mood !== undefined) answers.mood = parseMood(args.mood);
        if (args.previous_completed !== undefined) answers.previous_completed = args.previous_completed;
        if (args.team?.length) answers.team_ids = await resolveTeams(ctx, args.team);
        if (Object.keys(answers).length === 0) throw new UsageError(`Nothing to draft: give ${orList(ANSWER_NAMES)}`);
        const current = await fetchOrNull(ctx, target);
        if (!current) throw new UsageError(`No check-in scheduled for ${target.label}: nothing to draft`);
        const draftTarget = { kind: 'check-in', key: target.key } as const;
        const shared = await sharedWith(served.ctx, answers);
        // Its base is the check-in as the agent saw it now: a send never writes over words saved after it unseen.
        const { entry, others } = keepDraft(served, draftTarget, { kind: 'answers', answers }, { base: baseOf(current) });
        // The check-in as it will read once sent ("none" as blockers is sent as none), and the writing hints under it.
        const standing = asSent({ ...answersOf(current), ...answers });
        const preview = await checkInText(served, {
          ...current,
          ...answersOf({ ...current, ...standing }),
          blocked: Boolean(standing.blockers),
          teams: shared.teams,
        });
        const hints = (await previewHints(ctx, { ...answersOf(current), ...answers })).map((h) => h.text);
        const hintText = hints.length > 0 ? `\n\nHints for the person (they do not stop sending):\n${hints.map((h) => `- ${h}`).join('\n')}` : '';
        const resume = sendCommand(entry);
        return done(
          `Draft ${entry.id} kept (not sent).${othersNote(others)} Show the person this preview; send_checkin sends it once they say yes (\`${resume}\` sends it from a terminal).\n\n${preview}${hintText}`,
          { draft_id: entry.id, day: target.label, answers, shared_with: shared.teams, preview, hints, resume_command: resume, other_drafts: others },
        );
      }),
  );

  server.registerTool(
    'send_checkin',
    {
      title: 'Send a check-in draft',
      description: `Sends a draft_checkin draft (one PATCH of the check-in) after asking the person; nothing is sent if they say no or cannot be asked. The draft is deleted only once the service has the answers. ${GATED} A draft is sent at most once: a second send of it while one is under way is refused.`,
      inputSchema: { draft_id: DRAFT_ID },
      outputSchema: outputOf('send_checkin'),
      annotations: { title: 'Send a check-in draft', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ draft_id }, rctx) =>
      guard(ctx, async () => {
        const entry = draftFor(served, draft_id, 'check-in');
        const target = await checkInTarget(ctx, (entry.target as { key: string }).key);
        const resume = sendCommand(entry);
        let answers: CheckInAnswers;
        if (entry.content.kind === 'answers') answers = entry.content.answers;
        else if (entry.content.kind === 'text') {
          const read = readTemplate(entry.content.text);
          if (read.problems.length > 0)
            throw new UsageError(
              `The draft ${entry.id} cannot be sent as it is: ${read.problems.slice(0, 3).join('; ')}`,
              'Draft the check-in again with draft_checkin (this draft is left as it is).',
            );
          answers = read.answers;
        } else throw new UsageError(`The draft ${draft_id} holds no answers`);
        return withClaim(served, entry, async (claim) => {
          // Newer words on the service where the draft would write: the person sees them in the question, or nothing is sent.
          const seen = await checkInNow(ctx, target.key, target.known);
          const newer = seen && newerIn(entry, answers, seen);
          if (newer && !clientCanAsk(served, rctx)) throw overNewer(entry, newer);
          const shown = answersText(answers, await sharedWith(served.ctx, answers));
          const said = await personSaysYes(
            served,
            rctx,
            entry.id,
            newer ? overNewerQuestion(target.label, entry, newer, shown) : `Send your check-in for ${target.label}?\n\n${shown}`,
            cannotAsk(entry),
          );
          if ('ask' in said) return said.ask;
          if (!said.yes) return notSent(said, entry.id, resume);
          // Asked and answered within this call (2025-11-25's elicitation, up to 10 minutes): the yes
          // was to what the service held then. Changed since, nothing is sent (2026-07-28's retry
          // asks again by itself: its question no longer matches).
          if (seen && served.era === 'legacy' && clientCanAsk(served, rctx)) {
            const after = await checkInNow(ctx, target.key);
            const changed = after && newerIn({ ...entry, base: baseOf(seen) }, answers, after);
            if (changed)
              return done(
                `Not sent: the check-in was changed on the service while the person was asked (saved ${whenLabel(String(changed.now.updated_at))}). ${keptLine(resume, { draft: entry.id })} send_checkin asks again, showing what is there now.`,
                { sent: false, draft_id: entry.id, draft_kept: true, resume_command: resume, reason: 'changed while asked' },
              );
          }
          let sent;
          try {
            sent = await sendAnswers(ctx, target, answers, { keepDraft: false, entry, claim, quiet: true, resume });
          } catch (err) {
            throw sendFailed(served, err, entry, resume);
          }
          if (!sent)
            return done(`Not sent: no check-in is scheduled for ${target.label}. ${keptLine(resume, { draft: entry.id })}`, {
              sent: false,
              draft_id: entry.id,
              draft_kept: true,
              resume_command: resume,
              reason: 'no check-in scheduled',
            });
          return done(`Sent: checked in for ${target.label}.\n\n${await checkInText(served, sent)}`, {
            sent: true,
            draft_id: entry.id,
            draft_kept: false,
            resume_command: resume,
            check_in: sent,
          });
        });
      }),
  );

  server.registerTool(
    'draft_comment',
    {
      title: 'Draft a comment or reply',
      description:
        'Keeps a comment on a check-in or a goal update (a reply to an inbox thread: its type and id) as a draft, and returns its draft_id; sends nothing. send_comment posts it once the person says yes. ' +
        DRAFT_ONLY,
      inputSchema: {
        on: z.enum(['check-in', 'goal-update']).describe('what the comment goes on'),
        id: z.string().describe("the check-in (a UUID, YYYY-MM-DD or a day word: my own check-in that day) or the goal update's UUID"),
        body: z.string().min(1).describe('the comment (Markdown)'),
      },
      outputSchema: outputOf('draft_comment'),
      annotations: { title: 'Draft a comment or reply', ...DRAFT },
    },
    ({ on, id, body }) =>
      guard(ctx, async () => {
        if (body.trim() === '') throw new UsageError('The comment is empty; nothing was kept');
        const what = await commentTarget(ctx, on === 'goal-update' ? { goalUpdate: id } : { checkIn: id });
        if ('none' in what) throw new UsageError(`No check-in scheduled for ${what.none}: nothing to comment on`);
        const target = { kind: 'comment', on: what.kind, id: what.id } as const;
        const { entry, others } = keepDraft(served, target, { kind: 'comment', body });
        return done(
          `Draft ${entry.id} kept (not sent): a comment on the ${what.kind} ${what.id}:\n\n${body}\n\nsend_comment posts it once the person says yes.${othersNote(others)}`,
          { draft_id: entry.id, on: { type: what.kind, id: what.id }, body, resume_command: sendCommand(entry), other_drafts: others },
        );
      }),
  );

  server.registerTool(
    'send_comment',
    {
      title: 'Send a comment draft',
      description: `Posts a draft_comment draft after asking the person; nothing is sent if they say no or cannot be asked. ${GATED} A draft is posted at most once.`,
      inputSchema: { draft_id: DRAFT_ID },
      outputSchema: outputOf('send_comment'),
      annotations: { title: 'Send a comment draft', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ draft_id }, rctx) =>
      guard(ctx, async () => {
        const entry = draftFor(served, draft_id, 'comment');
        const target = entry.target;
        if (target.kind !== 'comment') throw new UsageError(`The draft ${draft_id} holds no comment`);
        const resume = sendCommand(entry);
        const body = commentBody(entry);
        return withClaim(served, entry, async (claim) => {
          const api = await ctx.api();
          const said = await personSaysYes(
            served,
            rctx,
            entry.id,
            `Post this comment on ${await commentPlace(served, api, target)}?\n\n${shownToSend({ kind: 'comment', body })}`,
            cannotAsk(entry),
          );
          if ('ask' in said) return said.ask;
          if (!said.yes) return notSent(said, entry.id, resume);
          let comment;
          try {
            comment = await postCommentKept(ctx, { kind: target.on, id: target.id }, body, { entry, claim, resume, quiet: true });
          } catch (err) {
            throw sendFailed(served, err, entry, resume);
          }
          return done(`Sent: commented on the ${target.on} ${target.id}.`, {
            sent: true,
            draft_id: entry.id,
            draft_kept: false,
            resume_command: resume,
            comment,
          });
        });
      }),
  );

  server.registerTool(
    'draft_goal_update',
    {
      title: 'Draft a goal update',
      description:
        'Keeps an update of a goal (title, Markdown body, progress, confidence) as a draft and returns its preview and draft_id; sends nothing. send_goal_update posts it once the person says yes. ' +
        DRAFT_ONLY,
      inputSchema: {
        goal_id: z.string().describe("the goal's id: its UUID, or the start of it (8 characters, as the goals tool's short ids)"),
        title: z.string().min(1).describe('the title'),
        body: z.string().optional().describe('the body (Markdown)'),
        progress: z.number().int().min(0).max(100).optional().describe('progress in percent'),
        confidence: z
          .union([z.string().describe('on-track, at-risk or off-track, or a number as text'), z.number().describe('90, 60 or 30')])
          .optional()
          .describe('on-track, at-risk, off-track, 90, 60 or 30 (a number or a string)'),
      },
      outputSchema: outputOf('draft_goal_update'),
      annotations: { title: 'Draft a goal update', ...DRAFT },
    },
    (args) =>
      guard(ctx, async () => {
        const id = await goalIdOf(ctx, args.goal_id, 'The goal id');
        const input: GoalUpdateInput = { title: args.title };
        if (args.body !== undefined) input.body = args.body;
        if (args.progress !== undefined) input.progress = args.progress;
        if (args.confidence !== undefined) input.confidence = parseConfidence(String(args.confidence), 'confidence');
        const goal = await getGoal(await ctx.api(), id);
        const target = { kind: 'goal-update', goalId: id } as const;
        const { entry, others } = keepDraft(served, target, { kind: 'goal-update', input });
        const preview = goalUpdatePreview(await plainView(ctx), sanitize(goal.title), {
          ...input,
          ...(input.title && { title: sanitize(input.title) }),
          ...(input.body && { body: sanitize(input.body) }),
        });
        return done(
          `Draft ${entry.id} kept (not sent).${othersNote(others)} Show the person this preview; send_goal_update posts it once they say yes.\n\n${preview}`,
          { draft_id: entry.id, goal: { id: goal.id, title: goal.title }, update: input, preview, resume_command: sendCommand(entry), other_drafts: others },
        );
      }),
  );

  server.registerTool(
    'send_goal_update',
    {
      title: 'Send a goal update draft',
      description: `Posts a draft_goal_update draft after asking the person (the question names the goal and the progress and confidence it sets); nothing is sent if they say no or cannot be asked. ${GATED} A draft is posted at most once.`,
      inputSchema: { draft_id: DRAFT_ID },
      outputSchema: outputOf('send_goal_update'),
      annotations: { title: 'Send a goal update draft', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ draft_id }, rctx) =>
      guard(ctx, async () => {
        const entry = draftFor(served, draft_id, 'goal-update');
        const target = entry.target;
        if (target.kind !== 'goal-update' || entry.content.kind !== 'goal-update') throw new UsageError(`The draft ${draft_id} holds no goal update`);
        const resume = sendCommand(entry);
        const input = entry.content.input;
        return withClaim(served, entry, async (claim) => {
          const api = await ctx.api();
          const goal = await getGoal(api, target.goalId);
          const said = await personSaysYes(served, rctx, entry.id, goalUpdateQuestion(goal, input), cannotAsk(entry));
          if ('ask' in said) return said.ask;
          if (!said.yes) return notSent(said, entry.id, resume);
          let created;
          try {
            created = await postGoalUpdateKept(ctx, target.goalId, input, { entry, claim, resume, quiet: true });
          } catch (err) {
            throw sendFailed(served, err, entry, resume);
          }
          return done(`Sent: posted the update of the goal "${sanitizeLine(goal.title)}".`, {
            sent: true,
            draft_id: entry.id,
            draft_kept: false,
            resume_command: resume,
            goal_update: created,
          });
        });
      }),
  );

  server.registerTool(
    'log_activity',
    {
      title: 'Log an activity',
      description: `Records an activity of mine on the service (POST /activities): it shows in the web app and in tomorrow's suggestion for previous. One short line (at most ${MAX_DESCRIPTION} characters) of what was done, with a link when there is one. ${GATED} It keeps the activity as a draft, asks the person (they see the text exactly as it will be sent, under their name), and records it only on their yes; if they say no or close the question, nothing is recorded and the draft is dropped.`,
      inputSchema: {
        description: z.string().describe(`what was done, at most ${MAX_DESCRIPTION} characters`),
        url: z.string().optional().describe('an https:// link to it (a pull request, an issue…)'),
        group: z.string().optional().describe('the label it is shown under (default checkin)'),
      },
      outputSchema: outputOf('log_activity'),
      annotations: { title: 'Log an activity', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ description, url, group }, rctx) =>
      guard(ctx, async () => {
        const input = activityInput({ text: description, url, group: group ?? 'checkin' }, { url: 'url', group: 'group' });
        const target = { kind: 'activity' } as const;
        const content = { kind: 'activity', input } as const;
        const question = await activityQuestion(served, input);
        // 2026-07-28's retry names the entry its question was about: the same entry, never a new one.
        const retried = served.era === 'modern' ? rctx.mcpReq.requestState() : undefined;
        let entry: Entry | undefined;
        if (retried !== undefined) {
          const id = readState(retried)?.d;
          entry = id ? ctx.drafts().find(id) : undefined;
          if (!entry || entry.target.kind !== 'activity')
            return done('Not recorded: the answer was not to this question (its draft is gone, or the state is not one this server gave). Nothing was sent.', {
              sent: false,
              draft_kept: false,
              reason: 'stale answer',
            });
        } else {
          // A new entry for each call, held by it from the start: another process's resume leaves it
          // alone while the person is asked, and this long-lived process's earlier one (a send that
          // failed) is never changed. Under 2026-07-28 the question goes back to the client: the entry
          // waits (not held) for the retry.
          try {
            entry = keepDraft(served, target, content, { hold: served.era !== 'modern' }).entry;
          } catch (err) {
            if (!(err instanceof CliError)) throw err;
          }
        }
        const claim = entry ? ctx.drafts().take(entry) : undefined;
        try {
          const said = await personSaysYes(served, rctx, entry?.id ?? 'activity', question, entry ? cannotAsk(entry) : cannotRecord);
          if ('ask' in said) return said.ask;
          if (!said.yes) {
            // The person refused exactly this: it does not wait to be sent by a later resume. An answer
            // to another question is no answer to this one: the draft waits, and the result says so.
            const kept = Boolean(entry) && said.reason === 'stale answer';
            if (!kept) claim?.done();
            const what = !entry
              ? 'Nothing was kept or sent.'
              : kept
                ? keptLine(sendCommand(entry), { draft: entry.id })
                : `The draft ${entry.id} is dropped: nothing was kept or sent.`;
            return done(`Not recorded: ${said.words}. ${what}`, { sent: false, ...(entry && { draft_id: entry.id }), draft_kept: kept, reason: said.reason });
          }
          await ctx.api(); // not logged in: said before anything is sent
          const resume = entry ? sendCommand(entry) : undefined;
          let activity;
          try {
            activity = await logActivityKept(ctx, input, { ...(entry && claim ? { entry, claim, resume } : { made: 'agent' as const }), quiet: true });
          } catch (err) {
            throw entry && resume ? sendFailed(served, err, entry, resume) : err;
          }
          return done(`Recorded the activity: ${input.description}`, { sent: true, ...(entry && { draft_id: entry.id }), draft_kept: false, activity });
        } finally {
          claim?.release();
        }
      }),
  );
}
