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
 * With the default seed and range the feed reproduces the reference figures
 * of the story (1,124 rows, 1,032 orders, the lateness histogram, 41 days
 * stale after a lookback-3 replay, first 2026-09-03, last 2026-10-26). Any
 * other seed or range draws the shape itself from the seed (volume, lateness
 * histogram, longest lateness 13 or 14 days) under the same invariants.
 */
import { addDays, dateRange, daysBetween, isIsoDate } from './iso-date.js';
import { Rng } from './seeded-random.js';
import { randomProfile, referenceProfile, type FeedProfile, type LatenessCounts } from './feed-profile.js';

export type FeedStatus = 'delivered' | 'refunded' | 'cancelled';

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

/** Rows landing more than this many days late are always refunds of delivered orders. */
const FIRST_ORDER_ID = 100_001;
const MIN_AMOUNT_CENTS = 500;
const MAX_AMOUNT_CENTS = 25_000;

export const FEED_CSV_HEADER = 'load_date,order_id,order_date,status,amount';

// ---------------------------------------------------------------------------
// From a profile to rows

interface Version {
  lateness: number;
  status: FeedStatus;
}

interface Order {
  id: number;
  date: string;
  /** Days from order_date to the end of the range: the most a version of it can be late. */
  room: number;
  cents: number;
  first: Version;
  later?: Version;
}

function expand(counts: LatenessCounts): number[] {
  return counts.flatMap((c, lateness) => Array.from({ length: c }, () => lateness));
}

/** A grocery basket total: log-normal around 42.00, clamped to 5.00..250.00. */
function drawAmountCents(rng: Rng): number {
  const cents = Math.round(Math.exp(Math.log(4200) + 0.55 * rng.normal()));
  return Math.min(MAX_AMOUNT_CENTS, Math.max(MIN_AMOUNT_CENTS, cents));
}

/**
 * Give every late-refund date at least one late lateness that still lands by
 * `end`, then spread the remaining ones. Dates are served latest first: the
 * values allowed on a date are a prefix of the sorted values and the prefixes
 * grow with earlier dates, so any choice keeps the rest assignable.
 */
function assignLateRefunds(rng: Rng, profile: FeedProfile, end: string, capacity: Map<string, number>): Array<[string, number]> {
  const values = rng.shuffle(expand(profile.lateRefunds));
  const dates = [...profile.lateDates].sort().reverse();
  const room = new Map(profile.lateDates.map((d) => [d, daysBetween(d, end)]));
  const fits = (date: string, lateness: number) => (room.get(date) ?? 0) >= lateness;
  const placed: Array<[string, number]> = [];
  const used = new Map<string, number>();
  const place = (date: string, index: number) => {
    placed.push([date, values[index]!]);
    values.splice(index, 1);
    used.set(date, (used.get(date) ?? 0) + 1);
  };

  for (const date of dates) {
    const candidates = values.flatMap((v, i) => (fits(date, v) ? [i] : []));
    if (candidates.length === 0 || (capacity.get(date) ?? 0) < 1) continue;
    place(date, rng.pick(candidates));
  }
  // Longest first: they fit on the fewest dates. Keep at most 4 per date when possible.
  values.sort((a, b) => b - a);
  while (values.length > 0) {
    const lateness = values[0]!;
    const open = dates.filter((d) => fits(d, lateness) && (used.get(d) ?? 0) < (capacity.get(d) ?? 0));
    const roomy = open.filter((d) => (used.get(d) ?? 0) < 4);
    const choices = roomy.length > 0 ? roomy : open;
    if (choices.length === 0) {
      values.shift(); // no room anywhere (only possible on tiny custom ranges)
      continue;
    }
    place(rng.pick(choices), 0);
  }
  return placed;
}

function buildOrders(rng: Rng, days: readonly string[], profile: FeedProfile): Order[] {
  const end = days[days.length - 1]!;
  const orders: Order[] = [];
  const byDate = new Map<string, Order[]>();
  days.forEach((date, dayIndex) => {
    const list: Order[] = [];
    for (let k = 0; k < (profile.dailyOrders[dayIndex] ?? 0); k++) {
      const order: Order = {
        id: FIRST_ORDER_ID + orders.length,
        date,
        room: days.length - 1 - dayIndex,
        cents: drawAmountCents(rng),
        first: { lateness: 0, status: 'delivered' },
      };
      orders.push(order);
      list.push(order);
    }
    byDate.set(date, list);
  });

  const cancelledOnly = byDate.get(profile.cancelledOnlyDay) ?? [];
  for (const order of cancelledOnly) order.first.status = 'cancelled';
  const reserved = new Set(cancelledOnly);

  // Late refunds: a delivered order, refunded more than 3 days after its order_date.
  const capacity = new Map(profile.lateDates.map((d) => [d, (byDate.get(d) ?? []).filter((o) => !reserved.has(o)).length]));
  for (const [date, lateness] of assignLateRefunds(rng, profile, end, capacity)) {
    const free = (byDate.get(date) ?? []).filter((o) => !o.later && !reserved.has(o));
    const order = rng.pick(free);
    order.later = { lateness, status: 'refunded' };
  }

  // Follow-ups inside the lookback: a delivered order refunded or cancelled 1..3 days late.
  for (const lateness of expand(profile.followUps).sort((a, b) => b - a)) {
    const free = orders.filter((o) => !o.later && !reserved.has(o) && o.room >= lateness);
    if (free.length === 0) continue;
    const order = rng.pick(free);
    order.later = { lateness, status: rng.float() < 0.6 ? 'refunded' : 'cancelled' };
  }

  // First versions landing 1..3 days late, most constrained first; always before any later version.
  const pending = new Set(orders);
  let free: Order[] = [];
  let freeFor = -1;
  for (const lateness of expand(profile.firstLateness).filter((l) => l > 0).sort((a, b) => b - a)) {
    if (lateness !== freeFor) {
      free = [...pending].filter((o) => o.room >= lateness && (!o.later || o.later.lateness > lateness));
      freeFor = lateness;
    }
    if (free.length === 0) continue;
    const index = Math.floor(rng.float() * free.length);
    const order = free[index]!;
    free.splice(index, 1);
    order.first.lateness = lateness;
    pending.delete(order);
  }

  // Some orders are cancelled outright; never one that has a later version.
  for (const order of orders) {
    if (!order.later && !reserved.has(order) && rng.float() < profile.cancelShare) order.first.status = 'cancelled';
  }
  return orders;
}

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
  const rng = new Rng(seed);
  const days = dateRange(start, end);
  const isReference = seed === DEFAULT_FEED_SEED && start === DEFAULT_FEED_START && end === DEFAULT_FEED_END;
  const profile = isReference ? referenceProfile(rng, days) : randomProfile(rng, days);

  const rows: FeedRow[] = [];
  for (const order of buildOrders(rng, days, profile)) {
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
