import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildOrders } from '../../src/feed/build-orders.js';
import { randomProfile } from '../../src/feed/feed-profile.js';
import { addDays, dateRange } from '../../src/feed/iso-date.js';
import { Rng } from '../../src/feed/seeded-random.js';
import { RankedPositions } from '../../src/feed/ranked-positions.js';
import { quadraticBuildOrders } from '../support/quadratic-build-orders.js';

/**
 * The feed generator draws "the k-th still-free item" through RankedPositions
 * (n log n in the range's length) where it used to filter a fresh list per
 * draw (n squared): the same seed and range must give the same orders, draw
 * for draw, as the old builder (kept as the oracle).
 */
describe('feed orders: the n log n builder draws what the quadratic one drew', () => {
  it('the same orders for any seed and range (1 day to 13 months)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 3_000 }), (seed, length, offset) => {
        const start = addDays('2020-01-01', offset);
        const days = dateRange(start, addDays(start, length));
        const fast = new Rng(seed);
        const slow = new Rng(seed);
        expect(buildOrders(fast, days, randomProfile(fast, days))).toEqual(quadraticBuildOrders(slow, days, randomProfile(slow, days)));
        // Both consumed the random source alike: the next draw agrees too.
        expect(fast.float()).toBe(slow.float());
      }),
      { numRuns: 40 },
    );
  });
});

describe('RankedPositions', () => {
  it('count, before and nth agree with a plain sorted list through any adds and deletes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 400 }), fc.boolean(), (size, ops, full) => {
        const set = full ? RankedPositions.full(size) : new RankedPositions(size);
        const plain = new Set<number>(full ? Array.from({ length: size }, (_, i) => i) : []);
        for (const [add, raw] of ops) {
          const p = raw % size;
          if (add) {
            set.add(p);
            plain.add(p);
          } else {
            set.delete(p);
            plain.delete(p);
          }
        }
        const sorted = [...plain].sort((a, b) => a - b);
        expect(set.count).toBe(sorted.length);
        sorted.forEach((p, k) => {
          expect(set.nth(k)).toBe(p);
          expect(set.before(p)).toBe(k);
          expect(set.has(p)).toBe(true);
        });
      }),
      { numRuns: 200 },
    );
  });
});
