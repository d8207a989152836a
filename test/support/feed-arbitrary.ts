import fc from 'fast-check';
import type { FeedRow } from '../../src/feed/generate-feed.js';
import { addDays } from '../../src/feed/iso-date.js';

export const FEED_START = '2026-09-01';

export interface RandomFeed {
  readonly days: number;
  readonly rows: FeedRow[];
}

const statusArb = fc.constantFrom<FeedRow['status']>('delivered', 'delivered', 'delivered', 'cancelled', 'refunded');

/**
 * Random feeds: random days (some empty), orders with one to three versions
 * landing up to `maxLateness` days late, refunds, cancellations. Every
 * version of an order has its own load_date and the same order_date.
 */
export function feedArbitrary(maxLateness: number): fc.Arbitrary<RandomFeed> {
  return fc
    .record({
      days: fc.integer({ min: 2, max: 10 }),
      orders: fc.array(
        fc.record({
          day: fc.nat(9),
          amountCents: fc.integer({ min: 100, max: 50_000 }),
          versions: fc.array(fc.record({ lateness: fc.nat(maxLateness), status: statusArb }), { minLength: 1, maxLength: 3 }),
        }),
        { maxLength: 25 },
      ),
    })
    .map(({ days, orders }) => {
      const rows: FeedRow[] = [];
      orders.forEach((order, i) => {
        const orderDate = addDays(FEED_START, order.day % days);
        const seen = new Set<number>();
        for (const v of order.versions) {
          if (seen.has(v.lateness)) continue;
          seen.add(v.lateness);
          rows.push({ load_date: addDays(orderDate, v.lateness), order_id: i + 1, order_date: orderDate, status: v.status, amount: (order.amountCents / 100).toFixed(2) });
        }
      });
      rows.sort((a, b) => (a.load_date === b.load_date ? a.order_id - b.order_id : a.load_date < b.load_date ? -1 : 1));
      return { days, rows };
    });
}

/** Printed when a property fails, so the case reproduces by eye. */
export function describeFeed(feed: RandomFeed): string {
  return ['load_date,order_id,order_date,status,amount', ...feed.rows.map((r) => `${r.load_date},${r.order_id},${r.order_date},${r.status},${r.amount}`)].join('\n');
}
