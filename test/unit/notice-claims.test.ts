// config/notice-claims.ts: a notice's claim, by one run then another, on clocks that jump.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openNoticeClaims } from '../../src/config/notice-claims.js';
import { sqlite } from '../../src/config/outbox-files.js';
import { MAX_NOTICES } from '../../src/domain/notices.js';
import { showingAtMostMs } from '../../src/system/notifier.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-11-22T09:30:00Z');
const open = (now: () => number) =>
  openNoticeClaims(
    dir,
    'account',
    () => new Date(now()),
    showingAtMostMs(MAX_NOTICES),
    (line) => expect.unreachable(line),
  );

it(`a claim holds while its lease lasts, and is another run's once it ran out; one shown is no run's again`, () => {
  dir = mkdtempSync(join(tmpdir(), 'claims-'));
  let t = T;
  const a = open(() => t);
  const b = open(() => t);
  expect(a.claim(['x', 'y'])).toEqual({ mine: new Set(['x', 'y']), showing: new Set() });
  expect(b.claim(['x', 'y'])).toEqual({ mine: new Set(), showing: new Set(['x', 'y']) });
  // Held as long as the notifier may take to show them all (a hung notifier is killed at its bound): not shown twice meanwhile.
  t += showingAtMostMs(MAX_NOTICES) + 1000;
  expect(b.claim(['x', 'y'])).toEqual({ mine: new Set(), showing: new Set(['x', 'y']) });
  a.settle(['x'], []);
  t += 2 * 60_000;
  expect(b.claim(['x', 'y'])).toEqual({ mine: new Set(['y']), showing: new Set() });
  a.close();
  b.close();
});

it(`a run that read the clock a moment before another, and took the lock after it, leaves that run's claim alone`, () => {
  dir = mkdtempSync(join(tmpdir(), 'claims-'));
  let t = T;
  const a = open(() => t);
  const b = open(() => t - 5000);
  expect(a.claim(['x']).mine).toEqual(new Set(['x']));
  expect(b.claim(['x'])).toEqual({ mine: new Set(), showing: new Set(['x']) });
  a.close();
  b.close();
});

it(`a claim made before the clock was set back holds no longer than a lease made now would: the notice is not left unshown until the clock catches up`, () => {
  dir = mkdtempSync(join(tmpdir(), 'claims-'));
  let t = T;
  const a = open(() => t);
  expect(a.claim(['x']).mine).toEqual(new Set(['x']));
  // The run died while showing it; the clock then set back a day (a dated pass ending, a wrong clock corrected).
  a.close();
  t -= 24 * 60 * 60_000;
  const b = open(() => t);
  expect(b.claim(['x'])).toEqual({ mine: new Set(['x']), showing: new Set() });
  b.close();
});

it(`what is remembered goes after thirty days, claims never settled too (a run whose last write failed): the file does not grow for ever`, () => {
  dir = mkdtempSync(join(tmpdir(), 'claims-'));
  let t = T;
  const a = open(() => t);
  a.claim(['shown', 'never settled']);
  a.settle(['shown'], []);
  a.close();
  t += 31 * 24 * 60 * 60_000;
  const b = open(() => t);
  b.claim(['new']);
  b.close();
  const db = new (sqlite().DatabaseSync)(join(dir, 'notices.db'));
  try {
    expect(db.prepare('SELECT id, state FROM notices').all()).toEqual([{ id: 'new', state: 'showing' }]);
  } finally {
    db.close();
  }
});
