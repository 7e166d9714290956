// config/sha256.ts against node:crypto: the same hex for any text (ASCII, any Unicode, every length
// around the 64-byte block edges).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/config/sha256.js';
import { anyCodePoint } from './arbitraries.js';

const node = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('is FIPS 180-4 SHA-256: the known answers', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('agrees with node:crypto at every length around the block edges and for any text', () => {
    for (let n = 0; n < 200; n++) expect(sha256Hex('x'.repeat(n))).toBe(node('x'.repeat(n)));
    fc.assert(
      fc.property(fc.string({ unit: anyCodePoint, maxLength: 300 }), (s) => sha256Hex(s) === node(s)),
      { numRuns: 300 },
    );
  });
});
