// The outbox: everything a person typed, piped or edited, kept until the service accepted it. One
// SQLite database (node:sqlite, WAL, a bounded busy timeout), `outbox.db` in the drafts folder
// (<state>/drafts, 0700; the file 0600), each entry a row of its own — never a slot that the next
// write to the same target replaces:
//
// - an entry is inserted whole, and only the run that made it changes it afterwards;
// - sending claims it: one transaction (BEGIN IMMEDIATE … UPDATE … WHERE state = 'kept') that
//   succeeds for exactly one process or call, the claim born complete (pid, the process's start
//   time and pid namespace, a token, a lease renewed while it is held). A claimant of this pid
//   namespace is alive when its pid runs *and* started when the claim says (a pid reused by another
//   program is not the claimant); one of another namespace (a container sharing the home) is alive
//   while its lease lasts. Every later change of the entry names the claim's token and fails when
//   no row changed: a holder whose claim was taken back sends nothing. A dead claimant whose
//   request was on its way leaves the entry "may have been sent" (`maybe_at`): only the person's
//   yes clears it, by a send or a drop; a state this build does not know is never sent;
// - an entry is removed only by the holder of its claim, once the service accepted exactly it;
//   when its row cannot be removed (a full disk), it is marked 'sent', or when nothing can be
//   written there, an empty `<id>.sent` file beside it says so: never again shown as waiting or
//   as "may have been sent", and removed at the next open;
// - a look (a list, `checkin status`) waits at most a second for another process's lock and then
//   says the database is busy, never that nothing waits; a damaged database (not one, or damaged
//   inside) is set aside whole (never deleted), the rows that can still be read kept in a new one.
//
// node:sqlite is loaded on first use only: commands that write nothing never open the database.
// Entries 0.1.0 kept as files (`<id>.json` with `.claim`, `.unknown`, `.md`; and the one-per-target
// drafts of earlier builds) move in at first use, each once (an `imported` row), none lost.

import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DatabaseSync } from 'node:sqlite';
import type { BodyContent } from '../api/types.js';
import { CliError, EXIT, terminal, UsageError } from '../errors.js';
import { fsReason, readRegularFile, syncDir, writeDurably } from './files.js';
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
  | { kind: 'echo-question' }
  /**
   * The week posted to a chat's incoming webhook (domain/webhook.ts): `hook` is the webhook's fingerprint, never its URL; `period`, what the post covers (its --if-new marker once it is accepted);
   * `given`: its URL was given for the run alone (not the profile's, nor CHECKIN_WEBHOOK), and no URL is kept here: what sends it again must be given it again.
   */
  | { kind: 'webhook-post'; hook: string; period?: { since: string; until: string; newest: string }; given?: true };

/** What was typed. */
export type DraftContent = BodyContent;

/** How the words came: typed at the prompts, given as flags, piped, from the editor, by an agent, from an earlier build's draft. */
export type Made = 'typed' | 'flag' | 'piped' | 'editor' | 'agent' | 'earlier';

/** Whose an entry is: the service (its API URL as normalised) and, once known, the person. */
export interface Account {
  api_url: string;
  person_id?: string;
  /** The start of the token's SHA-256, when the token was known without asking the keychain: tells two people apart before the service said who either is. */
  token?: string;
  /** The profile it was kept under (config/profiles.ts); absent in an entry kept before profiles, which is matched by the rest as before. */
  profile?: string;
}

export interface Entry {
  id: string;
  account: Account;
  target: DraftTarget;
  content: DraftContent;
  made: Made;
  /** When it was typed. */
  created_at: string;
  saved_at: string;
  /** The target's `updated_at` as the person last saw it, "new" when there was nothing; unset when unknown. */
  base?: string;
  /** Kept for the machine's date, the person's zone not known yet: it is for the person's date at `created_at`. */
  day_guessed?: true;
  /** Saved by an editor checkin no longer watched, after the entry it was opened for was sent: asked before it is sent. */
  unwatched?: true;
  /**
   * The receiver refused exactly these words (an answer saying so: domain/webhook.ts WORDS_REFUSED; the content,
   * not the moment), when and what it said: kept, never lost, but a resume leaves it (it would be
   * refused again); sent again only by its id, on the person's word. Cleared when its words change.
   */
  refused?: { at: string; why: string };
  /** While (or since) the person wrote in the editor: its file (`<id>.md` beside the database), which is the entry's text. */
  editing?: {
    file: string;
    pid: number;
    start?: string;
    shown: string;
    /** The editor's process (the shell that runs the editor command and lives as long as it): while it runs, the file may change. */
    editor?: { pid: number; start?: string };
  };
}

/** A claim on an entry: held while it is sent; released on every path. */
export interface Claim {
  readonly entry: Entry;
  /** Says the request is on its way (a create that may reach the service). */
  sending(): void;
  /** The service accepted exactly this entry: it is removed, then the claim released. */
  done(): void;
  /** The send may have reached the service without an answer: said in its row, which stays. */
  unknown(at: Date): void;
  /** The receiver refused exactly these words (WordsRefusedError): said in its entry (`refused`), which stays, and the claim released. */
  refused(at: Date, why: string): void;
  /** Says the claim still holds before a request that is not a create; throws a LostClaimError when it does not. */
  check(): void;
  release(): void;
}

/** What the outbox knows of an entry before it is sent (`Outbox.standing`). */
export interface Standing {
  /** The editor still open on it that checkin no longer watches: its process. */
  editorOpen?: number;
  /** When a send of it may have reached the service without an answer. */
  maybeSent?: string;
  /** Written in an editor checkin no longer watched: its file may hold words no one has seen sent. */
  editedUnwatched: boolean;
}

/** Another process (or call) is sending this entry now. */
export class ClaimedError extends CliError {}

/** The receiver answered that it will not take these words (domain/webhook.ts WORDS_REFUSED: a 400, 413 or 422): sending them again as they are would be refused again. */
export class WordsRefusedError extends CliError {}

/** This run's claim was taken back by another checkin (its lease ran out): nothing more is sent or changed here. */
export class LostClaimError extends ClaimedError {}

/** An entry in a state this build does not know (a newer checkin's): listed, never sent. */
export class UnknownStateError extends ClaimedError {}

/** The entry is no longer there: sent or dropped by another process (or call) meanwhile. */
export class GoneError extends UsageError {}

/** The one wording for an entry another live checkin holds. */
export const BUSY = 'being written or sent by another checkin';

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
    case 'webhook-post':
      return `webhook-post ${t.hook.toLowerCase()}`;
  }
}

/** Whether sending to this target makes something new on the service (a POST): a send that may not be repeated unasked. */
export function creates(target: DraftTarget): boolean {
  return (
    target.kind === 'comment' ||
    target.kind === 'goal-update' ||
    target.kind === 'activity' ||
    target.kind === 'goal' ||
    target.kind === 'echo-question' ||
    target.kind === 'webhook-post'
  );
}

export const sameTarget = (a: DraftTarget, b: DraftTarget): boolean => targetId(a) === targetId(b);

/** Entry ids: lowercase letters and digits, easy to type and to tell apart. */
const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ID_RE = /^[a-z0-9]{4,32}$/;
/** 0.1.0's entry files, and the drafts of builds before it (one per target, named by a hash; some being moved in). */
const ENTRY_FILE = /^([a-z0-9]{4,32})\.json$/;
const OLD_FILE = /^([0-9a-f]{32}\.json(?:\.replaced-\d+(?:-\d+)?)?)(?:\.moving-(\d+)-[a-z0-9]+)?$/;
// 16 MiB of standard input can take six times that as JSON (a control character is \u0000).
const MAX_ENTRY_BYTES = 112 * 1024 * 1024;
const DB_FILE = 'outbox.db';
/** How long a write waits for another process's transaction (they take milliseconds). */
const BUSY_MS = 10_000;
/** How long a look (a list, `checkin status` in a shell prompt) waits before saying the database is busy. */
const READ_BUSY_MS = 1_000;
/** The log's pages before a commit checkpoints it (two fsyncs then); a run's write adds about eight, and each run's first open reads the log through. */
const WAL_PAGES = 100;
/** A sent entry whose row could not be removed nor marked (the database could not be written): an empty file `<id>.sent` beside it says so. */
const SENT_MARK = /^([a-z0-9]{4,32})\.sent$/;
/** How long a sent entry written in an editor is remembered, for a save its editor makes after the send. */
const EDITED_DAYS = 7;
const isBusy = (err: unknown): boolean => /busy|locked/i.test(String((err as Error | undefined)?.message));
/** SQLite's words for a file that is not (or no longer) a database it can read. */
/** Whether SQLite's error says its database is damaged (not one, or damaged inside). */
export const isDamaged = (err: unknown): boolean => /not a database|malformed|corrupt/i.test(String((err as Error | undefined)?.message));
/** The one wording of a database another process holds (a read refused, a write not made). */
export const DB_BUSY = 'the drafts database is busy (another checkin is writing it)';
/** Why the database in `dir` could not be used, in a few words naming it. */
const reason = (err: unknown, dir: string): string => (isBusy(err) ? DB_BUSY : fsReason(err, join(dir, DB_FILE)));

const newId = (): string => Array.from({ length: 8 }, () => ID_ALPHABET[Math.floor(Math.random() * ID_ALPHABET.length)]).join('');
const str = (v: unknown): v is string => typeof v === 'string';
const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a value is a target of one of the kinds, with the fields its kind needs (a file is data: anything may be in it). */
export function isTarget(t: unknown): t is DraftTarget {
  if (!obj(t)) return false;
  const key = (k: string) => str(t[k]) && t[k] !== '';
  switch (t.kind) {
    case 'check-in':
      return key('key');
    case 'comment':
      return (t.on === 'check-in' || t.on === 'goal-update') && key('id');
    case 'goal-update':
      return key('goalId');
    case 'goal-update-edit':
    case 'goal-edit':
      return key('id');
    case 'webhook-post':
      return key('hook');
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
  const input = obj(c.input) ? c.input : undefined;
  switch (c.kind) {
    case 'answers':
      return obj(c.answers);
    case 'comment':
      return str(c.body);
    case 'text':
      return str(c.text);
    case 'activity':
      return str(input?.description);
    case 'echo-question':
      return str(input?.prompt);
    case 'goal-update':
    case 'goal':
      return input !== undefined;
    default:
      return false;
  }
}

/** node:sqlite, loaded now; Node 22's "SQLite is an experimental feature" warning (only that one) is not shown to the person. */
export function sqlite(): typeof import('node:sqlite') {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const type = str(rest[0]) ? rest[0] : obj(rest[0]) ? rest[0].type : undefined;
    if (type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(String(warning instanceof Error ? warning.message : warning))) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

/** A process's start time (Linux: /proc/<pid>/stat's 22nd field), which tells it from a later process given the same pid. */
function startOf(pid: number): string | undefined {
  try {
    const stat = readRegularFile(`/proc/${pid}/stat`, 4096);
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

interface Holder {
  pid: number;
  start?: string;
  /** The holder's pid namespace (`pid:[<inode>]` on Linux): its pid means something only to a process of the same one. */
  ns?: string;
  token: string;
  at: string;
  /** Its lease: held until then unless renewed (every RENEW_MS while the claim is held). Unset in claims of builds before leases. */
  until?: string;
}

/** How long a claim holds without being renewed, and how often its holder renews it (a loaded machine may be late by many seconds). */
const LEASE_MS = 60_000;
const RENEW_MS = 10_000;
const leaseEnd = (): string => new Date(Date.now() + LEASE_MS).toISOString();

let pidSpaceOf: string | null | undefined;
/**
 * This process's pid namespace, when pids read here can be trusted: on Linux only when /proc is this
 * namespace's (its `self` is our pid; not so under `unshare --pid` without its own /proc); elsewhere,
 * where there are no pid namespaces, the system and host.
 */
function pidSpace(): string | undefined {
  if (pidSpaceOf === undefined) {
    try {
      pidSpaceOf =
        process.platform !== 'linux'
          ? `${process.platform}:${process.getBuiltinModule('node:os').hostname()}`
          : readlinkSync('/proc/self') === String(process.pid)
            ? readlinkSync('/proc/self/ns/pid')
            : null;
    } catch {
      pidSpaceOf = null;
    }
  }
  return pidSpaceOf ?? undefined;
}

/** A claim's token, by the claim (rewrite changes a row only under it). */
const tokens = new WeakMap<Claim, string>();
/** The one condition of a change under a claim: its row, still held with its token (bound: id, token). */
const BY_TOKEN = "WHERE id = ? AND json_extract(holder, '$.token') = ?";

/** The claims this process holds, by token: a claim naming this pid but not one of these was left by an earlier process. */
const held = new Set<string>();
const me = (): Holder => ({
  pid: process.pid,
  ...(startOf(process.pid) !== undefined && { start: startOf(process.pid) }),
  ...(pidSpace() !== undefined && { ns: pidSpace() }),
  token: `${process.pid}-${newId()}`,
  at: new Date().toISOString(),
  until: leaseEnd(),
});

/**
 * Whether a claim's holder is alive. Its pid decides only where it can be trusted (the holder of our
 * pid namespace, or a claim from before leases, which says nothing else); a holder of another
 * namespace (a container and the host sharing a home) is alive while its lease lasts.
 */
function alive(h: Holder): boolean {
  if (h.until === undefined) return running(h);
  const here = pidSpace();
  if (here !== undefined && h.ns === here) return running(h);
  const until = Date.parse(h.until);
  return Number.isFinite(until) && until > Date.now();
}

/** A holder as a person reads it: "process 812, since …", its namespace said when it is not ours (its pid names nothing here). */
const holderWords = (h: Holder): string =>
  `process ${h.pid}${h.until !== undefined && (h.ns === undefined || h.ns !== pidSpace()) ? ' of another pid namespace' : ''}, since ${h.at.slice(0, 24)}`;

/** When a process started (wall clock, ms), from its start time in clock ticks after boot (/proc/stat's btime); undefined where unknown. */
function startedAt(pid: number): number | undefined {
  const ticks = Number(startOf(pid));
  if (!Number.isFinite(ticks)) return undefined;
  try {
    const btime = Number(/^btime (\d+)$/m.exec(readRegularFile('/proc/stat', 1024 * 1024))?.[1]);
    // Linux reports these in USER_HZ, 100 a second wherever it runs.
    return Number.isFinite(btime) && btime > 0 ? btime * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process a claim (or an editor's entry) names is still the one that made it. */
function running(h: { pid: number; start?: string; token?: string; at?: string }): boolean {
  if (h.pid === process.pid && h.start === startOf(process.pid)) return h.token === undefined || held.has(h.token);
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startOf(h.pid);
  if (h.start === undefined && h.at !== undefined) {
    // A claim that names no start time (0.1.0's): a process that started after the claim was made is not its claimant (a pid reused).
    const began = startedAt(h.pid);
    const at = Date.parse(h.at);
    return began === undefined || !Number.isFinite(at) || began <= at + 1000;
  }
  return h.start === undefined || now === undefined || now === h.start;
}

export interface Row {
  id: string;
  data: string;
  /** 'sent': the service accepted it, but the row could not be removed (it is, at the next open). Another value: a newer checkin's, never sent. */
  state: 'kept' | 'held' | 'sending' | 'sent';
  holder: string | null;
  sending_at: string | null;
  maybe_at: string | null;
}

/** The layout of the database this checkin reads and writes (`PRAGMA user_version`; 0 before it was written: today's tables are version 1). */
const SCHEMA = 1;
/** The states an entry of this layout can be in: a row in any other (a newer checkin's) is listed, never sent. */
const STATES: ReadonlySet<string> = new Set(['kept', 'held', 'sending', 'sent']);
/** SQLite's primary codes for a database that cannot be written here (a read-only file system, no room for its -wal or -shm). */
const CANNOT_WRITE = new Set([8 /* READONLY */, 10 /* IOERR */, 13 /* FULL */, 14 /* CANTOPEN */]);
const cannotWrite = (err: unknown): boolean =>
  ['EROFS', 'EACCES', 'EPERM', 'ENOSPC', 'EDQUOT'].includes(String((err as NodeJS.ErrnoException).code)) ||
  CANNOT_WRITE.has(((err as { errcode?: number }).errcode ?? 0) & 0xff);

/** A write refused: the database is read here and never written (a newer checkin's, or in a folder that cannot be written now). */
export class ReadOnlyError extends CliError {}

/** Stores that wrote this run: their connections are closed before the process's own cleanup (see `keep`). */
const wrote = new Set<Store>();
let closingAtExit = false;

/** One database: the drafts folder's, or the fallback folder's. */
class Store {
  db!: DatabaseSync;
  /** Why nothing may be written here, said as the end of a sentence; undefined when it can be. */
  readOnly?: string;
  /** Why the folder cannot be written, in a few words ("read-only file system"). */
  cause?: string;
  /** Set for a newer checkin's database: the sentence every refused write says. */
  newer?: string;
  /** A read-only connection held while this one writes: see `keep`. */
  private keeper?: DatabaseSync;
  /** The synchronous mode the connection is in now. */
  private sync: 'FULL' | 'NORMAL' = 'NORMAL';
  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void,
    wait: boolean,
    /** Opened read-only from the start, for this reason (OutboxPlaces.readOnly). */
    onlyRead?: string,
  ) {
    const st = lstatSync(dir);
    if (!st.isDirectory()) throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR' });
    try {
      try {
        if (onlyRead !== undefined) this.openReadOnly(onlyRead);
        else this.open(wait);
      } catch (err) {
        // Listing never needs a write: a folder that cannot be written now (read-only, full) is read as it is.
        if (!cannotWrite(err) || isBusy(err)) throw err;
        this.close();
        this.openReadOnly(err);
      }
      // Read through once: damage inside a file whose header is intact shows here, not in the middle of a send.
      if (!this.newer) this.db.prepare('SELECT count(*) FROM entries').get();
    } catch (err) {
      if (!isDamaged(err) || this.readOnly) {
        this.close();
        throw err;
      }
      this.setAside(err);
    }
    if (!this.readOnly) this.sweep();
  }

  private open(wait: boolean): void {
    const file = join(this.dir, DB_FILE);
    // Made 0600 before SQLite opens it (its -wal and -shm files take the same mode); never through a link.
    closeSync(openSync(file, constants.O_RDWR | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600));
    this.db = new (sqlite().DatabaseSync)(file);
    const deadline = Date.now() + (wait ? BUSY_MS : READ_BUSY_MS);
    for (;;) {
      try {
        this.db.exec(`PRAGMA busy_timeout = ${wait ? BUSY_MS : READ_BUSY_MS}; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = ${WAL_PAGES}`);
        this.sync = 'NORMAL';
        const version = this.version();
        if (version > SCHEMA) return this.markNewer(version);
        if (version < SCHEMA) {
          // Made now, or made by a build before the layout had its number: the tables and the number in one transaction.
          this.db.exec('PRAGMA journal_mode = WAL');
          this.tx(() => {
            if (this.version() > SCHEMA) return;
            const cols = (this.db.prepare("SELECT name FROM pragma_table_info('entries')").all() as Array<{ name: string }>).map((c) => c.name);
            const ours = ['id', 'data', 'state', 'holder', 'sending_at', 'maybe_at'];
            if (cols.length > 0 && !ours.every((c) => cols.includes(c))) throw Object.assign(new Error('another layout'), { layout: true });
            this.db.exec(`CREATE TABLE IF NOT EXISTS entries (id TEXT PRIMARY KEY, data TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'kept',
                holder TEXT, sending_at TEXT, maybe_at TEXT);
              CREATE TABLE IF NOT EXISTS imported (name TEXT PRIMARY KEY);
              PRAGMA user_version = ${SCHEMA};`);
          }, false);
          if (this.version() > SCHEMA) return this.markNewer(this.version());
        }
        this.db.exec(`PRAGMA busy_timeout = ${READ_BUSY_MS}`);
        return;
      } catch (err) {
        // An entries table of another layout, its number not written: a newer checkin's, read as one.
        if ((err as { layout?: boolean }).layout) return this.markNewer(0);
        // Several processes making the database at once: the switch to WAL and the first tables can be
        // refused at once (SQLite does not wait there), so they are tried again, within the same bound.
        const code = (err as { errcode?: number }).errcode;
        if ((code !== 5 && code !== 6) || Date.now() >= deadline) throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.floor(Math.random() * 20));
      }
    }
  }

  private version(): number {
    return Number((this.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  }

  /** A newer checkin's database: read, never written (not even a pragma that would change it). */
  private markNewer(version: number): void {
    const file = join(this.dir, DB_FILE);
    this.newer = `${file} was written by a newer checkin${version > 0 ? ` (layout ${version}; this one knows ${SCHEMA})` : ''}; upgrade, or move it aside`;
    this.readOnly = this.newer;
    this.db.exec(`PRAGMA query_only = 1; PRAGMA busy_timeout = ${READ_BUSY_MS}`);
  }

  /**
   * Opens the database read-only, for a folder that cannot be written now (`why`). SQLite's WAL
   * needs its -shm: when that can be neither made nor read, the file is read as immutable — only
   * when there is no log (-wal) beside it that such a reading would leave out.
   */
  private openReadOnly(why: unknown): void {
    const file = join(this.dir, DB_FILE);
    lstatSync(file);
    const { DatabaseSync } = sqlite();
    this.cause = fsReason(why, file);
    this.readOnly = `the drafts folder ${this.dir} cannot be written (${this.cause})`;
    try {
      this.db = new DatabaseSync(file, { readOnly: true, timeout: READ_BUSY_MS });
      this.check();
      return;
    } catch (err) {
      this.close();
      if (isBusy(err)) throw err;
    }
    const wal = lstatSync(`${file}-wal`, { throwIfNoEntry: false });
    if (wal && wal.size > 0)
      // (Its reason alone, for a run that goes on to keep a draft elsewhere and says why.)
      throw Object.assign(
        new CliError(
          `Cannot read the drafts in ${this.dir}: ${this.readOnly}, and its log ${file}-wal cannot be read without writing there; drafts may be waiting in it`,
        ),
        { reason: this.cause },
      );
    this.db = new DatabaseSync(`${pathToFileURL(file).href}?immutable=1`, { readOnly: true });
    this.check();
  }

  /** The layout of a database opened read-only: a newer one is marked so. */
  private check(): void {
    const version = this.version();
    if (version > SCHEMA) this.markNewer(version);
    else this.db.exec('PRAGMA query_only = 1');
  }

  /**
   * The words of a write (a new entry, a claim) are not fsynced one by one: only the commits that
   * must outlive a power loss are (`tx`'s `durable`). And this connection's close at the end of the
   * run does not checkpoint (two more fsyncs, the log's and the database's): a read-only
   * connection holds the database's shared lock until the process's own cleanup, after this one
   * was closed (at `exit`), so SQLite leaves the log for a later checkpoint (every WAL_PAGES pages).
   */
  private keep(): void {
    if (this.keeper || this.readOnly) return;
    try {
      this.keeper = new (sqlite().DatabaseSync)(join(this.dir, DB_FILE), { readOnly: true });
      this.keeper.prepare('SELECT 1 FROM imported LIMIT 1').get();
    } catch {
      this.keeper = undefined;
      return;
    }
    wrote.add(this);
    if (!closingAtExit) {
      closingAtExit = true;
      process.once('exit', () => {
        for (const s of wrote) s.close();
      });
    }
  }

  private close(): void {
    try {
      this.db?.close();
    } catch {
      // not open
    }
  }

  /**
   * A damaged database: the rows that can still be read are copied into a new one, and the file
   * is set aside whole beside it (never deleted: what it holds may still be read by hand); said.
   */
  private setAside(err: unknown): void {
    const rows = this.salvage();
    this.close();
    try {
      this.keeper?.close();
    } catch {
      // not open
    }
    this.keeper = undefined;
    const aside = setDatabaseAside(this.dir, DB_FILE);
    this.open(true);
    let kept = 0;
    if (rows.length > 0) {
      try {
        this.tx(() => {
          const put = this.db.prepare('INSERT OR IGNORE INTO entries (id, data, maybe_at) VALUES (?, ?, ?)');
          // A send that was under way when it broke may have reached the service: said so, asked before it goes again.
          for (const r of rows)
            if (r.state !== 'sent') kept += Number(put.run(r.id, r.data, r.maybe_at ?? (r.state === 'sending' ? r.sending_at : null)).changes);
        }, false);
      } catch {
        kept = 0;
      }
    }
    const what =
      rows.length === 0
        ? 'no draft could be read from it'
        : `${kept} draft${kept === 1 ? '' : 's'} read from it ${kept === 1 ? 'is' : 'are'} kept in the new one`;
    this.warn(
      `the drafts database ${join(this.dir, DB_FILE)} was damaged (${fsReason(err)}); it was set aside as ${aside} (not deleted: what it holds may still be read by hand) and ${what}`,
    );
  }

  /** The rows of a damaged database that can still be read: all at once, else one by one (bounded). */
  private salvage(): Row[] {
    try {
      return (this.db.prepare('SELECT * FROM entries').all() as unknown as Row[]).map((r) => ({ ...r }));
    } catch {
      // one by one below
    }
    const out: Row[] = [];
    let last = 10_000;
    try {
      last = Math.min(Number((this.db.prepare('SELECT max(rowid) AS n FROM entries').get() as { n: number | null } | undefined)?.n ?? 0), 100_000);
    } catch {
      // the default bound
    }
    const one = (() => {
      try {
        return this.db.prepare('SELECT * FROM entries WHERE rowid = ?');
      } catch {
        return undefined;
      }
    })();
    for (let id = 1; one && id <= last; id++) {
      try {
        const r = one.get(id) as Row | undefined;
        if (r && str(r.id) && str(r.data)) out.push({ ...r });
      } catch {
        // this one is lost to the damage
      }
    }
    return out;
  }

  /**
   * Removes what was sent but could not be removed then: rows marked 'sent', and rows a `<id>.sent`
   * file names (then the file). A sent entry that was written in an editor stays a while (EDITED_DAYS,
   * its row marked 'sent', never listed): an editor that outlived the send may save again into its
   * `<id>.md`; words saved there that are not what was sent become a new draft (for the same target,
   * its text, with no base: asked before it replaces anything), said once — never a file no command
   * lists.
   */
  private sweep(): void {
    try {
      const marks = (namesIn(this.dir) ?? []).map((n) => SENT_MARK.exec(n)?.[1]).filter(str);
      if (marks.length === 0 && !this.db.prepare("SELECT 1 FROM entries WHERE state = 'sent' LIMIT 1").get()) return;
      const edited = this.db
        .prepare("SELECT * FROM entries WHERE state = 'sent' AND json_extract(data, '$.editing.file') IS NOT NULL")
        .all() as unknown as Row[];
      const old = new Date(Date.now() - EDITED_DAYS * 86_400_000).toISOString();
      // Each save since the send (or since the last one taken in) that is not the words already had.
      const saved: Array<{ from: string; was: string | null; sha: string; entry: Entry; file: string }> = [];
      const seen: string[] = [];
      const keep = new Set<string>();
      for (const r of edited) {
        const e = jsonObject(r.data) as (Entry & { sent_sha?: string }) | undefined;
        const name = e?.editing?.file;
        if (!e || !str(name) || !/^[a-z0-9]{4,32}\.md$/.test(name)) continue;
        if ((r.sending_at ?? '') > old) keep.add(r.id);
        let text: string | undefined;
        try {
          text = readRegularFile(join(this.dir, name), MAX_ENTRY_BYTES, { follow: false });
        } catch {
          continue; // no save since
        }
        if (sha256(text) === e.sent_sha || text.trim() === '') {
          seen.push(name);
          continue;
        }
        const { editing: _, sent_sha: __, base: ___, ...rest } = e;
        const at = new Date().toISOString();
        saved.push({
          from: e.id,
          was: e.sent_sha ?? null,
          sha: sha256(text),
          file: name,
          entry: { ...rest, id: newId(), content: { kind: 'text', text }, made: 'editor', unwatched: true, created_at: at, saved_at: at },
        });
      }
      const taken: typeof saved = [];
      this.tx(
        () => {
          // Taken in by this run only when the row still remembers the words it had: two runs opening
          // at once take one save in once (a compare-and-set on what was last had).
          const had = this.db.prepare(
            "UPDATE entries SET data = json_set(data, '$.sent_sha', ?) WHERE id = ? AND state = 'sent' AND json_extract(data, '$.sent_sha') IS ?",
          );
          for (const x of saved) {
            if (had.run(x.sha, x.from, x.was).changes !== 1) continue;
            while (this.taken(x.entry.id)) x.entry.id = newId();
            this.db.prepare('INSERT INTO entries (id, data) VALUES (?, ?)').run(x.entry.id, JSON.stringify(x.entry));
            taken.push(x);
          }
          const done = this.db.prepare("DELETE FROM entries WHERE state = 'sent' AND id = ?");
          for (const r of this.db.prepare("SELECT id FROM entries WHERE state = 'sent'").all() as Array<{ id: string }>) if (!keep.has(r.id)) done.run(r.id);
          for (const id of marks) this.db.prepare('DELETE FROM entries WHERE id = ?').run(id);
        },
        true,
        saved.length > 0 || marks.length > 0,
      );
      for (const id of marks) rmSync(join(this.dir, `${id}.sent`), { force: true });
      for (const name of [...seen, ...taken.map((x) => x.file)]) rmSync(join(this.dir, name), { force: true });
      for (const { from, entry } of taken)
        this.warn(
          `the editor saved the draft ${from} again after it was sent; what it saved then is kept as a new draft, ${entry.id} (\`checkin drafts\` lists it)`,
        );
    } catch {
      // the next run: meanwhile they are not shown (row)
    }
  }

  /** Whether an entry was sent though its row is still there (marked 'sent', or named by a `<id>.sent` file). */
  sent(r: Row): boolean {
    if (r.state === 'sent') return true;
    try {
      lstatSync(join(this.dir, `${r.id}.sent`));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Runs `fn` in one write transaction (BEGIN IMMEDIATE: one writer at a time, waiting at most the
   * busy timeout). Damage met on the way: the database is set aside (what can be read kept) and
   * `fn` runs once more in the new one. `durable` (the default): committed with synchronous=FULL,
   * on disk before `tx` returns; else NORMAL — it outlives the process (kill -9) and reaches the
   * disk with the next durable commit, but a power loss may take it (see CONTRIBUTING's outbox).
   */
  tx<T>(fn: () => T, again = true, durable = true): T {
    if (this.readOnly) throw new ReadOnlyError(`The drafts cannot be changed here: ${this.readOnly}`);
    const sync = durable ? 'FULL' : 'NORMAL';
    try {
      try {
        const set = sync === this.sync ? '' : ` PRAGMA synchronous = ${sync};`;
        this.sync = sync;
        this.db.exec(`PRAGMA busy_timeout = ${BUSY_MS};${set} BEGIN IMMEDIATE`);
      } finally {
        this.db.exec(`PRAGMA busy_timeout = ${READ_BUSY_MS}`);
      }
    } catch (err) {
      throw busy(err);
    }
    try {
      const out = fn();
      this.db.exec('COMMIT');
      this.keep();
      return out;
    } catch (err) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // not in one (BEGIN failed)
      }
      if (!again || !isDamaged(err)) throw err;
      this.setAside(err);
      return this.tx(fn, false, durable);
    }
  }

  /** Reads, setting the database aside first when it turns out damaged (then reads the new one). */
  read<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (!isDamaged(err)) throw isBusy(err) ? new CliError(`Cannot read the drafts: ${DB_BUSY}; try again in a moment`) : err;
      // Read here and never written: said, never set aside.
      if (this.readOnly) throw new CliError(`Cannot read the drafts in ${this.dir} (${fsReason(err)}): drafts may be waiting there; ${this.readOnly}`);
      this.setAside(err);
      return fn();
    }
  }

  /** Every row there is, sent ones aside. */
  rows(): Row[] {
    let rows: Row[];
    try {
      rows = this.read(() => this.db.prepare('SELECT * FROM entries').all() as unknown as Row[]);
    } catch (err) {
      // A newer checkin's layout that cannot be read as this one's: its drafts are said to be there.
      if (this.newer && !(err instanceof CliError)) throw new CliError(`Cannot read the drafts in ${this.dir}: ${this.newer}`);
      throw err;
    }
    return rows.filter((r) => str(r.id) && !this.sent(r));
  }

  /** An entry's row; undefined when it is gone (or was sent). */
  row(id: string): Row | undefined {
    const r = this.read(() => this.db.prepare('SELECT * FROM entries WHERE id = ?').get(id) as Row | undefined);
    return r && !this.sent(r) ? r : undefined;
  }

  /** Whether an id is taken (by an entry, or by a sent one not yet removed). */
  taken(id: string): boolean {
    return Boolean(this.db.prepare('SELECT 1 FROM entries WHERE id = ?').get(id)) || this.sent({ id } as Row);
  }
}

const busy = (err: unknown) =>
  isBusy(err) && !(err instanceof CliError)
    ? new CliError(`The outbox is ${BUSY} (it stayed locked for ${BUSY_MS / 1000} s); nothing was changed, try again`)
    : err;

export interface OutboxPlaces {
  /** Read too, never written: where earlier versions kept drafts (their files are moved in). */
  legacy?: string;
  /** Where the outbox goes when the folder cannot be written (made on first use), or undefined when there is none. */
  fallback?: (opts: { create: boolean }) => string | undefined;
  /** Why this run only reads (an agent's hook): every database is opened read-only, nothing written, nothing set aside. */
  readOnly?: string;
}

export class Outbox {
  private readonly stores = new Map<string, Store>();
  private said = false;
  /** The entries this run made and still keeps, by id, with its store and its hold. */
  private readonly own = new Map<string, { entry: Entry; store: Store; hold?: Claim }>();

  constructor(
    readonly dir: string,
    /** Told of what was set aside or could not be read (one line). */
    private readonly warn: (message: string) => void = () => undefined,
    private readonly places: OutboxPlaces = {},
  ) {}

  /** The database in `dir`, opened (and made, with `create`) on first use; 0.1.0's files there are moved in. */
  private store(dir: string, create: boolean): Store | undefined {
    let s = this.stores.get(dir);
    if (s) return s;
    const there = namesIn(dir);
    // A folder that is there but cannot be read may hold drafts: said, never taken for an empty one.
    if (!there && lstatSync(dir, { throwIfNoEntry: false }) && !create) readdirSync(dir);
    const files = there?.filter((n) => ENTRY_FILE.test(n) || OLD_FILE.test(n)) ?? [];
    const legacy = dir === this.dir ? (namesIn(this.places.legacy) ?? []).filter((n) => OLD_FILE.test(n)) : [];
    if (!create && !there?.includes(DB_FILE) && files.length === 0 && legacy.length === 0) return undefined;
    if (!there) mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Damaged (not a database, or damaged inside): set aside whole, never deleted, what can be read kept (Store).
    try {
      s = new Store(dir, this.warn, create, this.places.readOnly);
    } catch (err) {
      throw isBusy(err) ? new CliError(`Cannot read the drafts in ${dir}: ${DB_BUSY}; try again in a moment`) : err;
    }
    this.stores.set(dir, s);
    if (s.readOnly) return s;
    this.importFiles(s, dir, files);
    if (legacy.length > 0) this.importFiles(s, this.places.legacy!, legacy);
    if (dir === this.dir) this.moveHome(s);
    return s;
  }

  /**
   * The drafts kept in the temporary folder while the drafts folder could not be written move home,
   * at the first run that can write there: each in a transaction of the drafts folder's database
   * that also writes its mark (`imported`: "temp <id>"), then removed from the temporary one. Held
   * by this run meanwhile (a claim), so no other run sends it; a run stopped between the two
   * finds the mark and only removes it. None lost, none moved twice; one another live run holds
   * waits for a later run.
   */
  private moveHome(home: Store): void {
    const dir = this.places.fallback?.({ create: false });
    if (!dir || dir === this.dir || !namesIn(dir)?.includes(DB_FILE)) return;
    try {
      const temp = this.store(dir, false);
      if (!temp || temp.readOnly) return;
      for (const { id } of temp.rows()) {
        const mover = JSON.stringify(me());
        // Held by this run while it moves (in the temporary database): no other run sends it meanwhile.
        const r = temp.tx(
          () => {
            const row = temp.row(id);
            if (!row || !STATES.has(row.state) || row.state === 'sent') return undefined;
            const h = row.state === 'kept' ? undefined : parseHolder(row.holder);
            if (h && alive(h)) return undefined;
            // An editor still open on its file there: left until it is closed (its next save goes there).
            const e = jsonObject(row.data) as Entry | undefined;
            if (e?.editing && this.editorOpen(e) !== undefined) return undefined;
            temp.db.prepare("UPDATE entries SET state = 'held', holder = ? WHERE id = ?").run(mover, id);
            return row;
          },
          true,
          false,
        );
        if (!r) continue;
        const maybe = r.maybe_at ?? (r.state === 'sending' ? r.sending_at : null);
        const editing = (jsonObject(r.data) as Partial<Entry> | undefined)?.editing?.file;
        const file = str(editing) && /^[a-z0-9]{4,32}\.md$/.test(editing) ? editing : undefined;
        if (file) {
          try {
            writeDurably(join(this.dir, file), readRegularFile(join(dir, file), MAX_ENTRY_BYTES, { follow: false }));
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
        }
        home.tx(() => {
          if (home.db.prepare('SELECT 1 FROM imported WHERE name = ?').get(`temp ${id}`)) return;
          home.db.prepare('INSERT INTO imported (name) VALUES (?)').run(`temp ${id}`);
          // An id the drafts folder already has (another entry's): this one takes a new one.
          let to = id;
          while (home.taken(to)) to = newId();
          const data = to === id ? r.data : JSON.stringify({ ...(jsonObject(r.data) ?? {}), id: to });
          home.db.prepare('INSERT INTO entries (id, data, maybe_at) VALUES (?, ?, ?)').run(to, data, maybe);
        });
        temp.tx(() => temp.db.prepare('DELETE FROM entries WHERE id = ? AND holder = ?').run(id, mover), true, false);
        if (file) rmSync(join(dir, file), { force: true });
      }
    } catch (err) {
      // Left where they are, listed from there: moved by a later run.
      this.warn(`the drafts kept in ${dir} for now could not be moved to ${this.dir} yet (${reason(err, this.dir)}); they are listed from there`);
    }
  }

  /** Every database there is (the drafts folder's first), none made. */
  private all(): Store[] {
    const out: Store[] = [];
    const temp = this.places.fallback?.({ create: false });
    for (const dir of [this.dir, temp]) {
      if (!dir || out.some((s) => s.dir === dir)) continue;
      try {
        let s = this.store(dir, false);
        // Drafts kept for now in the temporary folder: the drafts folder's database is made, where it can be, for them to move home.
        if (!s && dir === this.dir && temp && temp !== dir && namesIn(temp)?.includes(DB_FILE)) {
          try {
            s = this.store(dir, true);
          } catch {
            // listed from the temporary folder, moved by a later run
          }
        }
        // Listed as they are when it cannot be written (a send or a drop says why it is refused).
        if (s) out.push(s);
      } catch (err) {
        // Busy, or not readable at all: said as an error, never as an empty list. Only a place that
        // cannot hold a database (a file where the folder goes, a folder where the database goes)
        // holds nothing: that is a warning.
        if (err instanceof CliError) throw err;
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR' || code === 'EISDIR') {
          // The drafts folder's reason was said already when a draft could not be kept there (add): said once.
          if (!(this.said && dir === this.dir)) this.warn(`cannot read the drafts in ${dir}: ${fsReason(err, join(dir, DB_FILE))}`);
          continue;
        }
        throw new CliError(`Cannot read the drafts in ${dir} (${fsReason(err, join(dir, DB_FILE))}): drafts may be waiting there`);
      }
    }
    return out;
  }

  /**
   * An entry as its row says; the editor's file, when it has one, is its text. Its service is
   * spelled as this build spells it (a row an older build wrote may spell it otherwise), so that
   * whose it is compares as it is read.
   */
  private entryOf(s: Store, r: Row): Entry | undefined {
    const read = jsonObject(r.data) as Entry | undefined;
    if (!read || !isTarget(read.target) || !isContent(read.content)) return undefined;
    const e = typeof read.account?.api_url === 'string' ? { ...read, account: { ...read.account, api_url: normalizeApiUrl(read.account.api_url) } } : read;
    if (e.editing && /^[a-z0-9]{4,32}\.md$/.test(e.editing.file)) {
      try {
        return { ...e, content: { kind: 'text', text: readRegularFile(join(s.dir, e.editing.file), MAX_ENTRY_BYTES, { follow: false }) } };
      } catch {
        // the file is gone: what the row holds
      }
    }
    return e;
  }

  /** Every readable entry, oldest first. */
  list(): Entry[] {
    const byId = new Map<string, Entry>();
    for (const s of this.all()) {
      for (const r of s.rows()) {
        const e = byId.has(r.id) ? undefined : this.entryOf(s, r);
        if (e) byId.set(r.id, e);
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

  /** The store an entry's row is in (undefined when it is gone). */
  private storeOf(entry: Entry): Store | undefined {
    return this.own.get(entry.id)?.store ?? this.all().find((s) => s.row(entry.id));
  }

  /**
   * Keeps a new entry, in the drafts folder or, when that cannot be written, in the private temp
   * folder (saying so, once); throws a CliError naming the folder when neither can be written.
   */
  add(
    account: Account,
    target: DraftTarget,
    content: DraftContent,
    made: Made,
    now: Date,
    { hold = true, base, guessed }: { hold?: boolean; base?: string; guessed?: boolean } = {},
  ): Entry {
    const at = now.toISOString();
    const entry: Entry = {
      id: newId(),
      account: { ...account, api_url: normalizeApiUrl(account.api_url) },
      target,
      content,
      made,
      created_at: at,
      saved_at: at,
      ...(base && { base }),
      ...(guessed && { day_guessed: true }),
    };
    // Held by this run from the start (while it is written and until its send is over), in the
    // transaction that inserts it: another process's --resume never sees it unheld, so it never
    // sends words that are still being written, nor words this run is about to send.
    const mine = hold ? me() : undefined;
    // On disk (synchronous=FULL) before its words go out: a create's own 'sending' mark does that
    // for it (one fsync for both), anything else is made durable here.
    const insert = (s: Store) => {
      s.tx(
        () => {
          while (s.taken(entry.id)) entry.id = newId();
          s.db
            .prepare('INSERT INTO entries (id, data, state, holder) VALUES (?, ?, ?, ?)')
            .run(entry.id, JSON.stringify(entry), mine ? 'held' : 'kept', mine ? JSON.stringify(mine) : null);
        },
        true,
        !(mine && creates(target)),
      );
      return s;
    };
    let store: Store;
    try {
      store = insert(this.store(this.dir, true)!);
    } catch (err) {
      const s = this.stores.get(this.dir);
      const cause = s?.cause ?? (err as { reason?: string }).reason ?? reason(err, this.dir);
      const why = `Cannot keep a draft in ${this.dir}${s?.newer ? `: ${s.newer}` : ` (${cause})`}`;
      const fallback = this.places.fallback?.({ create: true });
      let there: Store | undefined;
      try {
        there = fallback && fallback !== this.dir ? insert(this.store(fallback, true)!) : undefined;
      } catch {
        // below: no draft at all
      }
      if (!this.said)
        this.warn(
          there
            ? `${why}; it is kept in ${fallback} for now — a temporary folder, emptied at reboot on many systems; it moves home at the next run that can write there`
            : `${why}; going on without one`,
        );
      this.said = true;
      if (!there) throw new CliError(why);
      store = there;
    }
    this.own.set(entry.id, { entry, store });
    if (mine) this.holding(entry, store, mine);
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
  update(entry: Entry, change: Partial<Pick<Entry, 'target' | 'content' | 'account' | 'base'>>, now: Date): Entry {
    const mine = this.own.get(entry.id);
    if (!mine) throw new Error(`the draft ${entry.id} was not made by this run: it is not changed`);
    const next: Entry = { ...mine.entry, ...change, saved_at: now.toISOString() };
    // Moved to the day it is for: no longer a guess.
    if (change.target) delete next.day_guessed;
    // New words are not the words refused.
    if (change.content) delete next.refused;
    if (change.account) next.account = { ...change.account, api_url: normalizeApiUrl(change.account.api_url) };
    // New words are made durable at once; the rest (whose it is, its base, its day) is bookkeeping.
    this.rewrite(mine.store, next, change.content !== undefined);
    return next;
  }

  /** Opens an entry this run made for the editor: `text` goes into its file (`<id>.md` beside the database), which the editor then writes in. */
  startEditing(entry: Entry, text: string, now: Date): { entry: Entry; file: string } {
    const mine = this.own.get(entry.id);
    if (!mine) throw new Error(`the draft ${entry.id} was not made by this run`);
    const name = `${entry.id}.md`;
    const file = join(mine.store.dir, name);
    try {
      writeDurably(file, text);
    } catch (err) {
      throw new CliError(`Cannot keep the editor's file in ${mine.store.dir} (${fsReason(err)})`);
    }
    const self = me();
    const next: Entry = {
      ...mine.entry,
      editing: { file: name, pid: self.pid, ...(self.start && { start: self.start }), shown: sha256(text) },
      saved_at: now.toISOString(),
    };
    this.rewrite(mine.store, next);
    return { entry: next, file };
  }

  /** The editor was closed: the entry holds `text` (what was saved), and its file is removed. */
  stopEditing(entry: Entry, text: string, now: Date): Entry {
    const mine = this.own.get(entry.id);
    if (!mine) throw new Error(`the draft ${entry.id} was not made by this run`);
    const { editing, ...rest } = mine.entry;
    const next: Entry = { ...rest, content: { kind: 'text', text }, saved_at: now.toISOString() };
    this.rewrite(mine.store, next);
    if (editing) rmSync(join(mine.store.dir, editing.file), { force: true });
    return next;
  }

  /** The editor checkin started on this run's entry: its process recorded, so that another run knows while it is still open. */
  editorStarted(entry: Entry, pid: number, now: Date): Entry {
    const mine = this.own.get(entry.id);
    if (!mine?.entry.editing) throw new Error(`the draft ${entry.id} is not being edited by this run`);
    const start = startOf(pid);
    const next: Entry = { ...mine.entry, editing: { ...mine.entry.editing, editor: { pid, ...(start && { start }) } }, saved_at: now.toISOString() };
    this.rewrite(mine.store, next);
    return next;
  }

  /** The editor still open on an entry that checkin no longer watches (its process runs, the same one as started): its pid; else undefined. */
  editorOpen(entry: Entry): number | undefined {
    const editor = entry.editing?.editor;
    if (!editor || this.own.has(entry.id)) return undefined;
    if (!running({ pid: editor.pid, ...(editor.start && { start: editor.start }) })) return undefined;
    // A process that ended but was not reaped (its parent killed, no init reaping here) is no editor.
    try {
      const stat = readRegularFile(`/proc/${editor.pid}/stat`, 4096);
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return undefined;
    } catch {
      // no /proc: as running() said
    }
    return editor.pid;
  }

  /** Whether an entry was (or is) written in an editor that checkin no longer watches: its file may hold words no one has seen sent. */
  editedUnwatched(entry: Entry): boolean {
    if (entry.unwatched && !this.own.has(entry.id)) return true;
    return (
      entry.editing !== undefined && !this.own.has(entry.id) && !running({ pid: entry.editing.pid, ...(entry.editing.start && { start: entry.editing.start }) })
    );
  }

  /**
   * What the outbox knows of an entry before it is sent, read in one step (once it is held, no other
   * checkin changes it): the editor still open on it, when a send of it may have reached the service,
   * and whether it was written in an editor checkin no longer watches.
   */
  standing(entry: Entry): Standing {
    const editor = this.editorOpen(entry);
    const maybe = this.maybeSent(entry);
    return {
      ...(editor !== undefined && { editorOpen: editor }),
      ...(maybe !== undefined && { maybeSent: maybe }),
      editedUnwatched: this.editedUnwatched(entry),
    };
  }

  private rewrite(store: Store, next: Entry, durable = true): void {
    // Changed only while held: once its hold was let go (a failed send), another process may be
    // sending it; then it is taken back first, or refused (and the caller keeps a new entry).
    const mine = this.own.get(next.id);
    if (mine && !mine.hold) this.claim(mine.entry);
    // Only under this run's claim: one taken back meanwhile (its lease ran out) is another's now.
    const token = tokens.get(this.own.get(next.id)?.hold as Claim) ?? '';
    try {
      const changed = store.tx(
        () => store.db.prepare(`UPDATE entries SET data = ? ${BY_TOKEN}`).run(JSON.stringify(next), next.id, token).changes,
        true,
        durable,
      );
      if (changed === 0) throw new GoneError(`The draft ${next.id} is gone (sent, dropped or taken over by another checkin)`);
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`Cannot keep the draft in ${store.dir} (${reason(err, store.dir)})`);
    }
    const hold = this.own.get(next.id)?.hold;
    this.own.set(next.id, { entry: next, store, ...(hold && { hold }) });
  }

  /**
   * Takes an entry for sending (or for dropping), in one transaction: refused with a ClaimedError
   * while another live process or call holds it; the claim of a process that died is taken back
   * (and when that process's request was on its way, the entry becomes "may have been sent").
   */
  claim(entry: Entry): Claim {
    const store = this.storeOf(entry);
    const gone = () => new GoneError(`The draft ${entry.id} is gone (sent or dropped by another checkin)`);
    if (!store) throw gone();
    const mine = me();
    store.tx(
      () => {
        const r = store.row(entry.id);
        if (!r) throw gone();
        if (!STATES.has(r.state))
          throw new UnknownStateError(
            `The draft ${entry.id} is marked "${String(r.state).slice(0, 40)}", which this checkin does not know (a newer checkin's); it was not sent`,
            EXIT.FAILURE,
            terminal('Send it with the checkin that wrote it, or upgrade.'),
          );
        if (r.state !== 'kept') {
          const h = parseHolder(r.holder);
          if (h && alive(h))
            throw new ClaimedError(
              `The draft ${entry.id} is ${BUSY} (${holderWords(h)}); it was not sent again`,
              EXIT.FAILURE,
              terminal('Wait for that checkin to finish, then look with `checkin drafts`.'),
            );
          if (r.state === 'sending')
            this.warn(
              `the draft ${entry.id} was being sent by a checkin that stopped (process ${h?.pid ?? 'unknown'}) before the service answered: it may have reached the service`,
            );
          store.db
            .prepare("UPDATE entries SET state = 'kept', holder = NULL, sending_at = NULL, maybe_at = COALESCE(maybe_at, sending_at) WHERE id = ?")
            .run(entry.id);
        }
        if (store.db.prepare("UPDATE entries SET state = 'held', holder = ? WHERE id = ? AND state = 'kept'").run(JSON.stringify(mine), entry.id).changes !== 1)
          throw gone();
      },
      true,
      false,
    );
    return this.holding(entry, store, mine);
  }

  /**
   * The claim object for a row this process has just come to hold (by `claim`, or inserted held by
   * `keep`). Every change it makes names its token (`BY_TOKEN`) and counts the rows changed: none
   * means another checkin took the claim back (its lease ran out), and this one sends nothing more.
   * Its lease is renewed while it is held (an unref'd timer, cleared on every path).
   */
  private holding(entry: Entry, store: Store, mine: Holder): Claim {
    held.add(mine.token);
    /**
     * Runs one change of this claim's row; whether it changed it (false: the claim is another's now).
     * `durable`: committed with synchronous=FULL (the words' state a power loss must not take back:
     * a create's 'sending' mark, a release); the lease and the removal are bookkeeping (NORMAL).
     */
    const change = (sql: string, args: Array<string | null> = [], durable = true): boolean =>
      store.tx(() => store.db.prepare(`${sql} ${BY_TOKEN}`).run(...args, entry.id, mine.token).changes, true, durable) === 1;
    let over = false;
    let lost = false;
    const end = () => {
      over = true;
      clearInterval(renewing);
      held.delete(mine.token);
      const o = this.own.get(entry.id);
      if (o?.hold === claim) o.hold = undefined;
    };
    const lostError = () =>
      new LostClaimError(
        `Nothing was sent: another checkin took over the draft ${entry.id} while this one held it (this one's hold had run out); it is left to that one`,
        EXIT.FAILURE,
        terminal('`checkin drafts` shows where it is.'),
      );
    /** The lease renewed; false when the claim turned out to be another's (then it is over). */
    const renew = (): boolean => {
      if (lost) return false;
      if (change("UPDATE entries SET holder = json_set(holder, '$.until', ?)", [leaseEnd()], false)) return true;
      lost = true;
      end();
      return false;
    };
    const renewing = setInterval(() => {
      try {
        renew();
      } catch {
        // busy or unwritable now: tried again at the next turn, the lease meanwhile as it was
      }
    }, RENEW_MS);
    renewing.unref();
    const release = (sql = "UPDATE entries SET state = 'kept', holder = NULL, sending_at = NULL", ...args: Array<string | null>) => {
      if (over) return;
      end();
      try {
        // No row changed: the claim was taken back, and the entry is its new holder's.
        change(sql, args);
      } catch (err) {
        // the row stays held by a process that is gone: the next claim takes it back
        this.warn(`the draft ${entry.id} could not be updated (${reason(err, store.dir)})`);
      }
    };
    const claim: Claim = {
      entry,
      // Said before the request goes: when that cannot be written, or the claim is another's now, nothing is sent (and the entry never reads as "may have been sent").
      sending: () => {
        if (lost) throw lostError();
        let changed: boolean;
        try {
          changed = change("UPDATE entries SET state = 'sending', sending_at = ?, holder = json_set(holder, '$.until', ?)", [
            new Date().toISOString(),
            leaseEnd(),
          ]);
        } catch (err) {
          throw new CliError(`Nothing was sent: the draft ${entry.id} could not be marked as being sent (${reason(err, store.dir)})`);
        }
        if (!changed) {
          lost = true;
          end();
          throw lostError();
        }
      },
      // A read, no write: a send that creates nothing costs no more than before (its request is the same words again at worst).
      check: () => {
        if (!lost && store.read(() => store.db.prepare(`SELECT 1 FROM entries ${BY_TOKEN}`).get(entry.id, mine.token))) return;
        lost = true;
        end();
        throw lostError();
      },
      done: () => {
        if (over) return;
        const file = this.own.get(entry.id)?.entry.editing?.file ?? entry.editing?.file;
        end();
        this.own.delete(entry.id);
        // The service accepted it: it must never read as waiting, nor as "may have been sent", again.
        // Removed; else marked 'sent' (removed at the next open); else, when the database cannot be
        // written at all, an empty `<id>.sent` file beside it says so (a name needs no space for data).
        // Only under this claim: taken back meanwhile, the row is its new holder's (said, left).
        const attempt = (sql: string, args: string[] = []): unknown => {
          try {
            return change(sql, args, false) ? undefined : lostError();
          } catch (err) {
            return err;
          }
        };
        const taken = () => this.warn(`the draft ${entry.id} was sent, but another checkin had taken it over meanwhile, so it was not removed here`);
        // Written in an editor: remembered as sent a while (sweep), so a later save there becomes a new draft.
        const sentText = entry.content.kind === 'text' ? entry.content.text : undefined;
        const failed =
          file && sentText !== undefined
            ? attempt("UPDATE entries SET state = 'sent', sending_at = ?, data = json_set(data, '$.sent_sha', ?)", [new Date().toISOString(), sha256(sentText)])
            : attempt('DELETE FROM entries');
        if (failed instanceof LostClaimError) return taken();
        if (failed !== undefined) {
          const why = reason(failed, store.dir);
          const mark = attempt("UPDATE entries SET state = 'sent'");
          if (mark instanceof LostClaimError) return taken();
          let marked = mark === undefined;
          if (!marked) {
            try {
              closeSync(openSync(join(store.dir, `${entry.id}.sent`), constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600));
              syncDir(store.dir);
              marked = true;
            } catch {
              // nothing could be written: said below
            }
          }
          this.warn(
            marked
              ? `the draft ${entry.id} was sent, but could not be removed (${why}); it is marked as sent, never sent again, and removed at the next run`
              : `sent; the draft ${entry.id} could not be removed (${why}): drop it with \`checkin drafts drop ${entry.id}\``,
          );
        }
        if (file) rmSync(join(store.dir, file), { force: true });
      },
      unknown: (at) => release("UPDATE entries SET state = 'kept', holder = NULL, sending_at = NULL, maybe_at = ?", at.toISOString()),
      refused: (at, why) =>
        release(
          "UPDATE entries SET state = 'kept', holder = NULL, sending_at = NULL, data = json_set(data, '$.refused', json(?))",
          JSON.stringify({ at: at.toISOString(), why }),
        ),
      release: () => release(),
    };
    tokens.set(claim, mine.token);
    const o = this.own.get(entry.id);
    if (o && !o.hold) o.hold = claim;
    return claim;
  }

  /** The live process sending this entry now, if one is. */
  sender(entry: Entry): { pid: number; since: string } | undefined {
    const r = this.storeOf(entry)?.row(entry.id);
    const h = r && r.state !== 'kept' ? parseHolder(r.holder) : undefined;
    return h && alive(h) ? { pid: h.pid, since: h.at } : undefined;
  }

  /** When a send of this entry may have reached the service without an answer, the moment it was sent (a dead sender's too). */
  maybeSent(entry: Entry): string | undefined {
    const r = this.storeOf(entry)?.row(entry.id);
    if (!r) return undefined;
    if (r.maybe_at) return r.maybe_at;
    const h = parseHolder(r.holder);
    return r.state === 'sending' && r.sending_at && !(h && alive(h)) ? r.sending_at : undefined;
  }

  /** What this run made and still keeps, the latest last. */
  keptThisRun(): Entry[] {
    return [...this.own.values()].map((o) => o.entry);
  }

  /**
   * Moves the files of 0.1.0 (`<id>.json`, its `.claim`, `.unknown` and `.md`) and of the builds
   * before it (one `<hash>.json` per target) into the database: each in one transaction with a row
   * in `imported` naming it, so it is moved once however many runs meet it; the file goes after.
   * One a live 0.1.0 process is sending (its claim) is left until that process is gone.
   */
  private importFiles(s: Store, from: string, names: string[]): void {
    // A file that cannot be removed is not moved: an earlier build would still send it.
    if (names.length > 0) {
      try {
        accessSync(from, constants.W_OK | constants.X_OK);
      } catch (err) {
        this.warn(`the drafts of an earlier version in ${from} cannot be moved into ${s.dir} (${fsReason(err)}); they are left where they are`);
        return;
      }
    }
    for (const name of names) {
      const file = join(from, name);
      const old = OLD_FILE.exec(name);
      const entryFile = old ? null : ENTRY_FILE.exec(name);
      if (old?.[2] && running({ pid: Number(old[2]) })) {
        // An earlier build moving it now: left to it, and said.
        this.warn(`the draft ${file} is being moved by another checkin (process ${old[2]}); it is left where it is until that one is gone`);
        continue;
      }
      let text: string;
      try {
        text = readRegularFile(file, MAX_ENTRY_BYTES, { follow: false });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.warn(`cannot read the draft ${file}: ${fsReason(err)}`);
        continue;
      }
      const v = jsonObject(text);
      if (!v || !str(v.api_url ?? (v.account as Record<string, unknown> | undefined)?.api_url) || !isTarget(v.target) || !isContent(v.content)) {
        this.warn(`the draft ${file} could not be read as a draft; it is left where it is`);
        continue;
      }
      const side = (ext: string) => (entryFile ? join(from, `${entryFile[1]}.${ext}`) : undefined);
      const readSide = (ext: string): Record<string, unknown> | undefined => {
        try {
          return jsonObject(readRegularFile(side(ext)!, 4096, { follow: false })) ?? {};
        } catch (err) {
          return (err as NodeJS.ErrnoException).code === 'ENOENT' || !side(ext) ? undefined : {};
        }
      };
      const claimFile = entryFile ? readSide('claim') : undefined;
      if (claimFile && typeof claimFile.pid === 'number' && running({ pid: claimFile.pid, ...(str(claimFile.at) && { at: claimFile.at }) })) {
        // Never hidden without a word: another checkin is sending it now; it moves in once that one is gone.
        this.warn(
          `the draft ${file} is being sent by another checkin (process ${claimFile.pid}${str(claimFile.at) ? `, since ${claimFile.at.slice(0, 24)}` : ''}); it is left where it is until that one is gone`,
        );
        continue;
      }
      const unknown = entryFile ? readSide('unknown') : undefined;
      const maybe = unknown ? (str(unknown.at) ? unknown.at : new Date(0).toISOString()) : str(claimFile?.sending) ? claimFile.sending : null;
      let entry: Entry;
      if (entryFile) {
        const { checkin_outbox: _, ...rest } = v as unknown as Entry & { checkin_outbox?: unknown };
        entry = { ...rest, id: entryFile[1]!, saved_at: str(rest.saved_at) ? rest.saved_at : rest.created_at };
        if (!obj(entry.editing)) delete entry.editing;
      } else {
        const saved = str(v.saved_at) ? v.saved_at : new Date(0).toISOString();
        const hash = sha256(`${old![1]}\n${text}`);
        const id = Array.from({ length: 10 }, (_, i) => ID_ALPHABET[parseInt(hash.slice(i * 2, i * 2 + 2), 16) % ID_ALPHABET.length]).join('');
        entry = {
          id,
          account: { api_url: normalizeApiUrl(String(v.api_url)) },
          target: v.target as DraftTarget,
          content: v.content as DraftContent,
          made: 'earlier',
          created_at: saved,
          saved_at: saved,
        };
      }
      const mark = entryFile ? `0.1.0 ${entry.id}` : `earlier ${old![1]} ${sha256(text)}`;
      try {
        s.tx(() => {
          if (s.db.prepare('SELECT 1 FROM imported WHERE name = ?').get(mark)) return;
          s.db.prepare('INSERT INTO imported (name) VALUES (?)').run(mark);
          s.db.prepare('INSERT OR IGNORE INTO entries (id, data, maybe_at) VALUES (?, ?, ?)').run(entry.id, JSON.stringify(entry), maybe);
        });
        for (const f of [file, side('claim'), side('unknown')]) if (f) rmSync(f, { force: true });
      } catch (err) {
        this.warn(`the draft ${file} could not be moved into ${s.dir} (${reason(err, s.dir)}); it is left where it is`);
      }
    }
  }
}

/** A JSON object's fields; undefined for text that is not one. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return obj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A folder's names, or undefined when it cannot be read. */
/** The damaged database `name` in `dir`, with its -wal and -shm files, renamed aside whole (never deleted): where to. */
export function setDatabaseAside(dir: string, name: string): string {
  const there = namesIn(dir) ?? [];
  const aside = join(dir, `${name}.damaged-${Date.now()}`);
  for (const ext of ['', '-wal', '-shm']) if (there.includes(name + ext)) renameSync(join(dir, name + ext), aside + ext);
  return aside;
}

function namesIn(dir: string | undefined): string[] | undefined {
  try {
    return dir === undefined ? undefined : readdirSync(dir);
  } catch {
    return undefined;
  }
}

function parseHolder(text: string | null): Holder | undefined {
  const h = jsonObject(text ?? '') as Partial<Holder> | undefined;
  return h && typeof h.pid === 'number' && str(h.token) && str(h.at) ? (h as Holder) : undefined;
}
