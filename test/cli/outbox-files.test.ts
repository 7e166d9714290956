// The outbox (src/config/outbox-files.ts): every write an entry of its own, never a slot the next write
// replaces; only the run that made an entry changes it; sending claims it (one holder at a time,
// across processes and calls); a dead holder's claim is taken back; drafts of earlier versions
// are turned into entries once, none lost, none twice.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClaimedError, Outbox, type DraftContent, type DraftTarget, type Entry } from '../../src/config/outbox-files.js';
import { UsageError } from '../../src/errors.js';
import { tempDir, track } from '../helpers/cleanup.js';
import { ROOT } from '../helpers/cli.js';
import { entryOf, writeOldDraft } from '../helpers/earlier.js';

const API = 'http://127.0.0.1:9/api/v2';
const T0 = new Date('2026-11-22T09:30:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const CHECK_IN: DraftTarget = { kind: 'check-in', key: '2026-11-22' };
const answers = (intentions: string): DraftContent => ({ kind: 'answers', answers: { intentions } });

/** A drafts folder (not made yet) and an outbox on it that collects its warnings. */
function box(dir = join(tempDir('checkin-outbox-'), 'drafts')) {
  const warnings: string[] = [];
  return { dir, warnings, outbox: new Outbox(dir, (m) => warnings.push(m)) };
}
const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

/** An entry file as another run wrote it, with an id of the test's choosing. */
function entryFile(dir: string, id: string, created: string, over: Partial<Entry> = {}): Entry {
  const e: Entry = { checkin_outbox: 1, id, account: { api_url: API }, target: CHECK_IN, content: answers(id), made: 'typed', created_at: created, saved_at: created, ...over };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.json`), JSON.stringify(e, null, 2) + '\n', { mode: 0o600 });
  return e;
}

/** A process that has ended: its pid names nobody (it is not reused within a test). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''], { timeout: 10_000 });
  expect(r.status).toBe(0);
  return r.pid;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('adding and changing entries', () => {
  it('each write is an entry of its own, in a 0600 file of a 0700 folder; two for one target are two', () => {
    const { dir, outbox, warnings } = box();
    const a = outbox.add({ api_url: `${API}/` }, CHECK_IN, answers('first'), 'piped', at(0), { hold: false });
    const b = outbox.add({ api_url: API }, CHECK_IN, answers('second'), 'typed', at(1), { hold: false });
    expect(a).toEqual({ checkin_outbox: 1, id: a.id, account: { api_url: API }, target: CHECK_IN, content: answers('first'), made: 'piped', created_at: at(0).toISOString(), saved_at: at(0).toISOString() });
    expect(a.id).toMatch(/^[a-z2-9]{8}$/);
    expect(b.id).not.toBe(a.id);
    expect(files(dir)).toEqual([`${a.id}.json`, `${b.id}.json`].sort());
    expect(json(join(dir, `${a.id}.json`))).toEqual(a);
    expect(json(join(dir, `${b.id}.json`))).toEqual(b);
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
    for (const f of files(dir)) expect((statSync(join(dir, f)).mode & 0o777).toString(8)).toBe('600');
    expect(outbox.keptThisRun()).toEqual([a, b]);
    expect(warnings).toEqual([]);
  });

  it('a new entry never replaces a file: an id already taken on disk is passed over', () => {
    const { dir, outbox } = box();
    const theirs = entryFile(dir, 'aaaaaaaa', '2026-01-01T00:00:00.000Z', { content: answers('theirs') });
    const before = readFileSync(join(dir, 'aaaaaaaa.json'), 'utf8');
    // The id the outbox draws first is exactly the one on disk (eight draws of the alphabet's first letter).
    const random = vi.spyOn(Math, 'random');
    for (let i = 0; i < 8; i++) random.mockReturnValueOnce(0);
    const mine = outbox.add({ api_url: API }, CHECK_IN, answers('mine'), 'typed', at(0), { hold: false });
    expect(mine.id).not.toBe('aaaaaaaa');
    expect(readFileSync(join(dir, 'aaaaaaaa.json'), 'utf8')).toBe(before);
    expect(files(dir)).toEqual(['aaaaaaaa.json', `${mine.id}.json`].sort());
    expect(json(join(dir, `${mine.id}.json`))).toEqual(mine);
    expect(new Outbox(dir).list().map((e) => [e.id, e.content])).toEqual([
      ['aaaaaaaa', theirs.content],
      [mine.id, answers('mine')],
    ]);
  });

  it('update changes this run’s own entry in place (same id and created_at); another run’s is refused and left as it is', () => {
    const { dir, outbox } = box();
    const mine = outbox.add({ api_url: API }, CHECK_IN, answers('a'), 'typed', at(0), { hold: false });
    const grown = outbox.update(mine, { content: answers('a\nb'), target: { kind: 'check-in', key: '2026-11-23' } }, at(2));
    expect(grown).toEqual({ ...mine, content: answers('a\nb'), target: { kind: 'check-in', key: '2026-11-23' }, saved_at: at(2).toISOString() });
    // Changed only while held: the run took it (it was not held) before changing it.
    expect(files(dir)).toEqual([`${mine.id}.claim`, `${mine.id}.json`]);
    expect(json(join(dir, `${mine.id}.json`))).toEqual(grown);
    expect(outbox.keptThisRun()).toEqual([grown]);
    // The account learns whose it is, its URL normalised.
    expect(outbox.update(grown, { account: { api_url: 'http://localhost:9/api/v2/', person_id: 'p1' } }, at(3)).account).toEqual({ api_url: API, person_id: 'p1' });

    // The next run (another outbox on the folder) finds it, and may not change it.
    const next = new Outbox(dir);
    const [found] = next.list();
    const text = readFileSync(join(dir, `${mine.id}.json`), 'utf8');
    expect(() => next.update(found!, { content: answers('overwritten') }, at(4))).toThrow(new Error(`the draft ${mine.id} was not made by this run: it is not changed`));
    expect(readFileSync(join(dir, `${mine.id}.json`), 'utf8')).toBe(text);
    expect(next.keptThisRun()).toEqual([]);
  });

  it('a drafts folder that cannot be made: the fallback folder, said once; neither: a CliError naming the folder', () => {
    const root = tempDir('checkin-outbox-');
    writeFileSync(join(root, 'file'), '');
    const dir = join(root, 'file', 'drafts');
    const fallback = join(root, 'fallback');
    const warnings: string[] = [];
    const outbox = new Outbox(dir, (m) => warnings.push(m), { fallback: ({ create }) => (create && mkdirSync(fallback, { recursive: true, mode: 0o700 }), fallback) });
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('a'), 'typed', at(0), { hold: false });
    const b = outbox.add({ api_url: API }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'b' } }, 'piped', at(1), { hold: false });
    expect(warnings).toEqual([`Cannot keep a draft in ${dir} (a file is in the way of the folder); it is kept in ${fallback} instead`]);
    expect(files(fallback)).toEqual([`${a.id}.json`, `${b.id}.json`].sort());
    expect(outbox.list()).toEqual([a, b]);
    expect(outbox.update(a, { content: answers('a2') }, at(2)).content).toEqual(answers('a2'));
    expect(json(join(fallback, `${a.id}.json`))).toMatchObject({ content: answers('a2') });

    const none = box(dir);
    expect(() => none.outbox.add({ api_url: API }, CHECK_IN, answers('x'), 'typed', at(0))).toThrow(`Cannot keep a draft in ${dir} (a file is in the way of the folder)`);
    expect(() => none.outbox.add({ api_url: API }, CHECK_IN, answers('y'), 'typed', at(0))).toThrow(`Cannot keep a draft in ${dir} (a file is in the way of the folder)`);
    expect(none.warnings).toEqual([`Cannot keep a draft in ${dir} (a file is in the way of the folder); going on without one`]);
  });
});

describe('listing and finding', () => {
  it('lists every entry oldest first (by when it was made, then id), whoever made it, from both folders', () => {
    const { dir } = box();
    const fallback = join(tempDir('checkin-outbox-'), 'fallback');
    entryFile(dir, 'mmmm2222', '2026-11-22T10:00:00.000Z');
    entryFile(fallback, 'zzzz2222', '2026-11-22T08:00:00.000Z');
    entryFile(dir, 'bbbb2222', '2026-11-22T10:00:00.000Z');
    entryFile(dir, 'aaaa3333', '2026-11-22T11:00:00.000Z', { saved_at: '2026-11-22T07:00:00.000Z' });
    const outbox = new Outbox(dir, () => undefined, { fallback: () => fallback });
    const made = outbox.add({ api_url: 'https://elsewhere.example/api/v2' }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'x' } }, 'agent', new Date('2026-11-22T09:00:00.000Z'));
    expect(outbox.list().map((e) => e.id)).toEqual(['zzzz2222', made.id, 'bbbb2222', 'mmmm2222', 'aaaa3333']);
    expect(box(dir).outbox.list().map((e) => e.id)).toEqual([made.id, 'bbbb2222', 'mmmm2222', 'aaaa3333']);
    expect(box().outbox.list()).toEqual([]); // no folder at all: nothing, and no error
  });

  it('finds by id or by the unique start of one (any case, spaces around); a start shared by several is refused', () => {
    const { dir, outbox } = box();
    entryFile(dir, 'abcd2345', '2026-11-22T08:00:00.000Z');
    entryFile(dir, 'abcd2389', '2026-11-22T08:30:00.000Z');
    entryFile(dir, 'abcd6789', '2026-11-22T09:00:00.000Z');
    entryFile(dir, 'wxyz2345', '2026-11-22T10:00:00.000Z');
    entryFile(dir, 'abcd', '2026-11-22T11:00:00.000Z');
    expect(outbox.find('wxyz2345')?.id).toBe('wxyz2345');
    expect(outbox.find(' WXYZ ')?.id).toBe('wxyz2345');
    expect(outbox.find('abcd6')?.id).toBe('abcd6789');
    expect(outbox.find('abcd')?.id).toBe('abcd'); // an id that is also the start of others is itself
    expect(outbox.find('abcd234')?.id).toBe('abcd2345');
    let refused: unknown;
    try {
      outbox.find('Abcd2');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toBe("Abcd2 is the start of 2 drafts' ids (abcd2345, abcd2389); give more of it");
    // Too short, not an id's letters, or no such entry: none.
    for (const id of ['abc', 'abcd-2', '../x', 'qqqq']) expect(outbox.find(id)).toBeUndefined();
  });

  it('a damaged entry is set aside with one warning (never deleted), and never blocks the others', () => {
    const { dir, outbox, warnings } = box();
    const good = entryFile(dir, 'good2345', '2026-11-22T08:00:00.000Z');
    // All within one millisecond: each set aside under a name of its own.
    vi.spyOn(Date, 'now').mockReturnValue(1763803800000);
    const file = join(dir, 'bad23456.json');
    const asides = ['', '-1', '-2', '-3', '-4'].map((n) => `${file}.damaged-1763803800000${n}`);
    for (const [i, damage] of ['{"checkin_outbox": 1, "id": "bad', '', 'null', '{"checkin_outbox": 1, "id": "bad23456"}', '[1]'].entries()) {
      writeFileSync(file, damage);
      warnings.length = 0;
      expect(outbox.list()).toEqual([good]);
      expect(warnings).toEqual([`the draft ${file} was damaged; it was set aside as ${asides[i]}`]);
      expect(readFileSync(asides[i]!, 'utf8')).toBe(damage);
      expect(existsSync(file)).toBe(false);
      // Listed again: nothing more to say.
      expect(outbox.list()).toEqual([good]);
      expect(warnings).toHaveLength(1);
    }
    expect(files(dir)).toEqual(['bad23456.json.damaged-1763803800000', ...[1, 2, 3, 4].map((n) => `bad23456.json.damaged-1763803800000-${n}`), 'good2345.json']);
    expect(asides.map((a) => readFileSync(a, 'utf8'))).toEqual(['{"checkin_outbox": 1, "id": "bad', '', 'null', '{"checkin_outbox": 1, "id": "bad23456"}', '[1]']);
  });
});

describe('holds', () => {
  it('a run holds what it adds until it lets go: another outbox (another run) sees it busy and cannot claim it; releaseHolds lets go, and the entry waits', () => {
    const { dir, outbox } = box();
    const e = outbox.add({ api_url: API }, CHECK_IN, answers('held'), 'piped', at(0));
    expect(files(dir)).toEqual([`${e.id}.claim`, `${e.id}.json`]);
    expect(json(join(dir, `${e.id}.claim`))).toMatchObject({ pid: process.pid });
    const other = new Outbox(dir);
    expect(other.busyElsewhere(other.find(e.id)!)).toMatchObject({ pid: process.pid });
    expect(() => other.claim(other.find(e.id)!)).toThrow(ClaimedError);
    // Its own run takes it with the hold it has, and may change it.
    expect(outbox.take(e)).toBe(outbox.take(e));
    outbox.update(e, { content: answers('held, changed') }, at(1));
    outbox.releaseHolds();
    expect(files(dir)).toEqual([`${e.id}.json`]);
    expect(other.busyElsewhere(other.find(e.id)!)).toBeUndefined();
    // Let go, it is another's to send: the run that made it takes it back before changing it again, or is refused.
    const c = other.claim(other.find(e.id)!);
    expect(() => outbox.update(e, { content: answers('too late') }, at(2))).toThrow(ClaimedError);
    c.done();
    expect(files(dir)).toEqual([]);
    // Gone: never written again by the run that made it.
    expect(() => outbox.update(e, { content: answers('resurrected?') }, at(3))).toThrow('is gone');
    expect(files(dir)).toEqual([]);
  });
});

describe('claims', () => {
  it('a live claim is refused to every other call, in this process (another outbox too) and from a live process', () => {
    const { dir, outbox } = box();
    const e = outbox.add({ api_url: API }, CHECK_IN, answers('a'), 'typed', at(0), { hold: false });
    const claim = outbox.claim(e);
    const file = join(dir, `${e.id}.claim`);
    const held = json(file) as { pid: number; token: string; at: string };
    expect(held).toEqual({ pid: process.pid, token: expect.stringMatching(new RegExp(`^${process.pid}-[a-z2-9]{8}$`)), at: expect.any(String) });
    const refusal = `The draft ${e.id} is being written or sent by another checkin (process ${process.pid}, since ${held.at}); it was not sent again`;
    const leftover = `When no checkin is running, that claim was left by one that is gone (its process number now names another program): remove ${file} and try again.`;
    expect(() => outbox.claim(e)).toThrow(new ClaimedError(refusal, 1, leftover));
    expect(() => new Outbox(dir).claim(e)).toThrow(new ClaimedError(refusal, 1, leftover));
    expect(outbox.sender(e)).toEqual({ pid: process.pid, since: held.at });
    claim.release();
    claim.release(); // twice: nothing more
    expect(files(dir)).toEqual([`${e.id}.json`]);
    expect(outbox.sender(e)).toBeUndefined();
    outbox.claim(e).release();

    // Another process, alive (the one that started this test's worker), holds it.
    writeFileSync(file, JSON.stringify({ pid: process.ppid, token: `${process.ppid}-elsewher`, at: '2026-11-22T09:00:00.000Z' }));
    expect(() => outbox.claim(e)).toThrow(new ClaimedError(`The draft ${e.id} is being written or sent by another checkin (process ${process.ppid}, since 2026-11-22T09:00:00.000Z); it was not sent again`, 1, leftover));
    expect(outbox.sender(e)).toEqual({ pid: process.ppid, since: '2026-11-22T09:00:00.000Z' });
    expect(json(file)).toEqual({ pid: process.ppid, token: `${process.ppid}-elsewher`, at: '2026-11-22T09:00:00.000Z' });
  });

  it('a claim left by a process that died is taken back without a word when its request was not on the way', () => {
    const { dir, outbox, warnings } = box();
    const e = outbox.add({ api_url: API }, CHECK_IN, answers('a'), 'typed', at(0), { hold: false });
    const pid = deadPid();
    writeFileSync(join(dir, `${e.id}.claim`), JSON.stringify({ pid, token: `${pid}-deadbeef`, at: '2026-11-22T09:00:00.000Z' }));
    expect(outbox.sender(e)).toBeUndefined();
    const claim = outbox.claim(e);
    expect(json(join(dir, `${e.id}.claim`))).toMatchObject({ pid: process.pid });
    expect(outbox.maybeSent(e)).toBeUndefined();
    claim.release();
    expect(warnings).toEqual([]);
    expect(files(dir)).toEqual([`${e.id}.json`]);
    // This process's own pid with a token it does not hold: an earlier process's, taken back too.
    writeFileSync(join(dir, `${e.id}.claim`), JSON.stringify({ pid: process.pid, token: `${process.pid}-earlier2`, at: '2026-11-22T09:00:00.000Z' }));
    outbox.claim(e).release();
    expect(files(dir)).toEqual([`${e.id}.json`]);
  });

  it('a dead process’s claim that said `sending`: taken back, the entry marked maybe-sent with that time, one warning; it stays until done', () => {
    const { dir, outbox, warnings } = box();
    const e = outbox.add({ api_url: API }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'Shipped' } }, 'piped', at(0), { hold: false });
    const pid = deadPid();
    writeFileSync(join(dir, `${e.id}.claim`), JSON.stringify({ pid, token: `${pid}-deadbeef`, at: '2026-11-22T09:00:00.000Z', sending: '2026-11-22T09:00:01.000Z' }));
    const claim = outbox.claim(e);
    expect(warnings).toEqual([`the draft ${e.id} was being sent by a checkin that stopped (process ${pid}) before the service answered: it may have reached the service`]);
    expect(json(join(dir, `${e.id}.unknown`))).toEqual({ at: '2026-11-22T09:00:01.000Z' });
    expect(outbox.maybeSent(e)).toBe('2026-11-22T09:00:01.000Z');
    claim.release();
    expect(files(dir)).toEqual([`${e.id}.json`, `${e.id}.unknown`]);
    expect(new Outbox(dir).maybeSent(e)).toBe('2026-11-22T09:00:01.000Z');
    expect(new Outbox(dir).list()).toEqual([e]);
    // Claimed again (a person's word to send it anyway) and accepted: the entry and its mark go.
    outbox.claim(e).done();
    expect(files(dir)).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it('sending() says so in the claim; unknown() marks the entry maybe-sent and releases; done() removes entry and claim; release() leaves the entry', () => {
    const { dir, outbox } = box();
    const e = outbox.add({ api_url: API }, { kind: 'comment', on: 'check-in', id: 'c1' }, { kind: 'comment', body: 'hi' }, 'typed', at(0), { hold: false });
    const claim = outbox.claim(e);
    claim.sending();
    expect(json(join(dir, `${e.id}.claim`))).toEqual({ pid: process.pid, token: expect.any(String), at: expect.any(String), sending: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    claim.unknown(at(5));
    expect(files(dir)).toEqual([`${e.id}.json`, `${e.id}.unknown`]);
    expect(outbox.maybeSent(e)).toBe(at(5).toISOString());

    const f = outbox.add({ api_url: API }, CHECK_IN, answers('kept'), 'typed', at(1), { hold: false });
    outbox.claim(f).release();
    expect(files(dir)).toEqual([`${e.id}.json`, `${e.id}.unknown`, `${f.id}.json`].sort());
    expect(outbox.keptThisRun()).toEqual([e, f]);

    outbox.claim(f).done();
    expect(files(dir)).toEqual([`${e.id}.json`, `${e.id}.unknown`]);
    expect(outbox.keptThisRun()).toEqual([e]);
    expect(outbox.list()).toEqual([e]);
    expect(() => outbox.claim(f)).toThrow(new UsageError(`The draft ${f.id} is gone (sent or dropped by another checkin)`));
    expect(outbox.maybeSent(f)).toBeUndefined();
    expect(outbox.sender(f)).toBeUndefined();
  });
});

describe('drafts of earlier versions', () => {
  /** Earlier drafts in the drafts folder, the legacy folder and the fallback folder; what each should become. */
  function earlier() {
    const root = tempDir('checkin-outbox-');
    const dir = join(root, 'state', 'drafts');
    const legacy = join(root, 'config', 'drafts');
    const fallback = join(root, 'tmp', 'drafts');
    const made = [
      writeOldDraft(dir, { apiUrl: API, target: CHECK_IN, targetId: 'check-in 2026-11-22', content: answers('the draft'), savedAt: '2026-11-20T10:00:00.000Z' }),
      writeOldDraft(dir, { apiUrl: API, target: CHECK_IN, targetId: 'check-in 2026-11-22', content: answers('the one it replaced'), savedAt: '2026-11-20T09:00:00.000Z', replacedAt: 1763629200000 }),
      writeOldDraft(legacy, { apiUrl: API, target: { kind: 'activity' }, targetId: 'activity', content: { kind: 'activity', input: { group: 'git', description: 'Zoë’s commit' } }, savedAt: '2026-11-19T10:00:00.000Z' }),
      writeOldDraft(legacy, { apiUrl: 'https://other.example/api/v2', target: { kind: 'comment', on: 'check-in', id: 'c1' }, targetId: 'comment check-in c1', content: { kind: 'comment', body: 'elsewhere' }, savedAt: '2026-11-18T10:00:00.000Z' }),
      writeOldDraft(fallback, { apiUrl: API, target: { kind: 'goal' }, targetId: 'goal', content: { kind: 'goal', input: { title: 'From the temp folder' } }, savedAt: '2026-11-21T10:00:00.000Z' }),
    ];
    // What is not an earlier draft is left alone, unread and unsaid: a half-written temporary
    // file, something else, and a file under an earlier draft's name that holds none (it is not
    // an entry either, to be set aside as a damaged one).
    writeFileSync(join(legacy, `${'c'.repeat(32)}.json.123.abc.tmp`), '{ half');
    writeFileSync(join(legacy, 'notes.txt'), 'mine');
    writeFileSync(join(dir, `${'d'.repeat(32)}.json`), '{ half');
    // Oldest first.
    const expected = [made[3], made[2], made[1], made[0], made[4]].map((m) => entryOf(m!));
    const open = (warn: (m: string) => void = () => undefined) => new Outbox(dir, warn, { legacy, fallback: () => fallback });
    return { root, dir, legacy, fallback, made, expected, open };
  }

  it('are turned into entries when first listed (made "earlier"), the old files removed after; a second outbox finds them once', () => {
    const e = earlier();
    const warnings: string[] = [];
    const first = e.open((m) => warnings.push(m)).list();
    expect(first).toEqual(e.expected);
    expect(new Set(first.map((x) => x.id)).size).toBe(5);
    expect(warnings).toEqual([]);
    // Every entry is in the drafts folder; no old file is left; what was not a draft is.
    expect(files(e.dir)).toEqual([`${'d'.repeat(32)}.json`, ...first.map((x) => `${x.id}.json`)].sort());
    expect(readFileSync(join(e.dir, `${'d'.repeat(32)}.json`), 'utf8')).toBe('{ half');
    for (const x of first) expect(json(join(e.dir, `${x.id}.json`))).toEqual(x);
    expect(files(e.legacy)).toEqual([`${'c'.repeat(32)}.json.123.abc.tmp`, 'notes.txt']);
    expect(files(e.fallback)).toEqual([]);
    // The next run: the same entries, none twice.
    expect(e.open((m) => warnings.push(m)).list()).toEqual(first);
    expect(files(e.dir)).toHaveLength(6);
    expect(warnings).toEqual([]);
  });

  it('two outboxes that both read the old files (two runs at once) make each entry once', () => {
    const e = earlier();
    const a = e.open();
    const b = e.open();
    const seen = e.made.map((m) => [m.file, m.text] as const);
    const fromA = a.list();
    // b read the same files before a removed them: they are there again for it.
    for (const [file, text] of seen) writeFileSync(file, text);
    const fromB = b.list();
    expect(fromB).toEqual(fromA);
    expect(fromA).toEqual(e.expected);
    expect(files(e.dir)).toEqual([`${'d'.repeat(32)}.json`, ...fromA.map((x) => `${x.id}.json`)].sort());
    expect(seen.filter(([file]) => existsSync(file))).toEqual([]);
  });

  it('one a run was moving when it died is moved in by the next; one a live run is moving is left to it', () => {
    const { dir, outbox } = box();
    const a = writeOldDraft(dir, { apiUrl: API, target: { kind: 'activity' }, targetId: 'activity', content: { kind: 'activity', input: { group: 'git', description: 'half moved' } }, savedAt: '2026-01-01T00:00:00.000Z' });
    const b = writeOldDraft(dir, { apiUrl: API, target: CHECK_IN, targetId: 'check-in 2026-11-22', content: answers('being moved'), savedAt: '2026-01-01T00:00:01.000Z' });
    const dead = `${a.file}.moving-${deadPid()}-abc123`;
    const live = `${b.file}.moving-${process.ppid}-def456`;
    renameSync(a.file, dead);
    renameSync(b.file, live);
    expect(outbox.list()).toEqual([entryOf(a)]);
    expect(existsSync(dead)).toBe(false);
    expect(readFileSync(live, 'utf8')).toBe(b.text);
  });

  it('four processes converting 200 at once: every one is an entry, once; no old or temporary file is left', { timeout: 60_000 }, async () => {
    const root = tempDir('checkin-outbox-');
    const dir = join(root, 'state', 'drafts');
    const legacy = join(root, 'config', 'drafts');
    const texts = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const content = { kind: 'comment', body: `Zoë's comment ${i}` } as const;
      writeOldDraft(i % 2 ? legacy : dir, { apiUrl: API, target: { kind: 'comment', on: 'check-in', id: String(i) }, targetId: `comment check-in ${i}`, content, savedAt: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z` });
      texts.add(content.body);
    }
    // The outbox bundled (esbuild's command: its JS API would leave its service running), run by four children at once.
    const built = spawnSync(join(ROOT, 'node_modules', '.bin', 'esbuild'), [join(ROOT, 'src/config/outbox-files.ts'), '--bundle', '--platform=node', '--format=cjs', '--log-level=error'], { encoding: 'utf8', timeout: 20_000 });
    expect(built.status, built.stderr).toBe(0);
    const script = `${built.stdout}\n;const m = module.exports; const w = []; const l = new m.Outbox(process.argv[1], (x) => w.push(x), { legacy: process.argv[2] }).list(); console.log(JSON.stringify({ ids: l.map((e) => e.id), w }));`;
    const run = () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = track(spawn(process.execPath, ['-e', script, dir, legacy], { stdio: ['ignore', 'pipe', 'pipe'] }));
        let stdout = '';
        let stderr = '';
        child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`no exit in 30 s: ${stderr}`))), 30_000);
        child.on('error', reject);
        child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
      });
    const runs = await Promise.all([run(), run(), run(), run()]);
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, '']);
    const outs = runs.map((r) => JSON.parse(r.stdout) as { ids: string[]; w: string[] });
    for (const o of outs) expect(o.w).toEqual([]);
    const entries = new Outbox(dir).list();
    expect(entries).toHaveLength(200);
    expect(new Set(entries.map((x) => (x.content as { body: string }).body))).toEqual(texts);
    expect(entries.every((x) => x.made === 'earlier')).toBe(true);
    expect(files(dir)).toEqual(entries.map((x) => `${x.id}.json`).sort());
    expect(files(legacy)).toEqual([]);
    // Each listing holds only entries (one another process was moving just then may be missing from it, never twice).
    const ids = new Set(entries.map((x) => x.id));
    for (const o of outs) {
      expect(o.ids.every((id) => ids.has(id))).toBe(true);
      expect(new Set(o.ids).size).toBe(o.ids.length);
    }
  });
});
