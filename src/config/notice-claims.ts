// Which notices `checkin notify` has shown, or is showing now, per account: a claim per notice, so that
// two runs at the same moment (the OS timer's and a person's) show each notice once. One SQLite
// database, notices.db in the state folder (0700; the file 0600), node:sqlite loaded as the outbox
// loads it. A claim is one statement, INSERT … ON CONFLICT … DO UPDATE … WHERE: a compare-and-set
// that SQLite's lock on the file makes atomic between processes whatever their pid namespace (no pid
// is in it, only a lease and a token). A run that dies while showing leaves a claim whose lease runs
// out: the next run shows that notice. One that could not show it lets it go at once.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fsReason } from './files.js';
import { isDamaged, setDatabaseAside, sqlite } from './outbox-files.js';

const FILE = 'notices.db';
/** How long a claim holds past the longest its run takes to show its notices (`showingMs`): the run's own work around them. */
const LEASE_SPARE_MS = 60_000;
/**
 * How much further ahead than a lease made now another run's may end and still be believed: that run
 * read the clock later than this one, which then waited for the lock (at most BUSY_MS). Past it, the
 * clock was set back since that claim.
 */
const CLOCK_SLACK_MS = 60_000;
/** How long a notice is remembered, shown or claimed (a claim's lease lapsed long before): the marker has moved past it long before. */
const KEEP_MS = 30 * 24 * 60 * 60_000;
/** How long a run waits for another's lock on the database. */
const BUSY_MS = 10_000;

export interface NoticeClaims {
  /** Claims each of `ids` for this run, at once: those claimed (`mine`), and those another run is showing now (`showing`); the rest were shown already. */
  claim(ids: string[]): { mine: Set<string>; showing: Set<string> };
  /** The claimed ones shown: remembered as shown. The rest let go, for the next run. */
  settle(shown: string[], unshown: string[]): void;
  close(): void;
}

/** notices.db at `file`, its table made (a damaged one throws, closed). */
function openDatabase(file: string): DatabaseSync {
  const db: DatabaseSync = new (sqlite().DatabaseSync)(file);
  try {
    chmodSync(file, 0o600);
    db.exec(`PRAGMA busy_timeout = ${BUSY_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL`);
    db.exec(`CREATE TABLE IF NOT EXISTS notices (account TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL, until TEXT, token TEXT, at TEXT NOT NULL,
      PRIMARY KEY (account, id))`);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The claims of `account` (the inbox marker's key: the service and the person), in the state folder `dir`;
 * each holds for `showingMs` (the longest the notifier takes to show them all: the same for every run)
 * and a minute more.
 * A damaged notices.db (not a database, or damaged inside) is set aside whole and a new one begun,
 * told to `warn` in one line: what it held only keeps runs at the same moment from showing a notice
 * twice, and the marker has moved past the ones shown.
 */
export function openNoticeClaims(dir: string, account: string, now: () => Date, showingMs: number, warn: (line: string) => void): NoticeClaims {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, FILE);
  let begun = false;
  const begin = (err: unknown): DatabaseSync => {
    if (begun || !isDamaged(err)) throw err;
    begun = true;
    const aside = setDatabaseAside(dir, FILE);
    warn(`${file} was damaged (${fsReason(err, file)}): it was set aside as ${aside} and a new one begun`);
    return openDatabase(file);
  };
  let db: DatabaseSync;
  try {
    db = openDatabase(file);
  } catch (err) {
    db = begin(err);
  }
  const close = () => {
    try {
      db.close();
    } catch {
      // closed already (a new one could not be begun)
    }
  };
  // node:crypto asked for here, never at the top: every other command (a hook) starts without it.
  const token = process.getBuiltinModule('node:crypto').randomUUID();
  /** `run` in one transaction that holds the write lock from its start (BEGIN IMMEDIATE). */
  const tx = <T>(run: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const out = run();
      db.exec('COMMIT');
      return out;
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  };
  return {
    claim(ids) {
      const take = () => {
        const at = now();
        // Another run's claim is taken over once its lease ran out, or when its lease ends further ahead
        // than a lease made now could, past CLOCK_SLACK_MS (the clock was set back since: it would hold for as long).
        const claim = db.prepare(
          `INSERT INTO notices (account, id, state, until, token, at) VALUES (?, ?, 'showing', ?, ?, ?)
           ON CONFLICT (account, id) DO UPDATE SET until = excluded.until, token = excluded.token, at = excluded.at
           WHERE notices.state = 'showing' AND (notices.until < excluded.at OR notices.until > ?)`,
        );
        const stateOf = db.prepare('SELECT state FROM notices WHERE account = ? AND id = ?');
        const until = new Date(at.getTime() + showingMs + LEASE_SPARE_MS).toISOString();
        const setBack = new Date(at.getTime() + showingMs + LEASE_SPARE_MS + CLOCK_SLACK_MS).toISOString();
        return tx(() => {
          db.prepare('DELETE FROM notices WHERE at < ?').run(new Date(at.getTime() - KEEP_MS).toISOString());
          const mine = new Set<string>();
          const showing = new Set<string>();
          for (const id of ids) {
            if (claim.run(account, id, until, token, at.toISOString(), setBack).changes === 1) mine.add(id);
            else if ((stateOf.get(account, id) as { state?: unknown } | undefined)?.state === 'showing') showing.add(id);
          }
          return { mine, showing };
        });
      };
      try {
        return take();
      } catch (err) {
        close();
        db = begin(err);
        return take();
      }
    },
    settle(shown, unshown) {
      const at = now().toISOString();
      const done = db.prepare("UPDATE notices SET state = 'shown', until = NULL, token = NULL, at = ? WHERE account = ? AND id = ? AND token = ?");
      const letGo = db.prepare("DELETE FROM notices WHERE account = ? AND id = ? AND token = ? AND state = 'showing'");
      tx(() => {
        for (const id of shown) done.run(at, account, id, token);
        for (const id of unshown) letGo.run(account, id, token);
      });
    },
    close,
  };
}
