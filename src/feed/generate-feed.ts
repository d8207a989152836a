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
import { addDays, dateRange, dayOfWeek, daysBetween, isIsoDate } from './iso-date.js';

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
const ON_TIME_MAX_LATENESS = 3;
const FIRST_ORDER_ID = 100_001;
const MIN_AMOUNT_CENTS = 500;
const MAX_AMOUNT_CENTS = 25_000;

export const FEED_CSV_HEADER = 'load_date,order_id,order_date,status,amount';

// ---------------------------------------------------------------------------
// PRNG

/** mulberry32: tiny, fast, good enough for test data. Returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** Integer in lo..hi, both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
  /** k distinct items, in their original order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const chosen = new Set(this.shuffle(items.map((_, i) => i)).slice(0, k));
    return items.filter((_, i) => chosen.has(i));
  }
  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

// ---------------------------------------------------------------------------
// Shape of a feed

/** Counts indexed by lateness in days: counts[d] rows land d days late. */
type LatenessCounts = readonly number[];

interface FeedProfile {
  /** Orders per order_date, aligned with the date range. */
  readonly dailyOrders: readonly number[];
  /** Lateness of first versions (indices 0..3). */
  readonly firstLateness: LatenessCounts;
  /** Later versions landing 1..3 days late: refunds or cancellations of delivered orders. */
  readonly followUps: LatenessCounts;
  /** Refunds landing more than 3 days late (indices 4..). */
  readonly lateRefunds: LatenessCounts;
  /** Distinct order_dates that receive the late refunds (each gets at least one). */
  readonly lateDates: readonly string[];
  /** A day with exactly one order, cancelled. */
  readonly cancelledOnlyDay: string;
  /** Share of the other orders whose (only) version is a cancellation. */
  readonly cancelShare: number;
}

/** The reference feed of the story, reproduced by the default seed over the default range. */
const REFERENCE = {
  monthOrders: { '2026-09': 491, '2026-10': 541 } as Record<string, number>,
  // 840 + 150 + 36 + 6 = 1,032 first versions
  firstLateness: [840, 150, 36, 6],
  // 26 later versions landing within the lookback: 164 - 150, 45 - 36, 9 - 6
  followUps: [0, 14, 9, 3],
  // 66 late refunds: 4: 7, 5: 10, 6: 10, 7: 11, 8: 11, 9: 13, 10: 3, 11: 1
  lateRefunds: [0, 0, 0, 0, 7, 10, 10, 11, 11, 13, 3, 1],
  firstLateDate: '2026-09-03',
  lastLateDate: '2026-10-26',
  lateDateCount: 41,
  cancelShare: 0.04,
} as const;

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Relative order volume of a day: weekends and Mondays are busier. */
function dayWeight(rng: Rng, iso: string): number {
  const dow = dayOfWeek(iso);
  const weekday = dow === 0 || dow === 6 ? 1.25 : dow === 1 ? 1.1 : 1;
  return weekday * (0.8 + 0.4 * rng.float());
}

/** Split `total` over `weights` proportionally (largest remainder), each share at least `min`. */
function apportion(total: number, weights: readonly number[], min: number): number[] {
  const n = weights.length;
  if (n === 0) return [];
  const floor = Math.min(min, Math.floor(total / n));
  const rest = total - floor * n;
  const w = sum(weights);
  const exact = weights.map((x) => (rest * x) / w);
  const counts = exact.map((x) => floor + Math.floor(x));
  let missing = total - sum(counts);
  const byRemainder = exact
    .map((x, i) => ({ i, r: x - Math.floor(x) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; missing > 0; k = (k + 1) % n, missing--) counts[byRemainder[k]!.i]! += 1;
  return counts;
}

/** Draw `n` values from `weights` (index = value), as counts per value. */
function drawCounts(rng: Rng, n: number, weights: readonly number[]): number[] {
  const counts = weights.map(() => 0);
  const total = sum(weights);
  for (let k = 0; k < n; k++) {
    let x = rng.float() * total;
    let i = 0;
    while (i < weights.length - 1 && x >= weights[i]!) x -= weights[i++]!;
    counts[i]! += 1;
  }
  return counts;
}

/** Late-refund order_dates: `count` distinct days from first..last, both included, avoiding `exclude`. */
function chooseLateDates(rng: Rng, first: string, last: string, count: number, exclude: string): string[] {
  if (first === last) return [first];
  const between = dateRange(addDays(first, 1), addDays(last, -1)).filter((d) => d !== exclude);
  return [first, ...rng.sample(between, Math.max(0, Math.min(count - 2, between.length))), last];
}

function referenceProfile(rng: Rng, days: readonly string[]): FeedProfile {
  const first = REFERENCE.firstLateDate;
  const last = REFERENCE.lastLateDate;
  const september = days.filter((d) => d.startsWith('2026-09') && d !== first && d !== last && d > first);
  const cancelledOnlyDay = rng.pick(september);
  const lateDates = chooseLateDates(rng, first, last, REFERENCE.lateDateCount, cancelledOnlyDay);

  const dailyOrders = days.map(() => 0);
  for (const [month, total] of Object.entries(REFERENCE.monthOrders)) {
    const idx = days.flatMap((d, i) => (d.startsWith(month) && d !== cancelledOnlyDay ? [i] : []));
    const hasCancelledDay = cancelledOnlyDay.startsWith(month) ? 1 : 0;
    const counts = apportion(total - hasCancelledDay, idx.map((i) => dayWeight(rng, days[i]!)), 8);
    idx.forEach((i, k) => (dailyOrders[i] = counts[k]!));
  }
  dailyOrders[days.indexOf(cancelledOnlyDay)] = 1;

  return {
    dailyOrders,
    firstLateness: REFERENCE.firstLateness,
    followUps: REFERENCE.followUps,
    lateRefunds: REFERENCE.lateRefunds,
    lateDates,
    cancelledOnlyDay,
    cancelShare: REFERENCE.cancelShare,
  };
}

function randomProfile(rng: Rng, days: readonly string[]): FeedProfile {
  const start = days[0]!;
  const end = days[days.length - 1]!;
  const n = days.length;

  // Late refunds need an order_date at least 4 days before the end.
  const lastPossible = addDays(end, -(ON_TIME_MAX_LATENESS + 1));
  const hasLate = n >= ON_TIME_MAX_LATENESS + 2;
  let first = start;
  let last = start;
  if (hasLate) {
    first = days[Math.min(rng.int(1, 3), daysBetween(start, lastPossible))]!;
    const lastCandidate = addDays(lastPossible, -rng.int(0, 2));
    last = lastCandidate < first ? first : lastCandidate;
  }

  const cancelCandidates = days.filter((d) => !hasLate || (d !== first && d !== last));
  const inner = cancelCandidates.filter((d) => d !== start && d !== end);
  const cancelledOnlyDay = rng.pick(inner.length > 0 ? inner : cancelCandidates.length > 0 ? cancelCandidates : days);

  const dailyOrders = days.map((d) => (d === cancelledOnlyDay ? 1 : Math.max(8, Math.round(17 * dayWeight(rng, d) + 2 * rng.normal()))));
  const orders = sum(dailyOrders);

  const share1 = 0.12 + 0.06 * rng.float();
  const share2 = 0.03 + 0.02 * rng.float();
  const share3 = 0.005 + 0.01 * rng.float();
  const l1 = Math.round(orders * share1);
  const l2 = Math.round(orders * share2);
  const l3 = Math.round(orders * share3);
  const firstLateness = [orders - l1 - l2 - l3, l1, l2, l3];
  const followUps = drawCounts(rng, Math.round(orders * (0.02 + 0.01 * rng.float())), [0, 0.5, 0.35, 0.15]);

  let lateRefunds: number[] = [];
  let lateDates: string[] = [];
  if (hasLate) {
    // Refunds are allowed for 14 days: the longest lateness is 13 or 14, unless the range is shorter.
    const longest = Math.min(13 + rng.int(0, 1), daysBetween(first, end));
    const numLate = Math.max(1, Math.round(orders * (0.05 + 0.03 * rng.float())));
    const weights = Array.from({ length: longest + 1 }, (_, d) =>
      d <= ON_TIME_MAX_LATENESS ? 0 : (0.6 + 0.8 * rng.float()) * (d <= longest - 2 ? 1 : 0.3),
    );
    lateRefunds = drawCounts(rng, numLate - 1, weights);
    lateRefunds[longest]! += 1;
    const span = daysBetween(first, last) + 1;
    const count = Math.min(numLate, Math.max(1, Math.round(span * (0.6 + 0.2 * rng.float()))));
    lateDates = chooseLateDates(rng, first, last, count, cancelledOnlyDay);
  }

  return {
    dailyOrders,
    firstLateness,
    followUps,
    lateRefunds,
    lateDates,
    cancelledOnlyDay,
    cancelShare: 0.02 + 0.04 * rng.float(),
  };
}

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
