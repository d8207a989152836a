import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainJsonCopy } from '../../../src/project/plain-json-copy.js';

/** Deep equality by own keys, prototypes and Object.is (toStrictEqual reads an own `constructor` key as the class). */
function same(a: unknown, b: unknown): boolean {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.join('\u0000') !== Object.keys(b).join('\u0000')) return false;
  return keys.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

describe('plainJsonCopy', () => {
  it('copies plain JSON as structuredClone does, sharing nothing with the original', () => {
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', '0', 'toString'));
    const json = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, true, false, 0, -0, 1.5, '', 'x'),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.array(fc.tuple(key, tie('v')), { maxLength: 3 }).map((entries) => {
          const o: Record<string, unknown> = {};
          for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
          return o;
        }),
      ),
    })).v;
    fc.assert(
      fc.property(json, (value) => {
        const copy = plainJsonCopy(value);
        expect(same(copy, structuredClone(value))).toBe(true);
        if (value !== null && typeof value === 'object') {
          expect(copy).not.toBe(value);
          // Mutating the copy leaves the original alone.
          const before = structuredClone(value);
          if (Array.isArray(copy)) copy.push('changed');
          else (copy as Record<string, unknown>).added = 1;
          expect(same(value, before)).toBe(true);
        }
      }),
      { seed: 20261204, numRuns: 500 },
    );
  });

  it('keeps an own __proto__ key as a key, not as the prototype', () => {
    const value = JSON.parse('{"__proto__": {"a": 1}, "b": [1, {"__proto__": 2}]}') as Record<string, unknown>;
    const copy = plainJsonCopy(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'b']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });
});
