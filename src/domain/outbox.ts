// The one way every write goes out, through the outbox (config/outbox-files.ts): what the user typed is
// an entry on disk before the request; sending claims it (one send per entry, across processes);
// it is removed only after the service accepted exactly it with a well-formed answer. A run keeps
// its own entry per target (the wizard updates it answer by answer) and never changes another's:
// a failed send followed by another send leaves the first waiting, and says so. Where no entry can
// be kept at all, the write still goes out, and if it fails the typed text is printed.
import { getCheckIn } from '../api/endpoints.js';
import { ApiError } from '../api/errors.js';
import { DATE_KEY_RE, type CheckIn, type CheckInAnswers } from '../api/types.js';
import {
  BUSY,
  ClaimedError,
  creates,
  GoneError,
  LostClaimError,
  sameTarget,
  type Account,
  type Claim,
  type DraftContent,
  type DraftTarget,
  type Entry,
  type Made,
  type Standing,
  WordsRefusedError,
} from '../config/outbox-files.js';
import { normalizeApiUrl, sha256 } from '../config/store.js';
import type { Context } from '../context.js';
import { ANSWER_NAMES, answersOf, buildTemplate, readTemplate, SECTIONS, type AnswerField } from '../core/checkin-answers.js';
import { cachedMe, me } from './account.js';
import { dayZone } from './days.js';
import { dateKeyAtOffset } from '../core/datekey.js';
import { CancelledError, CliError, EditorError, EXIT, ExitSignal, hintText, terminal, UsageError, withHint, type Hint } from '../errors.js';
import { withoutContext } from '../ui/editor-text.js';
import { shownToSend } from '../ui/as-sent.js';
import { sanitize, sanitizeLine } from '../ui/sanitize.js';
import { askedHere } from './asked.js';
import { noteReported } from './hook-marks.js';

/** Whether sending this target creates something (a POST): sent twice, it would be there twice (its insert and its sending mark are made durable so: config/outbox-files.ts). */
export { creates };

export type { Claim, DraftContent, DraftTarget, Entry } from '../config/outbox-files.js';

export interface Write<T> {
  target: DraftTarget;
  /** What was typed, kept as this run's entry for the target; undefined when nothing needs keeping (all of it is on the command line). */
  content?: DraftContent | undefined;
  /** How it was typed (default: typed). */
  made?: Made;
  /** The target's `updated_at` as the person saw it, when this run knows it. */
  base?: string;
  /** Or: an entry kept earlier, sent as it is (`--resume`, `checkin drafts send`). */
  entry?: Entry;
  /** The claim on `entry`, when the caller took it already (held while a person was asked). */
  claim?: Claim;
  /** Entries kept earlier that the person built this one on: removed with it once it is accepted. */
  folds?: Entry[];
  /** What goes out, when it is not the entry's content as kept (names resolved to ids): what the person's yes shows. */
  sent?: DraftContent;
  /** The command that sends it again, when it is not the target's own (`checkin today --resume`). */
  resume?: string;
  /** Say nothing of other entries still waiting for the target (a resume sending them all). */
  quiet?: boolean;
  /** The person said to send it again though it may already have reached the service. */
  again?: boolean;
  /** The person said to send it as the account here though it was kept for another. */
  elsewhere?: boolean;
  /** Other names of the same target (a comment kept under its check-in's date): what waits under them is said too. */
  names?: DraftTarget[];
  /** After a failed send, once its claims are let go: the entry that keeps these words now, when it is another than this run's (the same words kept already: this run's copy dropped). What to run names it. */
  settle?: (err: unknown) => Entry | undefined;
  send: () => Promise<T>;
}

/**
 * How a write is kept while it goes out: an entry kept earlier (`entry`, with its `claim`), or the
 * content typed now (made as `made`), and what the outbox says of it. The operation that sends it
 * (writes.ts, send-checkin.ts) knows its target and its request.
 */
export type Keeping = Omit<Write<unknown>, 'target' | 'send' | 'content'>;

/** Typed content as a person reads it back. */
export function contentText(content: DraftContent): string {
  switch (content.kind) {
    case 'answers':
      return buildTemplate(content.answers, 'this check-in');
    case 'comment':
      return content.body;
    case 'goal-update':
      return `${content.input.title ?? ''}\n\n${content.input.body ?? ''}`.trim();
    case 'activity':
      return content.input.description;
    case 'goal':
      return `${content.input.title ?? ''}\n\n${content.input.description ?? ''}`.trim();
    case 'echo-question':
      return content.input.prompt;
    case 'text':
      return content.text;
  }
}

/**
 * What an entry sends, as its request's body: editor text read as its send reads it (a comment
 * without its context comment, a check-in's template as answers); what the person's yes shows.
 */
export function sentContent(entry: Entry): DraftContent {
  const c = entry.content;
  if (c.kind !== 'text') return c;
  if (entry.target.kind === 'comment') return { kind: 'comment', body: withoutContext(c.text) };
  if (entry.target.kind === 'check-in') {
    const read = readTemplate(c.text);
    if (read.problems.length === 0) return { kind: 'answers', answers: read.answers };
  }
  return c;
}

/** The first words of a draft, as a list shows them: the first answer given, or the first line written (not the template's comments and headings). */
export function firstWords(content: DraftContent): string {
  if (content.kind === 'answers') {
    const a = content.answers;
    for (const s of SECTIONS) {
      const v = a[s.field];
      if (typeof v === 'string' && v.trim() !== '') return `${s.title}: ${v.trim().split('\n')[0]}`;
    }
    if (a.mood) return `Mood: ${a.mood}`;
    return '';
  }
  const text = content.kind === 'text' ? content.text.replace(/<!--[\s\S]*?-->/g, '') : contentText(content);
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '' && !/^#{1,6}\s/.test(l.trim()))
      ?.trim() ?? ''
  );
}

/** What was kept, and that `resume` sends it, as advice for a terminal in the face's words (none where the face words its own). */
export function keptAdvice(ctx: Context, resume: string | undefined): Hint[] {
  return ctx.advice && resume !== undefined ? [terminal(ctx.advice.kept(resume))] : [];
}

/** Refused: the entry may already have reached the service (only the person's word sends it again). */
export class MaybeSentError extends CliError {}

/** The line for a send that may have reached the service without an answer (what sends or drops it, in the face's words: the agent face says its own). */
export function maybeSentLine(ctx: Context, entry: Entry, at: string): string {
  const line = `The draft ${entry.id} may have reached the service (sent ${sanitizeLine(at).slice(0, 40)}, no answer came); it is kept and will not be sent again on its own.`;
  return ctx.advice
    ? `${line} Look for it, then \`${ctx.advice.send(entry.id, entry.target)}\` sends it again or \`${ctx.advice.drop(entry.id)}\` drops it.`
    : line;
}

/**
 * What to run for an entry a send left kept, by what came of it — the one place each outcome's advice
 * is decided, read by the send that failed and by every resume after it: refused for its words (a
 * resume leaves it: shown, sent by its id, dropped), maybe sent (only the person's word sends it
 * again), or kept waiting (its resume sends it).
 */
export function keptHints(ctx: Context, entry: Entry, outcome: 'refused' | 'maybe' | 'waiting', resume?: string): Hint[] {
  if (outcome === 'maybe') return [maybeSentLine(ctx, entry, whenLabel(ctx.now().toISOString()))];
  if (outcome === 'refused') return ctx.advice ? [terminal(`The draft ${entry.id} ${refusedAdvice(ctx, entry)}`)] : [];
  return keptAdvice(ctx, resume);
}

/** An entry refused for its words: that a resume leaves it, and the commands that show it, send it again and drop it. */
function refusedAdvice(ctx: Context, e: Entry): string {
  const advice = ctx.advice
    ? ` \`${ctx.advice.show(e.id)}\` shows it; \`${ctx.advice.send(e.id, e.target)}\` sends it again as it is, \`${ctx.advice.drop(e.id)}\` drops it.`
    : '';
  return `is kept and not sent again by a resume.${advice}`;
}

/**
 * Whose words a run writes: the service as configured (no request) and, with `person`, the person
 * when the cache knows them (which reads the token: after the words are kept, never before).
 */
export function accountHere(ctx: Pick<Context, 'config' | 'env' | 'profile'>, { person: withPerson = true }: { person?: boolean } = {}): Account {
  const cfg = ctx.config();
  const api_url = normalizeApiUrl(cfg.apiUrl().value);
  let token: string | undefined;
  let person: string | undefined;
  try {
    // Without `person`, the keychain is not asked (the words are kept before anything slow).
    const t = withPerson || cfg.read().token_store !== 'keychain' || ctx.env.CHECKIN_TOKEN || ctx.env.STEADY_TOKEN ? cfg.token() : undefined;
    if (t?.value) token = sha256(t.value).slice(0, 16);
    person = withPerson && t ? cachedMe(ctx, t.value)?.id : undefined;
  } catch {
    // whose it is stays unsaid
  }
  return { api_url, ...(person && { person_id: person }), ...(token && { token }), profile: ctx.profile().name };
}

/** The profile an entry was kept under, when it is not the one in use here (an entry kept before profiles has none: it is matched by its account). */
export function otherProfile(a: Account, here: Account): string | undefined {
  return a.profile !== undefined && here.profile !== undefined && a.profile !== here.profile ? a.profile : undefined;
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/** Whether an entry is this account's: the same service (however its URL's path was spelled) and not another person's. */
export function sameAccount(a: Account, b: Account): boolean {
  // Kept under another profile: another's, even on the same service as the same person (the person chose which account it is for).
  if (otherProfile(a, b) !== undefined) return false;
  if (originOf(normalizeApiUrl(a.api_url)) !== originOf(normalizeApiUrl(b.api_url))) return false;
  const text = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);
  const [pa, pb] = [text(a.person_id), text(b.person_id)];
  if (pa && pb) return pa === pb;
  // Whose it is was not known when it was kept: the token it was kept with tells (another token is another account, said and asked).
  const [ta, tb] = [text(a.token), text(b.token)];
  return !ta || !tb || ta === tb;
}

/** How an entry's account reads: "http://…/api/v1" (and whose, when it is not this person). */
export function accountLabel(a: Account, here: Account): string {
  const profile = otherProfile(a, here);
  if (profile !== undefined) return `the profile ${sanitizeLine(profile)}`;
  const url = sanitizeLine(a.api_url);
  return originOf(normalizeApiUrl(a.api_url)) === originOf(normalizeApiUrl(here.api_url)) ? `${url}, by another person or token` : url;
}

/**
 * What waits for a target (or for any of several names of one: a check-in's date and its UUID):
 * this account's entries, oldest first, and those kept for another service or person.
 */
export function waitingFor(ctx: Context, target: DraftTarget | DraftTarget[]): { here: Entry[]; elsewhere: Entry[]; busy: Entry[] } {
  const account = accountHere(ctx);
  const names = Array.isArray(target) ? target : [target];
  const outbox = ctx.drafts();
  const all = outbox.list().filter((e) => names.some((t) => sameTarget(e.target, t)));
  // Held by another live checkin (being written or sent there): left to it.
  const busy = all.filter((e) => outbox.busyElsewhere(e));
  const free = all.filter((e) => !busy.includes(e));
  return { here: free.filter((e) => sameAccount(e.account, account)), elsewhere: free.filter((e) => !sameAccount(e.account, account)), busy };
}

/** The newest entry waiting for a target that writing can start again from (none that may already have been sent). */
export function newestToEdit(ctx: Context, names: DraftTarget | DraftTarget[], kinds: Array<DraftContent['kind']>): Entry | undefined {
  return waitingFor(ctx, names)
    .here.filter((e) => kinds.includes(e.content.kind) && !ctx.drafts().maybeSent(e))
    .at(-1);
}

/** Every entry of this account, oldest first. */
export function allHere(ctx: Pick<Context, 'config' | 'env' | 'profile' | 'drafts'>): Entry[] {
  const account = accountHere(ctx);
  return ctx
    .drafts()
    .list()
    .filter((e) => sameAccount(e.account, account));
}

/** What is being typed right now, kept when a stop signal comes (SIGHUP, SIGTERM: no prompt sees those). */
const onStopKeepers = new WeakMap<Context, Set<() => void>>();

/** Runs `keepNow` (a synchronous keep of what is being typed) if a stop signal comes before the returned function is called. */
export function keepOnStop(ctx: Context, keepNow: () => void): () => void {
  let set = onStopKeepers.get(ctx);
  if (!set) onStopKeepers.set(ctx, (set = new Set()));
  set.add(keepNow);
  ctx.io.onStop(() => stopLine(ctx));
  return () => set.delete(keepNow);
}

/** What a stop signal says while an entry of this run is kept. */
function stopLine(ctx: Context): string | undefined {
  for (const keepNow of onStopKeepers.get(ctx) ?? []) {
    try {
      keepNow();
    } catch {
      // the line below says what is kept
    }
  }
  const kept = ctx.drafts().keptThisRun();
  if (kept.length === 0 || !ctx.advice) return undefined;
  return `Stopped. ${ctx.advice.kept(ctx.advice.resume(kept.at(-1)!.target))}`;
}

/** An entry's base: the target's `updated_at` as the person saw it (or "new" when it has none). */
export const baseOf = (seen: { updated_at?: unknown }): string => (typeof seen.updated_at === 'string' && seen.updated_at !== '' ? seen.updated_at : 'new');

/** The check-in an entry is for: its key, or, kept for the machine's date before the person's zone was known, the person's date when it was typed. */
export async function entryDay(ctx: Context, entry: Entry & { target: { kind: 'check-in' } }): Promise<string> {
  if (!entry.day_guessed || !DATE_KEY_RE.test(entry.target.key)) return entry.target.key;
  const { offsets } = await dayZone(ctx);
  return offsets ? dateKeyAtOffset(new Date(entry.created_at), offsets) : entry.target.key;
}

/** This run's own entry for the target, if it made one. */
export function ownEntry(ctx: Context, target: DraftTarget): Entry | undefined {
  return ctx
    .drafts()
    .keptThisRun()
    .find((e) => sameTarget(e.target, target));
}

/**
 * Keeps what was typed as this run's entry for the target: made the first time, updated after
 * (never another run's). Returns the entry, or undefined when none can be kept (the store has
 * warned, once) and the caller carries on.
 */
export function keep(ctx: Context, target: DraftTarget, content: DraftContent, made: Made = 'typed', base?: string, guessed = false): Entry | undefined {
  const outbox = ctx.drafts();
  try {
    const mine = ownEntry(ctx, target);
    // The target as this run read it, for an entry kept before it was read (piped, then the
    // check-in fetched): recorded before the request, so a resume after a failed write knows what
    // it was written over. A base once recorded is never moved later (a later one asks less).
    const rebase = base !== undefined && mine && mine.base === undefined ? { base } : {};
    let entry: Entry | undefined;
    // The same words again (a send keeping what was kept before it): nothing is written.
    if (mine && JSON.stringify(mine.content) === JSON.stringify(content) && !rebase.base) entry = mine;
    else if (mine) {
      try {
        entry = outbox.update(mine, { content, ...rebase }, ctx.now());
      } catch (err) {
        // Taken by another process since this run let go of it (a failed send): the words now are a new entry.
        if (!(err instanceof CliError)) throw err;
      }
    }
    entry ??= outbox.add(accountHere(ctx, { person: false }), target, content, made, ctx.now(), {
      base: base ?? (creates(target) ? 'new' : undefined),
      guessed,
    });
    // From now until it is sent, a stop signal says where it is.
    ctx.io.onStop(() => stopLine(ctx));
    return entry;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return undefined;
  }
}

/**
 * Opens the editor on `text` in a file of the outbox: this run's entry for the target holds the
 * editor's file from the start, so a closed terminal, a stop signal or a crash leaves what was last
 * saved as a draft (and a stop signal says so). Returns what was saved; the entry then holds it as
 * text (the caller keeps what it makes of it, or drops the entry when nothing was written).
 */
export async function editKept(ctx: Context, target: DraftTarget, text: string): Promise<string> {
  const entry = keep(ctx, target, { kind: 'text', text }, 'editor');
  if (!entry) return ctx.editor().edit(text);
  const outbox = ctx.drafts();
  let opened: { entry: Entry; file: string };
  try {
    opened = outbox.startEditing(entry, text, ctx.now());
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return ctx.editor().edit(text);
  }
  let saved: string;
  try {
    saved = await ctx.editor().edit(text, {
      file: opened.file,
      // Its process recorded: while the editor is open, no other run sends what it may still change.
      started: (pid) => {
        try {
          opened = { ...opened, entry: outbox.editorStarted(opened.entry, pid, ctx.now()) };
        } catch (err) {
          if (!(err instanceof CliError)) throw err;
        }
      },
    });
  } catch (err) {
    if (err instanceof EditorError) keepEdited(ctx, opened.entry, err.text);
    throw err;
  }
  keepEdited(ctx, opened.entry, saved);
  return saved;
}

function keepEdited(ctx: Context, entry: Entry, text: string): void {
  try {
    ctx.drafts().stopEditing(entry, text, ctx.now());
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
  }
}

/** Moves this run's entry to the target it turned out to be for (piped text kept before the day was known). */
export function retarget(ctx: Context, from: DraftTarget, to: DraftTarget, { settled = false }: { settled?: boolean } = {}): void {
  const mine = ownEntry(ctx, from);
  // Moved, or its day now known to be the person's (a guess no more): the target is set again.
  if (mine && (!sameTarget(from, to) || (settled && mine.day_guessed))) updateOwn(ctx, mine, { target: to });
}

function updateOwn(ctx: Context, entry: Entry, change: Partial<Pick<Entry, 'account' | 'target'>>): Entry {
  try {
    return ctx.drafts().update(entry, change, ctx.now());
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return entry;
  }
}

/** Drops this run's own entry for the target (what it kept turned out to change nothing). */
export function dropOwn(ctx: Context, target: DraftTarget): void {
  const mine = ownEntry(ctx, target);
  if (mine) drop(ctx, mine);
}

/** The runs that have said which profile a folder's .checkin.json chose. */
const saidProfile = new WeakSet<Context>();

/**
 * Once a run, before its first write, when the profile was chosen by a folder's .checkin.json: which
 * profile, and which file chose it. A piped or flagged write has no question to name it in, and the
 * file may have come with a cloned repository: the person sees which of their accounts it goes to.
 */
function sayFolderProfile(ctx: Context): void {
  const profile = ctx.profile();
  if (profile.origin !== 'directory' || saidProfile.has(ctx)) return;
  saidProfile.add(ctx);
  ctx.io.err(sanitize(`note: as the profile ${profile.name}, which ${profile.file} names\n`));
}

/** Drops an entry on the person's word (claimed first: one being sent is not dropped under it). */
export function drop(ctx: Context, entry: Entry): void {
  // Its editor still open: a save after the drop would land in a file no command lists.
  refuseWhileEditing(ctx, entry, ctx.drafts().editorOpen(entry), 'dropped');
  ctx.drafts().take(entry).done();
}

export async function sendWithDraft<T>(ctx: Context, write: Write<T>): Promise<T> {
  sayFolderProfile(ctx);
  const outbox = ctx.drafts();
  let entry = write.entry ?? (write.content ? keep(ctx, write.target, write.content, write.made, write.base) : undefined);
  // This run's entry learns whose it is (the token is read by now), so another person's resume never takes it.
  if (entry && !write.entry && (!entry.account.person_id || !entry.account.token)) {
    const account = accountHere(ctx);
    if ((account.person_id && !entry.account.person_id) || (account.token && !entry.account.token)) entry = updateOwn(ctx, entry, { account });
  }
  const resume = write.resume ?? ctx.advice?.resume(write.target);
  // An entry kept earlier goes out only as its own person, and with the person's yes where its words were not theirs as seen.
  let again = Boolean(write.again);
  const carried = [...(entry ? [entry] : []), ...(write.folds ?? [])];
  const claims = [];
  /** What the outbox knows of each draft this send carries, read once it is held (no other checkin changes it meanwhile). */
  const standing = new Map<string, Standing>();
  try {
    if (entry) claims.push(write.claim ?? outbox.take(entry));
    for (const e of write.folds ?? []) claims.push(outbox.take(e));
    for (const e of carried) standing.set(e.id, outbox.standing(e));
    // Held now (no one else sends it meanwhile): an entry kept earlier goes out only as its own
    // person, and with the person's yes where its words were not theirs as seen.
    if (write.entry && !ownEntry(ctx, write.target)) {
      const seen = standing.get(write.entry.id)!;
      refuseWhileEditing(ctx, write.entry, seen.editorOpen);
      if (!write.elsewhere) await boundHere(ctx, write.entry);
      else boundToProfile(ctx, write.entry);
      if (!write.claim && (await askYes(ctx, write.entry, seen, again, write.sent))) again = true;
    }
  } catch (err) {
    for (const c of claims) c.release();
    throw err;
  }
  // Looked at once it is held: a sender that died with its request on the way (its claim was
  // just taken back) may have made it already. Sent again only on the person's word.
  if (!again) {
    for (const e of carried) {
      const maybe = standing.get(e.id)?.maybeSent;
      if (!maybe) continue;
      for (const c of claims) c.release();
      throw new MaybeSentError(maybeSentLine(ctx, e, whenLabel(maybe)));
    }
  }
  const createsOne = creates(write.target);
  let result: T;
  try {
    // Every draft this send carries (the one sent, and those the person built it on) is marked as on
    // the wire, or (a request that creates nothing) found still held: a claim another checkin took
    // back meanwhile sends nothing.
    for (const c of claims)
      if (createsOne) c.sending();
      else c.check();
    result = await write.send();
  } catch (err) {
    // Taken over before anything went: nothing was sent, and the entry is the other's (said once, as it is).
    if (err instanceof LostClaimError) {
      for (const c of claims) c.release();
      throw err;
    }
    // A create the service accepted (2xx) whose answer cannot be read or shown: made. The entry goes, and a line says so.
    if (createsOne && err instanceof ApiError && err.kind === 'invalid-response' && (err.status === 0 || (err.status >= 200 && err.status < 300))) {
      for (const c of claims) c.done();
      noteReported(ctx, write.target, undefined); // accepted: an activity is reported (the agent's hooks: hook-marks.ts)
      ctx.io.err(
        `${sanitizeLine(`${err.method} ${err.path}`)}: the service accepted it, but its answer could not be shown (${sanitizeLine(err.message.replace(/^\S+ \S+: /, ''))}); the draft is removed.\n`,
      );
      throw new ExitSignal(EXIT.OK);
    }
    // The service answered (an error): nothing was made. No answer to a create: it may have been.
    const unanswered =
      createsOne && !(err instanceof ApiError && (err.kind === 'http' || err.notSent)) && (err instanceof ApiError || !(err instanceof CliError));
    for (const c of claims) {
      if (unanswered) c.unknown(ctx.now());
      // Refused for its words: kept, marked so that a resume leaves it (the message says what the receiver said).
      else if (err instanceof WordsRefusedError && c.entry.id === entry?.id) c.refused(ctx.now(), err.message);
      c.release();
    }
    if (!entry) {
      if (!write.content) throw err;
      throw withHint(err, `No draft could be kept; here is what you wrote:\n${contentText(write.content)}`);
    }
    const kept = write.settle?.(err) ?? entry;
    throw withHint(err, ...keptHints(ctx, kept, unanswered ? 'maybe' : err instanceof WordsRefusedError ? 'refused' : 'waiting', resume));
  }
  for (const c of claims) c.done();
  // Accepted: a check-in's answers or an activity is what the agent's hooks count from (hook-marks.ts), whichever path sent it.
  noteReported(ctx, write.target, result);
  if (!write.quiet && resume !== undefined) noteWaiting(ctx, write.names ? [write.target, ...write.names] : write.target, resume);
  return result;
}

/**
 * An entry is sent only once `me` is known to be its person on its service (one GET /me when not
 * cached): kept for another service, person or token, it is refused, named, and kept.
 */
async function boundHere(ctx: Context, entry: Entry): Promise<void> {
  const here = accountHere(ctx);
  const a = entry.account;
  boundToProfile(ctx, entry, here);
  // The token it was kept with is this token: the same person, no request. Else its person is compared with `me`.
  const sameToken = Boolean(a.token && here.token && a.token === here.token);
  const person = !sameToken && a.person_id ? (await me(ctx)).id.toLowerCase() === a.person_id.toLowerCase() : undefined;
  // Both spelled as this build spells a service (an entry's as it is read: config/outbox-files.ts).
  const same = originOf(a.api_url) === originOf(here.api_url) && (sameToken || (person ?? (!a.token || !here.token)));
  if (!same)
    throw new UsageError(
      `The draft ${entry.id} was kept for ${accountLabel(a, here)}, not for you here; it was not sent and is still kept`,
      ...(ctx.advice ? [terminal(`\`${ctx.advice.send(entry.id)}\` sends it here as you once you say yes.`)] : []),
    );
}

/**
 * An entry kept under one profile is sent only under it: not under another, whatever the person
 * says (the same service and person on both is still another profile's word), and without a request.
 */
export function boundToProfile(ctx: Context, entry: Entry, here = accountHere(ctx)): void {
  const profile = otherProfile(entry.account, here);
  if (profile === undefined) return;
  throw new UsageError(
    `The draft ${entry.id} was kept under the profile ${sanitizeLine(profile)}, not ${sanitizeLine(here.profile ?? '')} (the one in use); it was not sent and is still kept`,
    ...(ctx.advice ? [terminal(`\`${ctx.advice.asProfile(ctx.advice.send(entry.id), sanitizeLine(profile))}\` sends it as that profile.`)] : []),
  );
}

/**
 * Why an entry kept earlier needs the person's yes before it goes out, if it does, from what the
 * outbox knows of it (`again`: the person said to send it again though it may have been sent).
 */
function whyAsk(entry: Entry, seen: Standing, again: boolean): string | undefined {
  if (entry.made === 'agent') return 'was written by an agent';
  if (seen.maybeSent && !again) return `may already have reached the service (sent ${whenLabel(seen.maybeSent)}, no answer came)`;
  if (seen.editedUnwatched) return 'was written in an editor after checkin stopped watching it';
  return undefined;
}

/** Refused: an entry that needs the person's yes, with no terminal to ask on. */
export class NeedsYesError extends UsageError {}

/** The person's yes for such an entry: its whole text shown and asked on a terminal (true: said yes); refused (kept, and how to send it said) without one. */
async function askYes(ctx: Context, entry: Entry, seen: Standing, again: boolean, sent = sentContent(entry)): Promise<boolean> {
  const why = whyAsk(entry, seen, again);
  if (!why) return false;
  if (!ctx.io.canPrompt)
    throw new NeedsYesError(
      `The draft ${entry.id} ${why}: it needs your yes, and there is no terminal to ask on; it was not sent and is still kept`,
      ...(ctx.advice ? [terminal(`At a terminal, \`${ctx.advice.send(entry.id)}\` shows it whole and asks.`)] : []),
    );
  // Every field it sends, as the agent's question shows them (ui/as-sent.ts): every hidden character named, runs of blank lines and spaces counted.
  ctx.io.err(sanitize(`The draft ${entry.id} (${targetLabel(entry.target)}) ${why}. It sends:\n\n${shownToSend(sent)}\n\n`));
  // "No" and Ctrl-C alike: a person's answer at a prompt (exit 130), with what was kept and how to go on.
  const kept = `Nothing was sent; the draft ${entry.id} is still kept${ctx.advice ? `: \`${ctx.advice.send(entry.id)}\` sends it, \`${ctx.advice.drop(entry.id)}\` drops it.` : ''}`;
  let yes: boolean;
  try {
    yes = await ctx.prompter().confirm(askedHere(ctx, `Send the draft ${entry.id} as it is?`), { default: false });
  } catch (err) {
    throw err instanceof CancelledError ? new CancelledError(kept) : err;
  }
  if (!yes) throw new CancelledError(kept);
  return true;
}

/** Refused: the editor that has the draft is still open (checkin no longer watches it): its next save would change what was sent. */
export class EditorOpenError extends NeedsYesError {}

/** An entry whose editor is still open is not sent, with or without a yes: what it says may still change. */
function refuseWhileEditing(ctx: Context, entry: Entry, pid: number | undefined, doing: 'sent' | 'dropped' = 'sent'): void {
  if (pid === undefined) return;
  throw new EditorOpenError(
    `The draft ${entry.id} is still open in an editor (process ${pid}) that checkin no longer watches: it was not ${doing} and is still kept; save and close the editor first`,
    ...(ctx.advice && doing === 'sent' ? [terminal(`Then \`${ctx.advice.send(entry.id)}\` shows it whole and asks.`)] : []),
  );
}

/** After a send: other entries still waiting for the same target are said, never dropped. */
export function noteWaiting(ctx: Context, targets: DraftTarget | DraftTarget[], resume: string): void {
  const target = Array.isArray(targets) ? targets[0]! : targets;
  let left: Entry[];
  try {
    left = waitingFor(ctx, targets).here;
  } catch {
    return;
  }
  if (left.length === 0) return;
  const them = left.length === 1 ? 'it' : 'them';
  ctx.io.err(
    `note: ${left.length === 1 ? 'another draft' : `${left.length} other drafts`} for this ${targetNoun(target)} ${left.length === 1 ? 'is' : 'are'} still waiting: \`${ctx.advice ? ctx.advice.here(resume) : resume}\` sends ${them}${ctx.advice ? `, \`${ctx.advice.list()}\` shows ${them}` : ''}.\n`,
  );
}

/** What a target is, in a word or two. */
export function targetNoun(target: DraftTarget): string {
  switch (target.kind) {
    case 'check-in':
      return 'check-in';
    case 'comment':
      return target.on === 'check-in' ? 'check-in (comment)' : 'goal update (comment)';
    case 'goal-update':
      return 'goal (update)';
    case 'goal-update-edit':
      return 'goal update';
    case 'activity':
      return 'activity log';
    case 'goal':
      return 'new goal';
    case 'goal-edit':
      return 'goal';
    case 'echo-question':
      return 'echo question';
    case 'webhook-post':
      return 'webhook post';
  }
}

/** When an entry is, as a person reads it: "Wed 25 Nov 21:07". */
export function whenLabel(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return sanitizeLine(iso).slice(0, 40);
  return d.toLocaleString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).replace(',', '');
}

/**
 * The error when nothing waits for a target here: what another live checkin holds is said as that
 * (never as "no draft"), what waits for it elsewhere is named, with how to send it here.
 */
export function noneWaiting(ctx: Context, what: string, elsewhere: Entry[], busy: Entry[] = [], resume?: string): UsageError {
  if (elsewhere.length === 0 && busy.length > 0)
    return new UsageError(
      `${busy.length === 1 ? `The draft for ${what} is` : `The ${busy.length} drafts for ${what} are`} ${BUSY} right now; ${busy.length === 1 ? 'it was' : 'they were'} left to it`,
      ...(ctx.advice ? [terminal(`Look again with \`${ctx.advice.list()}\` once it has finished.`)] : []),
    );
  if (elsewhere.length === 0) return new UsageError(`There is no draft for ${what}`);
  const here = accountHere(ctx);
  const named = elsewhere.map((e) => `${e.id} (kept for ${accountLabel(e.account, here)} on ${whenLabel(e.created_at)})`).join(', ');
  // Kept under another profile: only that profile sends it, so that is what is said (never "here once you say yes").
  const profile = otherProfile(elsewhere[0]!.account, here);
  if (profile !== undefined)
    return new UsageError(
      `There is no draft for ${what} under the profile ${sanitizeLine(here.profile ?? '')}; ${elsewhere.length === 1 ? 'one was' : `${elsewhere.length} were`} kept under another: ${named}; nothing was sent`,
      ...(ctx.advice
        ? [terminal(`\`${ctx.advice.asProfile(resume ?? ctx.advice.send(elsewhere[0]!.id), sanitizeLine(profile))}\` sends it as that profile.`)]
        : []),
    );
  return new UsageError(
    `There is no draft for ${what} for this service; ${elsewhere.length === 1 ? 'one was' : `${elsewhere.length} were`} kept for another: ${named}`,
    ...(ctx.advice ? [terminal(`\`${ctx.advice.send(elsewhere[0]!.id)}\` sends it here once you say yes.`)] : []),
  );
}

/**
 * Sends what waits for a target, each entry once with its own claim, oldest first (the order they
 * were written); on a terminal with several waiting, the person picks. An entry left unsent (it
 * may already have reached the service, needs the person's yes, or another checkin holds it) is
 * said once, with its own reason: as a warning beside what was sent, or, when it was the only one
 * and nothing went, as the error itself. Returns what was sent, in order.
 */
export async function resumeEach<T>(
  ctx: Context,
  targets: DraftTarget | DraftTarget[],
  what: string,
  resume: string,
  send: (entry: Entry, keeping: Keeping & { entry: Entry }) => Promise<T>,
): Promise<Array<{ entry: Entry; result: T }>> {
  const { here, elsewhere, busy } = waitingFor(ctx, targets);
  if (here.length === 0) throw noneWaiting(ctx, what, elsewhere, busy, resume);
  if (busy.length > 0)
    ctx.io.err(
      `note: ${busy.length === 1 ? 'a draft' : `${busy.length} drafts`} for ${what} ${busy.length === 1 ? 'is' : 'are'} ${BUSY} right now; left to it.\n`,
    );
  // What the receiver refused for its words is not sent again as it is: said, with how to see it and send it by its id.
  const refused = here.filter((e) => e.refused);
  const open = here.filter((e) => !e.refused);
  for (const e of refused) ctx.io.err(`note: ${refusedLine(ctx, e)}\n`);
  if (open.length === 0)
    throw new CliError(
      `Nothing was sent: ${refused.length === 1 ? 'the draft' : `each of the ${refused.length} drafts`} for ${sanitizeLine(what)} was refused for its words (said above)`,
    );
  const chosen = open.length > 1 && ctx.io.canPrompt ? await pickEntries(ctx, open, what) : open;
  const out: Array<{ entry: Entry; result: T }> = [];
  const left: CliError[] = [];
  for (const entry of chosen) {
    const at = ctx.io.canPrompt ? undefined : ctx.drafts().maybeSent(entry);
    if (at) {
      left.push(new MaybeSentError(maybeSentLine(ctx, entry, whenLabel(at))));
      continue;
    }
    try {
      out.push({ entry, result: await send(entry, { entry, resume, quiet: true }) });
    } catch (err) {
      // Sent by another checkin meanwhile: done with. Being sent there, or maybe sent once held: left, said.
      if (err instanceof GoneError) {
        ctx.io.err(`note: ${err.message}\n`);
        continue;
      }
      if (!(err instanceof MaybeSentError || err instanceof ClaimedError || err instanceof NeedsYesError)) throw err;
      left.push(err);
    }
  }
  // The one left when nothing went is the error, its reason and advice whole; else each is a warning of its own.
  if (out.length === 0 && left.length === 1) throw left[0]!;
  for (const err of left) ctx.io.err(`warning: ${[err.message, ...err.hints.map(hintText)].join('\n')}\n`);
  if (out.length === 0 && left.length > 0)
    throw new CliError(`Nothing was sent: none of the ${left.length} drafts for ${what} could go, each for the reason above`);
  return out;
}

/** A kept entry the receiver refused for its words, in one line: when, what it said, and the commands that show it, send it again and drop it. */
export function refusedLine(ctx: Context, e: Entry): string {
  return `the draft ${e.id} was refused for its words on ${whenLabel(e.refused!.at)} (${sanitizeLine(e.refused!.why)}); it ${refusedAdvice(ctx, e)}`;
}

/** Which of several entries to send, asked on a terminal: all (oldest first), or one. */
export async function pickEntries(ctx: Context, entries: Entry[], what: string): Promise<Entry[]> {
  const first = (e: Entry) => firstWords(e.content);
  const choice = await ctx
    .prompter()
    .select<string>(`${entries.length} drafts wait for ${what}. Send which?`, [
      { name: `All ${entries.length}, oldest first`, value: '*' },
      ...entries.map((e) => ({ name: `${e.id} · ${whenLabel(e.created_at)} · ${sanitizeLine(first(e)).slice(0, 60)}`, value: e.id })),
    ]);
  return choice === '*' ? entries : entries.filter((e) => e.id === choice);
}

/** What the service answered for a sent entry: its object, by the kind of thing it is. */
/** A comment kept for someone's check-in on a day: "2026-11-26 @grace" → [day, person]; undefined for any other name. */
export function personDraft(id: string): [string, string] | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}|last) (.+)$/s.exec(id);
  return m ? [m[1]!, m[2]!] : undefined;
}

/**
 * Whether an entry knows what it was written over: its base is the target's `updated_at` as the
 * person (or the run) saw it, a time of the service's own, or "new" (nothing there). An entry kept
 * while the service could not be read has none; a base that is no time is none either.
 */
function seenBase(entry: Entry): boolean {
  return entry.base === 'new' || (entry.base !== undefined && !Number.isNaN(Date.parse(entry.base)));
}

/**
 * The one rule of "newer", wherever an entry kept earlier writes (a check-in, a goal update; both
 * faces): words the service saved at `updatedAt` may be newer than the entry when they were saved
 * after its base — two times of the service's own. Without a base (`seenBase`), or when the
 * service's time is none, any words there may be newer: this machine's clock is never compared
 * with the service's, so a clock ahead never writes over words unseen. Whether there are words the
 * entry would replace at all (there, not empty, not the entry's) is the caller's question.
 */
export function newerThan(entry: Entry, updatedAt: unknown): boolean {
  if (entry.base === 'new' || !seenBase(entry)) return true;
  const at = typeof updatedAt === 'string' ? Date.parse(updatedAt) : NaN;
  return Number.isNaN(at) || at > Date.parse(entry.base!);
}

/** Whether the service's time `savedAt` can be set against the entry's base: both are times of the service's own. */
export function timesCompare(entry: Entry, savedAt: string): boolean {
  return seenBase(entry) && !Number.isNaN(Date.parse(savedAt));
}

/**
 * Why words on the service count as newer than an entry, as both faces say it: saved after what it
 * was written over, or (no times to compare: kept without a base, or a base or a time that is none)
 * possibly newer: "The draft k7m2 was kept without seeing the check-in, so answers on the service
 * (saved Sun 6 Dec 09:41) may be newer than it".
 */
export function newerWhy(entry: Entry, o: { what: string; words: string; savedAt: string }): string {
  if (timesCompare(entry, o.savedAt))
    return `The draft ${entry.id} (${whenLabel(entry.created_at)}) would replace ${o.words} saved on the service later (${whenLabel(o.savedAt)})`;
  const why = entry.base === undefined ? `was kept without seeing ${o.what}` : `has no time to set against when ${o.what} was saved`;
  return `The draft ${entry.id} ${why}, so ${o.words} on the service (saved ${whenLabel(o.savedAt)}) may be newer than it`;
}

/**
 * Newer words on the service where an entry would write: without a terminal refused (kept, and said);
 * on one both are shown and the person chooses. Resolves 'mine' (send the entry) or 'edit' (open both
 * in the editor); "keep what is there" is a cancel, the entry kept.
 */
export async function askOverNewer(
  ctx: Context,
  entry: Entry,
  /** `theirs` and `mine` as shown, each with the line ends that follow it. */
  o: { what: string; words: string; target: DraftTarget; savedAt: string; theirs: string; mine: string },
): Promise<'mine' | 'edit'> {
  const kept = newerWhy(entry, o);
  if (!ctx.io.canPrompt)
    throw new CliError(
      `${kept}; it was not sent and is still kept`,
      EXIT.FAILURE,
      ...(ctx.advice
        ? [terminal(`At a terminal, \`${ctx.advice.resume(o.target)}\` shows both and asks; \`${ctx.advice.drop(entry.id)}\` drops the draft.`)]
        : []),
    );
  ctx.io.err(sanitize(`${kept}.\n\nOn the service now:\n${o.theirs}The draft:\n${o.mine}`));
  const keepsThere = `Nothing was sent; ${o.what} keeps what is there, and the draft ${entry.id} is still kept${ctx.advice ? ` (\`${ctx.advice.drop(entry.id)}\` drops it)` : ''}`;
  let choice: 'mine' | 'theirs' | 'edit';
  try {
    choice = await ctx.prompter().select<'mine' | 'theirs' | 'edit'>(`Which should ${o.what} hold?`, [
      { name: 'Send mine (the draft replaces what is there)', value: 'mine' },
      { name: 'Keep what is there (the draft stays kept)', value: 'theirs' },
      { name: 'Open both in the editor', value: 'edit' },
    ]);
  } catch (err) {
    // Ctrl-C at the question: as "keep what is there", said so.
    throw err instanceof CancelledError ? new CancelledError(keepsThere) : err;
  }
  if (choice === 'theirs') throw new CancelledError(keepsThere);
  return choice;
}

/** Newer words on the service where an entry would write: the check-in as it is now and the answers it holds that the entry would replace. */
export interface NewerAnswers {
  now: CheckIn;
  theirs: CheckInAnswers;
  /** The answers (by name) the entry would replace: there, not empty, and not the entry's. */
  replaced: AnswerField[];
}

/**
 * The one rule, wherever an entry is sent (a terminal's resume, `drafts send`, an agent's send): an
 * entry kept earlier never writes over newer words unseen. The check-in now (one GET, unless it is
 * known) against the entry's base (`newerThan`; without one, any answers it would replace may be
 * newer): undefined when nothing newer
 * would be replaced (or there is no check-in: the PATCH says what is wrong). Each face asks or
 * refuses in its own form: a terminal with `askOverNewer`, the agent face in the person's question.
 */
export async function newerAnswers(ctx: Context, key: string, entry: Entry, answers: CheckInAnswers, known?: CheckIn): Promise<NewerAnswers | undefined> {
  const now = await checkInNow(ctx, key, known);
  return now && newerIn(entry, answers, now);
}

/** The check-in as the service holds it now (one GET, unless it is known); undefined when there is none (the PATCH says what is wrong). */
export async function checkInNow(ctx: Context, key: string, known?: CheckIn): Promise<CheckIn | undefined> {
  try {
    return known ?? (await getCheckIn(await ctx.api(), key));
  } catch (err) {
    if (err instanceof ApiError && err.notFound) return undefined;
    throw err;
  }
}

/**
 * What of the service's words an entry would replace, by name: only those count — words there
 * (not empty) that differ from the entry's, and a yes or no there (did what was intended) that
 * differs from the entry's. The same words, or nothing there, are never newer.
 */
export function replacedBy<K extends string>(names: readonly K[], mine: Partial<Record<K, unknown>>, theirs: Partial<Record<K, unknown>>): K[] {
  return names.filter((k) => {
    const there = theirs[k];
    if (mine[k] === undefined || there === mine[k]) return false;
    return typeof there === 'boolean' || (typeof there === 'string' && there.trim() !== '');
  });
}

/** `newerAnswers` on a check-in already read: what of it, saved after the entry's base, the entry would replace. */
export function newerIn(entry: Entry, answers: CheckInAnswers, now: CheckIn): NewerAnswers | undefined {
  const theirs = answersOf(now);
  const replaced = replacedBy(ANSWER_NAMES, answers, theirs);
  if (replaced.length === 0 || !newerThan(entry, now.updated_at)) return undefined;
  return { now, theirs, replaced };
}

/**
 * A resume at a terminal never writes over newer words (`newerAnswers`): a terminal shows both and
 * asks (mine: undefined; theirs: refused, kept; the editor: what was written there); without one, refused.
 */
export async function guardNewer(ctx: Context, key: string, entry: Entry, answers: CheckInAnswers, known?: CheckIn): Promise<CheckInAnswers | undefined> {
  const newer = await newerAnswers(ctx, key, entry, answers, known);
  if (!newer) return undefined;
  const { now, theirs } = newer;
  const choice = await askOverNewer(ctx, entry, {
    what: 'the check-in',
    words: 'answers',
    target: { kind: 'check-in', key: now.date },
    savedAt: String(now.updated_at),
    theirs: `${buildTemplate(theirs, now.date)}\n`,
    mine: `${buildTemplate(answers, now.date)}\n`,
  });
  if (choice === 'mine') return undefined;
  const both = `${buildTemplate(answers, now.date)}\n<!-- On the service now (saved ${whenLabel(String(now.updated_at))}); take what you want from it:\n\n${buildTemplate(theirs, now.date).replace(/-->/g, '-- >')}\n-->\n`;
  const read = readTemplate(await editKept(ctx, { kind: 'check-in', key }, both));
  if (read.problems.length > 0)
    throw new UsageError(
      `What was written cannot be sent: ${read.problems.slice(0, 3).join('; ')}; it is kept as a draft`,
      ...(ctx.advice ? [terminal(`\`${ctx.advice.edit({ kind: 'check-in', key: now.date })}\` opens it again.`)] : []),
    );
  return read.answers;
}

/** A comment entry's words: as kept, or as written in the editor (its context comment taken out). */
export function commentBody(entry: Entry, { orEmpty = false }: { orEmpty?: boolean } = {}): string {
  const c = entry.content;
  const body = c.kind === 'comment' ? c.body : c.kind === 'text' ? withoutContext(c.text) : undefined;
  if (body === undefined || body.trim() === '') {
    if (orEmpty) return '';
    throw new UsageError(`The draft ${entry.id} holds no comment`);
  }
  return body;
}

/** What a target is, with its id: "a comment on the check-in 2026-11-25", "an activity". */
export const targetLabel = (t: DraftTarget): string => sanitizeLine(targetWords(t));

function targetWords(t: DraftTarget): string {
  switch (t.kind) {
    case 'check-in':
      return `the check-in ${t.key}`;
    case 'comment':
      return `a comment on the ${t.on} ${t.id}`;
    case 'goal-update':
      return `an update of the goal ${t.goalId}`;
    case 'goal-update-edit':
      return `changes to the goal update ${t.id}`;
    case 'activity':
      return 'an activity';
    case 'goal':
      return 'a new goal';
    case 'goal-edit':
      return `changes to the goal ${t.id}`;
    case 'echo-question':
      return 'an echo question';
    case 'webhook-post':
      return 'a post to a chat webhook';
  }
}
