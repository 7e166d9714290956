// What the answer-shape tests share (sandbox/shapes.test.ts, sandbox/echo-goal-shapes.test.ts): the
// compile-time equality the pins use, the two views every shape is shown in, objects "nearly" like
// the sandbox's, and the property both hold every shape to — whatever passes the check can be shown
// by every view typed against it without a TypeError; whatever fails is one line naming a field.
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Shape } from '../../src/api/validate.js';
import { makeColors } from '../../src/ui/color.js';
import type { View } from '../../src/ui/views.js';

/** True when A and B are the same type (for `true satisfies Equal<…>` pins, checked by tsc). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const [plainColors, fullColors] = await Promise.all([makeColors(0), makeColors(3)]);
/** Plain at 80 columns, and rich (colour, Markdown) at `width`. */
export const views = (width = 100): View[] => [
  { c: plainColors, rich: false, width: 80, now: new Date('2026-11-22T12:00:00Z') },
  { c: fullColors, rich: true, width, now: new Date('2026-11-22T12:00:00Z') },
];

/** An object like `base`, each field kept or swapped for a value of another kind (or left out). */
export function nearly(base: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const ref = fc.record({ id: fc.string(), name: fc.string(), title: fc.string() });
  const other = fc.oneof(
    fc.string(),
    fc.constant(null),
    fc.constant(undefined),
    fc.integer(),
    fc.boolean(),
    ref,
    fc.array(ref, { maxLength: 2 }),
    fc.anything(),
  );
  const fields = Object.fromEntries(
    Object.entries(base).map(([k, v]) => [k, fc.oneof({ weight: 3, arbitrary: fc.constant(v) }, { weight: 1, arbitrary: other })]),
  );
  return fc.record(fields).map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
}

/** A shape, where its samples are in what the sandbox answered, and what shows it (every view typed against it). */
export interface Shown<K extends string> {
  name: string;
  shape: Shape<unknown>;
  key: K;
  show: (v: View, x: never) => unknown;
}

/**
 * For each shape, objects nearly like the sandbox's (its first 20): one that passes the check is
 * shown by every view without a TypeError; one that fails gets one line naming a field the
 * sandbox's objects have.
 */
export function shownOrNamed<K extends string>(shown: Array<Shown<K>>, got: Record<K, unknown[]>, numRuns: number): void {
  for (const { name, shape, key, show } of shown) {
    const bases = got[key] as Array<Record<string, unknown>>;
    const fields = new Set(bases.flatMap((b) => Object.keys(b)));
    fc.assert(
      fc.property(fc.constantFrom(...bases.slice(0, 20)).chain(nearly), (value) => {
        const problem = shape(value, 'the answer');
        if (problem !== undefined) {
          expect(problem, name).toMatch(
            /^the answer\.\w+[.[\w\]]* is (null|missing|an? \w+|NaN|-?Infinity), not (a string|a number|a finite number|true or false|a list|an object)$/,
          );
          expect(fields.has(/^the answer\.(\w+)/.exec(problem)![1]!), `${name}: ${problem}`).toBe(true);
          return;
        }
        for (const v of views()) show(v, value as never);
      }),
      { numRuns },
    );
  }
}
