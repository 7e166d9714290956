// The draft store: one key per canonical target, one file per draft, written whole.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DraftStore, draftKey } from '../src/config/drafts.js';
import { tempDir } from './helpers/cleanup.js';

const NOW = new Date('2026-11-22T09:30:00Z');
const store = () => new DraftStore(join(tempDir('checkin-drafts-'), 'drafts'));

describe('draft keys', () => {
  it('one key per service and target, however they were written', () => {
    const key = draftKey('https://service.steady.space/api/v2', { kind: 'check-in', key: '2026-11-22' });
    expect(key).toBe('https://service.steady.space/api/v2 check-in 2026-11-22');
    expect(draftKey('HTTPS://Service.Steady.Space:443/api/v2/', { kind: 'check-in', key: '2026-11-22' })).toBe(key);
    const id = '3308A89A-1006-5AD0-94A3-D9510E51AECB';
    expect(draftKey('http://127.0.0.1:9/api/v2', { kind: 'comment', on: 'check-in', id })).toBe(`http://127.0.0.1:9/api/v2 comment check-in ${id.toLowerCase()}`);
    expect(draftKey('http://127.0.0.1:9/api/v2', { kind: 'comment', on: 'goal-update', id })).not.toBe(draftKey('http://127.0.0.1:9/api/v2', { kind: 'comment', on: 'check-in', id }));
    expect(draftKey('http://127.0.0.1:9/api/v2', { kind: 'goal-update', goalId: id })).not.toBe(draftKey('http://127.0.0.1:9/api/v2', { kind: 'goal-update-edit', id }));
  });
});

describe('the draft store', () => {
  it('saves one 0600 file per draft in a 0700 folder, reads it back, deletes it', () => {
    const s = store();
    const url = 'http://127.0.0.1:9/api/v2';
    s.save(url, { kind: 'check-in', key: '2026-11-22' }, { kind: 'answers', answers: { intentions: 'a' } }, NOW);
    s.save(url, { kind: 'comment', on: 'check-in', id: 'c1' }, { kind: 'comment', body: 'b' }, NOW);
    // Named by the SHA-256 of the key, as drafts always were (by @noble/hashes before node:crypto):
    // a draft an earlier checkin saved is found.
    expect(readdirSync(s.dir).sort()).toEqual(['0377eaf2d96c133cfd06496e94a30512.json', 'd2b236761f089dae9bbed86089529df2.json']);
    expect((statSync(s.dir).mode & 0o777).toString(8)).toBe('700');
    for (const f of readdirSync(s.dir)) expect((statSync(join(s.dir, f)).mode & 0o777).toString(8)).toBe('600');
    expect(s.get(url + '/', { kind: 'check-in', key: '2026-11-22' })).toEqual({
      key: `${url} check-in 2026-11-22`,
      api_url: url,
      target: { kind: 'check-in', key: '2026-11-22' },
      content: { kind: 'answers', answers: { intentions: 'a' } },
      saved_at: NOW.toISOString(),
    });
    expect(s.get('http://other/api/v2', { kind: 'check-in', key: '2026-11-22' })).toBeUndefined();
    s.delete(url, { kind: 'check-in', key: '2026-11-22' });
    expect(s.get(url, { kind: 'check-in', key: '2026-11-22' })).toBeUndefined();
    expect(readdirSync(s.dir)).toHaveLength(1);
    s.delete(url, { kind: 'check-in', key: '2026-11-22' }); // gone already: nothing to do
  });

  it('a damaged draft is set aside with a one-line warning (never deleted) and never blocks a new one', () => {
    const warnings: string[] = [];
    const s = new DraftStore(join(tempDir('checkin-drafts-'), 'drafts'), (m) => warnings.push(m));
    const url = 'http://127.0.0.1:9/api/v2';
    const target = { kind: 'comment', on: 'check-in', id: 'c1' } as const;
    s.save(url, target, { kind: 'comment', body: 'b' }, NOW);
    const file = join(s.dir, readdirSync(s.dir)[0]!);
    for (const damage of ['{"key": "half a dra', '', 'null', '{"key": 1}']) {
      writeFileSync(file, damage);
      warnings.length = 0;
      expect(s.get(url, target)).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(new RegExp(`^the draft ${file} was damaged; it was set aside as ${file}\\.damaged-\\d+$`));
      const aside = warnings[0]!.split(' as ')[1]!;
      expect(readFileSync(aside, 'utf8')).toBe(damage);
      s.save(url, target, { kind: 'comment', body: 'new' }, NOW);
      expect(s.get(url, target)?.content).toEqual({ kind: 'comment', body: 'new' });
    }
  });

  it('localhost, 127.0.0.1 and ::1 are one service; a trailing slash changes nothing', () => {
    const s = store();
    const target = { kind: 'check-in', key: '2026-11-22' } as const;
    s.save('http://localhost:8080/api/v2/', target, { kind: 'answers', answers: { intentions: 'x' } }, NOW);
    expect(s.get('http://127.0.0.1:8080/api/v2', target)).toBeDefined();
    expect(s.get('http://[::1]:8080/api/v2', target)).toBeDefined();
    expect(s.list('http://LOCALHOST:8080/api/v2')).toHaveLength(1);
  });
});
