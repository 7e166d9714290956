// keep() (src/domain/outbox.ts): this run's entry for a target is written when its words change,
// and not again when the same words are kept once more (a send keeping what was kept before it).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.js';
import { keep } from '../../src/domain/outbox.js';
import { tempDir } from '../helpers/cleanup.js';
import { bufferIO } from '../helpers/io.js';
import { folderView, rowsIn } from '../helpers/outbox.js';

describe('keep', () => {
  it('the same words again write nothing; other words update the same entry', () => {
    const dir = tempDir('checkin-keep-');
    let t = Date.parse('2026-11-22T09:30:00Z');
    const ctx = createContext({
      io: bufferIO(),
      env: { HOME: dir, CHECKIN_CONFIG_DIR: dir, CHECKIN_NO_KEYCHAIN: '1', CHECKIN_API_URL: 'http://127.0.0.1:1/api/v2' },
      now: () => new Date(t),
    });
    const target = { kind: 'check-in', key: '2026-11-22' } as const;
    const first = keep(ctx, target, { kind: 'answers', answers: { previous: 'Shipped it' } })!;
    const before = rowsIn(join(dir, 'drafts'));
    t += 60_000;
    const again = keep(ctx, target, { kind: 'answers', answers: { previous: 'Shipped it' } })!;
    expect(again.id).toBe(first.id);
    expect(rowsIn(join(dir, 'drafts'))).toEqual(before);
    expect(again.saved_at).toBe(first.saved_at);
    const other = keep(ctx, target, { kind: 'answers', answers: { previous: 'Shipped it', intentions: 'Review' } })!;
    expect(other.id).toBe(first.id);
    expect(other.saved_at).toBe(new Date(t).toISOString());
    expect(folderView(join(dir, 'drafts')).filter((n) => n.endsWith('.json'))).toEqual([`${first.id}.json`]);
  });
});
