// Generators the property tests share.
import fc from 'fast-check';

/**
 * Any one code point, lone surrogates included: as many of UTF-8's 1-, 2-, 3- and 4-byte lengths.
 * fast-check's own `fc.string({ unit: 'binary' })` draws from the same set but first builds a
 * table of all 1.1 million code points, 4 s of CPU in each test process that uses it.
 */
export const anyCodePoint = fc
  .oneof(
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0x80, max: 0x7ff }),
    fc.integer({ min: 0x800, max: 0xffff }),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  )
  .map((cp) => String.fromCodePoint(cp));
