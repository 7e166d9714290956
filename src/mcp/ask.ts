// What the tools that write share (each tool is a file of tools/). Every write is draft → the person's yes → send: draft_* keeps what the agent
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
import { getCheckIn, getGoalUpdate } from '../api/endpoints.js';
import { nearestConfidence, type ActivityInput, type CheckIn, type CheckInAnswers, type Goal, type GoalUpdateInput, type Ref } from '../api/types.js';
import { ClaimedError, GoneError } from '../config/outbox-files.js';
import { ANSWER_FIELDS } from '../core/checkin-answers.js';
import { CliError, EXIT, isTerminalAdvice, UsageError, withHint } from '../errors.js';
import { me } from '../domain/account.js';
import {
  accountHere,
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

import { sectionAsSent as section, shownAsSent, shownToSend } from '../ui/as-sent.js';
import { sanitize, sanitizeDeep, sanitizeLine } from '../ui/sanitize.js';
import { renderCheckIn } from '../ui/render.js';

import { done, entryFor, plainView, type Served } from './kit.js';

/** A check-in as text: heading, state and answers (Markdown as written, sanitised). */
export async function checkInText(served: Served, c: CheckIn): Promise<string> {
  const v = await plainView(served.ctx);
  return renderCheckIn(sanitizeDeep(c), v.c, false);
}

/** Answers as a person reads them before saying yes: who sees them, then every field as it will be sent (ui/as-sent.ts, as a terminal shows it). */
export function answersText(typed: CheckInAnswers, shared: { teams: Ref[]; all: boolean }): string {
  const names = shared.teams.map((t) => label(t.name)).join(', ');
  return `Shared with: ${shared.all ? `${names || 'no team'} (all your teams)` : names}\n\n${shownToSend({ kind: 'answers', answers: typed })}`;
}

/** A person, a team or a goal by name, as a question says it. */
/** A name or title from the service on one line, its long runs of spaces counted too (a newline in a name becomes a space). */
export function label(s: string): string {
  return shownAsSent(sanitizeLine(s));
}
const named = (r: { name?: string | null } | null | undefined, otherwise: string) => (r?.name ? label(r.name) : otherwise);
const teamsOf = (teams: Ref[] | undefined) => (teams?.length ? teams.map((t) => label(t.name)).join(', ') : undefined);

/** Whose words a comment goes under, in words: "Grace Hopper's check-in for 2026-11-24 (shared with Platform)". */
export async function commentPlace(served: Served, api: ApiClient, target: { on: 'check-in' | 'goal-update'; id: string }): Promise<string> {
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
export function goalUpdateQuestion(goal: Goal, input: GoalUpdateInput): string {
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
export async function activityQuestion(served: Served, input: ActivityInput): Promise<string> {
  const person = await me(served.ctx);
  return [
    `Record this activity under your name (${named(person, 'you')})? It shows in the web app and in the suggestions for your next check-in.`,
    shownToSend({ kind: 'activity', input }),
  ].join('\n\n');
}

/** How every sending tool is gated, as its description says it. */
export const GATED =
  "Gated: nothing is sent without the person's yes. The client asks them (MCP elicitation), showing exactly what will be sent; decline or cancel sends nothing. A client that cannot ask is refused, unless the person started the server with `checkin mcp --allow-send` (the one exception: then it is sent without asking).";
/** The drafting tools' gate. */
export const DRAFT_ONLY = "Sends nothing and asks nothing: only a send_* tool sends, after the person's yes.";

/** Why an activity is refused when the client cannot ask and no draft could be kept. */
export const cannotRecord = () =>
  new UsageError(
    "Recording needs the person's yes, and this client cannot ask for it (no MCP elicitation): nothing was recorded. A server started with `checkin mcp --allow-send` sends without asking.",
  );

/** How long the person has to answer "Send it?" in their client. */
const ASK_TIMEOUT_MS = 10 * 60 * 1000;

/** The command that sends a draft from a terminal. */
export const sendCommand = (entry: Entry) => `checkin drafts send ${entry.id}`;
export const keptLine = (resume: string, { draft }: { draft: string }) => `The draft ${draft} is kept: \`${resume}\` sends it from a terminal.`;

/**
 * Keeps what the agent wrote as a new entry of its own: nothing kept earlier (the person's words,
 * another session's) is replaced or changed. Returns it and how many others wait for the target.
 */
export function keepDraft(
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
export const othersNote = (n: number) =>
  n === 0
    ? ''
    : ` ${n === 1 ? 'Another draft waits' : `${n} other drafts wait`} for the same target (the person's, or earlier ones); they are left as they are.`;

/** The entry a send_* tool names, of the kind it sends. */
export function draftFor(served: Served, id: string, kind: DraftTarget['kind']): Entry {
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
export async function withClaim<T>(served: Served, entry: Entry, work: (claim: Claim) => Promise<T>): Promise<T> {
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

/** node:crypto, loaded when a question is first asked (not for the first answers: CONTRIBUTING, "Start-up"). */
const crypto = () => process.getBuiltinModule('node:crypto');
/** This process's key for the questions' state: a retry's state is ours, unchanged, or refused. */
let stateKey: Buffer | undefined;
const digest = (text: string) => crypto().createHash('sha256').update(text).digest('base64url');
const seal = (body: string) =>
  crypto()
    .createHmac('sha256', (stateKey ??= crypto().randomBytes(32)))
    .update(body)
    .digest('base64url');

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

export function readState(raw: unknown): QuestionState | undefined {
  if (typeof raw !== 'string' || raw.length > 1024) return undefined;
  const [body, mac, ...rest] = raw.split('.');
  if (!body || !mac || rest.length > 0) return undefined;
  const want = Buffer.from(seal(body));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !crypto().timingSafeEqual(want, got)) return undefined;
  try {
    const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<QuestionState>;
    return typeof v.d === 'string' && typeof v.q === 'string' && typeof v.n === 'string' ? (v as QuestionState) : undefined;
  } catch {
    return undefined;
  }
}

/** Can this client ask the person (a form)? Under 2025 it said so at initialize; under 2026-07-28, in every request's envelope. */
export function clientCanAsk(served: Served, rctx: ServerContext): boolean {
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
 * goes out changed since), and the latest question asked about that draft, once; a retry that
 * carries no answer is asked the same question again. A client that can
 * do neither is refused unless the server was started with --allow-send. Decline, cancel, no answer
 * and a stale answer are each said as what they were.
 */
export async function personSaysYes(served: Served, rctx: ServerContext, draftId: string, question: string, refusal: () => Error): Promise<Asked> {
  if (!clientCanAsk(served, rctx)) {
    if (served.allowSend) return { yes: true };
    throw refusal();
  }
  // The profile the send goes out as, where a person could take it for another (config/profiles.ts profileToName).
  const profile = served.ctx.config().profileToName();
  const message = sanitize(profile === undefined ? question : `Profile ${profile}: ${question}`);
  if (served.era === 'modern') {
    const ask = (): Asked => {
      const state = { d: draftId, q: digest(message), n: crypto().randomBytes(12).toString('base64url') };
      // A new question about a draft replaces the one before it: an answer to that one is stale.
      served.asking.set(draftId, { nonce: state.n, at: served.ctx.now().getTime() });
      if (served.asking.size > 1000) served.asking.delete(served.asking.keys().next().value!);
      return {
        ask: inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ mode: 'form', message, requestedSchema: { type: 'object', properties: {} } }) },
          requestState: mintState(state),
        }),
      };
    };
    const raw = rctx.mcpReq.requestState();
    if (raw === undefined) return ask();
    const state = readState(raw);
    const waiting = served.asking.get(draftId);
    const stale = (why: string): Said => ({ yes: false, reason: 'stale answer', words: `the answer was not to this question (${why})` });
    if (!state) return stale('its state is not one this server gave');
    if (state.d !== draftId) return stale('it was given for another draft');
    if (!waiting || waiting.nonce !== state.n) return stale('it was already used, or another question about this draft came after it');
    if (state.q !== digest(message)) return stale('what would be sent changed since the person was asked');
    const answer = inputResponse(rctx.mcpReq.inputResponses, 'confirm');
    // A retry without the person's answer is no answer yet, however late: the same question again (a new nonce), as the revision recommends, never "not sent" nor "stale".
    if (answer.kind !== 'elicit') return ask();
    // One answer per question: used now, whatever it says.
    served.asking.delete(draftId);
    if (served.ctx.now().getTime() - waiting.at > ASK_TIMEOUT_MS) return stale(`it came more than ${ASK_TIMEOUT_MS / 60_000} minutes after the question`);
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
  // A client may decline for the person without asking them (some do, advertising elicitation): said as the client's answer, whoever gave it.
  if (action === 'decline')
    return { yes: false, reason: 'declined', words: "the client declined (the person's no, or the client's own: some clients decline without asking)" };
  return { yes: false, reason: 'cancelled', words: 'the person closed the question without answering (cancelled)' };
}

/** Why a send is refused when the client cannot ask the person. */
export const cannotAsk = (entry: Entry) => () =>
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
export function overNewerQuestion(label: string, entry: Entry, newer: NewerAnswers, shown: string): string {
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
export const overNewer = (entry: Entry, newer: NewerAnswers) =>
  new CliError(
    `${timesCompare(entry, String(newer.now.updated_at)) ? `The draft ${entry.id} would replace answers saved on the service after it was written (${whenLabel(String(newer.now.updated_at))})` : newerWhy(entry, { what: 'the check-in', words: 'answers', savedAt: String(newer.now.updated_at) })}, and this client cannot ask the person: nothing was sent`,
    EXIT.FAILURE,
    `${keptLine(sendCommand(entry), { draft: entry.id })} There the person sees both and chooses.`,
  );

/** Nothing was sent, and why, the draft kept. */
export const notSent = (said: Exclude<Said, { yes: true }>, id: string, resume: string) =>
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
export function sendFailed(served: Served, err: unknown, entry: Entry, resume: string): CliError {
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
