// The stand-in the build puts in place of a built-in (scripts/build-rules.mjs, LAZY_BUILTIN): the
// module is loaded on the first read of a value, not when its names are listed or copied (as an ES
// module's import does), and writes reach the module itself.
import { describe, expect, it } from 'vitest';
import { LAZY_BUILTIN } from '../scripts/build-rules.mjs';

function standIn(module: Record<string, unknown>, keys: string[]) {
  const loads: string[] = [];
  const require = (id: string) => (loads.push(id), module);
  const lazyBuiltin = new Function('require', `${LAZY_BUILTIN}\nreturn lazyBuiltin;`)(require) as (id: string, keys: string[]) => Record<string, unknown>;
  return { proxy: lazyBuiltin('node:thing', keys), loads };
}

describe('a built-in loaded on first use', () => {
  it('its names and their descriptors, as an import copies them, load nothing; a value loads it once', () => {
    const mod = { spawn: () => 'spawned', PI: 3 };
    const { proxy, loads } = standIn(mod, ['spawn', 'PI']);
    expect(proxy.__esModule).toBe(true);
    const copy: Record<string, unknown> = {};
    for (const k of Object.getOwnPropertyNames(proxy)) Object.defineProperty(copy, k, { get: () => proxy[k], enumerable: Object.getOwnPropertyDescriptor(proxy, k)!.enumerable });
    expect(loads).toEqual([]);
    expect((copy.spawn as () => string)()).toBe('spawned');
    expect(copy.PI).toBe(3);
    expect(loads).toEqual(['node:thing']);
  });

  it('writes, definitions and deletions reach the module; a name not listed is not claimed', () => {
    const mod: Record<string, unknown> = { a: 1 };
    const { proxy } = standIn(mod, ['a']);
    expect(Object.hasOwn(proxy, 'bogus')).toBe(false);
    proxy.b = 2;
    expect(mod.b).toBe(2);
    expect(proxy.b).toBe(2);
    Object.defineProperty(proxy, 'c', { value: 3, configurable: true });
    expect(mod.c).toBe(3);
    delete proxy.b;
    expect('b' in mod).toBe(false);
    expect(Object.keys(proxy).sort()).toEqual(['a']);
  });
});
