import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/feed/build-orders.js';
import { fitAmounts } from '../../../src/feed/fit-amounts.js';

const order = (id: number, cents: number): Order => ({ id, date: '2026-09-01', room: 0, cents, first: { lateness: 0, status: 'delivered' } });
const total = (orders: readonly Order[]) => orders.reduce((a, o) => a + o.cents, 0);

describe('fitAmounts', () => {
  it('scales each group to its sum exactly, in whole cents, keeping the order of the amounts', () => {
    const a = [order(1, 1_000), order(2, 3_333), order(3, 2_500)];
    const b = [order(4, 40_000), order(5, 10_001)];
    fitAmounts([
      { name: 'a', orders: a, cents: 10_001 },
      { name: 'b', orders: b, cents: 49_999 },
    ]);
    expect(total(a)).toBe(10_001);
    expect(total(b)).toBe(49_999);
    expect(a.map((o) => o.cents)).toEqual([1_463, 4_879, 3_659]) // floor(x * 10001 / 6833), the cent left over to the largest;
    expect([...a].sort((x, y) => x.cents - y.cents).map((o) => o.id)).toEqual([1, 3, 2]);
    expect(b.every((o) => Number.isInteger(o.cents))).toBe(true);
  });

  it('refuses a group with no orders or one whose amounts would leave the sane range', () => {
    expect(() => fitAmounts([{ name: 'empty', orders: [], cents: 100 }])).toThrow(/has no orders/);
    expect(() => fitAmounts([{ name: 'tiny', orders: [order(1, 1_000), order(2, 1_000)], cents: 600 }])).toThrow(/order 1 would get 300 cents/);
  });
});
