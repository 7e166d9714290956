// The week posted where the team talks: one POST to a chat's incoming webhook (Slack, Discord or
// Mattermost), as an operation — a URL checked and recognised (`webhookOf`), a body in the chat's
// own shape (`webhookBody`), the post kept in the outbox before the first byte goes out and removed
// once the chat accepted it (`postToWebhook`, through outbox.ts `sendWithDraft`), and the marker of
// the last post (`lastPost`, `markPosted`) that `--if-new` compares the week with.
//
// The URL is a secret (whoever holds it posts as the team's integration): it is kept like the token
// (config/webhook-store.ts), and appears in no output, error, trace or file but config.json or the
// keychain. The outbox entry names the webhook by its fingerprint (`hook`: the first 16 hex digits
// of the URL's SHA-256), and so does the marker; a refusal names the chat and its host only.
//
// Requests: one POST; again once only when the chat says when (429 or 503 with Retry-After, at most
// MAX_RETRY_AFTER_S); within POST_TIMEOUT_MS each. The agent face does not post: a post to a team's
// chat is a person's act.

import { join } from 'node:path';
import { nodeTransport, TIMEOUT_CODE, type Exchange, type TransportError } from '../api/transport.js';
import { readJson, writeDurably } from '../config/files.js';
import { checkinPaths } from '../config/paths.js';
import { normalizeApiUrl, sha256 } from '../config/store.js';
import { WordsRefusedError } from '../config/outbox-files.js';
import { readWebhook } from '../config/webhook-store.js';
import type { Context } from '../context.js';
import { CliError, EXIT, terminal, UsageError } from '../errors.js';
import { sanitizeLine } from '../ui/sanitize.js';
import { USER_AGENT } from '../version.js';
import { MaybeSentError, maybeSentLine, noteWaiting, ownEntry, sendWithDraft, waitingFor, whenLabel, type Entry, type Keeping } from './outbox.js';

export type ChatService = 'slack' | 'discord' | 'mattermost';

export const CHAT_NAMES: Record<ChatService, string> = { slack: 'Slack', discord: 'Discord', mattermost: 'Mattermost' };

/** The longest message each chat's webhook takes in its text field (Discord's `content`: 2000; Slack's `text`: 40,000; Mattermost's: 16,383). */
export const TEXT_LIMIT: Record<ChatService, number> = { slack: 40_000, discord: 2_000, mattermost: 16_383 };

export interface Webhook {
  /** The URL: only ever handed to the transport. */
  readonly url: string;
  service: ChatService;
  /** The URL's fingerprint (SHA-256, 16 hex digits): what the outbox and the marker keep. */
  hook: string;
  /** "the Slack webhook at hooks.slack.com": all that is ever said of it. */
  label: string;
  /** Where it came from: --post, CHECKIN_WEBHOOK, the keychain, config.json. */
  where: 'flag' | 'env' | 'keychain' | 'file';
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']);
/** How long one POST may take, connecting to the answer's last byte. */
export const POST_TIMEOUT_MS = 15_000;
/** The longest Retry-After waited for (longer: refused, kept, said). */
export const MAX_RETRY_AFTER_S = 60;
const MAX_ANSWER_BYTES = 64 * 1024;

const KNOWN_SHAPES = 'Slack: https://hooks.slack.com/services/…, Discord: https://discord.com/api/webhooks/…, Mattermost: https://<your server>/hooks/…';

/**
 * An incoming-webhook URL checked and recognised: https (http only to this machine: 127.0.0.1, ::1,
 * localhost, for testing), no user or password in it, and one of the chats by its host and path.
 * A refusal never repeats the URL.
 */
export function webhookOf(raw: string, where: Webhook['where']): Webhook {
  const text = raw.trim();
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError('The webhook is not a URL', KNOWN_SHAPES);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.has(u.hostname)))
    throw new UsageError('The webhook must be an https URL (http only to this machine, for testing)', KNOWN_SHAPES);
  if (u.username || u.password) throw new UsageError('The webhook URL must not carry a user or password', KNOWN_SHAPES);
  const path = u.pathname;
  const service: ChatService | undefined =
    u.hostname === 'hooks.slack.com'
      ? 'slack'
      : DISCORD_HOSTS.has(u.hostname) || /^\/api\/webhooks\/[^/]+\/[^/]+/.test(path)
        ? 'discord'
        : /^\/services\/[^/]+\/[^/]+/.test(path)
          ? 'slack'
          : /\/hooks\/[A-Za-z0-9]+\/?$/.test(path)
            ? 'mattermost'
            : undefined;
  if (!service) throw new UsageError('The webhook is not an incoming webhook of a chat checkin knows (its host and path say which)', KNOWN_SHAPES);
  if (service === 'discord' && !/^\/api\/webhooks\/[^/]+\/[^/]+/.test(path))
    throw new UsageError('The Discord webhook must be https://discord.com/api/webhooks/<id>/<token>', KNOWN_SHAPES);
  return { url: u.href, service, hook: sha256(u.href).slice(0, 16), label: `the ${CHAT_NAMES[service]} webhook at ${sanitizeLine(u.host)}`, where };
}

/** The webhook of this run: `given` (--post URL), else CHECKIN_WEBHOOK, else the profile's (keychain or config.json); a UsageError when there is none. */
export function webhookHere(ctx: Context, given?: string): Webhook {
  if (given !== undefined) return webhookOf(given, 'flag');
  const kept = readWebhook(ctx.config(), ctx.env, (line) => ctx.io.err(`warning: ${line}\n`));
  if (!kept)
    throw new UsageError(
      'No webhook to post to: none was given, none is kept for this profile, and CHECKIN_WEBHOOK is not set',
      ...(ctx.advice ? [terminal(`\`${ctx.advice.setSetting('webhook', '-')}\` keeps one for this profile (it reads the URL from standard input).`)] : []),
    );
  return webhookOf(kept.url, kept.where);
}

/**
 * The request's body for the chat, as JSON: Slack's `{"text"}` (or its Block Kit payload, given
 * whole as `blocks`), Mattermost's `{"text"}`, Discord's `{"content"}` with no mention allowed to
 * ping anyone (`allowed_mentions`). `text` must already be within TEXT_LIMIT of the service.
 */
export function webhookBody(service: ChatService, text: string, blocks?: { text: string; blocks: unknown[] }): string {
  if (blocks) {
    if (service !== 'slack') throw new UsageError(`Block Kit is Slack's alone, not ${CHAT_NAMES[service]}'s`);
    return JSON.stringify(blocks);
  }
  if (service === 'discord') return JSON.stringify({ content: text, allowed_mentions: { parse: [] } });
  return JSON.stringify({ text });
}

/** The chat refused the post, not its words (a 5xx, 408, or 429 past the wait; the webhook's own 4xx: 401, 403, 404, 410): nothing was posted. A refusal of its words is a WordsRefusedError (WORDS_REFUSED). */
export class WebhookRefused extends CliError {}

export interface Posted {
  service: ChatService;
  /** The webhook as it is said ("the Slack webhook at hooks.slack.com"): never its URL. */
  label: string;
  /** The period the post covered, where it says. */
  period?: PostPeriod;
  /** The chat's answer's status. */
  status: number;
  /** 1, or 2 when the chat asked to wait and the post went again. */
  tries: number;
}

/** What a post covers: the period, and its newest word (what --if-new compares the next period's with). */
export interface PostPeriod {
  since: string;
  until: string;
  /** The newest moment of the period's data as posted (ISO); "" when it held nothing. */
  newest: string;
}

/**
 * Posts `body` (webhookBody's JSON) to the webhook, kept as an outbox entry first (the JSON as it
 * goes, with the period it covers: `checkin drafts` lists it, `drafts send` and `report --post
 * --resume` send it, once) and removed once the chat answered 2xx. A refusal keeps it and says the
 * chat's status; a refused post the same as one kept already is kept once.
 *
 * A kept post of the same text that may have reached the chat (no answer came) stops a new one: it is
 * said, and nothing is posted.
 *
 * Accepted, by whichever path (a post, a resume, `drafts send`): the period's marker moves
 * (`markPosted`, never back to an older period's), and the posts kept to the same webhook of the same
 * text, or of the same period with no newer words, are done with (dropped, said in one line):
 * sending them again would post it twice.
 */
export async function postToWebhook(ctx: Context, hook: Webhook, body: string, keeping: Keeping = {}, period?: PostPeriod): Promise<Posted> {
  // Given for this run alone (--post URL): the URL is kept nowhere, and the entry says so (what sends it again must be given it).
  const target = { kind: 'webhook-post' as const, hook: hook.hook, ...(period && { period }), ...(hook.where === 'flag' && { given: true as const }) };
  // The same text may have reached the chat already (sent, no answer came: a timeout, a dropped
  // connection): a new run (a job retried after its failure, --if-new) does not post it again. The
  // kept one is said, as every send that may have been made is; sending it is the person's word.
  if (!keeping.entry) {
    const maybe = keptSame(ctx, hook, body).find((e) => ctx.drafts().maybeSent(e));
    if (maybe) throw new MaybeSentError(maybeSentLine(ctx, maybe, whenLabel(ctx.drafts().maybeSent(maybe)!)));
  }
  const posted = await sendWithDraft(ctx, {
    target,
    ...(keeping.entry ? {} : { content: { kind: 'text' as const, text: body }, made: 'flag' as const }),
    ...keeping,
    // Refused: the same post kept already keeps it (this run's copy goes), and what to run names that one.
    ...(!keeping.entry && { settle: (err: unknown) => keepOnce(ctx, hook, body, err) }),
    // What still waits is said below, once the drafts of this same text are done with.
    quiet: true,
    send: () => postOnce(ctx, hook, body),
  });
  if (period) markPosted(ctx, hook, { ...period, posted_at: ctx.now().toISOString() });
  const kept = waitingFor(ctx, { kind: 'webhook-post', hook: hook.hook }).here;
  const same = dropAll(ctx, keptSame(ctx, hook, body));
  // Older words of the period just posted (a post refused, then the period changed and was posted): posting them would post it twice.
  const older = dropAll(
    ctx,
    kept.filter((e) => !(e.content.kind === 'text' && e.content.text === body) && outdone(periodOf(e), period)),
  );
  for (const [dropped, what] of [
    [same, 'of the same text'],
    [older, 'of the same period with no newer words'],
  ] as const)
    if (dropped > 0)
      ctx.io.err(
        `note: ${dropped === 1 ? 'a kept post' : `${dropped} kept posts`} ${what} to ${hook.label} ${dropped === 1 ? 'is' : 'are'} done with (dropped).\n`,
      );
  const resume = keeping.resume ?? ctx.advice?.resume(target);
  if (!keeping.quiet && resume !== undefined) noteWaiting(ctx, target, resume);
  return period ? { ...posted, period } : posted;
}

/** The posts kept for the webhook with exactly this body, oldest first (this account's, not held by another checkin). */
const keptSame = (ctx: Context, hook: Webhook, body: string): Entry[] =>
  waitingFor(ctx, { kind: 'webhook-post', hook: hook.hook }).here.filter((e) => e.content.kind === 'text' && e.content.text === body);

/** The period a kept post covers (what --if-new compares with once it is accepted), where it says. */
const periodOf = (e: Entry): PostPeriod | undefined => (e.target.kind === 'webhook-post' ? e.target.period : undefined);

/** Whether a post of period `p` says nothing a post of `by` does not: the same period, its newest word no newer. */
const outdone = (p: PostPeriod | undefined, by: PostPeriod | undefined): boolean =>
  Boolean(p && by && p.since === by.since && p.until === by.until && !somethingNew(p.newest, { ...by, posted_at: '' }));

/** Drops each of these kept posts (one held meanwhile is left); returns how many went. */
function dropAll(ctx: Context, entries: Entry[]): number {
  let n = 0;
  for (const e of entries) {
    try {
      ctx.drafts().take(e).done();
      n++;
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
    }
  }
  return n;
}

/**
 * A refused post (nothing went) the same as one kept before: this run's copy goes, the older one
 * stays — marked refused for its words when this refusal was of them (`why`: a WordsRefusedError),
 * as this run's copy was. One that may have gone stays, to be said. Returns the older one that keeps
 * the words, when this run's copy went.
 */
function keepOnce(ctx: Context, hook: Webhook, body: string, why: unknown): Entry | undefined {
  const mine = ownEntry(ctx, { kind: 'webhook-post', hook: hook.hook });
  if (!mine || ctx.drafts().maybeSent(mine)) return undefined;
  const older = keptSame(ctx, hook, body).filter((e) => e.id !== mine.id && e.created_at <= mine.created_at);
  if (older.length === 0) return undefined;
  try {
    ctx.drafts().take(mine).done();
    ctx.io.err(`note: the same post to ${hook.label} was kept already; it is kept once.\n`);
    if (why instanceof WordsRefusedError) for (const e of older) if (!ctx.drafts().maybeSent(e)) ctx.drafts().take(e).refused(ctx.now(), why.message);
    return older[0];
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return undefined;
  }
}

/**
 * --resume: of the posts kept for the webhook, each text once (the oldest), and each period once,
 * with its newest words (the oldest post of them): the others are dropped, said in one line each.
 */
export function dropRepeatedPosts(ctx: Context, hook: Webhook): void {
  const kept = waitingFor(ctx, { kind: 'webhook-post', hook: hook.hook }).here.filter((e) => e.content.kind === 'text' && !ctx.drafts().maybeSent(e));
  const text = (e: Entry) => (e.content.kind === 'text' ? e.content.text : undefined);
  const repeated = kept.filter((e, i) => kept.findIndex((o) => text(o) === text(e)) < i);
  // Outdone: another post of its period has newer words, or the same words and was kept first.
  const outdoneHere = kept.filter(
    (e, i) => !repeated.includes(e) && kept.some((o, j) => o !== e && outdone(periodOf(e), periodOf(o)) && (j < i || !outdone(periodOf(o), periodOf(e)))),
  );
  const n = dropAll(ctx, repeated);
  const m = dropAll(ctx, outdoneHere);
  if (n > 0) ctx.io.err(`note: ${n === 1 ? 'a kept post' : `${n} kept posts`} repeating an older one to ${hook.label} dropped; each text is posted once.\n`);
  if (m > 0)
    ctx.io.err(
      `note: ${m === 1 ? 'a kept post' : `${m} kept posts`} to ${hook.label} of a period that a newer kept post covers dropped; each period is posted once, with its newest words.\n`,
    );
}

/** A kept post sent again (`checkin drafts send`, `report --post --resume`): to the webhook of this run, when it is the one the post was kept for. */
export function postKept(ctx: Context, entry: Entry, keeping: Keeping, given?: string): Promise<Posted> {
  const t = entry.target;
  if (t.kind !== 'webhook-post' || entry.content.kind !== 'text') throw new UsageError(`The draft ${entry.id} holds no post to a webhook`);
  // Given for its run alone, and none given now: no webhook here is the one it was for (its URL is kept nowhere).
  if (t.given && given === undefined && !readWebhook(ctx.config(), ctx.env))
    throw new UsageError(
      `The draft ${entry.id} is a post to a webhook whose URL was given on the command line, and checkin keeps no such URL; it was not sent and is still kept`,
      ...(ctx.advice ? [terminal(`\`${ctx.advice.send(entry.id, t)}\` sends it there.`)] : []),
    );
  const hook = webhookHere(ctx, given);
  if (hook.hook !== t.hook)
    throw new UsageError(
      `The draft ${entry.id} was kept for another webhook than ${hook.label}; it was not sent and is still kept`,
      ...(ctx.advice
        ? [terminal(`Give that webhook: \`${ctx.advice.resume({ ...t, given: true })}\`, or keep it again: \`${ctx.advice.setSetting('webhook', '-')}\`.`)]
        : []),
    );
  return postToWebhook(ctx, hook, entry.content.text, { ...keeping, entry }, t.period);
}

/** Seconds Retry-After asks for (a number, or an HTTP date against `now`); undefined when there is none or it cannot be read. */
export function retryAfterSeconds(value: string | string[] | undefined, now: Date): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now.getTime()) / 1000);
}

/** A token this short is no secret of a chat's (theirs are 24 to 68 characters), and would be found in ordinary words. */
const MIN_TOKEN_CHARS = 8;

/**
 * The chat's answer with the webhook's URL, its path and its token (the path's last part: Slack's,
 * Discord's and Mattermost's secret, which an answer may repeat alone) written as [webhook].
 */
const withoutHook = (hook: Webhook, text: string): string => {
  const path = new URL(hook.url).pathname;
  const token = path.split('/').filter(Boolean).at(-1) ?? '';
  return [hook.url, path, ...(token.length >= MIN_TOKEN_CHARS ? [token] : [])].reduce((t, secret) => t.split(secret).join('[webhook]'), text);
};

/** What the chat said, in a few words: its status and the start of its answer, sanitised, without the URL. */
/**
 * The answers that refuse a post's words themselves (malformed, too large, unprocessable: Slack's
 * 400 invalid_payload or no_text, a 413, a 422); not the webhook's own (401, 403, 404, 410: a URL
 * revoked, a channel archived or not found), which the same words pass once it is put right.
 */
const WORDS_REFUSED: ReadonlySet<number> = new Set([400, 413, 422]);

function refusalWords(hook: Webhook, answer: Exchange): string {
  const said = sanitizeLine(withoutHook(hook, answer.text)).trim().slice(0, 200);
  return `${answer.status}${said ? ` (${said})` : ''}`;
}

async function postOnce(ctx: Context, hook: Webhook, body: string): Promise<Posted> {
  const transport = nodeTransport(ctx.env);
  try {
    for (let tries = 1; ; tries++) {
      let answer: Exchange;
      try {
        answer = await transport.send({
          method: 'POST',
          url: hook.url,
          headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': USER_AGENT, accept: 'application/json, text/plain' },
          body,
          timeoutMs: POST_TIMEOUT_MS,
          maxBodyBytes: MAX_ANSWER_BYTES,
        });
      } catch (err) {
        const e = err as TransportError;
        const why = e.code === TIMEOUT_CODE ? `no answer within ${POST_TIMEOUT_MS / 1000} s` : sanitizeLine(e.code ?? 'failed');
        // Nothing went out (refused, no such host): nothing was posted. Sent without an answer: it may have been (outbox.ts keeps it as maybe sent).
        if (!e.written) throw new CliError(`Could not reach ${hook.label} (${why}); nothing was posted`);
        throw new Error(`${hook.label} gave no answer (${why})`);
      }
      trace(ctx, hook, body, answer, tries);
      if (answer.status >= 200 && answer.status < 300) return { service: hook.service, label: hook.label, status: answer.status, tries };
      const wait = answer.status === 429 || answer.status === 503 ? retryAfterSeconds(answer.headers['retry-after'], ctx.now()) : undefined;
      if (tries === 1 && wait !== undefined && wait <= MAX_RETRY_AFTER_S) {
        ctx.io.err(`${CHAT_NAMES[hook.service]} asked to wait ${Math.ceil(wait)} s; posting again then…\n`);
        await ctx.sleep(Math.ceil(wait * 1000));
        continue;
      }
      const later = wait !== undefined && tries === 1 ? ` and asked to wait ${Math.ceil(wait)} s, longer than checkin waits` : '';
      const said = `${CHAT_NAMES[hook.service]} refused the post: ${refusalWords(hook, answer)}${later}; nothing was posted`;
      // The chat refusing these words (WORDS_REFUSED): the kept post is marked so (outbox.ts), never resent blindly.
      if (WORDS_REFUSED.has(answer.status)) throw new WordsRefusedError(said, EXIT.USAGE);
      // Another 4xx but a timeout's (408) or a rate's (429) is the webhook or its channel (gone, archived, not allowed): the person's to fix, then a resume sends the words.
      throw new WebhookRefused(said, answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429 ? EXIT.USAGE : EXIT.FAILURE);
    }
  } finally {
    await transport.close();
  }
}

/** --debug: the exchange as the API's trace shows one, the URL said as the chat and host only, the answer's body cut. */
function trace(ctx: Context, hook: Webhook, body: string, answer: Exchange, attempt: number): void {
  if (!ctx.debug.api) return;
  const url = `${new URL(hook.url).origin}/[webhook]`;
  ctx.onTrace({
    method: 'POST',
    url,
    attempt,
    requestHeaders: { 'content-type': 'application/json; charset=utf-8' },
    requestBody: body,
    status: answer.status,
    responseHeaders: Object.fromEntries(Object.entries(answer.headers).filter(([k]) => k === 'retry-after' || k === 'content-type')),
    responseBody: withoutHook(hook, answer.text).slice(0, 1024),
    ms: 0,
  });
}

// --if-new: the marker of the last post to each webhook, per account (state folder, webhook-posts.json).

/** What the last accepted post to a webhook carried: the period and its newest word (a check-in filled or changed, a goal update), and when. */
export interface PostMarker {
  since: string;
  until: string;
  /** The newest moment of the period's data as posted (ISO); "" when it held nothing. */
  newest: string;
  posted_at: string;
}

const markerFile = (ctx: Context) => join(checkinPaths(ctx.env).state, 'webhook-posts.json');
/** The account and the webhook: another profile, service or webhook has its own marker. */
const markerKey = (ctx: Context, hook: Webhook) => `${ctx.profile().name} ${normalizeApiUrl(ctx.config().apiUrl().value)} ${hook.hook}`;

export function lastPost(ctx: Context, hook: Webhook): PostMarker | undefined {
  const all = readJson(markerFile(ctx)).value;
  const m = all[markerKey(ctx, hook)] as Partial<PostMarker> | undefined;
  return m && typeof m.newest === 'string' && typeof m.posted_at === 'string' ? (m as PostMarker) : undefined;
}

/** Best effort: a marker not written means the next --if-new posts again. A post of an older period than the marker's (a kept one sent late) leaves it. */
export function markPosted(ctx: Context, hook: Webhook, marker: PostMarker): void {
  try {
    const last = lastPost(ctx, hook);
    if (last && somethingNew(last.newest, marker)) return;
    const all = readJson(markerFile(ctx)).value;
    writeDurably(markerFile(ctx), JSON.stringify({ ...all, [markerKey(ctx, hook)]: marker }, null, 2) + '\n');
  } catch {
    ctx.io.err('note: the marker of this post could not be written; the next post that asks for something new will post this period again\n');
  }
}

/**
 * Whether the period holds something new for --if-new: a word in it (its newest moment, `newest`)
 * later than the last accepted post's to this webhook. A period with nothing in it (no check-in
 * filled, no goal update) has nothing new.
 */
export function somethingNew(newest: string, last: PostMarker | undefined): boolean {
  if (newest === '') return false;
  if (!last) return true;
  const [a, b] = [Date.parse(newest), Date.parse(last.newest)];
  return Number.isNaN(a) || Number.isNaN(b) ? newest > last.newest : a > b;
}
