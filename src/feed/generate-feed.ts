/**
 * Deterministic generator for the Brightcart `raw_orders` feed.
 *
 * The feed is append-only: one row per version of an order, as it landed in
 * the warehouse. Every order has a first version that lands 0..3 days after
 * its order_date; some orders get one later version (a refund or a
 * cancellation). Every row landing more than 3 days late is a refund of an
 * order that was delivered, so it changes that day's revenue: exactly the
 * rows a short incremental lookback silently misses.
 *
 * Generation is a pure function of (seed, start, end): a small seeded PRNG
 * (mulberry32) drives every choice; no Math.random, no wall clock.
 *
 * With the default seed and range the feed reproduces every figure of the
 * lesson the story comes from (reference-feed.ts: 1,124 rows, 1,032 orders,
 * the lateness histogram, 41 days stale after a lookback-3 replay, order
 * 50044, the monthly revenue of the full rebuild and of the nightly replay,
 * ...). Any other seed or range draws the shape itself from the seed (volume,
 * lateness histogram, longest lateness 13 or 14 days) under the same
 * invariants, with amounts as drawn. Order ids count from 50001 in
 * order_date order.
 */
import { buildOrders, type FeedStatus } from './build-orders.js';
import { randomProfile } from './feed-profile.js';
import { addDays, dateRange, isIsoDate } from './iso-date.js';
import { referenceOrders } from './reference-feed.js';
import { Rng } from './seeded-random.js';

export type { FeedStatus };

export interface FeedRow {
  load_date: string;
  order_id: number;
  order_date: string;
  status: FeedStatus;
  /** Two decimals, e.g. "23.50". */
  amount: string;
}

export interface GenerateFeedOptions {
  /** Default DEFAULT_FEED_SEED. */
  seed?: number;
  /** First order_date, ISO YYYY-MM-DD. Default '2026-09-01'. */
  start?: string;
  /** Last order_date and last load_date, ISO YYYY-MM-DD. Default '2026-10-31'. */
  end?: string;
}

export const DEFAULT_FEED_SEED = 2026;
export const DEFAULT_FEED_START = '2026-09-01';
export const DEFAULT_FEED_END = '2026-10-31';

export const FEED_CSV_HEADER = 'load_date,order_id,order_date,status,amount';

function formatAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function resolveOptions(options: GenerateFeedOptions): { seed: number; start: string; end: string } {
  const seed = options.seed ?? DEFAULT_FEED_SEED;
  const start = options.start ?? DEFAULT_FEED_START;
  const end = options.end ?? DEFAULT_FEED_END;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`feed seed must be an integer, got ${seed}`);
  if (!isIsoDate(start)) throw new RangeError(`feed start must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(start)}`);
  if (!isIsoDate(end)) throw new RangeError(`feed end must be an ISO date (YYYY-MM-DD), got ${JSON.stringify(end)}`);
  if (end < start) throw new RangeError(`feed end ${end} is before start ${start}`);
  return { seed, start, end };
}

/**
 * Generate the raw_orders feed, sorted by load_date, then order_id.
 * Same options, same rows, on any machine.
 */
export function generateFeed(options: GenerateFeedOptions = {}): FeedRow[] {
  const { seed, start, end } = resolveOptions(options);
  const days = dateRange(start, end);
  const isReference = seed === DEFAULT_FEED_SEED && start === DEFAULT_FEED_START && end === DEFAULT_FEED_END;
  const rng = new Rng(seed);
  const orders = isReference ? referenceOrders(seed, days) : buildOrders(rng, days, randomProfile(rng, days));

  const rows: FeedRow[] = [];
  for (const order of orders) {
    const amount = formatAmount(order.cents);
    for (const version of order.later ? [order.first, order.later] : [order.first]) {
      rows.push({
        load_date: addDays(order.date, version.lateness),
        order_id: order.id,
        order_date: order.date,
        status: version.status,
        amount,
      });
    }
  }
  return rows.sort((a, b) => (a.load_date < b.load_date ? -1 : a.load_date > b.load_date ? 1 : a.order_id - b.order_id));
}

/** The feed as CSV: header line, one line per row, '\n' line endings and a trailing newline. */
export function feedToCsv(rows: readonly FeedRow[]): string {
  const lines = [FEED_CSV_HEADER];
  for (const r of rows) lines.push(`${r.load_date},${r.order_id},${r.order_date},${r.status},${r.amount}`);
  return `${lines.join('\n')}\n`;
}
