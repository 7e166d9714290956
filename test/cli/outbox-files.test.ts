// The outbox (src/config/outbox-files.ts), one SQLite database: every write a row of its own; only
// the run that made an entry changes it; a claim is one transaction (exactly one holder, across
// processes and calls); a dead holder is known by its pid *and* its start time, and a dead holder
// whose request was on the way leaves "may have been sent"; 0.1.0's files move in once.
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, vi } from 'vitest';
import { ClaimedError, GoneError, LostClaimError, Outbox, UnknownStateError, type DraftContent, type DraftTarget } from '../../src/config/outbox-files.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/cleanup.js';
import { folderView, rowsIn } from '../helpers/outbox.js';
import { patient } from '../helpers/patience.js';

const API = 'http://127.0.0.1:9/api/v2';
const T0 = new Date('2026-11-22T09:30:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const CHECK_IN: DraftTarget = { kind: 'check-in', key: '2026-11-22' };
const answers = (intentions: string): DraftContent => ({ kind: 'answers', answers: { intentions } });

function box(dir = join(tempDir('checkin-outbox-'), 'drafts')) {
  const warnings: string[] = [];
  return { dir, warnings, outbox: new Outbox(dir, (m) => warnings.push(m)) };
}

/** A process that has ended: its pid names nobody now. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''], { timeout: patient(10_000) });
  expect(r.status).toBe(0);
  return r.pid;
}

/** Sets a row's holder as another process would have (the test plays a checkin that is gone, or one whose pid was reused). */
function holdAs(dir: string, id: string, holder: { pid: number; start?: string }, state: 'held' | 'sending', sendingAt?: string) {
  const db = new DatabaseSync(join(dir, 'outbox.db'));
  db.prepare('UPDATE entries SET state = ?, holder = ?, sending_at = ? WHERE id = ?').run(
    state,
    JSON.stringify({ ...holder, token: 'x', at: T0.toISOString() }),
    sendingAt ?? null,
    id,
  );
  db.close();
}

/** A row's holder as it is now. */
function holderOf(dir: string, id: string): { pid: number; ns?: string; token: string; until?: string } | undefined {
  const r = rowsIn(dir).find((x) => x.id === id);
  return r?.holder ? JSON.parse(r.holder) : undefined;
}

/** Changes fields of a row's holder, as time or another pid namespace would see it (`until` in the past: its lease ran out). */
function setHolder(dir: string, id: string, fields: Record<string, unknown>) {
  const db = new DatabaseSync(join(dir, 'outbox.db'));
  const r = db.prepare('SELECT holder FROM entries WHERE id = ?').get(id) as { holder: string };
  db.prepare('UPDATE entries SET holder = ? WHERE id = ?').run(JSON.stringify({ ...JSON.parse(r.holder), ...fields }), id);
  db.close();
}

const past = () => new Date(Date.now() - 1000).toISOString();
const soon = () => new Date(Date.now() + 60_000).toISOString();

describe('the outbox database', () => {
  it('each write is a row of its own in a 0600 database of a 0700 folder; two for one target are two; nothing is opened until used', () => {
    const { dir, outbox } = box();
    expect(outbox.list()).toEqual([]);
    expect(folderView(dir)).toEqual([]); // listing an outbox that is not there makes nothing
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'piped', at(0), { hold: false });
    const b = outbox.add({ api_url: API }, CHECK_IN, answers('two'), 'agent', at(1), { hold: false, base: 'new' });
    expect(a.id).not.toBe(b.id);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'outbox.db')).mode & 0o777).toBe(0o600);
    expect(new Outbox(dir).list().map((e) => [e.made, e.content, e.base])).toEqual([
      ['piped', answers('one'), undefined],
      ['agent', answers('two'), 'new'],
    ]);
    expect(rowsIn(dir).map((r) => r.state)).toEqual(['kept', 'kept']);
  });

  it('update changes this run’s own entry; another run’s is refused', () => {
    const { dir, outbox } = box();
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0));
    outbox.update(a, { content: answers('one, more') }, at(1));
    expect(new Outbox(dir).find(a.id)!.content).toEqual(answers('one, more'));
    expect(() => new Outbox(dir).update(a, { content: answers('theirs') }, at(2))).toThrow(/not made by this run/);
  });

  it('finds by id or the unique start of one (any case, spaces around); a start shared by several is refused', () => {
    const { dir, outbox } = box();
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0), { hold: false });
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    for (const id of ['abcd1111', 'abcd2222']) db.prepare('INSERT INTO entries (id, data) VALUES (?, ?)').run(id, JSON.stringify({ ...a, id }));
    db.close();
    expect(outbox.find(` ${a.id.toUpperCase()} `)?.id).toBe(a.id);
    expect(outbox.find('abcd1')?.id).toBe('abcd1111');
    expect(() => outbox.find('abcd')).toThrow(UsageError);
    expect(() => outbox.find('abcd')).toThrow(/abcd is the start of 2 drafts' ids \(abcd1111, abcd2222\)/);
  });

  it('a claim is exclusive: a second outbox (another run) is refused while it is held, and takes it once released', () => {
    const { dir, outbox } = box();
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0), { hold: false });
    const claim = outbox.claim(a);
    const other = new Outbox(dir);
    expect(() => other.claim(a)).toThrow(ClaimedError);
    expect(other.busyElsewhere(a)).toMatchObject({ pid: process.pid });
    claim.release();
    const again = other.claim(a);
    again.done();
    expect(() => outbox.claim(a)).toThrow(GoneError);
    expect(rowsIn(dir)).toEqual([]);
  });

  it('an entry kept to be sent is born held, in the transaction that inserts it: no other run can claim it before its maker does', () => {
    const { dir, outbox } = box();
    outbox.add({ api_url: API }, CHECK_IN, answers('first'), 'typed', at(0), { hold: false });
    // What every insert looked like the moment it was made, as any other process would have seen it once committed.
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    db.exec('CREATE TABLE born (id TEXT, state TEXT, holder TEXT)');
    db.exec('CREATE TRIGGER seen AFTER INSERT ON entries BEGIN INSERT INTO born VALUES (NEW.id, NEW.state, NEW.holder); END');
    const held = outbox.add({ api_url: API }, CHECK_IN, answers('typed now'), 'typed', at(1));
    const kept = outbox.add({ api_url: API }, CHECK_IN, answers('kept only'), 'agent', at(2), { hold: false });
    const born = db.prepare('SELECT id, state, holder FROM born').all() as Array<{ id: string; state: string; holder: string | null }>;
    db.close();
    expect(born.map((r) => [r.id, r.state])).toEqual([
      [held.id, 'held'],
      [kept.id, 'kept'],
    ]);
    expect(JSON.parse(born[0]!.holder!)).toMatchObject({ pid: process.pid });
    expect(() => new Outbox(dir).claim(held)).toThrow(ClaimedError);
  });

  it('a dead holder is taken back without a word when its request was not on the way', () => {
    const { dir, outbox, warnings } = box();
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0), { hold: false });
    holdAs(dir, a.id, { pid: deadPid() }, 'held');
    const claim = new Outbox(dir).claim(a);
    claim.release();
    expect(warnings).toEqual([]);
    expect(outbox.maybeSent(a)).toBeUndefined();
  });

  it('a dead holder whose request was on the way leaves "may have been sent" with that time, which only a send or a drop clears', () => {
    const { dir } = box();
    const w: string[] = [];
    const outbox = new Outbox(dir, (m) => w.push(m));
    const a = outbox.add({ api_url: API }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'x' } }, 'typed', at(0), {
      hold: false,
    });
    holdAs(dir, a.id, { pid: deadPid() }, 'sending', '2026-11-22T09:31:00.000Z');
    expect(new Outbox(dir).maybeSent(a)).toBe('2026-11-22T09:31:00.000Z');
    const claim = outbox.claim(a);
    expect(w).toEqual([expect.stringMatching(new RegExp(`^the draft ${a.id} was being sent by a checkin that stopped .* it may have reached the service$`))]);
    claim.release();
    // Released, listed, claimed again: still maybe sent.
    expect(new Outbox(dir).maybeSent(a)).toBe('2026-11-22T09:31:00.000Z');
    expect(rowsIn(dir)[0]).toMatchObject({ state: 'kept', maybe_at: '2026-11-22T09:31:00.000Z' });
    new Outbox(dir).claim(a).done();
    expect(rowsIn(dir)).toEqual([]);
  });

  it('a pid reused by another program is not the holder: its start time differs', () => {
    const { dir } = box();
    const outbox = new Outbox(dir);
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0), { hold: false });
    // This very process's pid, with another start time: a process that had this pid before.
    holdAs(dir, a.id, { pid: process.pid, start: '1' }, 'sending', '2026-11-22T09:31:00.000Z');
    expect(outbox.sender(a)).toBeUndefined();
    expect(outbox.maybeSent(a)).toBe('2026-11-22T09:31:00.000Z');
  });

  it('sending() is in the row; unknown() marks it maybe sent and releases; done() removes the row', () => {
    const { dir, outbox } = box();
    const a = outbox.add({ api_url: API }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'x' } }, 'typed', at(0), {
      hold: false,
    });
    const c = outbox.claim(a);
    c.sending();
    expect(rowsIn(dir)[0]).toMatchObject({ state: 'sending', sending_at: expect.any(String) });
    c.unknown(at(5));
    expect(rowsIn(dir)[0]).toMatchObject({ state: 'kept', holder: null, maybe_at: at(5).toISOString() });
    outbox.claim(a).done();
    expect(rowsIn(dir)).toEqual([]);
  });

  it("0.1.0's files move in once: an entry, its claim that said `sending` (maybe sent), an `.unknown` marker, the editor's file", () => {
    const dir = join(tempDir('checkin-outbox-'), 'drafts');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const e = (id: string, over: object = {}) => ({
      checkin_outbox: 1,
      id,
      account: { api_url: API },
      target: CHECK_IN,
      content: answers(id),
      made: 'typed',
      created_at: T0.toISOString(),
      saved_at: T0.toISOString(),
      ...over,
    });
    writeFileSync(join(dir, 'plainone.json'), JSON.stringify(e('plainone')));
    writeFileSync(join(dir, 'claimed1.json'), JSON.stringify(e('claimed1')));
    writeFileSync(join(dir, 'claimed1.claim'), JSON.stringify({ pid: deadPid(), token: 't', at: T0.toISOString(), sending: '2026-11-22T09:40:00.000Z' }));
    writeFileSync(join(dir, 'unknown1.json'), JSON.stringify(e('unknown1')));
    writeFileSync(join(dir, 'unknown1.unknown'), JSON.stringify({ at: '2026-11-22T09:50:00.000Z' }));
    writeFileSync(
      join(dir, 'edited01.json'),
      JSON.stringify(e('edited01', { content: { kind: 'text', text: 'as opened' }, editing: { file: 'edited01.md', pid: deadPid(), shown: 'x' } })),
    );
    writeFileSync(join(dir, 'edited01.md'), 'as saved later');
    const outbox = new Outbox(dir);
    expect(outbox.list().map((x) => [x.id, x.content])).toEqual([
      ['claimed1', answers('claimed1')],
      ['edited01', { kind: 'text', text: 'as saved later' }],
      ['plainone', answers('plainone')],
      ['unknown1', answers('unknown1')],
    ]);
    expect(folderView(dir)).toEqual([
      'claimed1.json',
      'claimed1.unknown',
      'edited01.json',
      'edited01.md',
      'plainone.json',
      'unknown1.json',
      'unknown1.unknown',
    ]);
    expect(outbox.maybeSent(outbox.find('claimed1')!)).toBe('2026-11-22T09:40:00.000Z');
    expect(outbox.maybeSent(outbox.find('unknown1')!)).toBe('2026-11-22T09:50:00.000Z');
    expect(outbox.editedUnwatched(outbox.find('edited01')!)).toBe(true);
    // Sent, then the same file written back (a stale copy): it is not moved in again.
    outbox.claim(outbox.find('plainone')!).done();
    writeFileSync(join(dir, 'plainone.json'), JSON.stringify(e('plainone')));
    expect(new Outbox(dir).find('plainone')).toBeUndefined();
  });

  it('an editor that outlived the send saves again: what it saved becomes a new draft for the same target, said once; the same words again, or none, make nothing', () => {
    const { dir, warnings } = box();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const e = (id: string) => ({
      id,
      account: { api_url: API },
      target: CHECK_IN,
      content: { kind: 'text', text: 'as opened' },
      made: 'editor',
      created_at: T0.toISOString(),
      saved_at: T0.toISOString(),
      editing: { file: `${id}.md`, pid: deadPid(), shown: 'x' },
    });
    for (const id of ['edited02', 'edited03', 'edited04']) {
      writeFileSync(join(dir, `${id}.json`), JSON.stringify(e(id)));
      writeFileSync(join(dir, `${id}.md`), `${id} as sent`);
    }
    const outbox = new Outbox(dir, (m) => warnings.push(m));
    // Each is sent as its file said then (the person's yes to "written in an editor after checkin stopped watching it").
    for (const id of ['edited02', 'edited03', 'edited04']) {
      const entry = outbox.find(id)!;
      expect(entry.content).toEqual({ kind: 'text', text: `${id} as sent` });
      outbox.claim(entry).done();
    }
    expect(outbox.list()).toEqual([]);
    expect(folderView(dir).filter((n) => n.endsWith('.md'))).toEqual([]);
    // The editor, still open, saves again: new words into one, the same words into another, nothing into the third.
    writeFileSync(join(dir, 'edited02.md'), 'edited02 saved after the send');
    writeFileSync(join(dir, 'edited03.md'), 'edited03 as sent');
    const next = new Outbox(dir, (m) => warnings.push(m));
    const listed = next.list();
    expect(listed.map((x) => [x.target, x.content, x.made, x.base])).toEqual([
      [CHECK_IN, { kind: 'text', text: 'edited02 saved after the send' }, 'editor', undefined],
    ]);
    expect(listed[0]!.id).not.toBe('edited02');
    expect(warnings).toEqual([
      `the editor saved the draft edited02 again after it was sent; what it saved then is kept as a new draft, ${listed[0]!.id} (\`checkin drafts\` lists it)`,
    ]);
    expect(folderView(dir).filter((n) => n.endsWith('.md'))).toEqual([]);
    // Words no one has seen sent: asked before they go, as any editor's words checkin did not watch.
    expect(next.editedUnwatched(listed[0]!)).toBe(true);
    // Said once: the next open finds nothing more; each sent entry is still remembered for its editor.
    new Outbox(dir, (m) => warnings.push(m)).list();
    expect(warnings).toHaveLength(1);
    expect(
      rowsIn(dir)
        .map((r) => `${r.id} ${r.state}`)
        .sort(),
    ).toEqual([`${listed[0]!.id} kept`, 'edited02 sent', 'edited03 sent', 'edited04 sent'].sort());
    // The same editor saves once more: that too is a new draft (the words taken in last are not taken again).
    writeFileSync(join(dir, 'edited02.md'), 'edited02 saved after the send');
    expect(new Outbox(dir).list()).toHaveLength(1);
    writeFileSync(join(dir, 'edited02.md'), 'edited02 saved a third time');
    expect(new Outbox(dir).list().map((x) => x.content)).toEqual([
      { kind: 'text', text: 'edited02 saved after the send' },
      { kind: 'text', text: 'edited02 saved a third time' },
    ]);
  });

  it('a holder of another pid namespace is alive while its lease lasts, whatever its pid reads as here; once it ran out it is taken back', () => {
    const { dir, warnings } = box();
    const outbox = new Outbox(dir, (m) => warnings.push(m));
    const a = outbox.add({ api_url: API }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'x' } }, 'typed', at(0), {
      hold: false,
    });
    // A container's checkin: pid 1 there, with a start time that matches nothing here.
    holdAs(dir, a.id, { pid: 1, start: '7' }, 'sending', '2026-11-22T09:31:00.000Z');
    setHolder(dir, a.id, { ns: 'pid:[1]', until: soon() });
    expect(() => outbox.claim(a)).toThrow(
      /is being written or sent by another checkin \(process 1 of another pid namespace, since .*\); it was not sent again$/,
    );
    expect(outbox.sender(a)).toMatchObject({ pid: 1 });
    expect(outbox.maybeSent(a)).toBeUndefined();
    setHolder(dir, a.id, { until: past() });
    expect(outbox.sender(a)).toBeUndefined();
    expect(outbox.maybeSent(a)).toBe('2026-11-22T09:31:00.000Z');
    outbox.claim(a).release();
    expect(warnings).toEqual([expect.stringMatching(/was being sent by a checkin that stopped .* it may have reached the service$/)]);
  });

  it('a holder of this pid namespace whose process is gone is taken back at once, its lease notwithstanding', () => {
    const { dir, outbox } = box();
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0), { hold: false });
    const c = new Outbox(dir).claim(a);
    const mine = holderOf(dir, a.id)!;
    expect(mine.ns).toMatch(/^pid:\[\d+\]$/);
    expect(Date.parse(mine.until!)).toBeGreaterThan(Date.now());
    setHolder(dir, a.id, { pid: deadPid() });
    outbox.claim(a).done();
    expect(rowsIn(dir)).toEqual([]);
    c.release();
  });

  it("a claim taken back once its lease ran out is the other's: the stale holder's sending(), check(), done() and release() change nothing, and it stops, said once", () => {
    const { dir, warnings } = box();
    const stale = new Outbox(dir, (m) => warnings.push(m));
    const a = stale.add({ api_url: API }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'x' } }, 'typed', at(0), {
      hold: false,
    });
    const c = stale.claim(a);
    // As another pid namespace sees it once the lease ran out (the holder paused, a machine asleep): taken back, held there.
    setHolder(dir, a.id, { ns: 'pid:[1]', until: past() });
    const other = new Outbox(dir).claim(a);
    const theirs = rowsIn(dir)[0]!;
    expect(theirs).toMatchObject({ state: 'held' });
    const words = new RegExp(
      `^Nothing was sent: another checkin took over the draft ${a.id} while this one held it \\(this one's hold had run out\\); it is left to that one$`,
    );
    expect(() => c.sending()).toThrow(LostClaimError);
    expect(() => c.sending()).toThrow(words);
    expect(() => c.check()).toThrow(words);
    c.unknown(at(5));
    c.done();
    c.release();
    expect(rowsIn(dir)).toEqual([theirs]);
    expect(warnings).toEqual([]);
    other.release();
  });

  it('done() under a claim taken back while its request was out removes nothing: the row stays "may have been sent", and that is said once', () => {
    const { dir, warnings } = box();
    const stale = new Outbox(dir, (m) => warnings.push(m));
    const a = stale.add({ api_url: API }, { kind: 'activity' }, { kind: 'activity', input: { group: 'git', description: 'x' } }, 'typed', at(0), {
      hold: false,
    });
    const c = stale.claim(a);
    c.sending();
    setHolder(dir, a.id, { ns: 'pid:[1]', until: past() });
    new Outbox(dir).claim(a).release();
    c.done();
    c.done();
    expect(rowsIn(dir)).toEqual([expect.objectContaining({ id: a.id, state: 'kept', maybe_at: expect.any(String) })]);
    expect(warnings.filter((w) => /was sent, but another checkin had taken it over meanwhile, so it was not removed here$/.test(w))).toHaveLength(1);
  });

  it("an entry's text is changed only under its run's claim: taken back, the change is refused (and keep() keeps the words as an entry of their own)", () => {
    const { dir, outbox } = box();
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0));
    setHolder(dir, a.id, { ns: 'pid:[1]', until: past() });
    const other = new Outbox(dir).claim(a);
    expect(() => outbox.update(a, { content: answers('one, more') }, at(1))).toThrow(GoneError);
    expect(() => outbox.update(a, { content: answers('one, more') }, at(1))).toThrow(/is gone \(sent, dropped or taken over by another checkin\)$/);
    expect(new Outbox(dir).find(a.id)!.content).toEqual(answers('one'));
    other.release();
  });

  it('a claim renews its lease while it is held, and stops when it is released', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], now: Date.now() });
    try {
      const { dir, outbox } = box();
      const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0));
      const first = Date.parse(holderOf(dir, a.id)!.until!);
      vi.advanceTimersByTime(10_000);
      expect(Date.parse(holderOf(dir, a.id)!.until!)).toBe(first + 10_000);
      outbox.releaseHolds();
      vi.advanceTimersByTime(30_000);
      expect(rowsIn(dir)[0]).toMatchObject({ state: 'kept', holder: null });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a state this checkin does not know (a newer one's) is listed, never claimed nor sent", () => {
    const { dir, outbox } = box();
    const a = outbox.add({ api_url: API }, CHECK_IN, answers('one'), 'typed', at(0), { hold: false });
    const db = new DatabaseSync(join(dir, 'outbox.db'));
    db.prepare("UPDATE entries SET state = 'queued' WHERE id = ?").run(a.id);
    db.close();
    expect(new Outbox(dir).list().map((e) => e.id)).toEqual([a.id]);
    expect(() => outbox.claim(a)).toThrow(UnknownStateError);
    expect(() => outbox.claim(a)).toThrow(`The draft ${a.id} is marked "queued", which this checkin does not know (a newer checkin's); it was not sent`);
    expect(rowsIn(dir)[0]).toMatchObject({ state: 'queued' });
  });
});
