/**
 * The shape of a generated feed: orders per day and how late their versions
 * land. The random profile draws it from the seed; the reference one
 * (reference-profile.ts) reproduces the story's figures.
 */
import { addDays, dateRange, dayOfWeek, daysBetween } from './iso-date.js';
import type { Rng } from './seeded-random.js';

/** Rows landing more than this many days late are all refunds. */
export const ON_TIME_MAX_LATENESS = 3;

/** Counts indexed by lateness in days: counts[d] rows land d days late. */
export type LatenessCounts = readonly number[];

export interface FeedProfile {
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
  /**
   * A late refund placed by hand: order `index` of `date` (counted from 0),
   * `lateness` days late, taken from `lateRefunds`. Its day gets nothing else
   * late or undone and no earlier day gets a follow-up, so it is the first
   * order ever refunded (the lesson's order 50044). The random profile has none.
   */
  readonly pinnedRefund?: { readonly date: string; readonly index: number; readonly lateness: number };
}

export function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Relative order volume of a day: weekends and Mondays are busier. */
export function dayWeight(rng: Rng, iso: string): number {
  const dow = dayOfWeek(iso);
  const weekday = dow === 0 || dow === 6 ? 1.25 : dow === 1 ? 1.1 : 1;
  return weekday * (0.8 + 0.4 * rng.float());
}

/** Split `total` over `weights` proportionally (largest remainder), each share at least `min`. */
export function apportion(total: number, weights: readonly number[], min: number): number[] {
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
export function chooseLateDates(rng: Rng, first: string, last: string, count: number, exclude: string): string[] {
  if (first === last) return [first];
  const between = dateRange(addDays(first, 1), addDays(last, -1)).filter((d) => d !== exclude);
  return [first, ...rng.sample(between, Math.max(0, Math.min(count - 2, between.length))), last];
}

export function randomProfile(rng: Rng, days: readonly string[]): FeedProfile {
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
