// Where checkin keeps its files (src/config/paths.ts), the drafts of earlier versions turned into
// outbox entries (src/config/outbox-files.ts) when the same one is in two places or the move cannot be
// made, and the cache and inbox marker an earlier version kept in config.json, moved out on their
// first write.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/config/outbox-files.js';
import { checkinPaths, pathVariables } from '../../src/config/paths.js';
import { cacheKey, ConfigStore, MAX_LISTINGS, type InboxListing } from '../../src/config/store.js';
import { tempDir } from '../helpers/cleanup.js';
import { entryOf, writeOldDraft, type OldDraft } from '../helpers/earlier.js';
import { folderView } from '../helpers/outbox.js';

const API = 'https://steady.example/api/v2';
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
/** An earlier version's draft of a comment on check-in `i`, in `dir`. */
const oldComment = (dir: string, i: number, savedAt: string, body = `comment ${i}`, replacedAt?: number): OldDraft =>
  writeOldDraft(dir, {
    apiUrl: API,
    target: { kind: 'comment', on: 'check-in', id: String(i) },
    targetId: `comment check-in ${i}`,
    content: { kind: 'comment', body },
    savedAt,
    ...(replacedAt !== undefined && { replacedAt }),
  });
/** A folder's files, a drafts folder's entries as `<id>.json` (test/helpers/outbox.ts). */
const names = (dir: string) => (existsSync(dir) ? folderView(dir) : []);

describe('checkinPaths', () => {
  it('HOME alone: ~/.config, ~/.cache and ~/.local/state, and the drafts of earlier versions in the config folder', () => {
    expect(checkinPaths({ HOME: '/h/Zoë Ü' })).toEqual({
      config: '/h/Zoë Ü/.config/checkin',
      cache: '/h/Zoë Ü/.cache/checkin',
      state: '/h/Zoë Ü/.local/state/checkin',
      legacyDrafts: '/h/Zoë Ü/.config/checkin/drafts',
    });
  });

  it('XDG_*_HOME when absolute; a relative one is ignored (XDG), never a folder of wherever checkin runs', () => {
    expect(checkinPaths({ HOME: '/h', XDG_CONFIG_HOME: '/c d', XDG_CACHE_HOME: '/k', XDG_STATE_HOME: '/s' })).toEqual({
      config: '/c d/checkin',
      cache: '/k/checkin',
      state: '/s/checkin',
      legacyDrafts: '/c d/checkin/drafts',
    });
    expect(checkinPaths({ HOME: '/h', XDG_CONFIG_HOME: 'rel', XDG_CACHE_HOME: 'rel', XDG_STATE_HOME: './rel' })).toEqual(checkinPaths({ HOME: '/h' }));
    expect(pathVariables({ HOME: '/h', XDG_CONFIG_HOME: '/c d', XDG_CACHE_HOME: 'rel' })).toEqual({ XDG_CONFIG_HOME: '/c d' });
  });

  it('CHECKIN_CONFIG_DIR keeps everything in that one folder (no move: drafts stay in <dir>/drafts)', () => {
    expect(checkinPaths({ HOME: '/h', XDG_STATE_HOME: '/s', CHECKIN_CONFIG_DIR: '/one' })).toEqual({ config: '/one', cache: '/one', state: '/one' });
    expect(pathVariables({ HOME: '/h', XDG_STATE_HOME: '/s', CHECKIN_CONFIG_DIR: '/one' })).toEqual({ CHECKIN_CONFIG_DIR: '/one' });
  });
});

describe('the drafts of earlier versions, turned into entries', () => {
  it('one target’s draft in both places: the same draft is one entry, two different are two (with the copy kept when one was replaced); nothing is dropped', () => {
    const root = tempDir('checkin-migrate-');
    const [legacy, dir] = [join(root, 'old'), join(root, 'new')];
    // The old place holds the newer one (an earlier checkin ran after the move), the new place the
    // older, and the one that newer draft replaced; and one draft is in both places, byte for byte.
    const newer = oldComment(legacy, 1, '2026-02-01T00:00:00.000Z', 'newer');
    const older = oldComment(dir, 1, '2026-01-01T00:00:00.000Z', 'older');
    const replaced = oldComment(legacy, 1, '2025-12-01T00:00:00.000Z', 'replaced', 1764547200000);
    const same = [oldComment(legacy, 2, '2026-01-15T00:00:00.000Z'), oldComment(dir, 2, '2026-01-15T00:00:00.000Z')];
    expect(same[0]!.text).toBe(same[1]!.text);
    expect(newer.file.slice(legacy.length)).toBe(older.file.slice(dir.length));
    const warnings: string[] = [];
    const list = new Outbox(dir, (m) => warnings.push(m), { legacy }).list();
    expect(list).toEqual([replaced, older, same[0]!, newer].map(entryOf));
    expect(new Set(list.map((e) => e.id)).size).toBe(4);
    expect(warnings).toEqual([]);
    expect(names(legacy)).toEqual([]);
    expect(names(dir)).toEqual(list.map((e) => `${e.id}.json`).sort());
  });

  it('a drafts folder that cannot be made: every earlier draft is left where it was, byte for byte, each said; nothing is listed twice later', () => {
    const root = tempDir('checkin-migrate-');
    const legacy = join(root, 'old');
    writeFileSync(join(root, 'file'), ''); // the new place cannot be made: a file is in the way
    const dir = join(root, 'file', 'drafts');
    const kept = [oldComment(legacy, 1, '2026-11-20T09:00:00.000Z', 'Zoë 1'), oldComment(legacy, 2, '2026-11-21T09:00:00.000Z', 'Zoë 2', 1763715600000)];
    const warnings: string[] = [];
    expect(new Outbox(dir, (m) => warnings.push(m), { legacy }).list()).toEqual([]);
    expect(warnings).toEqual([`cannot read the drafts in ${dir}: a file is in the way of the folder`]);
    for (const d of kept) expect(readFileSync(d.file, 'utf8')).toBe(d.text);
    expect(names(legacy)).toEqual(kept.map((d) => d.file.slice(legacy.length + 1)).sort());
    // Once the folder can be made: each moved in, once.
    const free = join(root, 'drafts');
    const list = new Outbox(free, () => undefined, { legacy }).list();
    expect(list).toEqual(kept.map(entryOf));
    expect(new Outbox(free, () => undefined, { legacy }).list()).toEqual(list);
    expect(names(legacy)).toEqual([]);
  });

  it('temporary files of a save that was under way are left alone; a second run moves nothing', () => {
    const root = tempDir('checkin-migrate-');
    const [legacy, dir] = [join(root, 'old'), join(root, 'new')];
    const d = oldComment(legacy, 2, '2026-01-01T00:00:00.000Z');
    writeFileSync(join(legacy, `${'c'.repeat(32)}.json.123.abc.tmp`), '{ half');
    const [entry] = new Outbox(dir, () => undefined, { legacy }).list();
    expect(entry).toEqual(entryOf(d));
    expect(names(legacy)).toEqual([`${'c'.repeat(32)}.json.123.abc.tmp`]);
    expect(names(dir)).toEqual([`${entry!.id}.json`]);
    const again = new Outbox(dir, () => undefined, { legacy });
    expect(again.list()).toEqual([entry]);
    expect(names(legacy)).toEqual([`${'c'.repeat(32)}.json.123.abc.tmp`]);
    expect(names(dir)).toEqual([`${entry!.id}.json`]);
  });
});

describe('the cache and the inbox marker an earlier version kept in config.json', () => {
  function earlier() {
    const dir = tempDir('checkin-legacy-');
    const key = cacheKey(API, 'tok');
    const me = { id: 'p1', name: 'Zoë', username: 'zoe', teams: [], fetched_at: '2026-11-01T00:00:00.000Z' };
    const marker = { seen_at: '2026-11-01T00:00:00.000Z', listed: [{ kind: 'check-in' as const, id: 'c1' }] };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ api_url: API, token: 'tok', cache: { [key]: { me } }, inbox: { [`${API} p1`]: marker } }), {
      mode: 0o600,
    });
    return { dir, key, me, marker, store: new ConfigStore({ CHECKIN_CONFIG_DIR: dir }) };
  }

  it('are read from there until their first write moves them to cache.json and state.json', async () => {
    const e = earlier();
    expect(e.store.cached(API, 'tok', 'me')).toEqual(e.me);
    expect(e.store.inboxMarker(`${API} p1`)).toEqual(e.marker);
    await e.store.cache(API, 'tok', 'goals', [{ id: 'g1', title: 'Ünïcode' }]);
    expect(read(join(e.dir, 'cache.json'))).toEqual({ cache: { [e.key]: { me: e.me, goals: [{ id: 'g1', title: 'Ünïcode' }] } } });
    // The first write also makes the account the profile "default" (config.json's present shape).
    expect(read(join(e.dir, 'config.json'))).toEqual({ inbox: { [`${API} p1`]: e.marker }, profiles: { default: { api_url: API, token: 'tok' } } });
    await e.store.setInboxMarker(`${API} p2`, { seen_at: '2026-11-02T00:00:00.000Z' });
    expect(read(join(e.dir, 'state.json'))).toEqual({ inbox: { [`${API} p1`]: e.marker, [`${API} p2`]: { seen_at: '2026-11-02T00:00:00.000Z' } } });
    expect(read(join(e.dir, 'config.json'))).toEqual({ profiles: { default: { api_url: API, token: 'tok' } } });
    // A new store (the next run) reads them from their new files.
    const next = new ConfigStore({ CHECKIN_CONFIG_DIR: e.dir });
    expect(next.cached(API, 'tok', 'me')).toEqual(e.me);
    expect(next.inboxMarker(`${API} p1`)).toEqual(e.marker);
  });

  it('a cache folder that cannot be written leaves them in config.json, still read', async () => {
    const e = earlier();
    const blocked = tempDir('checkin-legacy-');
    writeFileSync(join(blocked, 'file'), '');
    const base = tempDir('checkin-legacy-');
    const store = new ConfigStore({ HOME: blocked, XDG_CONFIG_HOME: base, XDG_CACHE_HOME: join(blocked, 'file'), XDG_STATE_HOME: join(blocked, 'file') });
    const dir = join(base, 'checkin');
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), readFileSync(join(e.dir, 'config.json')));
    chmodSync(join(dir, 'config.json'), 0o600);
    await store.cache(API, 'tok', 'goals', []);
    await store.setInboxMarker(`${API} p1`, { seen_at: '2026-11-03T00:00:00.000Z' });
    expect(read(join(dir, 'config.json'))).toEqual(read(join(e.dir, 'config.json')));
    expect(store.cached(API, 'tok', 'me')).toEqual(e.me);
  });

  it('state.json that cannot be written: every marker this run set is kept for the run, each account its own', async () => {
    const blocked = tempDir('checkin-legacy-');
    writeFileSync(join(blocked, 'file'), '');
    const store = new ConfigStore({ HOME: blocked, XDG_CONFIG_HOME: tempDir('checkin-legacy-'), XDG_STATE_HOME: join(blocked, 'file') });
    await store.setInboxMarker(`${API} p1`, { seen_at: '2026-11-03T00:00:00.000Z' });
    await store.setInboxMarker(`${API} p2`, { seen_at: '2026-11-04T00:00:00.000Z' });
    expect([store.inboxMarker(`${API} p1`), store.inboxMarker(`${API} p2`)]).toEqual([
      { seen_at: '2026-11-03T00:00:00.000Z' },
      { seen_at: '2026-11-04T00:00:00.000Z' },
    ]);
  });

  it('a cache.json or state.json of another shape (damaged, edited) is read as empty and written anew', async () => {
    for (const text of ['{"cache": "abc", "inbox": [1, 2]}', '[1]', '{ half']) {
      const dir = tempDir('checkin-legacy-');
      writeFileSync(join(dir, 'cache.json'), text);
      writeFileSync(join(dir, 'state.json'), text);
      const store = new ConfigStore({ CHECKIN_CONFIG_DIR: dir });
      expect([store.cacheEntries(), store.inboxMarker('0')]).toEqual([{}, undefined]);
      await store.cache(API, 'tok', 'goals', []);
      await store.setInboxMarker('k', { seen_at: 'x' });
      expect(read(join(dir, 'cache.json'))).toEqual({ cache: { [cacheKey(API, 'tok')]: { goals: [] } } });
      expect(read(join(dir, 'state.json'))).toEqual({ inbox: { k: { seen_at: 'x' } } });
    }
  });
});

describe('the inbox listings kept per terminal (state.json)', () => {
  const listing = (minute: number): InboxListing => ({
    at: `2026-11-22T09:${String(minute).padStart(2, '0')}:00.000Z`,
    items: [{ kind: 'check-in', id: `c${minute}` }],
  });

  it('at most the newest MAX_LISTINGS terminals are kept; a terminal listing again replaces its own', async () => {
    const dir = tempDir('checkin-listings-');
    const store = new ConfigStore({ CHECKIN_CONFIG_DIR: dir });
    for (let m = 0; m < MAX_LISTINGS + 5; m++) await store.setInboxMarker('k', { seen_at: 'x' }, { terminal: `tty ${m}`, listing: listing(m) });
    const kept = new ConfigStore({ CHECKIN_CONFIG_DIR: dir }).inboxMarker('k')!.listings!;
    expect(MAX_LISTINGS).toBe(20);
    expect(Object.keys(kept).sort()).toEqual(Array.from({ length: MAX_LISTINGS }, (_, i) => `tty ${i + 5}`).sort());
    await store.setInboxMarker('k', { seen_at: 'x' }, { terminal: 'tty 7', listing: listing(59) });
    expect(new ConfigStore({ CHECKIN_CONFIG_DIR: dir }).inboxMarker('k')!.listings!['tty 7']).toEqual(listing(59));
  });

  it('a run that read the marker before another terminal listed (status) keeps that listing; another person’s are their own', async () => {
    const dir = tempDir('checkin-listings-');
    const before = new ConfigStore({ CHECKIN_CONFIG_DIR: dir });
    const stale = before.inboxMarker('k') ?? {};
    await new ConfigStore({ CHECKIN_CONFIG_DIR: dir }).setInboxMarker('k', { seen_at: 'x' }, { terminal: 'tty A', listing: listing(1) });
    // `checkin status` writes back what it read, with listings that are not the file's any more.
    await before.setInboxMarker('k', { ...stale, listings: { 'tty Z': listing(9) }, checked_at: 'now' });
    await before.setInboxMarker('other person', { seen_at: 'y' }, { terminal: 'tty B', listing: listing(2) });
    expect(read(join(dir, 'state.json')).inbox).toEqual({
      k: { checked_at: 'now', listings: { 'tty A': listing(1) } },
      'other person': { seen_at: 'y', listings: { 'tty B': listing(2) } },
    });
  });

  it("a run that read the marker before `checkin notify` moved its place (status, inbox) keeps notify's place: no notice is shown twice", async () => {
    const dir = tempDir('checkin-listings-');
    const status = new ConfigStore({ CHECKIN_CONFIG_DIR: dir });
    await status.setNotifyMarker('k', { at: '2026-11-22T09:00:00Z', blocked: ['p 2026-11-20'] });
    const stale = status.inboxMarker('k') ?? {};
    // notify looks, shows, and moves its place meanwhile.
    await new ConfigStore({ CHECKIN_CONFIG_DIR: dir }).setNotifyMarker('k', { at: '2026-11-22T09:05:00Z', blocked: ['p 2026-11-20', 'q 2026-11-22'] });
    // status writes back what it read, with notify's place as it was.
    await status.setInboxMarker('k', { ...stale, checked_at: 'now', unread: 1 });
    expect(read(join(dir, 'state.json')).inbox).toEqual({
      k: { checked_at: 'now', unread: 1, notify: { at: '2026-11-22T09:05:00Z', blocked: ['p 2026-11-20', 'q 2026-11-22'] } },
    });
    // notify's own write keeps what status wrote.
    await status.setNotifyMarker('k', { at: '2026-11-22T09:10:00Z' });
    expect(read(join(dir, 'state.json')).inbox).toEqual({ k: { checked_at: 'now', unread: 1, notify: { at: '2026-11-22T09:10:00Z' } } });
  });
});
