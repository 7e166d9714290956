// The outbox: everything a person typed, piped or edited, kept on disk until the service accepted
// it. Each write is an entry of its own — its own id and file, the account it belongs to, its
// target, its content, when and how it was made — never a slot that the next write to the same
// target replaces:
//
// - an entry is created without replacing any file (a new name, linked into place), and only the
//   run that made it changes it afterwards (the wizard keeping each answer as it is given);
// - sending claims it first: `<id>.claim` made exclusively, naming the process. A live claim is
//   refused to every other process and call; the claim of a process that died is taken back. A
//   claim says when its request is on the way: taken back from a process that died then, the
//   entry's send may have reached the service, and `<id>.unknown` says so until a person decides;
//   the entry is never sent again on its own;
// - an entry is removed only by the holder of its claim, once the service accepted exactly it.
//
// Entries live in the drafts folder (<state>/drafts), or in the private temp folder when that
// cannot be written (paths.ts); drafts of earlier versions (one file per target, named by a hash)
// are turned into entries when the store is first read, none lost.

import { accessSync, constants, linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ActivityInput, CheckInAnswers, EchoQuestionInput, GoalInput, GoalUpdateInput } from '../api/types.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { fsReason, readRegularFile, syncDir, writeTemp } from './files.js';
import { normalizeApiUrl, sha256 } from './store.js';

/** What an entry is for, named canonically: a check-in by the date key or UUID in its path. */
export type DraftTarget =
  | { kind: 'check-in'; key: string }
  | { kind: 'comment'; on: 'check-in' | 'goal-update'; id: string }
  | { kind: 'goal-update'; goalId: string }
  | { kind: 'goal-update-edit'; id: string }
  | { kind: 'activity' }
  | { kind: 'goal' }
  | { kind: 'goal-edit'; id: string }
  | { kind: 'echo-question' };

/** What was typed. */
export type DraftContent =
  | { kind: 'answers'; answers: CheckInAnswers }
  | { kind: 'comment'; body: string }
  | { kind: 'goal-update'; input: GoalUpdateInput }
  | { kind: 'activity'; input: ActivityInput }
  | { kind: 'goal'; input: GoalInput }
  | { kind: 'echo-question'; input: EchoQuestionInput }
  /** Editor text kept exactly as written (e.g. when it could not be read as answers). */
  | { kind: 'text'; text: string };

/** How the words came: typed at the prompts, piped, from the editor, by an agent, from an earlier version's draft. */
export type Made = 'typed' | 'piped' | 'editor' | 'agent' | 'earlier';

/** Whose an entry is: the service (its API URL as normalised) and, once known, the person. */
export interface Account {
  api_url: string;
  person_id?: string;
  /** The start of the token's SHA-256, when the token was known without asking the keychain: tells two people apart before the service said who either is. */
  token?: string;
}

export interface Entry {
  checkin_outbox: 1;
  id: string;
  account: Account;
  target: DraftTarget;
  content: DraftContent;
  made: Made;
  created_at: string;
  saved_at: string;
  /**
   * While the person writes in the editor: the file it has open (beside the entry, `<id>.md`),
   * which holds the words as last saved — read in place of `content` until the editor is closed.
   */
  editing?: { file: string; pid: number; shown: string };
}

/** A claim on an entry: held while it is sent; released on every path. */
export interface Claim {
  readonly entry: Entry;
  /** Says the request is on its way (a create that may reach the service). */
  sending(): void;
  /** The service accepted exactly this entry: it is removed, then the claim released. */
  done(): void;
  /** The send may have reached the service without an answer: said beside the entry, which stays. */
  unknown(at: Date): void;
  release(): void;
}

/** Another process (or call) is sending this entry now. */
export class ClaimedError extends CliError {}

/** The entry is no longer there: sent or dropped by another process (or call) meanwhile. */
export class GoneError extends UsageError {}

interface ClaimFile {
  pid: number;
  token: string;
  at: string;
  sending?: string;
}

/** The canonical name of a target ("comment check-in 2026-11-25"). */
export function targetId(t: DraftTarget): string {
  switch (t.kind) {
    case 'check-in':
      return `check-in ${t.key.toLowerCase()}`;
    case 'comment':
      return `comment ${t.on} ${t.id.toLowerCase()}`;
    case 'goal-update':
      return `goal-update ${t.goalId.toLowerCase()}`;
    case 'goal-update-edit':
      return `goal-update-edit ${t.id.toLowerCase()}`;
    case 'activity':
    case 'goal':
    case 'echo-question':
      return t.kind;
    case 'goal-edit':
      return `goal-edit ${t.id.toLowerCase()}`;
  }
}

export const sameTarget = (a: DraftTarget, b: DraftTarget): boolean => targetId(a) === targetId(b);

/** Entry ids: lowercase letters and digits, easy to type and to tell apart. */
const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ID_RE = /^[a-z0-9]{4,32}$/;
/** A moment as checkin writes one (anything else in a file is not repeated to a terminal). */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const ENTRY_FILE = /^([a-z0-9]{4,32})\.json$/;
/** A draft of an earlier version: one per target, named by a hash of its key. */
const OLD_FILE = /^[0-9a-f]{32}\.json(\.replaced-\d+(-\d+)?)?$/;
/** An earlier version's draft being moved in (by the process named), under its name while moving. */
const MOVING_FILE = /^([0-9a-f]{32}\.json(?:\.replaced-\d+(?:-\d+)?)?)\.moving-(\d+)-[a-z0-9]+$/;
/** An entry file is small; anything bigger (or not a regular file) is not read. */
// 16 MiB of standard input can take six times that as JSON (a control character is \u0000).
const MAX_ENTRY_BYTES = 112 * 1024 * 1024;

function newId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += ID_ALPHABET[Math.floor(Math.random() * ID_ALPHABET.length)];
  return id;
}

const str = (v: unknown): v is string => typeof v === 'string';
const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a value is a target of one of the kinds, with the fields its kind needs (a file is data: anything may be in it). */
export function isTarget(t: unknown): t is DraftTarget {
  if (!obj(t)) return false;
  switch (t.kind) {
    case 'check-in':
      return str(t.key) && t.key !== '';
    case 'comment':
      return (t.on === 'check-in' || t.on === 'goal-update') && str(t.id) && t.id !== '';
    case 'goal-update':
      return str(t.goalId) && t.goalId !== '';
    case 'goal-update-edit':
    case 'goal-edit':
      return str(t.id) && t.id !== '';
    case 'activity':
    case 'goal':
    case 'echo-question':
      return true;
    default:
      return false;
  }
}

function isContent(c: unknown): c is DraftContent {
  if (!obj(c)) return false;
  switch (c.kind) {
    case 'answers':
      return obj(c.answers);
    case 'comment':
      return str(c.body);
    case 'text':
      return str(c.text);
    case 'activity':
      return obj(c.input) && str(c.input.description);
    case 'echo-question':
      return obj(c.input) && str(c.input.prompt);
    case 'goal-update':
    case 'goal':
      return obj(c.input);
    default:
      return false;
  }
}

function isEntry(v: unknown): v is Entry {
  if (!obj(v)) return false;
  const e = v as Partial<Entry> & Record<string, unknown>;
  const a = e.account as unknown;
  return (
    e.checkin_outbox === 1 &&
    str(e.id) &&
    obj(a) &&
    str(a.api_url) &&
    (a.person_id === undefined || str(a.person_id)) &&
    (a.token === undefined || str(a.token)) &&
    isTarget(e.target) &&
    isContent(e.content) &&
    str(e.created_at) &&
    (e.saved_at === undefined || str(e.saved_at)) &&
    (e.editing === undefined || (obj(e.editing) && typeof (e.editing as { pid?: unknown }).pid === 'number'))
  );
}

/** A draft as earlier versions kept it. */
interface OldDraft {
  api_url: string;
  target: DraftTarget;
  content: DraftContent;
  saved_at: string;
}

function isOldDraft(v: unknown): v is OldDraft {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Partial<OldDraft>;
  return typeof d.api_url === 'string' && isTarget(d.target) && isContent(d.content);
}

/** Whether a process is alive (signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface OutboxPlaces {
  /** Read too, never written: where earlier versions kept drafts (their files are moved in). */
  legacy?: string;
  /** Where an entry goes when the folder cannot be written (made on first use), or undefined when there is none. */
  fallback?: (opts: { create: boolean }) => string | undefined;
}

/** The claims this process holds, by token: a claim file naming this pid but not one of these was left by an earlier process. */
const held = new Set<string>();

export class Outbox {
  private unwritable = false;
  private readonly unremovable = new Set<string>();
  /** The entries this run made and still keeps, by id, with the folder each is in. */
  private readonly own = new Map<string, { entry: Entry; dir: string; hold?: Claim }>();
  private converted = false;

  constructor(
    readonly dir: string,
    /** Told of what was set aside or could not be read (one line). */
    private readonly warn: (message: string) => void = () => undefined,
    private readonly places: OutboxPlaces = {},
  ) {}

  /** Every folder an entry may be in, the drafts folder first. */
  private dirs(): string[] {
    const fallback = this.places.fallback?.({ create: false });
    return [this.dir, ...(fallback && fallback !== this.dir ? [fallback] : [])];
  }

  private entryFile(dir: string, id: string): string {
    return join(dir, `${id}.json`);
  }

  /** An entry file's content, or undefined when it is missing or is no entry (said once, set aside). */
  private read(file: string): Entry | undefined {
    let text: string;
    try {
      text = readRegularFile(file, MAX_ENTRY_BYTES);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.warn(`cannot read the draft ${file}: ${fsReason(err)}`);
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (isEntry(parsed)) return this.withEditorText(file, parsed);
    // Never renamed over one set aside before (the same id damaged again within the millisecond).
    const stamp = Date.now();
    let aside = `${file}.damaged-${stamp}`;
    for (let n = 1; this.exists(aside); n++) aside = `${file}.damaged-${stamp}-${n}`;
    try {
      renameSync(file, aside);
      this.warn(`the draft ${file} was damaged; it was set aside as ${aside}`);
    } catch (err) {
      this.warn(`the draft ${file} is damaged and could not be set aside: ${(err as Error).message}`);
    }
    return undefined;
  }

  /**
   * An entry being written in the editor holds what its file (`<id>.md`, beside it) says as last
   * saved: a closed terminal, a stop signal or a killed checkin leaves it there, and an editor that
   * outlived checkin (a window of its own) may still be writing in it. Never removed from here.
   */
  private withEditorText(file: string, e: Entry): Entry {
    if (!e.editing) return e;
    let text: string;
    try {
      text = readRegularFile(join(dirname(file), basename(file).replace(/\.json$/, '.md')), MAX_ENTRY_BYTES);
    } catch {
      return e;
    }
    return { ...e, content: { kind: 'text', text } };
  }

  /** Every readable entry, oldest first. */
  list(): Entry[] {
    this.convertOld();
    const byId = new Map<string, Entry>();
    for (const dir of this.dirs()) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const n of names) {
        const m = ENTRY_FILE.exec(n);
        // A 32-hex name is an earlier version's draft (convertOld's), never an entry to set aside.
        if (!m || OLD_FILE.test(n) || byId.has(m[1]!)) continue;
        const e = this.read(join(dir, n));
        if (e && e.id === m[1]) byId.set(e.id, e);
        else if (e) this.warn(`the draft ${join(dir, n)} names another id (${JSON.stringify(e.id).slice(0, 40)}); it is left out`);
      }
    }
    return [...byId.values()].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  }

  /** The entry with this id, or the one whose id starts so; a prefix of several is refused. */
  find(id: string): Entry | undefined {
    const want = id.trim().toLowerCase();
    if (!ID_RE.test(want)) return undefined;
    const all = this.list();
    const exact = all.find((e) => e.id === want);
    if (exact) return exact;
    const some = all.filter((e) => e.id.startsWith(want));
    if (some.length > 1) throw new UsageError(`${id} is the start of ${some.length} drafts' ids (${some.map((e) => e.id).join(', ')}); give more of it`);
    return some[0];
  }

  /** Writes a new entry under a name nothing has; throws the file system's error. */
  private create(dir: string, entry: Entry): Entry {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (let n = 0; ; n++) {
      const e = n === 0 ? entry : { ...entry, id: newId() };
      const file = this.entryFile(dir, e.id);
      const temp = writeTemp(file, JSON.stringify(e, null, 2) + '\n');
      try {
        linkSync(temp, file);
        syncDir(dir);
        return e;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' && n < 20) continue;
        if (code === 'EEXIST') throw err;
        // No hard links here (some network and FUSE file systems): a rename, when nothing is there.
        if (this.exists(file)) continue;
        renameSync(temp, file);
        syncDir(dir);
        return e;
      } finally {
        rmSync(temp, { force: true });
      }
    }
  }

  private exists(file: string): boolean {
    try {
      return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  }

  /**
   * Keeps a new entry, in the drafts folder or, when that cannot be written, in the private temp
   * folder (saying so, once); throws a CliError naming the folder when neither can be written.
   */
  add(account: Account, target: DraftTarget, content: DraftContent, made: Made, now: Date, { hold = true }: { hold?: boolean } = {}): Entry {
    const at = now.toISOString();
    const fresh: Entry = { checkin_outbox: 1, id: newId(), account: { ...account, api_url: normalizeApiUrl(account.api_url) }, target, content, made, created_at: at, saved_at: at };
    const { entry, dir } = this.write((d) => this.create(d, fresh));
    this.own.set(entry.id, { entry, dir });
    // Held by this run from the start (while it is written and until its send is over): another
    // process's --resume leaves it alone rather than sending words that are still being written.
    if (hold) {
      try {
        this.claim(entry);
      } catch {
        // not held: it is kept all the same
      }
    }
    return entry;
  }

  /** The claim on an entry: this run's hold on its own, else a new claim (see claim). */
  take(entry: Entry): Claim {
    return this.own.get(entry.id)?.hold ?? this.claim(entry);
  }

  /** Lets go of every entry this run holds (at its end): what was not sent waits for the next run. */
  releaseHolds(): void {
    for (const o of [...this.own.values()]) o.hold?.release();
  }

  /** Whether another live process (or call) holds the entry: it is being written or sent there. */
  busyElsewhere(entry: Entry): { pid: number; since: string } | undefined {
    if (this.own.get(entry.id)?.hold) return undefined;
    return this.sender(entry);
  }

  /** Changes an entry this run made (its content as it grows, its target once known); never another's. */
  update(entry: Entry, change: Partial<Pick<Entry, 'target' | 'content' | 'account'>>, now: Date): Entry {
    const mine = this.own.get(entry.id);
    if (!mine) throw new Error(`the draft ${entry.id} was not made by this run: it is not changed`);
    const next: Entry = { ...mine.entry, ...change, saved_at: now.toISOString() };
    if (change.account) next.account = { ...change.account, api_url: normalizeApiUrl(change.account.api_url) };
    // New words are flushed to disk before anything goes on; whose they are (the person, learnt
    // later) is metadata the words do not depend on.
    this.rewrite(mine.dir, next, { sync: change.content !== undefined || change.target !== undefined });
    return next;
  }

  /**
   * Opens an entry this run made for the editor: `text` goes into its file (`<id>.md` beside it),
   * which the editor then writes in. Returns the file's path.
   */
  startEditing(entry: Entry, text: string, now: Date): { entry: Entry; file: string } {
    const mine = this.own.get(entry.id);
    if (!mine) throw new Error(`the draft ${entry.id} was not made by this run`);
    const name = `${entry.id}.md`;
    const file = join(mine.dir, name);
    try {
      const temp = writeTemp(file, text);
      try {
        renameSync(temp, file);
      } finally {
        rmSync(temp, { force: true });
      }
    } catch (err) {
      throw new CliError(`Cannot keep the editor's file in ${mine.dir} (${fsReason(err)})`);
    }
    const withEditing: Entry = { ...mine.entry, editing: { file: name, pid: process.pid, shown: sha256(text) }, saved_at: now.toISOString() };
    this.rewrite(mine.dir, withEditing);
    return { entry: withEditing, file };
  }

  /** The editor was closed: the entry holds `text` (what was saved), and its file is removed. */
  stopEditing(entry: Entry, text: string, now: Date): Entry {
    const mine = this.own.get(entry.id);
    if (!mine) throw new Error(`the draft ${entry.id} was not made by this run`);
    const { editing, ...rest } = mine.entry;
    const next: Entry = { ...rest, content: { kind: 'text', text }, saved_at: now.toISOString() };
    this.rewrite(mine.dir, next);
    if (editing) this.removeFile(join(mine.dir, editing.file));
    return next;
  }

  private rewrite(dir: string, next: Entry, { sync = true }: { sync?: boolean } = {}): void {
    const file = this.entryFile(dir, next.id);
    // Changed only while held: once its hold was let go (a failed send), another process may be
    // sending it; then it is taken back first, or refused (and the caller keeps a new entry).
    const mine = this.own.get(next.id);
    if (mine && !mine.hold) this.claim(mine.entry);
    try {
      const temp = writeTemp(file, JSON.stringify(next, null, 2) + '\n', { sync });
      try {
        renameSync(temp, file);
      } finally {
        rmSync(temp, { force: true });
      }
      if (sync) syncDir(dir);
    } catch (err) {
      throw new CliError(`Cannot keep the draft in ${dir} (${fsReason(err)})`);
    }
    const held = this.own.get(next.id)?.hold;
    this.own.set(next.id, { entry: next, dir, ...(held && { hold: held }) });
  }

  /** Runs `write` in the drafts folder, else in the fallback folder (saying so once). */
  private write(write: (dir: string) => Entry): { entry: Entry; dir: string } {
    try {
      return { entry: write(this.dir), dir: this.dir };
    } catch (err) {
      const why = `Cannot keep a draft in ${this.dir} (${fsReason(err)})`;
      const fallback = this.places.fallback?.({ create: true });
      if (fallback) {
        try {
          const entry = write(fallback);
          if (!this.unwritable) this.warn(`${why}; it is kept in ${fallback} instead`);
          this.unwritable = true;
          return { entry, dir: fallback };
        } catch {
          // below: no draft at all
        }
      }
      if (!this.unwritable) this.warn(`${why}; going on without one`);
      this.unwritable = true;
      throw new CliError(why);
    }
  }

  /** The folder an entry's files are in (undefined when it is gone). */
  private dirOf(entry: Entry): string | undefined {
    const mine = this.own.get(entry.id);
    if (mine) return mine.dir;
    return this.dirs().find((d) => this.exists(this.entryFile(d, entry.id)));
  }

  /**
   * Takes an entry for sending (or for dropping): refused with a ClaimedError while another live
   * process or call holds it; the claim of a process that died is taken back (and when that
   * process's request was on its way, the entry is marked as maybe sent).
   */
  claim(entry: Entry): Claim {
    const dir = this.dirOf(entry);
    if (!dir) throw new GoneError(`The draft ${entry.id} is gone (sent or dropped by another checkin)`);
    const file = join(dir, `${entry.id}.claim`);
    const mine: ClaimFile = { pid: process.pid, token: `${process.pid}-${newId()}`, at: new Date().toISOString() };
    for (let tries = 0; ; tries++) {
      try {
        writeFileSync(file, JSON.stringify(mine) + '\n', { flag: 'wx', mode: 0o600 });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries >= 5) throw new CliError(`Cannot claim the draft ${entry.id} for sending (${fsReason(err)}); it was not sent`);
      }
      const holder = this.readClaim(file);
      if (holder && this.holderAlive(holder)) {
        throw new ClaimedError(
          `The draft ${entry.id} is being written or sent by another checkin (process ${holder.pid}, since ${ISO.test(String(holder.at)) ? holder.at : 'an unknown time'}); it was not sent again`,
          EXIT.FAILURE,
          `When no checkin is running, that claim was left by one that is gone (its process number now names another program): remove ${file} and try again.`,
        );
      }
      this.takeBack(file, entry, holder);
    }
    // Gone meanwhile (sent by the one whose claim was just taken back, or dropped)? Then nothing to send.
    if (!this.exists(this.entryFile(dir, entry.id))) {
      rmSync(file, { force: true });
      throw new GoneError(`The draft ${entry.id} is gone (sent or dropped by another checkin)`);
    }
    held.add(mine.token);
    let released = false;
    /** Set when the claim file is all that says a send may have gone out: then it is not removed. */
    let keepFile = false;
    const release = () => {
      if (released) return;
      released = true;
      held.delete(mine.token);
      const o = this.own.get(entry.id);
      if (o?.hold === claim) o.hold = undefined;
      const now = this.readClaim(file);
      if (now?.token === mine.token && !keepFile) rmSync(file, { force: true, recursive: true });
    };
    const claim: Claim = {
      entry,
      sending: () => {
        mine.sending = new Date().toISOString();
        // Not flushed: it matters only while this process lives or after it died, not after a crash of the machine.
        const temp = writeTemp(file, JSON.stringify(mine) + '\n', { sync: false });
        try {
          renameSync(temp, file);
        } finally {
          rmSync(temp, { force: true });
        }
      },
      done: () => {
        // Accepted: removed. One that cannot be removed must not go out again: it is marked maybe sent.
        if (!this.removeFile(this.entryFile(dir, entry.id))) {
          keepFile = !this.markMaybeSent(dir, entry.id, new Date().toISOString());
          release();
          return;
        }
        rmSync(join(dir, `${entry.id}.unknown`), { force: true, recursive: true });
        rmSync(join(dir, `${entry.id}.md`), { force: true, recursive: true });
        this.own.delete(entry.id);
        release();
      },
      unknown: (at) => {
        // Not written (a full disk): the claim file, which says `sending`, stays as the record.
        keepFile = !this.markMaybeSent(dir, entry.id, at.toISOString());
        release();
      },
      release,
    };
    const o = this.own.get(entry.id);
    if (o && !o.hold) o.hold = claim;
    return claim;
  }

  private readClaim(file: string): ClaimFile | undefined {
    try {
      const v = JSON.parse(readRegularFile(file, 4096)) as Partial<ClaimFile>;
      return typeof v.pid === 'number' && typeof v.token === 'string' ? (v as ClaimFile) : undefined;
    } catch {
      return undefined;
    }
  }

  private holderAlive(c: ClaimFile): boolean {
    if (c.pid === process.pid) return held.has(c.token);
    return alive(c.pid);
  }

  /**
   * Marks an entry as maybe sent (`<id>.unknown`, holding when): written beside and renamed into
   * place, so whatever is at that name (a FIFO…) is replaced, never opened. True when it is there.
   */
  private markMaybeSent(dir: string, id: string, at: string): boolean {
    const marker = join(dir, `${id}.unknown`);
    try {
      const temp = writeTemp(marker, JSON.stringify({ at }) + '\n');
      try {
        renameSync(temp, marker);
      } finally {
        rmSync(temp, { force: true });
      }
      return true;
    } catch {
      return false;
    }
  }

  /** Takes back a dead process's claim: moved aside atomically (one taker wins), then looked at. */
  private takeBack(file: string, entry: Entry, seen: ClaimFile | undefined): void {
    const aside = `${file}.${process.pid}-${newId()}`;
    try {
      renameSync(file, aside);
    } catch {
      return; // released or taken back by another meanwhile
    }
    const took = this.readClaim(aside);
    if (took && seen && took.token !== seen.token && this.holderAlive(took)) {
      // A live claim made since it was read: put back.
      try {
        linkSync(aside, file);
      } catch {
        // another claim is there already: that one stands
      }
      rmSync(aside, { force: true, recursive: true });
      return;
    }
    if (took?.sending) {
      const dir = dirname(file);
      if (!this.maybeSent(entry) && !this.markMaybeSent(dir, entry.id, took.sending)) {
        // What the dead sender's claim says cannot be written down: the claim stays, so the entry stays unsent.
        try {
          linkSync(aside, file);
        } catch {
          // another claim is there already: that one stands
        }
        rmSync(aside, { force: true, recursive: true });
        throw new CliError(`The draft ${entry.id} may have reached the service, and that cannot be recorded in ${dir}; it was not sent again`);
      }
      this.warn(`the draft ${entry.id} was being sent by a checkin that stopped (process ${took.pid}) before the service answered: it may have reached the service`);
    }
    rmSync(aside, { force: true, recursive: true });
  }

  /** The live process sending this entry now, if one is. */
  sender(entry: Entry): { pid: number; since: string } | undefined {
    const dir = this.dirOf(entry);
    if (!dir) return undefined;
    const c = this.readClaim(join(dir, `${entry.id}.claim`));
    return c && this.holderAlive(c) ? { pid: c.pid, since: c.at } : undefined;
  }

  /** When a send of this entry may have reached the service without an answer, the moment it was sent. */
  maybeSent(entry: Entry): string | undefined {
    const dir = this.dirOf(entry);
    if (!dir) return undefined;
    try {
      const v = JSON.parse(readRegularFile(join(dir, `${entry.id}.unknown`), 4096)) as { at?: unknown };
      return typeof v.at === 'string' ? v.at : 'an unknown time';
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? undefined : 'an unknown time';
    }
  }

  /** Removes a file if it is there; one that cannot be removed is said (once), and stays (false). */
  private removeFile(file: string): boolean {
    try {
      rmSync(file, { force: true });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return true;
      if (!this.unremovable.has(file)) {
        this.unremovable.add(file);
        this.warn(`the draft ${file} could not be removed (${fsReason(err)})`);
      }
      return false;
    }
  }

  /** What this run made and still keeps, the latest last. */
  keptThisRun(): Entry[] {
    return [...this.own.values()].map((o) => o.entry);
  }

  /**
   * Turns the drafts of earlier versions (one file per target, and the copies kept aside when one
   * was replaced) into entries. Each becomes an entry whose id is made from its file's name and
   * content, so a second run (or two at once) makes it once; the old file goes only after.
   */
  private convertOld(): void {
    if (this.converted) return;
    this.converted = true;
    const sources = [this.dir, ...(this.places.legacy ? [this.places.legacy] : []), ...this.dirs().slice(1)];
    for (const from of sources) {
      let names: string[];
      try {
        names = readdirSync(from).filter((n) => OLD_FILE.test(n) || MOVING_FILE.test(n));
      } catch {
        continue;
      }
      // An old file that cannot be removed is not copied: the copy, once sent, would leave the
      // original to be moved in and sent again by the next run.
      if (names.length > 0) {
        try {
          accessSync(from, constants.W_OK | constants.X_OK);
        } catch (err) {
          this.warn(`the drafts of an earlier version in ${from} cannot be moved into ${this.dir} (${fsReason(err)}); they are left where they are`);
          continue;
        }
      }
      for (const found of names) {
        // Taken first by renaming it aside (one run wins; a run that read it before another took
        // it finds nothing): never made into an entry twice, even by a run that stalls.
        const moving = MOVING_FILE.exec(found);
        if (moving && alive(Number(moving[2]))) continue; // another run is moving it now
        const name = moving ? moving[1]! : found;
        const file = join(from, name);
        const taken = `${file}.moving-${process.pid}-${newId()}`;
        try {
          renameSync(join(from, found), taken);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.warn(`the draft ${file} of an earlier version cannot be moved into ${this.dir} (${fsReason(err)}); it is left where it is`);
          continue;
        }
        const putBack = () => {
          try {
            renameSync(taken, file);
          } catch {
            // left under its moving name: the next run takes it from there
          }
        };
        let text: string;
        try {
          text = readRegularFile(taken, MAX_ENTRY_BYTES);
        } catch (err) {
          this.warn(`cannot read the draft ${file}: ${fsReason(err)}`);
          putBack();
          continue;
        }
        let old: unknown;
        try {
          old = JSON.parse(text);
        } catch {
          old = undefined;
        }
        if (!isOldDraft(old)) {
          putBack(); // left where it is: nothing here reads it, nothing removes it
          continue;
        }
        const saved = typeof old.saved_at === 'string' ? old.saved_at : new Date(0).toISOString();
        let id = '';
        const hash = sha256(`${name}\n${text}`);
        for (let i = 0; i < 10; i++) id += ID_ALPHABET[parseInt(hash.slice(i * 2, i * 2 + 2), 16) % ID_ALPHABET.length];
        const entry: Entry = { checkin_outbox: 1, id, account: { api_url: normalizeApiUrl(old.api_url) }, target: old.target, content: old.content, made: 'earlier', created_at: saved, saved_at: saved };
        try {
          mkdirSync(this.dir, { recursive: true, mode: 0o700 });
          const dest = this.entryFile(this.dir, id);
          const temp = writeTemp(dest, JSON.stringify(entry, null, 2) + '\n');
          try {
            linkSync(temp, dest);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EEXIST' && !this.exists(dest)) renameSync(temp, dest);
          } finally {
            rmSync(temp, { force: true });
          }
          syncDir(this.dir);
          rmSync(taken, { force: true });
        } catch (err) {
          putBack();
          this.warn(`the draft ${file} of an earlier version could not be moved into ${this.dir} (${fsReason(err)}); it is left where it is`);
        }
      }
    }
  }
}
